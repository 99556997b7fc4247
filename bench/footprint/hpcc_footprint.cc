// Footprint probe: one extern "C" function per HPCC, sprayed-HPCC and
// INT-codec entry point, compiled freestanding for each firmware target by
// scripts/cross-check.sh, which reports the text size of this unit and the
// stack use of each function.
#include "nicc/hpcc.h"
#include "nicc/hpcc_spray.h"
#include "nicc/int_codec.h"

using nicc::Action;
using nicc::TimeNs;
namespace hp = nicc::hpcc;

extern "C" {
int nicc_hpcc_compile(const hp::Params* p, hp::Config* c) {
  return static_cast<int>(hp::Compile(*p, c).code);
}
void nicc_hpcc_init(const hp::Config* c, hp::State* s, uint32_t start_seq) {
  hp::Init(*c, s, start_seq);
}
Action nicc_hpcc_ack(const hp::Config* c, hp::State* s, uint32_t ack_seq, uint32_t snd_nxt,
                     const nicc::IntStack* st, TimeNs now) {
  return hp::OnAck(*c, s, ack_seq, snd_nxt, *st, now);
}
Action nicc_hpcc_pint_ack(const hp::Config* c, hp::State* s, uint32_t ack_seq, uint32_t snd_nxt,
                          uint8_t u_code, TimeNs now) {
  return hp::OnPintAck(*c, s, ack_seq, snd_nxt, u_code, now);
}
void nicc_hpcc_spray_init(const hp::Config* c, nicc::hpcc_spray::State* s, uint32_t start_seq) {
  nicc::hpcc_spray::Init(*c, s, start_seq);
}
Action nicc_hpcc_spray_ack(const hp::Config* c, nicc::hpcc_spray::State* s, uint32_t ack_seq, uint32_t snd_nxt,
                           uint16_t ev, const nicc::IntStack* st, TimeNs now) {
  return nicc::hpcc_spray::OnAck(*c, s, ack_seq, snd_nxt, ev, *st, now);
}
int nicc_hpcc_int_decode(const uint8_t* buf, size_t len, nicc::IntStack* out) {
  return static_cast<int>(nicc::DecodeIntStack(buf, len, out).code);
}
int nicc_hpcc_int_encode(const nicc::IntStack* st, uint8_t* buf, size_t cap, size_t* written) {
  return static_cast<int>(nicc::EncodeIntStack(*st, buf, cap, written).code);
}
uint8_t nicc_hpcc_pint_encode(uint32_t u_q20) {
  return nicc::PintEncodeQ20(u_q20);
}
}
