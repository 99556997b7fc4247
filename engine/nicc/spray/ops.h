// nicc/spray/ops.h — ops (oblivious spraying): every EV once per round, a
// new order each round. docs/spray.md states the permutation and the PRNG.
#ifndef NICC_SPRAY_OPS_H_
#define NICC_SPRAY_OPS_H_

#include "nicc/spray/common.h"

namespace nicc {
namespace spray {

// A round is a permutation of the 2^k indices:
//   t = (mul * pos + add) mod 2^k,  index = t ^ (t >> ops_shift)
// with mul odd and add drawn from the PRNG at the start of each round.
struct OpsState {
  uint32_t prng;   // xorshift32 state (prng.h)
  uint8_t add;     // offset of this round
  uint8_t mul_m1;  // the round's odd multiplier minus 1 (1, never drawn, before the first round)
  uint8_t pos;    // position in the round, 0..2^k-1; 0 = start the next round
  uint8_t reserved;
};
static_assert(sizeof(OpsState) == 8, "ops budget: 8 bytes (<= 32)");

namespace detail {

// Draws a round's multiplier and offset and returns the offset (t at
// position 0):
//   r = PrngNext(); mul = ((r >> 24) & mask) | 1; add = (r >> 16) & mask;
//   if (mul, add) equals the previous round's, add = (add + 1) & mask,
// so two consecutive rounds never repeat an order (for k >= 1). The state
// keeps mul - 1 (mul with bit 0 cleared), so that add and mul - 1 come out
// of r >> 16 together with one mask (add in bits 0..7, mul - 1 in bits
// 8..15, Config::ops_pair_mask) and are compared with the previous pair as
// one 16-bit word `prev`.
inline uint32_t OpsNewRound(const Config& cfg, OpsState* s, uint32_t prev) {
  const uint32_t r = PrngNext(&s->prng);
  const uint32_t mask = cfg.ev_mask;
  uint32_t v = (r >> 16) & cfg.ops_pair_mask;                // add | (mul - 1) << 8
  if (v == prev) v = (v & ~mask) | ((v + 1u) & mask);      // add + 1 wraps inside its k bits
  s->add = static_cast<uint8_t>(v);
  s->mul_m1 = static_cast<uint8_t>(v >> 8);
  s->pos = static_cast<uint8_t>(1u & mask);
  return v & 0xFFu;
}

// The round's (add, mul - 1) as one word: add | (mul - 1) << 8.
inline uint32_t OpsPair(const OpsState& s) {
  return s.add | (static_cast<uint32_t>(s.mul_m1) << 8);
}

// The next index of the current round (a new round starts at pos 0, where
// t = add). With am = add | (mul - 1) << 8, (mul * pos + am) & mask is
// (mul * pos + add) & mask: mask < 2^8 drops the (mul - 1) << 8 term.
// mul * pos + am <= 255 * 255 + 65535 < 2^17.
inline uint32_t OpsNextIndex(const Config& cfg, OpsState* s) {
  const uint32_t pos = s->pos;
  const uint32_t am = OpsPair(*s);
  uint32_t t;
  if (pos == 0) {
    t = OpsNewRound(cfg, s, am);
  } else {
    const uint32_t mask = cfg.ev_mask;
    t = (((am >> 8) | 1u) * pos + am) & mask;
    s->pos = static_cast<uint8_t>((pos + 1u) & mask);
  }
  return t ^ (t >> cfg.ops_shift);
}

}  // namespace detail

inline void OpsInit(const Config& cfg, OpsState* s, uint32_t seed) {
  (void)cfg;
  *s = OpsState{};
  s->prng = PrngSeed(seed);
  s->mul_m1 = 1;  // odd: no round draws it, so the first round never counts as a repeat
}

inline uint16_t OpsSelect(const Config& cfg, OpsState* s) {
  return EvPort(cfg, detail::OpsNextIndex(cfg, s));
}

}  // namespace spray
}  // namespace nicc

#endif  // NICC_SPRAY_OPS_H_
