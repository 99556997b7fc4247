// Instruction counts per HPCC event kind (run by scripts/icount.sh).
// Every kind runs on its own prepared array of flow states, so that only the
// handler (plus a few loop instructions) is counted:
//   hpcc.ack_<n>hop    fast reaction (ack_seq not past the last update)
//   hpcc.full_<n>hop   full update (commits Wc and stage)
//   hpcc.pint_ack      PINT code, fast reaction; hpcc.pint_full: full update
//   int.decode_<n>hop  DecodeIntStack of a wire stack with n hops
#include <cstdint>
#include <vector>

#include "icount.h"
#include "nicc/hpcc.h"
#include "nicc/int_codec.h"

namespace hp = nicc::hpcc;
using nicc_bench::Expect;
using nicc_bench::Measure;
using nicc_bench::Sink;

namespace {

constexpr int kN = 2000;

// The INT stack of the k-th ACK of a flow through n 100 Gb/s hops: 1 us
// apart, each hop sending at ~line rate with a small, growing queue; the
// last hop is the bottleneck.
nicc::IntStack Stack(uint32_t n, uint32_t k) {
  nicc::IntStack st{};
  st.hop_count = static_cast<uint8_t>(n);
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t ts = 1000u * k + 7919u * i;
    const uint32_t tx = (97u + (i == n - 1 ? 1u : 0u)) * k;
    st.hops[i] = nicc::IntHop::Make(3, ts, tx, 10u * k + i);
  }
  return st;
}

// Flows that have seen a first ACK (history) and a full update: the next
// ACK with ack_seq <= 1000000 is a fast reaction.
std::vector<hp::State> Flows(const hp::Config& cfg, uint32_t n) {
  std::vector<hp::State> v(kN);
  const nicc::IntStack s1 = Stack(n, 1), s2 = Stack(n, 2);
  for (auto& s : v) {
    hp::Init(cfg, &s, 0);
    Sink(hp::OnAck(cfg, &s, 1, 1000, s1, 1000));
    Sink(hp::OnAck(cfg, &s, 1001, 1000000, s2, 2000));
  }
  return v;
}

}  // namespace

int main() {
  hp::Config cfg;
  Expect(hp::Compile(hp::Params::HpccPaper(), &cfg).ok(), "hpcc-paper compiles");

  const char* ack_names[] = {"", "hpcc.ack_1hop", "", "hpcc.ack_3hop", "", "hpcc.ack_5hop"};
  const char* full_names[] = {"", "hpcc.full_1hop", "", "hpcc.full_3hop", "", "hpcc.full_5hop"};
  const char* dec_names[] = {"", "int.decode_1hop", "", "int.decode_3hop", "", "int.decode_5hop"};
  for (uint32_t n = 1; n <= 5; n += 2) {
    const nicc::IntStack s3 = Stack(n, 3);
    auto fast = Flows(cfg, n);
    Measure(ack_names[n], kN,
            [&](int i) { Sink(hp::OnAck(cfg, &fast[i], 2001, 1001000, s3, 3000)); });
    Expect(fast[0].wc_q4 == Flows(cfg, n)[0].wc_q4, "fast reaction does not commit");
    Expect(fast[0].w_q4 != 0 && hp::OnAck(cfg, &fast[1], 3001, 1, Stack(n, 4), 4000).flags != 0,
           "fast reaction acts");
    auto full = Flows(cfg, n);
    Measure(full_names[n], kN,
            [&](int i) { Sink(hp::OnAck(cfg, &full[i], 1000001, 2000000, s3, 3000)); });
    Expect(full[0].last_update_seq == 2000000, "full update commits");

    uint8_t wire[nicc::IntStackBytes(nicc::kIntMaxHops)];
    size_t len = 0;
    Expect(nicc::EncodeIntStack(s3, wire, sizeof wire, &len).ok(), "encode");
    std::vector<nicc::IntStack> out(kN);
    Measure(dec_names[n], kN, [&](int i) { Sink(nicc::DecodeIntStack(wire, len, &out[i])); });
    Expect(out[kN - 1].hop_count == n, "decode");
  }

  auto pint = Flows(cfg, 1);
  Measure("hpcc.pint_ack", kN,
          [&](int i) { Sink(hp::OnPintAck(cfg, &pint[i], 2001, 1001000, 130, 3000)); });
  auto pint_full = Flows(cfg, 1);
  Measure("hpcc.pint_full", kN,
          [&](int i) { Sink(hp::OnPintAck(cfg, &pint_full[i], 1000001, 2000000, 130, 3000)); });
  Expect(pint_full[0].stage == 0 && pint_full[0].last_update_seq == 2000000, "pint full update");
  return 0;
}
