// Footprint probe: one extern "C" function per NSCC and RCCC entry point,
// compiled freestanding for each firmware target by scripts/cross-check.sh,
// which reports the text size of this unit and the stack use of each
// function.
#include "nicc/nscc.h"
#include "nicc/rccc.h"

using nicc::Action;
using nicc::TimeNs;
namespace ns = nicc::nscc;
namespace rc = nicc::rccc;

extern "C" {
int nicc_nscc_compile(const ns::Params* p, ns::Config* c) {
  return static_cast<int>(ns::Compile(*p, c).code);
}
void nicc_nscc_init(const ns::Config* c, ns::State* s) { ns::Init(*c, s); }
Action nicc_nscc_ack(const ns::Config* c, ns::State* s, uint32_t ack_seq, uint32_t snd_nxt, uint32_t acked,
                     bool ecn, uint16_t ev, uint32_t rtt_ns, TimeNs now) {
  return ns::OnAck(*c, s, ack_seq, snd_nxt, acked, ecn, ev, rtt_ns, now);
}
Action nicc_nscc_nack(const ns::Config* c, ns::State* s, uint32_t nacked, uint32_t snd_nxt, TimeNs now) {
  return ns::OnNack(*c, s, nacked, snd_nxt, now);
}
int nicc_rccc_compile(const rc::Params* p, rc::Config* c) {
  return static_cast<int>(rc::Compile(*p, c).code);
}
void nicc_rccc_port_init(const rc::Config* c, rc::PortState* port) { rc::PortInit(*c, port); }
Action nicc_rccc_rx_data(const rc::Config* c, rc::PortState* port, rc::RxFlowState* rx, uint32_t seq_end,
                         uint32_t backlog_end) {
  return rc::RxOnData(*c, port, rx, seq_end, backlog_end);
}
void nicc_rccc_rx_close(rc::PortState* port, rc::RxFlowState* rx) { rc::RxClose(port, rx); }
void nicc_rccc_sender_init(const ns::Config* nc, const rc::Config* c, rc::SenderState* s, uint32_t start_seq) {
  rc::SenderInit(*nc, *c, s, start_seq);
}
Action nicc_rccc_sender_ack(const ns::Config* nc, rc::SenderState* s, uint32_t ack_seq, uint32_t snd_nxt,
                            uint32_t acked, bool ecn, uint16_t ev, uint32_t rtt_ns, uint32_t credit, TimeNs now) {
  return rc::SenderOnAck(*nc, s, ack_seq, snd_nxt, acked, ecn, ev, rtt_ns, credit, now);
}
Action nicc_rccc_sender_nack(const ns::Config* nc, rc::SenderState* s, uint32_t nacked, uint32_t snd_nxt,
                             TimeNs now) {
  return rc::SenderOnNack(*nc, s, nacked, snd_nxt, now);
}
}
