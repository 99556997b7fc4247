/*
 * nicc-hpcc-config-window-test.cc — test cases of the "nicc-hpcc-config"
 * suite (nicc-hpcc-config-test-suite.cc adds them) for DCQCN with the HPCC
 * simulator's BDP window (HAS_WIN 1 with CC_MODE 1), on one small fabric
 * whose figures are computed by hand below:
 *   - NiccHpccPairs gives each host pair's base RTT and BDP as third.cc
 *     does, and the config maps GLOBAL_T 1 / 0 to dcqcn_window_bdp = max /
 *     pair (VAR_WIN to dcqcn_var_window);
 *   - on a NIC-level incast the window caps the bytes in flight: a packet
 *     leaves only while fewer bytes than the window are in flight, so the
 *     peak is the window rounded up to a whole packet; without a window the
 *     same flows hold more; with VAR_WIN the cap follows the rate;
 *   - a whole --hpcc-config run gives every flow its hand-computed window
 *     (largest BDP with GLOBAL_T 1, its pair's with GLOBAL_T 0) and
 *     completes.
 */
#include "nicc-test-util.h"

#include "ns3/boolean.h"
#include "ns3/nicc-module.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

namespace fs = std::filesystem;

// Hosts 0 and 1 on ToR 4, hosts 2 and 3 on ToR 5, spine 6. Host links 1 us,
// 100 Gb/s except host 3's 25 Gb/s; ToR-spine links 400 Gb/s, 2 us.
const char* const kMixed = "7 3 6\n4 5 6\n0 4 100Gbps 1us 0\n1 4 100Gbps 1us 0\n2 5 100Gbps 1us 0\n"
                           "3 5 25Gbps 1us 0\n4 6 400Gbps 2us 0\n5 6 400Gbps 2us 0\n";

// By hand, payload 1000 B: rtt = 2 x the summed delays + per link
// 1000 x 8 / rate (80 ns at 100 Gb/s, 20 at 400, 320 at 25); bdp = rtt x
// the slowest rate / 8e9, rounded down.
//   0 -> 1: 2 x 2000 + 80 + 80               =  4160 ns x 100 Gb/s =  52000 B
//   0 -> 2: 2 x 6000 + 80 + 20 + 20 + 80     = 12200 ns x 100 Gb/s = 152500 B
//   0 -> 3: 2 x 6000 + 80 + 20 + 20 + 320    = 12440 ns x  25 Gb/s =  38875 B
//   3 -> 2: 2 x 2000 + 320 + 80              =  4400 ns x  25 Gb/s =  13750 B
// The largest BDP (152500, GLOBAL_T 1) is not on the largest RTT's pair.
constexpr uint64_t kBdp01 = 52000;
constexpr uint64_t kBdp02 = 152500;
constexpr uint64_t kBdp03 = 38875;
constexpr uint64_t kBdp32 = 13750;

/// The window rounded up to whole 1000-byte packets: the peak in flight.
constexpr uint64_t
Packets(uint64_t windowBytes)
{
    return (windowBytes + 999) / 1000 * 1000;
}

NiccTopologySpec
Mixed()
{
    NiccTopologySpec spec;
    std::string err;
    NS_ABORT_MSG_UNLESS(NiccFabricHelper::ParseTopology(kMixed, "mixed.txt", &spec, &err), err);
    return spec;
}

class PairBdpTest : public TestCase
{
  public:
    PairBdpTest()
        : TestCase("DCQCN window: each pair's BDP as the simulator computes it; GLOBAL_T picks max or pair")
    {
    }

  private:
    void DoRun() override
    {
        const auto p = NiccHpccPairs(Mixed(), 1000);
        NS_TEST_ASSERT_MSG_EQ(p.size(), 4u, "four hosts");
        NS_TEST_EXPECT_MSG_EQ(p[0][1].rttNs, 4160u, "0 -> 1 rtt");
        NS_TEST_EXPECT_MSG_EQ(p[0][1].bdpBytes, kBdp01, "0 -> 1 bdp");
        NS_TEST_EXPECT_MSG_EQ(p[0][2].rttNs, 12200u, "0 -> 2 rtt");
        NS_TEST_EXPECT_MSG_EQ(p[0][2].bdpBytes, kBdp02, "0 -> 2 bdp");
        NS_TEST_EXPECT_MSG_EQ(p[0][3].rttNs, 12440u, "0 -> 3 rtt");
        NS_TEST_EXPECT_MSG_EQ(p[0][3].bdpBytes, kBdp03, "0 -> 3 bdp: the 25 Gb/s link");
        NS_TEST_EXPECT_MSG_EQ(p[3][2].bdpBytes, kBdp32, "3 -> 2 bdp");
        NS_TEST_EXPECT_MSG_EQ(p[2][3].bdpBytes, kBdp32, "2 -> 3: the same path back");
        NS_TEST_EXPECT_MSG_EQ(p[1][1].bdpBytes, 0u, "no pair with itself");

        const fs::path d = NiccTestDir("hpcc-window-map");
        NiccWriteFile(d, "topo.txt", kMixed);
        NiccWriteFile(d, "flow.txt", "1\n0 2 3 100 100000 2\n");
        const std::string base = "CC_MODE 1\nTOPOLOGY_FILE topo.txt\nFLOW_FILE flow.txt\n";
        const std::vector<std::pair<std::string, std::map<std::string, std::string>>> cases = {
            {"HAS_WIN 1\nGLOBAL_T 1\nVAR_WIN 0\n", {{"dcqcn_window_bdp", "max"}, {"dcqcn_var_window", "false"}}},
            {"HAS_WIN 1\n", {{"dcqcn_window_bdp", "max"}}}, // GLOBAL_T absent: 1
            {"HAS_WIN 1\nGLOBAL_T 0\nVAR_WIN 1\n", {{"dcqcn_window_bdp", "pair"}, {"dcqcn_var_window", "true"}}},
            {"HAS_WIN 0\nGLOBAL_T 0\nVAR_WIN 1\n", {{"dcqcn_window_bdp", ""}, {"dcqcn_var_window", ""}}},
        };
        for (const auto& [lines, want] : cases)
        {
            NiccHpccConfig c;
            std::string err;
            NS_TEST_ASSERT_MSG_EQ(NiccParseHpccConfig(base + lines, "cfg", d.string(), false, &c, &err), true, err);
            std::map<std::string, std::string> k;
            for (const auto& [key, value] : c.keys)
            {
                k[key] = value;
            }
            for (const auto& [key, value] : want)
            {
                NS_TEST_EXPECT_MSG_EQ(k[key], value, lines + key);
            }
        }
        fs::remove_all(d);
    }
};

/// The peak bytes in flight of the one QP of each sender NIC, sampled as
/// every frame starts, and the sends made with the window already full.
struct InflightProbe
{
    std::vector<Ptr<NiccNic>> nics;
    std::vector<uint64_t> peak;
    std::vector<uint64_t> minWindow; ///< smallest window in force at a send
    uint32_t overWindow{0};

    static void OnTx(InflightProbe* p, uint32_t i, Ptr<const Packet>)
    {
        const Ptr<NiccNic>& nic = p->nics[i];
        if (nic->GetNQps() == 0)
        {
            return;
        }
        const uint64_t inflight = nic->GetQpInflightBytes(0);
        const uint64_t window = nic->GetQpDcqcnWindowNow(0);
        p->peak[i] = std::max(p->peak[i], inflight);
        p->minWindow[i] = std::min(p->minWindow[i], window);
        // The packet just sent left while fewer than `window` bytes were out.
        p->overWindow += window > 0 && inflight >= 1000 && inflight - 1000 >= window;
    }
};

class InflightCapTest : public TestCase
{
  public:
    /// mode: "none" (no window), "pair" (each pair's BDP), "max" (the
    /// largest BDP), "pair-var" (pair with VAR_WIN and ECN marking on).
    explicit InflightCapTest(const std::string& mode)
        : TestCase("DCQCN window on a NIC-level incast (" + mode + "): the bytes in flight stop at it"),
          m_mode(mode)
    {
    }

  private:
    void DoRun() override
    {
        // Hosts 0 and 1 (2 MB each, 100 Gb/s) and host 3 (500 KB, 25 Gb/s)
        // send to host 2 at once: its port queues and RTTs grow. Without
        // ECN marking DCQCN never cuts, so only a window holds them back.
        const bool var = m_mode == "pair-var";
        NiccFabricHelper fabric;
        fabric.SetSwitchAttribute("EcnEnabled", BooleanValue(var));
        // VAR_WIN: marks from 20 KB (the windows keep the queue below the
        // default 400 KB Kmin of a 100 Gb/s port).
        fabric.SetSwitchAttribute("EcnKmin", UintegerValue(20000));
        fabric.SetSwitchAttribute("EcnKmax", UintegerValue(100000));
        const NiccTopologySpec spec = Mixed();
        NiccFileTopology t = fabric.BuildFromSpec(spec);
        NiccNicHelper nics;
        nics.SetNicAttribute("CongestionControl", StringValue("dcqcn"));
        nics.SetNicAttribute("PayloadSize", UintegerValue(1000));
        nics.SetNicAttribute("DcqcnWindowBytes", UintegerValue(m_mode == "max" ? kBdp02 : 0));
        nics.SetNicAttribute("DcqcnVarWindow", BooleanValue(var));
        NS_TEST_ASSERT_MSG_EQ(nics.Install(t.hosts), true, "NICs");
        const auto pairs = NiccHpccPairs(spec, 1000);
        const uint32_t senders[3] = {0, 1, 3};
        InflightProbe probe;
        for (uint32_t i = 0; i < 3; ++i)
        {
            const uint32_t h = senders[i];
            const Ptr<NiccNic> nic = NiccNicHelper::GetNic(t.hosts[h]);
            if (m_mode == "pair" || var)
            {
                nic->SetDcqcnWindow(t.hosts[2]->GetId(), static_cast<uint32_t>(pairs[h][2].bdpBytes));
            }
            probe.nics.push_back(nic);
            probe.peak.push_back(0);
            probe.minWindow.push_back(UINT64_MAX);
            t.hostDevices[h]->TraceConnectWithoutContext("Tx",
                                                         MakeBoundCallback(&InflightProbe::OnTx, &probe, i));
            nics.AddFlow(t.hosts[h], t.hosts[2], h == 3 ? 500000 : 2000000, MicroSeconds(1));
        }
        nics.StopWhenAllComplete();
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(nics.GetNCompleted(), 3u, "every flow completes");
        NS_TEST_EXPECT_MSG_EQ(probe.overWindow, 0u, "no packet left with the window full");
        const uint64_t w02 = m_mode == "none" ? 0 : kBdp02;
        const uint64_t w32 = m_mode == "none" ? 0 : m_mode == "max" ? kBdp02 : kBdp32;
        NS_TEST_EXPECT_MSG_EQ(probe.nics[0]->GetQpDcqcnWindowBytes(0), w02, "0 -> 2 window");
        NS_TEST_EXPECT_MSG_EQ(probe.nics[2]->GetQpDcqcnWindowBytes(0), w32, "3 -> 2 window");
        if (m_mode == "none")
        {
            // The queue at host 2's port holds more than either window.
            NS_TEST_EXPECT_MSG_GT(probe.peak[0], Packets(kBdp02), "0 -> 2 unbounded");
            NS_TEST_EXPECT_MSG_GT(probe.peak[2], Packets(kBdp32), "3 -> 2 unbounded");
        }
        else if (var)
        {
            // ECN cuts the rates and the window shrinks with them (no send
            // passed the window in force, above).
            NS_TEST_EXPECT_MSG_LT_OR_EQ(probe.peak[0], Packets(kBdp02), "0 -> 2 within its full window");
            NS_TEST_EXPECT_MSG_LT(probe.minWindow[0], kBdp02 / 2, "0 -> 2's window shrank with its rate");
            NS_TEST_EXPECT_MSG_LT(probe.minWindow[2], kBdp32, "3 -> 2's window shrank with its rate");
        }
        else
        {
            // The window binds: exactly the window in whole packets.
            NS_TEST_EXPECT_MSG_EQ(probe.peak[0], Packets(kBdp02), "0 -> 2 peak = 153000");
            NS_TEST_EXPECT_MSG_EQ(probe.peak[1], Packets(kBdp02), "1 -> 2 peak = 153000");
            if (m_mode == "pair")
            {
                NS_TEST_EXPECT_MSG_EQ(probe.peak[2], Packets(kBdp32), "3 -> 2 peak = 14000");
            }
            else
            {
                // The largest BDP lets the 25 Gb/s flow past its own pair's.
                NS_TEST_EXPECT_MSG_GT(probe.peak[2], Packets(kBdp32), "3 -> 2 past 14000");
                NS_TEST_EXPECT_MSG_LT_OR_EQ(probe.peak[2], Packets(kBdp02), "3 -> 2 within 153000");
            }
        }
        Simulator::Destroy();
    }

    std::string m_mode;
};

class ConfigRunTest : public TestCase
{
  public:
    ConfigRunTest()
        : TestCase("HAS_WIN 1 with CC_MODE 1 runs: GLOBAL_T 1 gives every flow the largest BDP, 0 its pair's")
    {
    }

  private:
    void DoRun() override
    {
        const fs::path d = NiccTestDir("hpcc-window-run");
        NiccWriteFile(d, "topo.txt", kMixed);
        // 0 -> 1, 0 -> 2, 3 -> 2 and 0 -> 3, 300 KB each, all at 2 s.
        NiccWriteFile(d, "flow.txt", "4\n0 1 3 100 300000 2\n0 2 3 100 300000 2\n3 2 3 100 300000 2\n"
                                     "0 3 3 100 300000 2\n");
        const uint64_t pair[4] = {kBdp01, kBdp02, kBdp32, kBdp03};
        for (const char* globalT : {"1", "0"})
        {
            NiccWriteFile(d, "config.txt",
                          std::string("CC_MODE 1\nHAS_WIN 1\nVAR_WIN 1\nGLOBAL_T ") + globalT +
                              "\nENABLE_QCN 1\nPACKET_PAYLOAD_SIZE 1000\nTOPOLOGY_FILE topo.txt\n"
                              "FLOW_FILE flow.txt\nSIMULATOR_STOP_TIME 2.01\n");
            NiccHpccConfig c;
            NiccScenario s;
            NiccScenarioResult r;
            std::string err;
            NS_TEST_ASSERT_MSG_EQ(NiccLoadHpccConfig((d / "config.txt").string(), false, &c, &err), true, err);
            NS_TEST_ASSERT_MSG_EQ(NiccApplyHpccConfig(c, &s, &err), true, err);
            NS_TEST_ASSERT_MSG_EQ(s.Run(&r, &err), true, err);
            NS_TEST_ASSERT_MSG_EQ(r.flows.size(), 4u, globalT);
            for (size_t k = 0; k < 4; ++k)
            {
                const NiccFlowRecord& f = r.flows[k];
                const uint64_t want = std::string(globalT) == "1" ? kBdp02 : pair[k];
                NS_TEST_EXPECT_MSG_EQ(f.nic->GetQpDcqcnWindowBytes(f.qpn), want,
                                      std::string("GLOBAL_T ") + globalT + ", flow " + std::to_string(k));
                NS_TEST_EXPECT_MSG_GT(f.fctNs, 0, "flow " + std::to_string(k) + " completes");
            }
        }
        // The BDPs come from a topology file only.
        NiccScenario s;
        NiccScenarioResult r;
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(s.Select("leaf-spine", &err) && s.SetPair("dcqcn_window_bdp=max", &err), true, err);
        NS_TEST_EXPECT_MSG_EQ(s.Run(&r, &err), false, "leaf-spine");
        NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "needs topology=file"), true, err);
        fs::remove_all(d);
    }
};

} // namespace

namespace ns3
{

/// The window cases, for NiccHpccConfigTestSuite.
std::vector<TestCase*>
NiccHpccConfigWindowTests()
{
    return {new PairBdpTest,
            new InflightCapTest("none"),
            new InflightCapTest("pair"),
            new InflightCapTest("max"),
            new InflightCapTest("pair-var"),
            new ConfigRunTest};
}

} // namespace ns3
