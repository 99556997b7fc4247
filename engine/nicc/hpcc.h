// nicc/hpcc.h — HPCC sender: per-ACK window and pacing rate from INT
// (full-stack variant) or from one PINT utilisation code (hpcc-pint),
// fixed point, caller-owned per-flow state of 64 bytes.
//
// Algorithm: Li et al., "HPCC: High Precision Congestion Control",
// SIGCOMM 2019 (Algorithm 1). docs/hpcc.md states every rule below as an
// equation, with the fixed-point formats and their overflow bounds.
//
//   nicc::hpcc::Config cfg;
//   if (!nicc::hpcc::Compile(nicc::hpcc::Params::HpccPaper(), &cfg).ok()) ...;
//   nicc::hpcc::State flow;                     // 64 bytes, yours to keep
//   nicc::hpcc::Init(cfg, &flow, first_psn);
//   nicc::IntStack st;                          // from nicc::DecodeIntStack()
//   nicc::Action a = nicc::hpcc::OnAck(cfg, &flow, ack_seq, snd_nxt, st, now_ns);
//   if (a.Has(nicc::kActSetWindow)) limit_inflight(a.window_bytes);
//   if (a.Has(nicc::kActSetRate)) pace(a.rate_kbps);
//
// Per ACK (i over the hops of the INT stack, "old" = that hop's record on
// the previous ACK of the flow):
//   d_i   = ts_i - old.ts_i                    (24-bit wrap, ns; > 671 us: expired)
//   tx_i  = (txBytes_i - old.txBytes_i) / d_i  (20-bit wrap)
//   u_i   = min(qlen_i, old.qlen_i) / (B_i T) + tx_i / B_i
//   u, d  = u_i, d_i of the hop with the largest u_i (ties: the later hop)
//   U     = U (1 - tau/T) + u tau/T,  tau = min(d, T)
//   if U >= eta or stage >= maxStage:  W = Wc / (U / eta) + W_AI   (stage -> 0)
//   else                               W = Wc + W_AI               (stage -> stage+1)
//   W     = clamp(W, min window, B_line T);  rate = W / T
// The ACK commits W as the new reference window Wc (and the stage) only when
// ack_seq is past the sequence number sent at the previous commit (one full
// update per RTT); every other ACK is a fast reaction computed from Wc.
//
// Units: Params use ns, Mb/s, bytes and parts per million; Config and State
// use windows in 1/16 bytes (*_q4), U in Q20 (1.0 = 1 << 20, saturating at
// kUCapQ20 = 64.0), rates in kb/s (see common.h). Sequence numbers are 32-bit
// and wrap (bytes, or a 24-bit PSN shifted left by 8).
#ifndef NICC_HPCC_H_
#define NICC_HPCC_H_

#include "nicc/common.h"
#include "nicc/int_codec.h"
#include "nicc/params.h"

namespace nicc {
namespace hpcc {

// ---------------------------------------------------------------------------
// Parameters.
// ---------------------------------------------------------------------------

constexpr uint32_t kPpmOne = 1000000u;
// Base RTT range. Below 1 us the per-rate constants lose their 32-bit room
// (kq); above 1 ms the BDP at 1.6 Tb/s in 1/16 bytes would pass 2^32. Both
// cover every data-centre fabric HPCC is meant for.
constexpr uint32_t kMinBaseRttNs = 1000u;
constexpr uint32_t kMaxBaseRttNs = 1000000u;
// History must expire before a hop's 20-bit tx-byte counter can wrap
// unseen: at the fastest rate code (1.6 Tb/s) and the x1 multiplier it wraps
// every 2^20 * 128 B / 200 B/ns = 671 us, and a hop's rate code may say
// 1.6 Tb/s whatever the NIC's own speed, so the bound holds for every
// configuration (larger multipliers only lengthen the wrap). A gap longer
// than one wrap would read as little traffic and under-report U.
constexpr uint32_t kMaxHistoryTimeoutUs = NICC_HPCC_MAX_HISTORY_US;
static_assert(uint64_t{NICC_HPCC_MAX_HISTORY_US} * 1000u * 200u <= (uint64_t{1} << 27),
              "history timeout below one tx-byte wrap at 1.6 Tb/s");
// The same bound on each hop's own clock: the NIC's ACK gap can be shorter
// than the time between a hop's two time stamps (queueing along the path,
// a hop whose record was kept because it did not advance), and it is the
// hop's interval that its counter covers. A longer hop delta expires the
// history as a long ACK gap does, whatever history_timeout_us is. Below 2^23
// ns, so the test also rejects a timestamp that went back (d >= 2^23).
constexpr uint32_t kMaxHopDeltaNs = kMaxHistoryTimeoutUs * 1000u;
static_assert(kMaxHopDeltaNs < (1u << (kIntTsBits - 1)), "'went back' is past the bound");
constexpr uint32_t kMaxStageLimit = 255;                       // stage is a uint8_t

// Profiles, named once (param_tables.h): kPaper = "hpcc-paper",
// kLater = "hpcc-later".
enum Profile : uint8_t { NICC_HPCC_PROFILES(NICC_PROFILE_ENUM_) kProfileCount };

// One uint32_t per row of NICC_HPCC_PARAMS (param_tables.h), in its order.
struct Params {
  NICC_PARAM_MEMBERS(NICC_HPCC_PARAMS)

  static constexpr Params Of(Profile profile);

  // The published simulation settings (SIGCOMM'19, section 5): 100 Gb/s
  // hosts, T = 13 us, eta = 95%, maxStage = 5, W_AI = 80 B. The floor is the
  // authors' simulator's 100 Mb/s minimum rate times T (162.5 B, rounded
  // up). History expires after 256 us of ACK silence: well inside the 671 us
  // it takes a 1.6 Tb/s link to wrap the 20-bit byte counter (x1).
  static constexpr Params HpccPaper() { return Of(kPaper); }

  // The authors' later setting: the same with maxStage = 0, so every update
  // is multiplicative (W = Wc / (U/eta) + W_AI).
  static constexpr Params HpccLater() { return Of(kLater); }

  // Checks every field; the first bad one is named in the result.
  constexpr Status Validate() const;
};

using NiccRowParams_ = Params;
constexpr ParamDesc<Params> kParamRows[] = {NICC_PARAM_ROWS(NICC_HPCC_PARAMS)};
constexpr ProfileDesc kProfiles[] = {NICC_HPCC_PROFILES(NICC_PROFILE_ROW_)};
constexpr ParamTable<Params> kParamTable = {"hpcc", "", kParamRows,
                                            sizeof(kParamRows) / sizeof(kParamRows[0]), kProfiles,
                                            kProfileCount};

static_assert(kParamRows[FindParam(kParamTable, "base_rtt_ns")].min == kMinBaseRttNs &&
                  kParamRows[FindParam(kParamTable, "base_rtt_ns")].max == kMaxBaseRttNs &&
                  kParamRows[FindParam(kParamTable, "eta_ppm")].max == kPpmOne &&
                  kParamRows[FindParam(kParamTable, "max_stage")].max == kMaxStageLimit &&
                  kParamRows[FindParam(kParamTable, "history_timeout_us")].max == kMaxHistoryTimeoutUs,
              "the table's ranges are the constants the arithmetic relies on");

constexpr Params Params::Of(Profile profile) {
  Params p{};
  LoadProfile(kParamTable, profile, &p);
  return p;
}

// U saturates here: 64 times a link's capacity in flight is far past any
// useful signal (the window is at its floor long before). Q20.
constexpr uint32_t kUCapQ20 = 64u << 20;
// A hop whose byte counter claims more than this multiple of its link rate
// is not the switch we heard from last time (a re-route to a same-speed
// port): the history is reset.
constexpr uint32_t kTxPlausibleLog2 = 6;  // 64x
constexpr uint32_t kWinFracBits = 4;      // windows are held in 1/16 bytes

// ---------------------------------------------------------------------------
// Config: Params compiled once into the units the hot path uses.
// ---------------------------------------------------------------------------

// Per-rate-code constants of the per-hop arithmetic.
struct HopK {
  uint32_t kq;   // 640 * 2^37 / (B_gbps T): qlen units -> u_q in Q20, after >> 17
  uint32_t ktx;  // 2^36 / B_gbps: tx units -> ns to send them in Q12, after >> 14
};

struct Config {
  uint32_t w_max_q4;          // BDP at line rate, 1/16 B (< 2^32: validated)
  uint32_t w_min_q4;          // floor, 1/16 B
  uint32_t w_ai_q4;           // W_AI, 1/16 B
  uint32_t eta_q20;           // eta, Q20
  uint32_t t_ns;              // T
  uint32_t inv_t_q40;         // 2^40 / T (rounded; <= 2^30.1 for T >= 1 us)
  uint64_t rate_k_q32;        // rate_kbps = W_q4 * rate_k_q32 >> 32 (= W / T); < 2^41
  uint32_t history_ns;        // history timeout
  HopK k[kIntRateCodeCount];  // per rate code (index 0 unused)
  uint8_t max_stage;
  uint8_t reserved[3];
};

// Validates `p` and fills `*out`. On error `*out` is left untouched.
inline Status Compile(const Params& p, Config* out);

// ---------------------------------------------------------------------------
// Per-flow state.
// ---------------------------------------------------------------------------

// hop_count value of a flow with no INT history (new flow or after a reset).
constexpr uint8_t kNoHistory = 0xFF;

// The per-ACK scalars first, the INT history after them: an ACK with few
// hops then touches the slot's first bytes only (docs/porting.md, "Many
// flows").
struct State {
  uint32_t wc_q4;                  // reference window Wc, 1/16 B
  uint32_t w_q4;                   // window of the last action, 1/16 B
  uint32_t u_q20;                  // smoothed utilisation U, Q20, <= kUCapQ20
  uint32_t last_update_seq;        // snd_nxt at the last commit (full update)
  TimeNs last_ack_ns;              // NIC time of the last ACK with INT
  uint8_t stage;                   // incStage, 0..max_stage
  uint8_t hop_count;               // hops in hop_word[]; kNoHistory if none
  uint8_t mult_log2;               // INT multiplier of the history
  uint8_t reserved;
  uint64_t hop_word[kIntMaxHops];  // each hop's last record (IntHop::word)
};
static_assert(sizeof(State) <= 64, "HPCC per-flow budget: 64 bytes with 5 hops");

// A new flow: window and rate at the line-rate BDP, U = 0, no history;
// the first ACK past `start_seq` makes the first full update.
inline void Init(const Config& cfg, State* s, uint32_t start_seq);

// An ACK carrying an INT stack arrived at `now_ns`. ack_seq: the sequence
// acknowledged; snd_nxt: the next sequence the sender will send (kept as the
// mark of this update if it is a full one). Returns kActSetWindow|kActSetRate,
// or nothing when the ACK gave no measurement: first ACK, a path change
// (hop count, multiplier or a hop's rate code differs, a hop's timestamp
// went backwards or its byte counter ran implausibly fast), history older
// than history_timeout at the NIC or than kMaxHopDeltaNs at a hop, or no
// hop's timestamp advanced. A path change or expiry resets the history to
// this ACK's records.
inline Action OnAck(const Config& cfg, State* s, uint32_t ack_seq, uint32_t snd_nxt,
                    const IntStack& int_stack, TimeNs now_ns);

// hpcc-pint: an ACK carrying a PINT utilisation code (int_codec.h). U is the
// decoded value (smoothed by the switches, so not again here), capped at
// kUCapQ20; the window law is the same as OnAck's. ACKs without a code are
// not passed to the engine.
inline Action OnPintAck(const Config& cfg, State* s, uint32_t ack_seq, uint32_t snd_nxt,
                        uint8_t u_code, TimeNs now_ns);

inline uint32_t WindowBytes(const State& s);  // rounded to the nearest byte
inline uint32_t RateKbps(const Config& cfg, const State& s);

// ===========================================================================
// Implementation.
// ===========================================================================

constexpr Status Params::Validate() const {
  // Each field's own range (kParamTable), then the window rules: W_AI and
  // the floor fit the line-rate BDP.
  const Status st = CheckRanges(kParamTable, *this);
  if (!st.ok()) return st;
  // BDP <= 1.6e6 Mb/s * 1e6 ns / 8000 = 2e8 B.
  const uint64_t bdp = static_cast<uint64_t>(line_rate_mbps) * base_rtt_ns / 8000u;
  if (w_ai_bytes > bdp) return Status::Error(StatusCode::kInconsistent, "w_ai_bytes");
  if (min_window_bytes > bdp) return Status::Error(StatusCode::kInconsistent, "min_window_bytes");
  return Status::Ok();
}

inline Status Compile(const Params& p, Config* out) {
  const Status st = p.Validate();
  if (!st.ok()) return st;
  Config c{};
  const uint64_t t = p.base_rtt_ns;
  const uint64_t bdp = static_cast<uint64_t>(p.line_rate_mbps) * t / 8000u;  // <= 2e8
  c.w_max_q4 = static_cast<uint32_t>(bdp << kWinFracBits);                   // <= 3.2e9 < 2^32
  c.w_min_q4 = p.min_window_bytes << kWinFracBits;                           // <= BDP, validated
  c.w_ai_q4 = p.w_ai_bytes << kWinFracBits;                                  // <= BDP, validated
  // eta_ppm * 2^20 <= 2^40.
  c.eta_q20 =
      static_cast<uint32_t>(((static_cast<uint64_t>(p.eta_ppm) << 20) + kPpmOne / 2) / kPpmOne);
  c.t_ns = p.base_rtt_ns;
  c.inv_t_q40 = static_cast<uint32_t>(((uint64_t{1} << 40) + t / 2) / t);  // <= 2^30.1
  // W_q4 / 16 bytes per T ns = W_q4 * 5e5 / T kb/s. 5e5 * 2^32 / 1000 < 2^41.
  c.rate_k_q32 = ((uint64_t{500000} << 32) + t / 2) / t;
  c.history_ns = p.history_timeout_us * 1000u;  // < 2^23
  for (uint32_t code = 1; code < kIntRateCodeCount; ++code) {
    const uint64_t gbps = IntRateGbps(code);
    // 640 * 2^37 / (25 * 1000) = 3.5e9 < 2^32 at the smallest B and T.
    const uint64_t bt = gbps * t;
    c.k[code].kq = static_cast<uint32_t>(((uint64_t{640} << 37) + bt / 2) / bt);
    // 2^36 / 25 = 2.7e9 < 2^32.
    c.k[code].ktx = static_cast<uint32_t>(((uint64_t{1} << 36) + gbps / 2) / gbps);
  }
  c.max_stage = static_cast<uint8_t>(p.max_stage);
  *out = c;
  return Status::Ok();
}

inline void Init(const Config& cfg, State* s, uint32_t start_seq) {
  *s = State{};
  s->wc_q4 = cfg.w_max_q4;
  s->w_q4 = cfg.w_max_q4;
  s->last_update_seq = start_seq;
  s->hop_count = kNoHistory;
}

inline uint32_t WindowBytes(const State& s) {
  return (s.w_q4 >> kWinFracBits) + ((s.w_q4 >> (kWinFracBits - 1)) & 1u);
}

inline uint32_t RateKbps(const Config& cfg, const State& s) {
  // W_q4 * rate_k <= (16 * B_kbps * T / 8e6) * (5e5 * 2^32 / T) = B_kbps * 2^32
  // <= 2^62.6 (W <= BDP); the result, rounded, is the line rate at most.
  return static_cast<uint32_t>((s.w_q4 * cfg.rate_k_q32 + (uint64_t{1} << 31)) >> 32);
}

namespace detail {

// Whether sequence a is past b (wrap-safe, within 2^31).
constexpr bool SeqAfter(uint32_t a, uint32_t b) {
  return static_cast<int32_t>(a - b) > 0;  // two's-complement reinterpretation
}

// The window law of Algorithm 1 (ComputeWind) with the current U, the
// commit of a full update, and the action.
// S: any state with wc_q4, w_q4, u_q20, last_update_seq and stage (State,
// hpcc_spray::State).
template <class S>
inline Action ApplyWindowLaw(const Config& cfg, S* s, uint32_t ack_seq, uint32_t snd_nxt) {
  const uint32_t u = s->u_q20;
  const bool full = SeqAfter(ack_seq, s->last_update_seq);
  const bool mult = u >= cfg.eta_q20 || s->stage >= cfg.max_stage;
  uint64_t w;
  if (mult) {
    // Wc / (U/eta) = Wc * eta / U: Wc_q4 * eta_q20 < 2^32 * 2^20 = 2^52.
    // U = 0 (only with stage >= maxStage) means "no load": the ceiling.
    w = u != 0 ? static_cast<uint64_t>(s->wc_q4) * cfg.eta_q20 / u : cfg.w_max_q4;
  } else {
    w = s->wc_q4;
  }
  w += cfg.w_ai_q4;  // < 2^52 + 2^32
  const uint32_t win = w >= cfg.w_max_q4   ? cfg.w_max_q4
                       : w <= cfg.w_min_q4 ? cfg.w_min_q4
                                           : static_cast<uint32_t>(w);
  if (full) {
    s->wc_q4 = win;
    s->stage = mult ? 0 : static_cast<uint8_t>(s->stage + 1u);  // < max_stage <= 255
    s->last_update_seq = snd_nxt;
  }
  s->w_q4 = win;
  Action a = Action::None();
  a.flags = kActSetWindow | kActSetRate;
  // WindowBytes(), rounded half up: win <= w_max_q4 <= 3.2e9, so + 8 fits.
  a.window_bytes = (win + (1u << (kWinFracBits - 1))) >> kWinFracBits;
  // As RateKbps(): win * rate_k <= B_kbps * 2^32.
  a.rate_kbps = static_cast<uint32_t>((win * cfg.rate_k_q32 + (uint64_t{1} << 31)) >> 32);
  return a;
}

// Drops the history for this ACK's records (path change, expiry, first ACK).
inline Action ResetHistory(State* s, const IntStack& st, uint32_t n, TimeNs now_ns) {
  for (uint32_t i = 0; i < kIntMaxHops && i < n; ++i) s->hop_word[i] = st.hops[i].word;
  s->hop_count = static_cast<uint8_t>(n);
  s->mult_log2 = st.mult_log2;
  s->last_ack_ns = now_ns;
  return Action::None();
}

}  // namespace detail

namespace detail {

// What UpdateHistory() made of an ACK.
enum class Sample : uint8_t {
  kPathChange,  // a hop's rate code differs, its timestamp went back or passed
                // kMaxHopDeltaNs (expired), or its bytes ran too fast: reset
  kNone,        // no hop's timestamp advanced
  kTaken,       // U updated
};

// The per-hop arithmetic and the EWMA of U for one history whose hop count
// and multiplier match the stack's (n <= kIntMaxHops): hop_word[0..n) are
// its records, *u_q20 its U. Updates the records of the hops that advanced
// and, on kTaken, *u_q20. On kPathChange the records are partly updated:
// the caller resets them.
// Always inlined: called once per variant's OnAck, and as an outlined call
// it costs single-path HPCC ~14% more instructions per ACK (callgrind).
NICC_ALWAYS_INLINE inline Sample UpdateHistory(const Config& cfg, uint64_t* hop_word, uint32_t* u_q20,
                                               const IntStack& int_stack) {
  const uint32_t n = int_stack.hop_count;
  const uint32_t m = int_stack.mult_log2 & kIntMaxMultLog2;
  // Largest u_i, carried as x = u * d (Q12 ns) with its d, so that the hops
  // are compared by cross-multiplication instead of n divisions. Inside the
  // loop x is kept divided by the multiplier 2^m (common to all hops, so the
  // comparisons do not change); the cap u <= 64 becomes x <= d * cap_k.
  // x * 2^m <= 64 d 2^12 and d < 2^23, so x * d' < 2^18 * 2^46 = 2^64.
  // Ties go to the later hop (>=), which also lets the first sample in.
  const uint32_t cap_k = 1u << (12u + kTxPlausibleLog2 - m);
  uint64_t best_x = 0;
  uint32_t best_d = 0;
  for (uint32_t i = 0; i < n; ++i) {  // n <= kIntMaxHops: the callers' check
    const uint64_t nw = int_stack.hops[i].word;
    const uint64_t ow = hop_word[i];
    // Rate code and timestamp as one 27-bit value: its difference's low 24
    // bits are d, the bits above differ from zero iff the rate codes do, and
    // its top bits index the per-rate constants.
    const uint32_t nrt = static_cast<uint32_t>(nw >> kIntTsShift);
    const uint32_t ort = static_cast<uint32_t>(ow >> kIntTsShift);
    const uint32_t d = (nrt - ort) & kIntTsMask;
    // A different rate code (another path), or a delta past the wrap bound
    // (expired; a timestamp that went back is d >= 2^23, past it as well).
    if (((nrt ^ ort) >> kIntTsBits) != 0 || d > kMaxHopDeltaNs) return Sample::kPathChange;
    if (d == 0) continue;  // no time passed at this hop: keep the old record
    const HopK& k = cfg.k[nrt >> kIntTsBits];
    const uint32_t qmin =
        MinU32(static_cast<uint32_t>(nw) & kIntQlenMask, static_cast<uint32_t>(ow) & kIntQlenMask);
    const uint32_t dtx =
        static_cast<uint32_t>((nw >> kIntTxShift) - (ow >> kIntTxShift)) & kIntTxMask;
    hop_word[i] = nw;
    // ns to send dtx units at B, Q12, / 2^m: dtx * ktx < 2^20 * 2^32 = 2^52.
    const uint64_t x_tx = (static_cast<uint64_t>(dtx) * k.ktx) >> 14;
    const uint64_t x_cap = static_cast<uint64_t>(d) * cap_k;  // < 2^23 * 2^18
    if (x_tx > x_cap) return Sample::kPathChange;  // faster than 64x its link: another switch
    // Queue term q / (B T) in Q20, / 2^m: qmin * kq < 2^17 * 2^32 = 2^49, so
    // uq < 2^32 and uq * d < 2^55; x_tx + that < 2^56 before the cap.
    const uint64_t uq = (static_cast<uint64_t>(qmin) * k.kq) >> 17;
    uint64_t x = x_tx + ((uq * d) >> 8);  // Q20 * ns -> Q12 ns
    if (x > x_cap) x = x_cap;
    if (x * best_d >= best_x * d) {
      best_x = x;
      best_d = d;
    }
  }
  if (best_d == 0) return Sample::kNone;  // no hop's clock advanced
  best_x *= 1u << m;  // the multiplier (a multiply: no 64-bit shift call on rv32); <= d 2^18

  uint32_t u = *u_q20;
  if (best_d < cfg.t_ns) {
    // tau = d < T: U' = U (1 - d/T) + u d/T = U + (x - U d) / T, with x = u d.
    // U d: 2^26 * 2^20 = 2^46, in Q12 ns after >> 8: <= 2^18 d, as x is.
    // Each of them times inv_t: <= 2^18 d * 2^40 / T < 2^58 (d < T).
    const uint64_t ud = (static_cast<uint64_t>(u) * best_d) >> 8;
    if (best_x >= ud) {
      u += static_cast<uint32_t>(((best_x - ud) * cfg.inv_t_q40 + (uint64_t{1} << 31)) >> 32);
    } else {
      const uint32_t dec =
          static_cast<uint32_t>(((ud - best_x) * cfg.inv_t_q40 + (uint64_t{1} << 31)) >> 32);
      u -= MinU32(dec, u);  // dec <= U d/T < U but for rounding
    }
  } else {
    // tau = T: U = u = x / d. x << 8 < 2^49; the quotient <= 2^26.
    u = static_cast<uint32_t>(((best_x << 8) + best_d / 2) / best_d);
  }
  *u_q20 = MinU32(u, kUCapQ20);
  return Sample::kTaken;
}

}  // namespace detail

inline Action OnAck(const Config& cfg, State* s, uint32_t ack_seq, uint32_t snd_nxt,
                    const IntStack& int_stack, TimeNs now_ns) {
  const uint32_t n = int_stack.hop_count;
  NICC_ASSERT(n <= kIntMaxHops);
  if (n > kIntMaxHops) return Action::None();  // not from DecodeIntStack()
  if (n != s->hop_count || int_stack.mult_log2 != s->mult_log2 ||
      TimeDiffNs(now_ns, s->last_ack_ns) > static_cast<int32_t>(cfg.history_ns))  // < 2^23: as ElapsedNs()
    return detail::ResetHistory(s, int_stack, n, now_ns);
  s->last_ack_ns = now_ns;
  const detail::Sample r = detail::UpdateHistory(cfg, s->hop_word, &s->u_q20, int_stack);
  if (r == detail::Sample::kPathChange) return detail::ResetHistory(s, int_stack, n, now_ns);
  if (r == detail::Sample::kNone) return Action::None();
  return detail::ApplyWindowLaw(cfg, s, ack_seq, snd_nxt);
}

inline Action OnPintAck(const Config& cfg, State* s, uint32_t ack_seq, uint32_t snd_nxt,
                        uint8_t u_code, TimeNs now_ns) {
  (void)now_ns;
  s->u_q20 = MinU32(PintDecodeQ20(u_code), kUCapQ20);
  return detail::ApplyWindowLaw(cfg, s, ack_seq, snd_nxt);
}

}  // namespace hpcc
}  // namespace nicc

#endif  // NICC_HPCC_H_
