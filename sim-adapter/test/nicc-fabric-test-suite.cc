/*
 * nicc-fabric-test-suite.cc — tests of the nicc ns-3 fabric ("nicc-fabric";
 * the packet headers: nicc-fabric-header): MMU / PFC thresholds and hysteresis
 * in closed form; PFC pause, resume and quanta expiry on a link; a PFC
 * frame sent from the egress callback waits for the chosen frame; RED/ECN
 * marking probability (statistical); ECMP spread over source ports; INT
 * stamping along a leaf-spine path; per-packet spray; lossless N-to-1 incast
 * with PFC, and the same incast losing packets with PFC off.
 *
 *   ./nicc-sim-test-runner --suite=nicc-fabric --verbose
 */
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/nicc-module.h"
#include "ns3/node-list.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <vector>

using namespace ns3;

namespace
{

// ---------------------------------------------------------------------------
class PfcThresholdTest : public TestCase
{
  public:
    PfcThresholdTest()
        : TestCase("MMU: XOFF at the dynamic threshold, headroom bound, XON with hysteresis")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(NiccSwitchMmu::HeadroomBytes(100000000000ULL, MicroSeconds(1), 1100),
                              28300u,
                              "2 * 100 Gb/s * 1 us / 8 + 3 MTU frames");

        const uint64_t buffer = 1000000;
        const uint64_t headroom = 50000;
        const double alpha = 0.5;
        const uint64_t xonOffset = 10000;
        const uint32_t pkt = 1000;
        Ptr<NiccSwitchMmu> mmu = CreateObject<NiccSwitchMmu>();
        mmu->SetAttribute("BufferSize", UintegerValue(buffer));
        mmu->SetAttribute("PfcAlpha", DoubleValue(alpha));
        mmu->SetAttribute("XonOffset", UintegerValue(xonOffset));
        mmu->AddPort(headroom);
        mmu->AddPort(headroom);
        const uint64_t shared = buffer - 2 * headroom; // one lossless class
        NS_TEST_ASSERT_MSG_EQ(mmu->GetSharedSize(), shared, "shared = buffer - headroom");

        // Fill (port 0, class 1). Closed form: packet k (0-based) is admitted
        // to the shared pool iff (k + 1) * pkt <= alpha * (shared - k * pkt).
        uint32_t firstHeadroom = 0;
        for (uint32_t k = 0; k < 1000; ++k)
        {
            const double t = alpha * static_cast<double>(shared - uint64_t(k) * pkt);
            const bool expectShared = static_cast<double>((k + 1) * pkt) <= t;
            NS_TEST_ASSERT_MSG_EQ(mmu->NeedPause(0, 1), false, "no XOFF below threshold");
            const auto a = mmu->Admit(0, 1, pkt);
            if (!expectShared)
            {
                NS_TEST_ASSERT_MSG_EQ(a, NiccSwitchMmu::ADMIT_HEADROOM, "over T -> headroom");
                firstHeadroom = k;
                break;
            }
            NS_TEST_ASSERT_MSG_EQ(a, NiccSwitchMmu::ADMIT_SHARED, "under T -> shared");
        }
        // 1000 (k + 1) > 0.5 (900000 - 1000 k)  <=>  k > 299.33
        NS_TEST_ASSERT_MSG_EQ(firstHeadroom, 300u, "XOFF point in closed form");
        NS_TEST_ASSERT_MSG_EQ(mmu->NeedPause(0, 1), true, "XOFF due");
        NS_TEST_ASSERT_MSG_EQ(mmu->NeedPause(1, 1), false, "other ingress unaffected");
        NS_TEST_ASSERT_MSG_EQ(mmu->NeedPause(0, 0), false, "control class never paused");
        mmu->SetPaused(0, 1, true);
        NS_TEST_ASSERT_MSG_EQ(mmu->NeedPause(0, 1), false, "no second XOFF while paused");

        // Headroom takes exactly headroom / pkt packets, then drops.
        uint32_t inHeadroom = 1;
        while (mmu->Admit(0, 1, pkt) == NiccSwitchMmu::ADMIT_HEADROOM)
        {
            ++inHeadroom;
        }
        NS_TEST_ASSERT_MSG_EQ(inHeadroom, headroom / pkt, "headroom bound");
        NS_TEST_ASSERT_MSG_EQ(mmu->GetDrops(), 1u, "drop past headroom");

        // Drain. No XON while headroom holds bytes; then XON exactly when
        // shared(0,1) + XonOffset <= alpha * (shared - shared(0,1)).
        const uint64_t sharedHeld = mmu->GetIngressShared(0, 1);
        NS_TEST_ASSERT_MSG_EQ(sharedHeld, 300u * pkt, "300 packets in the shared pool");
        uint64_t releasedAtXon = 0;
        uint64_t released = 0;
        while (released < sharedHeld + headroom)
        {
            mmu->Release(0, 1, pkt);
            released += pkt;
            if (mmu->GetIngressHeadroom(0, 1) > 0)
            {
                NS_TEST_ASSERT_MSG_EQ(mmu->NeedResume(0, 1), false, "no XON with headroom in use");
            }
            if (mmu->NeedResume(0, 1))
            {
                releasedAtXon = released;
                break;
            }
        }
        const uint64_t q = mmu->GetIngressShared(0, 1);
        NS_TEST_ASSERT_MSG_EQ((q + xonOffset <= mmu->GetThreshold()), true, "XON condition holds");
        NS_TEST_ASSERT_MSG_EQ((q + pkt + xonOffset > static_cast<uint64_t>(alpha * double(shared - q - pkt))),
                              true,
                              "XON not one packet earlier (hysteresis)");
        // Closed form: q + 10000 <= 0.5 (900000 - q)  <=>  q <= 293333.
        NS_TEST_ASSERT_MSG_EQ(q, 293000u, "XON point in closed form");
        NS_TEST_ASSERT_MSG_EQ((q < 300u * pkt - pkt), true, "XON below the XOFF point");
        NS_TEST_ASSERT_MSG_GT(releasedAtXon, headroom, "headroom drained first");

        // PFC off: the same overflow is a drop, and no headroom is reserved.
        Ptr<NiccSwitchMmu> lossy = CreateObject<NiccSwitchMmu>();
        lossy->SetAttribute("BufferSize", UintegerValue(buffer));
        lossy->SetAttribute("PfcAlpha", DoubleValue(alpha));
        lossy->SetAttribute("PfcEnabled", BooleanValue(false));
        lossy->AddPort(headroom);
        NS_TEST_ASSERT_MSG_EQ(lossy->GetSharedSize(), buffer, "no headroom reserved");
        uint32_t admitted = 0;
        while (lossy->Admit(0, 1, pkt) == NiccSwitchMmu::ADMIT_SHARED)
        {
            ++admitted;
        }
        NS_TEST_ASSERT_MSG_EQ(lossy->GetDrops(), 1u, "lossy class drops at T");
        NS_TEST_ASSERT_MSG_EQ(lossy->NeedPause(0, 1), false, "no PFC when disabled");
        NS_TEST_ASSERT_MSG_EQ(admitted, 333u, "1000 (k+1) <= 0.5 (1e6 - 1000 k)");
    }
};

// ---------------------------------------------------------------------------
// Two devices on one link; counts arrivals per class at B.
class PfcLinkTest : public TestCase
{
  public:
    PfcLinkTest()
        : TestCase("PFC on a link: pause holds one class, resume and quanta expiry release it")
    {
    }

  private:
    uint32_t m_rx[2]{0, 0};

    void Rx(Ptr<NiccNetDevice>, Ptr<Packet> p)
    {
        NiccRoceHeader h;
        p->PeekHeader(h);
        ++m_rx[h.GetPriority()];
    }

    static void Push(Ptr<NiccNetDevice> d, uint8_t cls, uint32_t n)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            NiccRoceHeader h;
            h.SetPriority(cls);
            Ptr<Packet> p = Create<Packet>(1000);
            p->AddHeader(h);
            d->Enqueue(p, cls);
        }
    }

    void Check(uint32_t c0, uint32_t c1, bool paused, Ptr<NiccNetDevice> a, const char* when)
    {
        NS_TEST_EXPECT_MSG_EQ(m_rx[0], c0, when << ": class 0 arrivals");
        NS_TEST_EXPECT_MSG_EQ(m_rx[1], c1, when << ": class 1 arrivals");
        NS_TEST_EXPECT_MSG_EQ(a->IsPaused(1), paused, when << ": pause state");
    }

    void DoRun() override
    {
        NiccFabricHelper fabric;
        Ptr<Node> na = fabric.CreateHost();
        Ptr<Node> nb = fabric.CreateHost();
        auto [a, b] = fabric.Connect(na, nb, DataRate("100Gbps"), MicroSeconds(1));
        b->SetNiccReceiveCallback(MakeCallback(&PfcLinkTest::Rx, this));
        // Pause class 1 at A with maximal quanta (335 us at 100 Gb/s).
        Simulator::Schedule(NanoSeconds(0), &NiccNetDevice::SendPfc, b, 1, 0xFFFF);
        Simulator::Schedule(MicroSeconds(2), &PfcLinkTest::Push, a, 1, 5);
        Simulator::Schedule(MicroSeconds(2), &PfcLinkTest::Push, a, 0, 1);
        Simulator::Schedule(MicroSeconds(9), &PfcLinkTest::Check, this, 1, 0, true, a, "paused");
        Simulator::Schedule(MicroSeconds(10), &NiccNetDevice::SendPfc, b, 1, 0);
        Simulator::Schedule(MicroSeconds(14), &PfcLinkTest::Check, this, 1, 5, false, a, "resumed");
        // Pause of 1000 quanta = 5.12 us, no resume: expires by itself.
        Simulator::Schedule(MicroSeconds(20), &NiccNetDevice::SendPfc, b, 1, 1000);
        Simulator::Schedule(MicroSeconds(22), &PfcLinkTest::Push, a, 1, 3);
        Simulator::Schedule(MicroSeconds(25), &PfcLinkTest::Check, this, 1, 5, true, a, "paused again");
        Simulator::Schedule(MicroSeconds(30), &PfcLinkTest::Check, this, 1, 8, false, a, "expired");
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(a->GetPfcPauseReceived(), 2u, "two pauses received");
        NS_TEST_ASSERT_MSG_EQ(b->GetPfcPauseSent(), 2u, "two pauses sent");
        Simulator::Destroy();
    }
};

// ---------------------------------------------------------------------------
// A switch decides XON inside the egress callback of a departure and sends it
// on the port that is dequeuing (its ingress from the same neighbour was
// paused). The PFC frame must wait for the data frame already chosen: two
// frames may never be on one wire at once. Before the port reserved the wire
// around the callback, the nested SendPfc started the PFC frame and the data
// frame beside it, and from then on two transmit chains ran on the port: a
// 400G uplink fed its neighbour at 800G and overran the PFC headroom there.
class PfcFromEgressCallbackTest : public TestCase
{
  public:
    PfcFromEgressCallbackTest()
        : TestCase("PFC frame sent from the egress callback waits: the port never exceeds its rate")
    {
    }

  private:
    static constexpr uint32_t N_DATA = 40;
    static constexpr uint32_t N_PFC = 8; ///< one per departure, the first ones
    std::vector<int64_t> m_dataArrivalPs;
    uint32_t m_pfcArrivals{0};
    uint32_t m_departures{0};

    void Rx(Ptr<NiccNetDevice>, Ptr<Packet>)
    {
        m_dataArrivalPs.push_back(Simulator::Now().GetPicoSeconds());
    }

    void PfcRx(uint8_t, uint16_t) { ++m_pfcArrivals; }

    void Egress(Ptr<NiccNetDevice> dev, Ptr<Packet>, uint8_t, uint32_t)
    {
        if (m_departures++ < N_PFC)
        {
            dev->SendPfc(1, 0); // as NiccSwitchNode::SendResume from OnEgress
        }
    }

    void DoRun() override
    {
        NiccFabricHelper fabric;
        Ptr<Node> na = fabric.CreateHost();
        Ptr<Node> nb = fabric.CreateHost();
        auto [a, b] = fabric.Connect(na, nb, DataRate("400Gbps"), MicroSeconds(1));
        b->SetNiccReceiveCallback(MakeCallback(&PfcFromEgressCallbackTest::Rx, this));
        b->TraceConnectWithoutContext("PfcRx",
                                      MakeCallback(&PfcFromEgressCallbackTest::PfcRx, this));
        a->SetEgressCallback(MakeCallback(&PfcFromEgressCallbackTest::Egress, this));
        for (uint32_t i = 0; i < N_DATA; ++i)
        {
            NiccRoceHeader h;
            h.SetPriority(1);
            Ptr<Packet> p = Create<Packet>(1024);
            p->AddHeader(h); // 1056 B: 21 120 ps at 400 Gb/s
            a->Enqueue(p, 1);
        }
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_dataArrivalPs.size(), size_t{N_DATA}, "every data frame arrives");
        NS_TEST_ASSERT_MSG_EQ(m_pfcArrivals, N_PFC, "every PFC frame arrives");
        // 1 ns time steps: a frame's wire time is 21 or 22 ns (carry), a
        // 64-byte PFC frame 1 or 2 ns; a gap below 21 ns is an overlap.
        int64_t minGap = INT64_MAX;
        for (size_t i = 1; i < m_dataArrivalPs.size(); ++i)
        {
            minGap = std::min(minGap, m_dataArrivalPs[i] - m_dataArrivalPs[i - 1]);
        }
        NS_TEST_ASSERT_MSG_GT_OR_EQ(minGap, int64_t{21000}, "data frames one wire time apart");
        // The last frame cannot arrive before all frames' wire time + delay.
        const int64_t wirePs = int64_t{N_DATA} * 21120 + int64_t{N_PFC} * 1280;
        NS_TEST_ASSERT_MSG_GT_OR_EQ(m_dataArrivalPs.back(),
                                    wirePs + 1000000 - 1000,
                                    "the port sent at most at its line rate");
        Simulator::Destroy();
    }
};

// ---------------------------------------------------------------------------
class EcnMarkingTest : public TestCase
{
  public:
    EcnMarkingTest()
        : TestCase("RED-ECN: probability 0 at Kmin, Pmax over 2 midway, Pmax at Kmax, 1 above")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(7);
        NiccFabricHelper fabric;
        NiccIncastTopology t = fabric.BuildIncast(1, DataRate("100Gbps"), MicroSeconds(1));
        // Published defaults scaled from 25 to 100 Gb/s.
        const NiccRedParams red = t.sw->GetRedParams(0);
        NS_TEST_ASSERT_MSG_EQ(red.kminBytes, 400000u, "Kmin 100 KB x 4");
        NS_TEST_ASSERT_MSG_EQ(red.kmaxBytes, 1600000u, "Kmax 400 KB x 4");
        NS_TEST_ASSERT_MSG_EQ_TOL(red.pmax, 0.2, 1e-12, "Pmax");

        const uint32_t n = 40000;
        auto rate = [&](uint64_t q) {
            uint32_t marks = 0;
            for (uint32_t i = 0; i < n; ++i)
            {
                marks += t.sw->ShouldMarkEcn(0, q) ? 1 : 0;
            }
            return marks;
        };
        // Binomial bounds at 5 sigma: false-failure odds below 1e-6.
        auto check = [&](uint64_t q, double p, const char* what) {
            const double mean = n * p;
            const double tol = 5.0 * std::sqrt(n * p * (1.0 - p)) + 0.5;
            NS_TEST_EXPECT_MSG_EQ_TOL(double(rate(q)), mean, tol, what);
        };
        check(red.kminBytes, 0.0, "at Kmin");
        check((red.kminBytes + red.kmaxBytes) / 2, 0.1, "midway = Pmax / 2");
        check(red.kminBytes + (red.kmaxBytes - red.kminBytes) / 4, 0.05, "quarter = Pmax / 4");
        check(red.kmaxBytes, 0.2, "at Kmax = Pmax");
        check(red.kmaxBytes + 1, 1.0, "above Kmax");

        // Explicit override through attributes.
        NiccFabricHelper f2;
        f2.SetSwitchAttribute("EcnKmin", UintegerValue(5000));
        f2.SetSwitchAttribute("EcnKmax", UintegerValue(200000));
        f2.SetSwitchAttribute("EcnPmax", DoubleValue(0.01));
        NiccIncastTopology t2 = f2.BuildIncast(1, DataRate("25Gbps"), MicroSeconds(1));
        const NiccRedParams r2 = t2.sw->GetRedParams(0);
        NS_TEST_ASSERT_MSG_EQ(r2.kminBytes, 5000u, "Kmin override");
        NS_TEST_ASSERT_MSG_EQ(r2.kmaxBytes, 200000u, "Kmax override");
        NS_TEST_ASSERT_MSG_EQ_TOL(r2.pmax, 0.01, 1e-12, "Pmax override");
        Simulator::Destroy();
    }
};

// ---------------------------------------------------------------------------
class EcmpSpreadTest : public TestCase
{
  public:
    EcmpSpreadTest()
        : TestCase("ECMP: distinct UDP source ports spread evenly over equal-cost next hops")
    {
    }

  private:
    void DoRun() override
    {
        NiccFabricHelper fabric;
        NiccLeafSpineTopology t = fabric.BuildLeafSpine(2,
                                                        4,
                                                        1,
                                                        DataRate("100Gbps"),
                                                        DataRate("100Gbps"),
                                                        MicroSeconds(1));
        Ptr<NiccSwitchNode> leaf = t.leaves[0];
        const uint32_t dst = t.hosts[1]->GetId();
        const std::vector<uint32_t>& hops = leaf->GetRoute(dst);
        NS_TEST_ASSERT_MSG_EQ(hops.size(), 4u, "four spines, four next hops");
        NS_TEST_ASSERT_MSG_EQ(leaf->GetRoute(t.hosts[0]->GetId()).size(), 1u, "local host: one");
        NS_TEST_ASSERT_MSG_EQ(t.spines[0]->GetRoute(dst).size(), 1u, "spine: one down link");

        const uint32_t n = 8000;
        std::vector<uint32_t> count(leaf->GetNPorts(), 0);
        NiccRoceHeader h;
        h.SetSrc(t.hosts[0]->GetId());
        h.SetDst(dst);
        for (uint32_t i = 0; i < n; ++i)
        {
            h.SetSport(static_cast<uint16_t>(0xC000 + i));
            ++count[leaf->SelectEgressPort(h)];
        }
        double chi2 = 0;
        uint32_t lo = n;
        uint32_t hi = 0;
        for (uint32_t port : hops)
        {
            const double e = double(n) / hops.size();
            chi2 += (count[port] - e) * (count[port] - e) / e;
            lo = std::min(lo, count[port]);
            hi = std::max(hi, count[port]);
        }
        // 3 degrees of freedom: P(chi2 > 16.27) = 0.001 for a uniform hash.
        NS_TEST_EXPECT_MSG_LT(chi2, 16.27, "chi-square of the spread");
        NS_TEST_EXPECT_MSG_LT(double(hi) / lo, 1.15, "max/min load");

        // Deterministic per 5-tuple; a different seed maps differently.
        h.SetSport(0xC123);
        const uint32_t first = leaf->SelectEgressPort(h);
        for (int i = 0; i < 10; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(leaf->SelectEgressPort(h), first, "same tuple, same port");
        }
        const uint64_t h1 = leaf->EcmpHash(h);
        leaf->SetAttribute("EcmpSeed", UintegerValue(12345));
        NS_TEST_EXPECT_MSG_NE(leaf->EcmpHash(h), h1, "seed changes the hash");
        Simulator::Destroy();
    }
};

// ---------------------------------------------------------------------------
// Traffic across a leaf-spine: ECMP (many sports) or spray (one sport) uses
// every uplink, and INT carries one record per switch.
class LeafSpineTrafficTest : public TestCase
{
  public:
    LeafSpineTrafficTest(bool spray)
        : TestCase(spray ? "Spray: one flow's packets use every uplink; INT has 3 hops"
                         : "ECMP: many flows use every uplink; INT has 3 hops"),
          m_spray(spray)
    {
    }

  private:
    bool m_spray;

    void DoRun() override
    {
        NiccFabricHelper fabric;
        fabric.SetEndpointAttribute("IntEnabled", BooleanValue(true));
        if (m_spray)
        {
            fabric.SetSwitchAttribute("ForwardingMode", EnumValue(NiccSwitchNode::SPRAY));
        }
        NiccLeafSpineTopology t = fabric.BuildLeafSpine(2,
                                                        4,
                                                        1,
                                                        DataRate("100Gbps"),
                                                        DataRate("100Gbps"),
                                                        MicroSeconds(1));
        Ptr<NiccTestEndpoint> tx = fabric.InstallTestEndpoint(t.hosts[0]);
        Ptr<NiccTestEndpoint> rx = fabric.InstallTestEndpoint(t.hosts[1]);
        const uint32_t flows = m_spray ? 1 : 64;
        for (uint32_t f = 0; f < flows; ++f)
        {
            tx->AddFlow(t.hosts[1]->GetId(),
                        256000 / flows,
                        DataRate(0),
                        static_cast<uint16_t>(0xC000 + 7 * f),
                        MicroSeconds(1));
        }
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(rx->GetRxBytes(), tx->GetTxBytes(), "all bytes delivered");
        NS_TEST_ASSERT_MSG_EQ(tx->GetTxBytes(), 256000u, "all bytes sent");
        for (uint32_t s = 0; s < 4; ++s)
        {
            NS_TEST_EXPECT_MSG_GT(t.uplinks[0][s]->GetTxBytes(), 20000u, "uplink " << s << " used");
        }
        NS_TEST_ASSERT_MSG_EQ(rx->HasIntStack(), true, "INT received");
        const nicc::IntStack& st = rx->GetLastIntStack();
        NS_TEST_ASSERT_MSG_EQ(+st.hop_count, 3, "leaf, spine, leaf");
        for (uint32_t i = 0; i < 3; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(st.hops[i].rate_code(), 3u, "100 Gb/s code");
        }
        // Each hop stamps ~1 us (+ tx time) after the previous one.
        const uint32_t d1 = (st.hops[1].ts_ns() - st.hops[0].ts_ns()) & nicc::kIntTsMask;
        NS_TEST_EXPECT_MSG_EQ((d1 >= 1000 && d1 < 1200), true, "hop-to-hop time " << d1);
        NS_TEST_EXPECT_MSG_GT(st.hops[2].tx_units(), 0u, "txBytes counter stamped");
        Simulator::Destroy();
    }
};

// ---------------------------------------------------------------------------
// N-to-1 incast at line rate with test endpoints.
class IncastTest : public TestCase
{
  public:
    IncastTest(bool pfc)
        : TestCase(pfc ? "Incast 8-to-1 with PFC: zero drops, every byte delivered, pauses sent and honoured"
                       : "Incast 8-to-1 without PFC and a small buffer: drops"),
          m_pfc(pfc)
    {
    }

  private:
    bool m_pfc;

    void DoRun() override
    {
        const uint32_t senders = 8;
        const uint64_t bytesEach = 400000;
        NiccFabricHelper fabric;
        fabric.SetMmuAttribute("BufferSize", UintegerValue(1000000));
        fabric.SetMmuAttribute("PfcEnabled", BooleanValue(m_pfc));
        fabric.SetEndpointAttribute("IntEnabled", BooleanValue(true));
        NiccIncastTopology t = fabric.BuildIncast(senders, DataRate("100Gbps"), MicroSeconds(1));
        std::vector<Ptr<NiccTestEndpoint>> tx;
        for (uint32_t i = 0; i < senders; ++i)
        {
            tx.push_back(fabric.InstallTestEndpoint(t.senders[i]));
            tx.back()->AddFlow(t.receiver->GetId(),
                               bytesEach,
                               DataRate(0),
                               static_cast<uint16_t>(0xC000 + i),
                               MicroSeconds(1));
        }
        Ptr<NiccTestEndpoint> rx = fabric.InstallTestEndpoint(t.receiver);
        Simulator::Run();
        uint64_t sent = 0;
        for (const auto& e : tx)
        {
            sent += e->GetTxBytes();
        }
        NS_TEST_ASSERT_MSG_EQ(sent, senders * bytesEach, "every sender finished");
        if (m_pfc)
        {
            NS_TEST_EXPECT_MSG_EQ(t.sw->GetDrops(), 0u, "no drops");
            NS_TEST_EXPECT_MSG_EQ(rx->GetRxBytes(), sent, "bytes delivered == bytes sent");
            NS_TEST_EXPECT_MSG_GT(t.sw->GetPfcPauseSent(), 0u, "pause frames sent");
            NS_TEST_EXPECT_MSG_GT(t.sw->GetPfcResumeSent(), 0u, "XON sent");
            NS_TEST_EXPECT_MSG_EQ(t.sw->GetMmu()->GetPausedList().size(), 0u, "all resumed at the end");
            uint64_t pausesSeen = 0;
            for (const auto& d : t.senderDevices)
            {
                pausesSeen += d->GetPfcPauseReceived();
            }
            NS_TEST_EXPECT_MSG_EQ(pausesSeen, t.sw->GetPfcPauseSent(), "senders honoured them");
            NS_TEST_EXPECT_MSG_LT(t.sw->GetMaxBufferUsed(), 1000001u, "within the buffer");
            NS_TEST_EXPECT_MSG_GT(t.sw->GetMaxQueueBytes(), 100000u, "a queue built up");
            NS_TEST_EXPECT_MSG_EQ(+rx->GetLastIntStack().hop_count, 1, "one INT hop");
            // Egress line rate: 8 x 400 KB (plus headers) at 100 Gb/s.
            const double ideal = sent * (1.0 + 42.0 / 1024.0) * 8 / 100e9;
            NS_TEST_EXPECT_MSG_LT(rx->GetLastRxTime().GetSeconds(), ideal * 1.05 + 4e-6,
                                  "egress kept busy");
        }
        else
        {
            NS_TEST_EXPECT_MSG_GT(t.sw->GetDrops(), 0u, "drops without PFC");
            NS_TEST_EXPECT_MSG_LT(rx->GetRxBytes(), sent, "bytes lost");
            NS_TEST_EXPECT_MSG_EQ(t.sw->GetPfcPauseSent(), 0u, "no pause frames");
        }
        Simulator::Destroy();
    }
};

// ---------------------------------------------------------------------------
class NiccFabricTestSuite : public TestSuite
{
  public:
    NiccFabricTestSuite()
        : TestSuite("nicc-fabric", UNIT)
    {
        AddTestCase(new PfcThresholdTest, TestCase::QUICK);
        AddTestCase(new PfcLinkTest, TestCase::QUICK);
        AddTestCase(new PfcFromEgressCallbackTest, TestCase::QUICK);
        AddTestCase(new EcnMarkingTest, TestCase::QUICK);
        AddTestCase(new EcmpSpreadTest, TestCase::QUICK);
        AddTestCase(new LeafSpineTrafficTest(false), TestCase::QUICK);
        AddTestCase(new LeafSpineTrafficTest(true), TestCase::QUICK);
        AddTestCase(new IncastTest(true), TestCase::QUICK);
        AddTestCase(new IncastTest(false), TestCase::QUICK);
    }
};

NiccFabricTestSuite g_niccFabricTestSuite; //!< static registration

} // namespace
