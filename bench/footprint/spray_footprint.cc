// Footprint probe: one extern "C" function per spray entry point, compiled
// freestanding for each firmware target by scripts/cross-check.sh, which
// reports the text size of this unit and the stack use of each function.
#include "nicc/ecn_path.h"
#include "nicc/spray.h"

using nicc::Action;
using nicc::TimeNs;
namespace sp = nicc::spray;

extern "C" {
int nicc_spray_compile(const sp::Params* p, sp::Config* c) {
  return static_cast<int>(sp::Compile(*p, c).code);
}
void nicc_spray_init(const sp::Config* c, sp::SprayState* s, uint32_t seed) {
  sp::Init(*c, s, seed);
}
Action nicc_spray_select(const sp::Config* c, sp::SprayState* s, TimeNs now) {
  return sp::Select(*c, s, now);
}
void nicc_spray_feedback(const sp::Config* c, sp::SprayState* s, uint16_t ev, uint8_t kind,
                         uint32_t rtt_ns, TimeNs now) {
  sp::OnFeedback(*c, s, ev, static_cast<sp::Feedback>(kind & 3u), rtt_ns, now);
}
uint16_t nicc_spray_ops_select(const sp::Config* c, sp::OpsState* s) {
  return sp::OpsSelect(*c, s);
}
uint16_t nicc_spray_bitmap_select(const sp::Config* c, sp::BitmapState* s) {
  return sp::BitmapSelect(*c, s);
}
void nicc_spray_bitmap_feedback(const sp::Config* c, sp::BitmapState* s, uint16_t ev,
                                uint8_t kind) {
  sp::BitmapOnFeedback(*c, s, ev, static_cast<sp::Feedback>(kind & 3u));
}
uint16_t nicc_spray_reps_select(const sp::Config* c, sp::RepsState* s, TimeNs now) {
  return sp::RepsSelect(*c, s, now);
}
void nicc_spray_reps_feedback(const sp::Config* c, sp::RepsState* s, uint16_t ev, uint8_t kind,
                              TimeNs now) {
  sp::RepsOnFeedback(*c, s, ev, static_cast<sp::Feedback>(kind & 3u), now);
}
uint16_t nicc_spray_plb_select(const sp::Config* c, sp::PlbState* s) {
  return sp::PlbSelect(*c, s);
}
void nicc_spray_plb_feedback(const sp::Config* c, sp::PlbState* s, uint8_t kind, TimeNs now) {
  sp::PlbOnFeedback(*c, s, static_cast<sp::Feedback>(kind & 3u), now);
}
uint16_t nicc_spray_dlb_select(const sp::Config* c, sp::DlbState* s) {
  return sp::DlbSelect(*c, s);
}
void nicc_spray_dlb_feedback(const sp::Config* c, sp::DlbState* s, uint16_t ev, uint8_t kind,
                             uint32_t rtt_ns) {
  sp::DlbOnFeedback(*c, s, ev, static_cast<sp::Feedback>(kind & 3u), rtt_ns);
}
int nicc_spray_classify_ecn(const nicc::ecn_path::Rule* r, bool ecn, uint32_t rtt_ns) {
  return static_cast<int>(nicc::ecn_path::Classify(*r, ecn, rtt_ns));
}
}
