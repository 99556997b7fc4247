// nicc/dcqcn_config.h — DCQCN's parameters in mlx5 names and units
// (Params, its profiles and variants, one field per row of
// NICC_DCQCN_PARAMS) and the Config they compile into for the hot path.
// Included by nicc/dcqcn.h, which defines Compile and the reaction and
// notification points; include that one.
#ifndef NICC_DCQCN_CONFIG_H_
#define NICC_DCQCN_CONFIG_H_

#include "nicc/common.h"
#include "nicc/params.h"

namespace nicc {
namespace dcqcn {

// ---------------------------------------------------------------------------
// Parameters, in mlx5 names and units.
// ---------------------------------------------------------------------------

// Profiles, named once (param_tables.h): kMlx5 = "mlx5", kPaper = "dcqcn-paper".
enum Profile : uint8_t { NICC_DCQCN_PROFILES(NICC_PROFILE_ENUM_) kProfileCount };

// Algorithm variants, named once (NICC_DCQCN_VARIANTS), selected by the
// `variant` row independently of the profile: kVariantMlx5, kVariantSigcomm15.
enum Variant : uint8_t {
#define NICC_X(tok, ctok, code, name, doc) kVariant##tok = code,
  NICC_DCQCN_VARIANTS(NICC_X)
#undef NICC_X
};
constexpr bool VariantsInOrder() {
  for (uint32_t i = 0; i < kDcqcnVariantCount; ++i)
    if (kDcqcnVariants[i].code != i) return false;
  return kDcqcnVariantCount == NICC_DCQCN_VARIANT_MAX + 1u;
}
static_assert(VariantsInOrder(), "NICC_DCQCN_VARIANTS lists codes 0..NICC_DCQCN_VARIANT_MAX in order");

// One uint32_t per row of NICC_DCQCN_PARAMS (param_tables.h), in its order;
// the row gives the unit, range, per-profile value and a one-line doc.
struct Params {
  NICC_PARAM_MEMBERS(NICC_DCQCN_PARAMS)

  // The values of `profile` for a port of the given speed.
  static constexpr Params Of(Profile profile, uint32_t line_rate_mbps);

  // ConnectX defaults (the mlx5 driver's cc_params), for a port of the
  // given speed.
  static constexpr Params Mlx5(uint32_t line_rate_mbps) { return Of(kMlx5, line_rate_mbps); }

  // The published simulation settings of the DCQCN paper (SIGCOMM'15):
  // g = 1/256, 55 us timers, 10 MB byte counter, F = 5, R_AI 40 Mb/s, CNPs
  // at most every 50 us. The paper gives no hyper-increase step; 10 x R_AI
  // keeps the ratio of the mlx5 defaults. Target is clamped at every cut as
  // in the paper's pseudo-code; cuts are paced by the CNP interval only.
  static constexpr Params Paper(uint32_t line_rate_mbps) { return Of(kPaper, line_rate_mbps); }

  // Checks every field; the first bad one is named in the result.
  constexpr Status Validate() const;
};

// The table every consumer iterates (C ABI, vectors, verbs, ns-3, docs).
using NiccRowParams_ = Params;
constexpr ParamDesc<Params> kParamRows[] = {NICC_PARAM_ROWS(NICC_DCQCN_PARAMS)};
constexpr ProfileDesc kProfiles[] = {NICC_DCQCN_PROFILES(NICC_PROFILE_ROW_)};
constexpr ParamTable<Params> kParamTable = {"dcqcn", "", kParamRows,
                                            sizeof(kParamRows) / sizeof(kParamRows[0]), kProfiles,
                                            kProfileCount};
static_assert(sizeof(kProfiles) / sizeof(kProfiles[0]) == kProfileCount, "profiles");

constexpr Params Params::Of(Profile profile, uint32_t line_rate_mbps) {
  Params p{};
  LoadProfile(kParamTable, profile, &p);
  p.line_rate_mbps = line_rate_mbps;
  return p;
}

// Largest period any time field may hold, in us: it must stay inside the
// wrap-safe horizon of the 32-bit ns clock (2^31 ns). Under rp_cut_on_grid
// it also bounds monitor period + timer period (Validate).
constexpr uint32_t kMaxPeriodUs = kTimeHorizonNs / 1000u;

// Quiet periods from which alpha is 0 whatever keep < 1.0 is: keep^(2^16)
// <= (1023/1024)^65536 < 2^-92. Also the bound that keeps n * L below 2^48.
constexpr uint32_t kAlphaZeroPeriodsMax = 1u << 16;

// Stored timestamps of an active flow are refreshed by its timer events once
// they are this old (2^30 ns, ~1.07 s), half the wrap-safe horizon: a flow
// that stays rate-limited for seconds never holds an ambiguous timestamp.
constexpr uint32_t kRefreshNs = 1u << 30;

// A rate this close to the maximum counts as "back at the maximum": the flow
// is released. 1 Mb/s, the resolution the engine is specified to.
constexpr uint32_t kReleaseMarginKbps = 1000u;

// ---------------------------------------------------------------------------
// Config: Params compiled once into the units the hot path uses.
// ---------------------------------------------------------------------------

struct Config {
  uint32_t max_kbps;            // ceiling (rp_max_rate or line rate)
  uint32_t release_kbps;        // max_kbps - kReleaseMarginKbps (0 if below)
  uint32_t min_kbps;            // floor
  uint32_t ai_kbps;
  uint32_t hai_kbps;
  uint32_t first_cnp_kbps;      // 0 = keep current
  uint32_t time_reset_ns;       // increase timer period
  uint32_t byte_reset;          // bytes per byte-counter expiry; 0 = off
  uint32_t alpha_period_ns;     // alpha update period
  uint32_t alpha_period2_ns;    // two periods (< 2^32): below it k = 1, no division
  uint32_t monitor_ns;          // minimum time between cuts
  uint32_t np_interval_ns;      // minimum time between CNPs (receiver)
  uint32_t alpha_keep_q20;      // (1 - g) in Q20
  uint32_t alpha_g_q20;         // g in Q20; keep + g == 1.0 exactly
  uint32_t alpha_init_q20;      // alpha after a first CNP
  uint32_t alpha_zero_periods;  // from this many quiet periods alpha is 0 (1 when keep = 0)
  uint32_t alpha_log_q28;       // -log2(keep) in Q28 (0 when keep = 0: unused)
  uint32_t floor_free_alpha_q20;  // alpha at or below this: min_dec_pct cannot bind
  uint8_t min_dec_pct;          // % of the rate a cut keeps at least
  uint8_t cut_shift;            // rp_gd - 10: cut = (rc * alpha) >> cut_shift
  uint8_t threshold;            // F
  uint8_t clamp_mask;           // RpFlag bits that make a cut clamp rt to rc:
                                // 0xFF (rp_clamp_tgt_rate), kRpTimerIncSinceCut
                                // (rp_clamp_tgt_rate_ati) or 0
  uint8_t variant;              // Variant
  uint8_t hai_without_bc;       // bit 0: rp_hai_without_bc; bit 1: in effect (byte_reset 0)
  uint8_t cut_grid;             // cuts at checks every monitor_ns (rp_cut_on_grid)
};

// Validates `p` and fills `*out`. On error `*out` is left untouched.
inline Status Compile(const Params& p, Config* out);

}  // namespace dcqcn
}  // namespace nicc

#endif  // NICC_DCQCN_CONFIG_H_
