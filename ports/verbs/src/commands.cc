// nicc-verbs subcommands: list, doctor, run.
#include "nicc/verbs/commands.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <istream>
#include <memory>
#include <ostream>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "nicc/host/param_registry.h"
#include "nicc/verbs/cc_params.h"
#include "nicc/verbs/devices.h"

namespace nicc {
namespace verbs {
namespace {

// Congestion-related counters first; all of them with --all_counters.
void PrintCounters(const HostRoots& roots, const std::string& dev, uint32_t port, bool all,
                   std::ostream& out) {
  absl::StatusOr<PortCounters> c = ReadPortCounters(roots, dev, port);
  if (!c.ok()) {
    out << "    counters: " << c.status().message() << "\n";
    return;
  }
  std::vector<std::string> parts;
  for (size_t i = 0; i < kKeyHwCounterCount; ++i) {
    auto it = c->hw.find(kKeyHwCounters[i].name);
    if (it != c->hw.end()) parts.push_back(absl::StrCat(it->first, "=", it->second));
  }
  out << "    hw_counters: " << (parts.empty() ? "(none of the congestion counters)" : absl::StrJoin(parts, " "))
      << "\n";
  if (all) {
    for (const auto& kv : c->hw) out << "      hw_counters/" << kv.first << " = " << kv.second << "\n";
    for (const auto& kv : c->port) out << "      counters/" << kv.first << " = " << kv.second << "\n";
  } else if (!c->port.empty()) {
    std::vector<std::string> p;
    for (const char* name : {"port_xmit_data", "port_rcv_data", "port_xmit_packets",
                             "port_rcv_packets", "port_xmit_discards", "port_rcv_errors"}) {
      auto it = c->port.find(name);
      if (it != c->port.end()) p.push_back(absl::StrCat(it->first, "=", it->second));
    }
    if (!p.empty()) out << "    counters: " << absl::StrJoin(p, " ") << "\n";
  }
  for (const std::string& pr : c->problems) out << "    counter problem: " << pr << "\n";
}

// Policy names come from the engine's registry (spray::kPolicies).
absl::StatusOr<spray::Policy> ParsePolicy(const std::string& s) {
  const int32_t i = host::FindChoice(spray::kPolicies, spray::kPolicyCount, s);
  if (i >= 0) return static_cast<spray::Policy>(spray::kPolicies[i].code);
  return absl::InvalidArgumentError(absl::StrCat(
      "--spray=", s, ": expected one of ", host::ChoiceList(spray::kPolicies, spray::kPolicyCount)));
}

absl::StatusOr<std::vector<uint32_t>> ParseQpns(const std::string& s) {
  std::vector<uint32_t> out;
  for (absl::string_view part : absl::StrSplit(s, ',', absl::SkipWhitespace())) {
    part = absl::StripAsciiWhitespace(part);
    uint32_t v = 0;
    const bool hex = absl::StartsWithIgnoreCase(part, "0x");
    const bool ok = hex ? absl::SimpleHexAtoi(part.substr(2), &v) : absl::SimpleAtoi(part, &v);
    if (!ok || v > 0xFFFFFFu)
      return absl::InvalidArgumentError(absl::StrCat("bad QP number '", part, "' in '", s, "'"));
    out.push_back(v);
  }
  if (out.empty()) return absl::InvalidArgumentError("no peer QP numbers given (--peer_qpns=a,b,c,d)");
  return out;
}

// "key=value key=value" -> value of key, or empty.
std::string KvGet(const std::string& line, const std::string& key) {
  for (absl::string_view tok : absl::StrSplit(line, ' ', absl::SkipWhitespace())) {
    const size_t eq = tok.find('=');
    if (eq != absl::string_view::npos && tok.substr(0, eq) == key)
      return std::string(tok.substr(eq + 1));
  }
  return "";
}

// "100 Gb/sec (4X EDR)" -> 100000 Mb/s; 0 if unknown.
uint32_t ParseRateMbps(const std::string& rate) {
  double gbps = 0;
  const std::string first = std::string(rate.substr(0, rate.find(' ')));
  if (!absl::SimpleAtod(first, &gbps) || gbps <= 0 || gbps > 1600) return 0;
  return static_cast<uint32_t>(gbps * 1000.0);
}

ibv_mtu BytesToMtu(uint32_t b) {
  switch (b) {
    case 256: return IBV_MTU_256;
    case 512: return IBV_MTU_512;
    case 1024: return IBV_MTU_1024;
    case 2048: return IBV_MTU_2048;
    case 4096: return IBV_MTU_4096;
  }
  return static_cast<ibv_mtu>(0);
}

void SleepNs(uint64_t ns) {
  timespec ts;
  ts.tv_sec = static_cast<time_t>(ns / 1000000000ull);
  ts.tv_nsec = static_cast<long>(ns % 1000000000ull);
  nanosleep(&ts, nullptr);
}

// Releases what CmdRun acquired, in reverse order.
struct RunResources {
  VerbsApi* api = nullptr;
  ibv_context* ctx = nullptr;
  ibv_pd* pd = nullptr;
  ibv_mr* mr = nullptr;
  void* buf = nullptr;
  std::unique_ptr<PathSet> ps;
  ~RunResources() {
    ps.reset();
    if (mr != nullptr) (void)api->DeregMr(mr);
    free(buf);
    if (pd != nullptr) (void)api->DeallocPd(pd);
    if (ctx != nullptr) (void)api->CloseDevice(ctx);
  }
};

}  // namespace

int CmdList(VerbsApi* api, const HostRoots& roots, const ListOptions& opt, std::ostream& out,
            std::ostream& err) {
  absl::StatusOr<std::vector<DeviceInfo>> devs = QueryDevices(api, roots);
  if (!devs.ok()) {
    err << "nicc-verbs list: " << devs.status().message();
    return kExitNoDevice;
  }
  for (const DeviceInfo& d : *devs) {
    if (!d.error.empty()) {
      out << d.name << ": " << d.error << "\n";
      continue;
    }
    const ibv_device_attr_ex& a = d.attr;
    const bool ts = a.completion_timestamp_mask != 0 && a.hca_core_clock != 0;
    const bool rc_pacing = a.packet_pacing_caps.qp_rate_limit_max != 0 &&
                           (a.packet_pacing_caps.supported_qpts & (1u << IBV_QPT_RC)) != 0;
    out << d.name << "  fw " << a.orig_attr.fw_ver << "  ports " << d.ports.size() << "\n";
    out << "  completion timestamps: "
        << (ts ? absl::StrCat("yes (hca_core_clock ", a.hca_core_clock, " kHz, mask 0x",
                              absl::Hex(a.completion_timestamp_mask), ")")
               : std::string("no -> RTT from the host clock"))
        << "\n";
    out << "  packet pacing (RC): "
        << (rc_pacing ? absl::StrCat(a.packet_pacing_caps.qp_rate_limit_min, "..",
                                     a.packet_pacing_caps.qp_rate_limit_max, " kb/s")
                      : std::string("no -> host pacing only"))
        << "\n";
    absl::StatusOr<SysfsDevice> sd = ReadSysfsDevice(roots, d.name);
    if (sd.ok() && !sd->pci.empty()) out << "  pci " << sd->pci << "\n";
    for (const PortInfo& p : d.ports) {
      out << "  port " << static_cast<int>(p.num) << ": ";
      if (p.query_error != 0) {
        out << "ibv_query_port failed: " << strerror(p.query_error) << "\n";
        continue;
      }
      const SysfsPort* sp = nullptr;
      if (sd.ok())
        for (const SysfsPort& s : sd->ports)
          if (s.num == p.num) sp = &s;
      out << PortStateName(p.attr.state) << "  " << LinkLayerName(p.attr.link_layer)
          << "  active MTU " << MtuToBytes(p.attr.active_mtu) << " (max "
          << MtuToBytes(p.attr.max_mtu) << ")";
      if (sp != nullptr && !sp->rate.empty()) out << "  " << sp->rate;
      out << "\n";
      for (const auto& g : p.gids) {
        out << "    gid[" << g.first << "] " << GidToString(g.second);
        if (sp != nullptr) {
          auto t = sp->gid_types.find(g.first);
          if (t != sp->gid_types.end()) out << "  " << t->second;
          auto n = sp->gid_ndevs.find(g.first);
          if (n != sp->gid_ndevs.end()) out << "  " << n->second;
        }
        out << "\n";
      }
      PrintCounters(roots, d.name, p.num, opt.all_counters, out);
    }
  }
  return kExitOk;
}

int CmdDoctor(VerbsApi* api, const HostRoots& roots, const DoctorOptions& opt, std::ostream& out,
              std::ostream& err) {
  absl::StatusOr<std::vector<DeviceInfo>> devs = QueryDevices(api, roots);
  if (!devs.ok()) {
    err << "nicc-verbs doctor: " << devs.status().message();
    return kExitNoDevice;
  }
  const std::vector<Check> checks = RunDoctor(roots, *devs, opt);
  int pass = 0, warn = 0, fail = 0;
  for (const Check& c : checks) {
    out << FormatCheck(c);
    (c.verdict == Verdict::kPass ? pass : c.verdict == Verdict::kWarn ? warn : fail)++;
  }
  out << pass << " passed, " << warn << " warnings, " << fail << " failed\n";
  return fail == 0 ? kExitOk : kExitFailed;
}

int CmdRun(VerbsApi* api, const HostRoots& roots, const RunOptions& opt, std::istream& in,
           std::ostream& out, std::ostream& err) {
  const bool target = opt.role == "target";
  if (!target && opt.role != "initiator") {
    err << "nicc-verbs run: --role=" << opt.role << ": expected initiator or target\n";
    return kExitUsage;
  }
  CcMode cc;
  if (opt.cc == "none") {
    cc = CcMode::kNone;
  } else if (opt.cc == "dcqcn") {
    cc = CcMode::kDcqcn;
  } else {
    err << "nicc-verbs run: --cc=" << opt.cc << ": expected none or dcqcn (HPCC needs INT, "
        << "which a host does not see on RDMA completions)\n";
    return kExitUsage;
  }
  absl::StatusOr<spray::Policy> policy = ParsePolicy(opt.spray);
  if (!policy.ok()) {
    err << "nicc-verbs run: " << policy.status().message() << "\n";
    return kExitUsage;
  }
  const int32_t profile = FindProfile(dcqcn::kParamTable, opt.dcqcn_profile.c_str());
  if (profile < 0) {
    err << "nicc-verbs run: --dcqcn_profile=" << opt.dcqcn_profile << ": expected one of "
        << host::ProfileList(dcqcn::kParamTable) << "\n";
    return kExitUsage;
  }
  PeerInfo peer;
  uint32_t num_paths = opt.num_paths;
  if (!target) {
    absl::StatusOr<std::vector<uint32_t>> qpns = ParseQpns(opt.peer_qpns);
    absl::StatusOr<ibv_gid> gid = ParseGid(opt.peer_gid);
    if (!qpns.ok() || !gid.ok()) {
      err << "nicc-verbs run: " << (!qpns.ok() ? qpns.status().message() : gid.status().message())
          << "\n  the initiator needs --peer_gid, --peer_qpns, --rkey and --addr from the target\n";
      return kExitUsage;
    }
    if (opt.rkey == 0 || opt.msg_size == 0 || opt.remote_len < opt.msg_size) {
      err << "nicc-verbs run: need --rkey (non-zero), --msg_size > 0 and --remote_len >= --msg_size\n";
      return kExitUsage;
    }
    peer.qpns = *qpns;
    peer.gid = *gid;
    if (num_paths == 0) num_paths = static_cast<uint32_t>(qpns->size());
  } else if (num_paths == 0) {
    err << "nicc-verbs run --role=target: give --num_paths (the initiator's path count)\n";
    return kExitUsage;
  }
  if (opt.mtu != 0 && static_cast<int>(BytesToMtu(opt.mtu)) == 0) {
    err << "nicc-verbs run: --mtu=" << opt.mtu << ": expected 256, 512, 1024, 2048 or 4096\n";
    return kExitUsage;
  }

  RunResources r;
  r.api = api;
  std::string devname;
  absl::StatusOr<ibv_context*> ctx = OpenDeviceByName(api, roots, opt.device, &devname);
  if (!ctx.ok()) {
    err << "nicc-verbs run: " << ctx.status().message();
    if (absl::IsNotFound(ctx.status())) return kExitNoDevice;
    err << "\n";
    return kExitFailed;
  }
  r.ctx = *ctx;
  r.pd = api->AllocPd(r.ctx);
  if (r.pd == nullptr) {
    err << "nicc-verbs run: ibv_alloc_pd failed: " << strerror(errno) << "\n";
    return kExitFailed;
  }
  absl::StatusOr<SysfsDevice> sd = ReadSysfsDevice(roots, devname);
  int gid_index = opt.gid_index;
  if (gid_index < 0) {
    gid_index = 0;
    if (sd.ok())
      for (const SysfsPort& p : sd->ports)
        if (p.num == opt.port)
          for (auto it = p.gid_types.rbegin(); it != p.gid_types.rend(); ++it)
            if (it->second.find("v2") != std::string::npos) gid_index = it->first;
  }
  uint32_t line_mbps = opt.line_rate_mbps;
  if (line_mbps == 0 && sd.ok())
    for (const SysfsPort& p : sd->ports)
      if (p.num == opt.port) line_mbps = ParseRateMbps(p.rate);
  if (line_mbps == 0) line_mbps = 100000;

  PathSetOptions po;
  po.port_num = opt.port;
  po.gid_index = gid_index;
  po.num_paths = num_paths;
  po.flow_label = opt.flow_label;
  po.policy = *policy;
  po.cc = cc;
  po.line_rate_mbps = line_mbps;
  po.dcqcn = dcqcn::Params::Of(static_cast<dcqcn::Profile>(profile), line_mbps);
  po.send_depth = opt.send_depth;
  po.seed = opt.local_psn + 1;
  if (opt.import_cc_params) {
    absl::StatusOr<CcParamsImport> imp =
        ImportMlx5CcParams(roots, sd.ok() ? sd->pci : std::string(), line_mbps);
    if (!imp.ok()) {
      err << "nicc-verbs run: --import_cc_params: " << imp.status().message() << "\n";
      return kExitFailed;
    }
    po.dcqcn = imp->params;
    out << "cc_params: imported " << imp->applied.size() << " fields from " << imp->dir;
    if (!imp->missing.empty()) out << "; " << imp->missing.size() << " missing (mlx5 defaults kept)";
    out << "\n";
  }
  absl::StatusOr<std::unique_ptr<PathSet>> ps = PathSet::Create(api, r.ctx, r.pd, po);
  if (!ps.ok()) {
    err << "nicc-verbs run: " << ps.status().message() << "\n";
    return kExitFailed;
  }
  r.ps = std::move(*ps);
  PathSet& set = *r.ps;
  for (const std::string& note : set.caps().notes) out << "degraded: " << note << "\n";

  const size_t buf_len = target ? opt.remote_len : opt.msg_size;
  r.buf = aligned_alloc(4096, (buf_len + 4095) / 4096 * 4096);
  if (r.buf == nullptr) {
    err << "nicc-verbs run: cannot allocate " << buf_len << " bytes\n";
    return kExitFailed;
  }
  memset(r.buf, 0x5A, buf_len);
  r.mr = api->RegMr(r.pd, r.buf, buf_len,
                    IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
  if (r.mr == nullptr) {
    err << "nicc-verbs run: ibv_reg_mr(" << buf_len << " B) failed: " << strerror(errno) << "\n";
    return kExitFailed;
  }
  ibv_gid local_gid{};
  (void)api->QueryGid(r.ctx, opt.port, gid_index, &local_gid);
  std::vector<std::string> qpns;
  for (uint32_t i = 0; i < set.num_paths(); ++i) qpns.push_back(absl::StrCat(set.stats(i).qpn));
  out << "local: gid=" << GidToString(local_gid) << " qpns=" << absl::StrJoin(qpns, ",")
      << " psn=" << opt.local_psn;
  if (target)
    out << " rkey=" << r.mr->rkey << " addr=0x"
        << absl::StrCat(absl::Hex(reinterpret_cast<uintptr_t>(r.buf))) << " len=" << buf_len;
  out << "\n";
  out.flush();

  peer.psn = opt.peer_psn;
  peer.local_psn = opt.local_psn;
  peer.traffic_class = opt.traffic_class;
  peer.sl = opt.sl;
  peer.mtu = BytesToMtu(opt.mtu);
  if (target) {
    out << "paste the initiator's 'local:' line here:\n";
    out.flush();
    std::string line;
    if (!std::getline(in, line)) {
      err << "nicc-verbs run --role=target: no initiator line on stdin\n";
      return kExitFailed;
    }
    absl::StatusOr<std::vector<uint32_t>> pq = ParseQpns(KvGet(line, "qpns"));
    absl::StatusOr<ibv_gid> pg = ParseGid(KvGet(line, "gid"));
    uint32_t ppsn = 0;
    if (!pq.ok() || !pg.ok() || !absl::SimpleAtoi(KvGet(line, "psn"), &ppsn)) {
      err << "nicc-verbs run --role=target: cannot parse '" << line
          << "': expected 'local: gid=<gid> qpns=<a,b,..> psn=<n>'\n";
      return kExitFailed;
    }
    peer.qpns = *pq;
    peer.gid = *pg;
    peer.psn = ppsn;
  }
  const absl::Status cst = set.Connect(peer);
  if (!cst.ok()) {
    err << "nicc-verbs run: " << cst.message() << "\n";
    return kExitFailed;
  }
  out << "connected " << set.num_paths() << " paths to " << GidToString(peer.gid) << "\n";
  for (uint32_t i = 0; i < set.num_paths(); ++i)
    out << absl::StrFormat("  path %u: qpn %u -> %u  flow_label 0x%05x  udp_sport %u\n", i,
                           set.stats(i).qpn, peer.qpns[i], set.stats(i).flow_label,
                           set.stats(i).udp_sport);
  const uint64_t duration_ns = static_cast<uint64_t>(opt.duration_s * 1e9);
  if (target) {
    out << "target ready; serving for " << opt.duration_s << " s\n";
    out.flush();
    const uint64_t end = api->HostNowNs() + duration_ns;
    while (api->HostNowNs() < end) SleepNs(1000000);
    return kExitOk;
  }
  if (opt.wait) {
    out << "press Enter to start sending (once the target has connected)\n";
    out.flush();
    std::string line;
    std::getline(in, line);
  }

  // The stream.
  const std::string cnp_path =
      absl::StrCat(PortDir(roots, devname, opt.port), "/hw_counters/rp_cnp_handled");
  absl::StatusOr<uint64_t> cnp0 = ReadU64(cnp_path);
  uint64_t cnp_last = cnp0.ok() ? *cnp0 : 0;
  if (cc == CcMode::kDcqcn && !cnp0.ok())
    out << "degraded: " << cnp0.status().message()
        << ": DCQCN on the host sees no CNPs (its rate stays at line rate)\n";
  WriteRequest w{reinterpret_cast<uintptr_t>(r.buf), r.mr->lkey, opt.msg_size, opt.addr, opt.rkey};
  const uint64_t start = api->HostNowNs();
  const uint64_t end = start + duration_ns;
  uint64_t next_cnp = start, next_report = start + opt.report_ms * 1000000ull;
  uint64_t posted = 0, offset = 0;
  bool failed = false;
  for (;;) {
    const uint64_t now = api->HostNowNs();
    if (now >= end || (opt.messages != 0 && posted >= opt.messages)) break;
    w.remote_addr = opt.addr + offset;
    const PostOutcome o = set.PostWrite(w);
    if (o.result == PostResult::kPosted) {
      ++posted;
      offset += opt.msg_size;
      if (offset + opt.msg_size > opt.remote_len) offset = 0;
    } else if (o.result == PostResult::kAllPathsFailed || o.result == PostResult::kPostError) {
      err << "nicc-verbs run: " << PostResultName(o.result)
          << (o.err != 0 ? absl::StrCat(": ", strerror(o.err)) : std::string()) << "\n";
      failed = true;
      break;
    }
    set.Poll(64);
    if (cnp0.ok() && now >= next_cnp) {
      absl::StatusOr<uint64_t> c = ReadU64(cnp_path);
      if (c.ok() && *c >= cnp_last) {
        set.DeliverCnps(static_cast<uint32_t>(std::min<uint64_t>(*c - cnp_last, 1u << 20)));
        cnp_last = *c;
      }
      next_cnp = now + opt.cnp_poll_us * 1000ull;
    }
    set.Tick();
    if (now >= next_report) {
      out << absl::StrFormat("t=%.3fs posted=%u rate=%u kb/s\n",
                             static_cast<double>(now - start) / 1e9, posted,
                             set.rate_kbps());
      next_report = now + opt.report_ms * 1000000ull;
    }
  }
  // Drain what is in flight (up to 2 s).
  const uint64_t drain_end = api->HostNowNs() + 2000000000ull;
  for (;;) {
    uint32_t outstanding = 0;
    for (uint32_t i = 0; i < set.num_paths(); ++i) outstanding += set.stats(i).outstanding;
    if (outstanding == 0 || api->HostNowNs() >= drain_end) break;
    set.Poll(64);
  }
  const uint64_t elapsed = api->HostNowNs() - start;
  uint64_t bytes = 0, errors = 0;
  out << "path  qpn       sport  posted    completed  errors  rtt_min_ns  rtt_avg_ns  rate_kbps\n";
  for (uint32_t i = 0; i < set.num_paths(); ++i) {
    const PathStats& s = set.stats(i);
    bytes += s.bytes;
    errors += s.errors;
    out << absl::StrFormat("%-5u %-9u %-6u %-9u %-10u %-7u %-11u %-11u %u\n", i, s.qpn,
                           s.udp_sport, s.posted, s.completed, s.errors, s.min_rtt_ns,
                           s.rtt_samples ? s.rtt_sum_ns / s.rtt_samples : 0,
                           s.applied_rate_kbps);
  }
  out << absl::StrFormat("total: %u messages, %u bytes in %.3f s = %.3f Gb/s; cc=%s spray=%s rate %u kb/s\n",
                         posted, bytes, static_cast<double>(elapsed) / 1e9,
                         elapsed ? static_cast<double>(bytes) * 8.0 / static_cast<double>(elapsed) : 0.0,
                         opt.cc, opt.spray, set.rate_kbps());
  return failed || errors != 0 ? kExitFailed : kExitOk;
}

}  // namespace verbs
}  // namespace nicc
