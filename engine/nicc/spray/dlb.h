// nicc/spray/dlb.h — dlb: least-congested EV by per-EV EWMA of marks and
// RTT, with hysteresis, dwell and probes. docs/spray.md states every rule.
#ifndef NICC_SPRAY_DLB_H_
#define NICC_SPRAY_DLB_H_

#include "nicc/spray/common.h"

namespace nicc {
namespace spray {

constexpr uint8_t kDlbNone = 0xFF;  // DlbState::alt when no other EV is measured

// DLB: per-EV EWMAs; cost(i) = ecn_q8[i] + rtt_units[i].
struct DlbState {
  uint16_t rtt_units[kDlbMaxEvs];  // RTT EWMA, 2^dlb_rtt_shift ns units; 0 = none yet
  uint8_t ecn_q8[kDlbMaxEvs];      // marked-fraction EWMA, 255 = every packet
  uint8_t cur;                     // index in use
  uint8_t alt;                     // best other index measured, or kDlbNone
  uint8_t probe_next;              // next index a probe packet goes to
  uint8_t pkt_count;               // packets selected, mod 256 (probe clock)
  uint8_t hold;                    // feedbacks on cur still due before a move
  uint8_t reserved;
};
static_assert(sizeof(DlbState) <= 64, "dlb budget: 64 bytes for 16 EVs");

namespace detail {

// avg moved 1/2^shift of the way to `sample`, rounded away from avg so it
// reaches sample exactly; round_up = 2^shift - 1 (Config::dlb_gain_round).
// |sample - avg| < 2^16 and shift <= 7: no overflow.
inline uint32_t EwmaStep(uint32_t avg, uint32_t sample, uint32_t shift, uint32_t round_up) {
  if (sample >= avg) return avg + ((sample - avg + round_up) >> shift);
  return avg - ((avg - sample + round_up) >> shift);
}

}  // namespace detail

inline void DlbInit(const Config& cfg, DlbState* s, uint32_t seed) {
  *s = DlbState{};
  uint32_t x = PrngSeed(seed);  // the first output picks the starting EV
  s->cur = static_cast<uint8_t>(PrngByte(PrngNext(&x)) & cfg.ev_mask);
  s->alt = kDlbNone;
  s->probe_next = static_cast<uint8_t>((s->cur + 1u) & cfg.ev_mask);
}

inline uint32_t DlbCost(const DlbState& s, uint32_t idx) {
  idx &= kDlbMaxEvs - 1u;
  return static_cast<uint32_t>(s.ecn_q8[idx]) + s.rtt_units[idx];  // < 2^17
}

// The current EV, except every 2^probe_shift-th packet, which probes the
// EVs in turn (probe_next, then probe_next + 1, ...) to keep their EWMAs
// fresh.
inline uint16_t DlbSelect(const Config& cfg, DlbState* s) {
  const uint32_t count = (s->pkt_count + 1u) & 0xFFu;
  s->pkt_count = static_cast<uint8_t>(count);
  if (cfg.dlb_probe_mask != 0 && (count & cfg.dlb_probe_mask) == 0) {
    const uint32_t idx = s->probe_next;
    s->probe_next = static_cast<uint8_t>((idx + 1u) & cfg.ev_mask);
    return EvPort(cfg, idx);
  }
  return EvPort(cfg, s->cur);
}

// Updates EV i's EWMAs: ECN fraction with sample 255 (ECN, NACK) or 0
// (good); RTT, when sampled, with min(rtt_ns >> rtt_shift, 65535), at least
// 1 (the first sample is taken as is). A timeout sets both to their maximum.
// Then: feedback on another EV makes it `alt` when it is the first measured,
// is `alt` itself, or beats alt's cost. Feedback on cur counts down `hold`.
// The flow moves to alt (cur and alt swap, hold = min_dwell) when
// cost(alt) + hysteresis < cost(cur) and hold is 0 — or at once when cur
// itself timed out.
inline void DlbOnFeedback(const Config& cfg, DlbState* s, uint16_t ev_port, Feedback kind,
                          uint32_t rtt_ns) {
  const int32_t i = EvIndex(cfg, ev_port);
  if (i < 0) return;
  const uint32_t idx = static_cast<uint32_t>(i) & (kDlbMaxEvs - 1u);
  // The EWMAs of EV idx, kept in registers: its cost below needs no reload.
  uint32_t ecn = 0xFF;
  uint32_t rtt = 0xFFFF;
  if (kind != Feedback::kTimeout) {
    const uint32_t g = cfg.dlb_gain_shift;
    const uint32_t ru = cfg.dlb_gain_round;
    const uint32_t e = s->ecn_q8[idx];  // sample 0 (good) or 255: the side is known
    ecn = kind == Feedback::kGood ? e - ((e + ru) >> g) : e + ((255u - e + ru) >> g);
    rtt = s->rtt_units[idx];
    if (rtt_ns != 0) {
      const uint32_t u = MaxU32(MinU32(rtt_ns >> cfg.dlb_rtt_shift, 0xFFFFu), 1u);
      rtt = rtt == 0 ? u : detail::EwmaStep(rtt, u, g, ru);
    }
  }
  s->ecn_q8[idx] = static_cast<uint8_t>(ecn);
  s->rtt_units[idx] = static_cast<uint16_t>(rtt);
  const uint32_t cost = ecn + rtt;  // DlbCost(idx), < 2^17
  const uint32_t cur = s->cur;
  uint32_t alt = s->alt;
  uint32_t cost_cur;
  uint32_t cost_alt;
  if (idx == cur) {
    if (s->hold != 0) {
      if (kind != Feedback::kTimeout) {
        s->hold = static_cast<uint8_t>(s->hold - 1u);
        return;
      }
      s->hold = 0;
    }
    if (alt == kDlbNone) return;
    cost_cur = cost;
    cost_alt = DlbCost(*s, alt);
  } else {
    if (alt == kDlbNone || idx == alt) {
      alt = idx;
      s->alt = static_cast<uint8_t>(idx);
      cost_alt = cost;
    } else {
      cost_alt = DlbCost(*s, alt);
      if (cost < cost_alt) {
        alt = idx;
        s->alt = static_cast<uint8_t>(idx);
        cost_alt = cost;
      }
    }
    if (s->hold != 0) return;
    cost_cur = DlbCost(*s, cur);
  }
  if (cost_alt + cfg.dlb_hysteresis < cost_cur) {
    s->cur = static_cast<uint8_t>(alt);
    s->alt = static_cast<uint8_t>(cur);
    s->hold = cfg.dlb_min_dwell;
  }
}

}  // namespace spray
}  // namespace nicc

#endif  // NICC_SPRAY_DLB_H_
