/*
 * nicc-switch-knobs-test-suite.cc — the switch and PFC knobs that the HPCC
 * simulator sets differently ("nicc-switch-knobs"):
 *   - PauseUntilResume: an XOFF of 1000 quanta (5.12 us at 100 Gb/s) still
 *     holds its class 20 us later; the resume frame releases it;
 *   - headroom sizing: HeadroomDelayFactor / HeadroomFrames / HeadroomFixed
 *     closed forms, and the keys reach the pre-run buffer check;
 *   - AckHighPriority: ACKs enter the switch in class 0 (true) or in the data
 *     class (false), every flow completes either way;
 *   - every new key reaches its model Attribute;
 *   - per-port alpha from PfcAlphaReferenceRate (the HPCC simulator's
 *     pfc_a_shift), and admission under it;
 *   - ReserveBytes (fills first, releases last, out of the buffer) and
 *     XoffAtThreshold (XOFF at shared == T);
 *   - switch tiers (fat-tree ToR 1, agg 2, core 3) and buffers per tier;
 *   - ecn_map: parse errors name entry and field; per-rate thresholds on
 *     every port, and a port rate without an entry is refused.
 *
 *   ./nicc-sim-test-runner --suite=nicc-switch-knobs --verbose
 */
#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/nicc-module.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <string>
#include <vector>

using namespace ns3;

namespace
{

class PauseUntilResumeTest : public TestCase
{
  public:
    PauseUntilResumeTest()
        : TestCase("PauseUntilResume: an XOFF holds past its quanta until the resume frame")
    {
    }

  private:
    uint32_t m_rx{0};

    void Rx(Ptr<NiccNetDevice>, Ptr<Packet>)
    {
        ++m_rx;
    }

    static void Push(Ptr<NiccNetDevice> d, uint32_t n)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            NiccRoceHeader h;
            h.SetPriority(1);
            Ptr<Packet> p = Create<Packet>(1000);
            p->AddHeader(h);
            d->Enqueue(p, 1);
        }
    }

    void Check(uint32_t rx, bool paused, Ptr<NiccNetDevice> a, const char* when)
    {
        NS_TEST_EXPECT_MSG_EQ(m_rx, rx, when << ": arrivals");
        NS_TEST_EXPECT_MSG_EQ(a->IsPaused(1), paused, when << ": pause state");
    }

    void DoRun() override
    {
        NiccFabricHelper fabric;
        fabric.SetDeviceAttribute("PauseUntilResume", BooleanValue(true));
        Ptr<Node> na = fabric.CreateHost();
        Ptr<Node> nb = fabric.CreateHost();
        auto [a, b] = fabric.Connect(na, nb, DataRate("100Gbps"), MicroSeconds(1));
        b->SetNiccReceiveCallback(MakeCallback(&PauseUntilResumeTest::Rx, this));
        // 1000 quanta = 5.12 us: with expiry the class would run again at ~6.2 us.
        Simulator::Schedule(NanoSeconds(0), &NiccNetDevice::SendPfc, b, 1, 1000);
        Simulator::Schedule(MicroSeconds(2), &PauseUntilResumeTest::Push, a, 4);
        Simulator::Schedule(MicroSeconds(25), &PauseUntilResumeTest::Check, this, 0, true, a,
                            "20 us past the quanta");
        Simulator::Schedule(MicroSeconds(30), &NiccNetDevice::SendPfc, b, 1, 0);
        Simulator::Schedule(MicroSeconds(35), &PauseUntilResumeTest::Check, this, 4, false, a,
                            "after the resume frame");
        Simulator::Run();
        Simulator::Destroy();
    }
};

class HeadroomKnobsTest : public TestCase
{
  public:
    HeadroomKnobsTest()
        : TestCase("headroom: delay factor, frames, fixed bytes; keys reach the buffer check")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<NiccSwitchMmu> mmu = CreateObject<NiccSwitchMmu>();
        const Time us = MicroSeconds(1);
        NS_TEST_EXPECT_MSG_EQ(mmu->ComputeHeadroom(100000000000ull, us, 1100),
                              NiccSwitchMmu::HeadroomBytes(100000000000ull, us, 1100),
                              "defaults = the static formula");
        NS_TEST_EXPECT_MSG_EQ(mmu->ComputeHeadroom(100000000000ull, us, 1100), 28300u, "");
        mmu->SetAttribute("HeadroomDelayFactor", DoubleValue(3.0));
        mmu->SetAttribute("HeadroomFrames", UintegerValue(0));
        NS_TEST_EXPECT_MSG_EQ(mmu->ComputeHeadroom(100000000000ull, us, 1100), 37500u,
                              "the HPCC simulator's 3 x rate x delay");
        NS_TEST_EXPECT_MSG_EQ(mmu->ComputeHeadroom(25000000000ull, NanoSeconds(1200), 1100),
                              11250u,
                              "3 x 25 Gb/s x 1.2 us / 8");
        mmu->SetAttribute("HeadroomFixed", UintegerValue(50000));
        NS_TEST_EXPECT_MSG_EQ(mmu->ComputeHeadroom(100000000000ull, us, 1100), 50000u, "fixed");

        // 64-to-1 at 10 us with 3 x rate x delay and no frame terms:
        // 65 x 375 000 + 65 x 1 098 = 24 446 370 B needed.
        NiccScenario s;
        std::string err;
        NiccScenarioResult r;
        bool ok = s.Select("incast", &err);
        for (const char* kv : {"senders=64", "delay_ns=10000", "headroom_delay_factor=3",
                               "headroom_frames=0", "stop_ms=1"})
        {
            ok = ok && s.SetPair(kv, &err);
        }
        NS_TEST_ASSERT_MSG_EQ(ok, true, err);
        NS_TEST_EXPECT_MSG_EQ(s.Run(&r, &err), false, "refused");
        NS_TEST_EXPECT_MSG_NE(err.find("needs 24 446 370 B"), std::string::npos, err);
        NS_TEST_EXPECT_MSG_NE(err.find("375 000 B each"), std::string::npos, err);
        // headroom_bytes=100000 per port: 65 x 101 098 = 6 571 370 B, fits 16 MB.
        NS_TEST_ASSERT_MSG_EQ(s.SetPair("headroom_bytes=100000", &err), true, err);
        NS_TEST_EXPECT_MSG_EQ(s.Run(&r, &err), true, err);
    }
};

class AckClassTest : public TestCase
{
  public:
    AckClassTest()
        : TestCase("AckHighPriority: ACKs enter the switch in class 0, or in the data class")
    {
    }

  private:
    uint64_t m_acks[2]{0, 0};

    void OnEnqueue(Ptr<const Packet> p, uint32_t, uint8_t cls, uint64_t)
    {
        NiccRoceHeader h;
        p->PeekHeader(h);
        if (h.GetType() == NiccRoceHeader::ACK && cls < 2)
        {
            ++m_acks[cls];
        }
    }

    void RunOnce(bool high)
    {
        m_acks[0] = m_acks[1] = 0;
        NiccFabricHelper fabric;
        NiccIncastTopology t = fabric.BuildIncast(4, DataRate("100Gbps"), MicroSeconds(1));
        t.sw->TraceConnectWithoutContext("Enqueue", MakeCallback(&AckClassTest::OnEnqueue, this));
        NiccNicHelper nics;
        nics.SetNicAttribute("AckHighPriority", BooleanValue(high));
        nics.SetNicAttribute("CongestionControl", StringValue("none"));
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(nics.Install(t.senders, &err) && nics.Install(t.receiver, &err), true, err);
        for (const auto& s : t.senders)
        {
            nics.AddFlow(s, t.receiver, 100000, Time(0));
        }
        nics.StopWhenAllComplete();
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        const std::string what = high ? "high priority" : "data class";
        NS_TEST_EXPECT_MSG_EQ(nics.GetNCompleted(), 4u, what);
        NS_TEST_EXPECT_MSG_GT(m_acks[high ? 0 : 1], 300u, what + ": ACKs in this class");
        NS_TEST_EXPECT_MSG_EQ(m_acks[high ? 1 : 0], 0u, what + ": none in the other");
        Simulator::Destroy();
    }

    void DoRun() override
    {
        RunOnce(true);
        RunOnce(false);
    }
};

class KeysReachModelTest : public TestCase
{
  public:
    KeysReachModelTest()
        : TestCase("switch knob keys set their Attributes")
    {
    }

  private:
    void DoRun() override
    {
        NiccScenario s;
        std::string err;
        bool ok = s.Select("incast", &err);
        for (const char* kv : {"xon_offset_bytes=3072", "pfc_alpha=0.25", "pfc_pause_quanta=1000",
                               "headroom_bytes=50000", "headroom_extra_bytes=7",
                               "pfc_pause_until_resume=true", "extra_wire_bytes=20",
                               "pfc_alpha_ref_rate=50Gbps", "pfc_reserve_bytes=4096",
                               "pfc_xoff_at_threshold=true"})
        {
            ok = ok && s.SetPair(kv, &err);
        }
        NS_TEST_ASSERT_MSG_EQ(ok, true, err);
        NiccFabricHelper fabric;
        NiccNicHelper nics;
        NS_TEST_ASSERT_MSG_EQ(s.ApplyAttributes(&fabric, &nics, &err), true, err);
        NiccIncastTopology t = fabric.BuildIncast(1, DataRate("100Gbps"), MicroSeconds(1));
        Ptr<NiccSwitchMmu> mmu = t.sw->GetMmu();
        UintegerValue u;
        DoubleValue d;
        BooleanValue b;
        mmu->GetAttribute("XonOffset", u);
        NS_TEST_EXPECT_MSG_EQ(u.Get(), 3072u, "xon_offset_bytes");
        mmu->GetAttribute("PfcAlpha", d);
        NS_TEST_EXPECT_MSG_EQ_TOL(d.Get(), 0.25, 1e-12, "pfc_alpha");
        NS_TEST_EXPECT_MSG_EQ_TOL(mmu->GetPortAlpha(0), 0.5, 1e-12, "pfc_alpha_ref_rate: 100 G = 2 x 50 G");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetReserveTotal(), 2u * 4096u, "pfc_reserve_bytes, 2 ports");
        mmu->GetAttribute("XoffAtThreshold", b);
        NS_TEST_EXPECT_MSG_EQ(b.Get(), true, "pfc_xoff_at_threshold");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetHeadroomSize(0), 50007u, "headroom_bytes + headroom_extra_bytes");
        t.sw->GetAttribute("PauseQuanta", u);
        NS_TEST_EXPECT_MSG_EQ(u.Get(), 1000u, "pfc_pause_quanta");
        NS_TEST_EXPECT_MSG_EQ(t.receiverDevice->GetPauseUntilResume(), true, "pfc_pause_until_resume");
        t.receiverDevice->GetAttribute("ExtraWireBytes", u);
        NS_TEST_EXPECT_MSG_EQ(u.Get(), 20u, "extra_wire_bytes");
        Simulator::Destroy();
    }
};

class TierBufferTest : public TestCase
{
  public:
    TierBufferTest()
        : TestCase("switch tiers by distance from hosts; buffer per tier")
    {
    }

  private:
    void DoRun() override
    {
        NiccFabricHelper fabric;
        NiccFatTreeParams p;
        p.pods = 2;
        p.torsPerPod = 2;
        p.aggsPerPod = 2;
        p.cores = 2;
        p.hostsPerTor = 2;
        NiccFatTreeTopology ft = fabric.BuildFatTree(p);
        const std::vector<Ptr<NiccSwitchNode>>& sws = fabric.GetSwitches();
        const std::vector<uint32_t> tier = NiccSwitchTiers(sws);
        auto tierOf = [&](Ptr<NiccSwitchNode> sw) {
            for (size_t k = 0; k < sws.size(); ++k)
            {
                if (sws[k] == sw)
                {
                    return tier[k];
                }
            }
            return 99u;
        };
        for (const auto& sw : ft.tors)
        {
            NS_TEST_EXPECT_MSG_EQ(tierOf(sw), 1u, "ToR = edge");
        }
        for (const auto& sw : ft.aggs)
        {
            NS_TEST_EXPECT_MSG_EQ(tierOf(sw), 2u, "agg = aggregation");
        }
        for (const auto& sw : ft.cores)
        {
            NS_TEST_EXPECT_MSG_EQ(tierOf(sw), 3u, "core");
        }
        NiccApplyTierBuffers(sws, 0, 24000000, 32000000);
        NS_TEST_EXPECT_MSG_EQ(ft.tors[0]->GetMmu()->GetBufferSize(), 16000000u, "0 = unchanged");
        NS_TEST_EXPECT_MSG_EQ(ft.aggs[1]->GetMmu()->GetBufferSize(), 24000000u, "");
        NS_TEST_EXPECT_MSG_EQ(ft.cores[1]->GetMmu()->GetBufferSize(), 32000000u, "");
        Simulator::Destroy();

        // Through the keys: a leaf-spine's spines are its aggregation tier.
        NiccScenario s;
        std::string err;
        NiccScenarioResult r;
        bool ok = s.Select("leaf-spine", &err);
        for (const char* kv : {"leaves=2", "spines=2", "hosts_per_leaf=2", "poisson_load=0",
                               "permutation_bytes=10000", "stop_ms=0.1", "buffer_bytes_edge=100000"})
        {
            ok = ok && s.SetPair(kv, &err);
        }
        NS_TEST_ASSERT_MSG_EQ(ok, true, err);
        // Leaf: 2 hosts at 100 Gb/s + 2 uplinks at 100 Gb/s = 4 x 28 294 + 4 x 1 098.
        NS_TEST_EXPECT_MSG_EQ(s.Run(&r, &err), false, "the edge buffer is too small");
        NS_TEST_EXPECT_MSG_NE(err.find("needs 117 568 B"), std::string::npos, err);
        NS_TEST_EXPECT_MSG_NE(err.find("buffer_bytes is 100 000 B"), std::string::npos, err);
    }
};

class EcnMapTest : public TestCase
{
  public:
    EcnMapTest()
        : TestCase("ecn_map: parsed with errors naming the field; thresholds per port rate")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<NiccEcnMapEntry> map;
        std::string err;
        NS_TEST_EXPECT_MSG_EQ(NiccParseEcnMap("100Gbps:400:1600", &map, &err), false, "3 fields");
        NS_TEST_EXPECT_MSG_NE(err.find("entry 1"), std::string::npos, err);
        NS_TEST_EXPECT_MSG_EQ(NiccParseEcnMap("100Gbps:400:1600:0.2;x:1:2:0.1", &map, &err), false, "");
        NS_TEST_EXPECT_MSG_NE(err.find("entry 2 'x:1:2:0.1': rate 'x'"), std::string::npos, err);
        NS_TEST_EXPECT_MSG_EQ(NiccParseEcnMap("100Gbps:400:1600:2", &map, &err), false, "pmax > 1");
        NS_TEST_EXPECT_MSG_NE(err.find("pmax '2'"), std::string::npos, err);
        NS_TEST_EXPECT_MSG_EQ(NiccParseEcnMap("100Gbps:500:400:0.2", &map, &err), false, "kmin > kmax");
        NS_TEST_EXPECT_MSG_EQ(NiccParseEcnMap("100Gbps:4:5:0.1;100000000000:4:5:0.1", &map, &err),
                              false,
                              "a rate twice (unit and bare bit/s)");
        NS_TEST_ASSERT_MSG_EQ(NiccParseEcnMap("100000000000:100:400:0.2;400Gbps:400:1600:0.05", &map, &err),
                              true,
                              err);
        NS_TEST_EXPECT_MSG_EQ(map[1].bps, 400000000000ull, "");
        NS_TEST_EXPECT_MSG_EQ(map[1].red.kmaxBytes, 1600000u, "KB of 1000 B");

        NiccFabricHelper fabric;
        NiccLeafSpineTopology ls = fabric.BuildLeafSpine(2, 2, 2, DataRate("100Gbps"),
                                                         DataRate("200Gbps"), MicroSeconds(1));
        std::vector<NiccEcnMapEntry> hostOnly;
        NS_TEST_ASSERT_MSG_EQ(NiccParseEcnMap("100Gbps:100:400:0.2", &hostOnly, &err), true, err);
        NS_TEST_EXPECT_MSG_EQ(NiccApplyEcnMap(fabric.GetSwitches(), hostOnly, &err), false, "no 200G entry");
        NS_TEST_EXPECT_MSG_NE(err.find("no entry for 200000000000 bit/s"), std::string::npos, err);
        NS_TEST_EXPECT_MSG_EQ(ls.leaves[0]->GetRedParams(0).kminBytes, 400000u, "unchanged on error");
        std::vector<NiccEcnMapEntry> both;
        NS_TEST_ASSERT_MSG_EQ(NiccParseEcnMap("100Gbps:100:400:0.2;200Gbps:150:600:0.1", &both, &err),
                              true,
                              err);
        NS_TEST_ASSERT_MSG_EQ(NiccApplyEcnMap(fabric.GetSwitches(), both, &err), true, err);
        for (const auto& sw : fabric.GetSwitches())
        {
            for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
            {
                const bool fast = sw->GetPort(p)->GetDataRate().GetBitRate() == 200000000000ull;
                const NiccRedParams red = sw->GetRedParams(p);
                NS_TEST_EXPECT_MSG_EQ(red.kminBytes, fast ? 150000u : 100000u, "kmin by rate");
                NS_TEST_EXPECT_MSG_EQ(red.kmaxBytes, fast ? 600000u : 400000u, "kmax by rate");
                NS_TEST_EXPECT_MSG_EQ_TOL(red.pmax, (fast ? 0.1 : 0.2), 1e-12, "pmax by rate");
            }
        }
        Simulator::Destroy();
    }
};

class AlphaPerRateTest : public TestCase
{
  public:
    AlphaPerRateTest()
        : TestCase("PfcAlphaReferenceRate: alpha doubles per factor 2 of port rate, up to 1")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<NiccSwitchMmu> mmu = CreateObject<NiccSwitchMmu>();
        mmu->SetAttribute("BufferSize", UintegerValue(1000000));
        mmu->SetAttribute("PfcEnabled", BooleanValue(false)); // whole buffer shared
        mmu->SetAttribute("PfcAlphaReferenceRate", DataRateValue(DataRate("100Gbps")));
        const uint64_t rates[] = {25000000000ull, 100000000000ull, 200000000000ull,
                                  400000000000ull, 1600000000000ull};
        for (uint64_t bps : rates)
        {
            mmu->AddPort(0, 0, bps);
        }
        const double want[] = {0.125, 0.125, 0.25, 0.5, 1.0}; // HPCC: shift 3, 3, 2, 1, 0
        for (uint32_t p = 0; p < 5; ++p)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(mmu->GetPortAlpha(p), want[p], 1e-12, "port " << p);
            NS_TEST_EXPECT_MSG_EQ(mmu->GetThreshold(p),
                                  static_cast<uint64_t>(want[p] * 1000000),
                                  "T of port " << p);
        }
        NS_TEST_EXPECT_MSG_EQ(mmu->GetThreshold(), 125000u, "the unscaled T");
        // Admission follows the port's T: 600 x 1000 B fit under 1/2 at port 3
        // only while 0.5 * (1 MB - used) allows: q <= 0.5 (1e6 - q) -> 333 packets.
        uint32_t admitted = 0;
        while (mmu->Admit(3, 1, 1000) == NiccSwitchMmu::ADMIT_SHARED && admitted < 1000)
        {
            ++admitted;
        }
        NS_TEST_EXPECT_MSG_EQ(admitted, 333u, "closed form of q + 1000 <= 0.5 (1e6 - q)");

        Ptr<NiccSwitchMmu> flat = CreateObject<NiccSwitchMmu>();
        flat->AddPort(0, 0, 400000000000ull);
        NS_TEST_EXPECT_MSG_EQ_TOL(flat->GetPortAlpha(0), 0.125, 1e-12, "no reference: PfcAlpha");
    }
};

class ReserveAndXoffRuleTest : public TestCase
{
  public:
    ReserveAndXoffRuleTest()
        : TestCase("ReserveBytes fills first, leaves last, is taken from the buffer; "
                   "XoffAtThreshold pauses at shared == T")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<NiccSwitchMmu> mmu = CreateObject<NiccSwitchMmu>();
        mmu->SetAttribute("BufferSize", UintegerValue(100000));
        mmu->SetAttribute("PfcAlpha", DoubleValue(1.0));
        mmu->SetAttribute("ReserveBytes", UintegerValue(4096));
        mmu->AddPort(10000, 1000);
        mmu->AddPort(10000, 1000);
        NS_TEST_EXPECT_MSG_EQ(mmu->GetReserveTotal(), 8192u, "4096 x 2 ports x 1 data class");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetSharedSize(), 100000u - 20000u - 8192u, "");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetRequiredBufferBytes(), 20000u + 8192u + 2000u, "");
        for (uint32_t k = 0; k < 4; ++k)
        {
            NS_TEST_EXPECT_MSG_EQ(mmu->Admit(0, 1, 1000), NiccSwitchMmu::ADMIT_RESERVE, "packet " << k);
        }
        NS_TEST_EXPECT_MSG_EQ(mmu->GetIngressShared(0, 1), 0u, "pool untouched");
        NS_TEST_EXPECT_MSG_EQ(mmu->Admit(0, 1, 1000), NiccSwitchMmu::ADMIT_SHARED, "5th: 5000 > 4096");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetSharedUsed(), 1000u, "");
        mmu->Release(0, 1, 1000);
        NS_TEST_EXPECT_MSG_EQ(mmu->GetSharedUsed(), 0u, "the pool is released first");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetIngressReserve(0, 1), 4000u, "the reserve last");
        for (uint32_t k = 0; k < 4; ++k)
        {
            mmu->Release(0, 1, 1000);
        }
        NS_TEST_EXPECT_MSG_EQ(mmu->GetIngressReserve(0, 1), 0u, "");

        // XOFF at the threshold: 1 port, no headroom or reserve, buffer 10 000,
        // alpha 1: q + 1000 <= 10 000 - q admits 5 packets; then q = T = 5000.
        for (bool atT : {false, true})
        {
            Ptr<NiccSwitchMmu> m = CreateObject<NiccSwitchMmu>();
            m->SetAttribute("BufferSize", UintegerValue(10000));
            m->SetAttribute("PfcAlpha", DoubleValue(1.0));
            m->SetAttribute("XoffAtThreshold", BooleanValue(atT));
            m->AddPort(0, 0);
            for (uint32_t k = 0; k < 5; ++k)
            {
                NS_TEST_EXPECT_MSG_EQ(m->Admit(0, 1, 1000), NiccSwitchMmu::ADMIT_SHARED, "packet " << k);
            }
            NS_TEST_EXPECT_MSG_EQ(m->GetThreshold(0), 5000u, "");
            NS_TEST_EXPECT_MSG_EQ(m->NeedPause(0, 1), atT, "shared == T");
        }
    }
};

class NiccSwitchKnobsTestSuite : public TestSuite
{
  public:
    NiccSwitchKnobsTestSuite()
        : TestSuite("nicc-switch-knobs", UNIT)
    {
        AddTestCase(new PauseUntilResumeTest, TestCase::QUICK);
        AddTestCase(new HeadroomKnobsTest, TestCase::QUICK);
        AddTestCase(new AckClassTest, TestCase::QUICK);
        AddTestCase(new KeysReachModelTest, TestCase::QUICK);
        AddTestCase(new TierBufferTest, TestCase::QUICK);
        AddTestCase(new EcnMapTest, TestCase::QUICK);
        AddTestCase(new AlphaPerRateTest, TestCase::QUICK);
        AddTestCase(new ReserveAndXoffRuleTest, TestCase::QUICK);
    }
};

NiccSwitchKnobsTestSuite g_niccSwitchKnobsTestSuite;

} // namespace
