// doctor on synthetic sysfs / procfs trees with a fake device: every check,
// its verdict and its fix command, including missing and malformed files.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "fake_device.h"
#include "nicc/verbs/commands.h"
#include "nicc/verbs/doctor.h"
#include "temp_tree.h"

namespace nicc {
namespace verbs {
namespace {

using ::testing::HasSubstr;
using testing::FakeDevice;
using testing::TempTree;

// A healthy mlx5-like host: fake0 port 1 on eth0, NUMA node 1 (CPUs 8-15).
class DoctorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    roots_.sysfs = t_.Path("sys");
    roots_.procfs = t_.Path("proc");
    t_.Mkdir("sys/devices/pci0000:00/0000:3b:00.0/net/eth0");
    t_.Symlink("sys/devices/pci0000:00/0000:3b:00.0", "sys/class/infiniband/fake0/device");
    t_.Write("sys/class/infiniband/fake0/ports/1/gid_attrs/types/3", "RoCE v2\n");
    t_.Write("sys/class/infiniband/fake0/ports/1/gid_attrs/ndevs/3", "eth0\n");
    t_.Write("sys/class/net/eth0/mtu", "9000\n");
    for (int p = 0; p < 8; ++p) {
      t_.Write("sys/class/net/eth0/ecn/roce_np/enable/" + std::to_string(p), "1\n");
      t_.Write("sys/class/net/eth0/ecn/roce_rp/enable/" + std::to_string(p), "1\n");
    }
    t_.Write("sys/class/net/eth0/device/numa_node", "1\n");
    t_.Write("sys/devices/system/node/node1/cpulist", "8-15\n");
    t_.Write("sys/class/net/eth0/device/msi_irqs/40", "msix\n");
    t_.Write("sys/class/net/eth0/device/msi_irqs/41", "msix\n");
    t_.Write("proc/irq/40/smp_affinity_list", "8-11\n");
    t_.Write("proc/irq/41/smp_affinity_list", "12\n");
    t_.Write("proc/self/status", "Name:\tx\nCpus_allowed_list:\t8-15\n");
  }
  std::vector<Check> Run(const FakeDevice::Config& cfg = FakeDevice::Config{},
                         DoctorOptions opt = DoctorOptions{}) {
    FakeDevice dev(cfg);
    absl::StatusOr<std::vector<DeviceInfo>> devs = QueryDevices(&dev, roots_);
    EXPECT_TRUE(devs.ok()) << devs.status();
    EXPECT_EQ(dev.open_contexts, 0);
    return devs.ok() ? RunDoctor(roots_, *devs, opt) : std::vector<Check>{};
  }
  static Check Find(const std::vector<Check>& cs, const std::string& name) {
    for (const Check& c : cs)
      if (c.name == name) return c;
    ADD_FAILURE() << "no check " << name;
    return Check{"missing", "", Verdict::kFail, "", ""};
  }

  TempTree t_;
  HostRoots roots_;
};

TEST_F(DoctorTest, HealthyHostPassesEveryCheck) {
  const std::vector<Check> cs = Run();
  ASSERT_EQ(cs.size(), 7u);
  for (const Check& c : cs) {
    EXPECT_EQ(c.verdict, Verdict::kPass) << FormatCheck(c);
    EXPECT_EQ(c.subject, "fake0/1 (eth0)");
    EXPECT_TRUE(c.fix.empty());
  }
}

TEST_F(DoctorTest, SmallMtuWarnsWithJumboFix) {
  t_.Write("sys/class/net/eth0/mtu", "1500\n");
  FakeDevice::Config cfg;
  cfg.active_mtu = IBV_MTU_1024;
  const Check c = Find(Run(cfg), "mtu");
  EXPECT_EQ(c.verdict, Verdict::kWarn);
  EXPECT_THAT(c.detail, HasSubstr("active MTU 1024"));
  EXPECT_THAT(c.detail, HasSubstr("eth0 MTU 1500"));
  EXPECT_THAT(c.fix, HasSubstr("ip link set dev eth0 mtu 9000"));
  EXPECT_THAT(c.fix, HasSubstr("end to end"));
}

TEST_F(DoctorTest, TinyMtuFailsAndUnreadableNetdevMtuWarns) {
  FakeDevice::Config cfg;
  cfg.active_mtu = IBV_MTU_512;
  EXPECT_EQ(Find(Run(cfg), "mtu").verdict, Verdict::kFail);
  t_.Write("sys/class/net/eth0/mtu", "nine thousand\n");
  const Check c = Find(Run(), "mtu");
  EXPECT_EQ(c.verdict, Verdict::kWarn);
  EXPECT_THAT(c.detail, HasSubstr(t_.Path("sys/class/net/eth0/mtu") + ":1:"));
}

TEST_F(DoctorTest, EcnDisabledFailsWithEchoFix) {
  for (int p = 0; p < 8; ++p)
    t_.Write("sys/class/net/eth0/ecn/roce_rp/enable/" + std::to_string(p), "0\n");
  t_.Write("sys/class/net/eth0/ecn/roce_np/enable/5", "0\n");
  const std::vector<Check> cs = Run();
  const Check rp = Find(cs, "ecn_rp");
  EXPECT_EQ(rp.verdict, Verdict::kFail);
  EXPECT_THAT(rp.fix, HasSubstr("echo 1 > " + t_.Path("sys/class/net/eth0/ecn/roce_rp/enable")));
  const Check np = Find(cs, "ecn_np");
  EXPECT_EQ(np.verdict, Verdict::kWarn);  // one priority of eight
  EXPECT_THAT(np.detail, HasSubstr("disabled on priority 5"));
  DoctorOptions only3;
  only3.roce_prio = 3;
  EXPECT_EQ(Find(Run(FakeDevice::Config{}, only3), "ecn_np").verdict, Verdict::kPass);
  only3.roce_prio = 5;
  EXPECT_EQ(Find(Run(FakeDevice::Config{}, only3), "ecn_np").verdict, Verdict::kFail);
}

TEST_F(DoctorTest, EcnNotExposedOrMalformedWarns) {
  t_.Write("sys/class/net/eth0/ecn/roce_np/enable/2", "yes\n");
  t_.Remove("sys/class/net/eth0/ecn/roce_rp");
  const std::vector<Check> cs = Run();
  EXPECT_EQ(Find(cs, "ecn_np").verdict, Verdict::kWarn);
  EXPECT_THAT(Find(cs, "ecn_np").detail, HasSubstr("roce_np/enable/2:1:"));
  EXPECT_EQ(Find(cs, "ecn_rp").verdict, Verdict::kWarn);
  EXPECT_THAT(Find(cs, "ecn_rp").detail, HasSubstr("not found"));
}

TEST_F(DoctorTest, IrqsOffTheNicNodeWarnOrFail) {
  t_.Write("proc/irq/41/smp_affinity_list", "0-3\n");
  Check c = Find(Run(), "irq_affinity");
  EXPECT_EQ(c.verdict, Verdict::kWarn);
  EXPECT_THAT(c.detail, HasSubstr("1 of 2 IRQs off node 1"));
  EXPECT_THAT(c.detail, HasSubstr("41->0-3"));
  EXPECT_THAT(c.fix, HasSubstr("echo 8-15 > /proc/irq/$i/smp_affinity_list"));
  t_.Write("proc/irq/40/smp_affinity_list", "0\n");
  EXPECT_EQ(Find(Run(), "irq_affinity").verdict, Verdict::kFail);
}

TEST_F(DoctorTest, IrqsFoundThroughProcInterruptsWithoutMsiDir) {
  t_.Remove("sys/class/net/eth0/device/msi_irqs");
  t_.Write("proc/interrupts",
           "           CPU0       CPU1\n"
           "  0:         10          0   IO-APIC   2-edge      timer\n"
           " 77:          0        100   PCI-MSI 1234-edge      mlx5_comp0@pci:0000:3b:00.0\n"
           " 78:          0        100   PCI-MSI 1235-edge      eth0-TxRx-1\n");
  t_.Write("proc/irq/77/smp_affinity_list", "9\n");
  t_.Write("proc/irq/78/smp_affinity_list", "2\n");
  const Check c = Find(Run(), "irq_affinity");
  EXPECT_EQ(c.verdict, Verdict::kWarn);
  EXPECT_THAT(c.detail, HasSubstr("1 of 2"));
  EXPECT_THAT(c.detail, HasSubstr("78->2"));
}

TEST_F(DoctorTest, NoIrqsOrBadAffinityFileWarns) {
  t_.Remove("sys/class/net/eth0/device/msi_irqs");
  EXPECT_EQ(Find(Run(), "irq_affinity").verdict, Verdict::kWarn);
  t_.Write("sys/class/net/eth0/device/msi_irqs/40", "msix\n");
  t_.Write("proc/irq/40/smp_affinity_list", "x-y\n");
  const Check c = Find(Run(), "irq_affinity");
  EXPECT_EQ(c.verdict, Verdict::kWarn);
  EXPECT_THAT(c.detail, HasSubstr("irq/40/smp_affinity_list:1:"));
}

TEST_F(DoctorTest, ProcessOffTheNicNodeGetsNumactlAdvice) {
  t_.Write("proc/self/status", "Cpus_allowed_list:\t0-15\n");
  const Check c = Find(Run(), "numa_locality");
  EXPECT_EQ(c.verdict, Verdict::kWarn);
  EXPECT_THAT(c.fix, HasSubstr("numactl --cpunodebind=1 --membind=1"));
}

TEST_F(DoctorTest, UnknownNumaNodePasses) {
  t_.Write("sys/class/net/eth0/device/numa_node", "-1\n");
  const std::vector<Check> cs = Run();
  EXPECT_EQ(Find(cs, "irq_affinity").verdict, Verdict::kPass);
  EXPECT_EQ(Find(cs, "numa_locality").verdict, Verdict::kPass);
}

TEST_F(DoctorTest, PortDownAndNoRoceV2Gid) {
  t_.Write("sys/class/infiniband/fake0/ports/1/gid_attrs/types/3", "IB/RoCE v1\n");
  FakeDevice::Config cfg;
  cfg.port_state = IBV_PORT_DOWN;
  const std::vector<Check> cs = Run(cfg);
  EXPECT_EQ(Find(cs, "port_state").verdict, Verdict::kFail);
  EXPECT_THAT(Find(cs, "port_state").fix, HasSubstr("ip link set dev eth0 up"));
  EXPECT_EQ(Find(cs, "roce_v2_gid").verdict, Verdict::kWarn);
}

TEST_F(DoctorTest, CommandExitCodes) {
  std::ostringstream out, err;
  FakeDevice ok_dev(FakeDevice::Config{});
  EXPECT_EQ(CmdDoctor(&ok_dev, roots_, DoctorOptions{}, out, err), kExitOk);
  EXPECT_THAT(out.str(), HasSubstr("PASS  mtu"));
  EXPECT_THAT(out.str(), HasSubstr("7 passed, 0 warnings, 0 failed"));
  FakeDevice::Config down;
  down.port_state = IBV_PORT_DOWN;
  FakeDevice down_dev(down);
  std::ostringstream out2;
  EXPECT_EQ(CmdDoctor(&down_dev, roots_, DoctorOptions{}, out2, err), kExitFailed);
  EXPECT_THAT(out2.str(), HasSubstr("FAIL  port_state"));
  EXPECT_THAT(out2.str(), HasSubstr("      fix: ip link set dev eth0 up"));
}

}  // namespace
}  // namespace verbs
}  // namespace nicc
