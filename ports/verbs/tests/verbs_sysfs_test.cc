// Port counters, sysfs device scan and the mlx5 cc_params import, on
// synthetic trees — including missing and malformed files.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "nicc/verbs/cc_params.h"
#include "nicc/verbs/sysfs.h"
#include "temp_tree.h"

namespace nicc {
namespace verbs {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::TempTree;

constexpr char kPort[] = "sys/class/infiniband/mlx5_0/ports/1";

TEST(ReadU64Test, AcceptsOneNumberAndNamesPathAndLineOtherwise) {
  TempTree t;
  t.Write("a", "42\n");
  t.Write("b", "  7  \n\n");
  t.Write("c", "4x2\n");
  t.Write("d", "1\n2\n");
  t.Write("e", "");
  t.Write("f", "-3\n");
  EXPECT_EQ(*ReadU64(t.Path("a")), 42u);
  EXPECT_EQ(*ReadU64(t.Path("b")), 7u);
  EXPECT_THAT(std::string(ReadU64(t.Path("c")).status().message()),
              HasSubstr(t.Path("c") + ":1: expected an unsigned decimal integer, got '4x2'"));
  EXPECT_THAT(std::string(ReadU64(t.Path("d")).status().message()), HasSubstr(t.Path("d") + ":2:"));
  EXPECT_THAT(std::string(ReadU64(t.Path("e")).status().message()), HasSubstr(":1: empty"));
  EXPECT_FALSE(ReadU64(t.Path("f")).ok());
  EXPECT_EQ(ReadU64(t.Path("missing")).status().code(), absl::StatusCode::kNotFound);
}

TEST(PortCountersTest, ReadsHwAndPortCountersAndReportsBadFiles) {
  TempTree t;
  t.Write(std::string(kPort) + "/hw_counters/np_cnp_sent", "11\n");
  t.Write(std::string(kPort) + "/hw_counters/rp_cnp_handled", "22\n");
  t.Write(std::string(kPort) + "/hw_counters/np_ecn_marked_roce_packets", "33\n");
  t.Write(std::string(kPort) + "/hw_counters/out_of_sequence", "4\n");
  t.Write(std::string(kPort) + "/hw_counters/packet_seq_err", "garbage\n");
  t.Write(std::string(kPort) + "/counters/port_xmit_data", "123456\n");
  HostRoots roots;
  roots.sysfs = t.Path("sys");
  absl::StatusOr<PortCounters> c = ReadPortCounters(roots, "mlx5_0", 1);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->hw.at("np_cnp_sent"), 11u);
  EXPECT_EQ(c->hw.at("rp_cnp_handled"), 22u);
  EXPECT_EQ(c->hw.at("np_ecn_marked_roce_packets"), 33u);
  EXPECT_EQ(c->hw.at("out_of_sequence"), 4u);
  EXPECT_EQ(c->hw.count("packet_seq_err"), 0u);
  EXPECT_EQ(c->port.at("port_xmit_data"), 123456u);
  ASSERT_EQ(c->problems.size(), 1u);
  EXPECT_THAT(c->problems[0], HasSubstr("hw_counters/packet_seq_err:1:"));

  absl::StatusOr<PortCounters> none = ReadPortCounters(roots, "mlx5_0", 2);
  EXPECT_EQ(none.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(none.status().message()), HasSubstr("ports/2/hw_counters"));
}

TEST(SysfsScanTest, FindsPciNetdevsPortsAndGidTypes) {
  TempTree t;
  t.Mkdir("sys/devices/pci0000:00/0000:3b:00.0/net/eth0");
  t.Symlink("sys/devices/pci0000:00/0000:3b:00.0", "sys/class/infiniband/mlx5_0/device");
  t.Write(std::string(kPort) + "/state", "4: ACTIVE\n");
  t.Write(std::string(kPort) + "/link_layer", "Ethernet\n");
  t.Write(std::string(kPort) + "/rate", "100 Gb/sec (4X EDR)\n");
  t.Write(std::string(kPort) + "/gid_attrs/types/0", "IB/RoCE v1\n");
  t.Write(std::string(kPort) + "/gid_attrs/types/1", "RoCE v2\n");
  t.Write(std::string(kPort) + "/gid_attrs/ndevs/1", "eth0\n");
  HostRoots roots;
  roots.sysfs = t.Path("sys");
  std::vector<SysfsDevice> devs = ScanSysfs(roots);
  ASSERT_EQ(devs.size(), 1u);
  EXPECT_EQ(devs[0].name, "mlx5_0");
  EXPECT_EQ(devs[0].pci, "0000:3b:00.0");
  EXPECT_THAT(devs[0].netdevs, ElementsAre("eth0"));
  ASSERT_EQ(devs[0].ports.size(), 1u);
  EXPECT_EQ(devs[0].ports[0].state, "4: ACTIVE");
  EXPECT_EQ(devs[0].ports[0].gid_types.at(1), "RoCE v2");
  EXPECT_EQ(devs[0].ports[0].gid_ndevs.at(1), "eth0");
  roots.sysfs = t.Path("empty");
  EXPECT_TRUE(ScanSysfs(roots).empty());
}

TEST(CpuListTest, Parses) {
  EXPECT_THAT(*ParseCpuList("0-3,8,10-11\n"), ElementsAre(0, 1, 2, 3, 8, 10, 11));
  EXPECT_TRUE(ParseCpuList("")->empty());
  EXPECT_FALSE(ParseCpuList("3-1").ok());
  EXPECT_FALSE(ParseCpuList("a").ok());
  EXPECT_FALSE(ParseCpuList("0-99999999").ok());
}

class CcParamsTest : public ::testing::Test {
 protected:
  void SetUp() override { roots_.debugfs = tree_.Path("debug"); }
  void Put(const std::string& name, const std::string& v) {
    tree_.Write("debug/mlx5/0000:3b:00.0/cc_params/" + name, v);
  }
  std::string PathOf(const std::string& name) const {
    return tree_.Path("debug/mlx5/0000:3b:00.0/cc_params/" + name);
  }
  TempTree tree_;
  HostRoots roots_;
};

TEST_F(CcParamsTest, ImportsPresentFieldsOverMlx5Defaults) {
  Put("rp_time_reset", "55\n");
  Put("rp_ai_rate", "40\n");
  Put("rp_threshold", "5\n");
  Put("rp_dce_tcp_g", "1020\n");
  Put("np_min_time_between_cnps", "50\n");
  Put("np_cnp_prio_mode", "1\n");  // no engine field
  absl::StatusOr<CcParamsImport> imp = ImportMlx5CcParams(roots_, "0000:3b:00.0", 100000);
  ASSERT_TRUE(imp.ok()) << imp.status();
  const dcqcn::Params def = dcqcn::Params::Mlx5(100000);
  EXPECT_EQ(imp->params.rp_time_reset, 55u);
  EXPECT_EQ(imp->params.rp_ai_rate, 40u);
  EXPECT_EQ(imp->params.rp_threshold, 5u);
  EXPECT_EQ(imp->params.rp_dce_tcp_g, 1020u);
  EXPECT_EQ(imp->params.np_min_time_between_cnps, 50u);
  EXPECT_EQ(imp->params.rp_gd, def.rp_gd);  // missing: default kept
  EXPECT_EQ(imp->params.line_rate_mbps, 100000u);
  EXPECT_EQ(imp->applied.size(), 5u);
  // Every other DCQCN table row the device lacks is listed as missing;
  // nicc's own rows (variant, rp_hai_without_bc) are no cc_params file.
  uint32_t files = 0;
  for (uint32_t i = 0; i < dcqcn::kParamTable.count; ++i) {
    const auto& row = dcqcn::kParamTable.rows[i];
    files += row.backend() || row.nicc_only() ? 0 : 1;
  }
  EXPECT_EQ(imp->missing.size(), files - 5u);
  EXPECT_THAT(imp->missing, ::testing::Not(::testing::Contains(PathOf("variant"))));
  EXPECT_THAT(imp->missing, ::testing::Contains(PathOf("rp_gd")));
  EXPECT_THAT(imp->ignored, ElementsAre("np_cnp_prio_mode"));
}

TEST_F(CcParamsTest, MalformedFileFailsWithPathAndLine) {
  Put("rp_time_reset", "300\n");
  Put("rp_gd", "eleven\n");
  absl::StatusOr<CcParamsImport> imp = ImportMlx5CcParams(roots_, "0000:3b:00.0", 100000);
  ASSERT_FALSE(imp.ok());
  EXPECT_THAT(std::string(imp.status().message()), HasSubstr(PathOf("rp_gd") + ":1:"));
  Put("rp_gd", "11\n\n12\n");
  imp = ImportMlx5CcParams(roots_, "0000:3b:00.0", 100000);
  EXPECT_THAT(std::string(imp.status().message()), HasSubstr(PathOf("rp_gd") + ":3:"));
}

TEST_F(CcParamsTest, OutOfRangeValueNamesTheField) {
  Put("rp_gd", "25\n");  // valid range 10..20
  absl::StatusOr<CcParamsImport> imp = ImportMlx5CcParams(roots_, "0000:3b:00.0", 100000);
  ASSERT_FALSE(imp.ok());
  EXPECT_THAT(std::string(imp.status().message()), HasSubstr("rp_gd out of range"));
  Put("rp_gd", "99999999999\n");
  imp = ImportMlx5CcParams(roots_, "0000:3b:00.0", 100000);
  EXPECT_THAT(std::string(imp.status().message()), HasSubstr("does not fit 32 bits"));
}

TEST_F(CcParamsTest, MissingDirectoryExplainsDebugfs) {
  absl::StatusOr<CcParamsImport> imp = ImportMlx5CcParams(roots_, "0000:3b:00.0", 100000);
  EXPECT_EQ(imp.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(imp.status().message()), HasSubstr("mount -t debugfs"));
  EXPECT_FALSE(ImportMlx5CcParams(roots_, "", 100000).ok());
}

}  // namespace
}  // namespace verbs
}  // namespace nicc
