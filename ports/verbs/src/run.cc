// nicc-verbs run: connection setup (TCP exchange, --rdma-cm, or the manual
// mode), the paced and sprayed RDMA WRITE stream, and its report.
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <algorithm>
#include <istream>
#include <memory>
#include <ostream>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "nicc/host/param_registry.h"
#include "nicc/verbs/cc_params.h"
#include "nicc/verbs/commands.h"
#include "nicc/verbs/devices.h"
#include "nicc/verbs/exchange.h"
#include "nicc/verbs/rdma_cm_link.h"
#include "nicc/verbs/run_report.h"

namespace nicc {
namespace verbs {
namespace {

// Policy names come from the engine's registry (spray::kPolicies).
absl::StatusOr<spray::Policy> ParsePolicy(const std::string& s) {
  const int32_t i = host::FindChoice(spray::kPolicies, spray::kPolicyCount, s);
  if (i >= 0) return static_cast<spray::Policy>(spray::kPolicies[i].code);
  return absl::InvalidArgumentError(
      absl::StrCat("--spray=", s, ": expected one of ",
                   host::ChoiceList(spray::kPolicies, spray::kPolicyCount)));
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
  if (out.empty())
    return absl::InvalidArgumentError("no peer QP numbers given (--peer_qpns=a,b,c,d)");
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
    case 256:
      return IBV_MTU_256;
    case 512:
      return IBV_MTU_512;
    case 1024:
      return IBV_MTU_1024;
    case 2048:
      return IBV_MTU_2048;
    case 4096:
      return IBV_MTU_4096;
  }
  return static_cast<ibv_mtu>(0);
}

void SleepNs(uint64_t ns) {
  timespec ts;
  ts.tv_sec = static_cast<time_t>(ns / 1000000000ull);
  ts.tv_nsec = static_cast<long>(ns % 1000000000ull);
  nanosleep(&ts, nullptr);
}

// Exit status of a failed connection step (exchange.h's status codes).
int ExitFor(const absl::Status& s) {
  return absl::IsUnavailable(s) || absl::IsDeadlineExceeded(s) ? kExitNoPeer : kExitFailed;
}

// Releases what CmdRun acquired, in reverse order. The context of an
// rdma_cm connection belongs to librdmacm (cm), not to us.
struct RunResources {
  VerbsApi* api = nullptr;
  std::unique_ptr<CmLink> cm;
  ibv_context* ctx = nullptr;
  bool own_ctx = true;
  ibv_pd* pd = nullptr;
  ibv_mr* mr = nullptr;
  void* buf = nullptr;
  std::unique_ptr<PathSet> ps;
  ~RunResources() {
    ps.reset();
    if (mr != nullptr) (void)api->DeregMr(mr);
    free(buf);
    if (pd != nullptr) (void)api->DeallocPd(pd);
    if (ctx != nullptr && own_ctx) (void)api->CloseDevice(ctx);
    cm.reset();
  }
};

enum class Mode { kManual, kServer, kClient };

}  // namespace

int CmdRun(VerbsApi* api, const HostRoots& roots, const RunOptions& opt, std::istream& in,
           std::ostream& out, std::ostream& err) {
  const Mode mode = opt.server ? Mode::kServer : !opt.host.empty() ? Mode::kClient : Mode::kManual;
  if (opt.server && !opt.host.empty()) {
    err << "nicc-verbs run: --server takes no HOST (the client names the server)\n";
    return kExitUsage;
  }
  // The server receives writes, the client sends them (as ib_write_bw).
  const bool target = mode == Mode::kServer || (mode == Mode::kManual && opt.role == "target");
  if (mode == Mode::kManual && opt.role != "target" && opt.role != "initiator") {
    err << "nicc-verbs run: --role=" << opt.role << ": expected initiator or target\n";
    return kExitUsage;
  }
  if (mode == Mode::kManual && !target && opt.peer_qpns.empty()) {
    err << "nicc-verbs run: name the server: `nicc-verbs run HOST` (and `nicc-verbs run --server` "
           "on HOST), or give --peer_gid/--peer_qpns/--rkey/--addr (manual mode)\n";
    return kExitUsage;
  }
  if (opt.rdma_cm && mode == Mode::kManual) {
    err << "nicc-verbs run: --rdma-cm needs --server or HOST\n";
    return kExitUsage;
  }
  if (opt.rdma_cm && !CmLink::Built()) {
    err << "nicc-verbs run: --rdma-cm: this nicc-verbs was built without librdmacm (install "
           "librdmacm-dev and rebuild); the TCP exchange (the default) needs no librdmacm\n";
    return kExitUsage;
  }
  if (mode != Mode::kManual && (opt.timeout_s <= 0 || opt.timeout_s > 86400)) {
    err << "nicc-verbs run: --timeout_s must be in (0, 86400]\n";
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
  if (mode == Mode::kManual && !target) {
    absl::StatusOr<std::vector<uint32_t>> qpns = ParseQpns(opt.peer_qpns);
    absl::StatusOr<ibv_gid> gid = ParseGid(opt.peer_gid);
    if (!qpns.ok() || !gid.ok()) {
      err << "nicc-verbs run: " << (!qpns.ok() ? qpns.status().message() : gid.status().message())
          << "\n  the initiator needs --peer_gid, --peer_qpns, --rkey and --addr from the target\n";
      return kExitUsage;
    }
    if (opt.rkey == 0) {
      err << "nicc-verbs run: need --rkey (non-zero) in the manual mode\n";
      return kExitUsage;
    }
    peer.qpns = *qpns;
    peer.gid = *gid;
    if (num_paths == 0) num_paths = static_cast<uint32_t>(qpns->size());
  } else if (mode == Mode::kManual && num_paths == 0) {
    err << "nicc-verbs run --role=target: give --num_paths (the initiator's path count)\n";
    return kExitUsage;
  }
  if (mode == Mode::kClient) {
    if (num_paths == 0) num_paths = 4;
    const uint32_t max_paths = opt.rdma_cm ? kMaxCmPaths : kMaxOobPaths;
    if ((num_paths & (num_paths - 1)) != 0 || num_paths > max_paths) {
      err << "nicc-verbs run: --num_paths=" << num_paths << ": expected a power of two, 1.."
          << max_paths << (opt.rdma_cm ? " (--rdma-cm: what its private data holds)" : "") << "\n";
      return kExitUsage;
    }
  }
  if (!target && (opt.msg_size == 0 || opt.remote_len < opt.msg_size)) {
    err << "nicc-verbs run: need --msg_size > 0 and --remote_len >= --msg_size\n";
    return kExitUsage;
  }
  if (opt.mtu != 0 && static_cast<int>(BytesToMtu(opt.mtu)) == 0) {
    err << "nicc-verbs run: --mtu=" << opt.mtu << ": expected 256, 512, 1024, 2048 or 4096\n";
    return kExitUsage;
  }

  RunResources r;
  r.api = api;
  std::string devname;
  // Every mode looks for a device first: the same no-device message
  // everywhere, before any waiting for a peer.
  absl::StatusOr<ibv_context*> ctx = OpenDeviceByName(api, roots, opt.device, &devname);
  if (!ctx.ok()) {
    err << "nicc-verbs run: " << ctx.status().message();
    if (absl::IsNotFound(ctx.status())) return kExitNoDevice;
    err << "\n";
    return kExitFailed;
  }
  r.ctx = *ctx;
  uint8_t port = opt.port;
  std::unique_ptr<OobChannel> ch;
  Hello peer_hello;
  const char* me = target ? "server" : "client";
  if (opt.rdma_cm) {
    (void)api->CloseDevice(r.ctx);  // rdma_cm picks the device from the address
    r.ctx = nullptr;
    absl::StatusOr<std::unique_ptr<CmLink>> l =
        target ? CmLink::Server(opt.tcp_port, opt.timeout_s)
               : CmLink::Client(opt.host, opt.tcp_port, opt.timeout_s);
    if (!l.ok()) {
      err << "nicc-verbs run: " << l.status().message() << "\n";
      return ExitFor(l.status());
    }
    r.cm = std::move(*l);
    r.ctx = r.cm->context();
    r.own_ctx = false;
    port = r.cm->port_num();
    devname = api->GetDeviceName(r.ctx->device);
    if (target) peer_hello = r.cm->request();
  } else if (mode == Mode::kServer) {
    absl::StatusOr<OobChannel> l = OobChannel::Listen(opt.tcp_port);
    if (!l.ok()) {
      err << "nicc-verbs run --server: " << l.status().message() << "\n";
      return kExitUsage;
    }
    ch = std::make_unique<OobChannel>(std::move(*l));
    out << "server: waiting for a client on TCP port " << ch->port() << " (up to " << opt.timeout_s
        << " s)\n";
    out.flush();
    if (opt.on_listening) opt.on_listening(ch->port());
    absl::Status st = ch->Accept(opt.timeout_s);
    if (!st.ok()) {
      err << "nicc-verbs run --server: " << st.message() << "\n";
      return ExitFor(st);
    }
    absl::StatusOr<Hello> h = ch->RecvHello(opt.timeout_s);
    if (!h.ok()) {
      err << "nicc-verbs run --server: from " << ch->peer() << ": " << h.status().message() << "\n";
      if (!absl::IsFailedPrecondition(h.status()) ||
          !absl::StrContains(h.status().message(), "refused"))
        ch->SendError(std::string(h.status().message()));
      return ExitFor(h.status());
    }
    peer_hello = *h;
  } else if (mode == Mode::kClient) {
    absl::StatusOr<OobChannel> c = OobChannel::Connect(opt.host, opt.tcp_port, opt.timeout_s);
    if (!c.ok()) {
      err << "nicc-verbs run: " << c.status().message() << "\n";
      return ExitFor(c.status());
    }
    ch = std::make_unique<OobChannel>(std::move(*c));
  }
  if (target && mode == Mode::kServer) {
    num_paths = static_cast<uint32_t>(peer_hello.paths.size());
    out << "server: client " << (ch ? ch->peer() : GidToString(peer_hello.paths[0].gid))
        << " asks for " << num_paths << " paths\n";
  }

  r.pd = api->AllocPd(r.ctx);
  if (r.pd == nullptr) {
    err << "nicc-verbs run: ibv_alloc_pd failed: " << strerror(errno) << "\n";
    if (ch) ch->SendError(absl::StrCat("the ", me, " could not allocate a protection domain"));
    return kExitFailed;
  }
  absl::StatusOr<SysfsDevice> sd = ReadSysfsDevice(roots, devname);
  int gid_index = opt.gid_index;
  if (gid_index < 0) {
    gid_index = 0;
    if (sd.ok())
      for (const SysfsPort& p : sd->ports)
        if (p.num == port)
          for (auto it = p.gid_types.rbegin(); it != p.gid_types.rend(); ++it)
            if (it->second.find("v2") != std::string::npos) gid_index = it->first;
  }
  uint32_t line_mbps = opt.line_rate_mbps;
  if (line_mbps == 0 && sd.ok())
    for (const SysfsPort& p : sd->ports)
      if (p.num == port) line_mbps = ParseRateMbps(p.rate);
  if (line_mbps == 0) line_mbps = 100000;

  PathSetOptions po;
  po.port_num = port;
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
      if (ch) ch->SendError(absl::StrCat("the ", me, " failed: --import_cc_params"));
      return kExitFailed;
    }
    po.dcqcn = imp->params;
    out << "cc_params: imported " << imp->applied.size() << " fields from " << imp->dir;
    if (!imp->missing.empty())
      out << "; " << imp->missing.size() << " missing (mlx5 defaults kept)";
    out << "\n";
  }
  absl::StatusOr<std::unique_ptr<PathSet>> ps = PathSet::Create(api, r.ctx, r.pd, po);
  if (!ps.ok()) {
    err << "nicc-verbs run: " << ps.status().message() << "\n";
    if (ch) ch->SendError(absl::StrCat("the ", me, " failed: ", ps.status().message()));
    return kExitFailed;
  }
  r.ps = std::move(*ps);
  PathSet& set = *r.ps;
  for (const std::string& note : set.caps().notes) out << "degraded: " << note << "\n";

  const size_t buf_len = target ? opt.remote_len : opt.msg_size;
  r.buf = aligned_alloc(4096, (buf_len + 4095) / 4096 * 4096);
  if (r.buf == nullptr) {
    err << "nicc-verbs run: cannot allocate " << buf_len << " bytes\n";
    if (ch) ch->SendError(absl::StrCat("the ", me, " cannot allocate its buffer"));
    return kExitFailed;
  }
  memset(r.buf, 0x5A, buf_len);
  r.mr = api->RegMr(r.pd, r.buf, buf_len,
                    IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
  if (r.mr == nullptr) {
    err << "nicc-verbs run: ibv_reg_mr(" << buf_len << " B) failed: " << strerror(errno) << "\n";
    if (ch) ch->SendError(absl::StrCat("the ", me, " cannot register its buffer"));
    return kExitFailed;
  }
  ibv_gid local_gid{};
  (void)api->QueryGid(r.ctx, port, gid_index, &local_gid);
  Hello mine;
  for (uint32_t i = 0; i < set.num_paths(); ++i) {
    PathEndpoint e;
    e.qpn = set.stats(i).qpn;
    e.psn = opt.local_psn & 0xFFFFFF;
    e.gid = local_gid;
    if (target) {
      e.rkey = r.mr->rkey;
      e.addr = reinterpret_cast<uintptr_t>(r.buf);
      e.len = buf_len;
    }
    mine.paths.push_back(e);
  }

  peer.psn = opt.peer_psn;
  peer.local_psn = opt.local_psn;
  peer.traffic_class = opt.traffic_class;
  peer.sl = opt.sl;
  peer.mtu = BytesToMtu(opt.mtu);
  uint32_t rkey = opt.rkey;
  uint64_t raddr = opt.addr, rlen = opt.remote_len;
  auto adopt = [&](const Hello& h) {
    peer.gid = h.paths[0].gid;
    peer.psn = h.paths[0].psn;
    peer.qpns.clear();
    for (const PathEndpoint& e : h.paths) peer.qpns.push_back(e.qpn);
    if (!target) {
      rkey = h.paths[0].rkey;
      raddr = h.paths[0].addr;
      rlen = h.paths[0].len;
    }
  };
  // The client's checks of the server's reply.
  auto check_server = [&](const Hello& h) -> absl::Status {
    if (h.paths.size() != num_paths)
      return absl::InvalidArgumentError(absl::StrCat("the server answered with ", h.paths.size(),
                                                     " paths, the client asked for ", num_paths));
    if (h.paths[0].len < opt.msg_size || h.paths[0].rkey == 0)
      return absl::InvalidArgumentError(absl::StrCat(
          "the server's buffer is ", h.paths[0].len, " bytes, smaller than --msg_size=",
          opt.msg_size, " (give the server a larger --remote_len)"));
    return absl::OkStatus();
  };

  if (mode == Mode::kManual) {
    std::vector<std::string> qpns;
    for (uint32_t i = 0; i < set.num_paths(); ++i) qpns.push_back(absl::StrCat(set.stats(i).qpn));
    out << "local: gid=" << GidToString(local_gid) << " qpns=" << absl::StrJoin(qpns, ",")
        << " psn=" << opt.local_psn;
    if (target)
      out << " rkey=" << r.mr->rkey << " addr=0x"
          << absl::StrCat(absl::Hex(reinterpret_cast<uintptr_t>(r.buf))) << " len=" << buf_len;
    out << "\n";
    out.flush();
  }
  if (mode == Mode::kManual && target) {
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
  } else if (opt.rdma_cm) {
    if (target) {
      adopt(peer_hello);
    } else {
      absl::StatusOr<Hello> h = r.cm->Establish(mine, opt.timeout_s);
      absl::Status st = h.ok() ? check_server(*h) : h.status();
      if (!st.ok()) {
        err << "nicc-verbs run --rdma-cm: " << st.message() << "\n";
        return ExitFor(st);
      }
      adopt(*h);
    }
  } else if (mode == Mode::kServer) {
    adopt(peer_hello);
    absl::Status st = ch->Send(EncodeHello(mine));
    if (!st.ok()) {
      err << "nicc-verbs run --server: " << st.message() << "\n";
      return ExitFor(st);
    }
  } else if (mode == Mode::kClient) {
    absl::Status st = ch->Send(EncodeHello(mine));
    absl::StatusOr<Hello> h = st.ok() ? ch->RecvHello(opt.timeout_s) : absl::StatusOr<Hello>(st);
    st = h.ok() ? check_server(*h) : h.status();
    if (!st.ok()) {
      err << "nicc-verbs run: from the server " << opt.host << ": " << st.message() << "\n";
      if (h.ok() || absl::IsInvalidArgument(h.status()) ||
          (absl::IsFailedPrecondition(h.status()) && !absl::StrContains(st.message(), "refused")))
        ch->SendError(std::string(st.message()));
      return ExitFor(st);
    }
    adopt(*h);
  }
  const absl::Status cst = set.Connect(peer);
  if (!cst.ok()) {
    err << "nicc-verbs run: " << cst.message() << "\n";
    if (ch) ch->SendError(absl::StrCat("the ", me, " could not connect its QPs: ", cst.message()));
    return kExitFailed;
  }
  out << "connected " << set.num_paths() << " paths to " << GidToString(peer.gid) << "\n";
  for (uint32_t i = 0; i < set.num_paths(); ++i)
    out << absl::StrFormat("  path %u: qpn %u -> %u  flow_label 0x%05x  udp_sport %u\n", i,
                           set.stats(i).qpn, peer.qpns[i], set.stats(i).flow_label,
                           set.stats(i).udp_sport);
  const uint64_t duration_ns = static_cast<uint64_t>(opt.duration_s * 1e9);
  if (target) {
    if (mode == Mode::kManual) {
      out << "target ready; serving for " << opt.duration_s << " s\n";
      out.flush();
      const uint64_t end = api->HostNowNs() + duration_ns;
      while (api->HostNowNs() < end) SleepNs(1000000);
      return kExitOk;
    }
    // The client may write once we are in RTR: say so, then wait for its end.
    const double wait_s = opt.timeout_s + 2.0 + 1e-9 * static_cast<double>(duration_ns);
    absl::Status st;
    std::string done;
    if (opt.rdma_cm) {
      absl::StatusOr<Hello> h = r.cm->Establish(mine, opt.timeout_s);
      st = h.ok() ? r.cm->Finish(wait_s) : h.status();
    } else {
      st = ch->Send("ready\n");
      out << "server: ready; the client writes into " << buf_len << " bytes\n";
      out.flush();
      absl::StatusOr<std::string> d =
          st.ok() ? ch->Expect("done", wait_s) : absl::StatusOr<std::string>(st);
      if (d.ok()) {
        done = *d;
        st = ch->Send("bye\n");
      } else {
        st = d.status();
      }
    }
    if (!st.ok()) {
      err << "nicc-verbs run --server: " << st.message() << "\n";
      return ExitFor(st);
    }
    out << "server: the client finished"
        << (done.size() > 5 ? ": " + done.substr(5) : std::string()) << "\n";
    return kExitOk;
  }
  if (mode == Mode::kClient && !opt.rdma_cm) {
    absl::StatusOr<std::string> ready = ch->Expect("ready", opt.timeout_s);
    if (!ready.ok()) {
      err << "nicc-verbs run: from the server " << opt.host << ": " << ready.status().message()
          << "\n";
      return ExitFor(ready.status());
    }
  }
  if (mode == Mode::kManual && opt.wait) {
    out << "press Enter to start sending (once the target has connected)\n";
    out.flush();
    std::string line;
    std::getline(in, line);
  }

  // The stream.
  const std::string cnp_path =
      absl::StrCat(PortDir(roots, devname, port), "/hw_counters/rp_cnp_handled");
  absl::StatusOr<uint64_t> cnp0 = ReadU64(cnp_path);
  uint64_t cnp_last = cnp0.ok() ? *cnp0 : 0, cnps = 0;
  if (cc == CcMode::kDcqcn && !cnp0.ok())
    out << "degraded: " << cnp0.status().message()
        << ": DCQCN on the host sees no CNPs (its rate stays at line rate)\n";
  LatencyHistogram lat;
  set.set_latency_histogram(&lat);
  RunReport report(set.num_paths());
  WriteRequest w{reinterpret_cast<uintptr_t>(r.buf), r.mr->lkey, opt.msg_size, raddr, rkey};
  const uint64_t report_ns = std::max<uint64_t>(opt.report_ms, 1) * 1000000ull;
  const uint64_t start = api->HostNowNs();
  const uint64_t end = start + duration_ns;
  uint64_t next_cnp = start, next_report = start + report_ns;
  uint64_t posted = 0, offset = 0;
  bool failed = false;
  RunReport::PrintIntervalHeader(out);
  for (;;) {
    const uint64_t now = api->HostNowNs();
    if (now >= end || (opt.messages != 0 && posted >= opt.messages)) break;
    w.remote_addr = raddr + offset;
    const PostOutcome o = set.PostWrite(w);
    if (o.result == PostResult::kPosted) {
      ++posted;
      offset += opt.msg_size;
      if (offset + opt.msg_size > rlen) offset = 0;
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
        cnps += *c - cnp_last;
        cnp_last = *c;
      }
      next_cnp = now + opt.cnp_poll_us * 1000ull;
    }
    set.Tick();
    if (now >= next_report) {
      RunReport::PrintInterval(report.Sample(now - start, set, cnps), out);
      next_report += report_ns;
      if (next_report <= now) next_report = now + report_ns;
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
  report.Finish(elapsed, set, cnps, lat);
  set.set_latency_histogram(nullptr);
  report.PrintSummary(opt.cc, opt.spray, out);
  const ReportSummary& s = report.summary();
  int rc = failed || s.errors != 0 ? kExitFailed : kExitOk;
  if (ch) {
    absl::Status st = ch->Send(absl::StrFormat("done messages=%u bytes=%u seconds=%.6f\n",
                                               s.messages, s.bytes, s.seconds));
    absl::StatusOr<std::string> bye =
        st.ok() ? ch->Expect("bye", opt.timeout_s) : absl::StatusOr<std::string>(st);
    if (!bye.ok())
      out << "note: the server did not confirm the end: " << bye.status().message() << "\n";
  } else if (r.cm) {
    (void)r.cm->Finish(opt.timeout_s);
  }
  const std::string context = absl::StrFormat(
      "\"tool\": \"nicc-verbs run\", \"cc\": \"%s\", \"spray\": \"%s\", \"paths\": %u, "
      "\"msg_size\": %u, \"line_rate_mbps\": %u",
      opt.cc, opt.spray, set.num_paths(), opt.msg_size, line_mbps);
  if (!opt.json_path.empty()) {
    absl::Status st = report.WriteJson(opt.json_path, context);
    if (!st.ok()) {
      err << "nicc-verbs run: " << st.message() << "\n";
      rc = kExitFailed;
    } else {
      out << "wrote " << opt.json_path << "\n";
    }
  }
  if (!opt.plot_path.empty()) {
    out.flush();  // before the plot script writes to the same stdout
    absl::Status st = report.Plot(opt.plot_path, opt.plot_script);
    if (!st.ok()) {
      err << "nicc-verbs run: " << st.message() << "\n";
      rc = kExitFailed;
    }
  }
  return rc;
}

}  // namespace verbs
}  // namespace nicc
