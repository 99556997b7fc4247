// PathSet on the fake device: spray choice per message, rate limits per QP,
// completion timestamps -> RTT, capability gaps and their degradations.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <set>

#include "fake_device.h"
#include "nicc/dcqcn.h"
#include "nicc/spray.h"
#include "nicc/verbs/path_set.h"

namespace nicc {
namespace verbs {
namespace {

using ::testing::HasSubstr;
using testing::FakeDevice;

class PathSetTest : public ::testing::Test {
 protected:
  void Make(const FakeDevice::Config& cfg, const PathSetOptions& opt) {
    dev_ = std::make_unique<FakeDevice>(cfg);
    ctx_ = dev_->OpenFirst();
    ASSERT_NE(ctx_, nullptr);
    pd_ = dev_->AllocPd(ctx_);
    auto ps = PathSet::Create(dev_.get(), ctx_, pd_, opt);
    ASSERT_TRUE(ps.ok()) << ps.status();
    ps_ = std::move(*ps);
  }
  void Connect() {
    PeerInfo peer;
    for (uint32_t i = 0; i < ps_->num_paths(); ++i) peer.qpns.push_back(0x900 + i);
    peer.gid.raw[15] = 2;
    const absl::Status st = ps_->Connect(peer);
    ASSERT_TRUE(st.ok()) << st;
  }
  void TearDown() override {
    ps_.reset();
    if (dev_ != nullptr) {
      EXPECT_EQ(dev_->live_qps, 0);
      EXPECT_EQ(dev_->live_cqs, 0);
      (void)dev_->DeallocPd(pd_);
      (void)dev_->CloseDevice(ctx_);
    }
  }
  static WriteRequest Req(uint32_t len = 4096) { return WriteRequest{0x1000, 7, len, 0x20000, 9}; }
  static PathSetOptions Opts(uint32_t paths, spray::Policy policy) {
    PathSetOptions o;
    o.num_paths = paths;
    o.policy = policy;
    o.host_pacing = false;
    o.seed = 42;
    return o;
  }

  std::unique_ptr<FakeDevice> dev_;
  ibv_context* ctx_ = nullptr;
  ibv_pd* pd_ = nullptr;
  std::unique_ptr<PathSet> ps_;
};

TEST_F(PathSetTest, EachPathHasItsOwnFlowLabelAndUdpPort) {
  Make(FakeDevice::Config{}, Opts(8, spray::Policy::kOps));
  Connect();
  std::set<uint16_t> ports;
  for (uint32_t i = 0; i < 8; ++i) {
    const PathStats& s = ps_->stats(i);
    EXPECT_EQ(dev_->flow_label_by_qpn[s.qpn], 0x1A2B0u ^ i);
    EXPECT_EQ(s.udp_sport, spray::FlowLabelToPort(0x1A2B0u ^ i));
    EXPECT_EQ(dev_->dest_qpn_by_qpn[s.qpn], 0x900u + i);
    EXPECT_EQ(dev_->state_by_qpn[s.qpn], IBV_QPS_RTS);
    ports.insert(s.udp_sport);
  }
  EXPECT_EQ(ports.size(), 8u);
}

TEST_F(PathSetTest, OpsSendsOnEveryQpOncePerRoundAndFollowsTheEngine) {
  Make(FakeDevice::Config{}, Opts(8, spray::Policy::kOps));
  Connect();
  // The same policy, run directly on the engine with the same seed.
  spray::Config cfg;
  ASSERT_TRUE(spray::Compile(spray::Params::Defaults(spray::Policy::kOps, 3, 0x1A2B0), &cfg).ok());
  spray::SprayState st;
  spray::Init(cfg, &st, 42);
  for (int m = 0; m < 8 * 20; ++m) {
    const PostOutcome o = ps_->PostWrite(Req());
    ASSERT_EQ(o.result, PostResult::kPosted) << PostResultName(o.result);
    const uint16_t port = spray::Select(cfg, &st, 0).ev;
    EXPECT_EQ(o.path, static_cast<uint32_t>(spray::EvIndex(cfg, port)));
    dev_->SetNow(dev_->now() + 20000);
    ps_->Poll(64);
  }
  ASSERT_EQ(dev_->posts.size(), 160u);
  for (size_t round = 0; round < 20; ++round) {
    std::set<uint32_t> qps;
    for (size_t j = 0; j < 8; ++j) qps.insert(dev_->posts[round * 8 + j].qp_index);
    EXPECT_EQ(qps.size(), 8u) << "round " << round;
  }
  EXPECT_EQ(dev_->posts[0].remote_addr, 0x20000u);
  EXPECT_EQ(dev_->posts[0].rkey, 9u);
}

TEST_F(PathSetTest, EcmpStaysOnOneQp) {
  Make(FakeDevice::Config{}, Opts(4, spray::Policy::kEcmp));
  Connect();
  for (int m = 0; m < 20; ++m) ASSERT_EQ(ps_->PostWrite(Req()).result, PostResult::kPosted);
  for (const auto& p : dev_->posts) EXPECT_EQ(p.qp_index, 0u);
}

TEST_F(PathSetTest, BusyPathKeepsThePolicyChoice) {
  PathSetOptions o = Opts(2, spray::Policy::kOps);
  o.send_depth = 1;
  Make(FakeDevice::Config{}, o);
  Connect();
  ASSERT_EQ(ps_->PostWrite(Req()).result, PostResult::kPosted);
  ASSERT_EQ(ps_->PostWrite(Req()).result, PostResult::kPosted);
  const PostOutcome busy = ps_->PostWrite(Req());  // both queues full
  ASSERT_EQ(busy.result, PostResult::kPathBusy);
  const PostOutcome again = ps_->PostWrite(Req());
  EXPECT_EQ(again.result, PostResult::kPathBusy);
  EXPECT_EQ(again.path, busy.path);
  dev_->SetNow(dev_->now() + 100000);
  EXPECT_EQ(ps_->Poll(8), 2u);
  const PostOutcome ok = ps_->PostWrite(Req());
  ASSERT_EQ(ok.result, PostResult::kPosted);
  EXPECT_EQ(ok.path, busy.path);
}

TEST_F(PathSetTest, CcRateReachesEveryQpInKbps) {
  PathSetOptions o = Opts(4, spray::Policy::kOps);
  o.cc = CcMode::kDcqcn;
  Make(FakeDevice::Config{}, o);
  Connect();
  EXPECT_TRUE(dev_->rate_calls.empty()) << "line rate needs no limiter";
  // Expected cut, from the engine directly.
  dcqcn::Config dc;
  ASSERT_TRUE(dcqcn::Compile(dcqcn::Params::Mlx5(100000), &dc).ok());
  dcqcn::RpState rp;
  dcqcn::RpInit(dc, &rp);
  const Action cut = dcqcn::RpOnCnp(dc, &rp, 0);
  ASSERT_TRUE(cut.Has(kActSetRate));
  ps_->DeliverCnps(1);
  ASSERT_EQ(dev_->rate_calls.size(), 4u);
  std::set<uint32_t> qpns;
  for (const auto& c : dev_->rate_calls) {
    EXPECT_EQ(c.rate_kbps, cut.rate_kbps);
    qpns.insert(c.qpn);
  }
  EXPECT_EQ(qpns.size(), 4u);
  EXPECT_EQ(ps_->rate_kbps(), cut.rate_kbps);
  EXPECT_EQ(ps_->stats(2).applied_rate_kbps, cut.rate_kbps);
  // The increase timer (300 us) raises the rate on every QP again.
  dev_->SetNow(dev_->now() + 301000);
  ps_->Tick();
  ASSERT_EQ(dev_->rate_calls.size(), 8u);
  EXPECT_GT(dev_->rate_calls.back().rate_kbps, cut.rate_kbps);
}

TEST_F(PathSetTest, HostPacerSpacesMessagesAtTheCcRate) {
  PathSetOptions o = Opts(2, spray::Policy::kOps);
  o.host_pacing = true;
  o.line_rate_mbps = 10000;               // 10 Gb/s, no CC: 4096 B every 3276 ns
  o.dcqcn = dcqcn::Params::Mlx5(10000);
  Make(FakeDevice::Config{}, o);
  Connect();
  const uint64_t t0 = dev_->now();
  ASSERT_EQ(ps_->PostWrite(Req(4096)).result, PostResult::kPosted);
  EXPECT_EQ(ps_->next_send_ns(), t0 + 4096ull * 8000000ull / 10000000ull);
  EXPECT_EQ(ps_->PostWrite(Req(4096)).result, PostResult::kPaced);
  dev_->SetNow(ps_->next_send_ns());
  EXPECT_EQ(ps_->PostWrite(Req(4096)).result, PostResult::kPosted);
}

TEST_F(PathSetTest, RateBelowDeviceMinimumIsClampedAndReported) {
  FakeDevice::Config cfg;
  cfg.rate_limit_min_kbps = 60000000;  // 60 Gb/s: the first cut (to 50) is below it
  PathSetOptions o = Opts(2, spray::Policy::kOps);
  o.cc = CcMode::kDcqcn;
  Make(cfg, o);
  Connect();
  ps_->DeliverCnps(1);
  ASSERT_EQ(dev_->rate_calls.size(), 2u);
  EXPECT_EQ(dev_->rate_calls[0].rate_kbps, 60000000u);
  EXPECT_TRUE(ps_->caps().degradations & kDegradeRateClamped);
  EXPECT_THAT(ps_->caps().notes.back(), HasSubstr("below the device minimum"));
}

TEST_F(PathSetTest, NoPacingCapsMeansHostPacingOnlyAndSaysSo) {
  FakeDevice::Config cfg;
  cfg.pacing_qpts = 1u << IBV_QPT_RAW_PACKET;  // pacing, but not for RC
  PathSetOptions o = Opts(2, spray::Policy::kOps);
  o.cc = CcMode::kDcqcn;
  Make(cfg, o);
  EXPECT_FALSE(ps_->caps().hw_pacing);
  EXPECT_TRUE(ps_->caps().degradations & kDegradeNoHwPacing);
  ASSERT_FALSE(ps_->caps().notes.empty());
  EXPECT_THAT(ps_->caps().notes[0], HasSubstr("no packet pacing for RC"));
  Connect();
  ps_->DeliverCnps(1);
  EXPECT_TRUE(dev_->rate_calls.empty());
  EXPECT_LT(ps_->rate_kbps(), 100000000u);  // the CC still cut: the host pacer uses it
}

TEST_F(PathSetTest, RefusedRateLimitDegradesToHostPacing) {
  FakeDevice::Config cfg;
  cfg.rate_limit_fails = true;
  PathSetOptions o = Opts(2, spray::Policy::kOps);
  o.cc = CcMode::kDcqcn;
  Make(cfg, o);
  Connect();
  EXPECT_TRUE(ps_->caps().hw_pacing);
  ps_->DeliverCnps(1);
  EXPECT_FALSE(ps_->caps().hw_pacing);
  ASSERT_FALSE(ps_->caps().notes.empty());
  EXPECT_THAT(ps_->caps().notes.back(), HasSubstr("ibv_modify_qp_rate_limit"));
  EXPECT_THAT(ps_->caps().notes.back(), HasSubstr("host pacer"));
}

TEST(HcaClockTest, CyclesToNs) {
  EXPECT_EQ(HcaCyclesToNs(1000, 1000000), 1000u);   // 1 GHz
  EXPECT_EQ(HcaCyclesToNs(1000, 156250), 6400u);    // 156.25 MHz: 6.4 ns per cycle
  EXPECT_EQ(HcaCyclesToNs(1, 156250), 6u);          // rounds down
  EXPECT_EQ(HcaCyclesToNs(0, 0), 0u);
  // 2^47 cycles at 156.25 MHz: no overflow (~10 days).
  EXPECT_EQ(HcaCyclesToNs(1ull << 47, 156250), (1ull << 47) / 156250 * 1000000 +
                                                   ((1ull << 47) % 156250) * 1000000 / 156250);
}

TEST_F(PathSetTest, CompletionTimestampsBecomePerPathRtt) {
  FakeDevice::Config cfg;
  cfg.hca_core_clock_khz = 156250;  // 6.4 ns per cycle: times below are multiples of 64 ns
  Make(cfg, Opts(4, spray::Policy::kOps));
  EXPECT_TRUE(ps_->caps().hw_timestamps);
  EXPECT_TRUE(dev_->cq_wc_flags & IBV_WC_EX_WITH_COMPLETION_TIMESTAMP);
  Connect();
  for (uint32_t i = 0; i < 4; ++i) dev_->SetRttNs(i, 6400u * (i + 1));
  for (int m = 0; m < 4; ++m) ASSERT_EQ(ps_->PostWrite(Req()).result, PostResult::kPosted);
  dev_->SetNow(dev_->now() + 1000000);  // poll 1 ms later: the timestamps, not the poll, count
  EXPECT_EQ(ps_->Poll(16), 4u);
  for (uint32_t i = 0; i < 4; ++i) {
    EXPECT_EQ(ps_->stats(i).last_rtt_ns, 6400u * (i + 1)) << "path " << i;
    EXPECT_EQ(ps_->stats(i).completed, 1u);
    EXPECT_EQ(ps_->stats(i).outstanding, 0u);
  }
}

TEST_F(PathSetTest, WithoutTimestampsRttComesFromTheHostClock) {
  FakeDevice::Config cfg;
  cfg.completion_timestamp_mask = 0;
  Make(cfg, Opts(1, spray::Policy::kEcmp));
  EXPECT_FALSE(ps_->caps().hw_timestamps);
  EXPECT_TRUE(ps_->caps().degradations & kDegradeNoTimestamps);
  EXPECT_THAT(ps_->caps().notes[0], HasSubstr("host clock"));
  EXPECT_FALSE(dev_->cq_wc_flags & IBV_WC_EX_WITH_COMPLETION_TIMESTAMP);
  Connect();
  dev_->SetRttNs(0, 5000);
  ASSERT_EQ(ps_->PostWrite(Req()).result, PostResult::kPosted);
  dev_->SetNow(dev_->now() + 5700);  // polled 700 ns after the completion
  ASSERT_EQ(ps_->Poll(4), 1u);
  EXPECT_EQ(ps_->stats(0).last_rtt_ns, 5700u);
}

TEST_F(PathSetTest, RefusedTimestampCqFallsBackToAPlainExtendedCq) {
  FakeDevice::Config cfg;
  cfg.cq_timestamps_fail = true;
  Make(cfg, Opts(2, spray::Policy::kOps));
  EXPECT_FALSE(ps_->caps().hw_timestamps);
  EXPECT_THAT(ps_->caps().notes[0], HasSubstr("IBV_WC_EX_WITH_COMPLETION_TIMESTAMP failed"));
}

TEST_F(PathSetTest, UnreadableHcaClockFallsBackToHostClock) {
  FakeDevice::Config cfg;
  cfg.rt_values_fail = true;
  Make(cfg, Opts(2, spray::Policy::kOps));
  EXPECT_FALSE(ps_->caps().hw_timestamps);
  EXPECT_TRUE(ps_->caps().degradations & kDegradeNoHcaClock);
  EXPECT_THAT(ps_->caps().notes[0], HasSubstr("ibv_query_rt_values_ex"));
}

TEST_F(PathSetTest, FailedQueryDeviceDegradesBoth) {
  FakeDevice::Config cfg;
  cfg.query_device_fails = true;
  Make(cfg, Opts(2, spray::Policy::kOps));
  EXPECT_EQ(ps_->caps().degradations, kDegradeNoTimestamps | kDegradeNoHwPacing);
  EXPECT_EQ(ps_->caps().notes.size(), 2u);
}

TEST_F(PathSetTest, RetryExceededRetiresThePath) {
  Make(FakeDevice::Config{}, Opts(4, spray::Policy::kOps));
  Connect();
  dev_->FailNextCompletion(0, IBV_WC_RETRY_EXC_ERR);
  for (int m = 0; m < 4; ++m) ASSERT_EQ(ps_->PostWrite(Req()).result, PostResult::kPosted);
  dev_->SetNow(dev_->now() + 100000);
  ps_->Poll(16);
  EXPECT_TRUE(ps_->stats(0).failed);
  EXPECT_EQ(ps_->stats(0).errors, 1u);
  const size_t before = dev_->posts.size();
  for (int m = 0; m < 40; ++m) {
    ASSERT_EQ(ps_->PostWrite(Req()).result, PostResult::kPosted);
    dev_->SetNow(dev_->now() + 100000);
    ps_->Poll(16);
  }
  for (size_t k = before; k < dev_->posts.size(); ++k) EXPECT_NE(dev_->posts[k].qp_index, 0u);
}

TEST_F(PathSetTest, AllPathsFailedIsReported) {
  Make(FakeDevice::Config{}, Opts(1, spray::Policy::kEcmp));
  Connect();
  dev_->FailNextCompletion(0, IBV_WC_REM_ACCESS_ERR);
  ASSERT_EQ(ps_->PostWrite(Req()).result, PostResult::kPosted);
  dev_->SetNow(dev_->now() + 100000);
  ps_->Poll(4);
  EXPECT_EQ(ps_->PostWrite(Req()).result, PostResult::kAllPathsFailed);
}

TEST_F(PathSetTest, DlbMovesToTheFasterPathFromCompletionRtt) {
  Make(FakeDevice::Config{}, Opts(2, spray::Policy::kDlb));
  Connect();
  dev_->SetRttNs(0, 200000);  // 200 us
  dev_->SetRttNs(1, 200000);
  std::map<uint32_t, int> late;
  for (int m = 0; m < 400; ++m) {
    if (m == 50) dev_->SetRttNs(0, 400000), dev_->SetRttNs(1, 5000);
    const PostOutcome o = ps_->PostWrite(Req());
    ASSERT_EQ(o.result, PostResult::kPosted);
    if (m >= 300) ++late[o.path];
    dev_->SetNow(dev_->now() + 500000);
    ps_->Poll(16);
  }
  EXPECT_GT(late[1], 80) << "most late messages take the 5 us path";
}

TEST(PathSetCreateTest, RejectsBadOptions) {
  FakeDevice dev(FakeDevice::Config{});
  ibv_context* ctx = dev.OpenFirst();
  ibv_pd* pd = dev.AllocPd(ctx);
  PathSetOptions o;
  o.num_paths = 3;
  auto ps = PathSet::Create(&dev, ctx, pd, o);
  EXPECT_EQ(ps.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(ps.status().message()), HasSubstr("power of two"));
  o.num_paths = 32;
  o.policy = spray::Policy::kDlb;  // at most 16 EVs
  ps = PathSet::Create(&dev, ctx, pd, o);
  EXPECT_THAT(std::string(ps.status().message()), HasSubstr("ev_bits"));
  o.policy = spray::Policy::kOps;
  o.flow_label = 0x100000;  // 21 bits
  ps = PathSet::Create(&dev, ctx, pd, o);
  EXPECT_THAT(std::string(ps.status().message()), HasSubstr("flow_label"));
  EXPECT_EQ(dev.live_qps, 0);
  EXPECT_EQ(dev.live_cqs, 0);
  (void)dev.DeallocPd(pd);
  (void)dev.CloseDevice(ctx);
}

}  // namespace
}  // namespace verbs
}  // namespace nicc
