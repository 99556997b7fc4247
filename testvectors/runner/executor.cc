// executor.cc — drives the engine through a conformance vector.
#include "executor.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>

#include "nicc/dcqcn.h"
#include "nicc/ecn_path.h"
#include "nicc/hpcc.h"
#include "nicc/hpcc_spray.h"
#include "nicc/int_codec.h"
#include "nicc/nscc.h"
#include "nicc/rccc.h"
#include "nicc/spray.h"
#include "nicc/host/param_registry.h"

#if defined(__x86_64__) && defined(NICC_VECTORS_CALLGRIND)
#include <valgrind/callgrind.h>
#define NICC_VEC_ZERO() CALLGRIND_ZERO_STATS
#define NICC_VEC_DUMP(name) CALLGRIND_DUMP_STATS_AT(name)
#else
#define NICC_VEC_ZERO() ((void)0)
#define NICC_VEC_DUMP(name) ((void)(name))
#endif

namespace nicc_vectors {

namespace {

// `param NAME VALUE` sets the field of that name in the algorithm's table
// (nicc/param_tables.h); `profile NAME` picks one of its profiles.

std::string StatusName(nicc::StatusCode c) { return nicc::StatusCodeKey(c); }

std::string FlagsText(uint8_t flags) {
  std::string out;
  for (const nicc::ActionFlagName& n : nicc::kActionFlagNames) {
    if (flags & n.bit) {
      if (!out.empty()) out += ",";
      out += n.name;
    }
  }
  return out.empty() ? "none" : out;
}

// Normalises a comma list of flag names (any order) to FlagsText's order.
bool ParseFlags(const std::string& text, uint8_t* out) {
  if (text == "none") {
    *out = 0;
    return true;
  }
  uint8_t flags = 0;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = text.find(',', start);
    const std::string name = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const nicc::ActionFlagName* hit = nullptr;
    for (const nicc::ActionFlagName& n : nicc::kActionFlagNames)
      if (name == n.name) hit = &n;
    if (hit == nullptr) return false;
    flags = static_cast<uint8_t>(flags | hit->bit);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  *out = flags;
  return true;
}

// The outputs of one event that expectations may name.
struct Outputs {
  std::map<std::string, int64_t> num;
  uint8_t flags = 0;
  std::string status = "ok";
};

class Runner {
 public:
  Runner(const VectorFile& v, const RunOptions& opt, std::vector<Failure>* failures,
         std::vector<EventCost>* costs)
      : v_(v), opt_(opt), failures_(failures), costs_(costs) {}

  bool Run() {
    if (v_.algo == "dcqcn") return RunDcqcn();
    if (v_.algo == "hpcc" || v_.algo == "hpcc-pint" || v_.algo == "hpcc-spray") return RunHpcc();
    if (v_.algo == "spray") return RunSpray();
    if (v_.algo == "ecn_path") return RunEcnPath();
    if (v_.algo == "nscc") return RunNscc();
    if (v_.algo == "rccc") return RunRccc();
    return SetupFail("unknown algo '" + v_.algo + "'");
  }

 private:
  bool SetupFail(const std::string& why) {
    Failure f;
    f.field = "setup";
    f.got = why;
    failures_->push_back(f);
    return false;
  }

  // Sets every `param` line's field. Values are stored as given (any 32-bit
  // value): range errors are Validate()'s to report, as expect-status tests.
  template <class P>
  bool ApplyParams(const nicc::ParamTable<P>& t, P* p) {
    for (const auto& kv : v_.params) {
      const int32_t i = nicc::FindParam(t, kv.first.c_str());
      if (i < 0) return SetupFail("unknown param '" + kv.first + "' for " + v_.algo);
      if (kv.second < 0 || kv.second > 0xFFFFFFFFll)
        return SetupFail("param " + kv.first + " out of 32-bit range");
      (*p).*(t.rows[i].member) = static_cast<uint32_t>(kv.second);
    }
    return true;
  }

  // Index of the vector's profile in table t, or -1 after a setup failure.
  template <class P>
  int32_t Profile(const nicc::ParamTable<P>& t) {
    const int32_t i = nicc::FindProfile(t, v_.profile.c_str());
    if (i < 0) SetupFail("unknown " + std::string(t.algo) + " profile '" + v_.profile + "' (" + nicc::host::ProfileList(t) + ")");
    return i;
  }

  // Checks the vector's expect-status against a Validate() result. Returns
  // true when events should run.
  bool CheckParams(const nicc::Status& st) {
    if (!v_.expect_status_field.empty()) {
      const std::string got_field = st.field ? st.field : "";
      const std::string got_code = st.ok() ? "ok" : StatusName(st.code);
      if (got_field != v_.expect_status_field || got_code != v_.expect_status_code) {
        Failure f;
        f.field = "expect-status";
        f.expected = v_.expect_status_field + " " + v_.expect_status_code;
        f.got = (got_field.empty() ? "-" : got_field) + " " + got_code;
        failures_->push_back(f);
      }
      return false;
    }
    if (!st.ok()) {
      SetupFail(std::string("parameters invalid: ") + (st.field ? st.field : "?") + " " + StatusName(st.code));
      return false;
    }
    return true;
  }

  // Runs `call` (one engine call) between the callgrind requests.
  template <class F>
  void Measured(int index, const Event& e, F call) {
    if (opt_.icount) {
      char name[160];
      std::snprintf(name, sizeof name, "nicc-vec %d %d %s", opt_.file_index, index, e.kind.c_str());
      NICC_VEC_ZERO();
      call();
      NICC_VEC_DUMP(name);
      auto b = v_.bounds.find(e.kind);
      costs_->push_back(EventCost{index, e.kind, b == v_.bounds.end() ? 0 : b->second});
    } else {
      call();
    }
  }

  bool Arg(const Event& e, const char* key, uint64_t max, uint64_t* out, bool required = true) {
    auto it = e.args.find(key);
    if (it == e.args.end()) {
      if (!required) return false;
      AddFailure(e, 0, key, "argument present", "missing");
      return false;
    }
    if (!ParseUint(it->second, max, out)) {
      AddFailure(e, 0, key, "a number", it->second);
      return false;
    }
    return true;
  }

  void AddFailure(const Event& e, int index, const std::string& field, const std::string& want,
                  const std::string& got, int line = 0) {
    Failure f;
    f.event = index;
    f.t_ns = e.t_ns;
    f.kind = e.kind;
    f.field = field;
    f.expected = want;
    f.got = got;
    f.line = line ? line : e.line;
    failures_->push_back(f);
  }

  void Check(const Event& e, int index, const Outputs& out) {
    if (opt_.trace) {
      std::string line = v_.name + " " + std::to_string(index) + " " + e.kind + " flags=" + FlagsText(out.flags) +
                         " status=" + out.status;
      for (const auto& kv : out.num) line += " " + kv.first + "=" + std::to_string(kv.second);
      *opt_.trace += line + "\n";
    }
    for (const Expectation& x : e.expects) {
      if (x.field == "flags") {
        uint8_t want;
        if (!ParseFlags(x.text, &want)) {
          AddFailure(e, index, "flags", "known flag names", x.text, x.line);
        } else if (want != out.flags) {
          AddFailure(e, index, "flags", FlagsText(want), FlagsText(out.flags), x.line);
        }
        continue;
      }
      if (x.field == "status") {
        if (x.text != out.status) AddFailure(e, index, "status", x.text, out.status, x.line);
        continue;
      }
      auto it = out.num.find(x.field);
      if (it == out.num.end()) {
        AddFailure(e, index, x.field, x.text, "(no such output for this event)", x.line);
        continue;
      }
      const int64_t got = it->second;
      bool ok;
      if (x.compare == Compare::kExact) {
        ok = got == x.value;
      } else {
        const double diff = std::fabs(static_cast<double>(got) - static_cast<double>(x.value));
        const double allowed = std::max(x.rel * std::fabs(static_cast<double>(x.value)), static_cast<double>(x.abs));
        ok = diff <= allowed;
      }
      if (!ok) AddFailure(e, index, x.field, x.text, std::to_string(got), x.line);
    }
  }

  // ---- DCQCN --------------------------------------------------------------
  bool RunDcqcn() {
    namespace dq = nicc::dcqcn;
    uint32_t line_rate = 100000;
    for (const auto& kv : v_.params)
      if (kv.first == "line_rate_mbps" && kv.second >= 0 && kv.second <= 0xFFFFFFFFll)
        line_rate = static_cast<uint32_t>(kv.second);
    const int32_t profile = Profile(dq::kParamTable);
    if (profile < 0) return false;
    dq::Params p = dq::Params::Of(static_cast<dq::Profile>(profile), line_rate);
    if (!ApplyParams(dq::kParamTable, &p)) return false;
    if (!CheckParams(p.Validate())) return failures_->empty() || !v_.expect_status_field.empty();
    dq::Config cfg;
    if (!dq::Compile(p, &cfg).ok()) return SetupFail("compile failed");
    dq::RpState rp;
    dq::NpState np;
    dq::RpInit(cfg, &rp);
    dq::NpInit(&np);
    int index = 0;
    for (const Event& e : v_.events) {
      ++index;
      const auto now = static_cast<nicc::TimeNs>(e.t_ns);
      nicc::Action a = nicc::Action::None();
      if (e.kind == "cnp") {
        Measured(index, e, [&] { a = dq::RpOnCnp(cfg, &rp, now); });
      } else if (e.kind == "timer") {
        Measured(index, e, [&] { a = dq::RpOnTimer(cfg, &rp, now); });
      } else if (e.kind == "tx") {
        uint64_t bytes;
        if (!Arg(e, "bytes", 0xFFFFFFFFu, &bytes)) continue;
        Measured(index, e, [&] { a = dq::RpOnTxBytes(cfg, &rp, static_cast<uint32_t>(bytes), now); });
      } else if (e.kind == "rx") {
        uint64_t ce;
        if (!Arg(e, "ce", 1, &ce)) continue;
        Measured(index, e, [&] { a = dq::NpOnPacket(cfg, &np, ce != 0, now); });
      }
      Outputs out;
      out.flags = a.flags;
      out.num["rate_kbps"] = dq::RpRateKbps(cfg, rp);
      if (a.Has(nicc::kActArmTimer)) out.num["timer_ns"] = a.timer_ns;
      out.num["alpha_q20"] = rp.alpha_q20;
      out.num["target_kbps"] = rp.rt_kbps;
      out.num["cnp"] = a.Has(nicc::kActSendCnp) ? 1 : 0;
      Check(e, index, out);
    }
    return true;
  }

  // ---- HPCC ---------------------------------------------------------------
  bool RunHpcc() {
    namespace hp = nicc::hpcc;
    const int32_t profile = Profile(hp::kParamTable);
    if (profile < 0) return false;
    hp::Params p = hp::Params::Of(static_cast<hp::Profile>(profile));
    if (!ApplyParams(hp::kParamTable, &p)) return false;
    if (!CheckParams(p.Validate())) return failures_->empty() || !v_.expect_status_field.empty();
    hp::Config cfg;
    if (!hp::Compile(p, &cfg).ok()) return SetupFail("compile failed");
    hp::State s;
    hp::Init(cfg, &s, static_cast<uint32_t>(v_.seed));
    nicc::hpcc_spray::State ms;  // hpcc-spray: the per-path histories
    nicc::hpcc_spray::Init(cfg, &ms, static_cast<uint32_t>(v_.seed));
    const bool pint = v_.algo == "hpcc-pint";
    const bool multi = v_.algo == "hpcc-spray";
    int index = 0;
    for (const Event& e : v_.events) {
      ++index;
      const auto now = static_cast<nicc::TimeNs>(e.t_ns);
      uint64_t seq, nxt;
      if (!Arg(e, "seq", 0xFFFFFFFFu, &seq)) continue;
      if (!Arg(e, "nxt", 0xFFFFFFFFu, &nxt)) continue;
      nicc::Action a = nicc::Action::None();
      Outputs out;
      if (pint) {
        uint64_t code;
        if (!Arg(e, "u", 255, &code)) continue;
        Measured(index, e, [&] {
          a = hp::OnPintAck(cfg, &s, static_cast<uint32_t>(seq), static_cast<uint32_t>(nxt),
                            static_cast<uint8_t>(code), now);
        });
      } else {
        // The INT stack as on the wire: encoded from hop lines, or raw hex.
        uint8_t buf[64];
        size_t len = 0;
        auto raw = e.args.find("raw");
        if (raw != e.args.end()) {
          const std::string& hex = raw->second;
          if (hex.size() % 2 != 0 || hex.size() / 2 > sizeof buf) {
            AddFailure(e, index, "raw", "even-length hex of at most 64 bytes", hex);
            continue;
          }
          bool bad = false;
          for (size_t i = 0; i < hex.size() / 2; ++i) {
            uint64_t byte;
            if (!ParseUint("0x" + hex.substr(2 * i, 2), 255, &byte)) bad = true;
            buf[i] = static_cast<uint8_t>(byte);
          }
          if (bad) {
            AddFailure(e, index, "raw", "hex digits", hex);
            continue;
          }
          len = hex.size() / 2;
        } else {
          nicc::IntStack st{};
          uint64_t mult = 0;
          Arg(e, "mult", nicc::kIntMaxMultLog2, &mult, /*required=*/false);
          st.mult_log2 = static_cast<uint8_t>(mult);
          st.hop_count = static_cast<uint8_t>(e.hops.size() > 255 ? 255 : e.hops.size());
          if (e.hops.size() > nicc::kIntMaxHops) {
            AddFailure(e, index, "hops", "at most 5 hop lines (use raw= for malformed stacks)",
                       std::to_string(e.hops.size()));
            continue;
          }
          for (size_t i = 0; i < e.hops.size(); ++i) {
            const Hop& h = e.hops[i];
            st.hops[i] = nicc::IntHop::Make(h.rate_code, h.ts_ns, (h.tx_bytes >> mult) / nicc::kIntTxUnitBytes,
                                            (h.qlen_bytes >> mult) / nicc::kIntQlenUnitBytes);
          }
          const nicc::Status es = nicc::EncodeIntStack(st, buf, sizeof buf, &len);
          if (!es.ok()) {
            AddFailure(e, index, "hops", "an encodable stack", StatusName(es.code));
            continue;
          }
        }
        uint64_t ev = 0;
        if (multi && !Arg(e, "ev", 0xFFFF, &ev)) continue;
        nicc::Status ds = nicc::Status::Ok();
        Measured(index, e, [&] {
          nicc::IntStack st;
          ds = nicc::DecodeIntStack(buf, len, &st);
          if (!ds.ok()) return;
          a = multi ? nicc::hpcc_spray::OnAck(cfg, &ms, static_cast<uint32_t>(seq), static_cast<uint32_t>(nxt),
                                              static_cast<uint16_t>(ev), st, now)
                    : hp::OnAck(cfg, &s, static_cast<uint32_t>(seq), static_cast<uint32_t>(nxt), st, now);
        });
        out.status = StatusName(ds.code);
      }
      out.flags = a.flags;
      out.num["window_bytes"] = multi ? nicc::hpcc_spray::WindowBytes(ms) : hp::WindowBytes(s);
      out.num["rate_kbps"] = multi ? nicc::hpcc_spray::RateKbps(cfg, ms) : hp::RateKbps(cfg, s);
      out.num["u_q20"] = multi ? ms.u_q20 : s.u_q20;
      out.num["stage"] = multi ? ms.stage : s.stage;
      Check(e, index, out);
    }
    return true;
  }

  // ---- Spray --------------------------------------------------------------
  bool RunSpray() {
    namespace sp = nicc::spray;
    // A spray vector's `profile` names the policy (spray-default values);
    // its ev_bits default to 3 unless a param line sets them.
    const int32_t policy = nicc::host::FindChoice(sp::kPolicies, sp::kPolicyCount, v_.profile);
    if (policy < 0)
      return SetupFail("unknown spray policy '" + v_.profile + "' (" +
                       nicc::host::ChoiceList(sp::kPolicies, sp::kPolicyCount) + ")");
    sp::Params p = sp::Params::Defaults(static_cast<sp::Policy>(sp::kPolicies[policy].code), 3, 0);
    if (!ApplyParams(sp::kParamTable, &p)) return false;
    if (!CheckParams(p.Validate())) return failures_->empty() || !v_.expect_status_field.empty();
    sp::Config cfg;
    if (!sp::Compile(p, &cfg).ok()) return SetupFail("compile failed");
    sp::SprayState s;
    sp::Init(cfg, &s, v_.seed);
    static const std::map<std::string, sp::Feedback> kinds = {
        {"good", sp::Feedback::kGood}, {"ecn", sp::Feedback::kEcn},
        {"nack", sp::Feedback::kNack}, {"timeout", sp::Feedback::kTimeout},
    };
    int index = 0;
    for (const Event& e : v_.events) {
      ++index;
      const auto now = static_cast<nicc::TimeNs>(e.t_ns);
      Outputs out;
      if (e.kind == "select") {
        nicc::Action a = nicc::Action::None();
        Measured(index, e, [&] { a = sp::Select(cfg, &s, now); });
        out.flags = a.flags;
        out.num["ev"] = a.ev;
      } else {
        uint64_t ev, rtt = 0;
        if (!Arg(e, "ev", 0xFFFF, &ev)) continue;
        Arg(e, "rtt", 0xFFFFFFFFu, &rtt, /*required=*/false);
        auto k = e.args.find("kind");
        if (k == e.args.end() || !kinds.count(k->second)) {
          AddFailure(e, index, "kind", "good|ecn|nack|timeout", k == e.args.end() ? "missing" : k->second);
          continue;
        }
        const sp::Feedback kind = kinds.at(k->second);
        Measured(index, e, [&] {
          sp::OnFeedback(cfg, &s, static_cast<uint16_t>(ev), kind, static_cast<uint32_t>(rtt), now);
        });
      }
      Check(e, index, out);
    }
    return true;
  }

  // ---- ECN path rule --------------------------------------------------------
  // One flow's ecn_path::State: `send ev=PORT` (OnSend), `ack rtt=NS`
  // (OnRtt), `mark` (OnMark: its verdict and blamed port are the outputs).
  bool RunEcnPath() {
    namespace ep = nicc::ecn_path;
    const int32_t profile = Profile(ep::kParamTable);
    if (profile < 0) return false;
    ep::Rule rule = ep::Rule::Of(static_cast<ep::Profile>(profile));
    if (!ApplyParams(ep::kParamTable, &rule)) return false;
    if (!CheckParams(rule.Validate())) return failures_->empty() || !v_.expect_status_field.empty();
    ep::State s;
    ep::Init(&s);
    int index = 0;
    for (const Event& e : v_.events) {
      ++index;
      Outputs out;
      if (e.kind == "send") {
        uint64_t ev;
        if (!Arg(e, "ev", 0xFFFF, &ev)) continue;
        Measured(index, e, [&] { ep::OnSend(&s, static_cast<uint16_t>(ev)); });
      } else if (e.kind == "ack") {
        uint64_t rtt;
        if (!Arg(e, "rtt", 0xFFFFFFFFu, &rtt)) continue;
        Measured(index, e, [&] { ep::OnRtt(&s, static_cast<uint32_t>(rtt)); });
      } else if (e.kind == "mark") {
        ep::Decision d{};
        Measured(index, e, [&] { d = ep::OnMark(rule, s); });
        out.num["change_path"] = d.verdict == ep::Verdict::kChangePath ? 1 : 0;
        out.num["to_cc"] = d.verdict == ep::Verdict::kToCc ? 1 : 0;
        out.num["ev"] = d.ev;
      }
      out.num["last_rtt_ns"] = s.last_rtt_ns;
      Check(e, index, out);
    }
    return true;
  }

  // ---- NSCC -----------------------------------------------------------------
  // One flow: `ack seq=N nxt=N bytes=N ecn=0|1 rtt=NS [ev=PORT]` (OnAck) and
  // `nack bytes=N nxt=N` (OnNack, a NACK or a trimmed-packet notice).
  bool RunNscc() {
    namespace ns = nicc::nscc;
    const int32_t profile = Profile(ns::kParamTable);
    if (profile < 0) return false;
    ns::Params p = ns::Params::Of(static_cast<ns::Profile>(profile));
    if (!ApplyParams(ns::kParamTable, &p)) return false;
    if (!CheckParams(p.Validate())) return failures_->empty() || !v_.expect_status_field.empty();
    ns::Config cfg;
    if (!ns::Compile(p, &cfg).ok()) return SetupFail("compile failed");
    ns::State s;
    ns::Init(cfg, &s);
    int index = 0;
    for (const Event& e : v_.events) {
      ++index;
      const auto now = static_cast<nicc::TimeNs>(e.t_ns);
      nicc::Action a = nicc::Action::None();
      uint64_t bytes, nxt;
      if (!Arg(e, "bytes", 0xFFFFFFFFu, &bytes)) continue;
      if (!Arg(e, "nxt", 0xFFFFFFFFu, &nxt)) continue;
      if (e.kind == "ack") {
        uint64_t seq, ecn, rtt, ev = 0;
        if (!Arg(e, "seq", 0xFFFFFFFFu, &seq)) continue;
        if (!Arg(e, "ecn", 1, &ecn)) continue;
        if (!Arg(e, "rtt", 0xFFFFFFFFu, &rtt)) continue;
        Arg(e, "ev", 0xFFFF, &ev, /*required=*/false);
        Measured(index, e, [&] {
          a = ns::OnAck(cfg, &s, static_cast<uint32_t>(seq), static_cast<uint32_t>(nxt),
                        static_cast<uint32_t>(bytes), ecn != 0, static_cast<uint16_t>(ev),
                        static_cast<uint32_t>(rtt), now);
        });
      } else {
        Measured(index, e, [&] {
          a = ns::OnNack(cfg, &s, static_cast<uint32_t>(bytes), static_cast<uint32_t>(nxt), now);
        });
      }
      Outputs out;
      out.flags = a.flags;
      out.num["window_bytes"] = ns::WindowBytes(s);
      out.num["rate_kbps"] = ns::RateKbps(cfg, s);
      out.num["avg_delay_ns"] = s.avg_delay_ns;
      if (a.Has(nicc::kActChangeEv)) out.num["ev"] = a.ev;
      Check(e, index, out);
    }
    return true;
  }

  // ---- RCCC -----------------------------------------------------------------
  // One receiving port (PortInit) with up to kRcccFlows receiving flows and
  // one combined nscc+rccc sender (NSCC uec-default on rccc's line rate):
  //   rx flow=F seq=END backlog=B bytes=N   RxOnData
  //   close flow=F                          RxClose
  //   open seq=S                            SenderInit
  //   ack seq= nxt= bytes= ecn= rtt= ev= credit=   SenderOnAck
  //   nack bytes= nxt=                      SenderOnNack
  static constexpr uint32_t kRcccFlows = 64;
  bool RunRccc() {
    namespace rc = nicc::rccc;
    namespace ns = nicc::nscc;
    const int32_t profile = Profile(rc::kParamTable);
    if (profile < 0) return false;
    rc::Params p = rc::Params::Of(static_cast<rc::Profile>(profile));
    // `param NAME V` sets an rccc row; `param nscc.NAME V` one of the
    // sender's NSCC rows (uec-default on rccc's line rate).
    std::vector<std::pair<std::string, int64_t>> nscc_params;
    for (const auto& kv : v_.params) {
      if (kv.first.rfind("nscc.", 0) == 0) {
        nscc_params.emplace_back(kv.first.substr(5), kv.second);
        continue;
      }
      const int32_t i = nicc::FindParam(rc::kParamTable, kv.first.c_str());
      if (i < 0) return SetupFail("unknown param '" + kv.first + "' for rccc");
      if (kv.second < 0 || kv.second > 0xFFFFFFFFll) return SetupFail("param " + kv.first + " out of 32-bit range");
      p.*(rc::kParamTable.rows[i].member) = static_cast<uint32_t>(kv.second);
    }
    if (!CheckParams(p.Validate())) return failures_->empty() || !v_.expect_status_field.empty();
    rc::Config cfg;
    if (!rc::Compile(p, &cfg).ok()) return SetupFail("compile failed");
    ns::Params np = ns::Params::UecDefault();
    np.line_rate_mbps = p.line_rate_mbps;
    for (const auto& kv : nscc_params) {
      const int32_t i = nicc::FindParam(ns::kParamTable, kv.first.c_str());
      if (i < 0) return SetupFail("unknown param 'nscc." + kv.first + "' for rccc");
      if (kv.second < 0 || kv.second > 0xFFFFFFFFll)
        return SetupFail("param nscc." + kv.first + " out of 32-bit range");
      np.*(ns::kParamTable.rows[i].member) = static_cast<uint32_t>(kv.second);
    }
    ns::Config ncfg;
    if (!ns::Compile(np, &ncfg).ok()) return SetupFail("nscc parameters invalid");
    rc::PortState port;
    rc::PortInit(cfg, &port);
    rc::RxFlowState flows[kRcccFlows];
    for (rc::RxFlowState& f : flows) rc::RxInit(&f);
    rc::SenderState snd;
    bool opened = false;
    int index = 0;
    for (const Event& e : v_.events) {
      ++index;
      const auto now = static_cast<nicc::TimeNs>(e.t_ns);
      nicc::Action a = nicc::Action::None();
      Outputs out;
      if (e.kind == "rx" || e.kind == "close") {
        uint64_t flow;
        if (!Arg(e, "flow", kRcccFlows - 1, &flow)) continue;
        rc::RxFlowState* rx = &flows[flow];
        if (e.kind == "rx") {
          uint64_t seq, backlog, bytes;
          if (!Arg(e, "seq", 0xFFFFFFFFu, &seq)) continue;
          if (!Arg(e, "backlog", 0xFFFFFFFFu, &backlog)) continue;
          if (!Arg(e, "bytes", 0xFFFFFFFFu, &bytes)) continue;
          Measured(index, e, [&] {
            a = rc::RxOnData(cfg, &port, rx, static_cast<uint32_t>(seq), static_cast<uint32_t>(backlog));
          });
          out.num["credit"] = a.window_bytes;
        } else {
          Measured(index, e, [&] { rc::RxClose(&port, rx); });
        }
        out.flags = a.flags;
        out.num["active"] = port.active;
        out.num["share_bytes"] = port.share_bytes;
        Check(e, index, out);
        continue;
      }
      uint64_t seq = 0, bytes = 0, nxt = 0;
      if (e.kind == "open") {
        if (!Arg(e, "seq", 0xFFFFFFFFu, &seq)) continue;
        Measured(index, e, [&] { rc::SenderInit(ncfg, cfg, &snd, static_cast<uint32_t>(seq)); });
        opened = true;
      } else {
        if (!opened) {
          AddFailure(e, index, "sender", "an open event first", e.kind);
          continue;
        }
        if (!Arg(e, "bytes", 0xFFFFFFFFu, &bytes)) continue;
        if (!Arg(e, "nxt", 0xFFFFFFFFu, &nxt)) continue;
        if (e.kind == "ack") {
          uint64_t ecn, rtt, credit, ev = 0;
          if (!Arg(e, "seq", 0xFFFFFFFFu, &seq)) continue;
          if (!Arg(e, "ecn", 1, &ecn)) continue;
          if (!Arg(e, "rtt", 0xFFFFFFFFu, &rtt)) continue;
          if (!Arg(e, "credit", 0xFFFFFFFFu, &credit)) continue;
          Arg(e, "ev", 0xFFFF, &ev, /*required=*/false);
          Measured(index, e, [&] {
            a = rc::SenderOnAck(ncfg, &snd, static_cast<uint32_t>(seq), static_cast<uint32_t>(nxt),
                                static_cast<uint32_t>(bytes), ecn != 0, static_cast<uint16_t>(ev),
                                static_cast<uint32_t>(rtt), static_cast<uint32_t>(credit), now);
          });
        } else {
          Measured(index, e, [&] {
            a = rc::SenderOnNack(ncfg, &snd, static_cast<uint32_t>(bytes), static_cast<uint32_t>(nxt), now);
          });
        }
      }
      out.flags = a.flags;
      out.num["window_bytes"] = rc::SenderWindowBytes(snd);
      out.num["nscc_window_bytes"] = ns::WindowBytes(snd.nscc);
      out.num["credit"] = snd.credit;
      out.num["rate_kbps"] = ns::RateKbps(ncfg, snd.nscc);
      if (a.Has(nicc::kActChangeEv)) out.num["ev"] = a.ev;
      if (a.Has(nicc::kActSetWindow)) out.num["action_window_bytes"] = a.window_bytes;
      Check(e, index, out);
    }
    return true;
  }

  const VectorFile& v_;
  const RunOptions& opt_;
  std::vector<Failure>* failures_;
  std::vector<EventCost>* costs_;
};

}  // namespace

std::string Failure::ToString(const std::string& path) const {
  std::string s = path;
  if (line) s += ":" + std::to_string(line);
  s += ": ";
  if (event) s += "event " + std::to_string(event) + " (at " + std::to_string(t_ns) + " " + kind + "): ";
  if (field == "setup") return s + got;
  return s + field + " expected " + expected + " got " + got;
}

bool RunVector(const VectorFile& v, const RunOptions& opt, std::vector<Failure>* failures,
               std::vector<EventCost>* costs) {
  return Runner(v, opt, failures, costs).Run();
}

}  // namespace nicc_vectors
