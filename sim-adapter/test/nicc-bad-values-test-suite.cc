/*
 * nicc-bad-values-test-suite.cc — every bad value is a clear error
 * ("nicc-bad-values"). Nothing is listed by hand: the keys come from
 * NiccScenario::Keys() and NiccHpccKeys(), the bad values from each key's
 * type (BadValues below).
 *   - every scenario key takes its own value back (Set(k, Get(k))) and
 *     refuses each of its bad values: trailing garbage ("0.2x", "1 2",
 *     "1=1"), empty, whitespace, sign errors, nan, inf, 1e400, hex, values
 *     past the key's range (the key table's or the Attribute checker's),
 *     bytes that are no UTF-8 and NUL; the message names the key and the
 *     value and the key keeps its value;
 *   - the same values in a TOML scenario file: refused with file:line;
 *   - string keys whose text has a grammar (specs, files to read): the run
 *     refuses the garbage values naming the key, before it builds anything;
 *   - every HPCC config key with each bad value: refused naming file:line
 *     and the key;
 *   - every field of a flow file row (HPCC and CSV) and of a topology file
 *     link line: refused naming file:line.
 * The command-line side (exit 2, nothing under --out) is the ctest
 * nicc-sim-bad-values (nicc-sim-cli-test.cmake, MODE=bad-values).
 *
 *   ./nicc-sim-test-runner --suite=nicc-bad-values --verbose
 */
#include "ns3/nicc-module.h"
#include "ns3/test.h"

#include "nicc-test-util.h"

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

namespace fs = std::filesystem;

/// What no key of any type takes.
std::vector<std::string>
Garbage()
{
    return {"",     " ",      "\t",  "0.2x", "1 2",  "1=1",   "y_factor=1", "nan", "NaN", "inf",
            "-inf", "1e400",  "-1e400", "0x10", "1e",   "--1",  "+-1",        "1-",  " 1",   "1 ",
            "1\n",  "1,2",    "\xff", "\xc3\x28", "\xed\xa0\x80", std::string("1\0", 2)};
}

std::string
Num(double d)
{
    char buf[40];
    std::snprintf(buf, sizeof(buf), "%.17g", d);
    return buf;
}

/// "255" from "256" (a decimal string, > 0), "18446744073709551616" from
/// 2^64 - 1: one past an integer range's end, exactly.
std::string
Step(const std::string& n, int by)
{
    if (by > 0 && n == "18446744073709551615")
    {
        return "18446744073709551616";
    }
    if (n[0] == '-')
    {
        return "-" + Step(n.substr(1), -by);
    }
    const uint64_t v = std::stoull(n);
    return by > 0 ? std::to_string(v + 1) : v == 0 ? "-1" : std::to_string(v - 1);
}

/// Values past the range of a model Attribute key, from its checker's type
/// ("uint16_t 256:9216", "double 0:1", "Time ...", "DataRate").
std::vector<std::string>
AttributeRangeBad(const NiccScenarioKey& k)
{
    const std::string& t = k.type;
    const size_t sp = t.find(' ');
    const size_t colon = t.find(':', sp);
    if (t.rfind("Time", 0) == 0)
    {
        return {"-1", "0", "1e16", "1us", "10ms"};
    }
    if (t == "DataRate")
    {
        return {"-1Gbps", "2e15", "10Gbs", "10 Gbps", "Gbps", "1e400bps"};
    }
    if (sp == std::string::npos || colon == std::string::npos)
    {
        return {};
    }
    const std::string lo = t.substr(sp + 1, colon - sp - 1);
    const std::string hi = t.substr(colon + 1);
    if (t.rfind("double", 0) == 0)
    {
        return {Num(std::stod(lo) - 1), Num(std::stod(hi) + 1), "1,5"};
    }
    // An integer type: one below, one above, a fraction.
    return {Step(lo, -1), Step(hi, +1), "1.5", "1e-3"};
}

/// The bad values of key k (its type decides).
std::vector<std::string>
BadValues(const NiccScenarioKey& k)
{
    std::vector<std::string> bad = Garbage();
    if (k.type == "string")
    {
        return bad; // the run reads them (CheckStringKeys)
    }
    const auto add = [&bad](std::vector<std::string> more) { bad.insert(bad.end(), more.begin(), more.end()); };
    if (k.type.find('|') != std::string::npos)
    {
        const std::string first = k.type.substr(0, k.type.find('|'));
        std::string upper = first;
        for (auto& c : upper)
        {
            c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        }
        add({first + "x", " " + first, first + " ", first + "|", upper == first ? "X" + first : upper});
    }
    else if (k.type == "bool")
    {
        add({"yes", "no", "2", "t", "truex", "TRUE", "-1"});
    }
    else if (k.target == NiccScenarioKey::ATTRIBUTE)
    {
        add(AttributeRangeBad(k));
    }
    else
    {
        // A number of the key table (scenario or engine key): its own range.
        const bool engine = k.target == NiccScenarioKey::ENGINE;
        const double below = k.min - 1 == -1 && engine ? k.min - 2 : k.min - 1;
        add({Num(below), Num(k.max + 1)});
        if (k.type != "double")
        {
            add({"1.5", "1e-3"});
        }
    }
    return bad;
}

class NiccScenarioKeyWalk : public TestCase
{
  public:
    NiccScenarioKeyWalk()
        : TestCase("every scenario key refuses each bad value by name; its value is kept")
    {
    }

  private:
    void DoRun() override
    {
        NiccScenario s;
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(s.Select("leaf-spine", &err), true, err);
        uint32_t tried = 0;
        for (const auto& k : NiccScenario::Keys())
        {
            const std::string before = s.Get(k.name);
            NS_TEST_EXPECT_MSG_EQ(s.Set(k.name, before, &err), true, k.name << " = '" << before << "': " << err);
            for (const auto& v : BadValues(k))
            {
                if (k.type == "string" && v.find('\0') == std::string::npos &&
                    NiccPrintable(v) == v)
                {
                    continue; // printable text: CheckStringKeys
                }
                ++tried;
                err.clear();
                const bool ok = s.Set(k.name, v, &err);
                NS_TEST_EXPECT_MSG_EQ(ok, false, k.name << " took '" << NiccPrintable(v) << "'");
                NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "'" + k.name + "'") &&
                                          NiccContains(err, "'" + NiccPrintable(v) + "'"),
                                      true,
                                      "message names neither key nor value: " << err);
                NS_TEST_EXPECT_MSG_EQ(s.Get(k.name), before, k.name << " lost its value");
            }
        }
        NS_TEST_EXPECT_MSG_GT(tried, 100 * 20, "walked too few (key, value) pairs");
    }
};

/// A value as a TOML basic string ("\u0000" for NUL and control bytes;
/// other bytes as they are, so that a byte that is no UTF-8 stays one).
std::string
TomlString(const std::string& v)
{
    std::string out = "\"";
    for (const char ch : v)
    {
        const auto c = static_cast<unsigned char>(ch);
        if (c < 0x20 || c == '"' || c == '\\')
        {
            char buf[8];
            std::snprintf(buf, sizeof(buf), "\\u%04x", c);
            out += buf;
        }
        else
        {
            out += ch;
        }
    }
    return out + "\"";
}

class NiccScenarioFileWalk : public TestCase
{
  public:
    NiccScenarioFileWalk()
        : TestCase("the same values in a TOML scenario file: refused with file:line")
    {
    }

  private:
    void DoRun() override
    {
        uint32_t tried = 0;
        for (const auto& k : NiccScenario::Keys())
        {
            if (k.type == "string")
            {
                continue; // text: CheckStringKeys runs them
            }
            for (const auto& v : BadValues(k))
            {
                ++tried;
                NiccScenario s;
                std::string err;
                const std::string text = "base = \"leaf-spine\"\n\n" + k.name + " = " + TomlString(v) + "\n";
                const bool ok = NiccLoadScenarioText(text, "bad.toml", ".", &s, &err);
                NS_TEST_EXPECT_MSG_EQ(ok, false, k.name << " took '" << NiccPrintable(v) << "' in TOML");
                NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "bad.toml:3:"), true, "no file:line: " << err);
            }
        }
        // A NUL inside a string key's text, and a typed TOML nan / inf.
        for (const auto& line : {std::string("flow_file = \"a\\u0000b\""), std::string("ecn_pmax = nan"),
                                 std::string("stop_ms = inf"), std::string("senders = 1e400")})
        {
            NiccScenario s;
            std::string err;
            NS_TEST_EXPECT_MSG_EQ(NiccLoadScenarioText("base = \"leaf-spine\"\n" + line + "\n", "nul.toml", ".", &s, &err),
                                  false,
                                  line);
            NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "nul.toml:2:"), true, err);
        }
        NS_TEST_EXPECT_MSG_GT(tried, 100 * 20, "walked too few (key, value) pairs");
    }
};

class NiccStringKeyWalk : public TestCase
{
  public:
    NiccStringKeyWalk()
        : TestCase("string keys: a run refuses garbage text naming the key")
    {
    }

  private:
    void DoRun() override
    {
        // A key that only one setting reads is tried with that setting.
        const std::map<std::string, std::string> context = {{"topology_file", "topology=file"},
                                                            {"training_layers_file", "training=custom"}};
        uint32_t tried = 0;
        for (const auto& k : NiccScenario::Keys())
        {
            if (k.type != "string")
            {
                continue;
            }
            for (const auto& v : Garbage())
            {
                if (NiccPrintable(v) != v || v.empty())
                {
                    continue; // Set refuses it (NiccScenarioKeyWalk); "" = the key's off value
                }
                NiccScenario s;
                std::string err;
                bool ok = s.Select("leaf-spine", &err);
                for (const char* kv : {"leaves=2", "spines=1", "hosts_per_leaf=2", "stop_ms=0.001"})
                {
                    ok = ok && s.SetPair(kv, &err);
                }
                const auto c = context.find(k.name);
                ok = ok && (c == context.end() || s.SetPair(c->second, &err));
                NS_TEST_ASSERT_MSG_EQ(ok, true, err);
                if (!s.Set(k.name, v, &err))
                {
                    NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "'" + k.name + "'"), true, err);
                    continue;
                }
                ++tried;
                NiccScenarioResult r;
                err.clear();
                NS_TEST_EXPECT_MSG_EQ(s.Run(&r, &err), false, k.name << " = '" << v << "' ran");
                NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "'" + k.name + "'"), true, k.name << ": " << err);
            }
        }
        NS_TEST_EXPECT_MSG_GT(tried, 50u, "walked too few string values");
    }
};

// A 2-host fabric and its flows: the HPCC config walk's base.
const char* const kTopo = "3 1 2\n2\n0 2 100Gbps 1us 0\n1 2 100Gbps 1us 0\n";
const char* const kFlow = "1\n0 1 3 100 1000 2.0\n";

class NiccHpccConfigWalk : public TestCase
{
  public:
    NiccHpccConfigWalk()
        : TestCase("every HPCC config key refuses each bad value naming file:line and the key")
    {
    }

  private:
    void DoRun() override
    {
        const fs::path dir = NiccTestDir("bad-hpcc");
        NiccWriteFile(dir, "topology.txt", kTopo);
        NiccWriteFile(dir, "flow.txt", kFlow);
        const std::string base = "CC_MODE 1\nHAS_WIN 0\nTOPOLOGY_FILE topology.txt\nFLOW_FILE flow.txt\n";
        uint32_t tried = 0;
        for (const auto& key : NiccHpccKeys())
        {
            const std::string shape = key.value;
            const bool output = shape == "path" && std::string(key.name).find("OUTPUT") != std::string::npos;
            for (const auto& v : Garbage())
            {
                const size_t first = v.find_first_not_of(" \t");
                if (v.find_first_of("\n") != std::string::npos || v.find('\0') != std::string::npos ||
                    (first != std::string::npos && (first > 0 || v.find_last_not_of(" \t") + 1 < v.size())))
                {
                    continue; // a line ends at the newline; spaces around a value separate it
                }
                if ((output || std::string(key.name) == "QLEN_MON_FILE") && NiccPrintable(v) == v &&
                    !v.empty() && v.find_first_of(" \t") == std::string::npos)
                {
                    continue; // any printable word is a file name to write
                }
                ++tried;
                const std::string text = base + "\n" + key.name + " " + v + "\n";
                NiccHpccConfig cfg;
                NiccScenario s;
                std::string err;
                const bool ok = NiccParseHpccConfig(text, "config.txt", dir.string(), false, &cfg, &err) &&
                                NiccApplyHpccConfig(cfg, &s, &err);
                NS_TEST_EXPECT_MSG_EQ(ok, false, key.name << " took '" << NiccPrintable(v) << "'");
                NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "config.txt:6") && NiccContains(err, key.name),
                                      true,
                                      key.name << " '" << NiccPrintable(v) << "': " << err);
            }
        }
        fs::remove_all(dir);
        NS_TEST_EXPECT_MSG_GT(tried, 40u * 15u, "walked too few (key, value) pairs");
    }
};

/// Each field of `row` (fields split by `sep`) replaced by each bad value
/// in turn: the file must be refused naming source:line.
template <typename Parse>
uint32_t
WalkFields(const std::string& head,
           const std::string& row,
           char sep,
           uint32_t line,
           const std::vector<std::string>& bad,
           Parse parse,
           std::vector<std::string>* failures)
{
    std::vector<std::string> fields;
    size_t from = 0;
    for (size_t at = row.find(sep); ; at = row.find(sep, from))
    {
        fields.push_back(row.substr(from, at == std::string::npos ? std::string::npos : at - from));
        if (at == std::string::npos)
        {
            break;
        }
        from = at + 1;
    }
    uint32_t tried = 0;
    for (size_t f = 0; f < fields.size(); ++f)
    {
        // A field the sample row writes in digits is an integer: no fraction.
        std::vector<std::string> values = bad;
        if (fields[f].find_first_not_of("0123456789") == std::string::npos)
        {
            values.emplace_back("1.5");
        }
        for (const auto& v : values)
        {
            std::string changed;
            for (size_t i = 0; i < fields.size(); ++i)
            {
                changed += (i ? std::string(1, sep) : "") + (i == f ? v : fields[i]);
            }
            std::string err;
            const bool ok = parse(head + changed + "\n", &err);
            const std::string where = "f.txt:" + std::to_string(line) + ":";
            if (ok || !NiccContains(err, where))
            {
                failures->push_back("field " + std::to_string(f) + " of '" + row + "' = '" + NiccPrintable(v) +
                                    "': " + (ok ? "accepted" : err));
            }
            ++tried;
        }
    }
    return tried;
}

/// The field walk's values: garbage without a separator or line break
/// (those change the field count or the line, refused for that reason).
std::vector<std::string>
FieldGarbage(char sep)
{
    std::vector<std::string> out;
    for (const auto& v : Garbage())
    {
        if (!v.empty() && v.find(sep) == std::string::npos && v.find('\n') == std::string::npos &&
            v.find_first_of(" \t") == std::string::npos)
        {
            out.push_back(v);
        }
    }
    for (const char* more : {"-1", "99999999999999999999", "1e20"})
    {
        out.emplace_back(more);
    }
    return out;
}

class NiccFileFieldWalk : public TestCase
{
  public:
    NiccFileFieldWalk()
        : TestCase("every field of a flow file and a topology file line refuses each bad value")
    {
    }

  private:
    void DoRun() override
    {
        const auto flows = [](const std::string& text, std::string* err) {
            NiccFlowFile f;
            NiccFlowFileHosts hosts;
            hosts.count = 4;
            return NiccParseFlowFile(text, "f.txt", &f, err) && NiccResolveFlowFile(&f, hosts, 1024, err);
        };
        const auto topo = [](const std::string& text, std::string* err) {
            NiccTopologySpec spec;
            return NiccFabricHelper::ParseTopology(text, "f.txt", &spec, err);
        };
        uint32_t tried = 0;
        std::vector<std::string> failures;
        // HPCC flow file: count, then 'src dst pg dport size start_s'.
        tried += WalkFields("1\n", "0 1 3 100 1000 2.0", ' ', 2, FieldGarbage(' '), flows, &failures);
        // CSV with every column.
        tried += WalkFields("src,dst,size_bytes,start_us,cc,prio,dport\n",
                            "0,1,1000,10.5,dcqcn,3,100",
                            ',',
                            2,
                            FieldGarbage(','),
                            flows,
                            &failures);
        // Topology file: 'N S L', the switch ids, then 'a b rate delay error_rate'.
        tried += WalkFields("3 1 2\n2\n1 2 100Gbps 1us 0\n", "0 2 100Gbps 1us 0", ' ', 4, FieldGarbage(' '), topo, &failures);
        for (const auto& f : failures)
        {
            NS_TEST_EXPECT_MSG_EQ(f, "", "a bad field was not refused with file:line");
        }
        NS_TEST_EXPECT_MSG_GT(tried, 300u, "walked too few (field, value) pairs");
    }
};

class NiccBadValuesSuite : public TestSuite
{
  public:
    NiccBadValuesSuite()
        : TestSuite("nicc-bad-values", UNIT)
    {
        AddTestCase(new NiccScenarioKeyWalk, TestCase::QUICK);
        AddTestCase(new NiccScenarioFileWalk, TestCase::QUICK);
        AddTestCase(new NiccStringKeyWalk, TestCase::QUICK);
        AddTestCase(new NiccHpccConfigWalk, TestCase::QUICK);
        AddTestCase(new NiccFileFieldWalk, TestCase::QUICK);
    }
};

NiccBadValuesSuite g_niccBadValuesSuite;

} // namespace
