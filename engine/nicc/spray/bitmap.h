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

namespace detail {

// Index of the first set bit of the 64-bit mask (f1:f0) after bit `idx`,
// cyclically (bits idx+1..63, then 0..idx), or `idx` when the mask is
// empty. The caller guarantees bit idx itself is clear. Constant work:
// one masked word, then the other, then the wrap, each a test and a
// LowestBit; 32-bit words only (no 64-bit shift by a variable).
inline uint32_t NextSetAfter(uint32_t f0, uint32_t f1, uint32_t idx) {
  const uint32_t w = idx >> 5;
  const uint32_t own = w != 0 ? f1 : f0;
  const uint32_t other = w != 0 ? f0 : f1;
  const uint32_t above = own & (0xFFFFFFFEu << (idx & 31u));  // bits > idx in its word
  if (above != 0) return (w << 5) + LowestBit(above);
  if (other != 0) return ((w ^ 1u) << 5) + LowestBit(other);
  if (own != 0) return (w << 5) + LowestBit(own);  // wrapped: bits < idx
  return idx;
}

}  // namespace detail

// The OPS candidate (one position per selection). Without a penalty it is
// used. With one, its penalty drops by one and the packet goes to the first
// EV without a penalty after it in index order (wrapping at 2^k), or to the
// candidate itself when every EV carries a penalty, so a flow never stalls.
// Constant work whatever the number of EVs or penalties: one bit test of
// the OR of the planes, a LowestBit per 32-bit word, one borrow chain.
inline uint16_t BitmapSelect(const Config& cfg, BitmapState* s) {
  const uint32_t idx = detail::OpsNextIndex(cfg, &s->ops);
  const uint32_t w = (idx >> 5) & 1u;
  const uint32_t any = s->plane[0][w] | s->plane[1][w] | s->plane[2][w] | s->plane[3][w];
  if (((any >> (idx & 31u)) & 1u) == 0) return EvPort(cfg, idx);
  // EVs without a penalty, within the flow's 2^k: bits above ev_mask are
  // cleared (~mask & 31 is 31 - mask for k <= 5 and 0 for k = 6).
  const uint32_t mask = cfg.ev_mask;
  const uint32_t free0 = ~(s->plane[0][0] | s->plane[1][0] | s->plane[2][0] | s->plane[3][0]) &
                         (0xFFFFFFFFu >> (~mask & 31u));
  const uint32_t free1 = ~(s->plane[0][1] | s->plane[1][1] | s->plane[2][1] | s->plane[3][1]) &
                         (0u - (mask >> 5));
  uint32_t one[2] = {0, 0};
  one[w] = 1u << (idx & 31u);
  detail::DecrementSet(s->plane, one);
  return EvPort(cfg, detail::NextSetAfter(free0, free1, idx));
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
