// nicc/spray/plb.h — plb: one EV; repath after N consecutive congested
// rounds (PLB, as Linux' tcp_plb_*). docs/spray.md states every rule.
#ifndef NICC_SPRAY_PLB_H_
#define NICC_SPRAY_PLB_H_

#include "nicc/spray/common.h"

namespace nicc {
namespace spray {

enum PlbFlag : uint8_t {
  kPlbSuspended = 1u << 0,  // a timeout at suspend_start_ns suspends repaths
};

// PLB: one EV; rounds are one window of feedback (see PlbOnFeedback).
struct PlbState {
  uint32_t prng;            // xorshift32 state, for choosing the next EV
  TimeNs suspend_start_ns;  // time of the last timeout (valid while suspended)
  uint16_t inflight;        // selections minus feedbacks, saturating at 0
  uint16_t round_left;      // feedbacks still to come in this round; 0 = none open
  uint16_t round_acks;      // feedbacks counted in this round
  uint16_t round_marked;    // ... of which ECN-marked or NACKed
  uint8_t ev;               // index in use
  uint8_t cong_rounds;      // consecutive congested rounds (saturates at 255)
  uint8_t flags;            // PlbFlag bits
  uint8_t reserved;
};
static_assert(sizeof(PlbState) <= 32, "plb budget: 32 bytes");

namespace detail {

// A new EV index for PLB, uniform over the 2^k - 1 others:
//   r = PrngNext(); next = (cur + 1 + ((r >> 24) * (2^k - 1) >> 8)) & mask.
// (r >> 24) * 255 < 2^16.
inline uint32_t PlbOtherEv(const Config& cfg, PlbState* s) {
  const uint32_t r = PrngNext(&s->prng);
  const uint32_t step = (PrngByte(r) * cfg.ev_mask) >> 8;
  return (s->ev + 1u + step) & cfg.ev_mask;
}

}  // namespace detail

inline void PlbInit(const Config& cfg, PlbState* s, uint32_t seed) {
  (void)cfg;
  *s = PlbState{};
  s->prng = PrngSeed(seed);
}

inline uint16_t PlbSelect(const Config& cfg, PlbState* s) {
  if (s->inflight != 0xFFFFu) s->inflight = static_cast<uint16_t>(s->inflight + 1u);
  return EvPort(cfg, s->ev);
}

// Rounds: a round opens at the first feedback after the previous one closed
// and lasts as many feedbacks as packets were in flight then (one window).
// At its close the round is congested when marked * 100 >= pct * acks
// (ECN and NACK count as marked); cong_rounds counts consecutive congested
// rounds. The flow repaths when cong_rounds >= rehash_rounds, or when
// nothing is in flight and cong_rounds >= idle_rehash_rounds (if non-zero),
// unless suspended; a repath zeroes cong_rounds. A timeout suspends repaths
// for suspend_ns, empties the in-flight count and closes the round.
// Every report passed here counts (the dispatcher, OnFeedback, drops ports
// outside the flow's EVs first).
inline void PlbOnFeedback(const Config& cfg, PlbState* s, Feedback kind, TimeNs now_ns) {
  if (kind == Feedback::kTimeout) {
    if (cfg.plb_suspend_ns != 0) {
      s->flags = static_cast<uint8_t>(s->flags | kPlbSuspended);
      s->suspend_start_ns = now_ns;
    }
    s->inflight = 0;
    s->round_left = 0;
    s->cong_rounds = 0;
    return;
  }
  uint32_t inflight = s->inflight;
  if (s->round_left == 0) {
    s->round_left = static_cast<uint16_t>(inflight != 0 ? inflight : 1u);
    s->round_acks = 0;
    s->round_marked = 0;
  }
  if (inflight != 0) s->inflight = static_cast<uint16_t>(--inflight);
  s->round_acks = static_cast<uint16_t>(s->round_acks + 1u);  // <= round length
  if (kind != Feedback::kGood) s->round_marked = static_cast<uint16_t>(s->round_marked + 1u);
  s->round_left = static_cast<uint16_t>(s->round_left - 1u);
  if (s->round_left != 0) return;
  // Round closed. marked, acks < 2^16: marked * 100 < 2^23.
  const bool congested =
      s->round_marked * 100u >= static_cast<uint32_t>(cfg.plb_cong_thresh_pct) * s->round_acks;
  if (!congested) {
    s->cong_rounds = 0;
    return;
  }
  if (s->cong_rounds != 0xFF) s->cong_rounds = static_cast<uint8_t>(s->cong_rounds + 1u);
  const uint32_t c = s->cong_rounds;
  const bool idle_due =
      cfg.plb_idle_rehash_rounds != 0 && inflight == 0 && c >= cfg.plb_idle_rehash_rounds;
  if (!idle_due && c < cfg.plb_rehash_rounds) return;
  if (s->flags & kPlbSuspended) {
    if (ElapsedNs(now_ns, s->suspend_start_ns) < cfg.plb_suspend_ns) return;
    s->flags = static_cast<uint8_t>(s->flags & ~kPlbSuspended);
  }
  s->ev = static_cast<uint8_t>(detail::PlbOtherEv(cfg, s));
  s->cong_rounds = 0;
}

}  // namespace spray
}  // namespace nicc

#endif  // NICC_SPRAY_PLB_H_
