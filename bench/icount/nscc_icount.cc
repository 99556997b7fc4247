// Instruction counts per NSCC event kind (run by scripts/icount.sh), with the
// uec-default profile (base RTT 12 us, target delay 9 us). Each kind runs on
// its own prepared array of flow states, warmed with ACKs of the same class
// so the delay average sits in that class, and only the handler (plus a few
// loop instructions) is counted:
//   nscc.ack_low      no ECN, delay 0 (below target): proportional increase
//   nscc.ack_high     no ECN, delay 20 us (at/above target): fair increase
//   nscc.ack_ecn_high ECN, delay 20 us: the multiplicative-decrease case
//   nscc.ack_ecn_low  ECN, delay 0: no window change, change_ev
//   nscc.nack         a NACK / trim notice: quick adapt when due
#include <cstdint>
#include <vector>

#include "icount.h"
#include "nicc/nscc.h"

namespace ns = nicc::nscc;
using nicc_bench::Expect;
using nicc_bench::Measure;
using nicc_bench::Sink;

namespace {

constexpr int kN = 2000;
constexpr uint32_t kMss = 4096;

// Flows that have seen `warm` ACKs of one class, 1 us apart from t = 1 us.
std::vector<ns::State> Flows(const ns::Config& cfg, bool ecn, uint32_t rtt_ns, uint32_t warm) {
  std::vector<ns::State> v(kN);
  for (auto& s : v) {
    ns::Init(cfg, &s);
    for (uint32_t k = 1; k <= warm; ++k)
      Sink(ns::OnAck(cfg, &s, k * kMss, (k + 64) * kMss, kMss, ecn, 7, rtt_ns, 1000 * k));
  }
  return v;
}

}  // namespace

int main() {
  ns::Config cfg;
  Expect(ns::Compile(ns::Params::UecDefault(), &cfg).ok(), "uec-default compiles");
  constexpr uint32_t kWarm = 16;
  const uint32_t seq = (kWarm + 1) * kMss;
  const uint32_t nxt = (kWarm + 65) * kMss;
  const nicc::TimeNs t = 1000 * (kWarm + 1);

  struct Kind {
    const char* name;
    bool ecn;
    uint32_t rtt_ns;
  };
  const Kind kinds[] = {{"nscc.ack_low", false, 12000},
                        {"nscc.ack_high", false, 32000},
                        {"nscc.ack_ecn_high", true, 32000},
                        {"nscc.ack_ecn_low", true, 12000}};
  for (const Kind& k : kinds) {
    auto flows = Flows(cfg, k.ecn, k.rtt_ns, kWarm);
    Measure(k.name, kN, [&](int i) { Sink(ns::OnAck(cfg, &flows[i], seq, nxt, kMss, k.ecn, 7, k.rtt_ns, t)); });
  }
  // ECN at low delay leaves W alone and asks for another entropy value.
  auto low = Flows(cfg, true, 12000, kWarm);
  const uint32_t w0 = ns::WindowBytes(low[0]);
  const nicc::Action a = ns::OnAck(cfg, &low[0], seq, nxt, kMss, true, 7, 12000, t);
  Expect((a.flags & nicc::kActChangeEv) != 0 && ns::WindowBytes(low[0]) == w0, "ECN at low delay: change_ev only");

  auto nack = Flows(cfg, false, 32000, kWarm);
  Measure("nscc.nack", kN, [&](int i) { Sink(ns::OnNack(cfg, &nack[i], kMss, nxt, t)); });
  return 0;
}
