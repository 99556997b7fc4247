/*
 * nicc-faults-test-suite.cc — link faults ("nicc-faults"), on a 2-leaf,
 * 2-spine leaf-spine carrying a permutation (every host sends to a host
 * under the other leaf):
 *   - leaf0-spine0 down for good, ECMP, detection 5 us: frames lost and
 *     counted per fault equal the channels' link-down counters, flows
 *     recover, every byte is delivered;
 *   - the same link down, then up again;
 *   - REPS spraying: recovery within 100 us of the detection;
 *   - loss rate 1e-3 with go-back-N and with selective repeat: all
 *     delivered, retransmissions > 0, corruption losses counted;
 *   - no fault, lossless: nothing lost;
 *   - bad fault specs are refused naming the key.
 * The accounting invariant (unique bytes delivered == offered, total lost
 * == sum of the per-cause counters) is checked in every run.
 *
 *   ./nicc-sim-test-runner --suite=nicc-faults --verbose
 */
#include "ns3/nicc-module.h"
#include "ns3/test.h"

#include "nicc-test-util.h"

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ns3;

namespace
{

std::vector<std::string>
Base()
{
    return {"leaves=2", "spines=2", "hosts_per_leaf=2", "poisson_load=0", "permutation_bytes=2000000",
            "stop_ms=5", "fault_detect_us=5", "fault_window_us=10",
            // 200 Gb/s uplinks: one of a leaf's two still carries its two hosts
            "fabric_rate_gbps=200"};
}

// A test case that checks the accounting invariant of a run that should
// deliver everything.
class FaultCase : public TestCase
{
  public:
    using TestCase::TestCase;

  protected:
    void CheckAccounting(const NiccScenarioResult& r)
    {
        NS_TEST_EXPECT_MSG_EQ(r.Completed(), r.flows.size(), "every flow completes");
        NS_TEST_EXPECT_MSG_GT(r.bytesOffered, 0u, "bytes offered");
        NS_TEST_EXPECT_MSG_EQ(r.bytesDelivered, r.bytesOffered, "unique bytes delivered == offered");
        uint64_t perFault = 0;
        for (const auto& f : r.faults)
        {
            perFault += f.lostPackets;
        }
        NS_TEST_EXPECT_MSG_EQ(perFault, r.linkLoss.downPackets, "per-fault losses == link-down counters");
    }
};

uint64_t
TxBytes(const NiccScenarioResult& r, const std::string& from, const std::string& to)
{
    for (const auto& l : r.links)
    {
        if (l.from == from && l.to == to)
        {
            return l.txBytes;
        }
    }
    return 0;
}

class LinkDownTest : public FaultCase
{
  public:
    LinkDownTest(std::string spray, bool up, double maxAfterDetectUs)
        : FaultCase("leaf0-spine0 down" + std::string(up ? " and up" : "") + ", " + spray +
                   ": losses counted, flows recover, all delivered"),
          m_spray(std::move(spray)),
          m_up(up),
          m_maxAfterDetectUs(maxAfterDetectUs)
    {
    }

  private:
    void DoRun() override
    {
        std::vector<std::string> sets = Base();
        sets.push_back(std::string("fault=link:leaf0-spine0@50") + (m_up ? ",120" : ""));
        if (m_spray != "ecmp")
        {
            sets.push_back("spray=" + m_spray);
            sets.push_back("sack=true"); // each hole of the sprayed losses resent at once
            // A resend sprayed onto the link before the detection is lost
            // again and waits for the timeout: a fabric-scale one.
            sets.push_back("rto_us=50");
        }
        NiccScenarioResult r;
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(NiccRunWith("leaf-spine", sets, &r, &err), true, err);
        NS_TEST_ASSERT_MSG_EQ(r.faults.size(), 1u, "one fault");
        const NiccFaultResult& f = r.faults[0];
        NS_TEST_EXPECT_MSG_EQ(f.channels, 1u, "one link matched");
        NS_TEST_EXPECT_MSG_GT(f.lostPackets, 0u, "frames lost on the down link");
        NS_TEST_EXPECT_MSG_GT(f.lostDataPackets, 0u, "data lost on the down link");
        NS_TEST_EXPECT_MSG_GT(f.affectedFlows, 0u, "some flow crossed the link");
        NS_TEST_EXPECT_MSG_GT(r.retxBytes, 0u, "the losses were resent");
        NS_TEST_EXPECT_MSG_EQ(f.recoveredFlows, f.measuredFlows, "every measured flow recovers");
        NS_TEST_EXPECT_MSG_GT(f.measuredFlows, 0u, "recovery measured");
        NS_TEST_EXPECT_MSG_LT(f.recoveryAfterDetectMaxUs, m_maxAfterDetectUs, "recovery after detection");
        CheckAccounting(r);
        if (m_up)
        {
            // Back in the routes after up + detection: leaf0 -> spine0 carries
            // more than when the link never comes back.
            std::vector<std::string> down = Base();
            down.push_back("fault=link:leaf0-spine0@50");
            NiccScenarioResult d;
            NS_TEST_ASSERT_MSG_EQ(NiccRunWith("leaf-spine", down, &d, &err), true, err);
            NS_TEST_EXPECT_MSG_GT(TxBytes(r, "leaf0", "spine0"), TxBytes(d, "leaf0", "spine0") + 100000,
                                  "the link is used again once up");
            NS_TEST_EXPECT_MSG_EQ(f.upUs, 120.0, "up time reported");
        }
        std::printf("%s: lost %lu pkts, affected %u, recovery p50 %.1f us max %.1f us (after detect "
                    "%.1f / %.1f)\n",
                    GetName().c_str(), static_cast<unsigned long>(f.lostPackets), f.affectedFlows,
                    f.recoveryP50Us, f.recoveryMaxUs, f.recoveryAfterDetectP50Us,
                    f.recoveryAfterDetectMaxUs);
    }

    std::string m_spray;
    bool m_up;
    double m_maxAfterDetectUs;
};

class UndetectedTest : public FaultCase
{
  public:
    UndetectedTest()
        : FaultCase("leaf0-spine0 down, never detected: REPS steers around it, ECMP does not")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<std::string> sets = Base();
        sets.push_back("fault=link:leaf0-spine0@50");
        sets.push_back("fault_detect_us=1000000");
        sets.push_back("stop_ms=2");
        sets.push_back("sack=true");
        sets.push_back("rto_us=50");
        sets.push_back("recovery=sr");
        std::vector<std::string> reps = sets;
        reps.push_back("spray=reps");
        NiccScenarioResult r;
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(NiccRunWith("leaf-spine", reps, &r, &err), true, err);
        NS_TEST_ASSERT_MSG_EQ(r.faults.size(), 1u, "");
        const NiccFaultResult& f = r.faults[0];
        NS_TEST_EXPECT_MSG_GT(f.measuredFlows, 0u, "");
        NS_TEST_EXPECT_MSG_EQ(f.recoveredFlows, f.measuredFlows, "REPS: every flow recovers");
        NS_TEST_EXPECT_MSG_LT(f.recoveryMaxUs, 150.0, "REPS: within 150 us of the failure");
        CheckAccounting(r);
        std::printf("undetected, reps: recovery p50 %.1f us max %.1f us\n", f.recoveryP50Us, f.recoveryMaxUs);

        NiccScenarioResult e;
        NS_TEST_ASSERT_MSG_EQ(NiccRunWith("leaf-spine", sets, &e, &err), true, err);
        NS_TEST_ASSERT_MSG_EQ(e.faults.size(), 1u, "");
        NS_TEST_EXPECT_MSG_GT(e.faults[0].affectedFlows, 0u, "ECMP: flows hashed onto the link");
        NS_TEST_EXPECT_MSG_LT(e.faults[0].recoveredFlows, e.faults[0].affectedFlows,
                              "ECMP: a flow hashed onto the dead link never recovers");
        NS_TEST_EXPECT_MSG_LT(e.bytesDelivered, e.bytesOffered, "ECMP: not everything delivered");
    }
};

class LossRateTest : public FaultCase
{
  public:
    explicit LossRateTest(std::string recovery)
        : FaultCase("loss_rate 1e-3, recovery=" + recovery + ": all delivered, resends > 0"),
          m_recovery(std::move(recovery))
    {
    }

  private:
    void DoRun() override
    {
        std::vector<std::string> sets = Base();
        sets.push_back("loss_rate=0.001");
        sets.push_back("recovery=" + m_recovery);
        sets.push_back("stop_ms=20");
        NiccScenarioResult r;
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(NiccRunWith("leaf-spine", sets, &r, &err), true, err);
        NS_TEST_EXPECT_MSG_GT(r.linkLoss.corruptionPackets, 0u, "frames corrupted");
        NS_TEST_EXPECT_MSG_EQ(r.linkLoss.downPackets, 0u, "no link down");
        NS_TEST_EXPECT_MSG_GT(r.retxPackets, 0u, "resends");
        CheckAccounting(r);
    }

    std::string m_recovery;
};

class FlapTest : public FaultCase
{
  public:
    FlapTest()
        : FaultCase("leaf0-spine0 flapping 3 times, plus a lossy host link: all delivered")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<std::string> sets = Base();
        sets.push_back("flap=link:leaf0-spine0@20,40,3");
        sets.push_back("link_loss=host0-leaf0:0.002");
        NiccScenarioResult r;
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(NiccRunWith("leaf-spine", sets, &r, &err), true, err);
        NS_TEST_ASSERT_MSG_EQ(r.faults.size(), 1u, "one flap fault");
        NS_TEST_EXPECT_MSG_EQ(r.faults[0].kind, "flap", "");
        NS_TEST_EXPECT_MSG_EQ(r.faults[0].upUs, 120.0, "last up = 20 + 2 * 40 + 20");
        NS_TEST_EXPECT_MSG_GT(r.faults[0].lostPackets, 0u, "losses while down");
        NS_TEST_EXPECT_MSG_GT(r.linkLoss.corruptionPackets, 0u, "losses on the lossy host link");
        CheckAccounting(r);
    }
};

// Hosts 0 and 1 on switches 2 and 3, joined directly and through switch 4.
const char* const kDiamond = "5 3 5\n2 3 4\n0 2 100Gbps 1us 0\n1 3 100Gbps 1us 0\n"
                             "2 3 100Gbps 1us 0\n2 4 100Gbps 1us 0\n4 3 100Gbps 1us 0\n";

class HpccLinkDownTest : public FaultCase
{
  public:
    HpccLinkDownTest()
        : FaultCase("HPCC config LINK_DOWN 50 2 3: link down at 2 s + 50 us, rerouted at once; "
                    "the topology file's error_rate column loses frames")
    {
    }

  private:
    void DoRun() override
    {
        namespace fs = std::filesystem;
        const fs::path d = fs::temp_directory_path() / ("nicc-faults-test-" + std::to_string(::getpid()));
        fs::remove_all(d);
        fs::create_directories(d);
        std::ofstream(d / "topo.txt") << kDiamond;
        std::ofstream(d / "flow.txt") << "1\n0 1 3 100 2000000 2\n";
        std::ofstream(d / "config.txt") << "TOPOLOGY_FILE topo.txt\nFLOW_FILE flow.txt\nCC_MODE 1\n"
                                           "SIMULATOR_STOP_TIME 2.01\nLINK_DOWN 50 2 3\n";
        NiccHpccConfig cfg;
        NiccScenario s;
        NiccScenarioResult r;
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(NiccLoadHpccConfig((d / "config.txt").string(), false, &cfg, &err), true, err);
        NS_TEST_ASSERT_MSG_EQ(NiccApplyHpccConfig(cfg, &s, &err), true, err);
        NS_TEST_ASSERT_MSG_EQ(s.Run(&r, &err), true, err);
        NS_TEST_ASSERT_MSG_EQ(r.faults.size(), 1u, "one fault");
        const NiccFaultResult& f = r.faults[0];
        NS_TEST_EXPECT_MSG_EQ(f.downUs, 2000050.0, "2 s + 50 us");
        NS_TEST_EXPECT_MSG_EQ(f.upUs, -1.0, "never up");
        NS_TEST_EXPECT_MSG_EQ(f.detectUs, 0.0, "routes at once");
        NS_TEST_EXPECT_MSG_GT(f.lostDataPackets, 0u, "data in flight on the link lost");
        NS_TEST_EXPECT_MSG_EQ(f.affectedFlows, 1u, "the one flow");
        CheckAccounting(r);

        // The error_rate column: 1% on the direct switch link.
        std::ofstream(d / "lossy.txt") << "5 3 5\n2 3 4\n0 2 100Gbps 1us 0\n1 3 100Gbps 1us 0\n"
                                          "2 3 100Gbps 1us 0.01\n2 4 100Gbps 1us 0\n4 3 100Gbps 1us 0\n";
        std::vector<std::string> sets = {"topology=file", "topology_file=" + (d / "lossy.txt").string(),
                                          "poisson_load=0", "permutation_bytes=1000000", "stop_ms=20"};
        NiccScenarioResult lossy;
        NS_TEST_ASSERT_MSG_EQ(NiccRunWith("leaf-spine", sets, &lossy, &err), true, err);
        NS_TEST_EXPECT_MSG_GT(lossy.linkLoss.corruptionPackets, 0u, "frames lost on the lossy link");
        NS_TEST_EXPECT_MSG_GT(lossy.retxPackets, 0u, "and resent");
        CheckAccounting(lossy);
        fs::remove_all(d);
    }
};

class NoFaultTest : public FaultCase
{
  public:
    NoFaultTest()
        : FaultCase("lossless fabric without faults: nothing lost")
    {
    }

  private:
    void DoRun() override
    {
        NiccScenarioResult r;
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(NiccRunWith("leaf-spine", Base(), &r, &err), true, err);
        NS_TEST_EXPECT_MSG_EQ(r.linkLoss.downPackets + r.linkLoss.corruptionPackets + r.drops, 0u,
                              "0 lost");
        NS_TEST_EXPECT_MSG_EQ(r.retxPackets, 0u, "no resend");
        CheckAccounting(r);
    }
};

class BadSpecTest : public FaultCase
{
  public:
    BadSpecTest()
        : FaultCase("bad fault specs are refused naming the key")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::pair<std::string, std::string>> bad = {
            {"fault=link:leaf0-spine0", "key 'fault'"},
            {"fault=link:leaf0@10", "key 'fault'"},
            {"fault=link:leaf0-spine0@20,10", "key 'fault'"},
            {"fault=link:leaf0-nosuch@10", "unknown node 'nosuch'"},
            {"fault=link:leaf0-leaf1@10", "no link between leaf0 and leaf1"},
            {"flap=link:leaf0-spine0@10,0,3", "key 'flap'"},
            {"link_loss=leaf0-spine0:2", "key 'link_loss'"},
        };
        for (const auto& [kv, msg] : bad)
        {
            std::vector<std::string> sets = Base();
            sets.push_back(kv);
            NiccScenarioResult r;
            std::string err;
            NS_TEST_EXPECT_MSG_EQ(NiccRunWith("leaf-spine", sets, &r, &err), false, kv);
            NS_TEST_EXPECT_MSG_NE(err.find(msg), std::string::npos, kv + " -> " + err);
        }
    }
};

class NiccFaultsTestSuite : public TestSuite
{
  public:
    NiccFaultsTestSuite()
        : TestSuite("nicc-faults", UNIT)
    {
        AddTestCase(new LinkDownTest("ecmp", false, 100), TestCase::QUICK);
        AddTestCase(new LinkDownTest("ecmp", true, 100), TestCase::QUICK);
        AddTestCase(new LinkDownTest("reps", false, 100), TestCase::QUICK);
        AddTestCase(new UndetectedTest, TestCase::QUICK);
        AddTestCase(new LossRateTest("gbn"), TestCase::QUICK);
        AddTestCase(new LossRateTest("sr"), TestCase::QUICK);
        AddTestCase(new FlapTest, TestCase::QUICK);
        AddTestCase(new HpccLinkDownTest, TestCase::QUICK);
        AddTestCase(new NoFaultTest, TestCase::QUICK);
        AddTestCase(new BadSpecTest, TestCase::QUICK);
    }
};

NiccFaultsTestSuite g_niccFaultsTestSuite;

} // namespace
