/*
 * nicc-scenario-file-test-suite.cc — scenario files and outputs
 * ("nicc-scenario-file"; topology and flow files: nicc-input-files):
 *   - a TOML scenario file sets its keys (top level and inside [table]
 *     groups), base and name apply, relative path keys resolve against the
 *     file's directory, later Set calls (--set) win; the shipped examples
 *     load (ai-cluster.toml equals the built-in ai-cluster);
 *   - each malformed scenario file (syntax error, unknown key, key that
 *     needs its table prefix, wrong type, out of range, array, nested table,
 *     bad base) fails with a message naming file:line;
 *   - every engine parameter row of every table (ForEachTable) is the key
 *     <algo>.<row> with the row's range, in --help; a TOML file
 *     ([algo] row = v) and --set algo.row=v both reach the NiccNic Attribute
 *     AttributeName(t, row); out-of-range values name the key; profile keys,
 *     old profile spellings (did you mean) and the alias table;
 *   - the output files: fct.csv one line per flow, summary.json with the
 *     keys' values and the RNG seed / run.
 * Inputs are written to a fresh temporary directory. ~1 s.
 *
 *   ./nicc-sim-test-runner --suite=nicc-scenario-file --verbose
 */
#include "ns3/integer.h"
#include "ns3/nicc-module.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"

#include "nicc/host/param_registry.h"

#include "nicc-test-util.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <tuple>
#include <unistd.h>
#include <vector>

using namespace ns3;

namespace
{

namespace fs = std::filesystem;


class TomlKeysTest : public TestCase
{
  public:
    TomlKeysTest()
        : TestCase("TOML scenario file: keys at top level and in tables, base, name, paths, --set after")
    {
    }

  private:
    void DoRun() override
    {
        const fs::path dir = NiccTestDir("keys");
        const std::string path = NiccWriteFile(dir, "good.toml",
                                       "# a scenario file\n"
                                       "base = \"ai-cluster\"\n"
                                       "name = \"my-run\"\n"
                                       "stop_ms = 3\n"
                                       "[fabric]\n"
                                       "leaves = 2\n"
                                       "oversubscription = 1.5\n"
                                       "topology_file = \"topo/x.topo\"\n"
                                       "[cc]\n"
                                       "cc = \"hpcc\"\n"
                                       "ecn = false\n"
                                       "[workload]\n"
                                       "poisson_load = 0.3\n"
                                       "incast_bytes = 1e5\n");
        NiccScenario s;
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(NiccLoadScenarioFile(path, &s, &err), true, err);
        NS_TEST_EXPECT_MSG_EQ(s.GetName(), "ai-cluster", "base");
        NS_TEST_EXPECT_MSG_EQ(s.GetLabel(), "my-run", "name");
        NS_TEST_EXPECT_MSG_EQ(s.Get("stop_ms"), "3", "top-level integer");
        NS_TEST_EXPECT_MSG_EQ(s.Get("leaves"), "2", "[fabric] integer");
        NS_TEST_EXPECT_MSG_EQ(s.Get("oversubscription"), "1.5", "float");
        NS_TEST_EXPECT_MSG_EQ(s.Get("poisson_load"), "0.3", "float, shortest form");
        NS_TEST_EXPECT_MSG_EQ(s.Get("incast_bytes"), "100000", "float with an integral value");
        NS_TEST_EXPECT_MSG_EQ(s.Get("cc"), "hpcc", "[cc] string");
        NS_TEST_EXPECT_MSG_EQ(s.Get("ecn"), "false", "boolean");
        NS_TEST_EXPECT_MSG_EQ(s.Get("allreduce_bytes"), "8000000", "unset key: the base's default");
        NS_TEST_EXPECT_MSG_EQ(s.Get("topology_file"), (dir / "topo" / "x.topo").string(),
                              "relative path: from the file's directory");
        NS_TEST_ASSERT_MSG_EQ(s.SetPair("leaves=3", &err), true, err);
        NS_TEST_EXPECT_MSG_EQ(s.Get("leaves"), "3", "--set after the file wins");

        // No base: leaf-spine.
        const std::string plain = NiccWriteFile(dir, "plain.toml", "spines = 2\n");
        NiccScenario p;
        NS_TEST_ASSERT_MSG_EQ(NiccLoadScenarioFile(plain, &p, &err), true, err);
        NS_TEST_EXPECT_MSG_EQ(p.GetName(), "leaf-spine", "default base");
        NS_TEST_EXPECT_MSG_EQ(p.GetLabel(), "", "no name");
        NS_TEST_EXPECT_MSG_EQ(p.Get("spines"), "2", "key");

        NS_TEST_EXPECT_MSG_EQ(NiccIsScenarioFile("x.toml"), true, ".toml");
        NS_TEST_EXPECT_MSG_EQ(NiccIsScenarioFile("incast"), false, "built-in name");
        NS_TEST_EXPECT_MSG_EQ(NiccIsScenarioFile(plain), true, "existing file");
        fs::remove_all(dir);
    }
};

class ShippedExamplesTest : public TestCase
{
  public:
    ShippedExamplesTest()
        : TestCase("shipped scenario files load; ai-cluster.toml equals the built-in ai-cluster")
    {
    }

  private:
    void DoRun() override
    {
        std::string err;
        NiccScenario file;
        NS_TEST_ASSERT_MSG_EQ(NiccLoadScenarioFile(NiccShipped("ai-cluster.toml"), &file, &err), true, err);
        NiccScenario builtIn;
        NS_TEST_ASSERT_MSG_EQ(builtIn.Select("ai-cluster", &err), true, err);
        for (const auto& k : NiccScenario::Keys())
        {
            NS_TEST_EXPECT_MSG_EQ(file.Get(k.name), builtIn.Get(k.name), "key " << k.name);
        }
        NiccScenario ft;
        NS_TEST_ASSERT_MSG_EQ(NiccLoadScenarioFile(NiccShipped("fat-tree-hadoop.toml"), &ft, &err), true, err);
        const std::vector<std::pair<std::string, std::string>> want = {
            {"topology", "fat-tree"}, {"hosts_per_leaf", "16"}, {"fabric_rate_gbps", "400"},
            {"buffer_bytes", "32000000"}, {"cdf", "fbhdp"}, {"poisson_load", "0.3"},
            {"incast_load", "0.02"}, {"cc", "hpcc"}, {"stop_ms", "10"}};
        for (const auto& [k, v] : want)
        {
            NS_TEST_EXPECT_MSG_EQ(ft.Get(k), v, "fat-tree-hadoop.toml: " << k);
        }
        NiccScenario clos;
        NS_TEST_ASSERT_MSG_EQ(NiccLoadScenarioFile(NiccShipped("small-clos.toml"), &clos, &err), true, err);
        NS_TEST_EXPECT_MSG_EQ(clos.Get("topology"), "file", "small-clos.toml");
        NS_TEST_EXPECT_MSG_EQ(clos.Get("topology_file"), NiccShipped("small-clos.topo"),
                              "topology_file next to the TOML file");
    }
};

class TomlErrorsTest : public TestCase
{
  public:
    TomlErrorsTest()
        : TestCase("malformed scenario files: the error names file:line and the problem")
    {
    }

  private:
    void DoRun() override
    {
        struct Case
        {
            const char* text;
            const char* where; ///< "name.toml:line:" expected in the message
            const char* what;  ///< another part expected in the message
        };
        const std::vector<Case> cases = {
            {"base = \"leaf-spine\"\nstop_ms = = 3\n", ":2:", "syntax error"},
            {"[fabric\nleaves = 2\n", ":1:", "syntax error"},
            {"base = \"leaf-spine\"\n[fabric]\nleafs = 4\n", ":3:1:", "did you mean 'leaves'"},
            {"# c\n[dcqcn]\nprofile = \"paper\"\n", ":3:", "did you mean 'dcqcn-paper'"},
            {"[hpcc]\nprofile = \"later\"\n", ":2:", "did you mean 'hpcc-later'"},
            {"[dcqcn]\nrp_time_rest = 3\n", ":2:", "did you mean 'dcqcn.rp_time_reset'"},
            {"[dcqcn]\nrp_time_reset = 0\n", ":2:", "out of range 1..2147483 us"},
            {"dcqcn.rp_threshold = 32\n", ":1:", "key 'dcqcn.rp_threshold'"},
            {"[spray]\nflow_label = 3\n", ":2:", "unknown key 'flow_label'"},
            {"leaves = \"four\"\n", ":1:", "key 'leaves'"},
            {"base = \"ai-cluster\"\n\n[fabric]\nleaves = 0\n", ":4:", "out of range"},
            {"stop_ms = true\n", ":1:", "expected a number"},
            {"cc = 3\n", ":1:", "expected one of"},
            {"[fabric]\nleaves = 2\nspines = [1, 2]\n", ":3:", "array"},
            {"ports = [1, 2]\n", ":1:", "array"},
            {"[fabric]\nleaves = 2\n[fabric.inner]\nspines = 2\n", ":3:", "tables inside tables"},
            {"base = \"nope\"\n", ":1:", "unknown scenario 'nope'"},
            {"name = 7\n", ":1:", "must be a string"},
            {"start = 1979-05-27\n", ":1:", "unknown key"},
            {"[fabric]\nstop_ms = 1979-05-27\n", ":2:", "date"},
        };
        const fs::path dir = NiccTestDir("errors");
        for (size_t i = 0; i < cases.size(); ++i)
        {
            const std::string name = "bad" + std::to_string(i) + ".toml";
            const std::string path = NiccWriteFile(dir, name, cases[i].text);
            NiccScenario s;
            std::string err;
            NS_TEST_EXPECT_MSG_EQ(NiccLoadScenarioFile(path, &s, &err), false, "case " << i << " loads");
            NS_TEST_EXPECT_MSG_EQ(NiccContains(err, name + cases[i].where), true,
                                  "case " << i << ": '" << err << "' lacks " << name << cases[i].where);
            NS_TEST_EXPECT_MSG_EQ(NiccContains(err, cases[i].what), true,
                                  "case " << i << ": '" << err << "' lacks '" << cases[i].what << "'");
        }
        NiccScenario s;
        std::string err;
        NS_TEST_EXPECT_MSG_EQ(NiccLoadScenarioFile((dir / "missing.toml").string(), &s, &err), false,
                              "missing file");
        NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "missing.toml"), true, err);
        fs::remove_all(dir);
    }
};

/// A NIC installed with the scenario's Attributes (one host of a 1-to-1
/// incast); null with *err on a failure.
Ptr<NiccNic>
InstallNic(const NiccScenario& s, std::string* err)
{
    NiccFabricHelper fabric;
    NiccNicHelper nics;
    if (!s.ApplyAttributes(&fabric, &nics, err))
    {
        return nullptr;
    }
    NiccIncastTopology t = fabric.BuildIncast(1, DataRate("100Gbps"), NanoSeconds(1000));
    return nics.Install(t.receiver, err);
}

/// Every parameter table, row by row: each non-backend row is the scenario
/// key <algo>.<row> with the row's range, listed by --help, and both a TOML
/// file ([algo] row = v) and --set algo.row=v reach the NiccNic Attribute
/// CamelCase(<algo>_<row>); a value outside the row's range is refused with
/// the key named. Profiles, the alias table and the old profile spellings too.
class ParamTableKeysTest : public TestCase
{
  public:
    ParamTableKeysTest()
        : TestCase("every engine parameter row is a scenario key; TOML and --set reach the NIC Attribute")
    {
    }

  private:
    /// The attribute values the rows' valid settings give (Attribute, value).
    using Wanted = std::vector<std::pair<std::string, int64_t>>;

    // One step after another, the assertions in the order of one body; an
    // assertion that fails under --stop-on-failure ends the test case there.
    void DoRun() override
    {
        const std::string help = NiccScenario::KeyHelp();
        std::map<std::string, std::string> toml; // [algo] -> its lines
        std::vector<std::string> pairs;          // key=value for --set
        Wanted want;
        CheckRowKeys(help, &toml, &pairs, &want);
        if (Stopped())
        {
            return;
        }
        CheckRowsReachNic(toml, pairs, want);
        if (Stopped())
        {
            return;
        }
        CheckSelectorRow();
        if (Stopped())
        {
            return;
        }
        CheckProfiles();
        if (Stopped())
        {
            return;
        }
        CheckOldSpellingsAndAliases(help);
    }

    bool Stopped() const
    {
        return IsStatusFailure() && !MustContinueOnFailure();
    }

    /// Each non-backend row is the key <algo>.<row> with the row's range and
    /// help, in --help, and refuses a value out of range; collects a valid
    /// setting of each row (TOML lines, --set pairs, the Attribute values).
    void CheckRowKeys(const std::string& help,
                      std::map<std::string, std::string>* toml,
                      std::vector<std::string>* pairs,
                      Wanted* want)
    {
        uint32_t rows = 0;
        nicc::host::ForEachTable([&](const auto& t) {
            for (uint32_t r = 0; r < t.count; ++r)
            {
                const auto& row = t.rows[r];
                const std::string key = nicc::host::ScenarioKey(t, row);
                if (row.backend())
                {
                    NS_TEST_EXPECT_MSG_EQ(NiccScenario::IsKey(key), false, key << ": backend rows have no key");
                    continue;
                }
                ++rows;
                const NiccScenarioKey* k = nullptr;
                for (const auto& candidate : NiccScenario::Keys())
                {
                    k = candidate.name == key ? &candidate : k;
                }
                NS_TEST_ASSERT_MSG_NE(k, nullptr, "no scenario key " << key);
                NS_TEST_EXPECT_MSG_EQ(k->target, NiccScenarioKey::ENGINE, key);
                NS_TEST_EXPECT_MSG_EQ(k->typeId, "ns3::NiccNic", key);
                NS_TEST_EXPECT_MSG_EQ(k->attribute, nicc::host::AttributeName(t, row), key);
                NS_TEST_EXPECT_MSG_EQ(k->min, static_cast<double>(row.min), key << " min");
                NS_TEST_EXPECT_MSG_EQ(k->max, static_cast<double>(row.max), key << " max");
                NS_TEST_EXPECT_MSG_EQ(k->unit, UnitSymbol(row.unit), key << " unit");
                const std::string range = std::to_string(row.min) + ".." + std::to_string(row.max) + " " +
                                          UnitSymbol(row.unit);
                NS_TEST_EXPECT_MSG_EQ(NiccContains(help, "  " + key + " "), true, key << " not in --help");
                NS_TEST_EXPECT_MSG_EQ(NiccContains(help, "int " + range), true, key << ": --help lacks " << range);
                NS_TEST_EXPECT_MSG_EQ(NiccContains(help, nicc::host::HelpText(t, row)), true, key << " help");

                // Out of the row's range: refused, naming the key and the range.
                NiccScenario s;
                std::string err;
                const uint64_t bad = row.max < 0xFFFFFFFFu ? uint64_t{row.max} + 1 : 0;
                if (row.max < 0xFFFFFFFFu || row.min > 0)
                {
                    NS_TEST_EXPECT_MSG_EQ(s.SetPair(key + "=" + std::to_string(bad), &err), false, key);
                    NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "'" + key + "'") && NiccContains(err, range), true, err);
                }
                NS_TEST_EXPECT_MSG_EQ(s.SetPair(key + "=-1", &err), true, err);

                // A valid setting: the row's value under the table's first profile.
                const std::string v = std::to_string(row.value[0]);
                (*toml)[t.algo] += std::string(row.name) + " = " + v + "\n";
                pairs->push_back(key + "=" + v);
                want->emplace_back(k->attribute, row.value[0]);
            }
        });
        NS_TEST_EXPECT_MSG_GT(rows, 30u, "rows walked");
    }

    /// A TOML file ([algo] row = v) and --set algo.row=v both reach the NIC
    /// Attributes; dotted keys at the top level of a file are the same keys.
    void CheckRowsReachNic(const std::map<std::string, std::string>& toml,
                           const std::vector<std::string>& pairs,
                           const Wanted& want)
    {
        auto check = [&](const NiccScenario& s, const std::string& how) {
            std::string err;
            Ptr<NiccNic> nic = InstallNic(s, &err);
            NS_TEST_EXPECT_MSG_NE(nic, nullptr, how << ": " << err);
            if (!nic)
            {
                Simulator::Destroy();
                return;
            }
            for (const auto& [attribute, value] : want)
            {
                IntegerValue got;
                nic->GetAttribute(attribute, got);
                NS_TEST_EXPECT_MSG_EQ(got.Get(), value, how << ": " << attribute);
            }
            Simulator::Destroy();
        };
        std::string text = "base = \"incast\"\n";
        for (const auto& [algo, lines] : toml)
        {
            text += "[" + algo + "]\n" + lines;
        }
        NiccScenario fromFile;
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(NiccLoadScenarioText(text, "params.toml", "", &fromFile, &err), true, err);
        check(fromFile, "TOML");
        NiccScenario fromSet;
        NS_TEST_ASSERT_MSG_EQ(fromSet.Select("incast", &err), true, err);
        for (const auto& kv : pairs)
        {
            NS_TEST_ASSERT_MSG_EQ(fromSet.SetPair(kv, &err), true, err);
        }
        check(fromSet, "--set");
        // Dotted keys at the top level of a file are the same keys.
        NiccScenario dotted;
        NS_TEST_ASSERT_MSG_EQ(
            NiccLoadScenarioText("dcqcn.rp_time_reset = 77\n", "d.toml", "", &dotted, &err), true, err);
        NS_TEST_EXPECT_MSG_EQ(dotted.Get("dcqcn.rp_time_reset"), "77", "dotted key");
    }

    /// A selector row (dcqcn variant) takes its names under both of its
    /// keys, and its code; the Attribute gets the code.
    void CheckSelectorRow()
    {
        std::string err;
        for (const auto& [pair, code] : std::vector<std::pair<std::string, int64_t>>{
                 {"dcqcn_variant=sigcomm15", 1},
                 {"dcqcn.variant=sigcomm15", 1},
                 {"dcqcn_variant=mlx5", 0},
                 {"dcqcn.variant=1", 1}})
        {
            NiccScenario s;
            NS_TEST_ASSERT_MSG_EQ(s.Select("incast", &err), true, err);
            NS_TEST_ASSERT_MSG_EQ(s.SetPair(pair, &err), true, err);
            NS_TEST_EXPECT_MSG_EQ(s.GetAliasesUsed().size(), 0u, pair << " is no deprecated alias");
            Ptr<NiccNic> nic = InstallNic(s, &err);
            NS_TEST_EXPECT_MSG_NE(nic, nullptr, pair << ": " << err);
            if (nic)
            {
                IntegerValue got;
                nic->GetAttribute("DcqcnVariant", got);
                NS_TEST_EXPECT_MSG_EQ(got.Get(), code, pair);
            }
            Simulator::Destroy();
        }
        {
            NiccScenario s;
            NS_TEST_EXPECT_MSG_EQ(s.SetPair("dcqcn_variant=sigcomm", &err), false, "unknown variant");
            NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "mlx5|sigcomm15"), true, err);
            NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "'dcqcn_variant'"), true, err);
        }
    }

    /// Profiles: one key per algorithm with several, spellings from the registry.
    void CheckProfiles()
    {
        std::string err;
        for (const auto& [key, attribute, profile] :
             std::vector<std::tuple<std::string, std::string, std::string>>{
                 {"dcqcn.profile", "DcqcnProfile", "dcqcn-paper"},
                 {"hpcc.profile", "HpccProfile", "hpcc-later"},
                 {"ecn_rule.profile", "EcnRuleProfile", "ecn-nscc"}})
        {
            NiccScenario s;
            NS_TEST_ASSERT_MSG_EQ(s.SetPair(key + "=" + profile, &err), true, err);
            Ptr<NiccNic> nic = InstallNic(s, &err);
            NS_TEST_EXPECT_MSG_NE(nic, nullptr, key << ": " << err);
            if (!nic)
            {
                Simulator::Destroy();
                continue;
            }
            StringValue got;
            nic->GetAttribute(attribute, got);
            NS_TEST_EXPECT_MSG_EQ(got.Get(), profile, key);
            Simulator::Destroy();
        }
    }

    /// Old profile spellings (did you mean), then the alias table on the
    /// same scenario: old names set the new keys, and --help lists them.
    void CheckOldSpellingsAndAliases(const std::string& help)
    {
        std::string err;
        NiccScenario s;
        NS_TEST_EXPECT_MSG_EQ(s.SetPair("dcqcn.profile=paper", &err), false, "old spelling");
        NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "did you mean 'dcqcn-paper'"), true, err);
        NS_TEST_EXPECT_MSG_EQ(s.SetPair("hpcc.profile=later", &err), false, "old spelling");
        NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "did you mean 'hpcc-later'"), true, err);

        // The alias table: old names set the new keys, and --help lists them.
        for (const auto& a : NiccScenario::Aliases())
        {
            NS_TEST_EXPECT_MSG_EQ(NiccScenario::IsKey(a.to), true, a.from << " -> " << a.to);
            NS_TEST_EXPECT_MSG_EQ(NiccContains(help, std::string(a.from)), true, a.from << " in --help");
        }
        NS_TEST_ASSERT_MSG_EQ(s.SetPair("dcqcn_time_reset_us=100", &err), true, err);
        NS_TEST_EXPECT_MSG_EQ(s.Get("dcqcn.rp_time_reset"), "100", "alias sets the key");
        NS_TEST_ASSERT_MSG_EQ(s.SetPair("ev_bits=6", &err), true, err);
        NS_TEST_EXPECT_MSG_EQ(s.Get("spray.ev_bits"), "6", "alias sets the key");
        NS_TEST_EXPECT_MSG_EQ(s.GetAliasesUsed().size(), 2u, "aliases used are recorded");
        NS_TEST_EXPECT_MSG_EQ(s.GetAliasesUsed().back(), "ev_bits -> spray.ev_bits", "alias note");
        NS_TEST_EXPECT_MSG_EQ(s.SetPair("hpcc_base_rtt_ns=0", &err), false, "0 is no longer 'profile'");
        NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "-1 = the profile's value"), true, err);
    }
};

/// The output files of a run, written by the scenario library.
class OutputsTest : public TestCase
{
  public:
    OutputsTest()
        : TestCase("outputs: fct.csv one line per flow, summary.json with config and rng")
    {
    }

  private:
    void DoRun() override
    {
        NiccScenario s;
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(s.SetPair("senders=3", &err) && s.SetPair("size_bytes=20000", &err) &&
                                  s.SetPair("dcqcn.rp_time_reset=100", &err),
                              true,
                              err);
        NiccScenarioResult r;
        NS_TEST_ASSERT_MSG_EQ(s.Run(&r, &err), true, err);
        const fs::path dir = NiccTestDir("out") / "run";
        NS_TEST_ASSERT_MSG_EQ(NiccWriteScenarioOutputs(s, r, dir.string(), &err), true, err);
        std::ifstream csv(dir / "fct.csv");
        std::string line;
        std::vector<std::string> lines;
        while (std::getline(csv, line))
        {
            lines.push_back(line);
        }
        NS_TEST_ASSERT_MSG_EQ(lines.size(), 4u, "header + 3 flows");
        NS_TEST_EXPECT_MSG_EQ(lines[0], "id,src,dst,size_bytes,start_ns,fct_ns,ideal_fct_ns,slowdown,cc", "header");
        std::ifstream js(dir / "summary.json");
        const std::string summary((std::istreambuf_iterator<char>(js)), std::istreambuf_iterator<char>());
        NS_TEST_EXPECT_MSG_EQ(NiccContains(summary, "\"dcqcn.rp_time_reset\": \"100\""), true, "config");
        NS_TEST_EXPECT_MSG_EQ(NiccContains(summary, "\"rng\""), true, "rng");
        NS_TEST_EXPECT_MSG_EQ(NiccContains(summary, "\"fairness\""), true, "incast: fairness block");
        NS_TEST_EXPECT_MSG_EQ(NiccWriteScenarioOutputs(s, r, "/proc/nicc-no-such-dir/x", &err), false,
                              "unwritable directory");
        fs::remove_all(dir.parent_path());
    }
};

class NiccScenarioFileTestSuite : public TestSuite
{
  public:
    NiccScenarioFileTestSuite()
        : TestSuite("nicc-scenario-file", UNIT)
    {
        AddTestCase(new TomlKeysTest, TestCase::QUICK);
        AddTestCase(new ShippedExamplesTest, TestCase::QUICK);
        AddTestCase(new TomlErrorsTest, TestCase::QUICK);
        AddTestCase(new ParamTableKeysTest, TestCase::QUICK);
        AddTestCase(new OutputsTest, TestCase::QUICK);
    }
};

NiccScenarioFileTestSuite g_niccScenarioFileTestSuite;

} // namespace
