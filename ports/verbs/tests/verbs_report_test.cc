// The report of nicc-verbs run: the latency histogram's percentiles, the
// per-interval and summary arithmetic, JSON / CSV / plot output, and the
// perftest short-flag pre-pass.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "fake_device.h"
#include "nicc/verbs/cli_args.h"
#include "nicc/verbs/latency_histogram.h"
#include "nicc/verbs/run_report.h"
#include "temp_tree.h"

namespace nicc {
namespace verbs {
namespace {

using ::testing::ElementsAre;
using testing::FakeDevice;
using ::testing::HasSubstr;
using testing::TempTree;

TEST(LatencyHistogramTest, BucketsAreContiguousAndNarrow) {
  // Every value maps to a bucket whose upper edge is >= it and whose
  // previous bucket's edge is < it; widths are at most 1/32 of the value.
  for (uint64_t v : {0ull, 1ull, 31ull, 32ull, 33ull, 63ull, 64ull, 1000ull, 10100ull, 65535ull,
                     1000000ull, 123456789ull, 4294967295ull}) {
    const uint32_t i = LatencyHistogram::Index(v);
    EXPECT_GE(LatencyHistogram::UpperEdge(i), v) << v;
    if (i > 0) {
      EXPECT_LT(LatencyHistogram::UpperEdge(i - 1), v) << v;
    }
    if (v >= 32) {
      EXPECT_LE(LatencyHistogram::UpperEdge(i) - v, v / 32) << v;
    }
  }
  EXPECT_EQ(LatencyHistogram::Index(1ull << 40), LatencyHistogram::kBuckets - 1);
}

TEST(LatencyHistogramTest, PercentilesOfAKnownDistribution) {
  LatencyHistogram h;
  EXPECT_EQ(h.Percentile(50), 0u);
  for (uint64_t v = 1; v <= 10000; ++v) h.Record(v * 100);  // 100 ns .. 1 ms, uniform
  EXPECT_EQ(h.count(), 10000u);
  // Exact ranks: p50 = 500000, p99 = 990000, p99.9 = 999000 (ns); the
  // histogram may over-state by one bucket (<= 1/32).
  auto near = [](uint64_t got, double want) {
    return static_cast<double>(got) >= want && static_cast<double>(got) <= want * (1 + 1.0 / 32);
  };
  EXPECT_TRUE(near(h.Percentile(50), 500000)) << h.Percentile(50);
  EXPECT_TRUE(near(h.Percentile(99), 990000)) << h.Percentile(99);
  EXPECT_TRUE(near(h.Percentile(99.9), 999000)) << h.Percentile(99.9);
  EXPECT_EQ(h.Percentile(100), 1000000u) << "capped at the largest value seen";
  h.Record(5000000);  // one outlier: max, p100
  EXPECT_EQ(h.max(), 5000000u);
  EXPECT_TRUE(near(h.Percentile(50), 500000));
}

TEST(RunReportTest, IntervalsSummaryJsonAndCsv) {
  FakeDevice::Config cfg;
  FakeDevice dev(cfg);
  ibv_context* ctx = dev.OpenFirst();
  ibv_pd* pd = dev.AllocPd(ctx);
  PathSetOptions o;
  o.num_paths = 2;
  o.line_rate_mbps = 100000;
  auto ps = PathSet::Create(&dev, ctx, pd, o);
  ASSERT_TRUE(ps.ok()) << ps.status();
  PeerInfo peer;
  peer.qpns = {0x900, 0x901};
  ASSERT_TRUE((*ps)->Connect(peer).ok());
  dev.SetRttNs(0, 4000);
  dev.SetRttNs(1, 8000);
  LatencyHistogram lat;
  (*ps)->set_latency_histogram(&lat);
  RunReport rep(2);
  // Second 1: 10 x 1000 B; second 2: 30 x 1000 B. ops alternates the paths.
  const uint64_t t0 = dev.now();
  auto send = [&](int n) {
    for (int i = 0; i < n; ++i) {
      ASSERT_EQ((*ps)->PostWrite({0x1000, 1, 1000, 0x2000, 2}).result, PostResult::kPosted);
      dev.SetNow(dev.now() + 10000);
      (*ps)->Poll(64);
    }
  };
  send(10);
  dev.SetNow(t0 + 1000000000ull);
  (*ps)->Poll(64);
  const ReportInterval& a = rep.Sample(dev.now() - t0, **ps, 3);
  EXPECT_EQ(a.bytes, 10000u);
  EXPECT_EQ(a.messages, 10u);
  EXPECT_EQ(a.cnps, 3u);
  EXPECT_DOUBLE_EQ(a.gbps(), 10000 * 8e-9);
  EXPECT_THAT(a.path_bytes, ElementsAre(5000u, 5000u));
  EXPECT_THAT(a.path_rtt_ns, ElementsAre(4000u, 8000u));
  send(30);
  dev.SetNow(t0 + 2000000000ull);
  (*ps)->Poll(64);
  const ReportInterval& b = rep.Sample(dev.now() - t0, **ps, 10);
  EXPECT_EQ(b.bytes, 30000u);
  EXPECT_EQ(b.cnps, 7u);
  rep.Finish(2000000000ull, **ps, 10, lat);
  const ReportSummary& s = rep.summary();
  EXPECT_EQ(s.bytes, 40000u);
  EXPECT_EQ(s.messages, 40u);
  EXPECT_DOUBLE_EQ(s.avg_gbps, 40000 * 8e-9 / 2);
  EXPECT_DOUBLE_EQ(s.peak_gbps, 30000 * 8e-9);
  EXPECT_EQ(s.lat_samples, 40u);
  // Half the completions took 4 us, half 8 us. p50 is the upper edge of
  // 4000's bucket ([3968, 4031]: 2^11..2^12 in 32 steps of 64); p99 is
  // capped at the largest value seen.
  EXPECT_EQ(s.lat_p50_ns, 4031u);
  EXPECT_EQ(s.lat_p99_ns, 8000u);
  EXPECT_EQ(s.cnps, 10u);
  const std::string j = rep.Json("\"cc\": \"none\"");
  EXPECT_THAT(
      j,
      HasSubstr("\"cc\": \"none\",\n  \"seconds\": 2.000000, \"bytes\": 40000, \"messages\": 40"));
  EXPECT_THAT(j, HasSubstr("\"latency_ns\": {\"samples\": 40, \"p50\": 4031, \"p99\": 8000"));
  EXPECT_THAT(j, HasSubstr("\"path_bytes\": [15000, 15000], \"path_rtt_ns\": [4000, 8000]"));
  const std::string csv = rep.Csv();
  EXPECT_THAT(
      csv,
      HasSubstr(
          "t_s,gbps,msg_rate,rate_gbps,cnps,path0_gbps,path1_gbps,path0_rtt_us,path1_rtt_us\n"));
  EXPECT_THAT(csv,
              HasSubstr("\n2.000000,0.000240,30.000,100.000000,7,0.000120,0.000120,4.000,8.000\n"));
  std::ostringstream out;
  rep.PrintSummary("none", "ops", out);
  EXPECT_THAT(out.str(), HasSubstr("0.000 Gb/s peak"));  // 240 kb/s: below the print resolution
  EXPECT_THAT(out.str(), HasSubstr("completion latency (us, 40 samples): p50 4.03  p99 8.00"));
  EXPECT_THAT(out.str(), HasSubstr("CNPs seen: 10"));
  // The plot: the CSV beside the PNG, and the script run on it.
  TempTree t;
  const std::string png = t.Path("run.png");
  absl::Status st = rep.Plot(png, NICC_VERBS_PLOT_SCRIPT);
  ASSERT_TRUE(st.ok()) << st;
  std::ifstream f(png + ".csv");
  std::stringstream ss;
  ss << f.rdbuf();
  EXPECT_EQ(ss.str(), csv);
  // With matplotlib (scripts/setup.sh installs it) the PNG is there too.
  if (system("/usr/bin/python3 -c 'import matplotlib' 2>/dev/null") == 0) {
    EXPECT_TRUE(std::filesystem::exists(png));
    EXPECT_GT(std::filesystem::file_size(png), 10000u);
  }
  EXPECT_FALSE(rep.Plot(t.Path("no/such/dir/x.png"), NICC_VERBS_PLOT_SCRIPT).ok());
  (*ps)->set_latency_histogram(nullptr);
  ps->reset();
  (void)dev.DeallocPd(pd);
  (void)dev.CloseDevice(ctx);
}

std::vector<std::string> Map(std::vector<std::string> in, std::string* error = nullptr) {
  std::vector<std::string> out;
  std::string e;
  if (!MapPerftestArgs(in, &out, &e)) {
    if (error) *error = e;
    return {};
  }
  return out;
}

TEST(CliArgsTest, PerftestShortFlagsMapToOurs) {
  EXPECT_THAT(Map({"nicc-verbs", "run", "host", "-D", "10", "-s", "4096", "-n", "7"}),
              ElementsAre("nicc-verbs", "run", "host", "--duration_s=10", "--msg_size=4096",
                          "--messages=7"));
  EXPECT_THAT(Map({"x", "-D2.5", "-s65536"}),
              ElementsAre("x", "--duration_s=2.5", "--msg_size=65536"));
  // Abseil's single-dash long flags are not short flags.
  EXPECT_THAT(Map({"x", "-sysfs_root=/tmp", "-num_paths=8", "-duration_s=1"}),
              ElementsAre("x", "-sysfs_root=/tmp", "-num_paths=8", "-duration_s=1"));
  EXPECT_THAT(Map({"x", "--rdma-cm", "--rdma-cm=false"}),
              ElementsAre("x", "--rdma_cm", "--rdma_cm=false"));
  EXPECT_THAT(
      Map({"x", "cc", "--set", "rp_gd=12", "apply", "--set=dcqcn.rp_ai_rate=10", "-set", "a=1"}),
      ElementsAre("x", "cc", "--set=rp_gd=12,dcqcn.rp_ai_rate=10,a=1", "apply"));
  EXPECT_THAT(Map({"x", "--", "-D", "1"}), ElementsAre("x", "--", "-D", "1"));
  std::string err;
  EXPECT_TRUE(Map({"x", "run", "-n"}, &err).empty());
  EXPECT_EQ(err, "-n needs a value (--messages)");
}

}  // namespace
}  // namespace verbs
}  // namespace nicc
