// nicc/verbs/commands.h — the nicc-verbs subcommands as library functions,
// so tests run them against a fake device and synthetic trees. Each returns
// the process exit code: 0 ok, 1 a check failed or the run failed, 2 no RDMA
// device (or a usage error).
//
//   nicc::verbs::HostRoots roots;
//   int rc = nicc::verbs::CmdList(api.get(), roots, {}, std::cout, std::cerr);
#ifndef NICC_VERBS_COMMANDS_H_
#define NICC_VERBS_COMMANDS_H_

#include <stdint.h>

#include <functional>
#include <iosfwd>
#include <string>

#include "nicc/verbs/doctor.h"
#include "nicc/verbs/path_set.h"
#include "nicc/verbs/sysfs.h"
#include "nicc/verbs/verbs_api.h"

namespace nicc {
namespace verbs {

constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;
constexpr int kExitNoDevice = 2;
constexpr int kExitUsage = 2;
// run: the peer is not there or stopped answering (connection refused, no
// client within --timeout_s, the peer silent for --timeout_s).
constexpr int kExitNoPeer = 3;

struct ListOptions {
  bool all_counters = false;  // every counter, not only the congestion-related ones
};

int CmdList(VerbsApi* api, const HostRoots& roots, const ListOptions& opt, std::ostream& out,
            std::ostream& err);
int CmdDoctor(VerbsApi* api, const HostRoots& roots, const DoctorOptions& opt, std::ostream& out,
              std::ostream& err);

struct RunOptions {
  // Connection setup. The default is the TCP exchange (exchange.h):
  // `server` listens, a non-empty `host` connects to it. With neither, the
  // manual mode: the initiator takes --peer_gid/--peer_qpns/..., the
  // target (role "target") reads the initiator's 'local:' line from `in`.
  bool server = false;
  std::string host;
  uint16_t tcp_port = 18515;     // perftest's default
  double timeout_s = 30;         // connect / accept / each handshake step
  bool rdma_cm = false;          // librdmacm instead of TCP (rdma_cm_link.h)
  std::string json_path;         // --json: the report as JSON
  std::string plot_path;         // --plot: PNG of rate and per-path throughput
  std::string plot_script;       // tools/plot_run.py
  std::function<void(uint16_t)> on_listening;  // server: the TCP port, once listening
  std::string device;            // empty = first device
  uint8_t port = 1;
  int gid_index = -1;            // -1 = first RoCE v2 GID in sysfs, else 0
  std::string role = "initiator";  // or "target"
  std::string peer_gid;
  std::string peer_qpns;         // comma-separated, one per path
  uint32_t peer_psn = 0;
  uint32_t local_psn = 0;
  uint32_t rkey = 0;
  uint64_t addr = 0;             // remote base address
  uint64_t remote_len = 1u << 20;  // bytes of the remote region (writes wrap in it)
  uint32_t msg_size = 65536;
  uint64_t messages = 1000;      // 0 = until duration ends
  double duration_s = 10;
  uint32_t num_paths = 0;        // 0 = peer QPN count (manual), 4 (client); the server takes the client's
  std::string cc = "dcqcn";      // none | dcqcn
  std::string spray = "ops";     // ecmp | ops | bitmap | reps | plb | dlb
  uint32_t flow_label = 0x1A2B0;
  uint32_t line_rate_mbps = 0;   // 0 = from sysfs port rate, else 100000
  bool import_cc_params = false;
  std::string dcqcn_profile = "mlx5";  // a DCQCN profile of the engine's registry
  uint8_t traffic_class = 106;   // DSCP 26 << 2 | ECT(0)
  uint8_t sl = 0;
  uint32_t mtu = 0;              // 0 = port active MTU, else 256..4096
  bool wait = true;              // manual mode: wait for Enter (initiator) / a peer line (target)
  uint32_t cnp_poll_us = 100;    // how often rp_cnp_handled is read
  uint32_t report_ms = 1000;
  uint32_t send_depth = 64;
};

// `in` supplies the peer line (target) or the Enter (initiator) in the
// manual mode only; the exchange never reads it.
int CmdRun(VerbsApi* api, const HostRoots& roots, const RunOptions& opt, std::istream& in,
           std::ostream& out, std::ostream& err);

}  // namespace verbs
}  // namespace nicc

#endif  // NICC_VERBS_COMMANDS_H_
