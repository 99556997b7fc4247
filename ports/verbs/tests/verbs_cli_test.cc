// The nicc-verbs commands: list and run on the fake device, the no-device
// message from every command, and the real binary as a subprocess.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdio.h>
#include <sys/wait.h>

#include <map>
#include <sstream>
#include <string>

#include "fake_device.h"
#include "nicc/verbs/commands.h"
#include "temp_tree.h"

namespace nicc {
namespace verbs {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::FakeDevice;
using testing::TempTree;

RunOptions InitiatorOpts() {
  RunOptions r;
  r.peer_gid = "::ffff:10.0.0.2";
  r.peer_qpns = "0x901,0x902,0x903,0x904";
  r.rkey = 0x77;
  r.addr = 0x100000;
  r.remote_len = 8 * 4096;
  r.msg_size = 4096;
  r.messages = 64;
  r.duration_s = 5;
  r.wait = false;
  r.line_rate_mbps = 100000;
  return r;
}

TEST(CliListTest, ShowsDevicePortGidsCapsAndCounters) {
  TempTree t;
  t.Write("sys/class/infiniband/fake0/ports/1/gid_attrs/types/3", "RoCE v2\n");
  t.Write("sys/class/infiniband/fake0/ports/1/gid_attrs/ndevs/3", "eth0\n");
  t.Write("sys/class/infiniband/fake0/ports/1/rate", "100 Gb/sec (4X EDR)\n");
  t.Write("sys/class/infiniband/fake0/ports/1/hw_counters/rp_cnp_handled", "5\n");
  t.Write("sys/class/infiniband/fake0/ports/1/hw_counters/np_cnp_sent", "6\n");
  t.Write("sys/class/infiniband/fake0/ports/1/counters/port_xmit_data", "1000\n");
  HostRoots roots;
  roots.sysfs = t.Path("sys");
  FakeDevice dev(FakeDevice::Config{});
  std::ostringstream out, err;
  ASSERT_EQ(CmdList(&dev, roots, ListOptions{}, out, err), kExitOk) << err.str();
  const std::string s = out.str();
  EXPECT_THAT(s, HasSubstr("fake0  fw 1.2.3"));
  EXPECT_THAT(s, HasSubstr("completion timestamps: yes (hca_core_clock 1000000 kHz"));
  EXPECT_THAT(s, HasSubstr("packet pacing (RC): 1000..100000000 kb/s"));
  EXPECT_THAT(s, HasSubstr("port 1: ACTIVE  Ethernet  active MTU 4096 (max 4096)  100 Gb/sec"));
  EXPECT_THAT(s, HasSubstr("gid[3] ::ffff:10.0.0.1  RoCE v2  eth0"));
  EXPECT_THAT(s, HasSubstr("np_cnp_sent=6 rp_cnp_handled=5"));
  EXPECT_THAT(s, HasSubstr("port_xmit_data=1000"));
  EXPECT_EQ(dev.open_contexts, 0);
}

TEST(CliListTest, DeviceWithoutCapabilitiesSaysWhatIsMissing) {
  FakeDevice::Config cfg;
  cfg.completion_timestamp_mask = 0;
  cfg.rate_limit_max_kbps = 0;
  FakeDevice dev(cfg);
  std::ostringstream out, err;
  ASSERT_EQ(CmdList(&dev, HostRoots{}, ListOptions{}, out, err), kExitOk);
  EXPECT_THAT(out.str(), HasSubstr("completion timestamps: no -> RTT from the host clock"));
  EXPECT_THAT(out.str(), HasSubstr("packet pacing (RC): no -> host pacing only"));
}

TEST(CliNoDeviceTest, EveryCommandExplainsAndExitsNonZero) {
  TempTree t;
  t.Mkdir("sys/class/infiniband");  // present, empty
  HostRoots roots;
  roots.sysfs = t.Path("sys");
  for (bool null_list : {false, true}) {
    FakeDevice::Config cfg;
    cfg.num_devices = 0;
    cfg.list_returns_null = null_list;
    FakeDevice dev(cfg);
    std::map<std::string, int> rc;
    std::map<std::string, std::string> msg;
    {
      std::ostringstream out, err;
      rc["list"] = CmdList(&dev, roots, ListOptions{}, out, err);
      msg["list"] = err.str();
    }
    {
      std::ostringstream out, err;
      rc["doctor"] = CmdDoctor(&dev, roots, DoctorOptions{}, out, err);
      msg["doctor"] = err.str();
    }
    {
      std::istringstream in;
      std::ostringstream out, err;
      rc["run"] = CmdRun(&dev, roots, InitiatorOpts(), in, out, err);
      msg["run"] = err.str();
    }
    for (const auto& kv : rc) {
      EXPECT_EQ(kv.second, kExitNoDevice) << kv.first;
      const std::string& m = msg[kv.first];
      EXPECT_THAT(m, HasSubstr("no RDMA device found")) << kv.first;
      EXPECT_THAT(m, HasSubstr("ibv_get_device_list() returned no devices"));
      EXPECT_THAT(m, HasSubstr(roots.sysfs + "/class/infiniband is empty"));
      EXPECT_THAT(m, HasSubstr("modprobe rdma_rxe"));
      EXPECT_THAT(m, HasSubstr("rdma link add rxe0 type rxe netdev eth0"));
      if (null_list) {
        EXPECT_THAT(m, HasSubstr("Function not implemented"));
      }
    }
  }
}

TEST(CliRunTest, InitiatorSpraysAndPacesOnTheFakeDevice) {
  FakeDevice::Config cfg;
  cfg.clock_step_ns = 50;  // the host clock moves as the loop reads it
  FakeDevice dev(cfg);
  TempTree t;
  t.Write("sys/class/infiniband/fake0/ports/1/hw_counters/rp_cnp_handled", "100\n");
  t.Write("sys/class/infiniband/fake0/ports/1/gid_attrs/types/3", "RoCE v2\n");
  HostRoots roots;
  roots.sysfs = t.Path("sys");
  std::istringstream in;
  std::ostringstream out, err;
  ASSERT_EQ(CmdRun(&dev, roots, InitiatorOpts(), in, out, err), kExitOk) << err.str() << out.str();
  ASSERT_EQ(dev.posts.size(), 64u);
  std::map<uint32_t, int> per_qp;
  for (const auto& p : dev.posts) {
    ++per_qp[p.qp_index];
    EXPECT_EQ(p.rkey, 0x77u);
    EXPECT_GE(p.remote_addr, 0x100000u);
    EXPECT_LT(p.remote_addr, 0x100000u + 8 * 4096);
    EXPECT_EQ(p.length, 4096u);
  }
  ASSERT_EQ(per_qp.size(), 4u);
  for (const auto& kv : per_qp) EXPECT_EQ(kv.second, 16) << "ops: equal share per QP";
  for (uint32_t i = 0; i < 4; ++i)
    EXPECT_EQ(dev.dest_qpn_by_qpn[FakeDevice::kFirstQpn + i], 0x901u + i);
  const std::string s = out.str();
  EXPECT_THAT(s, HasSubstr("local: gid=::ffff:10.0.0.1 qpns=256,257,258,259 psn=0"));
  EXPECT_THAT(s, HasSubstr("flow_label 0x1a2b0"));
  EXPECT_THAT(s, HasSubstr("total: 64 messages, 262144 bytes"));
  EXPECT_THAT(s, Not(HasSubstr("degraded")));
}

TEST(CliRunTest, TargetReadsTheInitiatorLineAndConnects) {
  FakeDevice::Config cfg;
  cfg.clock_step_ns = 100000;
  FakeDevice dev(cfg);
  RunOptions r;
  r.role = "target";
  r.num_paths = 2;
  r.duration_s = 0.01;
  r.remote_len = 65536;
  std::istringstream in("local: gid=::ffff:10.0.0.9 qpns=700,701 psn=5\n");
  std::ostringstream out, err;
  ASSERT_EQ(CmdRun(&dev, HostRoots{}, r, in, out, err), kExitOk) << err.str();
  EXPECT_THAT(out.str(), HasSubstr("rkey="));
  EXPECT_THAT(out.str(), HasSubstr("len=65536"));
  EXPECT_EQ(dev.dest_qpn_by_qpn[FakeDevice::kFirstQpn + 1], 701u);
}

TEST(CliRunTest, UsageErrorsAreReported) {
  FakeDevice dev(FakeDevice::Config{});
  std::istringstream in;
  std::ostringstream out, err;
  RunOptions r = InitiatorOpts();
  r.spray = "random";
  EXPECT_EQ(CmdRun(&dev, HostRoots{}, r, in, out, err), kExitUsage);
  EXPECT_THAT(err.str(), HasSubstr("--spray=random"));
  r = InitiatorOpts();
  r.cc = "hpcc";
  EXPECT_EQ(CmdRun(&dev, HostRoots{}, r, in, out, err), kExitUsage);
  r = InitiatorOpts();
  r.dcqcn_profile = "paper";  // the registry's one spelling is dcqcn-paper
  EXPECT_EQ(CmdRun(&dev, HostRoots{}, r, in, out, err), kExitUsage);
  EXPECT_THAT(err.str(), HasSubstr("--dcqcn_profile=paper: expected one of mlx5, dcqcn-paper"));
  r = InitiatorOpts();
  r.peer_qpns = "1,2,3";
  EXPECT_EQ(CmdRun(&dev, HostRoots{}, r, in, out, err), kExitFailed);
  EXPECT_THAT(err.str(), HasSubstr("power of two"));
  r = InitiatorOpts();
  r.peer_gid = "not-a-gid";
  EXPECT_EQ(CmdRun(&dev, HostRoots{}, r, in, out, err), kExitUsage);
  EXPECT_THAT(err.str(), HasSubstr("bad GID"));
}

// The real binary, with the real libibverbs, as a subprocess.
int RunCli(const std::string& args, std::string* output) {
  const std::string cmd = std::string(NICC_VERBS_CLI) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return -1;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) output->append(buf, n);
  const int status = pclose(p);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool HostHasRdmaDevice() {
  int n = 0;
  ibv_device** list = ibv_get_device_list(&n);
  if (list != nullptr) ibv_free_device_list(list);
  return n > 0;
}

TEST(CliBinaryTest, WithoutDevicesEveryCommandSaysSoAndExits2) {
  if (HostHasRdmaDevice()) GTEST_SKIP() << "this host has an RDMA device";
  TempTree t;
  // run in every connection mode looks for a device first (before any
  // waiting for a peer): --server, HOST, --rdma-cm (both roles), manual.
  for (const char* cmd : {"list", "doctor", "run --peer_gid=::1 --peer_qpns=1,2 --rkey=1",
                          "run --server --timeout_s=1", "run 127.0.0.1 --timeout_s=1",
                          "run 127.0.0.1 --rdma-cm --timeout_s=1", "run --server --rdma-cm"}) {
    std::string out;
    EXPECT_EQ(RunCli(std::string(cmd) + " --sysfs_root=" + t.Path("sys"), &out), 2) << cmd;
    EXPECT_THAT(out, HasSubstr("no RDMA device found")) << cmd;
    EXPECT_THAT(out, HasSubstr(t.Path("sys") + "/class/infiniband does not exist"));
    EXPECT_THAT(out, HasSubstr("modprobe rdma_rxe"));
  }
}

TEST(CliBinaryTest, HelpDocumentsCommandsAndFlags) {
  std::string out;
  RunCli("--help", &out);
  for (const char* s : {"list", "doctor", "run", "--peer_qpns", "--sysfs_root", "--procfs_root",
                        "--debugfs_root", "--spray", "--cc", "rdma_rxe", "--server", "--tcp_port",
                        "--timeout_s", "--rdma_cm", "--json", "--plot", "cc show|apply|diff",
                        "--profile", "--set", "--scenario", "-D (seconds)"})
    EXPECT_THAT(out, HasSubstr(s));
  std::string bad;
  EXPECT_EQ(RunCli("frobnicate", &bad), 2);
  EXPECT_THAT(bad, HasSubstr("unknown command"));
}

}  // namespace
}  // namespace verbs
}  // namespace nicc
