// nicc-verbs cc show|apply|diff on a synthetic debugfs tree: the profile
// beside the NIC, validation before any write, the root check, rollback
// after a write that fails halfway, and the scenario file's dcqcn.* keys.
#include <errno.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdio.h>
#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "nicc/verbs/cc_apply.h"
#include "nicc/verbs/commands.h"
#include "temp_tree.h"

namespace nicc {
namespace verbs {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::TempTree;

const auto& kTable = dcqcn::kParamTable;
constexpr char kPci[] = "0000:3b:00.0";

bool NicRow(const ParamDesc<dcqcn::Params>& r) {
  return !r.backend() && !r.nicc_only();
}

// A host with mlx5_0 at kPci, a 100 Gb/s port, and cc_params holding the
// mlx5 profile's values (plus a file the engine has no field for).
struct Host {
  TempTree t;
  HostRoots roots;
  std::string dir;
  Host() {
    t.Mkdir("sys/devices/pci0000:00/0000:3b:00.0");
    t.Symlink("sys/devices/pci0000:00/0000:3b:00.0", "sys/class/infiniband/mlx5_0/device");
    t.Write("sys/class/infiniband/mlx5_0/ports/1/rate", "100 Gb/sec (4X EDR)\n");
    roots.sysfs = t.Path("sys");
    roots.debugfs = t.Path("debug");
    dir = t.Path(std::string("debug/mlx5/") + kPci + "/cc_params");
    const dcqcn::Params m = dcqcn::Params::Mlx5(100000);
    for (uint32_t i = 0; i < kTable.count; ++i)
      if (NicRow(kTable.rows[i]))
        t.Write(std::string("debug/mlx5/") + kPci + "/cc_params/" + kTable.rows[i].name,
                std::to_string(m.*(kTable.rows[i].member)) + "\n");
    t.Write(std::string("debug/mlx5/") + kPci + "/cc_params/np_cnp_dscp", "48\n");
  }
  std::string Read(const std::string& name) const {
    std::ifstream f(dir + "/" + name);
    std::string s;
    std::getline(f, s);
    return s;
  }
  std::map<std::string, std::string> All() const {
    std::map<std::string, std::string> m;
    for (uint32_t i = 0; i < kTable.count; ++i)
      if (NicRow(kTable.rows[i])) m[kTable.rows[i].name] = Read(kTable.rows[i].name);
    return m;
  }
};

struct Out {
  int rc;
  std::string out, err;
};

Out Cc(const Host& h, CcOptions o) {
  if (o.euid < 0) o.euid = 0;
  std::ostringstream out, err;
  const int rc = CmdCc(h.roots, o, out, err);
  return {rc, out.str(), err.str()};
}

CcOptions Opt(const std::string& action, const std::string& profile = "") {
  CcOptions o;
  o.action = action;
  o.device = "mlx5_0";
  o.profile = profile;
  return o;
}

TEST(CcShowTest, EveryNicFieldOfTheTableBesideTheProfile) {
  Host h;
  h.t.Write(std::string("debug/mlx5/") + kPci + "/cc_params/rp_gd", "9\n");
  const Out r = Cc(h, Opt("show", "dcqcn-paper"));
  ASSERT_EQ(r.rc, kExitOk) << r.err;
  const dcqcn::Params paper = dcqcn::Params::Paper(100000);
  int rows = 0;
  for (uint32_t i = 0; i < kTable.count; ++i) {
    const auto& row = kTable.rows[i];
    if (!NicRow(row)) {
      EXPECT_THAT(r.out, Not(HasSubstr(std::string(" ") + row.name + " "))) << row.name;
      continue;
    }
    ++rows;
    EXPECT_THAT(r.out, HasSubstr(std::string(row.name))) << row.name;
  }
  EXPECT_EQ(rows, 17);
  // rp_gd: the NIC's 9 against the paper's 11, marked.
  EXPECT_THAT(
      r.out,
      HasSubstr("* rp_gd                           log2   9            11           differs"));
  EXPECT_THAT(r.out, HasSubstr("  rp_min_dec_fac                  %      50           50"));
  EXPECT_THAT(r.out, HasSubstr("profile dcqcn-paper"));
  EXPECT_THAT(r.out, HasSubstr(std::to_string(paper.rp_time_reset)));
  EXPECT_THAT(r.out, Not(HasSubstr("np_cnp_dscp"))) << "no engine field: not shown";
}

TEST(CcShowTest, ReadingNeedsNoRootButSaysSoWhenDebugfsIsMissing) {
  Host h;
  h.t.Remove("debug");
  CcOptions o = Opt("show");
  o.euid = 1000;
  const Out r = Cc(h, o);
  EXPECT_EQ(r.rc, kExitFailed);
  EXPECT_THAT(r.err, HasSubstr("cc_params: no such directory"));
  EXPECT_THAT(r.err, HasSubstr("only root may read or write: run it with sudo"));
}

TEST(CcApplyTest, WritesTheProfileAndOnlyWhatDiffers) {
  Host h;
  std::vector<std::string> writes;
  CcOptions o = Opt("apply", "dcqcn-paper");
  o.write = [&](const std::string& p, uint64_t v) {
    writes.push_back(p.substr(p.rfind('/') + 1));
    return WriteU64File(p, v);
  };
  const Out r = Cc(h, o);
  ASSERT_EQ(r.rc, kExitOk) << r.err << r.out;
  const dcqcn::Params paper = dcqcn::Params::Paper(100000);
  const dcqcn::Params mlx5 = dcqcn::Params::Mlx5(100000);
  size_t differ = 0;
  for (uint32_t i = 0; i < kTable.count; ++i) {
    const auto& row = kTable.rows[i];
    if (!NicRow(row)) continue;
    EXPECT_EQ(h.Read(row.name), std::to_string(paper.*(row.member))) << row.name;
    differ += paper.*(row.member) != mlx5.*(row.member);
  }
  EXPECT_EQ(writes.size(), differ);
  EXPECT_GT(differ, 5u);
  EXPECT_THAT(r.out, HasSubstr("wrote rp_time_reset 300 -> 55"));
  EXPECT_THAT(r.out, HasSubstr("applied " + std::to_string(differ) + " fields"));
  EXPECT_EQ(h.Read("np_cnp_dscp"), "48") << "files without an engine field are left alone";
  // Again: nothing differs, nothing is written; diff agrees.
  writes.clear();
  const Out again = Cc(h, o);
  EXPECT_EQ(again.rc, kExitOk);
  EXPECT_THAT(again.out, HasSubstr("nothing to write"));
  EXPECT_TRUE(writes.empty());
  EXPECT_EQ(Cc(h, Opt("diff", "dcqcn-paper")).rc, kExitOk);
  EXPECT_EQ(Cc(h, Opt("diff", "mlx5")).rc, kExitFailed);
}

TEST(CcApplyTest, NotRootIsRefusedBeforeAnything) {
  Host h;
  const auto before = h.All();
  CcOptions o = Opt("apply", "dcqcn-paper");
  o.euid = 1000;
  const Out r = Cc(h, o);
  EXPECT_EQ(r.rc, kExitFailed);
  EXPECT_THAT(r.err, HasSubstr("not root (euid 1000)"));
  EXPECT_THAT(r.err, HasSubstr("run it with sudo"));
  EXPECT_EQ(h.All(), before);
}

TEST(CcApplyTest, InvalidValuesAreRefusedBeforeAnyWrite) {
  Host h;
  const auto before = h.All();
  struct Case {
    std::vector<std::string> sets;
    std::string msg;
  } cases[] = {
      {{"rp_gd=30"}, "dcqcn.rp_gd = 30 is out of range 10..20 log2"},
      {{"dcqcn.rp_ai_rate=200000"}, "dcqcn.rp_ai_rate out of range (--set; line rate 100000 Mb/s)"},
      {{"rp_hai_rate=1", "rp_ai_rate=5"},
       "dcqcn.rp_hai_rate inconsistent with another field (--set"},
      {{"rp_frobnicate=1"}, "--set rp_frobnicate=1: expected dcqcn.<field>=<value>"},
      {{"line_rate_mbps=1000"}, "expected dcqcn.<field>"},  // the backend's, not a knob
      {{"rp_gd=x"}, "--set rp_gd=x: expected a number"},
  };
  for (const Case& c : cases) {
    CcOptions o = Opt("apply");
    o.sets = c.sets;
    const Out r = Cc(h, o);
    EXPECT_EQ(r.rc, kExitUsage) << c.msg;
    EXPECT_THAT(r.err, HasSubstr(c.msg));
  }
  EXPECT_EQ(h.All(), before);
}

TEST(CcApplyTest, AFailedWriteHalfwayRollsBackWhatWasWritten) {
  Host h;
  const auto before = h.All();
  // The third write finds its file replaced by a directory (a real
  // failure of the real write: EISDIR); the two before it must be restored.
  int n = 0;
  std::string victim;
  CcOptions o = Opt("apply", "dcqcn-paper");
  o.write = [&](const std::string& p, uint64_t v) {
    if (++n == 3) {
      victim = p.substr(p.rfind('/') + 1);
      std::filesystem::remove(p);
      std::filesystem::create_directory(p);
    }
    return WriteU64File(p, v);
  };
  const Out r = Cc(h, o);
  EXPECT_EQ(r.rc, kExitFailed);
  ASSERT_FALSE(victim.empty());
  EXPECT_THAT(r.err, HasSubstr("writing " + h.dir + "/" + victim + " failed: Is a directory"));
  EXPECT_THAT(r.err, HasSubstr("rolled back: "));
  EXPECT_EQ(n, 3 + 2) << "three writes, then two write-backs";
  for (const auto& kv : before) {
    if (kv.first == victim) continue;
    EXPECT_EQ(h.Read(kv.first), kv.second) << kv.first << " restored";
  }
}

TEST(CcApplyTest, PermissionDeniedIsExplained) {
  Host h;
  CcOptions o = Opt("apply", "dcqcn-paper");
  o.write = [](const std::string&, uint64_t) { return EACCES; };
  const Out r = Cc(h, o);
  EXPECT_EQ(r.rc, kExitFailed);
  EXPECT_THAT(r.err, HasSubstr("failed: Permission denied (cc_params live in debugfs"));
  EXPECT_THAT(r.err, HasSubstr("lockdown"));
  EXPECT_THAT(r.err, HasSubstr("nothing had been written"));
}

TEST(CcApplyTest, AMalformedNicFileStopsItBeforeWriting) {
  Host h;
  h.t.Write(std::string("debug/mlx5/") + kPci + "/cc_params/rp_threshold", "five\n");
  int writes = 0;
  CcOptions o = Opt("apply", "dcqcn-paper");
  o.write = [&](const std::string& p, uint64_t v) {
    ++writes;
    return WriteU64File(p, v);
  };
  const Out r = Cc(h, o);
  EXPECT_EQ(r.rc, kExitFailed);
  EXPECT_THAT(r.err, HasSubstr("rp_threshold:1: expected an unsigned decimal integer"));
  EXPECT_THAT(r.err, HasSubstr("nothing was written"));
  EXPECT_EQ(writes, 0);
}

TEST(CcDiffTest, ScenarioKeysReadAsNiccSimReadsThem) {
  Host h;
  // [dcqcn] table: profile, a field, -1 (= the profile's), a nicc-only knob.
  h.t.Write("tuned.toml",
            "base = \"fairness\"\nstop_ms = 5\n[fabric]\nleaves = 2\n"
            "[dcqcn]\nprofile = \"dcqcn-paper\"\nrp_time_reset = 100\nrp_gd = "
            "-1\nrp_hai_without_bc = 1\n");
  CcOptions o = Opt("diff");
  o.scenario = h.t.Path("tuned.toml");
  Out r = Cc(h, o);
  EXPECT_EQ(r.rc, kExitFailed) << "the NIC holds the mlx5 values" << r.err;
  EXPECT_THAT(
      r.out,
      HasSubstr("* rp_time_reset                   us     300          100          differs (" +
                o.scenario + ")"));
  EXPECT_THAT(r.out, HasSubstr("  rp_gd                           log2   11           11"));
  EXPECT_THAT(r.out, HasSubstr("profile dcqcn-paper"));
  EXPECT_THAT(r.out, HasSubstr("note: dcqcn.rp_hai_without_bc = 1 has no mlx5 cc_params file"));
  EXPECT_THAT(
      r.out,
      HasSubstr("tuned.toml:1:1: base = \"fairness\": only this file's own dcqcn.* keys are read"));
  // Apply it, then diff is clean (rp_time_reset as the file says).
  o.action = "apply";
  ASSERT_EQ(Cc(h, o).rc, kExitOk);
  EXPECT_EQ(h.Read("rp_time_reset"), "100");
  EXPECT_EQ(h.Read("rp_dce_tcp_g"), std::to_string(dcqcn::Params::Paper(100000).rp_dce_tcp_g));
  o.action = "diff";
  EXPECT_EQ(Cc(h, o).rc, kExitOk);
  // --set after the file.
  o.sets = {"dcqcn.rp_time_reset=120"};
  r = Cc(h, o);
  EXPECT_EQ(r.rc, kExitFailed);
  EXPECT_THAT(r.out, HasSubstr("differs (--set)"));
}

TEST(CcDiffTest, DottedKeysAndSelectorNames) {
  Host h;
  h.t.Write("d.toml", "dcqcn.rp_ai_rate = 10\ndcqcn_variant = \"sigcomm15\"\n");
  CcOptions o = Opt("diff");
  o.scenario = h.t.Path("d.toml");
  const Out r = Cc(h, o);
  EXPECT_EQ(r.rc, kExitFailed) << r.err;
  EXPECT_THAT(r.out, HasSubstr("* rp_ai_rate                      Mb/s   5            10"));
  EXPECT_THAT(r.out, HasSubstr("note: dcqcn.variant = 1 has no mlx5 cc_params file"));
}

TEST(CcDiffTest, BadScenarioFilesNameFileLineAndColumn) {
  Host h;
  struct Case {
    std::string text, msg;
  } cases[] = {
      {"[dcqcn]\nrp_time_rest = 5\n", "x.toml:2:1: unknown key 'dcqcn.rp_time_rest'"},
      {"[dcqcn]\nrp_gd = 99\n", "x.toml:2:9: dcqcn.rp_gd = 99 is out of range 10..20 log2"},
      {"[dcqcn]\nrp_gd = \"big\"\n", "dcqcn.rp_gd = 'big': expected a number"},
      {"[dcqcn]\nrp_gd = 1.5\n", "dcqcn.rp_gd: expected an integer"},
      {"[dcqcn]\nprofile = \"paper\"\n", "dcqcn.profile: expected one of mlx5, dcqcn-paper"},
      {"[dcqcn]\nline_rate_mbps = 1\n", "unknown key 'dcqcn.line_rate_mbps'"},
      {"dcqcn_time_reset_us = 5\n", "x.toml:1:1: 'dcqcn_time_reset_us' is an old key name"},
      {"[dcqcn\n", "x.toml:1:"},
  };
  // A field valid alone but not with the rest (Validate): a grid needs a
  // monitor period, which dcqcn-paper sets to 0.
  h.t.Write("g.toml", "[dcqcn]\nprofile = \"dcqcn-paper\"\nrp_cut_on_grid = 1\n");
  {
    CcOptions o = Opt("apply");
    o.scenario = h.t.Path("g.toml");
    const Out r = Cc(h, o);
    EXPECT_EQ(r.rc, kExitUsage);
    EXPECT_THAT(r.err,
                HasSubstr("dcqcn.rp_cut_on_grid inconsistent with another field (" + o.scenario));
  }
  for (const Case& c : cases) {
    h.t.Write("x.toml", c.text);
    CcOptions o = Opt("diff");
    o.scenario = h.t.Path("x.toml");
    const Out r = Cc(h, o);
    EXPECT_EQ(r.rc, kExitUsage) << c.text;
    EXPECT_THAT(r.err, HasSubstr(c.msg)) << c.text;
  }
  // A file's profile and --profile must agree.
  h.t.Write("p.toml", "[dcqcn]\nprofile = \"dcqcn-paper\"\n");
  CcOptions o = Opt("diff", "mlx5");
  o.scenario = h.t.Path("p.toml");
  const Out r = Cc(h, o);
  EXPECT_EQ(r.rc, kExitUsage);
  EXPECT_THAT(r.err, HasSubstr("--profile=mlx5 but"));
}

TEST(CcUsageTest, DeviceAndActionErrors) {
  Host h;
  CcOptions o = Opt("frob");
  EXPECT_EQ(Cc(h, o).rc, kExitUsage);
  o = Opt("show");
  o.device = "mlx5_9";
  Out r = Cc(h, o);
  EXPECT_EQ(r.rc, kExitNoDevice);
  EXPECT_THAT(r.err, HasSubstr("no PCI address for RDMA device 'mlx5_9'"));
  o.device = kPci;  // a PCI address works directly
  EXPECT_EQ(Cc(h, o).rc, kExitOk);
  o = Opt("diff");
  r = Cc(h, o);
  EXPECT_EQ(r.rc, kExitUsage);
  EXPECT_THAT(r.err, HasSubstr("give --scenario FILE"));
}

// The real binary: cc needs no RDMA device, only the trees.
TEST(CcBinaryTest, ShowAndDiffThroughTheTool) {
  Host h;
  const std::string base = std::string(NICC_VERBS_CLI) + " --sysfs_root=" + h.roots.sysfs +
                           " --debugfs_root=" + h.roots.debugfs + " cc ";
  auto run = [](const std::string& cmd, std::string* out) {
    FILE* p = popen((cmd + " 2>&1").c_str(), "r");
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) out->append(buf, n);
    const int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  };
  std::string out;
  EXPECT_EQ(run(base + "show mlx5_0 --profile dcqcn-paper", &out), 0) << out;
  EXPECT_THAT(out, HasSubstr("* rp_time_reset"));
  out.clear();
  EXPECT_EQ(run(base + "diff mlx5_0 --set rp_gd=12 --set dcqcn.rp_ai_rate=6", &out), 1) << out;
  EXPECT_THAT(out, HasSubstr("* rp_gd"));
  EXPECT_THAT(out, HasSubstr("* rp_ai_rate"));
  EXPECT_THAT(out, HasSubstr("2 of 17 fields differ"));
  out.clear();
  EXPECT_EQ(run(base + "show", &out), 2);
  EXPECT_THAT(out, HasSubstr("name the device"));
}

#ifdef NICC_SIM_BIN
// nicc-sim reads the same file: its --print (the scenario as TOML, every
// key it set) read back by cc gives the same DCQCN values as the file
// itself. Catches a key cc reads differently from nicc-sim (-1, dotted
// keys, tables, selector names).
TEST(CcSimTest, NiccSimAndCcReadAScenarioFileAlike) {
  TempTree t;
  const char* files[] = {
      "[dcqcn]\nprofile = \"dcqcn-paper\"\nrp_time_reset = 100\nrp_gd = -1\nrp_ai_rate = 20\n",
      "cc = \"dcqcn\"\ndcqcn.rp_threshold = 3\ndcqcn.np_min_time_between_cnps = 8\ndcqcn_variant = \"sigcomm15\"\n",
      "[fabric]\nleaves = 2\n[dcqcn]\nrp_byte_reset = 0\nrp_hai_without_bc = 1\nrp_dce_tcp_g = 1020\n",
  };
  int i = 0;
  for (const char* text : files) {
    const std::string f = t.Path("s" + std::to_string(i) + ".toml");
    const std::string printed = t.Path("p" + std::to_string(i++) + ".toml");
    t.Write(f.substr(f.rfind('/') + 1), text);
    const std::string cmd = std::string(NICC_SIM_BIN) + " --scenario " + f + " --print > " + printed + " 2>&1";
    ASSERT_EQ(system(cmd.c_str()), 0) << cmd;
    absl::StatusOr<ScenarioDcqcn> a = ReadScenarioDcqcn(f);
    absl::StatusOr<ScenarioDcqcn> b = ReadScenarioDcqcn(printed);
    ASSERT_TRUE(a.ok()) << a.status();
    ASSERT_TRUE(b.ok()) << b.status();
    absl::StatusOr<CcTarget> ta = BuildCcTarget("", 100000, f, {});
    absl::StatusOr<CcTarget> tb = BuildCcTarget("", 100000, printed, {});
    ASSERT_TRUE(ta.ok()) << ta.status();
    ASSERT_TRUE(tb.ok()) << tb.status();
    EXPECT_EQ(ta->profile, tb->profile) << text;
    for (uint32_t r = 0; r < kTable.count; ++r)
      EXPECT_EQ(ta->params.*(kTable.rows[r].member), tb->params.*(kTable.rows[r].member))
          << text << kTable.rows[r].name;
    EXPECT_FALSE(b->fields.empty()) << "nicc-sim printed no dcqcn key: " << text;
  }
}
#endif

}  // namespace
}  // namespace verbs
}  // namespace nicc
