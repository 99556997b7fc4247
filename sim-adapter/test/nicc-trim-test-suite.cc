/*
 * nicc-trim-test-suite.cc — switch packet trimming and the NIC's answer to
 * it ("nicc-trim"):
 *   - lossy 16-to-1 incast (PFC off, 200 KB buffer), selective repeat: with
 *     trimming no drop, every flow and byte, one resend per trim, no
 *     timeout; without it drops, timeouts and a later last completion;
 *     go-back-N with trimming completes without a timeout too;
 *   - lossy 64-to-1 incast (DCQCN, 1 MB buffer, 100 KB trim threshold): the
 *     same properties;
 *   - a REPS-sprayed permutation on a lossy leaf-spine with trimming keeps
 *     its throughput;
 *   - SACK: two dropped packets are repaired by one NACK.
 *
 *   ./nicc-sim-test-runner --suite=nicc-trim --verbose
 */
#include "ns3/nicc-module.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/integer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"

#include "nicc-test-util.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

class TrimIncastTest : public TestCase
{
  public:
    TrimIncastTest(uint32_t senders, std::vector<std::string> base, uint64_t size)
        : TestCase(std::to_string(senders) +
                   "-to-1 lossy incast: trimming loses nothing, one resend per trim, no timeout, "
                   "earlier than drops + timeouts"),
          m_senders(senders),
          m_base(std::move(base)),
          m_size(size)
    {
    }

  private:
    void DoRun() override
    {
        std::string err;
        NiccScenarioResult trim;
        std::vector<std::string> sets = m_base;
        sets.push_back("recovery=sr");
        sets.push_back("trim=true");
        NS_TEST_ASSERT_MSG_EQ(NiccRunWith("incast", sets, &trim, &err), true, err);
        NS_TEST_EXPECT_MSG_GT(trim.trims, 0u, "the switch trimmed");
        NS_TEST_EXPECT_MSG_EQ(trim.drops, 0u, "nothing dropped");
        NS_TEST_EXPECT_MSG_EQ(trim.dropsTrimNoBuffer, 0u, "every header found room");
        NS_TEST_EXPECT_MSG_EQ(trim.Completed(), m_senders, "every flow completes");
        NS_TEST_EXPECT_MSG_EQ(trim.bytesDelivered, m_senders * m_size, "unique bytes delivered == sent");
        NS_TEST_EXPECT_MSG_EQ(trim.retxPackets, trim.trims, "exactly one resend per trim");
        NS_TEST_EXPECT_MSG_EQ(trim.timeouts, 0u, "no timeout");

        NiccScenarioResult drop;
        sets = m_base;
        sets.push_back("recovery=sr");
        NS_TEST_ASSERT_MSG_EQ(NiccRunWith("incast", sets, &drop, &err), true, err);
        NS_TEST_EXPECT_MSG_GT(drop.drops, 0u, "without trimming the switch drops");
        NS_TEST_EXPECT_MSG_GT(drop.timeouts, 0u, "and recovery needs timeouts");
        NS_TEST_EXPECT_MSG_EQ(drop.Completed(), m_senders, "");
        NS_TEST_EXPECT_MSG_EQ(drop.bytesDelivered, m_senders * m_size, "");
        NS_TEST_EXPECT_MSG_LT(NiccLastCompletionNs(trim), NiccLastCompletionNs(drop),
                              "trimming finishes the incast earlier");

        // Go-back-N: a trim NACK rewinds like a NACK; still no timeout.
        NiccScenarioResult gbn;
        sets = m_base;
        sets.push_back("recovery=gbn");
        sets.push_back("trim=true");
        NS_TEST_ASSERT_MSG_EQ(NiccRunWith("incast", sets, &gbn, &err), true, err);
        NS_TEST_EXPECT_MSG_GT(gbn.trims, 0u, "gbn");
        NS_TEST_EXPECT_MSG_EQ(gbn.drops, 0u, "gbn");
        NS_TEST_EXPECT_MSG_EQ(gbn.Completed(), m_senders, "gbn");
        NS_TEST_EXPECT_MSG_EQ(gbn.bytesDelivered, m_senders * m_size, "gbn");
        NS_TEST_EXPECT_MSG_EQ(gbn.timeouts, 0u, "gbn");
        NS_TEST_EXPECT_MSG_LT(NiccLastCompletionNs(gbn), NiccLastCompletionNs(drop), "gbn");
    }

    uint32_t m_senders;
    std::vector<std::string> m_base;
    uint64_t m_size;
};

class TrimSprayPermutationTest : public TestCase
{
  public:
    TrimSprayPermutationTest()
        : TestCase("REPS-sprayed permutation, lossy with trimming: throughput kept, trims resent")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::string> base = {
            "leaves=2", "spines=8", "hosts_per_leaf=8", "poisson_load=0",
            "permutation_bytes=100000000", "stop_ms=0.4", "warmup_us=100", "cc=none",
            "spray.ev_bits=8", "spray=reps", "run=1"};
        std::string err;
        NiccScenarioResult lossless;
        NS_TEST_ASSERT_MSG_EQ(NiccRunWith("leaf-spine", base, &lossless, &err), true, err);
        std::vector<std::string> sets = base;
        for (const char* kv : {"pfc=false", "trim=true", "trim_threshold_bytes=5000"})
        {
            sets.push_back(kv);
        }
        NiccScenarioResult trim;
        NS_TEST_ASSERT_MSG_EQ(NiccRunWith("leaf-spine", sets, &trim, &err), true, err);
        NS_TEST_EXPECT_MSG_GT(trim.trims, 0u, "the 5 KB threshold trims");
        NS_TEST_EXPECT_MSG_EQ(trim.drops, 0u, "");
        NS_TEST_EXPECT_MSG_GT(trim.permutationThroughput, 0.95 * lossless.permutationThroughput,
                              "trimming keeps the sprayed throughput");
    }
};

/// One flow, 100 packets, through a lossy switch; the receiver's device
/// drops the first copies of PSNs 10 and 12. With Sack (NACK threshold 8)
/// one NACK names both holes and both are resent; without it each hole
/// takes its own NACK.
class SackTwoHolesTest : public TestCase
{
  public:
    SackTwoHolesTest()
        : TestCase("SACK: two holes repaired by one NACK (two without SACK), no timeout")
    {
    }

  private:
    void Filter(Ptr<NiccNetDevice> dev, Ptr<Packet> p)
    {
        NiccRoceHeader h;
        p->PeekHeader(h);
        if (h.GetType() == NiccRoceHeader::DATA && (h.GetPsn() == 10 || h.GetPsn() == 12) &&
            m_dropped.insert(h.GetPsn()).second)
        {
            return;
        }
        m_next(dev, p);
    }

    void Run(bool sack, uint64_t* nacks, uint64_t* retx, uint64_t* timeouts, uint64_t* bytes)
    {
        m_dropped.clear();
        NiccFabricHelper fabric;
        Ptr<NiccSwitchNode> sw = fabric.CreateSwitch();
        Ptr<Node> a = fabric.CreateHost();
        Ptr<Node> b = fabric.CreateHost();
        fabric.Connect(a, sw, DataRate("100Gbps"), MicroSeconds(1));
        fabric.Connect(b, sw, DataRate("100Gbps"), MicroSeconds(1));
        fabric.InstallRoutes();
        NiccNicHelper nics;
        nics.SetNicAttribute("CongestionControl", StringValue("none"));
        nics.SetNicAttribute("Recovery", EnumValue(NiccNic::SELECTIVE_REPEAT));
        nics.SetNicAttribute("SrNackThreshold", UintegerValue(8));
        nics.SetNicAttribute("Sack", BooleanValue(sack));
        Ptr<NiccNic> tx = nics.Install(a);
        Ptr<NiccNic> rx = nics.Install(b);
        Ptr<NiccNetDevice> dev = rx->GetDevice();
        m_next = dev->GetNiccReceiveCallback();
        dev->SetNiccReceiveCallback(MakeCallback(&SackTwoHolesTest::Filter, this));
        nics.AddFlow(a, b, 100 * 1024, MicroSeconds(1));
        nics.StopWhenAllComplete();
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        *nacks = rx->GetNacksSent();
        *retx = tx->GetRetxPackets();
        *timeouts = tx->GetTimeouts();
        *bytes = rx->GetRxDeliveredBytes();
        m_next = NiccNetDevice::NiccReceiveCallback();
        Simulator::Destroy();
    }

    void DoRun() override
    {
        uint64_t nacks = 0;
        uint64_t retx = 0;
        uint64_t timeouts = 0;
        uint64_t bytes = 0;
        Run(true, &nacks, &retx, &timeouts, &bytes);
        NS_TEST_EXPECT_MSG_EQ(m_dropped.size(), 2u, "both PSNs were dropped once");
        NS_TEST_EXPECT_MSG_EQ(nacks, 1u, "SACK: one NACK");
        NS_TEST_EXPECT_MSG_EQ(retx, 2u, "both holes resent");
        NS_TEST_EXPECT_MSG_EQ(timeouts, 0u, "");
        NS_TEST_EXPECT_MSG_EQ(bytes, 100u * 1024u, "every byte");
        Run(false, &nacks, &retx, &timeouts, &bytes);
        NS_TEST_EXPECT_MSG_EQ(nacks, 2u, "no SACK: one NACK per hole");
        NS_TEST_EXPECT_MSG_EQ(retx, 2u, "");
        NS_TEST_EXPECT_MSG_EQ(timeouts, 0u, "");
        NS_TEST_EXPECT_MSG_EQ(bytes, 100u * 1024u, "");
    }

    NiccNetDevice::NiccReceiveCallback m_next;
    std::set<uint32_t> m_dropped;
};

class NiccTrimTestSuite : public TestSuite
{
  public:
    NiccTrimTestSuite()
        : TestSuite("nicc-trim", UNIT)
    {
        AddTestCase(new TrimIncastTest(16,
                                       {"cc=none", "senders=16", "size_bytes=100000", "pfc=false",
                                        "buffer_bytes=200000", "stop_ms=100"},
                                       100000),
                    TestCase::QUICK);
        AddTestCase(new TrimIncastTest(64,
                                       {"cc=dcqcn", "senders=64", "size_bytes=50000", "pfc=false",
                                        "buffer_bytes=1000000", "trim_threshold_bytes=100000",
                                        "stop_ms=100"},
                                       50000),
                    TestCase::QUICK);
        AddTestCase(new TrimSprayPermutationTest, TestCase::QUICK);
        AddTestCase(new SackTwoHolesTest, TestCase::QUICK);
    }
};

NiccTrimTestSuite g_niccTrimTestSuite;

} // namespace
