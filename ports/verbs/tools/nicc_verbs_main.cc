// nicc-verbs — the nicc host shim over rdma-core: list, doctor, run, cc.
// Every flag is documented in --help; docs/verbs.md has worked examples.
//
// Built twice: nicc-verbs (libibverbs) and, with the tests only,
// nicc-verbs-fake (NICC_VERBS_FAKE_DEVICE: the fake device of
// tests/fake_device.h, so two processes can run over the TCP exchange on a
// host without RDMA hardware). The fake build is never installed.
#include <iostream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/flags/usage_config.h"
#include "absl/strings/match.h"
#include "nicc/verbs/cc_apply.h"
#include "nicc/verbs/cli_args.h"
#include "nicc/verbs/commands.h"
#include "nicc/verbs/verbs_api.h"
#ifdef NICC_VERBS_FAKE_DEVICE
#include "fake_device.h"
#endif

// Roots (all commands).
ABSL_FLAG(std::string, sysfs_root, "/sys", "Root of sysfs (class/infiniband, class/net, devices/system/node); point it at a synthetic tree to test");
ABSL_FLAG(std::string, procfs_root, "/proc", "Root of procfs (interrupts, irq/<n>/smp_affinity_list, self/status)");
ABSL_FLAG(std::string, debugfs_root, "/sys/kernel/debug", "Root of debugfs (mlx5/<pci>/cc_params/<name>)");

// list
ABSL_FLAG(bool, all_counters, false, "list: print every hw_counters/ and counters/ file, not only the congestion-related ones");

// doctor
ABSL_FLAG(int, roce_prio, -1, "doctor: priority RoCE traffic uses (0..7) for the ECN checks; -1 checks all eight");

// run: connection setup
ABSL_FLAG(bool, server, false, "run: be the server (perftest style): listen on --tcp_port for one client, accept its RDMA WRITEs, exit when it is done. The client runs `nicc-verbs run HOST`");
ABSL_FLAG(uint32_t, tcp_port, 18515, "run: TCP port of the exchange (and of --rdma-cm); 18515 as perftest");
ABSL_FLAG(double, timeout_s, 30, "run: seconds to wait for the peer at each step (connect, accept, handshake, ready); exit 3 when it is not there");
ABSL_FLAG(bool, rdma_cm, false, "run: set the connection up with librdmacm (spelled --rdma-cm) instead of the TCP exchange: the server's IP address selects the device; at most 8 paths");
ABSL_FLAG(std::string, json, "", "run: write the report (summary, per-path, per-interval) as JSON to this file");
ABSL_FLAG(std::string, plot, "", "run: write a PNG of the throughput, the CC rate and per-path throughput over time (FILE.png; the data in FILE.png.csv; needs python3-matplotlib)");

// cc
ABSL_FLAG(std::string, profile, "", "cc: DCQCN profile of the engine's table (mlx5 | dcqcn-paper); default: the scenario's dcqcn.profile, else mlx5");
ABSL_FLAG(std::vector<std::string>, set, {}, "cc: a DCQCN field over the profile / scenario, dcqcn.<name>=<value> or <name>=<value> (names: nicc-params, docs/params.md); repeat --set or separate with commas");
ABSL_FLAG(std::string, scenario, "", "cc: a nicc-sim scenario file (TOML): its dcqcn.profile and dcqcn.* keys are what diff compares and apply writes");

// run
ABSL_FLAG(std::string, role, "initiator", "run, manual mode (no --server / HOST): 'initiator' sends the RDMA WRITE stream; 'target' registers a buffer, prints its rkey/addr and reads the initiator's line from stdin");
ABSL_FLAG(std::string, device, "", "run: RDMA device name (e.g. mlx5_0, rxe0); empty = the first device");
ABSL_FLAG(int, port, 1, "run: device port number");
ABSL_FLAG(int, gid_index, -1, "run: local GID index; -1 = the highest-numbered RoCE v2 GID in sysfs, else 0");
ABSL_FLAG(std::string, peer_gid, "", "run (initiator): the target's GID, IPv6 text form (e.g. ::ffff:10.0.0.2) or 32 hex digits");
ABSL_FLAG(std::string, peer_qpns, "", "run (initiator): the target's QP numbers, comma-separated, one per path; their count (a power of two) is the number of paths");
ABSL_FLAG(uint32_t, peer_psn, 0, "run: the peer's initial send PSN");
ABSL_FLAG(uint32_t, local_psn, 0, "run: our initial send PSN (also seeds the spray PRNG)");
ABSL_FLAG(uint32_t, rkey, 0, "run (initiator): rkey of the target's buffer");
ABSL_FLAG(uint64_t, addr, 0, "run (initiator): remote virtual address of the target's buffer");
ABSL_FLAG(uint64_t, remote_len, 1 << 20, "run: bytes of the target's buffer; writes wrap inside it (target: bytes to register)");
ABSL_FLAG(uint32_t, msg_size, 65536, "run (client): bytes per RDMA WRITE message; also -s N");
ABSL_FLAG(uint64_t, messages, 1000, "run (client): messages to send; 0 = until --duration_s ends; also -n N");
ABSL_FLAG(double, duration_s, 10, "run: upper bound on the run time in seconds (manual target: how long to serve); also -D N");
ABSL_FLAG(uint32_t, num_paths, 0, "run: number of paths (QPs, a power of two); client default 4 (the server takes the client's); manual initiator: count of --peer_qpns; required for the manual target");
ABSL_FLAG(std::string, cc, "dcqcn", "run: congestion control on the host: none | dcqcn (driven by rp_cnp_handled deltas and timers)");
ABSL_FLAG(std::string, spray, "ops", "run: path policy: ecmp | ops | bitmap | reps | plb | dlb");
ABSL_FLAG(uint32_t, flow_label, 0x1A2B0, "run: base 20-bit GRH flow label; path i uses flow_label ^ i, UDP source port 0xC000 | (fl[13:0] ^ fl[19:14])");
ABSL_FLAG(uint32_t, line_rate_mbps, 0, "run: port speed in Mb/s for the CC; 0 = from sysfs ports/<p>/rate, else 100000");
ABSL_FLAG(std::string, dcqcn_profile, "mlx5", "run: DCQCN parameter profile the host CC starts from: mlx5 | dcqcn-paper (docs/params.md); --import_cc_params overrides it");
ABSL_FLAG(bool, import_cc_params, false, "run: start DCQCN from the device's mlx5 debugfs cc_params instead of the mlx5 defaults");
ABSL_FLAG(uint32_t, traffic_class, 106, "run: GRH traffic class (DSCP << 2 | ECN); 106 = DSCP 26, ECT(0)");
ABSL_FLAG(uint32_t, sl, 0, "run: service level / priority");
ABSL_FLAG(uint32_t, mtu, 0, "run: path MTU in bytes (256..4096); 0 = the port's active MTU");
ABSL_FLAG(bool, wait, true, "run, manual mode: initiator waits for Enter before sending; target waits for the initiator's 'local:' line on stdin");
ABSL_FLAG(uint32_t, cnp_poll_us, 100, "run: how often rp_cnp_handled is read and new CNPs fed to DCQCN (us)");
ABSL_FLAG(uint32_t, report_ms, 1000, "run: progress line period (ms)");
ABSL_FLAG(uint32_t, send_depth, 64, "run: outstanding messages per QP (power of two)");

namespace {

constexpr char kUsage[] =
    "nicc-verbs <list|doctor|run|cc> [flags]\n"
    "\n"
    "The nicc congestion-control engine on a Linux host, over rdma-core.\n"
    "  list    RDMA devices, ports, link layer, state, active MTU, GIDs, completion\n"
    "          timestamp and packet pacing support, port counters (hw_counters/).\n"
    "  doctor  host checklist, each PASS/WARN/FAIL with the command that fixes it:\n"
    "          port state, RDMA MTU vs netdev MTU (jumbo frames), RoCE v2 GID, ECN for\n"
    "          RoCE (roce_np / roce_rp), NIC IRQ affinity vs its NUMA node, NUMA locality.\n"
    "          Exit 1 if any check fails.\n"
    "  run     paces (CC) and sprays (one RC QP per path, distinct flow labels) a\n"
    "          synthetic RDMA WRITE stream, perftest style:\n"
    "            server$ nicc-verbs run --server\n"
    "            client$ nicc-verbs run SERVER_HOST --num_paths=4 --spray=ops --cc=dcqcn -D 10\n"
    "          The two exchange QP numbers, GIDs, PSNs and the buffer's rkey/address over\n"
    "          TCP (--tcp_port, default 18515), or with --rdma-cm through librdmacm. The\n"
    "          client reports every --report_ms and at the end (--json FILE, --plot FILE.png).\n"
    "          perftest's -D (seconds), -s (message size), -n (messages) work too.\n"
    "          Exit 3 when the peer is not there (refused, nothing within --timeout_s).\n"
    "          Manual mode (no --server / HOST): --role=target prints a 'local:' line;\n"
    "          the initiator takes --peer_gid --peer_qpns --rkey --addr.\n"
    "  cc show|apply|diff DEVICE [--profile NAME] [--set k=v] [--scenario FILE]\n"
    "          an mlx5 NIC's DCQCN cc_params (debugfs) beside a profile of the engine's\n"
    "          table, written from it (validated first, rolled back on a failed write;\n"
    "          root), or compared with a nicc-sim scenario file's dcqcn.* keys\n"
    "          (diff exits 1 when they differ).\n"
    "Without an RDMA device every command says what it looked for, how to load a\n"
    "software RoCE device (modprobe rdma_rxe; rdma link add rxe0 type rxe netdev eth0),\n"
    "and exits 2.\n";

std::unique_ptr<nicc::verbs::VerbsApi> MakeApi() {
#ifdef NICC_VERBS_FAKE_DEVICE
  nicc::verbs::testing::FakeDevice::Config cfg;
  cfg.clock_step_ns = 200;  // the fake host clock moves as the run loop reads it
  cfg.record_posts = false;
  return std::make_unique<nicc::verbs::testing::FakeDevice>(cfg);
#else
  return nicc::verbs::RealVerbsApi();
#endif
}

}  // namespace

int main(int argc, char** argv) {
  absl::FlagsUsageConfig cfg;
  cfg.contains_help_flags = [](absl::string_view file) {
    return absl::StrContains(file, "nicc_verbs_main");
  };
  cfg.contains_helpshort_flags = cfg.contains_help_flags;
  absl::SetFlagsUsageConfig(cfg);
  absl::SetProgramUsageMessage(kUsage);
  // perftest's short spellings, --rdma-cm and repeated --set first.
  std::vector<std::string> in(argv, argv + argc), mapped;
  std::string perr;
  if (!nicc::verbs::MapPerftestArgs(in, &mapped, &perr)) {
    std::cerr << "nicc-verbs: " << perr << "\n";
    return nicc::verbs::kExitUsage;
  }
  std::vector<char*> margv;
  for (std::string& a : mapped) margv.push_back(a.data());
  margv.push_back(nullptr);
  std::vector<char*> args = absl::ParseCommandLine(static_cast<int>(mapped.size()), margv.data());
  if (args.size() < 2) {
    std::cerr << "usage: " << kUsage << "\n(see --help for every flag)\n";
    return nicc::verbs::kExitUsage;
  }
  const std::string cmd = args[1];
  const size_t want_args = cmd == "run" ? 3 : cmd == "cc" ? 4 : 2;
  if (args.size() > want_args) {
    std::cerr << "nicc-verbs " << cmd << ": unexpected argument '" << args[want_args]
              << "'\nusage: " << kUsage;
    return nicc::verbs::kExitUsage;
  }
  nicc::verbs::HostRoots roots;
  roots.sysfs = absl::GetFlag(FLAGS_sysfs_root);
  roots.procfs = absl::GetFlag(FLAGS_procfs_root);
  roots.debugfs = absl::GetFlag(FLAGS_debugfs_root);
  if (cmd == "cc") {
    nicc::verbs::CcOptions c;
    c.action = args.size() > 2 ? args[2] : "";
    c.device = args.size() > 3 ? args[3] : "";
    c.profile = absl::GetFlag(FLAGS_profile);
    c.sets = absl::GetFlag(FLAGS_set);
    c.scenario = absl::GetFlag(FLAGS_scenario);
    c.line_rate_mbps = absl::GetFlag(FLAGS_line_rate_mbps);
    return nicc::verbs::CmdCc(roots, c, std::cout, std::cerr);
  }
  std::unique_ptr<nicc::verbs::VerbsApi> api = MakeApi();
  if (cmd == "list") {
    nicc::verbs::ListOptions lo;
    lo.all_counters = absl::GetFlag(FLAGS_all_counters);
    return nicc::verbs::CmdList(api.get(), roots, lo, std::cout, std::cerr);
  }
  if (cmd == "doctor") {
    nicc::verbs::DoctorOptions d;
    d.roce_prio = absl::GetFlag(FLAGS_roce_prio);
    if (d.roce_prio > 7) {
      std::cerr << "nicc-verbs doctor: --roce_prio must be -1 or 0..7\n";
      return nicc::verbs::kExitUsage;
    }
    return nicc::verbs::CmdDoctor(api.get(), roots, d, std::cout, std::cerr);
  }
  if (cmd == "run") {
    nicc::verbs::RunOptions r;
    r.server = absl::GetFlag(FLAGS_server);
    r.host = args.size() > 2 ? args[2] : "";
    const uint32_t tcp_port = absl::GetFlag(FLAGS_tcp_port);
    if (tcp_port > 65535 || (tcp_port == 0 && !r.server)) {
      std::cerr << "nicc-verbs run: --tcp_port must be 1..65535 (0 = any free port, server only)\n";
      return nicc::verbs::kExitUsage;
    }
    r.tcp_port = static_cast<uint16_t>(tcp_port);
    r.timeout_s = absl::GetFlag(FLAGS_timeout_s);
    r.rdma_cm = absl::GetFlag(FLAGS_rdma_cm);
    r.json_path = absl::GetFlag(FLAGS_json);
    r.plot_path = absl::GetFlag(FLAGS_plot);
    r.plot_script = NICC_VERBS_PLOT_SCRIPT;
    r.role = absl::GetFlag(FLAGS_role);
    r.device = absl::GetFlag(FLAGS_device);
    const int port = absl::GetFlag(FLAGS_port);
    if (port < 1 || port > 255) {
      std::cerr << "nicc-verbs run: --port must be 1..255\n";
      return nicc::verbs::kExitUsage;
    }
    r.port = static_cast<uint8_t>(port);
    r.gid_index = absl::GetFlag(FLAGS_gid_index);
    r.peer_gid = absl::GetFlag(FLAGS_peer_gid);
    r.peer_qpns = absl::GetFlag(FLAGS_peer_qpns);
    r.peer_psn = absl::GetFlag(FLAGS_peer_psn);
    r.local_psn = absl::GetFlag(FLAGS_local_psn);
    r.rkey = absl::GetFlag(FLAGS_rkey);
    r.addr = absl::GetFlag(FLAGS_addr);
    r.remote_len = absl::GetFlag(FLAGS_remote_len);
    r.msg_size = absl::GetFlag(FLAGS_msg_size);
    r.messages = absl::GetFlag(FLAGS_messages);
    r.duration_s = absl::GetFlag(FLAGS_duration_s);
    r.num_paths = absl::GetFlag(FLAGS_num_paths);
    r.cc = absl::GetFlag(FLAGS_cc);
    r.spray = absl::GetFlag(FLAGS_spray);
    r.flow_label = absl::GetFlag(FLAGS_flow_label);
    r.line_rate_mbps = absl::GetFlag(FLAGS_line_rate_mbps);
    r.import_cc_params = absl::GetFlag(FLAGS_import_cc_params);
    r.dcqcn_profile = absl::GetFlag(FLAGS_dcqcn_profile);
    const uint32_t tc = absl::GetFlag(FLAGS_traffic_class);
    const uint32_t sl = absl::GetFlag(FLAGS_sl);
    if (tc > 255 || sl > 15) {
      std::cerr << "nicc-verbs run: --traffic_class must be 0..255 and --sl 0..15\n";
      return nicc::verbs::kExitUsage;
    }
    r.traffic_class = static_cast<uint8_t>(tc);
    r.sl = static_cast<uint8_t>(sl);
    r.mtu = absl::GetFlag(FLAGS_mtu);
    r.wait = absl::GetFlag(FLAGS_wait);
    r.cnp_poll_us = absl::GetFlag(FLAGS_cnp_poll_us);
    r.report_ms = absl::GetFlag(FLAGS_report_ms);
    r.send_depth = absl::GetFlag(FLAGS_send_depth);
    return nicc::verbs::CmdRun(api.get(), roots, r, std::cin, std::cout, std::cerr);
  }
  std::cerr << "nicc-verbs: unknown command '" << cmd << "'\nusage: " << kUsage;
  return nicc::verbs::kExitUsage;
}
