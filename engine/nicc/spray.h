// nicc/spray.h — spray path selection: which entropy value (EV) each packet
// of a flow carries, learned from per-EV feedback. Caller-owned state per
// flow, integers only.
//
// An EV is the RoCEv2 UDP source port; switches hash it with ECMP, so a new
// EV is (likely) a new path. A flow sprays over 2^k EVs (k = ev_bits <= 8),
// indices 0..2^k-1, whose ports are `port_base ^ index` (see EvPort()).
// Policies, chosen per flow by its Config:
//   ecmp    one fixed EV (index 0, the flow's own port)
//   ops     oblivious spraying: every EV once per round, new order per round
//   bitmap  ops, skipping EVs that carry a penalty (ECN +1, NACK +4,
//           timeout = 15); each skip decays the penalty by one
//   reps    recycled entropy: reuse EVs whose ACK came back clean, explore at
//           random when none is cached, freeze on a timeout
//   plb     one EV; repath after N consecutive congested rounds (PLB)
//   dlb     least-congested EV by per-EV EWMA of marks and RTT, hysteresis
// docs/spray.md states every rule, the state layouts and the PRNG exactly.
//
//   nicc::spray::Config cfg;
//   auto p = nicc::spray::Params::Defaults(nicc::spray::Policy::kReps,
//                                          /*ev_bits=*/4, flow_label);
//   if (!nicc::spray::Compile(p, &cfg).ok()) ...;
//   nicc::spray::SprayState st;                 // caller-owned, per flow
//   nicc::spray::Init(cfg, &st, /*seed=*/qpn);
//   nicc::Action a = nicc::spray::Select(cfg, &st, now_ns);
//   send_with_udp_sport(a.ev);                  // a.Has(kActUseEv)
//   ... ACK for a packet sent on port ev comes back ECN-marked:
//   nicc::spray::OnFeedback(cfg, &st, ev, nicc::spray::Feedback::kEcn,
//                           rtt_ns, now_ns);
//
// Units: *_us in Params, *_ns in Config and state (wrapping 32-bit clock,
// see common.h); rtt_ns 0 means "no RTT sample".
#ifndef NICC_SPRAY_H_
#define NICC_SPRAY_H_

#include "nicc/common.h"
#include "nicc/params.h"
#include "nicc/prng.h"

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
// Config: Params compiled into what the hot path reads (24 bytes).
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
  uint8_t reserved[3];
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

// ---------------------------------------------------------------------------
// Per-policy state. Each is usable on its own (firmware that runs one policy
// keeps only that struct); SprayState below holds any of them.
// ---------------------------------------------------------------------------

struct EcmpState {
  uint8_t ev;  // index in use (0 unless the caller sets another)
  uint8_t reserved[3];
};
static_assert(sizeof(EcmpState) <= 32, "ecmp budget: 32 bytes");

// A round is a permutation of the 2^k indices:
//   t = (mul * pos + add) mod 2^k,  index = t ^ (t >> ops_shift)
// with mul odd and add drawn from the PRNG at the start of each round.
struct OpsState {
  uint32_t prng;  // xorshift32 state (prng.h)
  uint8_t mul;    // odd multiplier of this round (0 before the first round)
  uint8_t add;    // offset of this round
  uint8_t pos;    // position in the round, 0..2^k-1; 0 = start the next round
  uint8_t reserved;
};
static_assert(sizeof(OpsState) == 8, "ops budget: 8 bytes (<= 32)");

// Bitmap budget, chosen: 40 bytes (8 of ops + 4 bits x 64 EVs), within the
// 48-byte per-flow area of the vendor firmware kit.
struct BitmapState {
  OpsState ops;
  uint8_t penalty[kBitmapMaxEvs / 2];  // 4 bits per EV: EV i in byte i/2, high nibble if odd
};
static_assert(sizeof(BitmapState) == 40, "bitmap budget: 40 bytes");

enum RepsFlag : uint8_t {
  kRepsFrozen = 1u << 0,  // replaying cached EVs until freeze_until_ns
};

// REPS: a FIFO ring of EV indices with a 2-bit reuse credit per slot.
struct RepsState {
  uint32_t prng;            // xorshift32 state, for exploration
  TimeNs freeze_until_ns;   // end of freeze (valid while kRepsFrozen)
  uint8_t ring[kRepsRing];  // cached EV indices; slots head..head+count-1 valid
  uint16_t credits;         // 2 bits per slot: sends left for that entry (1..3)
  uint8_t head;             // oldest entry
  uint8_t count;            // valid entries, 0..8
  uint8_t flags;            // RepsFlag bits
  uint8_t reserved[3];
};
static_assert(sizeof(RepsState) <= 24, "reps budget: < 25 bytes, as published");

enum PlbFlag : uint8_t {
  kPlbSuspended = 1u << 0,  // a timeout at suspend_start_ns suspends repaths
};

// PLB: one EV; rounds are one window of feedback (see PlbOnFeedback).
struct PlbState {
  uint32_t prng;            // xorshift32 state, for choosing the next EV
  TimeNs suspend_start_ns;  // time of the last timeout (valid while suspended)
  uint16_t inflight;        // selections minus feedbacks, saturating at 0
  uint16_t round_left;      // feedbacks still to come in this round; 0 = none open
  uint16_t round_acks;      // feedbacks counted in this round
  uint16_t round_marked;    // ... of which ECN-marked or NACKed
  uint8_t ev;               // index in use
  uint8_t cong_rounds;      // consecutive congested rounds (saturates at 255)
  uint8_t flags;            // PlbFlag bits
  uint8_t reserved;
};
static_assert(sizeof(PlbState) <= 32, "plb budget: 32 bytes");

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

// Any policy's state. The policy lives in the Config: a state must be
// initialised by Init() with, and then used with, the same Config.
union SprayState {
  EcmpState ecmp;
  OpsState ops;
  BitmapState bitmap;
  RepsState reps;
  PlbState plb;
  DlbState dlb;
};
static_assert(sizeof(SprayState) <= 64, "spray state: the largest policy (dlb)");

// ---------------------------------------------------------------------------
// Entry points. Select() returns an Action with kActUseEv and ev = the UDP
// source port for the next packet; OnFeedback() takes that port back with
// what happened to the packet.
// ---------------------------------------------------------------------------

inline void Init(const Config& cfg, SprayState* s, uint32_t seed);
inline Action Select(const Config& cfg, SprayState* s, TimeNs now_ns);
inline void OnFeedback(const Config& cfg, SprayState* s, uint16_t ev_port, Feedback kind,
                       uint32_t rtt_ns, TimeNs now_ns);

// Per policy (each Select returns the port).
inline void EcmpInit(const Config& cfg, EcmpState* s);
inline uint16_t EcmpSelect(const Config& cfg, const EcmpState* s);

inline void OpsInit(const Config& cfg, OpsState* s, uint32_t seed);
inline uint16_t OpsSelect(const Config& cfg, OpsState* s);

inline void BitmapInit(const Config& cfg, BitmapState* s, uint32_t seed);
inline uint16_t BitmapSelect(const Config& cfg, BitmapState* s);
inline void BitmapOnFeedback(const Config& cfg, BitmapState* s, uint16_t ev_port, Feedback kind);
inline uint32_t BitmapPenalty(const BitmapState& s, uint32_t idx);

inline void RepsInit(const Config& cfg, RepsState* s, uint32_t seed);
inline uint16_t RepsSelect(const Config& cfg, RepsState* s, TimeNs now_ns);
inline void RepsOnFeedback(const Config& cfg, RepsState* s, uint16_t ev_port, Feedback kind,
                           TimeNs now_ns);

inline void PlbInit(const Config& cfg, PlbState* s, uint32_t seed);
inline uint16_t PlbSelect(const Config& cfg, PlbState* s);
inline void PlbOnFeedback(const Config& cfg, PlbState* s, Feedback kind, TimeNs now_ns);

inline void DlbInit(const Config& cfg, DlbState* s, uint32_t seed);
inline uint16_t DlbSelect(const Config& cfg, DlbState* s);
inline void DlbOnFeedback(const Config& cfg, DlbState* s, uint16_t ev_port, Feedback kind,
                          uint32_t rtt_ns);
inline uint32_t DlbCost(const DlbState& s, uint32_t idx);

// ---------------------------------------------------------------------------
// The UEC NSCC rule, for the CC drivers: an ECN mark seen with low queueing
// delay says "this path is hot", not "the flow is too fast" — change path
// rather than cut the rate.
// ---------------------------------------------------------------------------

enum class EcnResponse : uint8_t {
  kNone = 0,        // no mark: nothing to do
  kCutRate = 1,     // mark with high (or unknown) delay: the CC cuts
  kChangePath = 2,  // mark with low delay: move to another EV, keep the rate
};

// Profiles, named once (param_tables.h): kEcnNscc = "ecn-nscc",
// kEcnOff = "ecn-off".
enum EcnProfile : uint8_t {
#define NICC_X(tok, name, doc) kEcn##tok,
  NICC_ECN_RULE_PROFILES(NICC_X)
#undef NICC_X
  kEcnProfileCount
};

// One uint32_t per row of NICC_ECN_RULE_PARAMS (param_tables.h).
struct EcnRule {
  NICC_PARAM_MEMBERS(NICC_ECN_RULE_PARAMS)

  static constexpr EcnRule Of(EcnProfile profile);
  // On, with 4 us: about the queue a 400G port builds from 50 4-KB packets;
  // set it to the CC's target queueing delay.
  static constexpr EcnRule Defaults() { return Of(kEcnNscc); }
  constexpr Status Validate() const;
};

namespace detail {
using NiccRowParams_ = EcnRule;
constexpr ParamDesc<EcnRule> kEcnRows[] = {NICC_PARAM_ROWS(NICC_ECN_RULE_PARAMS)};
constexpr ProfileDesc kEcnProfiles[] = {NICC_ECN_RULE_PROFILES(NICC_PROFILE_ROW_)};
}  // namespace detail
constexpr ParamTable<EcnRule> kEcnRuleTable = {
    "ecn_rule", "", detail::kEcnRows, sizeof(detail::kEcnRows) / sizeof(detail::kEcnRows[0]),
    detail::kEcnProfiles, kEcnProfileCount};

constexpr EcnRule EcnRule::Of(EcnProfile profile) {
  EcnRule r{};
  LoadProfile(kEcnRuleTable, profile, &r);
  return r;
}
constexpr Status EcnRule::Validate() const { return CheckRanges(kEcnRuleTable, *this); }

// Classifies one ACK. rtt_ns 0 = no sample, which never counts as low delay.
// An RTT below rule.base_rtt_ns counts as zero queueing delay.
constexpr EcnResponse ClassifyEcn(const EcnRule& rule, bool ecn, uint32_t rtt_ns) {
  if (!ecn) return EcnResponse::kNone;
  if (rule.change_path_on_low_delay == 0 || rtt_ns == 0) return EcnResponse::kCutRate;
  const uint32_t qdelay_ns = rtt_ns > rule.base_rtt_ns ? rtt_ns - rule.base_rtt_ns : 0u;
  return qdelay_ns <= rule.low_delay_ns ? EcnResponse::kChangePath : EcnResponse::kCutRate;
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
  *out = c;
  return Status::Ok();
}

namespace detail {

// Draws a round's multiplier and offset:
//   r = PrngNext(); mul = ((r >> 24) & mask) | 1; add = (r >> 16) & mask;
//   if (mul, add) equals the previous round's, add = (add + 1) & mask,
// so two consecutive rounds never repeat an order (for k >= 1).
inline void OpsNewRound(const Config& cfg, OpsState* s) {
  const uint32_t r = PrngNext(&s->prng);
  const uint32_t mul = (PrngByte(r) & cfg.ev_mask) | 1u;
  uint32_t add = (r >> 16) & cfg.ev_mask;
  if (mul == s->mul && add == s->add) add = (add + 1u) & cfg.ev_mask;
  s->mul = static_cast<uint8_t>(mul);
  s->add = static_cast<uint8_t>(add);
}

// The next index of the current round (a new round starts at pos 0).
// mul * pos + add <= 255 * 255 + 255 < 2^16.
inline uint32_t OpsNextIndex(const Config& cfg, OpsState* s) {
  const uint32_t pos = s->pos;
  if (pos == 0) OpsNewRound(cfg, s);
  uint32_t t = (s->mul * pos + s->add) & cfg.ev_mask;
  t ^= t >> cfg.ops_shift;
  s->pos = static_cast<uint8_t>((pos + 1u) & cfg.ev_mask);
  return t;
}

inline void SetPenalty(BitmapState* s, uint32_t idx, uint32_t pen) {
  const uint32_t sh = (idx & 1u) << 2;
  uint8_t& b = s->penalty[idx >> 1];
  b = static_cast<uint8_t>((b & ~(0xFu << sh)) | (pen << sh));
}

inline uint32_t RepsCredit(const RepsState* s, uint32_t slot) {
  return (s->credits >> (slot << 1)) & 3u;
}

inline void RepsPut(RepsState* s, uint32_t slot, uint32_t idx, uint32_t credit) {
  s->ring[slot] = static_cast<uint8_t>(idx);
  const uint32_t sh = slot << 1;
  s->credits = static_cast<uint16_t>((s->credits & ~(3u << sh)) | (credit << sh));
}

// Removes every cached copy of `idx`, keeping the others in order.
// Loop bound: kRepsRing.
inline void RepsPurge(RepsState* s, uint32_t idx) {
  const uint32_t n = s->count;
  const uint32_t head = s->head;
  uint32_t kept = 0;
  for (uint32_t j = 0; j < kRepsRing; ++j) {
    if (j >= n) break;
    const uint32_t from = (head + j) & (kRepsRing - 1u);
    if (s->ring[from] == idx) continue;
    const uint32_t credit = RepsCredit(s, from);
    RepsPut(s, (head + kept) & (kRepsRing - 1u), s->ring[from], credit);
    ++kept;
  }
  s->count = static_cast<uint8_t>(kept);
}

// avg moved 1/2^shift of the way to `sample`, rounded away from avg so it
// reaches sample exactly. |sample - avg| < 2^16 and shift <= 7: no overflow.
inline uint32_t EwmaStep(uint32_t avg, uint32_t sample, uint32_t shift) {
  const uint32_t round_up = (1u << shift) - 1u;
  if (sample >= avg) return avg + ((sample - avg + round_up) >> shift);
  return avg - ((avg - sample + round_up) >> shift);
}

// A new EV index for PLB, uniform over the 2^k - 1 others:
//   r = PrngNext(); next = (cur + 1 + ((r >> 24) * (2^k - 1) >> 8)) & mask.
// (r >> 24) * 255 < 2^16.
inline uint32_t PlbOtherEv(const Config& cfg, PlbState* s) {
  const uint32_t r = PrngNext(&s->prng);
  const uint32_t step = (PrngByte(r) * cfg.ev_mask) >> 8;
  return (s->ev + 1u + step) & cfg.ev_mask;
}

}  // namespace detail

// --- ecmp -------------------------------------------------------------------

inline void EcmpInit(const Config& cfg, EcmpState* s) {
  (void)cfg;
  *s = EcmpState{};
}

inline uint16_t EcmpSelect(const Config& cfg, const EcmpState* s) {
  return EvPort(cfg, s->ev);
}

// --- ops --------------------------------------------------------------------

inline void OpsInit(const Config& cfg, OpsState* s, uint32_t seed) {
  (void)cfg;
  *s = OpsState{};
  s->prng = PrngSeed(seed);
}

inline uint16_t OpsSelect(const Config& cfg, OpsState* s) {
  return EvPort(cfg, detail::OpsNextIndex(cfg, s));
}

// --- bitmap -----------------------------------------------------------------

inline void BitmapInit(const Config& cfg, BitmapState* s, uint32_t seed) {
  *s = BitmapState{};
  OpsInit(cfg, &s->ops, seed);
}

inline uint32_t BitmapPenalty(const BitmapState& s, uint32_t idx) {
  return (s.penalty[(idx >> 1) & (kBitmapMaxEvs / 2 - 1u)] >> ((idx & 1u) << 2)) & 0xFu;
}

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

// --- reps -------------------------------------------------------------------

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
  const uint32_t credit = detail::RepsCredit(s, head);
  const uint32_t left = frozen ? credit : credit - 1u;  // credit >= 1 when cached
  s->head = static_cast<uint8_t>((head + 1u) & (kRepsRing - 1u));
  if (left != 0) {
    detail::RepsPut(s, (head + n) & (kRepsRing - 1u), idx, left);  // == head if full
  } else {
    s->count = static_cast<uint8_t>(n - 1u);
  }
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

// --- plb --------------------------------------------------------------------

inline void PlbInit(const Config& cfg, PlbState* s, uint32_t seed) {
  (void)cfg;
  *s = PlbState{};
  s->prng = PrngSeed(seed);
}

inline uint16_t PlbSelect(const Config& cfg, PlbState* s) {
  if (s->inflight != 0xFFFFu) s->inflight = static_cast<uint16_t>(s->inflight + 1u);
  return EvPort(cfg, s->ev);
}

// Rounds: a round opens at the first feedback after the previous one closed
// and lasts as many feedbacks as packets were in flight then (one window).
// At its close the round is congested when marked * 100 >= pct * acks
// (ECN and NACK count as marked); cong_rounds counts consecutive congested
// rounds. The flow repaths when cong_rounds >= rehash_rounds, or when
// nothing is in flight and cong_rounds >= idle_rehash_rounds (if non-zero),
// unless suspended; a repath zeroes cong_rounds. A timeout suspends repaths
// for suspend_ns, empties the in-flight count and closes the round.
// Every report passed here counts (the dispatcher, OnFeedback, drops ports
// outside the flow's EVs first).
inline void PlbOnFeedback(const Config& cfg, PlbState* s, Feedback kind, TimeNs now_ns) {
  if (kind == Feedback::kTimeout) {
    if (cfg.plb_suspend_ns != 0) {
      s->flags = static_cast<uint8_t>(s->flags | kPlbSuspended);
      s->suspend_start_ns = now_ns;
    }
    s->inflight = 0;
    s->round_left = 0;
    s->cong_rounds = 0;
    return;
  }
  uint32_t inflight = s->inflight;
  if (s->round_left == 0) {
    s->round_left = static_cast<uint16_t>(inflight != 0 ? inflight : 1u);
    s->round_acks = 0;
    s->round_marked = 0;
  }
  if (inflight != 0) s->inflight = static_cast<uint16_t>(--inflight);
  s->round_acks = static_cast<uint16_t>(s->round_acks + 1u);  // <= round length
  if (kind != Feedback::kGood) s->round_marked = static_cast<uint16_t>(s->round_marked + 1u);
  s->round_left = static_cast<uint16_t>(s->round_left - 1u);
  if (s->round_left != 0) return;
  // Round closed. marked, acks < 2^16: marked * 100 < 2^23.
  const bool congested =
      s->round_marked * 100u >= static_cast<uint32_t>(cfg.plb_cong_thresh_pct) * s->round_acks;
  if (!congested) {
    s->cong_rounds = 0;
    return;
  }
  if (s->cong_rounds != 0xFF) s->cong_rounds = static_cast<uint8_t>(s->cong_rounds + 1u);
  const uint32_t c = s->cong_rounds;
  const bool idle_due =
      cfg.plb_idle_rehash_rounds != 0 && inflight == 0 && c >= cfg.plb_idle_rehash_rounds;
  if (!idle_due && c < cfg.plb_rehash_rounds) return;
  if (s->flags & kPlbSuspended) {
    if (ElapsedNs(now_ns, s->suspend_start_ns) < cfg.plb_suspend_ns) return;
    s->flags = static_cast<uint8_t>(s->flags & ~kPlbSuspended);
  }
  s->ev = static_cast<uint8_t>(detail::PlbOtherEv(cfg, s));
  s->cong_rounds = 0;
}

// --- dlb --------------------------------------------------------------------

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
  if (kind == Feedback::kTimeout) {
    s->ecn_q8[idx] = 0xFF;
    s->rtt_units[idx] = 0xFFFF;
  } else {
    const uint32_t sample = kind == Feedback::kGood ? 0u : 255u;
    s->ecn_q8[idx] =
        static_cast<uint8_t>(detail::EwmaStep(s->ecn_q8[idx], sample, cfg.dlb_gain_shift));
    if (rtt_ns != 0) {
      const uint32_t u = MaxU32(MinU32(rtt_ns >> cfg.dlb_rtt_shift, 0xFFFFu), 1u);
      const uint32_t old = s->rtt_units[idx];
      s->rtt_units[idx] =
          static_cast<uint16_t>(old == 0 ? u : detail::EwmaStep(old, u, cfg.dlb_gain_shift));
    }
  }
  const uint32_t cur = s->cur;
  if (idx == cur) {
    if (s->hold != 0 && kind != Feedback::kTimeout) {
      s->hold = static_cast<uint8_t>(s->hold - 1u);
      return;
    }
    s->hold = 0;
  } else if (s->alt == kDlbNone || idx == s->alt || DlbCost(*s, idx) < DlbCost(*s, s->alt)) {
    s->alt = static_cast<uint8_t>(idx);
  }
  if (s->alt == kDlbNone || s->hold != 0) return;
  if (DlbCost(*s, s->alt) + cfg.dlb_hysteresis < DlbCost(*s, cur)) {
    s->cur = s->alt;
    s->alt = static_cast<uint8_t>(cur);
    s->hold = cfg.dlb_min_dwell;
  }
}

// --- dispatch ---------------------------------------------------------------

inline void Init(const Config& cfg, SprayState* s, uint32_t seed) {
  switch (cfg.policy) {
    case Policy::kEcmp:
      EcmpInit(cfg, &s->ecmp);
      return;
    case Policy::kOps:
      OpsInit(cfg, &s->ops, seed);
      return;
    case Policy::kBitmap:
      BitmapInit(cfg, &s->bitmap, seed);
      return;
    case Policy::kReps:
      RepsInit(cfg, &s->reps, seed);
      return;
    case Policy::kPlb:
      PlbInit(cfg, &s->plb, seed);
      return;
    case Policy::kDlb:
      DlbInit(cfg, &s->dlb, seed);
      return;
  }
}

inline Action Select(const Config& cfg, SprayState* s, TimeNs now_ns) {
  uint16_t port = cfg.port_base;
  switch (cfg.policy) {
    case Policy::kEcmp:
      port = EcmpSelect(cfg, &s->ecmp);
      break;
    case Policy::kOps:
      port = OpsSelect(cfg, &s->ops);
      break;
    case Policy::kBitmap:
      port = BitmapSelect(cfg, &s->bitmap);
      break;
    case Policy::kReps:
      port = RepsSelect(cfg, &s->reps, now_ns);
      break;
    case Policy::kPlb:
      port = PlbSelect(cfg, &s->plb);
      break;
    case Policy::kDlb:
      port = DlbSelect(cfg, &s->dlb);
      break;
  }
  Action a = Action::None();
  a.flags = kActUseEv;
  a.ev = port;
  return a;
}

inline void OnFeedback(const Config& cfg, SprayState* s, uint16_t ev_port, Feedback kind,
                       uint32_t rtt_ns, TimeNs now_ns) {
  switch (cfg.policy) {
    case Policy::kEcmp:
    case Policy::kOps:
      return;  // oblivious
    case Policy::kBitmap:
      BitmapOnFeedback(cfg, &s->bitmap, ev_port, kind);
      return;
    case Policy::kReps:
      RepsOnFeedback(cfg, &s->reps, ev_port, kind, now_ns);
      return;
    case Policy::kPlb:
      // PLB keys its rounds on feedback, not on the port; a port outside the
      // flow's EVs is not the flow's feedback and is dropped, as for the
      // other policies.
      if (EvIndex(cfg, ev_port) < 0) return;
      PlbOnFeedback(cfg, &s->plb, kind, now_ns);
      return;
    case Policy::kDlb:
      DlbOnFeedback(cfg, &s->dlb, ev_port, kind, rtt_ns);
      return;
  }
}

}  // namespace spray
}  // namespace nicc

#endif  // NICC_SPRAY_H_
