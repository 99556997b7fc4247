// nicc/spray/bitmap.h — bitmap: ops, skipping EVs that carry a penalty (ECN
// +1, NACK +4, timeout = 15): a penalised candidate's turn goes to the next
// clean EV in index order and its penalty decays by one. Takes its
// candidates from ops.h's rounds. docs/spray.md states every rule.
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

// Takes one off EV idx's penalty (> 0, so no borrow leaves plane 3): a
// borrow chain over the four planes of its 32-bit word.
inline void DecrementOne(BitmapState* s, uint32_t idx) {
  const uint32_t w = (idx >> 5) & 1u;
  uint32_t borrow = 1u << (idx & 31u);
  for (uint32_t j = 0; j < 4; ++j) {
    const uint32_t old = s->plane[j][w];
    s->plane[j][w] = old ^ borrow;
    borrow &= ~old;
  }
}

// BitmapSelect's skip, out of line (NICC_SPRAY_OUT_OF_LINE): the candidate `idx` carries a penalty. Its penalty
// drops by one, and the result is the first EV without a penalty after idx
// in index order (idx+1..2^k-1, then 0..idx-1), or idx itself when every
// EV carries one. Constant work: the clean EVs as one mask, a masked search
// above idx and a wrapped one (LowestBit), one borrow chain.
#if UINTPTR_MAX > 0xFFFFFFFFu
// 64-bit cores: the planes' two words as one 64-bit mask.
inline uint64_t Plane64(const uint32_t p[2]) {
  return p[0] | (static_cast<uint64_t>(p[1]) << 32);
}
inline uint32_t LowestBit64(uint64_t x) {  // x != 0; LowestBit per half
  const uint32_t lo = static_cast<uint32_t>(x);
  return lo != 0 ? LowestBit(lo) : 32u + LowestBit(static_cast<uint32_t>(x >> 32));
}
NICC_SPRAY_OUT_OF_LINE inline uint16_t BitmapSkip(const Config& cfg, BitmapState* s, uint32_t idx) {
  const uint64_t p0 = Plane64(s->plane[0]), p1 = Plane64(s->plane[1]);
  const uint64_t p2 = Plane64(s->plane[2]), p3 = Plane64(s->plane[3]);
  // Bits above ev_mask cleared: 63 - mask = ~mask & 63 for mask = 2^k - 1.
  const uint64_t clean = ~(p0 | p1 | p2 | p3) & (~uint64_t{0} >> (~cfg.ev_mask & 63u));
  const uint64_t b = uint64_t{1} << idx;
  const uint64_t above = clean & (0u - (b << 1));  // bits > idx (b << 1 is 0 for idx 63)
  DecrementOne(s, idx);
  uint32_t next = idx;
  if (above != 0) {
    next = LowestBit64(above);
  } else if (clean != 0) {
    next = LowestBit64(clean);  // wrapped: bits < idx
  }
  return EvPort(cfg, next);
}
#else
// 32-bit cores: two 32-bit words, no 64-bit shift by a variable (a libgcc
// call there).
NICC_SPRAY_OUT_OF_LINE inline uint16_t BitmapSkip(const Config& cfg, BitmapState* s, uint32_t idx) {
  const uint32_t mask = cfg.ev_mask;
  const uint32_t w = idx >> 5;
  // Free EVs per word, bits above ev_mask cleared (~mask & 31 is 31 - mask
  // for k <= 5 and 0 for k = 6).
  const uint32_t f0 = ~(s->plane[0][0] | s->plane[1][0] | s->plane[2][0] | s->plane[3][0]) &
                      (0xFFFFFFFFu >> (~mask & 31u));
  const uint32_t f1 = ~(s->plane[0][1] | s->plane[1][1] | s->plane[2][1] | s->plane[3][1]) &
                      (0u - (mask >> 5));
  DecrementOne(s, idx);
  const uint32_t own = w != 0 ? f1 : f0;
  const uint32_t other = w != 0 ? f0 : f1;
  const uint32_t above = own & (0xFFFFFFFEu << (idx & 31u));  // bits > idx in its word
  uint32_t next = idx;
  if (above != 0) {
    next = (w << 5) + LowestBit(above);
  } else if (other != 0) {
    next = ((w ^ 1u) << 5) + LowestBit(other);
  } else if (own != 0) {
    next = (w << 5) + LowestBit(own);  // wrapped: bits < idx
  }
  return EvPort(cfg, next);
}
#endif

}  // namespace detail

// The OPS candidate (one position per selection). Without a penalty it is
// used. With one, its penalty drops by one and the packet goes to the first
// EV without a penalty after it in index order (wrapping at 2^k), or to the
// candidate itself when every EV carries a penalty, so a flow never stalls.
// Constant work whatever the number of EVs or penalties.
inline uint16_t BitmapSelect(const Config& cfg, BitmapState* s) {
  const uint32_t idx = detail::OpsNextIndex(cfg, &s->ops);
  const uint32_t w = (idx >> 5) & 1u;
  const uint32_t any = s->plane[0][w] | s->plane[1][w] | s->plane[2][w] | s->plane[3][w];
  if (((any >> (idx & 31u)) & 1u) == 0) return EvPort(cfg, idx);
  return detail::BitmapSkip(cfg, s, idx);
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
