// Instruction counts per sprayed-HPCC event kind (run by scripts/icount.sh),
// beside hpcc_icount.cc's single-path ones. Each kind runs on its own
// prepared array of flow states, so only the handler (plus a few loop
// instructions) is counted:
//   hpcc_spray.ack_<n>hop   an ACK on a known path, fast reaction, with every
//                           slot live (4 paths; 2 at 5 hops): the EV lookup,
//                           the path's U, the max over the paths
//   hpcc_spray.full_<n>hop  the same ACK past the last update (commits)
//   hpcc_spray.evict_3hop   an ACK on a fifth EV: the LRU scan and the copy
//                           of the records, no measurement
#include <cstdint>
#include <vector>

#include "icount.h"
#include "nicc/hpcc_spray.h"
#include "nicc/int_codec.h"

namespace hp = nicc::hpcc;
namespace hs = nicc::hpcc_spray;
using nicc_bench::Expect;
using nicc_bench::Measure;
using nicc_bench::Sink;

namespace {

constexpr int kN = 2000;

// The k-th ACK's INT stack on path (EV) e through n 100 Gb/s hops: ACKs of a
// path 1 us apart, each hop at ~line rate with a small, growing queue.
nicc::IntStack Stack(uint32_t n, uint32_t e, uint32_t k) {
  nicc::IntStack st{};
  st.hop_count = static_cast<uint8_t>(n);
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t ts = 1000u * k + 7919u * i + 101u * e;
    const uint32_t tx = (97u + (i == n - 1 ? 1u : 0u)) * k + 4099u * e;
    st.hops[i] = nicc::IntHop::Make(3, ts, tx, 10u * k + i + e);
  }
  return st;
}

// Flows whose paths (EVs 1..paths) have each seen two ACKs (history and a
// measurement; the first measurement a full update to snd_nxt 1000000): the
// next ACK with ack_seq <= 1000000 is a fast reaction.
std::vector<hs::State> Flows(const hp::Config& cfg, uint32_t n, uint32_t paths) {
  std::vector<hs::State> v(kN);
  for (auto& s : v) {
    hs::Init(cfg, &s, 0);
    for (uint32_t k = 1; k <= 2; ++k)
      for (uint32_t e = 1; e <= paths; ++e)
        Sink(hs::OnAck(cfg, &s, k * 100 + e, 1000000, static_cast<uint16_t>(e),
                       Stack(n, e, k), 1000 * k + e));
  }
  return v;
}

}  // namespace

int main() {
  hp::Config cfg;
  Expect(hp::Compile(hp::Params::HpccPaper(), &cfg).ok(), "hpcc-paper compiles");

  const char* ack_names[] = {"", "hpcc_spray.ack_1hop", "", "hpcc_spray.ack_3hop", "", "hpcc_spray.ack_5hop"};
  const char* full_names[] = {"", "hpcc_spray.full_1hop", "", "hpcc_spray.full_3hop", "", "hpcc_spray.full_5hop"};
  for (uint32_t n = 1; n <= 5; n += 2) {
    const uint32_t paths = hs::PathCap(n);
    const nicc::IntStack s3 = Stack(n, 1, 3);
    auto fast = Flows(cfg, n, paths);
    Expect(fast[0].path_count == paths && fast[0].last_update_seq == 1000000, "every slot live, committed");
    Measure(ack_names[n], kN, [&](int i) { Sink(hs::OnAck(cfg, &fast[i], 2001, 1001000, 1, s3, 3000)); });
    Expect(fast[0].wc_q4 == Flows(cfg, n, paths)[0].wc_q4, "fast reaction does not commit");
    Expect(hs::OnAck(cfg, &fast[1], 3001, 1, 1, Stack(n, 1, 4), 4000).flags != 0, "fast reaction acts");
    auto full = Flows(cfg, n, paths);
    Measure(full_names[n], kN,
            [&](int i) { Sink(hs::OnAck(cfg, &full[i], 1000001, 2000000, 1, s3, 3000)); });
    Expect(full[0].last_update_seq == 2000000, "full update commits");
  }
  auto evict = Flows(cfg, 3, 4);
  const nicc::IntStack s5 = Stack(3, 5, 3);
  Measure("hpcc_spray.evict_3hop", kN, [&](int i) { Sink(hs::OnAck(cfg, &evict[i], 2001, 1001000, 5, s5, 3000)); });
  Expect(evict[0].path_ev[0] == 5 && evict[0].path_count == 4, "the least recently seen slot (EV 1) is taken");
  return 0;
}
