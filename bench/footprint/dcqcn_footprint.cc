// Footprint probe: one extern "C" function per DCQCN entry point, compiled
// freestanding for each firmware target by scripts/cross-check.sh, which
// reports the text size of this unit and the stack use of each function.
#include "nicc/dcqcn.h"

using nicc::Action;
using nicc::TimeNs;
namespace dq = nicc::dcqcn;

extern "C" {
int nicc_dcqcn_compile(const dq::Params* p, dq::Config* c) {
  return static_cast<int>(dq::Compile(*p, c).code);
}
Action nicc_dcqcn_rp_cnp(const dq::Config* c, dq::RpState* s, TimeNs now) {
  return dq::RpOnCnp(*c, s, now);
}
Action nicc_dcqcn_rp_timer(const dq::Config* c, dq::RpState* s, TimeNs now) {
  return dq::RpOnTimer(*c, s, now);
}
Action nicc_dcqcn_rp_tx(const dq::Config* c, dq::RpState* s, uint32_t bytes, TimeNs now) {
  return dq::RpOnTxBytes(*c, s, bytes, now);
}
Action nicc_dcqcn_np_packet(const dq::Config* c, dq::NpState* s, bool ce, TimeNs now) {
  return dq::NpOnPacket(*c, s, ce, now);
}
}
