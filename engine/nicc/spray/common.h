// nicc/spray/common.h — the bottom of spray path selection: constants,
// policies, feedback kinds, Params and their tables, the compiled Config,
// Compile() and the EV <-> port helpers every policy uses.
//
// Each policy lives in its own header above this one (ecmp.h, ops.h,
// bitmap.h, reps.h, plb.h, dlb.h) and includes only this file (bitmap.h also
// ops.h, whose candidates it takes); nicc/spray.h on top dispatches between them.
// Layering: common.h <- policy headers <- spray.h; nothing includes upward.
//
// Units: *_us in Params, *_ns in Config and state (wrapping 32-bit clock,
// see common.h); rtt_ns 0 means "no RTT sample".
#ifndef NICC_SPRAY_COMMON_H_
#define NICC_SPRAY_COMMON_H_

#include "nicc/common.h"
#include "nicc/params.h"
#include "nicc/prng.h"

// Keeps a policy's longer path out of line (GCC and Clang; a no-op
// elsewhere), so that the code it would be inlined into (the dispatching
// Select()/OnFeedback(), a caller's event loop) needs fewer registers on
// its other paths: every callee-saved register the longest inlined path
// uses is saved and restored on every path. Not `cold`: that would
// optimise it for size.
#if defined(__GNUC__)
#define NICC_SPRAY_OUT_OF_LINE __attribute__((noinline))
#else
#define NICC_SPRAY_OUT_OF_LINE
#endif

namespace nicc {
namespace spray {

// ---------------------------------------------------------------------------
// Constants: capacities and fixed rules.
// ---------------------------------------------------------------------------

constexpr uint32_t kMaxEvBits = 8;        // <= 256 EVs: indices fit a byte
constexpr uint32_t kBitmapMaxEvBits = 6;  // 64 EVs x 4-bit penalty = 32 B
constexpr uint32_t kBitmapMaxEvs = 1u << kBitmapMaxEvBits;
constexpr uint32_t kBitmapMaxPenalty = 15;  // 4-bit penalty; a timeout sets it
constexpr uint32_t kDlbMaxEvBits = 4;       // 16 EVs x 3 B of EWMAs = 48 B
constexpr uint32_t kDlbMaxEvs = 1u << kDlbMaxEvBits;
constexpr uint32_t kRepsRing = 8;                          // cached EVs (REPS' buffer size)
constexpr uint32_t kRepsMaxReuse = 3;                      // 2-bit reuse credit per entry
constexpr uint32_t kRocePortMin = 0xC000;                  // RoCEv2 source ports: 0xC000..0xFFFF
constexpr uint32_t kFlowLabelMax = 0xFFFFF;                // 20-bit flow label
constexpr uint32_t kMaxPeriodUs = kTimeHorizonNs / 1000u;  // wrap-safe horizon

// Per-flow path-selection policy; names and codes in param_tables.h
// (NICC_SPRAY_POLICIES).
enum class Policy : uint8_t {
#define NICC_X(tok, ctok, code, name, doc) k##tok = code,
  NICC_SPRAY_POLICIES(NICC_X)
#undef NICC_X
};
constexpr ChoiceDesc kPolicies[] = {
#define NICC_X(tok, ctok, code, name, doc) {name, code, NICC_PARAM_DOC(doc)},
    NICC_SPRAY_POLICIES(NICC_X)
#undef NICC_X
};
constexpr uint32_t kPolicyCount = sizeof(kPolicies) / sizeof(kPolicies[0]);

// What came back for one packet sent on an EV.
enum class Feedback : uint8_t {
  kGood = 0,     // ACK, not ECN-marked
  kEcn = 1,      // ACK echoing a CE mark
  kNack = 2,     // NACK or trimmed-packet notification
  kTimeout = 3,  // retransmission timeout on a packet sent on this EV
};

// ---------------------------------------------------------------------------
// Ports: EV index <-> RoCEv2 UDP source port.
// ---------------------------------------------------------------------------

// RoCEv2 rule (IBTA annex A17; rdma-core/Linux use the same fold): the UDP
// source port of a 20-bit flow label fl is 0xC000 | (fl[13:0] ^ fl[19:14]).
constexpr uint16_t FlowLabelToPort(uint32_t flow_label) {
  return static_cast<uint16_t>(kRocePortMin |
                               ((flow_label & 0x3FFFu) ^ ((flow_label >> 14) & 0x3Fu)));
}

// ---------------------------------------------------------------------------
// Parameters.
// ---------------------------------------------------------------------------

// Profiles, named once (param_tables.h): kDefault = "spray-default".
enum Profile : uint8_t { NICC_SPRAY_PROFILES(NICC_PROFILE_ENUM_) kProfileCount };


// The policy, then one uint32_t per row of NICC_SPRAY_PARAMS
// (param_tables.h): the common fields, then each policy's group.
struct Params {
  Policy policy;
  NICC_PARAM_MEMBERS(NICC_SPRAY_PARAMS)

  // Published defaults where there are any (PLB: 12 / 3 rounds at 50% CE,
  // as Linux' tcp_plb_*; bitmap: +1 / +4 / max), the engine's own choice
  // elsewhere (docs/spray.md gives the reason for each).
  static constexpr Params Defaults(Policy policy, uint32_t ev_bits, uint32_t flow_label);

  // Checks every field; the first bad one is named in the result.
  constexpr Status Validate() const;
};

#define NICC_COUNT_ROW_(...) +1u
constexpr uint32_t kCommonRowCount = 0u NICC_SPRAY_COMMON_PARAMS(NICC_COUNT_ROW_);
constexpr uint32_t kBitmapRowCount = 0u NICC_SPRAY_BITMAP_PARAMS(NICC_COUNT_ROW_);
constexpr uint32_t kRepsRowCount = 0u NICC_SPRAY_REPS_PARAMS(NICC_COUNT_ROW_);
constexpr uint32_t kPlbRowCount = 0u NICC_SPRAY_PLB_PARAMS(NICC_COUNT_ROW_);
constexpr uint32_t kDlbRowCount = 0u NICC_SPRAY_DLB_PARAMS(NICC_COUNT_ROW_);
#undef NICC_COUNT_ROW_

using NiccRowParams_ = Params;
constexpr ParamDesc<Params> kParamRows[] = {NICC_PARAM_ROWS(NICC_SPRAY_PARAMS)};
constexpr ProfileDesc kProfiles[] = {NICC_SPRAY_PROFILES(NICC_PROFILE_ROW_)};
constexpr uint32_t kParamRowCount = sizeof(kParamRows) / sizeof(kParamRows[0]);
static_assert(kParamRowCount ==
                  kCommonRowCount + kBitmapRowCount + kRepsRowCount + kPlbRowCount + kDlbRowCount,
              "spray groups cover the table");
// The whole table, and one view per group (the common fields, then each
// policy's own).
constexpr ParamTable<Params> kParamTable = {"spray", "", kParamRows, kParamRowCount, kProfiles,
                                            kProfileCount};
constexpr ParamTable<Params> kGroupTables[] = {
    {"spray", "common", kParamRows, kCommonRowCount, kProfiles, kProfileCount},
    {"spray", "bitmap", kParamRows + kCommonRowCount, kBitmapRowCount, kProfiles, kProfileCount},
    {"spray", "reps", kParamRows + kCommonRowCount + kBitmapRowCount, kRepsRowCount, kProfiles,
     kProfileCount},
    {"spray", "plb", kParamRows + kCommonRowCount + kBitmapRowCount + kRepsRowCount, kPlbRowCount,
     kProfiles, kProfileCount},
    {"spray", "dlb", kParamRows + kCommonRowCount + kBitmapRowCount + kRepsRowCount + kPlbRowCount,
     kDlbRowCount, kProfiles, kProfileCount},
};

constexpr Params Params::Defaults(Policy policy, uint32_t ev_bits, uint32_t flow_label) {
  Params p{};
  LoadProfile(kParamTable, kDefault, &p);
  p.policy = policy;
  p.ev_bits = ev_bits;
  p.flow_label = flow_label;
  return p;
}

// ---------------------------------------------------------------------------
// Config: Params compiled into what the hot path reads (36 bytes).
// ---------------------------------------------------------------------------

struct Config {
  uint32_t flow_label;  // flow label of EV 0 (EV i uses flow_label ^ i)
  uint32_t reps_freeze_ns;
  uint32_t plb_suspend_ns;
  uint16_t port_base;  // UDP source port of EV index 0
  uint16_t ev_mask;    // 2^k - 1
  uint16_t dlb_hysteresis;
  Policy policy;
  uint8_t ev_bits;
  uint8_t ops_shift;  // xorshift applied to the affine index, >= 1
  uint8_t bitmap_ecn_penalty;
  uint8_t bitmap_nack_penalty;
  uint8_t reps_max_reuse;
  uint8_t plb_rehash_rounds;
  uint8_t plb_idle_rehash_rounds;
  uint8_t plb_cong_thresh_pct;
  uint8_t dlb_gain_shift;
  uint8_t dlb_rtt_shift;
  uint8_t dlb_probe_mask;  // 2^shift - 1; 0 = no probes
  uint8_t dlb_min_dwell;
  uint8_t dlb_gain_round;  // 2^dlb_gain_shift - 1: an EWMA step rounds away from avg
  uint16_t ops_pair_mask;  // ev_mask | (ev_mask & ~1) << 8: an ops round's (add, mul - 1)
};

// Validates `p` and fills `*out`. On error `*out` is left untouched.
inline Status Compile(const Params& p, Config* out);

// UDP source port of EV index `idx` (< 2^k). With a flow label, EV i is the
// port of flow label (fl ^ i): i < 2^8 leaves fl[19:14] alone, so that port
// is FlowLabelToPort(fl) ^ i. With an explicit base (aligned to 2^k) it is
// base + i.
constexpr uint16_t EvPort(const Config& cfg, uint32_t idx) {
  return static_cast<uint16_t>(cfg.port_base ^ idx);
}

// Flow label that yields EV `idx`'s port (for backends that set the GRH flow
// label, not the port); meaningful when the config derives ports from it.
constexpr uint32_t EvFlowLabel(const Config& cfg, uint32_t idx) {
  return cfg.flow_label ^ idx;
}

// Index of the EV whose port is `port`, or -1 if the port is not one of the
// flow's EVs (feedback for it is ignored).
constexpr int32_t EvIndex(const Config& cfg, uint16_t port) {
  const uint32_t idx = static_cast<uint32_t>(port ^ cfg.port_base);
  return idx <= cfg.ev_mask ? static_cast<int32_t>(idx) : -1;
}

// ===========================================================================
// Implementation.
// ===========================================================================

constexpr Status Params::Validate() const {
  // The policy, each field's own range (kParamTable), then the rules
  // between fields.
  if (static_cast<uint32_t>(policy) >= kPolicyCount)
    return Status::Error(StatusCode::kOutOfRange, "policy");
  const Status st = CheckRanges(kParamTable, *this);
  if (!st.ok()) return st;
  if (policy == Policy::kBitmap && ev_bits > kBitmapMaxEvBits)
    return Status::Error(StatusCode::kUnsupported, "ev_bits");
  if (policy == Policy::kDlb && ev_bits > kDlbMaxEvBits)
    return Status::Error(StatusCode::kUnsupported, "ev_bits");
  if (base_port != 0) {
    if (base_port < kRocePortMin) return Status::Error(StatusCode::kOutOfRange, "base_port");
    if ((base_port & ((1u << ev_bits) - 1u)) != 0)
      return Status::Error(StatusCode::kInconsistent, "base_port");
  }
  if (plb_idle_rehash_rounds > plb_rehash_rounds)
    return Status::Error(StatusCode::kInconsistent, "plb_idle_rehash_rounds");
  return Status::Ok();
}

inline Status Compile(const Params& p, Config* out) {
  const Status st = p.Validate();
  if (!st.ok()) return st;
  Config c{};
  const uint32_t mask = (1u << p.ev_bits) - 1u;
  // Ports of EV 0 and of the flow label with its low k bits cleared agree
  // on the high bits; EV 0 keeps the flow's own port (ecmp uses it).
  c.flow_label = p.flow_label;
  c.port_base =
      p.base_port != 0 ? static_cast<uint16_t>(p.base_port) : FlowLabelToPort(p.flow_label);
  c.ev_mask = static_cast<uint16_t>(mask);
  c.reps_freeze_ns = p.reps_freeze_us * 1000u;  // <= kTimeHorizonNs, validated
  c.plb_suspend_ns = p.plb_suspend_us * 1000u;  // <= kTimeHorizonNs, validated
  c.dlb_hysteresis = static_cast<uint16_t>(p.dlb_hysteresis);
  c.policy = p.policy;
  c.ev_bits = static_cast<uint8_t>(p.ev_bits);
  // (k+1)/2 mixes the top half into the bottom; >= 1 keeps it a bijection.
  c.ops_shift = static_cast<uint8_t>(p.ev_bits < 2 ? 1u : (p.ev_bits + 1u) / 2u);
  c.ops_pair_mask = static_cast<uint16_t>(mask | ((mask & ~1u) << 8));
  c.bitmap_ecn_penalty = static_cast<uint8_t>(p.bitmap_ecn_penalty);
  c.bitmap_nack_penalty = static_cast<uint8_t>(p.bitmap_nack_penalty);
  c.reps_max_reuse = static_cast<uint8_t>(p.reps_max_reuse);
  c.plb_rehash_rounds = static_cast<uint8_t>(p.plb_rehash_rounds);
  c.plb_idle_rehash_rounds = static_cast<uint8_t>(p.plb_idle_rehash_rounds);
  c.plb_cong_thresh_pct = static_cast<uint8_t>(p.plb_cong_thresh_pct);
  c.dlb_gain_shift = static_cast<uint8_t>(p.dlb_gain_shift);
  c.dlb_rtt_shift = static_cast<uint8_t>(p.dlb_rtt_shift);
  c.dlb_probe_mask = static_cast<uint8_t>((1u << p.dlb_probe_shift) - 1u);
  c.dlb_min_dwell = static_cast<uint8_t>(p.dlb_min_dwell);
  c.dlb_gain_round = static_cast<uint8_t>((1u << p.dlb_gain_shift) - 1u);
  *out = c;
  return Status::Ok();
}

}  // namespace spray
}  // namespace nicc

#endif  // NICC_SPRAY_COMMON_H_
