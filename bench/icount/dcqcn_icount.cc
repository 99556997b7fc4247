// Instruction counts per DCQCN event kind (run by scripts/icount.sh).
// Each kind runs on its own prepared array of flow states so that only the
// event handler (plus a few loop instructions) is counted.
#include <vector>

#include "icount.h"
#include "nicc/dcqcn.h"

namespace dq = nicc::dcqcn;
using nicc_bench::Expect;
using nicc_bench::Measure;
using nicc_bench::Sink;

namespace {

constexpr int kN = 2000;

// Flows that have seen one CNP at t = 0 (active, rate-limited).
std::vector<dq::RpState> ActiveFlows(const dq::Config& cfg) {
  std::vector<dq::RpState> v(kN);
  for (auto& s : v) {
    dq::RpInit(cfg, &s);
    Sink(dq::RpOnCnp(cfg, &s, 0));
  }
  return v;
}

}  // namespace

int main() {
  dq::Config cfg;
  Expect(dq::Compile(dq::Params::Mlx5(100000), &cfg).ok(), "mlx5 profile compiles");

  std::vector<dq::RpState> idle(kN);
  for (auto& s : idle) dq::RpInit(cfg, &s);
  Measure("dcqcn.rp_tx_idle", kN, [&](int i) {
    Sink(dq::RpOnTxBytes(cfg, &idle[i], 4096, 1000u * static_cast<uint32_t>(i)));
  });
  Measure("dcqcn.rp_cnp_first", kN, [&](int i) { Sink(dq::RpOnCnp(cfg, &idle[i], 0)); });

  // A second CNP 4.5 us later (just past the monitor period): alpha catch-up
  // over 4 periods, then a cut. The mlx5 alpha period is 1 us.
  auto cut4 = ActiveFlows(cfg);
  Measure("dcqcn.rp_cnp_cut_4us", kN, [&](int i) { Sink(dq::RpOnCnp(cfg, &cut4[i], 4500)); });
  // A second CNP 50 us later: alpha catch-up over 50 periods, then a cut.
  auto cut = ActiveFlows(cfg);
  Measure("dcqcn.rp_cnp_cut", kN, [&](int i) { Sink(dq::RpOnCnp(cfg, &cut[i], 50000)); });
  // A CNP inside the monitor period: alpha is noted, no cut.
  Measure("dcqcn.rp_cnp_held", kN, [&](int i) { Sink(dq::RpOnCnp(cfg, &cut[i], 51000)); });
  Expect(dq::RpOnCnp(cfg, &cut[0], 51500).flags == 0, "held CNP does not cut");

  // The increase timer at its due time (300 us after the cut).
  auto timer = ActiveFlows(cfg);
  Measure("dcqcn.rp_timer", kN, [&](int i) { Sink(dq::RpOnTimer(cfg, &timer[i], 300000)); });

  // Per-packet byte counting; then a report that completes a byte stage.
  auto tx = ActiveFlows(cfg);
  Measure("dcqcn.rp_tx_count", kN, [&](int i) { Sink(dq::RpOnTxBytes(cfg, &tx[i], 4096, 1000)); });
  Measure("dcqcn.rp_tx_stage", kN, [&](int i) { Sink(dq::RpOnTxBytes(cfg, &tx[i], 30000, 2000)); });

  std::vector<dq::NpState> np(kN);
  for (auto& s : np) dq::NpInit(&s);
  Measure("dcqcn.np_clean", kN, [&](int i) { Sink(dq::NpOnPacket(cfg, &np[i], false, 100)); });
  Measure("dcqcn.np_ce_send", kN, [&](int i) { Sink(dq::NpOnPacket(cfg, &np[i], true, 200)); });
  Measure("dcqcn.np_ce_paced", kN, [&](int i) { Sink(dq::NpOnPacket(cfg, &np[i], true, 300)); });
  return 0;
}
