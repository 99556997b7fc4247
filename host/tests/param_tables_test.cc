// Every row of every parameter table reaches every consumer under the one
// derived name, with the same range: the C ABI struct field (nicc/fw.h), the
// vector-file `param` line, the generated docs table. (The driver's table
// configures the backend and has no vector algo of its own; ns-3 Attributes
// and scenario keys are walked by the sim-adapter suites.)
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "executor.h"
#include "nicc/fw.h"
#include "nicc/host/param_registry.h"
#include "vector_file.h"

namespace {

namespace host = nicc::host;

// The C ABI views each parameter struct as the table's uint32_t rows in order
// (spray: after its policy word).
template <class P, class C>
uint32_t* CField(C* s, uint32_t row, uint32_t skip = 0) {
  static_assert(sizeof(C) % 4 == 0, "C parameter structs are uint32_t words");
  return reinterpret_cast<uint32_t*>(s) + skip + row;
}

TEST(ParamTables, NamesAreUniqueSnakeCaseAndRangesSane) {
  host::ForEachTable([](const auto& t) {
    std::set<std::string> seen;
    for (uint32_t i = 0; i < t.count; ++i) {
      const auto& row = t.rows[i];
      EXPECT_TRUE(seen.insert(row.name).second) << t.algo << "." << row.name;
      for (const char* c = row.name; *c; ++c)
        EXPECT_TRUE((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_') << row.name;
      EXPECT_LE(row.min, row.max) << row.name;
      EXPECT_GT(std::strlen(row.doc), 10u) << row.name;
      for (uint32_t p = 0; p < t.profile_count; ++p) {
        EXPECT_GE(row.value[p], row.min) << row.name << " in " << t.profiles[p].name;
        EXPECT_LE(row.value[p], row.max) << row.name << " in " << t.profiles[p].name;
      }
    }
  });
}

TEST(ParamTables, DerivedNames) {
  const auto& t = nicc::dcqcn::kParamTable;
  const auto& row = t.rows[nicc::FindParam(t, "rp_time_reset")];
  EXPECT_EQ(host::ScenarioKey(t, row), "dcqcn.rp_time_reset");
  EXPECT_EQ(host::AttributeName(t, row), "DcqcnRpTimeReset");
  EXPECT_EQ(host::AttributeName(nicc::ecn_path::kParamTable, nicc::ecn_path::kParamTable.rows[1]),
            "EcnRuleLowDelayNs");
}

// Every profile is a whole, valid configuration.
TEST(ParamTables, EveryProfileValidates) {
  for (uint32_t p = 0; p < nicc::dcqcn::kProfileCount; ++p)
    EXPECT_TRUE(nicc::dcqcn::Params::Of(static_cast<nicc::dcqcn::Profile>(p), 100000).Validate().ok());
  for (uint32_t p = 0; p < nicc::hpcc::kProfileCount; ++p)
    EXPECT_TRUE(nicc::hpcc::Params::Of(static_cast<nicc::hpcc::Profile>(p)).Validate().ok());
  for (const auto& pol : nicc::spray::kPolicies)
    EXPECT_TRUE(nicc::spray::Params::Defaults(static_cast<nicc::spray::Policy>(pol.code), 3, 1)
                    .Validate()
                    .ok())
        << pol.name;
  for (uint32_t p = 0; p < nicc::ecn_path::kProfileCount; ++p)
    EXPECT_TRUE(nicc::ecn_path::Rule::Of(static_cast<nicc::ecn_path::Profile>(p)).Validate().ok());
}

// C ABI: the defaults carry the profile values field by field, and a value
// one past a row's maximum is refused naming that row.
template <class P, class C>
void CheckCAbi(const nicc::ParamTable<P>& t, const P& want, C nicc_fw_params::*group, uint32_t skip) {
  nicc_fw_params base;
  ASSERT_EQ(nicc_fw_params_default(&base, 100000), NICC_FW_OK);
  for (uint32_t i = 0; i < t.count; ++i) {
    const auto& row = t.rows[i];
    EXPECT_EQ(*CField<P>(&(base.*group), i, skip), want.*(row.member)) << t.algo << "." << row.name;
    if (row.max == 0xFFFFFFFFu) continue;
    nicc_fw_params p = base;
    *CField<P>(&(p.*group), i, skip) = row.max + 1u;
    nicc_fw_config cfg;
    const char* bad = nullptr;
    EXPECT_EQ(nicc_fw_configure(&cfg, &p, &bad), NICC_FW_ERR_OUT_OF_RANGE) << row.name;
    ASSERT_NE(bad, nullptr) << row.name;
    EXPECT_STREQ(bad, row.name);
  }
}

TEST(ParamTables, EveryRowIsACAbiFieldWithTheTableRange) {
  CheckCAbi(nicc::hal::kDriverParamTable, nicc::hal::DriverParams::Of(nicc::hal::CcKind::kDcqcn, 100000),
            &nicc_fw_params::driver, 0);
  CheckCAbi(nicc::dcqcn::kParamTable, nicc::dcqcn::Params::Mlx5(100000), &nicc_fw_params::dcqcn, 0);
  nicc::hpcc::Params h = nicc::hpcc::Params::HpccPaper();
  h.line_rate_mbps = 100000;
  CheckCAbi(nicc::hpcc::kParamTable, h, &nicc_fw_params::hpcc, 0);
  CheckCAbi(nicc::spray::kParamTable, nicc::spray::Params::Defaults(nicc::spray::Policy::kEcmp, 0, 0),
            &nicc_fw_params::spray, 1);
  CheckCAbi(nicc::ecn_path::kParamTable, nicc::ecn_path::Rule::Of(nicc::ecn_path::kOff),
            &nicc_fw_params::ecn_rule, 0);
}

// Vector files: `param NAME VALUE` reaches the row (an out-of-range value is
// reported by Validate() naming it; a value in range is accepted).
template <class P>
void CheckVectorParams(const nicc::ParamTable<P>& t, const std::string& algo, const std::string& profile) {
  for (uint32_t i = 0; i < t.count; ++i) {
    const auto& row = t.rows[i];
    const bool can_break = row.max != 0xFFFFFFFFu;
    std::string text = "nicc-vector 1\nalgo " + algo + "\nname t/" + row.name + "\nprofile " + profile +
                       "\nparam " + row.name + " " +
                       std::to_string(can_break ? uint64_t{row.max} + 1u : uint64_t{row.value[0]}) + "\n";
    if (can_break) text += std::string("expect-status ") + row.name + " out_of_range\n";
    text += "end\n";
    nicc_vectors::VectorFile v;
    nicc_vectors::ParseError err;
    ASSERT_TRUE(nicc_vectors::ParseVector("t.vec", text, &v, &err)) << err.ToString() << "\n" << text;
    std::vector<nicc_vectors::Failure> failures;
    std::vector<nicc_vectors::EventCost> costs;
    nicc_vectors::RunOptions opt;
    nicc_vectors::RunVector(v, opt, &failures, &costs);
    EXPECT_TRUE(failures.empty()) << algo << "." << row.name << ": " << failures[0].ToString("t.vec");
  }
}

TEST(ParamTables, EveryRowIsAVectorFileParam) {
  CheckVectorParams(nicc::dcqcn::kParamTable, "dcqcn", "mlx5");
  CheckVectorParams(nicc::hpcc::kParamTable, "hpcc", "hpcc-paper");
  CheckVectorParams(nicc::spray::kParamTable, "spray", "ops");
  CheckVectorParams(nicc::ecn_path::kParamTable, "ecn_path", "ecn-nscc");
}

TEST(ParamTables, EveryRowIsInTheDocsTable) {
  const std::string md = host::ParamsMarkdown();
  host::ForEachTable([&](const auto& t) {
    for (uint32_t i = 0; i < t.count; ++i) {
      const auto& row = t.rows[i];
      EXPECT_NE(md.find("| `" + std::string(row.name) + "` | " + nicc::UnitSymbol(row.unit) + " | " +
                        std::to_string(row.min) + " | " + std::to_string(row.max) + " |"),
                std::string::npos)
          << row.name;
      if (!row.backend()) {
        EXPECT_NE(md.find("`" + host::ScenarioKey(t, row) + "`"), std::string::npos);
      }
    }
  });
}

// One status table: the C ABI names every code, with the engine's value.
TEST(ParamTables, StatusCodesAreOneTable) {
  EXPECT_EQ(nicc::kStatusCodeCount, static_cast<uint32_t>(NICC_FW_STATUS_COUNT));
  EXPECT_EQ(NICC_FW_ERR_FULL, 7);
  EXPECT_EQ(NICC_FW_ERR_NOT_FOUND, 8);
  EXPECT_EQ(NICC_FW_ERR_UNSUPPORTED, 9);
  for (uint32_t i = 0; i < nicc::kStatusCodeCount; ++i) {
    EXPECT_EQ(nicc::kStatusCodes[i].code, i);
    EXPECT_STREQ(nicc::StatusCodeKey(static_cast<nicc::StatusCode>(i)), nicc::kStatusCodes[i].name);
  }
}

}  // namespace
