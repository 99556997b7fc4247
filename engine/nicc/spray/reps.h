// nicc/spray/reps.h — reps (recycled entropy): reuse EVs whose ACK came back
// clean, explore at random when none is cached, freeze on a timeout.
// docs/spray.md states every rule.
#ifndef NICC_SPRAY_REPS_H_
#define NICC_SPRAY_REPS_H_

#include "nicc/spray/common.h"

namespace nicc {
namespace spray {

enum RepsFlag : uint8_t {
  kRepsFrozen = 1u << 0,  // replaying cached EVs until freeze_until_ns
};

// REPS: a FIFO ring of EV indices with a 2-bit reuse credit per slot.
struct RepsState {
  uint32_t prng;            // xorshift32 state, for exploration
  TimeNs freeze_until_ns;   // end of freeze (valid while kRepsFrozen)
  uint8_t ring[kRepsRing];  // cached EV indices; slots head..head+count-1 valid
  uint16_t credits;         // 2 bits per slot: sends left for that entry (1..3); 0 off the ring
  uint8_t head;             // oldest entry
  uint8_t count;            // valid entries, 0..8
  uint8_t flags;            // RepsFlag bits
  uint8_t reserved[3];
};
static_assert(sizeof(RepsState) <= 24, "reps budget: < 25 bytes, as published");

namespace detail {

inline void RepsPut(RepsState* s, uint32_t slot, uint32_t idx, uint32_t credit) {
  s->ring[slot] = static_cast<uint8_t>(idx);
  const uint32_t sh = slot << 1;
  s->credits = static_cast<uint16_t>((s->credits & ~(3u << sh)) | (credit << sh));
}

// Removes every cached copy of `idx`, keeping the others in order. The
// credits are worked on in a register: the ring's byte stores could alias
// them, which would reload and store them on every kept entry.
// Loop bound: kRepsRing.
inline void RepsPurge(RepsState* s, uint32_t idx) {
  const uint32_t n = s->count;
  const uint32_t head = s->head;
  const uint32_t old_credits = s->credits;
  uint32_t credits = 0;  // slots off the ring keep 0
  uint32_t kept = 0;
  for (uint32_t j = 0; j < kRepsRing; ++j) {
    if (j >= n) break;
    const uint32_t from = (head + j) & (kRepsRing - 1u);
    const uint32_t e = s->ring[from];
    if (e == idx) continue;
    const uint32_t to = (head + kept) & (kRepsRing - 1u);
    s->ring[to] = static_cast<uint8_t>(e);
    const uint32_t credit = (old_credits >> (from << 1)) & 3u;  // from >= to: not yet moved
    credits |= credit << (to << 1);
    ++kept;
  }
  s->credits = static_cast<uint16_t>(credits);
  s->count = static_cast<uint8_t>(kept);
}

}  // namespace detail

inline void RepsInit(const Config& cfg, RepsState* s, uint32_t seed) {
  (void)cfg;
  *s = RepsState{};
  s->prng = PrngSeed(seed);
}

// Frozen and past the exit time: thaw. Otherwise, with nothing cached:
// explore, index = (PrngNext() >> 24) & mask. With a cached entry: send on
// the oldest one; outside freeze that uses one credit (an entry with credit
// left goes to the back of the ring), in freeze the entry goes to the back
// with its credit unchanged (known-good EVs replay until the exit time).
inline uint16_t RepsSelect(const Config& cfg, RepsState* s, TimeNs now_ns) {
  bool frozen = (s->flags & kRepsFrozen) != 0;
  if (frozen && TimeReached(now_ns, s->freeze_until_ns)) {
    s->flags = static_cast<uint8_t>(s->flags & ~kRepsFrozen);
    frozen = false;
  }
  const uint32_t n = s->count;
  if (n == 0) return EvPort(cfg, PrngByte(PrngNext(&s->prng)) & cfg.ev_mask);
  const uint32_t head = s->head;
  const uint32_t idx = s->ring[head];
  uint32_t credits = s->credits;
  const uint32_t credit = (credits >> (head << 1)) & 3u;
  const uint32_t left = frozen ? credit : credit - 1u;  // credit >= 1 when cached
  credits ^= credit << (head << 1);  // the head slot leaves the ring: its bits to 0
  s->head = static_cast<uint8_t>((head + 1u) & (kRepsRing - 1u));
  if (left != 0) {
    const uint32_t tail = (head + n) & (kRepsRing - 1u);  // == head if full
    s->ring[tail] = static_cast<uint8_t>(idx);
    credits |= left << (tail << 1);  // a slot off the ring: its bits are 0
  } else {
    s->count = static_cast<uint8_t>(n - 1u);
  }
  s->credits = static_cast<uint16_t>(credits);
  return EvPort(cfg, idx);
}

// A clean ACK caches its EV (with max_reuse credits) at the back of the
// ring; a full ring drops its oldest entry. ECN-marked and NACKed EVs are not
// cached. A timeout purges the EV from the ring and starts (or extends) the
// freeze.
inline void RepsOnFeedback(const Config& cfg, RepsState* s, uint16_t ev_port, Feedback kind,
                           TimeNs now_ns) {
  const int32_t i = EvIndex(cfg, ev_port);
  if (i < 0) return;
  const uint32_t idx = static_cast<uint32_t>(i);
  if (kind == Feedback::kGood) {
    const uint32_t n = s->count;
    const uint32_t head = s->head;
    if (n == kRepsRing) {  // overwrite the oldest; it becomes the newest
      detail::RepsPut(s, head, idx, cfg.reps_max_reuse);
      s->head = static_cast<uint8_t>((head + 1u) & (kRepsRing - 1u));
    } else {
      detail::RepsPut(s, (head + n) & (kRepsRing - 1u), idx, cfg.reps_max_reuse);
      s->count = static_cast<uint8_t>(n + 1u);
    }
    return;
  }
  if (kind != Feedback::kTimeout) return;
  detail::RepsPurge(s, idx);
  if (cfg.reps_freeze_ns == 0) return;
  s->flags = static_cast<uint8_t>(s->flags | kRepsFrozen);
  s->freeze_until_ns = now_ns + cfg.reps_freeze_ns;  // wraps by design
}

}  // namespace spray
}  // namespace nicc

#endif  // NICC_SPRAY_REPS_H_
