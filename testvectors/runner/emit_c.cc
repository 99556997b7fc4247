// emit_c.cc — writes a conformance vector as C data for nicc/fw_vector.h.
#include "emit_c.h"

#include <cctype>
#include <cmath>
#include <map>
#include <sstream>

#include "nicc/dcqcn.h"
#include "nicc/hpcc.h"
#include "nicc/int_codec.h"
#include "nicc/spray.h"

namespace nicc_vectors {

namespace {

std::string Ident(const std::string& name) {
  std::string id;
  for (char c : name) id += (std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
  return id;
}

void SetAll(std::ostringstream& o, const char* group, const std::vector<std::pair<const char*, uint32_t>>& f) {
  for (const auto& kv : f) o << "  p->" << group << "." << kv.first << " = " << kv.second << "u;\n";
}

bool ProfileLines(const VectorFile& v, std::ostringstream& o, std::string* group, std::string* why) {
  if (v.algo == "dcqcn") {
    uint32_t rate = 100000;
    for (const auto& kv : v.params)
      if (kv.first == "line_rate_mbps") rate = static_cast<uint32_t>(kv.second);
    nicc::dcqcn::Params d;
    if (v.profile == "mlx5") d = nicc::dcqcn::Params::Mlx5(rate);
    else if (v.profile == "dcqcn-paper") d = nicc::dcqcn::Params::Paper(rate);
    else return (*why = "unknown dcqcn profile " + v.profile), false;
    o << "  p->cc = NICC_FW_CC_DCQCN;\n";
    SetAll(o, "dcqcn",
           {{"line_rate_mbps", d.line_rate_mbps}, {"rp_time_reset", d.rp_time_reset},
            {"rp_byte_reset", d.rp_byte_reset}, {"rp_threshold", d.rp_threshold},
            {"rp_ai_rate", d.rp_ai_rate}, {"rp_hai_rate", d.rp_hai_rate}, {"rp_gd", d.rp_gd},
            {"rp_min_dec_fac", d.rp_min_dec_fac}, {"rp_min_rate", d.rp_min_rate},
            {"rp_max_rate", d.rp_max_rate}, {"rp_dce_tcp_g", d.rp_dce_tcp_g},
            {"rp_dce_tcp_rtt", d.rp_dce_tcp_rtt},
            {"rp_rate_reduce_monitor_period", d.rp_rate_reduce_monitor_period},
            {"rp_initial_alpha_value", d.rp_initial_alpha_value},
            {"rp_rate_to_set_on_first_cnp", d.rp_rate_to_set_on_first_cnp},
            {"rp_clamp_tgt_rate", d.rp_clamp_tgt_rate}, {"rp_clamp_tgt_rate_ati", d.rp_clamp_tgt_rate_ati},
            {"np_min_time_between_cnps", d.np_min_time_between_cnps}});
    *group = "dcqcn";
  } else if (v.algo == "hpcc" || v.algo == "hpcc-pint") {
    nicc::hpcc::Params h;
    if (v.profile == "hpcc-paper") h = nicc::hpcc::Params::HpccPaper();
    else if (v.profile == "hpcc-later") h = nicc::hpcc::Params::HpccLater();
    else return (*why = "unknown hpcc profile " + v.profile), false;
    o << "  p->cc = " << (v.algo == "hpcc" ? "NICC_FW_CC_HPCC" : "NICC_FW_CC_HPCC_PINT") << ";\n";
    SetAll(o, "hpcc",
           {{"line_rate_mbps", h.line_rate_mbps}, {"base_rtt_ns", h.base_rtt_ns}, {"eta_ppm", h.eta_ppm},
            {"max_stage", h.max_stage}, {"w_ai_bytes", h.w_ai_bytes},
            {"min_window_bytes", h.min_window_bytes}, {"history_timeout_us", h.history_timeout_us}});
    *group = "hpcc";
  } else if (v.algo == "spray") {
    static const std::map<std::string, nicc::spray::Policy> pol = {
        {"ecmp", nicc::spray::Policy::kEcmp}, {"ops", nicc::spray::Policy::kOps},
        {"bitmap", nicc::spray::Policy::kBitmap}, {"reps", nicc::spray::Policy::kReps},
        {"plb", nicc::spray::Policy::kPlb}, {"dlb", nicc::spray::Policy::kDlb}};
    auto it = pol.find(v.profile);
    if (it == pol.end()) return (*why = "unknown spray profile " + v.profile), false;
    const nicc::spray::Params s = nicc::spray::Params::Defaults(it->second, 3, 0);
    o << "  p->cc = NICC_FW_CC_NONE;\n";
    SetAll(o, "spray",
           {{"policy", static_cast<uint32_t>(s.policy)}, {"ev_bits", s.ev_bits}, {"flow_label", s.flow_label},
            {"base_port", s.base_port}, {"bitmap_ecn_penalty", s.bitmap_ecn_penalty},
            {"bitmap_nack_penalty", s.bitmap_nack_penalty}, {"reps_max_reuse", s.reps_max_reuse},
            {"reps_freeze_us", s.reps_freeze_us}, {"plb_rehash_rounds", s.plb_rehash_rounds},
            {"plb_idle_rehash_rounds", s.plb_idle_rehash_rounds},
            {"plb_cong_thresh_pct", s.plb_cong_thresh_pct}, {"plb_suspend_us", s.plb_suspend_us},
            {"dlb_gain_shift", s.dlb_gain_shift}, {"dlb_rtt_shift", s.dlb_rtt_shift},
            {"dlb_hysteresis", s.dlb_hysteresis}, {"dlb_probe_shift", s.dlb_probe_shift},
            {"dlb_min_dwell", s.dlb_min_dwell}});
    *group = "spray";
  } else {
    return (*why = "unknown algo " + v.algo), false;
  }
  return true;
}

uint32_t Tol(const Expectation& x) {
  if (x.compare == Compare::kExact) return 0;
  const double t = std::max(x.rel * std::fabs(static_cast<double>(x.value)), static_cast<double>(x.abs));
  return static_cast<uint32_t>(std::floor(t));
}

int StatusCode(const std::string& s) {
  if (s == "truncated") return 4;
  if (s == "too_many_hops") return 5;
  if (s == "bad_rate_code") return 6;
  return s == "ok" ? 0 : -1;
}

uint32_t FlagBits(const std::string& text, bool* ok) {
  static const std::map<std::string, uint32_t> names = {
      {"set_rate", 1}, {"set_window", 2}, {"use_ev", 4}, {"send_cnp", 8}, {"arm_timer", 16}, {"cancel_timer", 32}};
  *ok = true;
  if (text == "none") return 0;
  uint32_t bits = 0;
  std::stringstream ss(text);
  std::string name;
  while (std::getline(ss, name, ',')) {
    auto it = names.find(name);
    if (it == names.end()) {
      *ok = false;
      return 0;
    }
    bits |= it->second;
  }
  return bits;
}

}  // namespace

bool EmitC(const VectorFile& v, std::string* out, std::string* why) {
  if (!v.expect_status_field.empty()) {
    *why = "parameter-error vectors have no events to emit";
    return false;
  }
  const std::string id = Ident(v.name);
  std::ostringstream o;
  o << "/* Generated by nicc-vectors --emit-c from " << v.path << " — do not edit. */\n"
    << "#include \"nicc/fw_vector.h\"\n\n";
  std::ostringstream params;
  std::string group;
  if (!ProfileLines(v, params, &group, why)) return false;
  for (const auto& kv : v.params) params << "  p->" << group << "." << kv.first << " = " << kv.second << "u;\n";

  // INT stacks first (arrays the steps point at).
  std::ostringstream steps;
  int n = 0;
  for (size_t i = 0; i < v.events.size(); ++i) {
    const Event& e = v.events[i];
    auto arg = [&](const char* k) -> uint64_t {
      auto it = e.args.find(k);
      uint64_t val = 0;
      if (it != e.args.end()) ParseUint(it->second, 0xFFFFFFFFu, &val);
      return val;
    };
    std::string int_ref = "0";
    size_t int_len = 0;
    if ((v.algo == "hpcc") && e.kind == "ack") {
      uint8_t buf[64];
      auto raw = e.args.find("raw");
      if (raw != e.args.end()) {
        int_len = raw->second.size() / 2;
        for (size_t b = 0; b < int_len && b < sizeof buf; ++b) {
          uint64_t byte = 0;
          ParseUint("0x" + raw->second.substr(2 * b, 2), 255, &byte);
          buf[b] = static_cast<uint8_t>(byte);
        }
      } else {
        nicc::IntStack st{};
        const uint32_t mult = static_cast<uint32_t>(arg("mult"));
        st.mult_log2 = static_cast<uint8_t>(mult);
        st.hop_count = static_cast<uint8_t>(e.hops.size());
        for (size_t h = 0; h < e.hops.size() && h < nicc::kIntMaxHops; ++h)
          st.hops[h] = nicc::IntHop::Make(e.hops[h].rate_code, e.hops[h].ts_ns,
                                          (e.hops[h].tx_bytes >> mult) / nicc::kIntTxUnitBytes,
                                          (e.hops[h].qlen_bytes >> mult) / nicc::kIntQlenUnitBytes);
        if (!nicc::EncodeIntStack(st, buf, sizeof buf, &int_len).ok()) {
          *why = "event at line " + std::to_string(e.line) + ": INT stack does not encode";
          return false;
        }
      }
      o << "static const uint8_t " << id << "_int" << i << "[] = {";
      for (size_t b = 0; b < int_len; ++b) o << (b ? "," : "") << static_cast<unsigned>(buf[b]);
      o << "};\n";
      int_ref = id + "_int" + std::to_string(i);
    }
    // The event.
    std::string op = "NICC_FW_VEC_OP_EVENT", kind = "NICC_FW_EV_TX_DONE";
    uint64_t bytes = 0, seq = 0, nxt = 0, rtt = 0, evp = 0, ecn = 0, pint = 0, has_pint = 0;
    if (e.kind == "cnp") kind = "NICC_FW_EV_CNP";
    else if (e.kind == "timer") kind = "NICC_FW_EV_TIMER";
    else if (e.kind == "tx") bytes = arg("bytes");
    else if (e.kind == "rx") kind = "NICC_FW_EV_RX_DATA", ecn = arg("ce");
    else if (e.kind == "ack") {
      kind = "NICC_FW_EV_ACK";
      seq = arg("seq");
      nxt = arg("nxt");
      if (v.algo == "hpcc-pint") pint = arg("u"), has_pint = 1;
    } else if (e.kind == "select") {
      op = "NICC_FW_VEC_OP_SELECT";
    } else if (e.kind == "feedback") {
      const std::string k = e.args.count("kind") ? e.args.at("kind") : "";
      evp = arg("ev");
      rtt = arg("rtt");
      if (k == "good" || k == "ecn") kind = "NICC_FW_EV_ACK", ecn = (k == "ecn");
      else if (k == "nack") kind = "NICC_FW_EV_NACK";
      else kind = "NICC_FW_EV_TIMEOUT";
    }
    uint32_t check = 0, flags = 0, rate = 0, rate_tol = 0, win = 0, win_tol = 0, ev = 0, timer = 0;
    int status = 0;
    for (const Expectation& x : e.expects) {
      bool ok = true;
      if (x.field == "flags") check |= 1, flags = FlagBits(x.text, &ok);
      else if (x.field == "rate_kbps") check |= 2, rate = static_cast<uint32_t>(x.value), rate_tol = Tol(x);
      else if (x.field == "window_bytes") check |= 4, win = static_cast<uint32_t>(x.value), win_tol = Tol(x);
      else if (x.field == "ev") check |= 8, ev = static_cast<uint32_t>(x.value);
      else if (x.field == "timer_ns") check |= 16, timer = static_cast<uint32_t>(x.value);
      else if (x.field == "status") check |= 32, status = StatusCode(x.text), ok = status >= 0;
      // Internal-state fields (alpha_q20, u_q20, stage ...) are not visible
      // through the C API; the host runner checks them.
      if (!ok) {
        *why = "line " + std::to_string(x.line) + ": cannot express '" + x.text + "' in C";
        return false;
      }
    }
    // A select in the C harness reports flags "use_ev" only.
    steps << "  {" << static_cast<uint32_t>(e.t_ns) << "u, " << op << ", {" << int_ref << ", " << bytes << "u, "
          << seq << "u, " << nxt << "u, " << rtt << "u, " << int_len << ", " << evp << ", " << kind << ", " << ecn
          << ", " << pint << ", " << has_pint << "}, " << check << "u, " << flags << "u, " << status << ", " << rate
          << "u, " << rate_tol << "u, " << win << "u, " << win_tol << "u, " << ev << "u, " << timer << "u},\n";
    ++n;
  }
  o << "\nstatic void " << id << "_params(nicc_fw_params* p) {\n"
    << "  nicc_fw_params_default(p, 100000);\n"
    << params.str() << "}\n\n"
    << "static const nicc_fw_vec_step " << id << "_steps[] = {\n"
    << steps.str() << "};\n\n"
    << "static const nicc_fw_vector nicc_vec = {\"" << v.name << "\", " << id << "_params, " << v.seed << "u, "
    << v.seed << "u, " << id << "_steps, " << n << "u};\n";
  *out = o.str();
  return true;
}

}  // namespace nicc_vectors
