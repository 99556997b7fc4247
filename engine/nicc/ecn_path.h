// nicc/ecn_path.h — the ECN path rule (UEC NSCC): an ECN congestion mark
// seen while the flow's newest RTT shows little queueing says "this path is
// hot", not "the flow is too fast": move the flow off the path of its last
// packet and keep the rate, instead of handing the mark to congestion
// control.
//
// The whole decision lives here; a driver (hal/nicc/hal/driver.h) only keeps
// the per-flow State, reports sends and RTT samples into it, and applies the
// Decision a mark yields (spray feedback kEcn on `ev`, or the CC's reaction
// to the mark). Caller-owned state, integers only, no clock.
//
//   nicc::ecn_path::Rule rule = nicc::ecn_path::Rule::Of(nicc::ecn_path::kNscc);
//   if (!rule.Validate().ok()) ...;
//   nicc::ecn_path::State st;
//   nicc::ecn_path::Init(&st);
//   nicc::ecn_path::OnSend(&st, udp_sport);      // every packet sent
//   nicc::ecn_path::OnRtt(&st, rtt_ns);          // every RTT sample (0 = none)
//   nicc::ecn_path::Decision d = nicc::ecn_path::OnMark(rule, st);  // a CNP
//   if (d.verdict == nicc::ecn_path::Verdict::kChangePath) spray feedback kEcn on d.ev;
//   else the CC reacts to the mark (DCQCN: RpOnCnp).
//
// Parameters: the NICC_ECN_RULE_PARAMS table of param_tables.h (profiles
// ecn-nscc, ecn-off), table name "ecn_rule" (scenario keys ecn_rule.*).
// Units: ns on the engine's 32-bit clock; a port is a UDP source port.
#ifndef NICC_ECN_PATH_H_
#define NICC_ECN_PATH_H_

#include "nicc/common.h"
#include "nicc/params.h"

namespace nicc {
namespace ecn_path {

// Profiles, named once (param_tables.h): kNscc = "ecn-nscc", kOff = "ecn-off".
enum Profile : uint8_t {
#define NICC_X(tok, name, doc) k##tok,
  NICC_ECN_RULE_PROFILES(NICC_X)
#undef NICC_X
  kProfileCount
};

// One uint32_t per row of NICC_ECN_RULE_PARAMS (param_tables.h).
struct Rule {
  NICC_PARAM_MEMBERS(NICC_ECN_RULE_PARAMS)

  static constexpr Rule Of(Profile profile);
  // On, with 4 us: about the queue a 400G port builds from 50 4-KB packets;
  // set it to the CC's target queueing delay.
  static constexpr Rule Defaults() { return Of(kNscc); }
  // Each field's own range (the rule has no cross-field constraint).
  constexpr Status Validate() const;
};

namespace detail {
using NiccRowParams_ = Rule;
constexpr ParamDesc<Rule> kRows[] = {NICC_PARAM_ROWS(NICC_ECN_RULE_PARAMS)};
constexpr ProfileDesc kProfiles[] = {NICC_ECN_RULE_PROFILES(NICC_PROFILE_ROW_)};
}  // namespace detail
constexpr ParamTable<Rule> kParamTable = {"ecn_rule", "", detail::kRows,
                                          sizeof(detail::kRows) / sizeof(detail::kRows[0]),
                                          detail::kProfiles, kProfileCount};

constexpr Rule Rule::Of(Profile profile) {
  Rule r{};
  LoadProfile(kParamTable, profile, &r);
  return r;
}
constexpr Status Rule::Validate() const { return CheckRanges(kParamTable, *this); }

// What the rule makes of one congestion mark.
enum class Verdict : uint8_t {
  kNone = 0,        // no mark: nothing to do
  kToCc = 1,        // high (or unknown) delay, or the rule off: the CC reacts
  kChangePath = 2,  // low delay: blame the path (Decision::ev), keep the rate
};

struct Decision {
  uint16_t ev;      // kChangePath: the UDP source port to report as marked; else 0
  Verdict verdict;
  uint8_t reserved;
};
static_assert(sizeof(Decision) == 4, "a decision fits a register");

// Per-flow state the rule reads: 8 bytes, in the flow's sender slot.
struct State {
  uint32_t last_rtt_ns;  // newest RTT sample; 0 = none yet
  uint16_t last_ev;      // UDP source port of the last packet sent; 0 = none yet
  uint16_t reserved;
};
static_assert(sizeof(State) == 8, "ecn_path state budget: 8 bytes");

inline void Init(State* s) { *s = State{}; }

// A packet of the flow left on port `ev`.
inline void OnSend(State* s, uint16_t ev) { s->last_ev = ev; }

// An RTT sample of the flow; 0 means "no sample" and leaves the newest kept.
inline void OnRtt(State* s, uint32_t rtt_ns) {
  if (rtt_ns != 0) s->last_rtt_ns = rtt_ns;
}

// Classifies one mark by an RTT: rtt_ns 0 = no sample, which never counts as
// low delay; an RTT below base_rtt_ns counts as zero queueing delay.
// qdelay <= rtt_ns < 2^32: no overflow.
constexpr Verdict Classify(const Rule& rule, bool ecn, uint32_t rtt_ns) {
  if (!ecn) return Verdict::kNone;
  if (rule.change_path_on_low_delay == 0 || rtt_ns == 0) return Verdict::kToCc;
  const uint32_t qdelay_ns = rtt_ns > rule.base_rtt_ns ? rtt_ns - rule.base_rtt_ns : 0u;
  return qdelay_ns <= rule.low_delay_ns ? Verdict::kChangePath : Verdict::kToCc;
}

// A congestion mark for the flow (DCQCN: a CNP). kChangePath names the port
// of the last packet sent; with no packet sent yet there is no path to
// blame, and the mark goes to the CC.
constexpr Decision OnMark(const Rule& rule, const State& s) {
  const Verdict v = Classify(rule, true, s.last_rtt_ns);
  if (v == Verdict::kChangePath && s.last_ev != 0) return Decision{s.last_ev, Verdict::kChangePath, 0};
  return Decision{0, Verdict::kToCc, 0};
}

}  // namespace ecn_path
}  // namespace nicc

#endif  // NICC_ECN_PATH_H_
