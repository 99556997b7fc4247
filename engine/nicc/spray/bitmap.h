// nicc/spray/bitmap.h — bitmap: ops, skipping EVs that carry a penalty (ECN
// +1, NACK +4, timeout = 15); each skip decays the penalty by one. Builds
// on ops.h's rounds. docs/spray.md states every rule.
#ifndef NICC_SPRAY_BITMAP_H_
#define NICC_SPRAY_BITMAP_H_

#include "nicc/spray/common.h"
#include "nicc/spray/ops.h"

namespace nicc {
namespace spray {

// Bitmap budget, chosen: 40 bytes (8 of ops + 4 bits x 64 EVs), within the
// 48-byte per-flow area of the vendor firmware kit. The penalties are stored
// bit-sliced: bit j of EV i's penalty is bit i of plane j (a 64-bit mask kept
// as two 32-bit words, so the state keeps 4-byte alignment). "Which EVs carry
// a penalty" is then the OR of the four planes, and taking one off every EV
// of a set is a borrow chain over the planes, whatever the set's size.
struct BitmapState {
  OpsState ops;
  uint32_t plane[4][2];  // plane[j][w]: bit j of the penalties of EVs 32w..32w+31
};
static_assert(sizeof(BitmapState) == 40, "bitmap budget: 40 bytes");

inline void BitmapInit(const Config& cfg, BitmapState* s, uint32_t seed) {
  *s = BitmapState{};
  OpsInit(cfg, &s->ops, seed);
}

inline uint32_t BitmapPenalty(const BitmapState& s, uint32_t idx) {
  const uint32_t w = (idx >> 5) & 1u;
  const uint32_t b = idx & 31u;
  return ((s.plane[0][w] >> b) & 1u) | (((s.plane[1][w] >> b) & 1u) << 1) |
         (((s.plane[2][w] >> b) & 1u) << 2) | (((s.plane[3][w] >> b) & 1u) << 3);
}

namespace detail {

// Sets EV idx's penalty from `old` to `pen`: flips the plane bits that differ.
inline void SetPenalty(BitmapState* s, uint32_t idx, uint32_t old, uint32_t pen) {
  const uint32_t w = (idx >> 5) & 1u;
  const uint32_t b = idx & 31u;
  const uint32_t diff = old ^ pen;
  s->plane[0][w] ^= (diff & 1u) << b;
  s->plane[1][w] ^= ((diff >> 1) & 1u) << b;
  s->plane[2][w] ^= ((diff >> 2) & 1u) << b;
  s->plane[3][w] ^= ((diff >> 3) & 1u) << b;
}

// Takes one off the penalty of every EV in `set` (each > 0, so no borrow
// leaves plane 3): per plane, the bit flips where a borrow arrives, and the
// borrow goes on where the bit was 0. 32-bit words only: no 64-bit shift by
// a variable (a libgcc call on 32-bit cores).
inline void DecrementSet(uint32_t p[4][2], const uint32_t set[2]) {
  for (uint32_t w = 0; w < 2; ++w) {
    uint32_t borrow = set[w];
    uint32_t old = p[0][w];
    p[0][w] = old ^ borrow;
    borrow &= ~old;
    old = p[1][w];
    p[1][w] = old ^ borrow;
    borrow &= ~old;
    old = p[2][w];
    p[2][w] = old ^ borrow;
    borrow &= ~old;
    p[3][w] ^= borrow;
  }
}

}  // namespace detail

// Keeps the skip walk out of line so the fast path it hangs off needs fewer
// registers (GCC and Clang; a no-op elsewhere). Not `cold`: that would
// optimise the walk for size.
#if defined(__GNUC__)
#define NICC_SPRAY_OUT_OF_LINE __attribute__((noinline))
#else
#define NICC_SPRAY_OUT_OF_LINE
#endif

namespace detail {

// BitmapSelect's slow path: `idx` (the first candidate) carries a penalty.
// Walks the OPS candidates that follow, in order, to the first without a
// penalty, collecting the skipped ones in a mask; their penalties drop by
// one together at the end (or when the walk crosses into the next round,
// where an EV may come up a second time). At most 2^k candidates in all
// (the last is used even if penalised). Loop bound: kBitmapMaxEvs.
NICC_SPRAY_OUT_OF_LINE inline uint32_t BitmapSkip(const Config& cfg, BitmapState* s, uint32_t idx) {
  uint32_t nz[2] = {s->plane[0][0] | s->plane[1][0] | s->plane[2][0] | s->plane[3][0],
                    s->plane[0][1] | s->plane[1][1] | s->plane[2][1] | s->plane[3][1]};
  uint32_t skipped[2] = {0, 0};
  skipped[(idx >> 5) & 1u] = 1u << (idx & 31u);
  const uint32_t mask = cfg.ev_mask;
  const uint32_t sh = cfg.ops_shift;
  uint32_t pos = s->ops.pos;  // of the next candidate; 0 = a new round
  uint32_t mul = s->ops.mul;
  uint32_t t = (mul * pos + s->ops.add) & mask;  // <= 255 * 255 + 255 < 2^16
  uint32_t left = mask;  // candidates still allowed after the first
  while (left != 0) {
    if (pos == 0) {
      // The walk enters a new round: settle the skips so far, then draw.
      DecrementSet(s->plane, skipped);
      nz[0] = s->plane[0][0] | s->plane[1][0] | s->plane[2][0] | s->plane[3][0];
      nz[1] = s->plane[0][1] | s->plane[1][1] | s->plane[2][1] | s->plane[3][1];
      skipped[0] = 0;
      skipped[1] = 0;
      OpsNewRound(cfg, &s->ops);
      mul = s->ops.mul;
      t = s->ops.add;
    }
    // The rest of this round, at most `left` candidates.
    uint32_t n = mask + 1u - pos;
    if (n > left) n = left;
    left -= n;
    pos = (pos + n) & mask;
    for (; n != 0; --n) {
      idx = t ^ (t >> sh);
      t = (t + mul) & mask;
      const uint32_t w = idx >> 5;  // idx < 64
      const uint32_t bit = 1u << (idx & 31u);
      if ((nz[w] & bit) == 0) {
        pos = (pos - n + 1u) & mask;  // the candidate after this one
        left = 0;
        break;
      }
      skipped[w] |= bit;
    }
  }
  DecrementSet(s->plane, skipped);
  s->ops.pos = static_cast<uint8_t>(pos);
  return idx;
}

}  // namespace detail

// Takes OPS candidates in order; a candidate with a penalty is skipped and
// its penalty drops by one. If a whole round's worth (2^k) of candidates are
// all penalised, the last one is used anyway (its penalty still decays), so
// a flow never stalls.
inline uint16_t BitmapSelect(const Config& cfg, BitmapState* s) {
  const uint32_t idx = detail::OpsNextIndex(cfg, &s->ops);
  const uint32_t w = (idx >> 5) & 1u;
  const uint32_t any = s->plane[0][w] | s->plane[1][w] | s->plane[2][w] | s->plane[3][w];
  if (((any >> (idx & 31u)) & 1u) == 0) return EvPort(cfg, idx);
  return EvPort(cfg, detail::BitmapSkip(cfg, s, idx));
}

inline void BitmapOnFeedback(const Config& cfg, BitmapState* s, uint16_t ev_port, Feedback kind) {
  const int32_t i = EvIndex(cfg, ev_port);
  if (i < 0 || kind == Feedback::kGood) return;
  const uint32_t idx = static_cast<uint32_t>(i);
  const uint32_t old = BitmapPenalty(*s, idx);
  uint32_t pen = kBitmapMaxPenalty;
  if (kind == Feedback::kEcn) {
    pen = MinU32(old + cfg.bitmap_ecn_penalty, kBitmapMaxPenalty);
  } else if (kind == Feedback::kNack) {
    pen = MinU32(old + cfg.bitmap_nack_penalty, kBitmapMaxPenalty);
  }
  detail::SetPenalty(s, idx, old, pen);
}

}  // namespace spray
}  // namespace nicc

#endif  // NICC_SPRAY_BITMAP_H_
