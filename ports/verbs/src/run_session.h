// run_session.h — the state the steps of `nicc-verbs run` share, internal to
// ports/verbs: run.cc checks the options and sets the run up (device,
// connection, PD, QPs, buffer, the peer's endpoints), run_stream.cc serves
// the writes (target) or streams them and reports (initiator).
//
//   RunSession s(api, roots, opt, in, out, err);
//   ... the setup steps of run.cc fill it, each returning an exit code ...
//   if (s.target) return s.mode == RunMode::kManual ? ServeForDuration(s) : ServeClient(s);
//   RunReport report(s.set().num_paths());
//   return ReportRun(s, report, !StreamWrites(s, report));
#ifndef NICC_VERBS_RUN_SESSION_H_
#define NICC_VERBS_RUN_SESSION_H_

#include <infiniband/verbs.h>
#include <stdint.h>
#include <stdlib.h>

#include <iosfwd>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "nicc/verbs/commands.h"
#include "nicc/verbs/exchange.h"
#include "nicc/verbs/path_set.h"
#include "nicc/verbs/rdma_cm_link.h"
#include "nicc/verbs/run_report.h"
#include "nicc/verbs/verbs_api.h"

namespace nicc {
namespace verbs {

enum class RunMode { kManual, kServer, kClient };

// Exit status of a failed connection step (exchange.h's status codes).
inline int ExitFor(const absl::Status& s) {
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

// One run: what CmdRun was given, what the option checks decided, what it
// acquired and what the two ends told each other. Members are destroyed in
// reverse order, so the TCP channel closes before the verbs objects go.
struct RunSession {
  RunSession(VerbsApi* a, const HostRoots& rts, const RunOptions& o, std::istream& i,
             std::ostream& os, std::ostream& es)
      : api(a), roots(rts), opt(o), in(i), out(os), err(es) {
    r.api = a;
  }
  RunSession(const RunSession&) = delete;
  RunSession& operator=(const RunSession&) = delete;

  PathSet& set() { return *r.ps; }  // once CreatePaths has run
  // Who we are in the error lines sent to the peer.
  const char* me() const { return target ? "server" : "client"; }
  uint64_t duration_ns() const { return static_cast<uint64_t>(opt.duration_s * 1e9); }

  // Given.
  VerbsApi* api;
  const HostRoots& roots;
  const RunOptions& opt;
  std::istream& in;  // the manual mode's peer line or Enter
  std::ostream& out;
  std::ostream& err;

  // What the option checks decided.
  RunMode mode = RunMode::kManual;
  bool target = false;  // receives the writes: the server or the manual target
  CcMode cc = CcMode::kNone;
  spray::Policy policy = spray::Policy::kOps;
  int32_t profile = 0;     // in dcqcn::kParamTable
  uint32_t num_paths = 0;  // the server takes the client's count

  // The device, the connection to the peer and the verbs objects.
  RunResources r;
  std::string devname;
  uint8_t port = 0;
  std::unique_ptr<OobChannel> ch;  // the TCP exchange (server, client)
  Hello peer_hello;                // server: the client's hello

  // The local end.
  int gid_index = 0;
  uint32_t line_mbps = 0;
  size_t buf_len = 0;  // target: --remote_len, initiator: --msg_size
  ibv_gid local_gid{};
  Hello mine;

  // The remote end: its QPs and (initiator) the buffer the writes go to.
  PeerInfo peer;
  uint32_t rkey = 0;
  uint64_t raddr = 0, rlen = 0;
};

// run_stream.cc. Each prints what it does to s.out, what went wrong to
// s.err, and returns the exit code (StreamWrites: false if posting failed).

// Manual target: serves for --duration_s while the initiator writes.
int ServeForDuration(RunSession& s);
// Server: lets the client write ("ready", or rdma_cm's accept), then waits
// for its end.
int ServeClient(RunSession& s);
// Initiator: waits for the server's "ready" (TCP) or for Enter (manual --wait).
int WaitForStart(RunSession& s);
// The paced, sprayed WRITE stream, its interval lines and the drain; fills
// `report` up to its summary.
bool StreamWrites(RunSession& s, RunReport& report);
// The summary, the end of the exchange with the server, --json and --plot.
int ReportRun(RunSession& s, const RunReport& report, bool failed);

}  // namespace verbs
}  // namespace nicc

#endif  // NICC_VERBS_RUN_SESSION_H_
