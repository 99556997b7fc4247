// Instruction counts per RCCC event kind (run by scripts/icount.sh), with the
// uec-default profile (pool one BDP = 150000 B, mss 4096). Each kind runs on
// its own prepared array of receiving flows (one port, 8 other senders
// already active) or combined senders, and only the handler (plus a few
// loop instructions) is counted:
//   rccc.rx_steady   a data packet of an active flow: the grant only
//   rccc.rx_join     the first packet with backlog: N + 1, one division
//   rccc.rx_leave    the packet that reaches the backlog end: N - 1, one division
//   rccc.close       a receiving flow closed while active (leaves)
//   rccc.sender_ack  nscc+rccc sender: NSCC's ACK (no ECN, low delay), then
//                    the credit and min(W, credit - snd_una)
#include <cstdint>
#include <vector>

#include "icount.h"
#include "nicc/rccc.h"

namespace rc = nicc::rccc;
namespace ns = nicc::nscc;
using nicc_bench::Expect;
using nicc_bench::Measure;
using nicc_bench::Sink;

namespace {

constexpr int kN = 2000;
constexpr uint32_t kMss = 4096;
constexpr uint32_t kBacklog = 1u << 28;

// kN flows on one port that each have sent `packets` packets with backlog,
// after 8 other active senders.
std::vector<rc::RxFlowState> Flows(const rc::Config& cfg, rc::PortState* port, uint32_t packets) {
  rc::PortInit(cfg, port);
  rc::RxFlowState other[8];
  for (rc::RxFlowState& o : other) {
    rc::RxInit(&o);
    Sink(rc::RxOnData(cfg, port, &o, kMss, kBacklog));
  }
  std::vector<rc::RxFlowState> v(kN);
  for (auto& f : v) {
    rc::RxInit(&f);
    for (uint32_t k = 1; k <= packets; ++k) Sink(rc::RxOnData(cfg, port, &f, k * kMss, kBacklog));
  }
  return v;
}

}  // namespace

int main() {
  rc::Config cfg;
  Expect(rc::Compile(rc::Params::UecDefault(), &cfg).ok(), "uec-default compiles");
  rc::PortState port;

  auto steady = Flows(cfg, &port, 4);
  Measure("rccc.rx_steady", kN, [&](int i) { Sink(rc::RxOnData(cfg, &port, &steady[i], 5 * kMss, kBacklog)); });

  auto fresh = Flows(cfg, &port, 0);
  Measure("rccc.rx_join", kN, [&](int i) { Sink(rc::RxOnData(cfg, &port, &fresh[i], kMss, kBacklog)); });
  Expect(port.active == 8u + kN, "every join counted");

  Measure("rccc.rx_leave", kN, [&](int i) { Sink(rc::RxOnData(cfg, &port, &fresh[i], 2 * kMss, 2 * kMss)); });
  Expect(port.active == 8u && port.share_bytes == 150000u / 8u, "every leave counted, share recomputed");

  auto closing = Flows(cfg, &port, 1);
  Measure("rccc.close", kN, [&](int i) { rc::RxClose(&port, &closing[i]); });
  Expect(port.active == 8u, "every close left");

  ns::Config ncfg;
  Expect(ns::Compile(ns::Params::UecDefault(), &ncfg).ok(), "nscc uec-default compiles");
  std::vector<rc::SenderState> senders(kN);
  for (auto& s : senders) {
    rc::SenderInit(ncfg, cfg, &s, 0);
    for (uint32_t k = 1; k <= 16; ++k)
      Sink(rc::SenderOnAck(ncfg, &s, k * kMss, (k + 64) * kMss, kMss, false, 7, 12000, k * kMss + 200000, 1000 * k));
  }
  const uint32_t seq = 17 * kMss;
  Measure("rccc.sender_ack", kN, [&](int i) {
    Sink(rc::SenderOnAck(ncfg, &senders[i], seq, seq + 64 * kMss, kMss, false, 7, 12000, seq + 200000, 17000));
  });
  Expect(rc::SenderWindowBytes(senders[0]) == 200000u, "the window is the credit left (NSCC: 225000)");
  return 0;
}
