// nicc-dcqcn-demo — runs the DCQCN reaction point on a synthetic clock and
// prints the rate trajectory of one flow that receives a burst of CNPs and
// then recovers: the cut, fast recovery, additive and hyper increase, and the
// release back to line rate.
//
//   nicc-dcqcn-demo --profile=mlx5 --line_rate_gbps=100 --cnps=5
#include <cstdio>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/str_format.h"
#include "nicc/dcqcn.h"

ABSL_FLAG(std::string, profile, "mlx5", "parameter profile: mlx5 (ConnectX defaults) or dcqcn-paper");
ABSL_FLAG(uint32_t, line_rate_gbps, 100, "port speed in Gb/s");
ABSL_FLAG(uint32_t, cnps, 5, "CNPs in the burst");
ABSL_FLAG(uint32_t, cnp_interval_us, 50, "time between CNPs of the burst, us");
ABSL_FLAG(uint32_t, mtu_bytes, 4096, "bytes per packet (drives the byte counter)");
ABSL_FLAG(uint32_t, max_ms, 200, "stop after this much simulated time, ms");
ABSL_FLAG(bool, every_event, false, "print every rate change (default: a sampled trajectory)");

namespace dq = nicc::dcqcn;

namespace {

struct Row {
  uint64_t t_ns;
  const char* what;
  uint32_t rate_kbps;
  uint32_t target_kbps;
  uint32_t alpha_q20;
  int t_stage;
  int bc_stage;
};

std::string Bar(uint32_t rate_kbps, uint32_t max_kbps) {
  const int width = 40;
  const int n = static_cast<int>(static_cast<uint64_t>(rate_kbps) * width / max_kbps);
  return std::string(static_cast<size_t>(n), '#') + std::string(static_cast<size_t>(width - n), '.');
}

}  // namespace

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "Prints the DCQCN rate trajectory of one flow that receives a CNP burst.\n"
      "Usage: nicc-dcqcn-demo [--profile=mlx5|dcqcn-paper] [--line_rate_gbps=N] [--cnps=N] ...");
  absl::ParseCommandLine(argc, argv);

  const std::string profile = absl::GetFlag(FLAGS_profile);
  const uint32_t gbps = absl::GetFlag(FLAGS_line_rate_gbps);
  if (gbps == 0 || gbps > 1600) {
    std::fprintf(stderr, "nicc-dcqcn-demo: --line_rate_gbps must be 1..1600, got %u\n", gbps);
    return 2;
  }
  dq::Params params;
  if (profile == "mlx5") {
    params = dq::Params::Mlx5(gbps * 1000);
  } else if (profile == "dcqcn-paper" || profile == "paper") {
    params = dq::Params::Paper(gbps * 1000);
  } else {
    std::fprintf(stderr, "nicc-dcqcn-demo: unknown --profile '%s' (mlx5 or dcqcn-paper)\n",
                 profile.c_str());
    return 2;
  }
  dq::Config cfg;
  const nicc::Status st = dq::Compile(params, &cfg);
  if (!st.ok()) {
    std::fprintf(stderr, "nicc-dcqcn-demo: parameter %s: %s\n", st.field,
                 nicc::StatusCodeName(st.code));
    return 2;
  }
  const uint32_t mtu = absl::GetFlag(FLAGS_mtu_bytes);
  if (mtu == 0) {
    std::fprintf(stderr, "nicc-dcqcn-demo: --mtu_bytes must be > 0\n");
    return 2;
  }

  // Discrete-event loop: the flow sends back-to-back packets at its current
  // rate (tx-done events drive the byte counter), the NP's CNPs arrive at
  // fixed times, and the engine's timer fires when it asked for it. Time is
  // kept in 64 bits here and handed to the engine as its 32-bit NIC clock,
  // so long runs cross the 2^32 ns wrap.
  dq::RpState rp;
  dq::RpInit(cfg, &rp);
  const uint64_t end_ns = static_cast<uint64_t>(absl::GetFlag(FLAGS_max_ms)) * 1000000u;
  const uint32_t cnps = absl::GetFlag(FLAGS_cnps);
  const uint64_t cnp_gap_ns = static_cast<uint64_t>(absl::GetFlag(FLAGS_cnp_interval_us)) * 1000u;
  const uint64_t first_cnp_ns = 10000;  // 10 us in
  uint32_t cnps_done = 0;
  bool timer_armed = false;
  uint64_t timer_ns = 0;
  uint64_t next_tx_ns = 0;
  uint64_t t = 0;
  uint64_t released_ns = 0;
  std::vector<Row> rows;
  auto record = [&](const char* what) {
    rows.push_back(Row{t, what, dq::RpRateKbps(cfg, rp), (rp.flags & dq::kRpActive) ? rp.rt_kbps : cfg.max_kbps,
                       rp.alpha_q20, rp.t_stage, rp.bc_stage});
  };
  auto apply = [&](const nicc::Action& a) {
    if (a.Has(nicc::kActArmTimer)) {
      timer_armed = true;
      // The engine's deadline is on the 32-bit clock; lift it next to t.
      timer_ns = t + static_cast<uint32_t>(a.timer_ns - static_cast<uint32_t>(t));
    }
    if (a.Has(nicc::kActCancelTimer)) timer_armed = false;
  };
  record("start");
  for (int guard = 0; guard < 50000000 && t < end_ns; ++guard) {
    const uint64_t next_cnp = cnps_done < cnps ? first_cnp_ns + cnps_done * cnp_gap_ns : UINT64_MAX;
    uint64_t next = next_tx_ns;
    if (next_cnp < next) next = next_cnp;
    if (timer_armed && timer_ns < next) next = timer_ns;
    t = next;
    const auto now = static_cast<nicc::TimeNs>(t);
    if (t == next_cnp) {
      ++cnps_done;
      apply(dq::RpOnCnp(cfg, &rp, now));
      record("CNP");
    } else if (timer_armed && t == timer_ns) {
      timer_armed = false;
      const nicc::Action a = dq::RpOnTimer(cfg, &rp, now);
      apply(a);
      record(a.Has(nicc::kActCancelTimer) ? "timer: released" : "timer");
    } else {
      const uint32_t rate = dq::RpRateKbps(cfg, rp);
      next_tx_ns = t + static_cast<uint64_t>(mtu) * 8u * 1000000u / rate;  // ns per packet
      const bool was_active = rp.flags & dq::kRpActive;
      const nicc::Action a = dq::RpOnTxBytes(cfg, &rp, mtu, now);
      apply(a);
      if (a.Has(nicc::kActSetRate)) {
        record(a.Has(nicc::kActCancelTimer) ? "bytes: released" : "bytes");
      }
      (void)was_active;
    }
    if (cnps_done == cnps && !(rp.flags & dq::kRpActive) && released_ns == 0 && cnps > 0) {
      released_ns = t;
      break;
    }
  }

  std::printf("DCQCN reaction point, profile %s, %u Gb/s, %u CNPs every %u us, %u-byte packets\n",
              profile.c_str(), gbps, cnps, absl::GetFlag(FLAGS_cnp_interval_us), mtu);
  std::printf("%10s  %-16s %10s %10s %7s %5s  %s\n", "time_us", "event", "rate_Gbps", "target", "alpha",
              "T/BC", "rate");
  const bool every = absl::GetFlag(FLAGS_every_event);
  // Sampled view: every CNP and the release, plus about 40 rows spread over
  // the run in between.
  const uint64_t span = rows.back().t_ns - rows.front().t_ns;
  const uint64_t sample_ns = span / 40 > 1000 ? span / 40 : 1000;
  uint64_t last_printed = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    const bool edge = i == 0 || i + 1 == rows.size() || std::string(r.what) == "CNP" ||
                      std::string(r.what).find("released") != std::string::npos;
    if (!every && !edge && r.t_ns - last_printed < sample_ns) continue;
    last_printed = r.t_ns;
    std::printf("%10.1f  %-16s %10.3f %10.3f %7.4f %2d/%-2d  %s\n", static_cast<double>(r.t_ns) / 1e3, r.what,
                r.rate_kbps / 1e6, r.target_kbps / 1e6, r.alpha_q20 / static_cast<double>(nicc::kQ20One),
                r.t_stage, r.bc_stage, Bar(r.rate_kbps, cfg.max_kbps).c_str());
  }
  if (released_ns != 0) {
    std::printf("back at line rate (flow released) %.1f us after the first CNP\n",
                static_cast<double>(released_ns - first_cnp_ns) / 1e3);
  } else {
    std::printf("not back at line rate after %u ms\n", absl::GetFlag(FLAGS_max_ms));
  }
  return 0;
}
