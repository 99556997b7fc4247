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
// 48-byte per-flow area of the vendor firmware kit.
struct BitmapState {
  OpsState ops;
  uint8_t penalty[kBitmapMaxEvs / 2];  // 4 bits per EV: EV i in byte i/2, high nibble if odd
};
static_assert(sizeof(BitmapState) == 40, "bitmap budget: 40 bytes");

inline void BitmapInit(const Config& cfg, BitmapState* s, uint32_t seed) {
  *s = BitmapState{};
  OpsInit(cfg, &s->ops, seed);
}

inline uint32_t BitmapPenalty(const BitmapState& s, uint32_t idx) {
  return (s.penalty[(idx >> 1) & (kBitmapMaxEvs / 2 - 1u)] >> ((idx & 1u) << 2)) & 0xFu;
}

namespace detail {

inline void SetPenalty(BitmapState* s, uint32_t idx, uint32_t pen) {
  const uint32_t sh = (idx & 1u) << 2;
  uint8_t& b = s->penalty[idx >> 1];
  b = static_cast<uint8_t>((b & ~(0xFu << sh)) | (pen << sh));
}

}  // namespace detail

// Keeps a rarely taken slow path out of line so the fast path it hangs off
// needs fewer registers (GCC and Clang; a no-op elsewhere).
#if defined(__GNUC__)
#define NICC_SPRAY_SLOW_PATH __attribute__((noinline, cold))
#else
#define NICC_SPRAY_SLOW_PATH
#endif

namespace detail {

// BitmapSelect's slow path: `idx` (the first candidate) carries `pen` > 0.
// Loop bound: kBitmapMaxEvs.
NICC_SPRAY_SLOW_PATH inline uint32_t BitmapSkip(const Config& cfg, BitmapState* s, uint32_t idx,
                                                uint32_t pen) {
  for (uint32_t i = 1; i <= kBitmapMaxEvs; ++i) {
    SetPenalty(s, idx, pen - 1u);
    if (i > cfg.ev_mask) break;  // 2^k candidates tried: use the last one
    idx = OpsNextIndex(cfg, &s->ops);
    pen = BitmapPenalty(*s, idx);
    if (pen == 0) return idx;
  }
  return idx;
}

}  // namespace detail

// Takes OPS candidates in order; a candidate with a penalty is skipped and
// its penalty drops by one. If a whole round's worth (2^k) of candidates are
// all penalised, the last one is used anyway (its penalty still decays), so
// a flow never stalls.
inline uint16_t BitmapSelect(const Config& cfg, BitmapState* s) {
  const uint32_t idx = detail::OpsNextIndex(cfg, &s->ops);
  const uint32_t pen = BitmapPenalty(*s, idx);
  if (pen == 0) return EvPort(cfg, idx);
  return EvPort(cfg, detail::BitmapSkip(cfg, s, idx, pen));
}

inline void BitmapOnFeedback(const Config& cfg, BitmapState* s, uint16_t ev_port, Feedback kind) {
  const int32_t i = EvIndex(cfg, ev_port);
  if (i < 0 || kind == Feedback::kGood) return;
  const uint32_t idx = static_cast<uint32_t>(i);
  uint32_t pen = kBitmapMaxPenalty;
  if (kind == Feedback::kEcn) {
    pen = MinU32(BitmapPenalty(*s, idx) + cfg.bitmap_ecn_penalty, kBitmapMaxPenalty);
  } else if (kind == Feedback::kNack) {
    pen = MinU32(BitmapPenalty(*s, idx) + cfg.bitmap_nack_penalty, kBitmapMaxPenalty);
  }
  detail::SetPenalty(s, idx, pen);
}

}  // namespace spray
}  // namespace nicc

#endif  // NICC_SPRAY_BITMAP_H_
