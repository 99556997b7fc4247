// nicc-verbs run: the option checks and the setup (device, connection by
// TCP exchange, --rdma-cm or the manual mode, PD, QPs, buffer), then the
// stream and its report (run_stream.cc); the shared state is run_session.h.
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
#include "run_session.h"

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

// The connection mode (--server, HOST or the manual mode) and the options
// it decides on.
int CheckRunMode(RunSession& s) {
  const RunOptions& opt = s.opt;
  std::ostream& err = s.err;
  s.mode = opt.server ? RunMode::kServer : !opt.host.empty() ? RunMode::kClient : RunMode::kManual;
  const RunMode mode = s.mode;
  if (opt.server && !opt.host.empty()) {
    err << "nicc-verbs run: --server takes no HOST (the client names the server)\n";
    return kExitUsage;
  }
  // The server receives writes, the client sends them (as ib_write_bw).
  s.target = mode == RunMode::kServer || (mode == RunMode::kManual && opt.role == "target");
  if (mode == RunMode::kManual && opt.role != "target" && opt.role != "initiator") {
    err << "nicc-verbs run: --role=" << opt.role << ": expected initiator or target\n";
    return kExitUsage;
  }
  if (mode == RunMode::kManual && !s.target && opt.peer_qpns.empty()) {
    err << "nicc-verbs run: name the server: `nicc-verbs run HOST` (and `nicc-verbs run --server` "
           "on HOST), or give --peer_gid/--peer_qpns/--rkey/--addr (manual mode)\n";
    return kExitUsage;
  }
  if (opt.rdma_cm && mode == RunMode::kManual) {
    err << "nicc-verbs run: --rdma-cm needs --server or HOST\n";
    return kExitUsage;
  }
  if (opt.rdma_cm && !CmLink::Built()) {
    err << "nicc-verbs run: --rdma-cm: this nicc-verbs was built without librdmacm (install "
           "librdmacm-dev and rebuild); the TCP exchange (the default) needs no librdmacm\n";
    return kExitUsage;
  }
  if (mode != RunMode::kManual && (opt.timeout_s <= 0 || opt.timeout_s > 86400)) {
    err << "nicc-verbs run: --timeout_s must be in (0, 86400]\n";
    return kExitUsage;
  }
  return kExitOk;
}

// --cc, --spray and --dcqcn_profile.
int CheckCcOptions(RunSession& s) {
  const RunOptions& opt = s.opt;
  std::ostream& err = s.err;
  if (opt.cc == "none") {
    s.cc = CcMode::kNone;
  } else if (opt.cc == "dcqcn") {
    s.cc = CcMode::kDcqcn;
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
  s.policy = *policy;
  s.profile = FindProfile(dcqcn::kParamTable, opt.dcqcn_profile.c_str());
  if (s.profile < 0) {
    err << "nicc-verbs run: --dcqcn_profile=" << opt.dcqcn_profile << ": expected one of "
        << host::ProfileList(dcqcn::kParamTable) << "\n";
    return kExitUsage;
  }
  return kExitOk;
}

// The path count, the manual initiator's peer (--peer_qpns, --peer_gid,
// --rkey), the message size and the MTU.
int CheckPathOptions(RunSession& s) {
  const RunOptions& opt = s.opt;
  std::ostream& err = s.err;
  const RunMode mode = s.mode;
  uint32_t& num_paths = s.num_paths;
  num_paths = opt.num_paths;
  if (mode == RunMode::kManual && !s.target) {
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
    s.peer.qpns = *qpns;
    s.peer.gid = *gid;
    if (num_paths == 0) num_paths = static_cast<uint32_t>(qpns->size());
  } else if (mode == RunMode::kManual && num_paths == 0) {
    err << "nicc-verbs run --role=target: give --num_paths (the initiator's path count)\n";
    return kExitUsage;
  }
  if (mode == RunMode::kClient) {
    if (num_paths == 0) num_paths = 4;
    const uint32_t max_paths = opt.rdma_cm ? kMaxCmPaths : kMaxOobPaths;
    if ((num_paths & (num_paths - 1)) != 0 || num_paths > max_paths) {
      err << "nicc-verbs run: --num_paths=" << num_paths << ": expected a power of two, 1.."
          << max_paths << (opt.rdma_cm ? " (--rdma-cm: what its private data holds)" : "") << "\n";
      return kExitUsage;
    }
  }
  if (!s.target && (opt.msg_size == 0 || opt.remote_len < opt.msg_size)) {
    err << "nicc-verbs run: need --msg_size > 0 and --remote_len >= --msg_size\n";
    return kExitUsage;
  }
  if (opt.mtu != 0 && static_cast<int>(BytesToMtu(opt.mtu)) == 0) {
    err << "nicc-verbs run: --mtu=" << opt.mtu << ": expected 256, 512, 1024, 2048 or 4096\n";
    return kExitUsage;
  }
  return kExitOk;
}

// Opens the device. Every mode looks for one first: the same no-device
// message everywhere, before any waiting for a peer.
int OpenRunDevice(RunSession& s) {
  absl::StatusOr<ibv_context*> ctx = OpenDeviceByName(s.api, s.roots, s.opt.device, &s.devname);
  if (!ctx.ok()) {
    s.err << "nicc-verbs run: " << ctx.status().message();
    if (absl::IsNotFound(ctx.status())) return kExitNoDevice;
    s.err << "\n";
    return kExitFailed;
  }
  s.r.ctx = *ctx;
  s.port = s.opt.port;
  return kExitOk;
}

// --rdma-cm: rdma_cm picks the device (and port) from the address; the
// server gets the client's hello with its connect request.
int ReachPeerByCm(RunSession& s) {
  const RunOptions& opt = s.opt;
  RunResources& r = s.r;
  (void)s.api->CloseDevice(r.ctx);
  r.ctx = nullptr;
  absl::StatusOr<std::unique_ptr<CmLink>> l =
      s.target ? CmLink::Server(opt.tcp_port, opt.timeout_s)
               : CmLink::Client(opt.host, opt.tcp_port, opt.timeout_s);
  if (!l.ok()) {
    s.err << "nicc-verbs run: " << l.status().message() << "\n";
    return ExitFor(l.status());
  }
  r.cm = std::move(*l);
  r.ctx = r.cm->context();
  r.own_ctx = false;
  s.port = r.cm->port_num();
  s.devname = s.api->GetDeviceName(r.ctx->device);
  if (s.target) s.peer_hello = r.cm->request();
  return kExitOk;
}

// Server: listens on --tcp_port, accepts one client and reads its hello.
int AcceptClient(RunSession& s) {
  const RunOptions& opt = s.opt;
  absl::StatusOr<OobChannel> l = OobChannel::Listen(opt.tcp_port);
  if (!l.ok()) {
    s.err << "nicc-verbs run --server: " << l.status().message() << "\n";
    return kExitUsage;
  }
  s.ch = std::make_unique<OobChannel>(std::move(*l));
  OobChannel& ch = *s.ch;
  s.out << "server: waiting for a client on TCP port " << ch.port() << " (up to " << opt.timeout_s
        << " s)\n";
  s.out.flush();
  if (opt.on_listening) opt.on_listening(ch.port());
  absl::Status st = ch.Accept(opt.timeout_s);
  if (!st.ok()) {
    s.err << "nicc-verbs run --server: " << st.message() << "\n";
    return ExitFor(st);
  }
  absl::StatusOr<Hello> h = ch.RecvHello(opt.timeout_s);
  if (!h.ok()) {
    s.err << "nicc-verbs run --server: from " << ch.peer() << ": " << h.status().message() << "\n";
    if (!absl::IsFailedPrecondition(h.status()) ||
        !absl::StrContains(h.status().message(), "refused"))
      ch.SendError(std::string(h.status().message()));
    return ExitFor(h.status());
  }
  s.peer_hello = *h;
  return kExitOk;
}

// Reaches the peer (rdma_cm, or the TCP exchange as server or client; the
// manual mode has none); the server learns the client's path count.
int ReachPeer(RunSession& s) {
  const RunOptions& opt = s.opt;
  if (opt.rdma_cm) {
    const int rc = ReachPeerByCm(s);
    if (rc != kExitOk) return rc;
  } else if (s.mode == RunMode::kServer) {
    const int rc = AcceptClient(s);
    if (rc != kExitOk) return rc;
  } else if (s.mode == RunMode::kClient) {
    absl::StatusOr<OobChannel> c = OobChannel::Connect(opt.host, opt.tcp_port, opt.timeout_s);
    if (!c.ok()) {
      s.err << "nicc-verbs run: " << c.status().message() << "\n";
      return ExitFor(c.status());
    }
    s.ch = std::make_unique<OobChannel>(std::move(*c));
  }
  if (s.target && s.mode == RunMode::kServer) {
    s.num_paths = static_cast<uint32_t>(s.peer_hello.paths.size());
    s.out << "server: client " << (s.ch ? s.ch->peer() : GidToString(s.peer_hello.paths[0].gid))
          << " asks for " << s.num_paths << " paths\n";
  }
  return kExitOk;
}

// The GID index (--gid_index, else the port's highest RoCE v2 GID, else 0)
// and the line rate (--line_rate_mbps, else the port's rate, else 100 Gb/s).
void PickGidAndRate(RunSession& s, const absl::StatusOr<SysfsDevice>& sd) {
  int gid_index = s.opt.gid_index;
  if (gid_index < 0) {
    gid_index = 0;
    if (sd.ok())
      for (const SysfsPort& p : sd->ports)
        if (p.num == s.port)
          for (auto it = p.gid_types.rbegin(); it != p.gid_types.rend(); ++it)
            if (it->second.find("v2") != std::string::npos) gid_index = it->first;
  }
  uint32_t line_mbps = s.opt.line_rate_mbps;
  if (line_mbps == 0 && sd.ok())
    for (const SysfsPort& p : sd->ports)
      if (p.num == s.port) line_mbps = ParseRateMbps(p.rate);
  if (line_mbps == 0) line_mbps = 100000;
  s.gid_index = gid_index;
  s.line_mbps = line_mbps;
}

// The paths' options: QPs, spray policy, CC with --dcqcn_profile's parameters.
PathSetOptions PathOptions(const RunSession& s) {
  const RunOptions& opt = s.opt;
  PathSetOptions po;
  po.port_num = s.port;
  po.gid_index = s.gid_index;
  po.num_paths = s.num_paths;
  po.flow_label = opt.flow_label;
  po.policy = s.policy;
  po.cc = s.cc;
  po.line_rate_mbps = s.line_mbps;
  po.dcqcn = dcqcn::Params::Of(static_cast<dcqcn::Profile>(s.profile), s.line_mbps);
  po.send_depth = opt.send_depth;
  po.seed = opt.local_psn + 1;
  return po;
}

// Allocates the PD and creates the paths (QPs and their CQ); with
// --import_cc_params DCQCN starts from the device's mlx5 cc_params.
int CreatePaths(RunSession& s) {
  const RunOptions& opt = s.opt;
  std::ostream& err = s.err;
  RunResources& r = s.r;
  r.pd = s.api->AllocPd(r.ctx);
  if (r.pd == nullptr) {
    err << "nicc-verbs run: ibv_alloc_pd failed: " << strerror(errno) << "\n";
    if (s.ch)
      s.ch->SendError(absl::StrCat("the ", s.me(), " could not allocate a protection domain"));
    return kExitFailed;
  }
  absl::StatusOr<SysfsDevice> sd = ReadSysfsDevice(s.roots, s.devname);
  PickGidAndRate(s, sd);
  PathSetOptions po = PathOptions(s);
  if (opt.import_cc_params) {
    absl::StatusOr<CcParamsImport> imp =
        ImportMlx5CcParams(s.roots, sd.ok() ? sd->pci : std::string(), s.line_mbps);
    if (!imp.ok()) {
      err << "nicc-verbs run: --import_cc_params: " << imp.status().message() << "\n";
      if (s.ch) s.ch->SendError(absl::StrCat("the ", s.me(), " failed: --import_cc_params"));
      return kExitFailed;
    }
    po.dcqcn = imp->params;
    s.out << "cc_params: imported " << imp->applied.size() << " fields from " << imp->dir;
    if (!imp->missing.empty())
      s.out << "; " << imp->missing.size() << " missing (mlx5 defaults kept)";
    s.out << "\n";
  }
  absl::StatusOr<std::unique_ptr<PathSet>> ps = PathSet::Create(s.api, r.ctx, r.pd, po);
  if (!ps.ok()) {
    err << "nicc-verbs run: " << ps.status().message() << "\n";
    if (s.ch) s.ch->SendError(absl::StrCat("the ", s.me(), " failed: ", ps.status().message()));
    return kExitFailed;
  }
  r.ps = std::move(*ps);
  for (const std::string& note : s.set().caps().notes) s.out << "degraded: " << note << "\n";
  return kExitOk;
}

// Allocates and registers the buffer: the target's the writes land in,
// the initiator's they are sent from.
int RegisterBuffer(RunSession& s) {
  RunResources& r = s.r;
  s.buf_len = s.target ? s.opt.remote_len : s.opt.msg_size;
  const size_t buf_len = s.buf_len;
  r.buf = aligned_alloc(4096, (buf_len + 4095) / 4096 * 4096);
  if (r.buf == nullptr) {
    s.err << "nicc-verbs run: cannot allocate " << buf_len << " bytes\n";
    if (s.ch) s.ch->SendError(absl::StrCat("the ", s.me(), " cannot allocate its buffer"));
    return kExitFailed;
  }
  memset(r.buf, 0x5A, buf_len);
  r.mr = s.api->RegMr(r.pd, r.buf, buf_len,
                      IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
  if (r.mr == nullptr) {
    s.err << "nicc-verbs run: ibv_reg_mr(" << buf_len << " B) failed: " << strerror(errno) << "\n";
    if (s.ch) s.ch->SendError(absl::StrCat("the ", s.me(), " cannot register its buffer"));
    return kExitFailed;
  }
  return kExitOk;
}

// Our hello (GID, QPNs, PSN; the target's buffer too); the manual mode
// prints it as the 'local:' line for the peer.
void DescribeLocalEnd(RunSession& s) {
  const RunOptions& opt = s.opt;
  PathSet& set = s.set();
  (void)s.api->QueryGid(s.r.ctx, s.port, s.gid_index, &s.local_gid);
  for (uint32_t i = 0; i < set.num_paths(); ++i) {
    PathEndpoint e;
    e.qpn = set.stats(i).qpn;
    e.psn = opt.local_psn & 0xFFFFFF;
    e.gid = s.local_gid;
    if (s.target) {
      e.rkey = s.r.mr->rkey;
      e.addr = reinterpret_cast<uintptr_t>(s.r.buf);
      e.len = s.buf_len;
    }
    s.mine.paths.push_back(e);
  }
  if (s.mode != RunMode::kManual) return;
  std::vector<std::string> qpns;
  for (uint32_t i = 0; i < set.num_paths(); ++i) qpns.push_back(absl::StrCat(set.stats(i).qpn));
  s.out << "local: gid=" << GidToString(s.local_gid) << " qpns=" << absl::StrJoin(qpns, ",")
        << " psn=" << opt.local_psn;
  if (s.target)
    s.out << " rkey=" << s.r.mr->rkey << " addr=0x"
          << absl::StrCat(absl::Hex(reinterpret_cast<uintptr_t>(s.r.buf))) << " len=" << s.buf_len;
  s.out << "\n";
  s.out.flush();
}

// Takes the peer's endpoints from its hello (the initiator: its buffer too).
void AdoptPeer(RunSession& s, const Hello& h) {
  s.peer.gid = h.paths[0].gid;
  s.peer.psn = h.paths[0].psn;
  s.peer.qpns.clear();
  for (const PathEndpoint& e : h.paths) s.peer.qpns.push_back(e.qpn);
  if (!s.target) {
    s.rkey = h.paths[0].rkey;
    s.raddr = h.paths[0].addr;
    s.rlen = h.paths[0].len;
  }
}

// The client's checks of the server's reply.
absl::Status CheckServerHello(const RunSession& s, const Hello& h) {
  if (h.paths.size() != s.num_paths)
    return absl::InvalidArgumentError(absl::StrCat("the server answered with ", h.paths.size(),
                                                   " paths, the client asked for ", s.num_paths));
  if (h.paths[0].len < s.opt.msg_size || h.paths[0].rkey == 0)
    return absl::InvalidArgumentError(
        absl::StrCat("the server's buffer is ", h.paths[0].len, " bytes, smaller than --msg_size=",
                     s.opt.msg_size, " (give the server a larger --remote_len)"));
  return absl::OkStatus();
}

// Manual target: the initiator's 'local:' line, pasted on stdin.
int ReadInitiatorLine(RunSession& s) {
  s.out << "paste the initiator's 'local:' line here:\n";
  s.out.flush();
  std::string line;
  if (!std::getline(s.in, line)) {
    s.err << "nicc-verbs run --role=target: no initiator line on stdin\n";
    return kExitFailed;
  }
  absl::StatusOr<std::vector<uint32_t>> pq = ParseQpns(KvGet(line, "qpns"));
  absl::StatusOr<ibv_gid> pg = ParseGid(KvGet(line, "gid"));
  uint32_t ppsn = 0;
  if (!pq.ok() || !pg.ok() || !absl::SimpleAtoi(KvGet(line, "psn"), &ppsn)) {
    s.err << "nicc-verbs run --role=target: cannot parse '" << line
          << "': expected 'local: gid=<gid> qpns=<a,b,..> psn=<n>'\n";
    return kExitFailed;
  }
  s.peer.qpns = *pq;
  s.peer.gid = *pg;
  s.peer.psn = ppsn;
  return kExitOk;
}

// The peer's endpoints: from the flags (manual initiator), the pasted line
// (manual target), rdma_cm's handshake or the TCP exchange of hellos.
int ExchangeEndpoints(RunSession& s) {
  const RunOptions& opt = s.opt;
  s.peer.psn = opt.peer_psn;
  s.peer.local_psn = opt.local_psn;
  s.peer.traffic_class = opt.traffic_class;
  s.peer.sl = opt.sl;
  s.peer.mtu = BytesToMtu(opt.mtu);
  s.rkey = opt.rkey;
  s.raddr = opt.addr;
  s.rlen = opt.remote_len;
  if (s.mode == RunMode::kManual && s.target) return ReadInitiatorLine(s);
  if (opt.rdma_cm) {
    if (s.target) {
      AdoptPeer(s, s.peer_hello);
    } else {
      absl::StatusOr<Hello> h = s.r.cm->Establish(s.mine, opt.timeout_s);
      absl::Status st = h.ok() ? CheckServerHello(s, *h) : h.status();
      if (!st.ok()) {
        s.err << "nicc-verbs run --rdma-cm: " << st.message() << "\n";
        return ExitFor(st);
      }
      AdoptPeer(s, *h);
    }
  } else if (s.mode == RunMode::kServer) {
    AdoptPeer(s, s.peer_hello);
    absl::Status st = s.ch->Send(EncodeHello(s.mine));
    if (!st.ok()) {
      s.err << "nicc-verbs run --server: " << st.message() << "\n";
      return ExitFor(st);
    }
  } else if (s.mode == RunMode::kClient) {
    absl::Status st = s.ch->Send(EncodeHello(s.mine));
    absl::StatusOr<Hello> h = st.ok() ? s.ch->RecvHello(opt.timeout_s) : absl::StatusOr<Hello>(st);
    st = h.ok() ? CheckServerHello(s, *h) : h.status();
    if (!st.ok()) {
      s.err << "nicc-verbs run: from the server " << opt.host << ": " << st.message() << "\n";
      if (h.ok() || absl::IsInvalidArgument(h.status()) ||
          (absl::IsFailedPrecondition(h.status()) && !absl::StrContains(st.message(), "refused")))
        s.ch->SendError(std::string(st.message()));
      return ExitFor(st);
    }
    AdoptPeer(s, *h);
  }
  return kExitOk;
}

// Connects each path's QP to the peer's and prints the paths.
int ConnectPaths(RunSession& s) {
  PathSet& set = s.set();
  const absl::Status cst = set.Connect(s.peer);
  if (!cst.ok()) {
    s.err << "nicc-verbs run: " << cst.message() << "\n";
    if (s.ch)
      s.ch->SendError(absl::StrCat("the ", s.me(), " could not connect its QPs: ", cst.message()));
    return kExitFailed;
  }
  s.out << "connected " << set.num_paths() << " paths to " << GidToString(s.peer.gid) << "\n";
  for (uint32_t i = 0; i < set.num_paths(); ++i)
    s.out << absl::StrFormat("  path %u: qpn %u -> %u  flow_label 0x%05x  udp_sport %u\n", i,
                             set.stats(i).qpn, s.peer.qpns[i], set.stats(i).flow_label,
                             set.stats(i).udp_sport);
  return kExitOk;
}

}  // namespace

int CmdRun(VerbsApi* api, const HostRoots& roots, const RunOptions& opt, std::istream& in,
           std::ostream& out, std::ostream& err) {
  RunSession s(api, roots, opt, in, out, err);
  // Setup: each step says what went wrong and returns its exit code; what
  // it acquired is released by s.r in reverse order on every return.
  int rc = CheckRunMode(s);
  if (rc == kExitOk) rc = CheckCcOptions(s);
  if (rc == kExitOk) rc = CheckPathOptions(s);
  if (rc == kExitOk) rc = OpenRunDevice(s);
  if (rc == kExitOk) rc = ReachPeer(s);
  if (rc == kExitOk) rc = CreatePaths(s);
  if (rc == kExitOk) rc = RegisterBuffer(s);
  if (rc != kExitOk) return rc;
  DescribeLocalEnd(s);
  rc = ExchangeEndpoints(s);
  if (rc == kExitOk) rc = ConnectPaths(s);
  if (rc != kExitOk) return rc;
  if (s.target) return s.mode == RunMode::kManual ? ServeForDuration(s) : ServeClient(s);
  rc = WaitForStart(s);
  if (rc != kExitOk) return rc;
  // The stream, then its report.
  RunReport report(s.set().num_paths());
  const bool posted_all = StreamWrites(s, report);
  return ReportRun(s, report, !posted_all);
}

}  // namespace verbs
}  // namespace nicc
