// nicc/nscc.h — UEC NSCC sender (network-signal-based congestion control):
// per-ACK window from the ECN echo and the queueing delay, batched
// increases, quick adapt on NACK/trim, pacing at window / base RTT; fixed
// point, caller-owned per-flow state of 48 bytes.
//
// Source: the UEC 1.0 specification's NSCC (four cases, quick adapt,
// batching) as implemented by htsim's reference model (uet-htsim,
// htsim/sim/src/protocols/uec.cpp: initNsccParams, updateCwndOnAck_NSCC,
// quick_adapt, fulfill_adjustment, multiplicative_decrease,
// updateCwndOnNack_NSCC). docs/nscc.md states each rule as an equation with
// its source, the fixed-point formats and their overflow bounds, and what
// differs from htsim.
//
//   nicc::nscc::Config cfg;
//   if (!nicc::nscc::Compile(nicc::nscc::Params::UecDefault(), &cfg).ok()) ...;
//   nicc::nscc::State flow;                        // 48 bytes, yours to keep
//   nicc::nscc::Init(cfg, &flow);
//   nicc::Action a = nicc::nscc::OnAck(cfg, &flow, ack_seq, snd_nxt, acked_bytes,
//                                      ecn, rtt_ns, now_ns);
//   if (a.Has(nicc::kActSetWindow)) limit_inflight(a.window_bytes);
//   if (a.Has(nicc::kActSetRate)) pace(a.rate_kbps);
//   if (a.Has(nicc::kActChangeEv)) spray_mark_bad(a.ev);   // ECN at low delay
//   a = nicc::nscc::OnNack(cfg, &flow, nacked_bytes, snd_nxt, now_ns);  // NACK or trim
//
// Per ACK (delay = max(rtt - base_rtt, 0), target = target_qdelay_ns):
//   no ECN, delay <  target:  inc += alpha * acked * (target - delay)  (proportional)
//   no ECN, delay >= target:  inc += fi * acked                        (fair)
//   ECN,    delay >= target:  W = W * max(1 - gamma (avg - target)/avg, md_floor)
//                             if avg > target, at most once per base RTT
//   ECN,    delay <  target:  no change; kActChangeEv on the ACK's ev
//   batching: when more than adjust_bytes were ACKed or a base RTT passed since
//   the last period:  W += inc / W  (+ eta once per base RTT); inc = 0
//   W = clamp(W, min_window, max_window);  rate = min(W / base_rtt, line rate)
// Quick adapt (ACK or NACK, at most once per base RTT + target): when a
// NACK/trim was seen (or delay > qa_threshold_mult x target) and the bytes
// ACKed in the last period are below max_window / 2^qa_gate:
//   W = max(achieved, min_window); marked ACKs and NACKs of the packets in
//   flight at that moment (up to snd_nxt) are then ignored.
//
// Units: Params use ns, Mb/s, bytes and 1/1024 factors; windows are whole
// bytes (as htsim's mem_b), rates kb/s, sequence numbers 32-bit wrapping
// bytes, time the 32-bit wrapping NIC clock (common.h).
#ifndef NICC_NSCC_H_
#define NICC_NSCC_H_

#include "nicc/common.h"
#include "nicc/params.h"

namespace nicc {
namespace nscc {

// ---------------------------------------------------------------------------
// Parameters.
// ---------------------------------------------------------------------------

// Base RTT and target range: 1 us .. 1 ms (the BDP at 1.6 Tb/s stays below
// 2^28 bytes and a delay difference below 2^20 ns, which the overflow bounds
// below rely on).
constexpr uint32_t kMinBaseRttNs = 1000u;
constexpr uint32_t kMaxBaseRttNs = 1000000u;
constexpr uint32_t kMaxTargetNs = 1000000u;  // < 2^20
constexpr uint32_t kMaxMssBytes = 9216u;     // jumbo frame payload, < 2^13.2
constexpr uint32_t kMaxGainX1024 = 65535u;   // gains up to 64.0
constexpr uint32_t kOneX1024 = 1024u;
// The reference network the gains are stated for (UEC 1.0 / htsim
// initNsccParams): 100 Gb/s x 12 us = 150000 bytes; scale = BDP / this.
constexpr uint32_t kRefBdpBytes = 150000u;
constexpr uint32_t kRefRttNs = 12000u;
// An ACK's bytes count at most this much in the increase terms (1 MiB, far
// above any ACK coalescing), so that each term has a fixed bound.
constexpr uint32_t kMaxAckedBytes = 1u << 20;

enum Profile : uint8_t { NICC_NSCC_PROFILES(NICC_PROFILE_ENUM_) kProfileCount };

// One uint32_t per row of NICC_NSCC_PARAMS (param_tables.h), in its order.
struct Params {
  NICC_PARAM_MEMBERS(NICC_NSCC_PARAMS)

  static constexpr Params Of(Profile profile);
  // UEC 1.0 / htsim defaults for a 100 Gb/s, 12 us network with trimming.
  static constexpr Params UecDefault() { return Of(kUecDefault); }
  // Each field's range (the first bad one is named), then min_window_bytes
  // against the ceiling (kInconsistent).
  constexpr Status Validate() const;
};

using NiccRowParams_ = Params;
constexpr ParamDesc<Params> kParamRows[] = {NICC_PARAM_ROWS(NICC_NSCC_PARAMS)};
constexpr ProfileDesc kProfiles[] = {NICC_NSCC_PROFILES(NICC_PROFILE_ROW_)};
constexpr ParamTable<Params> kParamTable = {"nscc", "", kParamRows, sizeof(kParamRows) / sizeof(kParamRows[0]),
                                            kProfiles, kProfileCount};

static_assert(kParamRows[FindParam(kParamTable, "base_rtt_ns")].min == kMinBaseRttNs &&
                  kParamRows[FindParam(kParamTable, "base_rtt_ns")].max == kMaxBaseRttNs &&
                  kParamRows[FindParam(kParamTable, "target_qdelay_ns")].max == kMaxTargetNs &&
                  kParamRows[FindParam(kParamTable, "mss_bytes")].max == kMaxMssBytes &&
                  kParamRows[FindParam(kParamTable, "alpha_x1024")].max == kMaxGainX1024 &&
                  kParamRows[FindParam(kParamTable, "fi_x1024")].max == kMaxGainX1024 &&
                  kParamRows[FindParam(kParamTable, "eta_x1024")].max == kMaxGainX1024 &&
                  kParamRows[FindParam(kParamTable, "gamma_x1024")].max == kOneX1024 &&
                  kParamRows[FindParam(kParamTable, "md_floor_x1024")].max == kOneX1024 &&
                  kParamRows[FindParam(kParamTable, "max_window_pct")].max == 400u &&
                  kParamRows[FindParam(kParamTable, "qa_threshold_mult")].max == 16u,
              "the table's ranges are the constants the arithmetic relies on");
static_assert(uint64_t{kMaxTargetNs} < (uint64_t{1} << 20), "delay differences < 2^20 ns");

constexpr Params Params::Of(Profile profile) {
  Params p{};
  LoadProfile(kParamTable, profile, &p);
  return p;
}

// ---------------------------------------------------------------------------
// Config: Params compiled once into the units the hot path uses.
// ---------------------------------------------------------------------------

struct Config {
  uint64_t kp_q16;         // proportional: inc += (acked * kp_q16 >> 16) * (target - delay); <= 2^32.1
  uint64_t fi_q8;          // fair: inc += acked * fi_q8 >> 8; <= 2^37.5
  uint64_t rate_k_q16;     // rate_kbps = W * rate_k_q16 >> 16 (= W / T); <= 2^29
  uint32_t w_max;          // ceiling, bytes (<= 4 x 2e8 < 2^30)
  uint32_t w_min;          // floor, bytes (<= w_max, validated)
  uint32_t eta_bytes;      // additive increase per base RTT, bytes (< 2^30)
  uint32_t base_rtt_ns;    // T: batching period, MD guard, rate divisor
  uint32_t target_ns;      // target queueing delay
  uint32_t qa_threshold_ns;  // qa_threshold_mult x target (< 2^24)
  uint32_t qa_period_ns;   // base RTT + target: quick adapt's period (< 2^21)
  uint32_t qa_limit_bytes;  // w_max >> qa_gate
  uint32_t adjust_bytes;   // batching byte threshold
  uint32_t line_rate_kbps;  // rate ceiling
  uint16_t gamma_x1024;
  uint16_t md_floor_x1024;
  uint16_t ewma_x1024;
  uint16_t reserved;
};

// Validates `p` and fills `*out`. On error `*out` is left untouched.
inline Status Compile(const Params& p, Config* out);

// ---------------------------------------------------------------------------
// Per-flow state.
// ---------------------------------------------------------------------------

// Bits of State::flags.
enum StateFlag : uint8_t {
  kQaArmed = 1u << 0,       // qa_end_ns holds the end of the current quick-adapt period
  kQaTrigger = 1u << 1,     // a NACK/trim was seen: the next due check adapts
  kIgnoring = 1u << 2,      // after a quick adapt: ignore marks of ACKs before ignore_seq
  kAdjustArmed = 1u << 3,   // last_adjust_ns holds the start of the batching period
  kDecSeen = 1u << 4,       // last_dec_ns holds the time of the last decrease
};

struct State {
  uint64_t inc;             // accumulated increase, bytes^2 (saturates at kIncCap)
  uint32_t w_bytes;         // window W
  uint32_t avg_delay_ns;    // EWMA of the queueing delay
  uint32_t achieved_bytes;  // bytes ACKed in the current quick-adapt period (saturating)
  uint32_t received_bytes;  // bytes ACKed in the current batching period (saturating)
  TimeNs qa_end_ns;         // end of the quick-adapt period
  TimeNs last_adjust_ns;    // start of the batching period (eta once per base RTT)
  TimeNs last_dec_ns;       // last multiplicative decrease
  uint32_t ignore_seq;      // snd_nxt at the last quick adapt
  uint8_t flags;            // StateFlag bits
  uint8_t reserved[7];
};
static_assert(sizeof(State) <= 48, "NSCC per-flow budget: 48 bytes");

// The accumulated increase saturates here; W += inc / W then still fits
// (2^62 / 1 clamps to the ceiling).
constexpr uint64_t kIncCap = uint64_t{1} << 62;

// A new flow: W at the ceiling (htsim initNscc with cwnd 0), nothing
// accumulated, no period started.
inline void Init(const Config& cfg, State* s);

// An ACK arrived at now_ns: ack_seq acknowledged, snd_nxt the sender's next
// sequence, acked_bytes newly acknowledged, ecn the ECN echo, ev the entropy
// value the packet used, rtt_ns the RTT sample (0 = none: the ACK counts its
// bytes but picks no case). Returns kActSetWindow|kActSetRate when W
// changed, kActChangeEv with `ev` for ECN at low delay.
inline Action OnAck(const Config& cfg, State* s, uint32_t ack_seq, uint32_t snd_nxt, uint32_t acked_bytes,
                    bool ecn, uint16_t ev, uint32_t rtt_ns, TimeNs now_ns);

// A NACK or trimmed-packet notice for nacked_bytes: quick adapt if due, else
// W -= nacked_bytes (htsim updateCwndOnNack_NSCC). snd_nxt as in OnAck.
inline Action OnNack(const Config& cfg, State* s, uint32_t nacked_bytes, uint32_t snd_nxt, TimeNs now_ns);

inline uint32_t WindowBytes(const State& s) { return s.w_bytes; }
inline uint32_t RateKbps(const Config& cfg, const State& s);

// ===========================================================================
// Implementation.
// ===========================================================================

namespace detail {
// Line-rate BDP in bytes: <= 1.6e6 Mb/s * 1e6 ns / 8000 = 2e8 < 2^28.
constexpr uint64_t BdpBytes(uint32_t line_rate_mbps, uint32_t base_rtt_ns) {
  return static_cast<uint64_t>(line_rate_mbps) * base_rtt_ns / 8000u;
}
}  // namespace detail

constexpr Status Params::Validate() const {
  const Status st = CheckRanges(kParamTable, *this);
  if (!st.ok()) return st;
  const uint64_t w_max = detail::BdpBytes(line_rate_mbps, base_rtt_ns) * max_window_pct / 100u;
  if (min_window_bytes > w_max) return Status::Error(StatusCode::kInconsistent, "min_window_bytes");
  return Status::Ok();
}

inline Status Compile(const Params& p, Config* out) {
  const Status st = p.Validate();
  if (!st.ok()) return st;
  Config c{};
  const uint64_t bdp = detail::BdpBytes(p.line_rate_mbps, p.base_rtt_ns);  // < 2^28
  c.w_max = static_cast<uint32_t>(bdp * p.max_window_pct / 100u);         // <= 8e8 < 2^30
  c.w_min = p.min_window_bytes;                                            // <= w_max
  // alpha = alpha_k MSS (BDP/ref BDP) (target/12us) / target per byte-ns; the
  // target cancels: alpha = alpha_k MSS BDP / (ref BDP x 12 us). In Q16 with
  // alpha_k = alpha_x1024 / 1024: alpha_x1024 MSS BDP 2^16 / (1024 x 1.8e9).
  // alpha_x1024 MSS BDP <= 2^16 * 2^13.2 * 2^27.6 = 2^56.8; x 64 < 2^63.
  const uint64_t ref = uint64_t{kRefBdpBytes} * kRefRttNs;  // 1.8e9
  const uint64_t a_num = uint64_t{p.alpha_x1024} * p.mss_bytes * bdp;
  c.kp_q16 = (a_num * 64u + ref / 2) / ref;  // <= 2^32.1
  // fi = fi_k MSS BDP / ref BDP bytes per ACKed byte, Q8: fi_x1024 MSS BDP
  // 256 / (1024 ref BDP) = fi_x1024 MSS BDP / 600000; numerator < 2^57.
  const uint64_t f_num = uint64_t{p.fi_x1024} * p.mss_bytes * bdp;
  c.fi_q8 = (f_num + 300000u) / 600000u;  // <= 2^37.5
  // eta = eta_k MSS BDP / ref BDP bytes: <= 64 * 9216 * 1333 < 2^30.
  const uint64_t e_num = uint64_t{p.eta_x1024} * p.mss_bytes * bdp;
  const uint64_t e_den = uint64_t{kOneX1024} * kRefBdpBytes;
  c.eta_bytes = static_cast<uint32_t>((e_num + e_den / 2) / e_den);
  // W bytes per T ns = W * 8e6 / T kb/s; 8e6 * 2^16 / 1000 < 2^29.
  c.rate_k_q16 = ((uint64_t{8000000} << 16) + p.base_rtt_ns / 2) / p.base_rtt_ns;
  c.base_rtt_ns = p.base_rtt_ns;
  c.target_ns = p.target_qdelay_ns;
  c.qa_threshold_ns = p.qa_threshold_mult * p.target_qdelay_ns;  // <= 16e6 < 2^24
  c.qa_period_ns = p.base_rtt_ns + p.target_qdelay_ns;            // <= 2e6
  c.qa_limit_bytes = c.w_max >> p.qa_gate;
  c.adjust_bytes = p.adjust_bytes;
  c.line_rate_kbps = p.line_rate_mbps * kKbpsPerMbps;  // <= 1.6e9
  c.gamma_x1024 = static_cast<uint16_t>(p.gamma_x1024);
  c.md_floor_x1024 = static_cast<uint16_t>(p.md_floor_x1024);
  c.ewma_x1024 = static_cast<uint16_t>(p.delay_ewma_x1024);
  *out = c;
  return Status::Ok();
}

inline void Init(const Config& cfg, State* s) {
  *s = State{};
  s->w_bytes = cfg.w_max;
}

inline uint32_t RateKbps(const Config& cfg, const State& s) {
  // W < 2^30, rate_k < 2^29: product < 2^59.
  const uint64_t r = (static_cast<uint64_t>(s.w_bytes) * cfg.rate_k_q16 + (1u << 15)) >> 16;
  return r >= cfg.line_rate_kbps ? cfg.line_rate_kbps : static_cast<uint32_t>(r);
}

namespace detail {

constexpr bool SeqBefore(uint32_t a, uint32_t b) {
  return static_cast<int32_t>(a - b) < 0;  // two's-complement reinterpretation
}

inline uint32_t Clamp(const Config& cfg, uint64_t w) {
  return w >= cfg.w_max ? cfg.w_max : w <= cfg.w_min ? cfg.w_min : static_cast<uint32_t>(w);
}

inline void AddInc(State* s, uint64_t add) {
  s->inc = (s->inc >= kIncCap || add >= kIncCap - s->inc) ? kIncCap : s->inc + add;
}

// htsim quick_adapt(): true when this event adapted W or was ignored (the
// caller then skips the rest; the increase accumulated so far is dropped).
inline bool QuickAdapt(const Config& cfg, State* s, bool is_loss, bool marked, uint32_t delay_ns,
                       uint32_t snd_nxt, TimeNs now_ns) {
  bool done = false;
  if (marked && (s->flags & kIgnoring) != 0) {
    done = true;  // a mark from before the last adapt: already accounted for
  } else if ((s->flags & kQaArmed) == 0 || TimeDiffNs(now_ns, s->qa_end_ns) > 0) {
    if ((s->flags & kQaArmed) != 0 &&
        ((s->flags & kQaTrigger) != 0 || is_loss || delay_ns > cfg.qa_threshold_ns) &&
        s->achieved_bytes < cfg.qa_limit_bytes) {
      s->w_bytes = MaxU32(s->achieved_bytes, cfg.w_min);
      s->ignore_seq = snd_nxt;
      s->flags = static_cast<uint8_t>((s->flags | kIgnoring) & ~kQaTrigger);
      done = true;
    }
    s->achieved_bytes = 0;
    s->qa_end_ns = now_ns + cfg.qa_period_ns;  // wraps with the clock
    s->flags = static_cast<uint8_t>(s->flags | kQaArmed);
  }
  if (done) {
    s->inc = 0;
    s->received_bytes = 0;
  }
  return done;
}

inline Action Result(const Config& cfg, const State& s, uint32_t w_before) {
  Action a = Action::None();
  if (s.w_bytes != w_before) {
    a.flags = kActSetWindow | kActSetRate;
    a.window_bytes = s.w_bytes;
    a.rate_kbps = RateKbps(cfg, s);
  }
  return a;
}

}  // namespace detail

inline Action OnAck(const Config& cfg, State* s, uint32_t ack_seq, uint32_t snd_nxt, uint32_t acked_bytes,
                    bool ecn, uint16_t ev, uint32_t rtt_ns, TimeNs now_ns) {
  const uint32_t w_before = s->w_bytes;
  s->achieved_bytes = AddCapped(s->achieved_bytes, acked_bytes, 0xFFFFFFFFu);
  s->received_bytes = AddCapped(s->received_bytes, acked_bytes, 0xFFFFFFFFu);
  // The ignore window ends once the ACKs pass snd_nxt of the last adapt.
  if ((s->flags & kIgnoring) != 0 && !detail::SeqBefore(ack_seq, s->ignore_seq))
    s->flags = static_cast<uint8_t>(s->flags & ~kIgnoring);
  const bool sample = rtt_ns != 0;
  // delay < 2^32; every use below compares it or clamps it first.
  const uint32_t delay = rtt_ns > cfg.base_rtt_ns ? rtt_ns - cfg.base_rtt_ns : 0u;
  if (sample) {
    // avg += g (delay - avg), the step rounded toward zero (unsigned: no
    // signed 64-bit division on 32-bit cores): |delay - avg| < 2^32, x g <= 2^10 < 2^42.
    const uint32_t avg = s->avg_delay_ns;
    if (delay >= avg) {
      s->avg_delay_ns = avg + static_cast<uint32_t>((uint64_t{delay - avg} * cfg.ewma_x1024) >> 10);
    } else {
      s->avg_delay_ns = avg - static_cast<uint32_t>((uint64_t{avg - delay} * cfg.ewma_x1024) >> 10);
    }
  }
  if (detail::QuickAdapt(cfg, s, false, ecn, sample ? delay : 0u, snd_nxt, now_ns))
    return detail::Result(cfg, *s, w_before);

  Action change = Action::None();
  if (sample) {
    const uint32_t acked = MinU32(acked_bytes, kMaxAckedBytes);
    if (!ecn && delay < cfg.target_ns) {
      // (acked kp) >> 16 <= 2^20 * 2^32.1 / 2^16 = 2^36.1; x (target - delay) < 2^20: < 2^56.1.
      detail::AddInc(s, ((acked * cfg.kp_q16) >> 16) * (cfg.target_ns - delay));
    } else if (!ecn) {
      detail::AddInc(s, (acked * cfg.fi_q8) >> 8);  // 2^20 * 2^37.5 = 2^57.5
    } else if (delay >= cfg.target_ns) {
      const uint32_t avg = s->avg_delay_ns;
      if (avg > cfg.target_ns &&
          ((s->flags & kDecSeen) == 0 || ElapsedNs(now_ns, s->last_dec_ns) > cfg.base_rtt_ns)) {
        // gamma (avg - target) / avg in 1/1024: (avg - target) < 2^32, x 2^10 < 2^42.
        const uint32_t cut = static_cast<uint32_t>(uint64_t{cfg.gamma_x1024} * (avg - cfg.target_ns) / avg);
        const uint32_t keep = MaxU32(kOneX1024 - MinU32(cut, kOneX1024), cfg.md_floor_x1024);
        // W x keep: 2^30 * 2^10.
        const uint32_t w = static_cast<uint32_t>(uint64_t{s->w_bytes} * keep / kOneX1024);
        s->w_bytes = MaxU32(w, cfg.w_min);
        s->last_dec_ns = now_ns;
        s->flags = static_cast<uint8_t>(s->flags | kDecSeen);
      }
    } else {
      change.flags = kActChangeEv;  // marked at low delay: the path, not the load
      change.ev = ev;
    }
  }
  s->w_bytes = detail::Clamp(cfg, s->w_bytes);

  // Batching (htsim fulfill_adjustment): more than adjust_bytes ACKed, or a
  // base RTT since the period started.
  if ((s->flags & kAdjustArmed) == 0) {
    s->last_adjust_ns = now_ns;
    s->flags = static_cast<uint8_t>(s->flags | kAdjustArmed);
  }
  const uint32_t since = ElapsedNs(now_ns, s->last_adjust_ns);
  if (s->received_bytes > cfg.adjust_bytes || since > cfg.base_rtt_ns) {
    uint64_t w = s->w_bytes + s->inc / s->w_bytes;  // w_bytes >= w_min >= 1; < 2^62 + 2^30
    if (since >= cfg.base_rtt_ns) {
      w += cfg.eta_bytes;
      s->last_adjust_ns = now_ns;
    }
    s->w_bytes = detail::Clamp(cfg, w);
    s->inc = 0;
    s->received_bytes = 0;
  }
  Action a = detail::Result(cfg, *s, w_before);
  a.flags = static_cast<uint8_t>(a.flags | change.flags);
  a.ev = change.ev;
  return a;
}

inline Action OnNack(const Config& cfg, State* s, uint32_t nacked_bytes, uint32_t snd_nxt, TimeNs now_ns) {
  const uint32_t w_before = s->w_bytes;
  s->flags = static_cast<uint8_t>(s->flags | kQaTrigger);
  if (!detail::QuickAdapt(cfg, s, true, true, 0u, snd_nxt, now_ns)) {
    s->w_bytes = detail::Clamp(cfg, s->w_bytes > nacked_bytes ? s->w_bytes - nacked_bytes : 0u);
  }
  return detail::Result(cfg, *s, w_before);
}

}  // namespace nscc
}  // namespace nicc

#endif  // NICC_NSCC_H_
