// emit_c.cc — writes conformance vectors as C data for nicc/fw_vector.h.
//
// Each algorithm is one row of kAlgos: the C ABI's CC kind, a function that
// writes its parameters (the profile's values with the vector's `param`
// lines applied, every row of its table: no field list), and a function that
// turns one event into one step (nicc_fw_event). Everything else (the
// expectations, parameter-error vectors, the output) is shared.
#include "emit_c.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <sstream>

#include "nicc/dcqcn.h"
#include "nicc/ecn_path.h"
#include "nicc/hpcc.h"
#include "nicc/host/param_registry.h"
#include "nicc/int_codec.h"
#include "nicc/nscc.h"
#include "nicc/params.h"
#include "nicc/rccc.h"
#include "nicc/spray.h"

namespace nicc_vectors {

namespace {

bool Fail(std::string* why, const std::string& text) {
  *why = text;
  return false;
}

// A C identifier from a vector name: other characters become '_', and a
// name that starts with a digit gets a 'v' in front.
std::string Ident(const std::string& name) {
  std::string id = !name.empty() && std::isdigit(static_cast<unsigned char>(name[0])) ? "v" : "";
  for (char c : name) id += (std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
  return id;
}

// `text` as a C string literal: quote, backslash and '?' (trigraphs, on
// under -std=c99) escaped, bytes outside printable ASCII as octal escapes.
std::string CString(const std::string& text) {
  std::string out = "\"";
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\' || c == '?') {
      out += '\\';
      out += ch;
    } else if (c < 0x20 || c > 0x7e) {
      const char oct[] = {'\\', static_cast<char>('0' + (c >> 6)), static_cast<char>('0' + ((c >> 3) & 7)),
                          static_cast<char>('0' + (c & 7)), 0};
      out += oct;
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

// ---- parameters -------------------------------------------------------------

// `p-><table>.<row> = <value>u;` for every row of table t, after the
// vector's param lines are applied to `p` (the struct member of
// nicc_fw_params carries the table's name).
template <class P>
bool TableLines(const VectorFile& v, const nicc::ParamTable<P>& t, P p, std::ostringstream& o, std::string* why) {
  for (const auto& kv : v.params) {
    const int32_t i = nicc::FindParam(t, kv.first.c_str());
    if (i < 0) return Fail(why, "unknown param '" + kv.first + "' for " + v.algo + " (table " + t.algo + ")");
    if (kv.second < 0 || kv.second > 0xFFFFFFFFll) return Fail(why, "param " + kv.first + " out of 32-bit range");
    p.*(t.rows[i].member) = static_cast<uint32_t>(kv.second);
  }
  for (uint32_t i = 0; i < t.count; ++i)
    o << "  p->" << t.algo << "." << t.rows[i].name << " = " << p.*(t.rows[i].member) << "u;\n";
  return true;
}

// The vector's profile of table t (of(index) builds it), then TableLines.
template <class P, class Of>
bool ProfileLines(const VectorFile& v, const nicc::ParamTable<P>& t, Of of, std::ostringstream& o,
                  std::string* why) {
  const int32_t i = nicc::FindProfile(t, v.profile.c_str());
  if (i < 0)
    return Fail(why, "unknown " + std::string(t.algo) + " profile '" + v.profile + "' (" +
                         nicc::host::ProfileList(t) + ")");
  return TableLines(v, t, of(i), o, why);
}

bool DcqcnParams(const VectorFile& v, std::ostringstream& o, std::string* why) {
  namespace dq = nicc::dcqcn;
  uint32_t rate = 100000;  // the profile's derived fields follow the line rate
  for (const auto& kv : v.params)
    if (kv.first == "line_rate_mbps" && kv.second >= 0 && kv.second <= 0xFFFFFFFFll)
      rate = static_cast<uint32_t>(kv.second);
  const auto of = [rate](int32_t i) { return dq::Params::Of(static_cast<dq::Profile>(i), rate); };
  return ProfileLines(v, dq::kParamTable, of, o, why);
}

// HPCC, HPCC-PINT and sprayed HPCC run on HPCC's parameters (docs/hpcc.md).
bool HpccParams(const VectorFile& v, std::ostringstream& o, std::string* why) {
  namespace hp = nicc::hpcc;
  return ProfileLines(v, hp::kParamTable, [](int32_t i) { return hp::Params::Of(static_cast<hp::Profile>(i)); }, o,
                      why);
}

bool NsccParams(const VectorFile& v, std::ostringstream& o, std::string* why) {
  namespace ns = nicc::nscc;
  return ProfileLines(v, ns::kParamTable, [](int32_t i) { return ns::Params::Of(static_cast<ns::Profile>(i)); }, o,
                      why);
}

// nscc+rccc: the port's RCCC rows, and its one sender's NSCC rows (NSCC's
// uec-default; `param nscc.NAME`, and RCCC's line rate, which the sender
// shares).
bool RcccParams(const VectorFile& v, std::ostringstream& o, std::string* why) {
  namespace rc = nicc::rccc;
  VectorFile port = v, sender = v;
  port.params.clear();
  sender.params.clear();
  for (const auto& kv : v.params) {
    if (kv.first.rfind("nscc.", 0) == 0) {
      sender.params.emplace_back(kv.first.substr(5), kv.second);
    } else {
      port.params.push_back(kv);
      if (kv.first == "line_rate_mbps") sender.params.push_back(kv);
    }
  }
  return ProfileLines(port, rc::kParamTable, [](int32_t i) { return rc::Params::Of(static_cast<rc::Profile>(i)); },
                      o, why) &&
         TableLines(sender, nicc::nscc::kParamTable, nicc::nscc::Params::UecDefault(), o, why);
}

bool EcnPathParams(const VectorFile& v, std::ostringstream& o, std::string* why) {
  namespace ep = nicc::ecn_path;
  return ProfileLines(v, ep::kParamTable, [](int32_t i) { return ep::Rule::Of(static_cast<ep::Profile>(i)); }, o,
                      why);
}

// A spray vector's profile names the policy (spray-default values, ev_bits 3).
bool SprayParams(const VectorFile& v, std::ostringstream& o, std::string* why) {
  namespace sp = nicc::spray;
  const int32_t index = nicc::host::FindChoice(sp::kPolicies, sp::kPolicyCount, v.profile);
  if (index < 0)
    return Fail(why, "unknown spray policy '" + v.profile + "' (" +
                         nicc::host::ChoiceList(sp::kPolicies, sp::kPolicyCount) + ")");
  const uint32_t code = sp::kPolicies[index].code;
  o << "  p->spray.policy = " << code << "u;\n";
  return TableLines(v, sp::kParamTable, sp::Params::Defaults(static_cast<sp::Policy>(code), 3, 0), o, why);
}

// ---- events -------------------------------------------------------------------

// One vector event as a nicc_fw_vec_step's operation and event.
struct Step {
  const char* op = "NICC_FW_VEC_OP_EVENT";
  const char* kind = "NICC_FW_EV_TX_DONE";
  uint64_t bytes = 0, seq = 0, nxt = 0, rtt = 0, ev = 0, ecn = 0, pint = 0, has_pint = 0, credit = 0;
  uint64_t flow = 0;  // nscc+rccc: the receiver context of rx / close
  bool grant = false;  // the step's `credit` expectation is the action's grant
  std::string int_ref = "0";  // name of the INT byte array, or 0
  size_t int_len = 0;
};

// What an event function reads and where it may declare arrays.
struct EventIn {
  const VectorFile& v;
  const Event& e;
  std::string array;     // a unique C name for an array this event needs
  std::ostringstream& decls;
};

// `key=value` of the event, at most `max`; a missing optional key is 0.
bool Arg(const EventIn& in, const char* key, uint64_t max, uint64_t* out, std::string* why, bool required = true) {
  *out = 0;
  auto it = in.e.args.find(key);
  if (it == in.e.args.end())
    return required ? Fail(why, "line " + std::to_string(in.e.line) + ": " + in.e.kind + " needs " + key + "=")
                    : true;
  if (!ParseUint(it->second, max, out))
    return Fail(why, "line " + std::to_string(in.e.line) + ": " + key + "=" + it->second + " is not a number <= " +
                         std::to_string(max));
  return true;
}

bool Unknown(const EventIn& in, std::string* why) {
  return Fail(why, "line " + std::to_string(in.e.line) + ": no C step for " + in.v.algo + " event '" + in.e.kind + "'");
}

bool DcqcnEvent(const EventIn& in, Step* s, std::string* why) {
  const std::string& k = in.e.kind;
  if (k == "cnp") s->kind = "NICC_FW_EV_CNP";
  else if (k == "timer") s->kind = "NICC_FW_EV_TIMER";
  else if (k == "tx") return Arg(in, "bytes", 0xFFFFFFFFu, &s->bytes, why);
  else if (k == "rx") return (s->kind = "NICC_FW_EV_RX_DATA"), Arg(in, "ce", 1, &s->ecn, why);
  else return Unknown(in, why);
  return true;
}

// HPCC and sprayed HPCC: the INT stack as wire bytes (encoded from the hop
// lines, or the raw= hex as given), in an array the step points at.
bool IntAck(const EventIn& in, Step* s, bool with_ev, std::string* why) {
  if (in.e.kind != "ack") return Unknown(in, why);
  s->kind = "NICC_FW_EV_ACK";
  if (!Arg(in, "seq", 0xFFFFFFFFu, &s->seq, why) || !Arg(in, "nxt", 0xFFFFFFFFu, &s->nxt, why)) return false;
  if (with_ev && !Arg(in, "ev", 0xFFFF, &s->ev, why)) return false;  // the path the stack feeds
  uint8_t buf[64];
  auto raw = in.e.args.find("raw");
  if (raw != in.e.args.end()) {
    const std::string& hex = raw->second;
    if (hex.size() % 2 != 0 || hex.size() / 2 > sizeof buf)
      return Fail(why, "line " + std::to_string(in.e.line) + ": raw= needs even-length hex of at most 64 bytes");
    s->int_len = hex.size() / 2;
    for (size_t b = 0; b < s->int_len; ++b) {
      uint64_t byte = 0;
      if (!ParseUint("0x" + hex.substr(2 * b, 2), 255, &byte))
        return Fail(why, "line " + std::to_string(in.e.line) + ": raw= is not hex");
      buf[b] = static_cast<uint8_t>(byte);
    }
  } else {
    uint64_t mult = 0;
    if (!Arg(in, "mult", nicc::kIntMaxMultLog2, &mult, why, /*required=*/false)) return false;
    if (in.e.hops.size() > nicc::kIntMaxHops)
      return Fail(why, "line " + std::to_string(in.e.line) + ": more than 5 hop lines");
    nicc::IntStack st{};
    st.mult_log2 = static_cast<uint8_t>(mult);
    st.hop_count = static_cast<uint8_t>(in.e.hops.size());
    for (size_t h = 0; h < in.e.hops.size(); ++h) {
      const Hop& hop = in.e.hops[h];
      st.hops[h] = nicc::IntHop::Make(hop.rate_code, hop.ts_ns, (hop.tx_bytes >> mult) / nicc::kIntTxUnitBytes,
                                      (hop.qlen_bytes >> mult) / nicc::kIntQlenUnitBytes);
    }
    if (!nicc::EncodeIntStack(st, buf, sizeof buf, &s->int_len).ok())
      return Fail(why, "line " + std::to_string(in.e.line) + ": INT stack does not encode");
  }
  // An empty stack is still a stack (the codec's truncated), not "no INT":
  // one byte of storage, int_len 0 (C has no empty arrays).
  in.decls << "static const uint8_t " << in.array << "[" << std::max<size_t>(s->int_len, 1) << "] = {";
  for (size_t b = 0; b < s->int_len; ++b) in.decls << (b ? "," : "") << static_cast<unsigned>(buf[b]);
  in.decls << (s->int_len == 0 ? "0};\n" : "};\n");
  s->int_ref = in.array;
  return true;
}

bool HpccEvent(const EventIn& in, Step* s, std::string* why) { return IntAck(in, s, false, why); }
bool HpccSprayEvent(const EventIn& in, Step* s, std::string* why) { return IntAck(in, s, true, why); }

bool HpccPintEvent(const EventIn& in, Step* s, std::string* why) {
  if (in.e.kind != "ack") return Unknown(in, why);
  s->kind = "NICC_FW_EV_ACK";
  s->has_pint = 1;
  return Arg(in, "seq", 0xFFFFFFFFu, &s->seq, why) && Arg(in, "nxt", 0xFFFFFFFFu, &s->nxt, why) &&
         Arg(in, "u", 255, &s->pint, why);
}

// `select` is nicc_fw_select_ev; feedback arrives as the event that carries
// it (good/ecn: an ACK, nack, timeout) with the port it names.
bool SprayEvent(const EventIn& in, Step* s, std::string* why) {
  if (in.e.kind == "select") return (s->op = "NICC_FW_VEC_OP_SELECT"), true;
  if (in.e.kind != "feedback") return Unknown(in, why);
  const auto k = in.e.args.find("kind");
  const std::string kind = k == in.e.args.end() ? "" : k->second;
  if (kind == "good" || kind == "ecn") s->kind = "NICC_FW_EV_ACK", s->ecn = (kind == "ecn");
  else if (kind == "nack") s->kind = "NICC_FW_EV_NACK";
  else if (kind == "timeout") s->kind = "NICC_FW_EV_TIMEOUT";
  else return Fail(why, "line " + std::to_string(in.e.line) + ": feedback kind= must be good|ecn|nack|timeout");
  return Arg(in, "ev", 0xFFFF, &s->ev, why) && Arg(in, "rtt", 0xFFFFFFFFu, &s->rtt, why, /*required=*/false);
}

// NSCC: an ACK with its bytes, ECN echo, RTT sample and port; a NACK or a
// trimmed-packet notice with the bytes lost and snd_nxt.
bool NsccEvent(const EventIn& in, Step* s, std::string* why) {
  if (!Arg(in, "bytes", 0xFFFFFFFFu, &s->bytes, why) || !Arg(in, "nxt", 0xFFFFFFFFu, &s->nxt, why)) return false;
  if (in.e.kind == "nack") return (s->kind = "NICC_FW_EV_NACK"), true;
  if (in.e.kind != "ack") return Unknown(in, why);
  s->kind = "NICC_FW_EV_ACK";
  return Arg(in, "seq", 0xFFFFFFFFu, &s->seq, why) && Arg(in, "ecn", 1, &s->ecn, why) &&
         Arg(in, "rtt", 0xFFFFFFFFu, &s->rtt, why) && Arg(in, "ev", 0xFFFF, &s->ev, why, /*required=*/false);
}

// nscc+rccc: receivers on one port (rx: the packet's end, payload and the
// sender's backlog end; close), and the one sender (open at a sequence; ACKs
// carrying the receiver's credit; NACKs).
bool RcccEvent(const EventIn& in, Step* s, std::string* why) {
  const std::string& k = in.e.kind;
  const uint64_t kMax = 0xFFFFFFFFu;
  if (k == "rx") {
    s->kind = "NICC_FW_EV_RX_DATA", s->grant = true;
    return Arg(in, "flow", 63, &s->flow, why) && Arg(in, "seq", kMax, &s->seq, why) &&
           Arg(in, "bytes", kMax, &s->bytes, why) && Arg(in, "backlog", kMax, &s->nxt, why);
  }
  if (k == "close") return (s->op = "NICC_FW_VEC_OP_RX_CLOSE"), Arg(in, "flow", 63, &s->flow, why);
  if (k == "open") return (s->op = "NICC_FW_VEC_OP_OPEN"), Arg(in, "seq", kMax, &s->seq, why);
  if (k == "nack") {
    s->kind = "NICC_FW_EV_NACK";
    return Arg(in, "bytes", kMax, &s->bytes, why) && Arg(in, "nxt", kMax, &s->nxt, why);
  }
  if (k != "ack") return Unknown(in, why);
  s->kind = "NICC_FW_EV_ACK";
  return Arg(in, "seq", kMax, &s->seq, why) && Arg(in, "nxt", kMax, &s->nxt, why) &&
         Arg(in, "bytes", kMax, &s->bytes, why) && Arg(in, "ecn", 1, &s->ecn, why, false) &&
         Arg(in, "rtt", kMax, &s->rtt, why, false) && Arg(in, "ev", 0xFFFF, &s->ev, why, false) &&
         Arg(in, "credit", kMax, &s->credit, why, false);
}

// The ECN path rule has no event of its own in the C ABI: `send ev=PORT`
// names a port that nicc_fw_select_ev picks by the spray policy, and a
// mark's verdict and blamed port are not outputs of nicc_fw_on_event. Its
// parameter errors are (nicc_fw_params.ecn_rule).
bool EcnPathEvent(const EventIn& in, Step*, std::string* why) {
  return Fail(why, "line " + std::to_string(in.e.line) +
                       ": ecn_path events have no C ABI call (the port of `send` is the spray policy's choice, "
                       "a mark's verdict is not an output); only its parameter-error vectors are emitted");
}

// ---- the algorithms -------------------------------------------------------------

using ParamsFn = bool (*)(const VectorFile&, std::ostringstream&, std::string*);
using EventFn = bool (*)(const EventIn&, Step*, std::string*);

struct AlgoRow {
  const char* algo;  // the vector's `algo` line
  const char* cc;    // nicc_fw_params.cc
  ParamsFn params;   // every parameter the algorithm's vectors set
  EventFn event;     // one event -> one step
};

const AlgoRow kAlgos[] = {
    {"dcqcn", "NICC_FW_CC_DCQCN", DcqcnParams, DcqcnEvent},
    {"hpcc", "NICC_FW_CC_HPCC", HpccParams, HpccEvent},
    {"hpcc-pint", "NICC_FW_CC_HPCC_PINT", HpccParams, HpccPintEvent},
    {"hpcc-spray", "NICC_FW_CC_HPCC_SPRAY", HpccParams, HpccSprayEvent},
    {"spray", "NICC_FW_CC_NONE", SprayParams, SprayEvent},
    {"nscc", "NICC_FW_CC_NSCC", NsccParams, NsccEvent},
    {"rccc", "NICC_FW_CC_NSCC_RCCC", RcccParams, RcccEvent},
    {"ecn_path", "NICC_FW_CC_DCQCN", EcnPathParams, EcnPathEvent},  // the rule applies to CNPs
};

const AlgoRow* FindAlgo(const std::string& algo) {
  for (const AlgoRow& r : kAlgos)
    if (algo == r.algo) return &r;
  return nullptr;
}

// ---- expectations ------------------------------------------------------------------

// The allowed difference, saturated at the C field's 2^32 - 1 (a wider
// one allows every value just the same); a double past that has no
// uint32_t conversion.
uint32_t Tol(const Expectation& x) {
  if (x.compare == Compare::kExact) return 0;
  const double t = std::max(x.rel * std::fabs(static_cast<double>(x.value)), static_cast<double>(x.abs));
  return t >= 4294967295.0 ? 0xFFFFFFFFu : static_cast<uint32_t>(std::floor(t));
}

// Code of a status name from the one status table; -1 if unknown.
int StatusCode(const std::string& s) {
  for (const nicc::ChoiceDesc& c : nicc::kStatusCodes)
    if (s == c.name) return static_cast<int>(c.code);
  return -1;
}

uint32_t FlagBits(const std::string& text, bool* ok) {
  *ok = true;
  if (text == "none") return 0;
  uint32_t bits = 0;
  std::stringstream ss(text);
  std::string name;
  while (std::getline(ss, name, ',')) {
    uint32_t bit = 0;
    for (const nicc::ActionFlagName& n : nicc::kActionFlagNames)
      if (name == n.name) bit = n.bit;
    if (bit == 0) {
      *ok = false;
      return 0;
    }
    bits |= bit;
  }
  return bits;
}

// The step's expectations that the C API can observe: the action's flags,
// timer and ev (a select's port, or the port a change_ev moves off), the
// flow's rate and window, the call's status, a receiver's credit grant.
// Internal state (alpha_q20, u_q20, stage, avg_delay_ns, RCCC's share and
// the sender's credit ...) is the host runner's to check.
bool Expectations(const Event& e, const Step& s, std::ostringstream& o, std::string* why) {
  uint32_t check = 0, flags = 0, rate = 0, rate_tol = 0, win = 0, win_tol = 0, ev = 0, timer = 0, credit = 0;
  int status = 0;
  for (const Expectation& x : e.expects) {
    bool ok = true;
    if (x.field == "flags") check |= 1, flags = FlagBits(x.text, &ok);
    else if (x.field == "rate_kbps") check |= 2, rate = static_cast<uint32_t>(x.value), rate_tol = Tol(x);
    else if (x.field == "window_bytes") check |= 4, win = static_cast<uint32_t>(x.value), win_tol = Tol(x);
    else if (x.field == "ev") check |= 8, ev = static_cast<uint32_t>(x.value);
    else if (x.field == "timer_ns") check |= 16, timer = static_cast<uint32_t>(x.value);
    else if (x.field == "status") check |= 32, status = StatusCode(x.text), ok = status >= 0;
    else if (x.field == "credit" && s.grant) check |= 64, credit = static_cast<uint32_t>(x.value);
    if (!ok) return Fail(why, "line " + std::to_string(x.line) + ": cannot express '" + x.text + "' in C");
  }
  o << check << "u, " << flags << "u, " << status << ", " << rate << "u, " << rate_tol << "u, " << win << "u, "
    << win_tol << "u, " << ev << "u, " << timer << "u, " << s.flow << "u, " << credit << "u";
  return true;
}

// Writes one vector: its INT arrays, params function, steps and the
// nicc_fw_vector named `var`.
bool EmitOne(const VectorFile& v, const std::string& var, std::ostringstream& o, std::string* why) {
  const AlgoRow* row = FindAlgo(v.algo);
  if (row == nullptr) return Fail(why, "unknown algo " + v.algo);
  const std::string id = Ident(v.name);
  std::ostringstream params, decls, steps;
  params << "  p->cc = " << row->cc << ";\n";
  if (!row->params(v, params, why)) return false;
  // A parameter-error vector runs no events: nicc_fw_configure must refuse
  // its parameters with the code and field the vector states.
  const bool error_vector = !v.expect_status_field.empty();
  int status = 0;
  if (error_vector && (status = StatusCode(v.expect_status_code)) <= 0)
    return Fail(why, "expect-status code '" + v.expect_status_code + "' is not an error status");
  uint32_t n = 0;
  for (size_t i = 0; i < v.events.size() && !error_vector; ++i) {
    const Event& e = v.events[i];
    Step s;
    if (!row->event(EventIn{v, e, id + "_int" + std::to_string(i), decls}, &s, why)) return false;
    steps << "  {" << static_cast<uint32_t>(e.t_ns) << "u, " << s.op << ", {" << s.int_ref << ", " << s.bytes
          << "u, " << s.seq << "u, " << s.nxt << "u, " << s.rtt << "u, " << s.int_len << ", " << s.ev << ", "
          << s.kind << ", " << s.ecn << ", " << s.pint << ", " << s.has_pint << ", " << s.credit << "u}, ";
    if (!Expectations(e, s, steps, why)) return false;
    steps << "},\n";
    ++n;
  }
  o << decls.str() << "\nstatic void " << id << "_params(nicc_fw_params* p) {\n"
    << "  nicc_fw_params_default(p, 100000);\n"
    << params.str() << "}\n\n";
  if (n > 0) o << "static const nicc_fw_vec_step " << id << "_steps[] = {\n" << steps.str() << "};\n\n";
  o << "static const nicc_fw_vector " << var << " = {" << CString(v.name) << ", " << id << "_params, " << v.seed
    << "u, " << v.seed << "u, " << (n > 0 ? id + "_steps" : "0") << ", " << n << "u, " << status << ", "
    << (error_vector ? CString(v.expect_status_field) : "0") << "};\n";
  return true;
}

const char kHeader[] = "#include \"nicc/fw_vector.h\"\n\n";

}  // namespace

bool EmitC(const VectorFile& v, std::string* out, std::string* why) {
  std::ostringstream o;
  o << "/* Generated by nicc-vectors --emit-c from " << v.path << " — do not edit. */\n" << kHeader;
  if (!EmitOne(v, "nicc_vec", o, why)) return false;
  *out = o.str();
  return true;
}

bool EmitCSuite(const std::vector<VectorFile>& vs, std::string* out, std::string* why) {
  if (vs.empty()) return Fail(why, "no vectors");
  std::ostringstream o, list;
  o << "/* Generated by nicc-vectors --emit-c from " << vs.size() << " vectors — do not edit. */\n" << kHeader;
  std::set<std::string> ids;
  for (const VectorFile& v : vs) {
    const std::string var = Ident(v.name) + "_vec";
    if (!ids.insert(var).second) return Fail(why, v.path + ": vector name " + v.name + " used twice");
    std::string one;
    if (!EmitOne(v, var, o, &one)) return Fail(why, v.path + ": " + one);
    o << "\n";
    list << "  &" << var << ",\n";
  }
  o << "static const nicc_fw_vector* const nicc_vecs[] = {\n"
    << list.str() << "};\n"
    << "#define NICC_VEC_COUNT " << vs.size() << "u\n";
  *out = o.str();
  return true;
}

}  // namespace nicc_vectors
