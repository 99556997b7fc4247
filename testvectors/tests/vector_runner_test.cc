// Tests of the vector parser and runner: every malformed-file path names the
// file and line, a wrong expectation is reported with event, field, expected
// and got, and the CLI's exit codes are 0 / 1 / 2.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "emit_c.h"
#include "nicc/nscc.h"
#include "nicc/params.h"
#include "executor.h"
#include "vector_file.h"

namespace nv = nicc_vectors;

namespace {

const char kGood[] =
    "# a DCQCN vector\n"
    "nicc-vector 1\n"
    "algo dcqcn\n"
    "name t/good\n"
    "profile mlx5\n"
    "tolerance rate_kbps rel 0.005 abs 1000\n"
    "at 1000 cnp\n"
    "expect flags set_rate,arm_timer\n"
    "expect rate_kbps 50048829\n"
    "expect timer_ns 301000 exact\n"
    "at 2000 tx bytes=4096\n"
    "expect flags none\n"
    "end\n";

std::string Replace(std::string s, const std::string& from, const std::string& to) {
  const size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

nv::ParseError ParseFails(const std::string& text) {
  nv::VectorFile v;
  nv::ParseError err;
  EXPECT_FALSE(nv::ParseVector("x.vec", text, &v, &err)) << text;
  return err;
}

TEST(VectorParser, GoodFileParsesAndPasses) {
  nv::VectorFile v;
  nv::ParseError err;
  ASSERT_TRUE(nv::ParseVector("good.vec", kGood, &v, &err)) << err.ToString();
  EXPECT_EQ(v.algo, "dcqcn");
  ASSERT_EQ(v.events.size(), 2u);
  EXPECT_EQ(v.events[0].expects.size(), 3u);
  EXPECT_EQ(v.events[0].expects[1].compare, nv::Compare::kTolerance);
  EXPECT_EQ(v.events[0].expects[2].compare, nv::Compare::kExact);
  std::vector<nv::Failure> fails;
  std::vector<nv::EventCost> costs;
  EXPECT_TRUE(nv::RunVector(v, nv::RunOptions{}, &fails, &costs));
  EXPECT_TRUE(fails.empty()) << fails[0].ToString("good.vec");
}

TEST(VectorParser, MalformedFilesNameTheLine) {
  struct Case {
    std::string text;
    int line;
    const char* words;
  };
  const Case cases[] = {
      {Replace(kGood, "end\n", ""), 12, "truncated"},
      {Replace(kGood, "name t/good\n", ""), 12, "missing field 'name'"},
      {Replace(kGood, "algo dcqcn\n", ""), 6, "event before 'algo'"},
      {Replace(kGood, "at 1000 cnp\n", "hop rate=3 ts=0 tx=0 qlen=0\nat 1000 cnp\n"), 7, "'hop' must follow"},
      {Replace(kGood, "expect timer_ns 301000 exact", "expect timer_ns 301000 roughly"), 10, "unexpected 'roughly'"},
      {Replace(kGood, "at 2000 tx", "at 2000 jump"), 11, "unknown event 'jump'"},
      {Replace(kGood, "at 2000 tx", "at 2x00 tx"), 11, "bad number '2x00'"},
      {Replace(kGood, "expect rate_kbps 50048829", "expect rate_kbps fast"), 9, "bad number 'fast'"},
      {Replace(kGood, "at 2000 tx", "at 999 tx"), 11, "time goes backwards"},
      {Replace(kGood, "nicc-vector 1", "nicc-vector 7"), 2, "unsupported format version"},
      {Replace(kGood, "profile mlx5\n", "profile mlx5\nfrobnicate 3\n"), 6, "unknown line 'frobnicate'"},
      {Replace(kGood, "bytes=4096", "bytes"), 11, "expected key=value"},
      {std::string("# only a comment\n"), 1, "empty file"},
  };
  for (const Case& c : cases) {
    const nv::ParseError err = ParseFails(c.text);
    EXPECT_EQ(err.line, c.line) << err.ToString();
    EXPECT_NE(err.message.find(c.words), std::string::npos) << err.ToString();
    EXPECT_EQ(err.ToString().rfind("x.vec:" + std::to_string(c.line) + ": ", 0), 0u) << err.ToString();
  }
}

TEST(VectorRunner, WrongExpectationIsReportedWithEventAndField) {
  nv::VectorFile v;
  nv::ParseError err;
  ASSERT_TRUE(nv::ParseVector("bad.vec", Replace(kGood, "timer_ns 301000", "timer_ns 301001"), &v, &err));
  std::vector<nv::Failure> fails;
  std::vector<nv::EventCost> costs;
  nv::RunVector(v, nv::RunOptions{}, &fails, &costs);
  ASSERT_EQ(fails.size(), 1u);
  EXPECT_EQ(fails[0].ToString("bad.vec"),
            "bad.vec:10: event 1 (at 1000 cnp): timer_ns expected 301001 got 301000");
}

TEST(VectorRunner, UnknownParameterAndBadProfileFailSetup) {
  for (const auto& edit : {std::make_pair(std::string("profile mlx5\n"), std::string("profile mlx5\nparam rp_nope 1\n")),
                           std::make_pair(std::string("profile mlx5"), std::string("profile cx9"))}) {
    nv::VectorFile v;
    nv::ParseError err;
    ASSERT_TRUE(nv::ParseVector("s.vec", Replace(kGood, edit.first, edit.second), &v, &err));
    std::vector<nv::Failure> fails;
    std::vector<nv::EventCost> costs;
    EXPECT_FALSE(nv::RunVector(v, nv::RunOptions{}, &fails, &costs));
    ASSERT_EQ(fails.size(), 1u);
    EXPECT_EQ(fails[0].field, "setup");
  }
}

TEST(VectorRunner, EmitCWritesStepsAndParams) {
  nv::VectorFile v;
  nv::ParseError err;
  ASSERT_TRUE(nv::ParseVector("good.vec", kGood, &v, &err));
  std::string c, why;
  ASSERT_TRUE(nv::EmitC(v, &c, &why)) << why;
  EXPECT_NE(c.find("p->dcqcn.rp_time_reset = 300u;"), std::string::npos);
  EXPECT_NE(c.find("{1000u, NICC_FW_VEC_OP_EVENT"), std::string::npos);
  EXPECT_NE(c.find("static const nicc_fw_vector nicc_vec"), std::string::npos);
}

const char kNscc[] =
    "nicc-vector 1\n"
    "algo nscc\n"
    "name t/nscc\n"
    "profile uec-default\n"
    "param gamma_x1024 512\n"
    "tolerance window_bytes rel 0.002 abs 8\n"
    "at 100 ack seq=4096 nxt=69632 bytes=4096 ecn=1 rtt=12000 ev=49152\n"
    "expect flags change_ev\n"
    "expect ev 49152\n"
    "expect window_bytes 225000\n"
    "expect avg_delay_ns 0\n"
    "at 200 nack bytes=4096 nxt=73728\n"
    "end\n";

// NSCC: every row of the nscc table with the param line applied, ACKs with
// their RTT, ECN, snd_nxt and port, NACKs, change_ev and its port.
TEST(VectorRunner, EmitCNscc) {
  nv::VectorFile v;
  nv::ParseError err;
  ASSERT_TRUE(nv::ParseVector("n.vec", kNscc, &v, &err)) << err.ToString();
  std::string c, why;
  ASSERT_TRUE(nv::EmitC(v, &c, &why)) << why;
  EXPECT_NE(c.find("p->cc = NICC_FW_CC_NSCC;"), std::string::npos);
  EXPECT_NE(c.find("p->nscc.gamma_x1024 = 512u;"), std::string::npos);
  for (uint32_t i = 0; i < nicc::nscc::kParamTable.count; ++i)
    EXPECT_NE(c.find(std::string("p->nscc.") + nicc::nscc::kParamTable.rows[i].name + " = "), std::string::npos)
        << nicc::nscc::kParamTable.rows[i].name;
  // change_ev is bit 6; checks: flags (1) + window (4) + ev (8); window
  // tolerance rel 0.002 of 225000 = 450.
  EXPECT_NE(c.find("{100u, NICC_FW_VEC_OP_EVENT, {0, 4096u, 4096u, 69632u, 12000u, 0, 49152, NICC_FW_EV_ACK, 1, 0, "
                   "0, 0u}, 13u, 64u, 0, 0u, 0u, 225000u, 450u, 49152u, 0u, 0u, 0u},"),
            std::string::npos)
      << c;
  EXPECT_NE(c.find("{200u, NICC_FW_VEC_OP_EVENT, {0, 4096u, 0u, 73728u, 0u, 0, 0, NICC_FW_EV_NACK, 0, 0, 0, 0u}, 0u"),
            std::string::npos)
      << c;
  EXPECT_NE(c.find("nscc_steps, 2u, 0, 0};"), std::string::npos) << c;
}

// A parameter-error vector: no steps, the status code and field that
// nicc_fw_configure must return.
TEST(VectorRunner, EmitCParameterErrorAsConfigureStatus) {
  const char kErr[] =
      "nicc-vector 1\nalgo nscc\nname t/err\nprofile uec-default\nparam gamma_x1024 1025\n"
      "expect-status gamma_x1024 out_of_range\nend\n";
  nv::VectorFile v;
  nv::ParseError err;
  ASSERT_TRUE(nv::ParseVector("e.vec", kErr, &v, &err)) << err.ToString();
  std::string c, why;
  ASSERT_TRUE(nv::EmitC(v, &c, &why)) << why;
  EXPECT_EQ(c.find("_steps[]"), std::string::npos);
  EXPECT_NE(c.find("p->nscc.gamma_x1024 = 1025u;"), std::string::npos);
  const std::string code = std::to_string(static_cast<int>(nicc::StatusCode::kOutOfRange));
  EXPECT_NE(c.find(", 0, 0u, " + code + ", \"gamma_x1024\"};"),
            std::string::npos)
      << c;
}

// What the C ABI cannot run is refused with the line and a reason, never
// emitted wrong: an unknown param, an ECN path event.
TEST(VectorRunner, EmitCRefusesWithReason) {
  nv::VectorFile v;
  nv::ParseError err;
  std::string c, why;
  ASSERT_TRUE(nv::ParseVector("n.vec", Replace(kNscc, "param gamma_x1024", "param gamma_nope"), &v, &err));
  EXPECT_FALSE(nv::EmitC(v, &c, &why));
  EXPECT_NE(why.find("unknown param 'gamma_nope' for nscc"), std::string::npos) << why;
  const char kEcn[] =
      "nicc-vector 1\nalgo ecn_path\nname t/ecn\nprofile ecn-nscc\nat 100 send ev=49157\nexpect flags none\nend\n";
  ASSERT_TRUE(nv::ParseVector("e.vec", kEcn, &v, &err)) << err.ToString();
  EXPECT_FALSE(nv::EmitC(v, &c, &why));
  EXPECT_NE(why.find("line 5: ecn_path events have no C ABI call"), std::string::npos) << why;
}

// Several vectors: each as <name>_vec and a table of them.
TEST(VectorRunner, EmitCSuiteListsEveryVector) {
  std::vector<nv::VectorFile> vs(2);
  nv::ParseError err;
  ASSERT_TRUE(nv::ParseVector("g.vec", kGood, &vs[0], &err));
  ASSERT_TRUE(nv::ParseVector("n.vec", kNscc, &vs[1], &err));
  std::string c, why;
  ASSERT_TRUE(nv::EmitCSuite(vs, &c, &why)) << why;
  EXPECT_NE(c.find("static const nicc_fw_vector* const nicc_vecs[] = {\n  &t_good_vec,\n  &t_nscc_vec,\n};"),
            std::string::npos)
      << c;
  EXPECT_NE(c.find("#define NICC_VEC_COUNT 2u"), std::string::npos);
  vs[1] = vs[0];
  EXPECT_FALSE(nv::EmitCSuite(vs, &c, &why));
  EXPECT_NE(why.find("used twice"), std::string::npos) << why;
}

int RunCli(const std::string& args, std::string* out) {
  const std::string path = testing::TempDir() + "cli_out.txt";
  const int rc = std::system((std::string(NICC_VECTORS_BIN) + " " + args + " > " + path + " 2>&1").c_str());
  std::ifstream f(path);
  out->assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

std::string WriteTemp(const std::string& name, const std::string& text) {
  const std::string path = testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

TEST(VectorCli, ExitCodesAndSummaryLine) {
  std::string out;
  EXPECT_EQ(RunCli(WriteTemp("ok.vec", kGood), &out), 0) << out;
  EXPECT_NE(out.find("1 passed, 0 failed"), std::string::npos) << out;
  EXPECT_EQ(RunCli(WriteTemp("fail.vec", Replace(kGood, "301000", "5")), &out), 1) << out;
  EXPECT_NE(out.find("timer_ns expected 5 got 301000"), std::string::npos) << out;
  EXPECT_NE(out.find("0 passed, 1 failed"), std::string::npos) << out;
  EXPECT_EQ(RunCli(WriteTemp("trunc.vec", Replace(kGood, "end\n", "")), &out), 2) << out;
  EXPECT_NE(out.find("trunc.vec:12: truncated"), std::string::npos) << out;
  EXPECT_EQ(RunCli("--bogus", &out), 2);
  EXPECT_EQ(RunCli(testing::TempDir() + "does-not-exist.vec", &out), 2) << out;
  EXPECT_NE(out.find("cannot open"), std::string::npos) << out;
}

}  // namespace
