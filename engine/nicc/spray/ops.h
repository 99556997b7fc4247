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
  uint32_t prng;  // xorshift32 state (prng.h)
  uint8_t mul;    // odd multiplier of this round (0 before the first round)
  uint8_t add;    // offset of this round
  uint8_t pos;    // position in the round, 0..2^k-1; 0 = start the next round
  uint8_t reserved;
};
static_assert(sizeof(OpsState) == 8, "ops budget: 8 bytes (<= 32)");

namespace detail {

// Draws a round's multiplier and offset:
//   r = PrngNext(); mul = ((r >> 24) & mask) | 1; add = (r >> 16) & mask;
//   if (mul, add) equals the previous round's, add = (add + 1) & mask,
// so two consecutive rounds never repeat an order (for k >= 1).
inline void OpsNewRound(const Config& cfg, OpsState* s) {
  const uint32_t r = PrngNext(&s->prng);
  const uint32_t mul = (PrngByte(r) & cfg.ev_mask) | 1u;
  uint32_t add = (r >> 16) & cfg.ev_mask;
  if (mul == s->mul && add == s->add) add = (add + 1u) & cfg.ev_mask;
  s->mul = static_cast<uint8_t>(mul);
  s->add = static_cast<uint8_t>(add);
}

// The next index of the current round (a new round starts at pos 0).
// mul * pos + add <= 255 * 255 + 255 < 2^16.
inline uint32_t OpsNextIndex(const Config& cfg, OpsState* s) {
  const uint32_t pos = s->pos;
  if (pos == 0) OpsNewRound(cfg, s);
  uint32_t t = (s->mul * pos + s->add) & cfg.ev_mask;
  t ^= t >> cfg.ops_shift;
  s->pos = static_cast<uint8_t>((pos + 1u) & cfg.ev_mask);
  return t;
}

}  // namespace detail

inline void OpsInit(const Config& cfg, OpsState* s, uint32_t seed) {
  (void)cfg;
  *s = OpsState{};
  s->prng = PrngSeed(seed);
}

inline uint16_t OpsSelect(const Config& cfg, OpsState* s) {
  return EvPort(cfg, detail::OpsNextIndex(cfg, s));
}

}  // namespace spray
}  // namespace nicc

#endif  // NICC_SPRAY_OPS_H_
