/*
 * nicc-hpcc-config-test-suite.cc — the HPCC simulator's config.txt mapped to
 * nicc keys ("nicc-hpcc-config"):
 *   - every key of the simulator's own example config maps to the nicc
 *     value it means (units converted: us, s, MiB, Mb/s, ns -> us, g ->
 *     1024 - 1024 g, eta -> ppm, the ECN maps), with CRLF line ends;
 *   - the stdout echo's spelling (tabs, Yes/No, maps without their count)
 *     maps the same;
 *   - GLOBAL_T's T is the largest base RTT computed as the simulator does
 *     (hand-computed for a 2-host and a 2-tier topology);
 *   - paths resolve against the config's directory, or its parent for
 *     "mix/..." paths;
 *   - QLEN_MON_FILE monitors every switch port (a 3-switch run: 8 ports)
 *     unless TRACE_FILE's switches or a later --set monitor=... name them;
 *   - each refused key or value (TIMELY, DCTCP, unknown key, bad rate, g not
 *     a multiple of 1/1024, error rate, link down, window modes, value
 *     counts, missing files) fails naming file:line and the key; --lenient
 *     turns an unknown key into a note;
 *   - every key of the table is documented (docs/hpcc-compat.md is
 *     generated from it);
 *   - DCQCN with the simulator's BDP window (HAS_WIN 1): the cases of
 *     nicc-hpcc-config-window-test.cc.
 * Inputs are written to a fresh temporary directory. < 1 s.
 *
 *   ./nicc-sim-test-runner --suite=nicc-hpcc-config --verbose
 */
#include "nicc-test-util.h"

#include "ns3/nicc-module.h"
#include "ns3/test.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ns3;

namespace
{

namespace fs = std::filesystem;

fs::path
TempDir(const std::string& tag)
{
    const fs::path dir = fs::temp_directory_path() /
                         ("nicc-hpcc-config-test-" + std::to_string(::getpid()) + "-" + tag);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

void
Write(const fs::path& p, const std::string& text)
{
    std::ofstream(p, std::ios::binary) << text;
}

// 3 nodes: switch 0, hosts 1 and 2, 100 Gb/s, 1 us.
const char* const kTopo2 = "3 1 2\r\n0\r\n0 1 100Gbps 0.001ms 0\r\n0 2 100Gbps 0.001ms 0\r\n";
const char* const kFlows = "1\n1 2 3 100 1000000 2\n";

std::map<std::string, std::string>
KeysOf(const NiccHpccConfig& c)
{
    std::map<std::string, std::string> m;
    for (const auto& [k, v] : c.keys)
    {
        m[k] = v;
    }
    return m;
}

/// The simulator's example config.txt (mix/), with DCQCN's keys as in its
/// DCQCN runs, CRLF line ends.
std::string
ExampleConfig(const std::string& ccMode, const std::string& hasWin)
{
    std::string s = "ENABLE_QCN 1\nUSE_DYNAMIC_PFC_THRESHOLD 1\n\nPACKET_PAYLOAD_SIZE 1000\n\n"
                    "TOPOLOGY_FILE topo.txt\nFLOW_FILE flow.txt\nTRACE_FILE trace.txt\n"
                    "TRACE_OUTPUT_FILE mix.tr\nFCT_OUTPUT_FILE fct.txt\nPFC_OUTPUT_FILE pfc.txt\n\n"
                    "SIMULATOR_STOP_TIME 4.00\n\nCC_MODE " + ccMode + "\nALPHA_RESUME_INTERVAL 1\n"
                    "RATE_DECREASE_INTERVAL 4\nCLAMP_TARGET_RATE 0\nRP_TIMER 900 \nEWMA_GAIN 0.00390625\n"
                    "FAST_RECOVERY_TIMES 1\nRATE_AI 50Mb/s\nRATE_HAI 100Mb/s\nMIN_RATE 100Mb/s\n"
                    "DCTCP_RATE_AI 1000Mb/s\n\nERROR_RATE_PER_LINK 0.0000\nL2_CHUNK_SIZE 4000\n"
                    "L2_ACK_INTERVAL 1\nL2_BACK_TO_ZERO 0\n\nHAS_WIN " + hasWin + "\nGLOBAL_T 1\nVAR_WIN 1\n"
                    "FAST_REACT 1\nU_TARGET 0.95\nMI_THRESH 0\nINT_MULTI 1\nMULTI_RATE 1\nSAMPLE_FEEDBACK 0\n\n"
                    "RATE_BOUND 1\n\nACK_HIGH_PRIO 0\n\nLINK_DOWN 0 0 0\n\nENABLE_TRACE 1\n\n"
                    "KMAX_MAP 3 25000000000 400 50000000000 800 100000000000 1600\n"
                    "KMIN_MAP 3 25000000000 100 50000000000 200 100000000000 400\n"
                    "PMAX_MAP 3 25000000000 0.2 50000000000 0.2 100000000000 0.2\nBUFFER_SIZE 32\n"
                    "QLEN_MON_FILE qlen.txt\nQLEN_MON_START 2000000000\nQLEN_MON_END 2010000000\n";
    std::string crlf;
    for (char c : s)
    {
        crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    }
    return crlf;
}

/// A directory holding topo.txt, flow.txt and trace.txt.
fs::path
Inputs(const std::string& tag, const std::string& topo = kTopo2)
{
    const fs::path d = TempDir(tag);
    Write(d / "topo.txt", topo);
    Write(d / "flow.txt", kFlows);
    Write(d / "trace.txt", "3\r\n0 1 57\r\n");
    return d;
}

class ExampleMappingTest : public TestCase
{
  public:
    ExampleMappingTest()
        : TestCase("the example config's keys map to their nicc values, units converted")
    {
    }

  private:
    void DoRun() override
    {
        const fs::path d = Inputs("example");
        NiccHpccConfig c;
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(NiccParseHpccConfig(ExampleConfig("1", "0"), "cfg", d.string(), false, &c, &err),
                              true, err);
        auto k = KeysOf(c);
        const std::map<std::string, std::string> want = {
            {"cc", "dcqcn"},
            {"mtu", "1000"},
            {"topology", "file"},
            {"topology_file", (d / "topo.txt").lexically_normal().string()},
            {"flow_file", (d / "flow.txt").lexically_normal().string()},
            {"stop_ms", "4000"},
            {"ecn", "true"},
            {"buffer_bytes", "33554432"},
            {"ecn_map", "25000000000:100:400:0.2;50000000000:200:800:0.2;100000000000:400:1600:0.2"},
            {"ack_high_priority", "false"},
            {"pfc_alpha_ref_rate", "100000000000bps"},
            {"dcqcn.rp_dce_tcp_rtt", "1"},
            {"dcqcn.rp_rate_reduce_monitor_period", "4"},
            {"dcqcn.rp_clamp_tgt_rate", "0"},
            {"dcqcn.rp_time_reset", "900"},
            {"dcqcn.rp_dce_tcp_g", "1020"},
            {"dcqcn.rp_threshold", "1"},
            {"dcqcn.rp_ai_rate", "50"},
            {"dcqcn.rp_hai_rate", "100"},
            {"dcqcn.rp_min_rate", "100"},
            {"ack_interval", "1"},
            {"recovery", "gbn"},
            {"monitor", "0:*"},
            {"qlen_mon_file", (d / "qlen.txt").lexically_normal().string()},
            {"monitor_start_us", "2000000"},
            {"monitor_stop_us", "2010000"},
        };
        for (const auto& [key, value] : want)
        {
            NS_TEST_EXPECT_MSG_EQ(k[key], value, "key " + key);
        }
        NS_TEST_EXPECT_MSG_EQ(k.count("hpcc.base_rtt_ns"), 0u, "GLOBAL_T sets HPCC's T only with HPCC");
        NS_TEST_EXPECT_MSG_EQ(c.fctFile, (d / "fct.txt").lexically_normal().string(), "FCT_OUTPUT_FILE");
        NS_TEST_EXPECT_MSG_EQ(c.pfcFile, (d / "pfc.txt").lexically_normal().string(), "PFC_OUTPUT_FILE");
        // Keys without an effect are accepted with a note naming their line.
        bool intMultiNoted = false;
        for (const auto& n : c.notes)
        {
            intMultiNoted = intMultiNoted || n.find("cfg:38: INT_MULTI") == 0;
        }
        NS_TEST_EXPECT_MSG_EQ(intMultiNoted, true, "INT_MULTI noted with its line");

        // HPCC: eta, maxStage and T from the topology (GLOBAL_T 1): 2 links
        // of 1 us and 1000 B at 100 Gb/s (80 ns each): 2 x 2000 + 160 ns.
        NS_TEST_ASSERT_MSG_EQ(NiccParseHpccConfig(ExampleConfig("3", "1"), "cfg", d.string(), false, &c, &err),
                              true, err);
        k = KeysOf(c);
        NS_TEST_EXPECT_MSG_EQ(k["cc"], "hpcc", "CC_MODE 3");
        NS_TEST_EXPECT_MSG_EQ(k["hpcc.eta_ppm"], "950000", "U_TARGET");
        NS_TEST_EXPECT_MSG_EQ(k["hpcc.max_stage"], "0", "MI_THRESH");
        NS_TEST_EXPECT_MSG_EQ(k["hpcc.base_rtt_ns"], "4160", "GLOBAL_T");
        // HPCC is rate-based in the simulator: R_AI 50 Mb/s and the floor
        // 100 Mb/s become windows over T = 4160 ns: 26 and 52 bytes.
        NS_TEST_EXPECT_MSG_EQ(k["hpcc.w_ai_bytes"], "26", "RATE_AI as W_AI");
        NS_TEST_EXPECT_MSG_EQ(k["hpcc.min_window_bytes"], "52", "MIN_RATE as the window floor");
        NS_TEST_EXPECT_MSG_EQ(k.count("dcqcn.rp_min_rate"), 0u, "MIN_RATE is DCQCN's rate floor only with DCQCN");
        fs::remove_all(d);
    }
};

class EchoSpellingTest : public TestCase
{
  public:
    EchoSpellingTest()
        : TestCase("the simulator's stdout echo (tabs, Yes or No, maps without a count) maps the same")
    {
    }

  private:
    void DoRun() override
    {
        const fs::path d = Inputs("echo");
        const std::string text = "ENABLE_QCN\t\t\tYes\nUSE_DYNAMIC_PFC_THRESHOLD\tYes\nCLAMP_TARGET_RATE\t\tYes\n"
                                 "TOPOLOGY_FILE\t\t\ttopo.txt\nFLOW_FILE\t\t\tflow.txt\nCC_MODE\t\t1\nHAS_WIN\t\t0\n"
                                 "ACK_HIGH_PRIO\t\tNo\n"
                                 "KMAX_MAP\t\t\t\t 25000000000 400 100000000000 1600\n"
                                 "KMIN_MAP\t\t\t\t 25000000000 100 100000000000 400\n"
                                 "PMAX_MAP\t\t\t\t 25000000000 0.1 100000000000 0.2\n";
        NiccHpccConfig c;
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(NiccParseHpccConfig(text, "echo.txt", d.string(), false, &c, &err), true, err);
        auto k = KeysOf(c);
        NS_TEST_EXPECT_MSG_EQ(k["ecn"], "true", "Yes");
        NS_TEST_EXPECT_MSG_EQ(k["ack_high_priority"], "false", "No");
        NS_TEST_EXPECT_MSG_EQ(k["dcqcn.rp_clamp_tgt_rate"], "1", "Yes on an engine row");
        NS_TEST_EXPECT_MSG_EQ(k["ecn_map"], "25000000000:100:400:0.1;100000000000:400:1600:0.2",
                              "maps given as pairs without a count");
        fs::remove_all(d);
    }
};

class BaseRttTest : public TestCase
{
  public:
    BaseRttTest()
        : TestCase("GLOBAL_T: T is the largest base RTT over host pairs, as the simulator computes it")
    {
    }

  private:
    void DoRun() override
    {
        // Hosts 0,1 on ToR 4, hosts 2,3 on ToR 5, spine 6; host links 100
        // Gb/s 1 us, fabric 400 Gb/s 2 us, payload 1000 B. Across the spine:
        // 2 x (1 + 2 + 2 + 1) us + 2 x 80 + 2 x 20 ns = 12200 ns. The ns3-
        // datacenter header 'N S T L' and unit-less delays in s.
        const std::string topo = "7 3 3 6\n4 5 6\n0 4 100Gbps 1us 0\n1 4 100Gbps 1us 0\n2 5 100Gbps 1us 0\n"
                                 "3 5 100Gbps 1us 0\n4 6 400Gbps 0.000002 0\n5 6 400Gbps 2us 0\n";
        const fs::path d = Inputs("rtt", topo);
        NiccHpccConfig c;
        std::string err;
        const std::string text = "CC_MODE 3\nTOPOLOGY_FILE topo.txt\nFLOW_FILE flow.txt\n";
        NS_TEST_ASSERT_MSG_EQ(NiccParseHpccConfig(text, "cfg", d.string(), false, &c, &err), true, err);
        NS_TEST_EXPECT_MSG_EQ(KeysOf(c)["hpcc.base_rtt_ns"], "12200", "GLOBAL_T's default (1) applies too");
        fs::remove_all(d);
    }
};

// Hosts 0,1 on ToR 4, hosts 2,3 on ToR 5, spine 6: 3 + 3 + 2 = 8 switch
// ports, 4 of them facing a host.
const char* const kTwoTier = "7 3 6\n4 5 6\n0 4 100Gbps 1us 0\n1 4 100Gbps 1us 0\n2 5 100Gbps 1us 0\n"
                             "3 5 100Gbps 1us 0\n4 6 400Gbps 2us 0\n5 6 400Gbps 2us 0\n";

class QlenMonitorTest : public TestCase
{
  public:
    QlenMonitorTest()
        : TestCase("QLEN_MON_FILE monitors every switch port unless the config or --set names the ports")
    {
    }

  private:
    /// Parses and applies the config in `d`, then `sets` (as --set), runs.
    bool Run(const fs::path& d, const std::vector<std::string>& sets, NiccScenarioResult* r, std::string* err)
    {
        NiccHpccConfig c;
        NiccScenario s;
        bool ok = NiccLoadHpccConfig((d / "config.txt").string(), false, &c, err) && NiccApplyHpccConfig(c, &s, err);
        for (const auto& kv : sets)
        {
            ok = ok && s.SetPair(kv, err);
        }
        return ok && s.Run(r, err);
    }

    void DoRun() override
    {
        const fs::path d = Inputs("qlen", kTwoTier);
        Write(d / "flow.txt", "1\n0 2 3 100 100000 2\n");
        Write(d / "config.txt", "CC_MODE 1\nHAS_WIN 0\nTOPOLOGY_FILE topo.txt\nFLOW_FILE flow.txt\n"
                                "SIMULATOR_STOP_TIME 2.0002\nQLEN_MON_FILE qlen.txt\n"
                                "QLEN_MON_START 2000000000\nQLEN_MON_END 2000100000\n");
        NiccHpccConfig c;
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(NiccLoadHpccConfig((d / "config.txt").string(), false, &c, &err), true, err);
        NS_TEST_EXPECT_MSG_EQ(KeysOf(c)["monitor"], "all", "implied by QLEN_MON_FILE");

        NiccScenarioResult r;
        NS_TEST_ASSERT_MSG_EQ(Run(d, {}, &r, &err), true, err);
        NS_TEST_EXPECT_MSG_EQ(r.monitoredPorts.size(), 8u, "every port of the three switches");
        NS_TEST_EXPECT_MSG_EQ(r.flows.size(), 1u, "the flow ran");
        // One histogram line per port after each "time:" line.
        std::ifstream qlenFile(r.spool->Path(NICC_QLEN_SPOOL)); // streamed during the run
        const std::string qlen((std::istreambuf_iterator<char>(qlenFile)), std::istreambuf_iterator<char>());
        const auto lines = std::count(qlen.begin(), qlen.end(), '\n');
        const auto dumps = static_cast<long>(Count(qlen, "time: "));
        NS_TEST_EXPECT_MSG_EQ((dumps > 0 && lines == dumps * 9), true, "8 port lines per dump");

        // A --set monitor=... applies after the config and wins.
        NS_TEST_ASSERT_MSG_EQ(Run(d, {"monitor=4:*"}, &r, &err), true, err);
        NS_TEST_EXPECT_MSG_EQ(r.monitoredPorts.size(), 3u, "ToR 4's three ports only");
        NS_TEST_ASSERT_MSG_EQ(Run(d, {"monitor=host-facing"}, &r, &err), true, err);
        NS_TEST_EXPECT_MSG_EQ(r.monitoredPorts.size(), 4u, "the four host-facing ports");

        // The config's own TRACE_FILE mapping wins too: its one switch.
        Write(d / "trace.txt", "2\n5 0\n");
        Write(d / "config.txt", ReadAll(d / "config.txt") + "TRACE_FILE trace.txt\n");
        NS_TEST_ASSERT_MSG_EQ(NiccLoadHpccConfig((d / "config.txt").string(), false, &c, &err), true, err);
        NS_TEST_EXPECT_MSG_EQ(KeysOf(c)["monitor"], "5:*", "TRACE_FILE's switch");
        NS_TEST_ASSERT_MSG_EQ(Run(d, {}, &r, &err), true, err);
        NS_TEST_EXPECT_MSG_EQ(r.monitoredPorts.size(), 3u, "ToR 5's three ports");
        fs::remove_all(d);
    }

    static size_t Count(const std::string& text, const std::string& what)
    {
        size_t n = 0;
        for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        {
            ++n;
        }
        return n;
    }
};

class PathsTest : public TestCase
{
  public:
    PathsTest()
        : TestCase("paths: relative to the config's directory, or its parent for paths under mix")
    {
    }

  private:
    void DoRun() override
    {
        const fs::path root = TempDir("paths");
        fs::create_directories(root / "mix");
        Write(root / "mix" / "topology.txt", kTopo2);
        Write(root / "mix" / "flow.txt", kFlows);
        const std::string text = "CC_MODE 1\nHAS_WIN 0\nTOPOLOGY_FILE mix/topology.txt\nFLOW_FILE flow.txt\n"
                                 "FCT_OUTPUT_FILE mix/fct.txt\n";
        Write(root / "mix" / "config.txt", text);
        NiccHpccConfig c;
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(NiccLoadHpccConfig((root / "mix" / "config.txt").string(), false, &c, &err), true, err);
        auto k = KeysOf(c);
        NS_TEST_EXPECT_MSG_EQ(k["topology_file"], (root / "mix" / "topology.txt").lexically_normal().string(),
                              "mix/... from the parent");
        NS_TEST_EXPECT_MSG_EQ(k["flow_file"], (root / "mix" / "flow.txt").lexically_normal().string(),
                              "plain name from the config's directory");
        NS_TEST_EXPECT_MSG_EQ(c.fctFile, (root / "mix" / "fct.txt").lexically_normal().string(), "output path");
        fs::remove_all(root);
    }
};

class ErrorsTest : public TestCase
{
  public:
    ErrorsTest()
        : TestCase("each refused key or value names file:line and the key; lenient skips unknown keys")
    {
    }

  private:
    void DoRun() override
    {
        const fs::path d = Inputs("errors");
        const std::string base = "TOPOLOGY_FILE topo.txt\nFLOW_FILE flow.txt\n"; // lines 1-2
        // (line 3 of each config, its expected message part)
        const std::vector<std::pair<std::string, std::string>> cases = {
            {"CC_MODE 7", "cfg:3: CC_MODE: 7 is TIMELY: not implemented in nicc"},
            {"CC_MODE 8", "cfg:3: CC_MODE: 8 is DCTCP: not implemented in nicc"},
            {"CC_MODE 2", "cfg:3: CC_MODE: 2 is no congestion control"},
            {"ENABLE_QCNN 1", "cfg:3: ENABLE_QCNN: unknown key"},
            {"RATE_AI 50Mbx", "cfg:3: RATE_AI: '50Mbx' is not an ns-3 data rate"},
            {"RATE_AI 1500Kb/s", "cfg:3: RATE_AI: '1500Kb/s' is not a whole number of Mb/s"},
            {"EWMA_GAIN 0.3", "cfg:3: EWMA_GAIN: g = 0.3 is not a multiple of 1/1024"},
            {"ERROR_RATE_PER_LINK 1.5", "cfg:3: ERROR_RATE_PER_LINK: '1.5' is out of range"},
            {"LINK_DOWN 1000 1 1", "cfg:3: LINK_DOWN: nodes b and c are the same"},
            {"LINK_DOWN 1000 1.5 1", "cfg:3: LINK_DOWN: '1.5' is not a whole number"},
            {"LINK_DOWN 0 0", "cfg:3: LINK_DOWN: expected 3 value(s)"},
            {"ENABLE_QCN maybe", "cfg:3: ENABLE_QCN: 'maybe' is not a flag"},
            {"KMAX_MAP 3 1 2", "cfg:3: KMAX_MAP: expected a count n and n pairs"},
            {"PMAX_MAP 1 100000000000 1.5", "cfg:3: PMAX_MAP: pair 1: '1.5' is out of range"},
            {"PMAX_MAP 1 100000000000 0.5", "cfg:3: PMAX_MAP: needs KMIN_MAP too"},
            {"USE_DYNAMIC_PFC_THRESHOLD 0", "cfg:3: USE_DYNAMIC_PFC_THRESHOLD: 0 (a static PFC threshold)"},
            {"BUFFER_SIZE 0.5", "cfg:3: BUFFER_SIZE: '0.5' is out of range"},
            {"RP_TIMER 1.5", "cfg:3: RP_TIMER: '1.5' is not a whole number of us"},
            {"L2_BACK_TO_ZERO 1", "cfg:3: L2_BACK_TO_ZERO: 1 (resend from the start of the chunk)"},
            {"L2_ACK_INTERVAL 0", "cfg:3: L2_ACK_INTERVAL: 0 turns acknowledgements off"},
            {"SIMULATOR_STOP_TIME x", "cfg:3: SIMULATOR_STOP_TIME: 'x' is not a number"},
            {"FCT_OUTPUT_FILE nodir/fct.txt", "cfg:3: FCT_OUTPUT_FILE: directory of 'nodir/fct.txt' does not exist"},
        };
        for (const auto& [line, want] : cases)
        {
            // CC_MODE 1 after the line under test, unless the line is CC_MODE.
            const std::string text = base + line + "\n" + (line.rfind("CC_MODE", 0) == 0 ? "" : "CC_MODE 1\n");
            NiccHpccConfig c;
            std::string err;
            NS_TEST_EXPECT_MSG_EQ(NiccParseHpccConfig(text, "cfg", d.string(), false, &c, &err), false, line);
            NS_TEST_EXPECT_MSG_EQ((err.find(want) == 0), true, line + " -> " + err);
        }
        // HPCC-only refusals.
        for (const auto& [line, want] : std::vector<std::pair<std::string, std::string>>{
                 {"HAS_WIN 0", "cfg:3: HAS_WIN: 0 (HPCC without its window)"},
                 {"GLOBAL_T 0", "cfg:3: GLOBAL_T: 0 (each host pair's own base RTT as T)"},
                 {"VAR_WIN 0", "cfg:3: VAR_WIN: 0 (a fixed maximum window)"},
                 {"SAMPLE_FEEDBACK 1", "cfg:3: SAMPLE_FEEDBACK: 1"},
                 {"FAST_REACT 0", "cfg:3: FAST_REACT: 0 (react once per RTT)"},
                 {"RATE_BOUND 0", "cfg:3: RATE_BOUND: 0"}})
        {
            NiccHpccConfig c;
            std::string err;
            NS_TEST_EXPECT_MSG_EQ(NiccParseHpccConfig(base + line + "\nCC_MODE 3\n", "cfg", d.string(), false, &c,
                                                      &err),
                                  false, line);
            NS_TEST_EXPECT_MSG_EQ((err.find(want) == 0), true, line + " -> " + err);
        }
        // Missing inputs name the path.
        NiccHpccConfig c;
        std::string err;
        NS_TEST_EXPECT_MSG_EQ(NiccParseHpccConfig("TOPOLOGY_FILE nope.txt\nFLOW_FILE flow.txt\nCC_MODE 1\n", "cfg",
                                                  d.string(), false, &c, &err),
                              false, "missing topology");
        NS_TEST_EXPECT_MSG_EQ((err.find("cfg:1: TOPOLOGY_FILE: no such file 'nope.txt'") == 0), true, err);
        NS_TEST_EXPECT_MSG_EQ(NiccParseHpccConfig("CC_MODE 1\n", "cfg", d.string(), false, &c, &err), false,
                              "no topology");
        NS_TEST_EXPECT_MSG_EQ(err, "cfg: TOPOLOGY_FILE and FLOW_FILE are required", "required keys");
        // --lenient: an unknown key is a note.
        NS_TEST_EXPECT_MSG_EQ(NiccParseHpccConfig(base + "FOO 1\nCC_MODE 1\n", "cfg", d.string(), true, &c, &err),
                              true, err);
        NS_TEST_EXPECT_MSG_EQ((!c.notes.empty() && c.notes[0].find("cfg:3: FOO: unknown key") == 0), true,
                              "lenient note");
        fs::remove_all(d);
    }
};

class DocumentedTest : public TestCase
{
  public:
    DocumentedTest()
        : TestCase("every key of the simulator's main program is in the table, documented")
    {
    }

  private:
    void DoRun() override
    {
        // The keys scratch/third.cc reads (alibaba-edu/High-Precision-Congestion-Control).
        const char* const third[] = {
            "ENABLE_QCN", "USE_DYNAMIC_PFC_THRESHOLD", "CLAMP_TARGET_RATE", "PAUSE_TIME", "DATA_RATE",
            "LINK_DELAY", "PACKET_PAYLOAD_SIZE", "L2_CHUNK_SIZE", "L2_ACK_INTERVAL", "L2_BACK_TO_ZERO",
            "TOPOLOGY_FILE", "FLOW_FILE", "TRACE_FILE", "TRACE_OUTPUT_FILE", "SIMULATOR_STOP_TIME",
            "ALPHA_RESUME_INTERVAL", "RP_TIMER", "EWMA_GAIN", "FAST_RECOVERY_TIMES", "RATE_AI", "RATE_HAI",
            "ERROR_RATE_PER_LINK", "CC_MODE", "RATE_DECREASE_INTERVAL", "MIN_RATE", "FCT_OUTPUT_FILE",
            "HAS_WIN", "GLOBAL_T", "MI_THRESH", "VAR_WIN", "FAST_REACT", "U_TARGET", "INT_MULTI",
            "RATE_BOUND", "ACK_HIGH_PRIO", "DCTCP_RATE_AI", "PFC_OUTPUT_FILE", "LINK_DOWN", "ENABLE_TRACE",
            "KMAX_MAP", "KMIN_MAP", "PMAX_MAP", "BUFFER_SIZE", "QLEN_MON_FILE", "QLEN_MON_START",
            "QLEN_MON_END", "MULTI_RATE", "SAMPLE_FEEDBACK", "PINT_LOG_BASE", "PINT_PROB"};
        const std::string md = NiccHpccKeysMarkdown();
        for (const char* k : third)
        {
            bool found = false;
            for (const auto& row : NiccHpccKeys())
            {
                found = found || std::string(row.name) == k;
            }
            NS_TEST_EXPECT_MSG_EQ(found, true, k);
            NS_TEST_EXPECT_MSG_EQ((md.find(std::string("| `") + k + "` |") != std::string::npos), true, k);
        }
    }
};

} // namespace

namespace ns3
{
/// DCQCN's BDP window cases (nicc-hpcc-config-window-test.cc).
std::vector<TestCase*> NiccHpccConfigWindowTests();
} // namespace ns3

namespace
{

class NiccHpccConfigTestSuite : public TestSuite
{
  public:
    NiccHpccConfigTestSuite()
        : TestSuite("nicc-hpcc-config", UNIT)
    {
        AddTestCase(new ExampleMappingTest, TestCase::QUICK);
        AddTestCase(new EchoSpellingTest, TestCase::QUICK);
        AddTestCase(new BaseRttTest, TestCase::QUICK);
        AddTestCase(new PathsTest, TestCase::QUICK);
        AddTestCase(new QlenMonitorTest, TestCase::QUICK);
        AddTestCase(new ErrorsTest, TestCase::QUICK);
        AddTestCase(new DocumentedTest, TestCase::QUICK);
        for (TestCase* t : NiccHpccConfigWindowTests())
        {
            AddTestCase(t, TestCase::QUICK);
        }
    }
};

NiccHpccConfigTestSuite g_niccHpccConfigTestSuite;

} // namespace
