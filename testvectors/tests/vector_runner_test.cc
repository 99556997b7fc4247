// Tests of the vector parser and runner: every malformed-file path names the
// file and line, a wrong expectation is reported with event, field, expected
// and got, and the CLI's exit codes are 0 / 1 / 2.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "emit_c.h"
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
