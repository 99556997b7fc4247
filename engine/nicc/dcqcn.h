// nicc/dcqcn.h — DCQCN reaction point (sender) and notification point
// (receiver), fixed point, caller-owned per-flow state.
//
// Algorithm: Zhu et al., "Congestion Control for Large-Scale RDMA
// Deployments", SIGCOMM 2015, with the parameter names, units and options of
// the mlx5 (ConnectX) implementation. docs/dcqcn.md states every rule below
// as an equation and lists where this engine picks among published variants.
// Params::variant selects the reading: kVariantMlx5 (below) or
// kVariantSigcomm15 (the paper's Eq. 1/2 alpha at every CNP, alpha kept
// across a release); rp_cut_on_grid and rp_hai_without_bc give the HPCC
// simulator's cut grid and timer-only hyper increase.
//
//   nicc::dcqcn::Config cfg;
//   if (!nicc::dcqcn::Compile(nicc::dcqcn::Params::Mlx5(100000), &cfg).ok())
//     ...;
//   nicc::dcqcn::RpState rp;                  // 32 bytes, yours to keep
//   nicc::dcqcn::RpInit(cfg, &rp);
//   nicc::Action a = nicc::dcqcn::RpOnCnp(cfg, &rp, now_ns);
//   if (a.Has(nicc::kActSetRate)) pace(a.rate_kbps);
//   if (a.Has(nicc::kActArmTimer)) arm(a.timer_ns);  // then RpOnTimer()
//
// Units: Params use mlx5's (us, Mb/s, bytes, /1024, %); Config and state use
// ns, kb/s and Q20 fractions (see common.h). Params and Config are declared
// in dcqcn_config.h; Compile is defined here.
//
// Life of a flow at the reaction point. A flow with no CNP sends at the
// maximum rate and costs nothing: every event but a CNP returns at once.
// The first CNP makes it "active" (rate-limited): it gets alpha, a target
// rate, and an increase timer. While active, the timer and the byte counter
// raise the rate through fast recovery, additive and hyper increase. When the
// target is back at the maximum and the current rate is within 1 Mb/s of it,
// the flow is released: timer cancelled, rate set to the maximum, state
// idle again — the next CNP is a first CNP (as mlx5 frees its rate limiter).
#ifndef NICC_DCQCN_H_
#define NICC_DCQCN_H_

#include "nicc/common.h"
#include "nicc/dcqcn_config.h"
#include "nicc/fixed_exp2.h"
#include "nicc/params.h"

namespace nicc {
namespace dcqcn {

// A path kept out of its caller (see RpOnCnp): GCC and Clang.
#define NICC_DCQCN_NOINLINE_ __attribute__((noinline))

// ---------------------------------------------------------------------------
// Reaction point.
// ---------------------------------------------------------------------------

enum RpFlag : uint8_t {
  kRpActive = 1u << 0,        // rate-limited; idle flows have no other state
  kRpCnpInPeriod = 1u << 1,   // a CNP arrived in the current alpha period
  kRpTimerIncSinceCut = 1u << 2,  // a timer-driven increase since the last cut
  kRpCutOpen = 1u << 3,       // the monitor period since the last cut is over
  kRpSeen = 1u << 4,          // sigcomm15: had a CNP; alpha and alpha_ts stay valid when idle
  kRpCutDue = 1u << 5,        // rp_cut_on_grid: a CNP came since the last check
};

// The fields a tx report reads and writes come first (flags, bc_stage,
// bc_bytes, rc_kbps, rt_kbps: bytes 0-15), so the per-packet path of a slot
// touches one aligned 16-byte block (docs/porting.md, "Many flows").
struct RpState {
  uint8_t flags;         // RpFlag bits
  uint8_t bc_stage;      // byte-counter expiries since the last cut (saturates)
  uint8_t t_stage;       // timer expiries since the last cut (saturates at 255)
  uint8_t reserved;
  uint32_t bc_bytes;     // bytes sent since the last byte-counter expiry
  uint32_t rc_kbps;      // current rate (valid while active)
  uint32_t rt_kbps;      // target rate (valid while active)
  uint32_t alpha_q20;    // congestion estimate, 0..1.0
  TimeNs alpha_ts_ns;    // start of the current alpha period
  TimeNs last_cut_ns;    // time of the last rate cut
  TimeNs timer_due_ns;   // when the increase timer is due
};
static_assert(sizeof(RpState) <= 32, "DCQCN reaction point budget: 32 bytes");

// Puts a flow in the idle state (sending at cfg.max_kbps, no timer).
inline void RpInit(const Config& cfg, RpState* s);

// The rate the flow should be paced at now.
inline uint32_t RpRateKbps(const Config& cfg, const RpState& s);

// A CNP for this flow arrived at `now_ns`.
inline Action RpOnCnp(const Config& cfg, RpState* s, TimeNs now_ns);

// The increase timer armed by an earlier action fired at `now_ns`. Stale or
// early deliveries are recognised and answered with a re-arm or nothing.
inline Action RpOnTimer(const Config& cfg, RpState* s, TimeNs now_ns);

// `bytes` of this flow left the NIC at `now_ns` (drives the byte counter).
inline Action RpOnTxBytes(const Config& cfg, RpState* s, uint32_t bytes,
                   TimeNs now_ns);

// ---------------------------------------------------------------------------
// Notification point.
// ---------------------------------------------------------------------------

struct NpState {
  TimeNs last_cnp_ns;  // when the last CNP for this flow was sent
  uint8_t sent;        // 1 once a CNP has been sent
  uint8_t reserved[3];
};
static_assert(sizeof(NpState) <= 8, "DCQCN notification point budget: 8 bytes");

inline void NpInit(NpState* s);

// A data packet of this flow arrived at `now_ns`, CE-marked or not. The
// action carries kActSendCnp when a CNP must be sent: at most one per
// cfg.np_interval_ns per flow.
inline Action NpOnPacket(const Config& cfg, NpState* s, bool ce, TimeNs now_ns);

// ===========================================================================
// Implementation.
// ===========================================================================

constexpr Status Params::Validate() const {
  // Each field's own range (kParamTable), then the rules between fields.
  const Status st = CheckRanges(kParamTable, *this);
  if (!st.ok()) return st;
  if (rp_ai_rate > line_rate_mbps)
    return Status::Error(StatusCode::kOutOfRange, "rp_ai_rate");
  if (rp_hai_rate > line_rate_mbps)
    return Status::Error(StatusCode::kOutOfRange, "rp_hai_rate");
  if (rp_hai_rate < rp_ai_rate)
    return Status::Error(StatusCode::kInconsistent, "rp_hai_rate");
  if (rp_max_rate > line_rate_mbps)
    return Status::Error(StatusCode::kOutOfRange, "rp_max_rate");
  const uint32_t max_mbps = rp_max_rate != 0 ? rp_max_rate : line_rate_mbps;
  if (rp_min_rate > max_mbps)
    return Status::Error(StatusCode::kInconsistent, "rp_min_rate");
  if (rp_rate_to_set_on_first_cnp > max_mbps)
    return Status::Error(StatusCode::kOutOfRange, "rp_rate_to_set_on_first_cnp");
  if (rp_rate_to_set_on_first_cnp != 0 && rp_rate_to_set_on_first_cnp < rp_min_rate)
    return Status::Error(StatusCode::kInconsistent, "rp_rate_to_set_on_first_cnp");
  if (rp_cut_on_grid != 0 && rp_rate_reduce_monitor_period == 0)
    return Status::Error(StatusCode::kInconsistent, "rp_cut_on_grid");  // a grid needs a period
  if (rp_cut_on_grid != 0 && variant != kVariantMlx5)
    return Status::Error(StatusCode::kUnsupported, "rp_cut_on_grid");
  // The grid's anchor is < P old after a timer event when T >= 2^30 ns, and
  // < max(P, 2^30 ns) otherwise (GridTimer); the next event comes within T. So
  // P + T <= 2^31 ns keeps it measurable; beyond, a CNP late in a timer period
  // reads it as 0 ns old and arms its check in the past, again at every timer.
  if (rp_cut_on_grid != 0 && rp_rate_reduce_monitor_period + rp_time_reset > kMaxPeriodUs)
    return Status::Error(StatusCode::kInconsistent, "rp_cut_on_grid");  // each < 2^22: no wrap
  return Status::Ok();
}

namespace detail {

// alpha * keep^n = alpha * 2^(-n L), L = -log2(keep) in Q28 (Config), in
// constant time: x = n L < 2^48 (n < 2^16, L < 2^32); 2^(-frac(x)) from
// fixed::kExp2NegQ30 interpolated linearly, then a shift by the whole part
// (above 20: 0 for any alpha <= 2^20). n = 0 is exact (2^30 / 2^30).
inline uint32_t KeepPow(const Config& cfg, uint32_t alpha, uint32_t n) {
  if (n >= cfg.alpha_zero_periods) return 0;  // alpha_zero_periods <= 2^16
  const uint64_t x = static_cast<uint64_t>(n) * cfg.alpha_log_q28;
  const uint32_t whole = static_cast<uint32_t>(x >> 28);
  if (whole > 20u) return 0;
  const uint32_t frac = static_cast<uint32_t>(x) & ((1u << 28) - 1u);
  const uint32_t i = frac >> 22;                 // 0..63: the table step
  const uint32_t w = frac & ((1u << 22) - 1u);   // position inside it, Q22
  const uint32_t hi = fixed::kExp2NegQ30[i];
  // hi - lo < 2^24 (widest step i = 0: 11566333), so the product < 2^46.
  const uint32_t f = hi - static_cast<uint32_t>((static_cast<uint64_t>(hi - fixed::kExp2NegQ30[i + 1]) * w) >> 22);
  // alpha <= 2^20, f <= 2^30: the product is below 2^50.
  return static_cast<uint32_t>((static_cast<uint64_t>(alpha) * f) >> 30) >> whole;
}

// Closes the alpha periods that ended before `now`: the first of them adds g
// when it saw a CNP; every period decays alpha by the keep factor. The quiet
// periods after the first multiply alpha by keep^(k-1) (KeepPow, constant
// time; skipped for k = 1, the common case).
//   alpha <= 1.0 is kept: keep * alpha + g <= keep + g == 1.0.
inline void AlphaCatchUp(const Config& cfg, RpState* s, TimeNs now) {
  const uint32_t elapsed = ElapsedNs(now, s->alpha_ts_ns);
  if (elapsed < cfg.alpha_period_ns) return;
  // One period (the common case) without the division: a divide is tens
  // of cycles on small in-order cores.
  const uint32_t k = elapsed < cfg.alpha_period2_ns ? 1u : elapsed / cfg.alpha_period_ns;
  s->alpha_ts_ns += k * cfg.alpha_period_ns;  // k * P <= elapsed < 2^31
  uint32_t alpha = MulQ20(s->alpha_q20, cfg.alpha_keep_q20);
  if (s->flags & kRpCnpInPeriod) alpha += cfg.alpha_g_q20;
  s->flags = static_cast<uint8_t>(s->flags & ~kRpCnpInPeriod);
  if (k > 1) alpha = KeepPow(cfg, alpha, k - 1);
  NICC_ASSERT(alpha <= kQ20One);
  s->alpha_q20 = alpha;
}

// sigcomm15, Eq. 2: alpha = (1 - g) * alpha for every whole period K
// without a CNP since alpha_ts (the last CNP, or the last period closed).
inline void AlphaDecay(const Config& cfg, RpState* s, TimeNs now) {
  const uint32_t elapsed = ElapsedNs(now, s->alpha_ts_ns);
  if (elapsed < cfg.alpha_period_ns) return;
  // One period (the common case) without the division: a divide is tens
  // of cycles on small in-order cores.
  const uint32_t k = elapsed < cfg.alpha_period2_ns ? 1u : elapsed / cfg.alpha_period_ns;
  s->alpha_ts_ns += k * cfg.alpha_period_ns;  // k * P <= elapsed < 2^31
  s->alpha_q20 = KeepPow(cfg, s->alpha_q20, k);
}

// The rate cut of a CNP: rc -= rc * alpha / 2^(gd-10) (alpha/2 for gd = 11),
// kept >= rc * min_dec_fac / 100 and >= the floor.
inline Action Cut(const Config& cfg, RpState* s, TimeNs now) {
  // rt = rc when rp_clamp_tgt_rate, or rp_clamp_tgt_rate_ati and a timer
  // increase came since the last cut: one test of the flags against
  // clamp_mask (Compile; kRpActive is always set here).
  const uint32_t rc = s->rc_kbps;
  if (s->flags & cfg.clamp_mask) s->rt_kbps = rc;
  const uint32_t alpha = s->alpha_q20;
  // MulQ20 then a 32-bit shift: no 64-bit shift by a variable (a libgcc
  // call on 32-bit cores). dec <= rc * 1.0 / 2^(gd-10) <= rc.
  const uint32_t dec = MulQ20(rc, alpha) >> cfg.cut_shift;
  NICC_ASSERT(dec <= rc);
  uint32_t next = rc - dec;
  // The min_dec_fac floor binds only when alpha / 2^(gd-10) exceeds
  // (100 - pct) / 100 (floor_free_alpha_q20, Compile): never with the
  // defaults (pct 50, gd 11). Otherwise floor(rc * pct / 100) in 32-bit
  // steps: (rc / 100) * pct <= rc and (rc % 100) * pct <= 9900.
  if (alpha > cfg.floor_free_alpha_q20) {
    const uint32_t keep = (rc / 100u) * cfg.min_dec_pct + (rc % 100u) * cfg.min_dec_pct / 100u;
    next = MaxU32(next, keep);
  }
  next = MaxU32(next, cfg.min_kbps);
  // rc <= rt always (every increase averages towards rt, every cut lowers
  // rc, the floor is below any rc): the cut never passes the target.
  NICC_ASSERT(next <= s->rt_kbps);
  s->rc_kbps = next;
  s->t_stage = 0;
  s->bc_stage = 0;
  s->bc_bytes = 0;
  s->last_cut_ns = now;
  const TimeNs due = now + cfg.time_reset_ns;
  s->timer_due_ns = due;
  s->flags = static_cast<uint8_t>(s->flags & ~(kRpTimerIncSinceCut | kRpCutOpen));
  Action a = Action::None();
  a.flags = kActSetRate | kActArmTimer;
  a.rate_kbps = next;
  a.timer_ns = due;
  return a;
}

// One increase stage, driven by the timer (by_timer) or the byte counter.
// The stage is decided by the expiry counts before this one:
//   max(T, BC) <  F          fast recovery: rc = (rt + rc) / 2
//   min(T, BC) >  F          hyper increase: rt += R_HAI, then average
//   otherwise                additive increase: rt += R_AI, then average
// With the byte counter off, BC stays 0: F fast-recovery stages, then AI.
//   rt + rc + 1 <= 2 * 1.6e9 + 1 < 2^32.
NICC_ALWAYS_INLINE inline Action Increase(const Config& cfg, RpState* s, bool by_timer) {
  const uint32_t t = s->t_stage;
  const uint32_t b = s->bc_stage;
  uint32_t rt = s->rt_kbps;
  if (MaxU32(t, b) >= cfg.threshold) {
    // With the byte counter off and rp_hai_without_bc, T alone decides (b = 0).
    const uint32_t lo = (cfg.hai_without_bc & 2u) ? t : MinU32(t, b);
    const uint32_t step = lo > cfg.threshold ? cfg.hai_kbps : cfg.ai_kbps;
    // rt <= max <= 1.6e9 and step <= line rate <= 1.6e9: no wrap.
    rt = MinU32(rt + step, cfg.max_kbps);
    s->rt_kbps = rt;
  }
  NICC_ASSERT(rt <= cfg.max_kbps && s->rc_kbps <= rt);
  const uint32_t rc = (rt + s->rc_kbps + 1u) >> 1;
  s->rc_kbps = rc;
  uint32_t flags = s->flags;
  if (by_timer) {
    s->t_stage = static_cast<uint8_t>(t + (t < 255u ? 1u : 0u));  // saturates
    flags |= kRpTimerIncSinceCut;
  } else {
    s->bc_stage = static_cast<uint8_t>(b + (b < 255u ? 1u : 0u));
  }
  Action a = Action::None();
  a.rate_kbps = rc;
  a.flags = kActSetRate;
  // Back at the maximum: rt == max and rc within kReleaseMarginKbps of it
  // (release_kbps, Compile), and no cut due (rp_cut_on_grid).
  if (rt == cfg.max_kbps && rc >= cfg.release_kbps && !(flags & kRpCutDue)) {
    // Released: idle until the next CNP (sigcomm15 keeps kRpSeen: alpha
    // and its timestamp stay for that CNP).
    flags &= kRpSeen;
    s->rc_kbps = rt;
    a.rate_kbps = rt;
    a.flags = kActSetRate | kActCancelTimer;
  }
  s->flags = static_cast<uint8_t>(flags);
  return a;
}

}  // namespace detail

inline Status Compile(const Params& p, Config* out) {
  const Status st = p.Validate();
  if (!st.ok()) return st;
  Config& c = *out;  // filled in place: no second copy on a small stack
  const uint32_t max_mbps = p.rp_max_rate != 0 ? p.rp_max_rate : p.line_rate_mbps;
  c.max_kbps = max_mbps * kKbpsPerMbps;  // <= 1.6e9, validated
  c.min_kbps = p.rp_min_rate * kKbpsPerMbps;
  c.release_kbps = c.max_kbps > kReleaseMarginKbps ? c.max_kbps - kReleaseMarginKbps : 0u;
  c.ai_kbps = p.rp_ai_rate * kKbpsPerMbps;
  c.hai_kbps = p.rp_hai_rate * kKbpsPerMbps;
  c.first_cnp_kbps = p.rp_rate_to_set_on_first_cnp * kKbpsPerMbps;
  c.time_reset_ns = p.rp_time_reset * 1000u;  // <= kTimeHorizonNs, validated
  c.byte_reset = p.rp_byte_reset;
  c.alpha_period_ns = p.rp_dce_tcp_rtt * 1000u;
  c.alpha_period2_ns = 2u * c.alpha_period_ns;  // < 2 * 2^31, validated
  c.monitor_ns = p.rp_rate_reduce_monitor_period * 1000u;
  c.np_interval_ns = p.np_min_time_between_cnps * 1000u;
  c.alpha_keep_q20 = p.rp_dce_tcp_g << 10;  // /1024 -> Q20, exact
  c.alpha_g_q20 = kQ20One - c.alpha_keep_q20;
  c.alpha_init_q20 = p.rp_initial_alpha_value << 10;
  // keep^n = 2^(-n L): L = -log2(keep) (KeepPow). keep = 0 zeroes alpha
  // after one quiet period.
  c.alpha_zero_periods = p.rp_dce_tcp_g == 0 ? 1u : kAlphaZeroPeriodsMax;
  c.alpha_log_q28 = p.rp_dce_tcp_g == 0 ? 0u : fixed::NegLog2KeepQ28(p.rp_dce_tcp_g);
  // The floor keeps rc * pct / 100 >= what the cut leaves only when
  // alpha / 2^(20 + gd - 10) > (100 - pct) / 100. Largest alpha for which
  // it cannot bind: floor((100 - pct) * 2^E / 100), E = 20 + gd - 10 <= 30,
  // in 32-bit steps: m * floor(2^E / 100) + floor(m * (2^E % 100) / 100),
  // m = 100 - pct <= 99 (each term below 2^30).
  {
    const uint32_t pow2 = 1u << (p.rp_gd + 10u);  // rp_gd <= 20, validated
    const uint32_t m = 100u - p.rp_min_dec_fac;   // pct 1..100, validated
    c.floor_free_alpha_q20 = m * (pow2 / 100u) + m * (pow2 % 100u) / 100u;
  }
  c.min_dec_pct = static_cast<uint8_t>(p.rp_min_dec_fac);  // 1..100, validated
  c.cut_shift = static_cast<uint8_t>(p.rp_gd - 10u);  // 0..10, validated
  c.threshold = static_cast<uint8_t>(p.rp_threshold);
  c.clamp_mask = p.rp_clamp_tgt_rate != 0       ? 0xFFu
                 : p.rp_clamp_tgt_rate_ati != 0 ? static_cast<uint8_t>(kRpTimerIncSinceCut)
                                                : 0u;
  c.variant = static_cast<uint8_t>(p.variant);  // <= NICC_DCQCN_VARIANT_MAX, validated
  c.hai_without_bc = static_cast<uint8_t>(p.rp_hai_without_bc |  // 0..1, validated
                                          (p.rp_hai_without_bc != 0 && p.rp_byte_reset == 0 ? 2u : 0u));
  c.cut_grid = static_cast<uint8_t>(p.rp_cut_on_grid);
  return Status::Ok();
}

inline void RpInit(const Config& cfg, RpState* s) {
  *s = RpState{};
  s->rc_kbps = cfg.max_kbps;
  s->rt_kbps = cfg.max_kbps;
}

inline uint32_t RpRateKbps(const Config& cfg, const RpState& s) {
  return (s.flags & kRpActive) ? s.rc_kbps : cfg.max_kbps;
}

namespace detail {

// sigcomm15 (Zhu et al., SIGCOMM'15, Eq. 1 and 2): the cut uses alpha as it
// stands, then alpha = (1 - g) * alpha + g at once, and the alpha timer
// (K = rp_dce_tcp_rtt) restarts. A released flow kept alpha: it decays over
// the quiet time (0 once its timestamp is 2^31 ns or more old).
NICC_DCQCN_NOINLINE_ inline Action Sigcomm15Cnp(const Config& cfg, RpState* s, TimeNs now) {
  bool open = true;
  if (!(s->flags & kRpActive)) {
    uint32_t start = cfg.max_kbps;
    if (s->flags & kRpSeen) {
      if (TimeDiffNs(now, s->alpha_ts_ns) < 0) {
        s->alpha_q20 = 0;
      } else {
        AlphaDecay(cfg, s, now);
      }
    } else {
      start = cfg.first_cnp_kbps != 0 ? cfg.first_cnp_kbps : cfg.max_kbps;
      s->alpha_q20 = cfg.alpha_init_q20;
    }
    s->rc_kbps = start;
    s->rt_kbps = start;
    s->flags = kRpActive | kRpSeen;
  } else {
    AlphaDecay(cfg, s, now);
    open = (s->flags & kRpCutOpen) || ElapsedNs(now, s->last_cut_ns) >= cfg.monitor_ns;
  }
  s->alpha_ts_ns = now;
  const Action a = open ? Cut(cfg, s, now) : Action::None();
  // keep * alpha + g <= keep + g == 1.0.
  s->alpha_q20 = MulQ20(s->alpha_q20, cfg.alpha_keep_q20) + cfg.alpha_g_q20;
  NICC_ASSERT(s->alpha_q20 <= kQ20One);
  return a;
}

// rp_cut_on_grid: the checks run every P = monitor_ns from the first CNP;
// last_cut_ns is the latest check at or before the last event (every cut is
// at a check). The flow's one timer serves the next check while a cut is
// due and the increase timer otherwise, whichever comes first.
inline TimeNs Deadline(const Config& cfg, const RpState& s) {
  if (!(s.flags & kRpCutDue)) return s.timer_due_ns;
  const TimeNs check = s.last_cut_ns + cfg.monitor_ns;
  return TimeDiffNs(check, s.timer_due_ns) < 0 ? check : s.timer_due_ns;
}

inline Action ArmAt(TimeNs t) {
  Action a = Action::None();
  a.flags = kActArmTimer;
  a.timer_ns = t;
  return a;
}

// A CNP of an active flow under rp_cut_on_grid: the cut waits for the next
// check (alpha has already counted the CNP).
inline Action GridCnp(const Config& cfg, RpState* s, TimeNs now) {
  if (s->flags & kRpCutDue) return Action::None();
  const uint32_t el = ElapsedNs(now, s->last_cut_ns);
  s->last_cut_ns += (el / cfg.monitor_ns) * cfg.monitor_ns;  // <= el < 2^31
  s->flags = static_cast<uint8_t>(s->flags | kRpCutDue);
  return ArmAt(Deadline(cfg, *s));
}

// The check that finds a CNP: alpha brought to now, then the cut; the grid
// stays aligned (`el` whole periods or more since the previous check).
inline Action GridCut(const Config& cfg, RpState* s, TimeNs now, uint32_t el) {
  AlphaCatchUp(cfg, s, now);
  const TimeNs check = s->last_cut_ns + (el / cfg.monitor_ns) * cfg.monitor_ns;
  s->flags = static_cast<uint8_t>(s->flags & ~kRpCutDue);
  const Action a = Cut(cfg, s, now);
  s->last_cut_ns = check;  // == now when the timer is delivered on time
  return a;
}

}  // namespace detail

namespace detail {

// A first CNP (mlx5 reading, with or without the grid) sets a rate limiter
// up at the start rate, with the initial alpha standing for this CNP.
// Returns the start rate.
NICC_ALWAYS_INLINE inline uint32_t OpenLimiter(const Config& cfg, RpState* s, TimeNs now) {
  const uint32_t start = cfg.first_cnp_kbps != 0 ? cfg.first_cnp_kbps : cfg.max_kbps;
  s->rc_kbps = start;
  s->rt_kbps = start;
  s->alpha_q20 = cfg.alpha_init_q20;
  s->alpha_ts_ns = now;
  return start;
}

// The CNP of each reading is its own function, reached by a tail call from
// RpOnCnp: each path gets the registers to itself (no spills for the other
// readings' state), and RpOnCnp stays two tests and a jump.
NICC_DCQCN_NOINLINE_ inline Action Mlx5Cnp(const Config& cfg, RpState* s, TimeNs now) {
  if (!(s->flags & kRpActive)) {
    // First CNP: the cut applies at once.
    OpenLimiter(cfg, s, now);
    s->flags = kRpActive;
    return Cut(cfg, s, now);
  }
  AlphaCatchUp(cfg, s, now);
  s->flags = static_cast<uint8_t>(s->flags | kRpCnpInPeriod);
  const bool open = (s->flags & kRpCutOpen) || ElapsedNs(now, s->last_cut_ns) >= cfg.monitor_ns;
  if (!open) return Action::None();
  return Cut(cfg, s, now);
}

// rp_cut_on_grid (mlx5 reading): the first CNP sets the limiter up and arms
// the first check; later ones count for alpha and mark a cut as due.
NICC_DCQCN_NOINLINE_ inline Action GridCnpEvent(const Config& cfg, RpState* s, TimeNs now) {
  if (!(s->flags & kRpActive)) {
    const uint32_t start = OpenLimiter(cfg, s, now);
    // The first check is one period away; no increase before the first cut.
    s->t_stage = 0;
    s->bc_stage = 0;
    s->bc_bytes = 0;
    s->last_cut_ns = now;
    s->timer_due_ns = now + cfg.monitor_ns;
    s->flags = kRpActive | kRpCutDue;
    Action a = ArmAt(s->timer_due_ns);
    a.flags = kActSetRate | kActArmTimer;
    a.rate_kbps = start;
    return a;
  }
  AlphaCatchUp(cfg, s, now);
  s->flags = static_cast<uint8_t>(s->flags | kRpCnpInPeriod);
  return GridCnp(cfg, s, now);
}

}  // namespace detail

inline Action RpOnCnp(const Config& cfg, RpState* s, TimeNs now_ns) {
  if (cfg.variant == kVariantSigcomm15) return detail::Sigcomm15Cnp(cfg, s, now_ns);
  if (cfg.cut_grid) return detail::GridCnpEvent(cfg, s, now_ns);
  return detail::Mlx5Cnp(cfg, s, now_ns);
}

namespace detail {

// RpOnTimer under rp_cut_on_grid (mlx5 reading): the due check first, else
// the increase; the timer is re-armed at the earlier of the two deadlines.
NICC_DCQCN_NOINLINE_ inline Action GridTimer(const Config& cfg, RpState* s, TimeNs now) {
  if (s->flags & kRpCutDue) {
    const uint32_t el = ElapsedNs(now, s->last_cut_ns);
    if (el >= cfg.monitor_ns) return GridCut(cfg, s, now, el);
  }
  if (!TimeReached(now, s->timer_due_ns)) return ArmAt(Deadline(cfg, *s));  // early
  // Keep the grid's anchor and alpha_ts inside the wrap horizon of `now`.
  const uint32_t el = ElapsedNs(now, s->last_cut_ns);
  if (el >= kRefreshNs) s->last_cut_ns += (el / cfg.monitor_ns) * cfg.monitor_ns;
  if (ElapsedNs(now, s->alpha_ts_ns) >= kRefreshNs) AlphaCatchUp(cfg, s, now);
  Action a = Increase(cfg, s, /*by_timer=*/true);
  if (s->flags & kRpActive) {
    s->timer_due_ns = now + cfg.time_reset_ns;
    a.flags = static_cast<uint8_t>(a.flags | kActArmTimer);
    a.timer_ns = Deadline(cfg, *s);
  }
  return a;
}

}  // namespace detail

namespace detail {

// Brings alpha_ts forward when it is kRefreshNs old (RpOnTimer): rare.
inline void RefreshAlpha(const Config& cfg, RpState* s, TimeNs now) {
  if (cfg.variant == kVariantSigcomm15) {
    AlphaDecay(cfg, s, now);
  } else {
    AlphaCatchUp(cfg, s, now);
  }
}

// RpOnTimer of an active flow without the cut grid.
NICC_DCQCN_NOINLINE_ inline Action TimerIncrease(const Config& cfg, RpState* s, TimeNs now) {
  const TimeNs due = s->timer_due_ns;
  if (!TimeReached(now, due)) return ArmAt(due);  // early or superseded delivery: re-arm
  // Alpha is only read by a CNP, which catches up itself; here it is brought
  // forward only to keep alpha_ts inside the wrap horizon of `now`.
  if (ElapsedNs(now, s->alpha_ts_ns) >= kRefreshNs) RefreshAlpha(cfg, s, now);
  // Once set, kRpCutOpen stays until the next cut; setting it again is
  // harmless and cheaper than testing it first.
  if (ElapsedNs(now, s->last_cut_ns) >= cfg.monitor_ns)
    s->flags = static_cast<uint8_t>(s->flags | kRpCutOpen);
  Action a = Increase(cfg, s, /*by_timer=*/true);
  if (s->flags & kRpActive) {
    const TimeNs next = now + cfg.time_reset_ns;
    s->timer_due_ns = next;
    a.flags = static_cast<uint8_t>(a.flags | kActArmTimer);
    a.timer_ns = next;
  }
  return a;
}

// A tx report that completes a byte counter: `over` bytes count towards the
// next one (at most a whole counter less one: one expiry per report).
NICC_ALWAYS_INLINE inline Action ByteStage(const Config& cfg, RpState* s, uint32_t over) {
  s->bc_bytes = over < cfg.byte_reset ? over : cfg.byte_reset - 1u;
  return Increase(cfg, s, /*by_timer=*/false);
}

}  // namespace detail

inline Action RpOnTimer(const Config& cfg, RpState* s, TimeNs now_ns) {
  if (!(s->flags & kRpActive)) return Action::None();  // stale: released
  if (cfg.cut_grid) return detail::GridTimer(cfg, s, now_ns);
  return detail::TimerIncrease(cfg, s, now_ns);
}

inline Action RpOnTxBytes(const Config& cfg, RpState* s, uint32_t bytes,
                          TimeNs now_ns) {
  (void)now_ns;
  // Under rp_cut_on_grid the byte counter holds while a cut is due; with
  // the byte counter off (byte_reset 0) nothing counts.
  if ((s->flags & (kRpActive | kRpCutDue)) != kRpActive || cfg.byte_reset == 0) return Action::None();
  // bc_bytes < byte_reset on entry, so the sum stays below 2^33: count it in
  // two steps to keep it in 32 bits.
  const uint32_t room = cfg.byte_reset - s->bc_bytes;
  if (bytes < room) {
    s->bc_bytes += bytes;
    return Action::None();
  }
  // One expiry per report: a report larger than a whole byte counter (never
  // the case for per-packet reports) does not queue up several stages.
  return detail::ByteStage(cfg, s, bytes - room);
}

inline void NpInit(NpState* s) { *s = NpState{}; }

inline Action NpOnPacket(const Config& cfg, NpState* s, bool ce, TimeNs now_ns) {
  if (!ce) return Action::None();
  // A negative difference means the last CNP is more than 2^31 ns old (or
  // the packet was reordered by a few ns): either way, send.
  const int32_t since = TimeDiffNs(now_ns, s->last_cnp_ns);
  if (s->sent && since >= 0 && static_cast<uint32_t>(since) < cfg.np_interval_ns)
    return Action::None();
  s->sent = 1;
  s->last_cnp_ns = now_ns;
  Action a = Action::None();
  a.flags = kActSendCnp;
  return a;
}

}  // namespace dcqcn
}  // namespace nicc

#endif  // NICC_DCQCN_H_
