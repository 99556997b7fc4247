/*
 * nicc-pfc-storm-test-suite.cc — PFC storm, PFC watchdog and PFC deadlock
 * detection ("nicc-pfc-storm"):
 *   - a storm without a watchdog spreads: switch ports beyond the stuck
 *     host's own link and other hosts are paused, a victim flow to another
 *     host stalls;
 *   - watchdog drop: the victim completes, the spread is gone after
 *     detection, the storm ends and is restored, and every payload byte sent
 *     is delivered or declared dropped by the watchdog;
 *   - watchdog forward: no drop, every byte delivered once the storm ends;
 *   - a ring of four switches with routes around it deadlocks and the
 *     detector names the cycle; an incast with pauses reports none;
 *   - the scenario keys: a storm in a leaf-spine run reaches summary
 *     figures; bad keys are refused naming the key.
 *
 *   ./nicc-sim-test-runner --suite=nicc-pfc-storm --verbose
 */
#include "nicc-test-util.h"

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/enum.h"
#include "ns3/nicc-module.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <string>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint64_t CULPRIT_BYTES = 2000000;
constexpr uint64_t VICTIM_BYTES = 1000000;

/// 2 leaves x 1 spine x 3 hosts, 100 Gb/s, 1 us links, 1 MB buffers.
/// Host 0 (leaf0) storms from 50 us; host 3 -> host 0 (the culprit flow) and
/// host 4 -> host 1 (the victim) share leaf1 -> spine -> leaf0.
struct StormRig
{
    NiccLeafSpineTopology t;
    std::vector<Ptr<NiccTestEndpoint>> ep;
    Ptr<NiccPfcStorm> storm;
    NiccPfcSpreadSampler spread;
    uint64_t wdDroppedPayload{0};
    uint64_t rxAtStorm{0};

    void AtStorm()
    {
        rxAtStorm = ep[0]->GetRxBytes();
    }

    void OnDrop(Ptr<const Packet> p, uint32_t, uint8_t reason)
    {
        if (reason == NiccSwitchNode::DROP_PFC_WATCHDOG)
        {
            NiccRoceHeader h;
            p->PeekHeader(h);
            wdDroppedPayload += h.GetPayloadSize();
        }
    }

    /// action: -1 = no watchdog; end negative = storm never ends.
    void Build(int action, Time end, Time stop)
    {
        NiccFabricHelper fabric;
        fabric.SetMmuAttribute("BufferSize", UintegerValue(1000000));
        if (action >= 0)
        {
            fabric.SetSwitchAttribute("PfcWatchdog", BooleanValue(true));
            fabric.SetSwitchAttribute("PfcWatchdogAction", EnumValue(action));
        }
        t = fabric.BuildLeafSpine(2, 1, 3, DataRate("100Gbps"), DataRate("100Gbps"),
                                  MicroSeconds(1));
        for (const Ptr<Node>& h : t.hosts)
        {
            ep.push_back(fabric.InstallTestEndpoint(h));
        }
        for (auto* list : {&t.leaves, &t.spines})
        {
            for (const Ptr<NiccSwitchNode>& sw : *list)
            {
                sw->TraceConnectWithoutContext("Drop", MakeCallback(&StormRig::OnDrop, this));
            }
        }
        ep[3]->AddFlow(t.hosts[0]->GetId(), CULPRIT_BYTES, DataRate(0), 0xC001, MicroSeconds(0));
        ep[4]->AddFlow(t.hosts[1]->GetId(), VICTIM_BYTES, DataRate(0), 0xC002, MicroSeconds(20));
        storm = CreateObject<NiccPfcStorm>();
        storm->Install(t.hostDevices[0], MicroSeconds(50), end);
        Simulator::Schedule(MicroSeconds(50), &StormRig::AtStorm, this);
        std::vector<Ptr<NiccSwitchNode>> sws = t.spines;
        sws.insert(sws.end(), t.leaves.begin(), t.leaves.end());
        spread.Start(sws, t.hostDevices, MicroSeconds(10), MicroSeconds(10), stop);
        Simulator::Stop(stop);
        Simulator::Run();
    }

    uint64_t TxTotal() const
    {
        uint64_t s = 0;
        for (const auto& e : ep)
        {
            s += e->GetTxBytes();
        }
        return s;
    }
    uint64_t RxTotal() const
    {
        uint64_t s = 0;
        for (const auto& e : ep)
        {
            s += e->GetRxBytes();
        }
        return s;
    }
    uint32_t PeakBefore(Time t0) const
    {
        uint32_t m = 0;
        for (const auto& s : spread.GetSamples())
        {
            m = s.at < t0 && s.pausedSwitchPorts > m ? s.pausedSwitchPorts : m;
        }
        return m;
    }
};

class StormSpreadsTest : public TestCase
{
  public:
    StormSpreadsTest()
        : TestCase("storm without watchdog: pauses spread past the stuck host's link, victim stalls")
    {
    }

  private:
    void DoRun() override
    {
        StormRig r;
        r.Build(-1, Time(-1), MicroSeconds(1500));
        NS_TEST_EXPECT_MSG_GT(r.storm->GetXoffSent(), 5u, "the storm refreshes its XOFF");
        NS_TEST_EXPECT_MSG_GT(r.spread.GetPeakSwitchPorts(), 1u,
                              "switch ports paused beyond the stuck host's own link");
        NS_TEST_EXPECT_MSG_GT(r.spread.GetPeakHosts(), 0u, "senders on the other leaf paused");
        const NiccPfcSpreadSample& last = r.spread.GetSamples().back();
        NS_TEST_EXPECT_MSG_GT(last.pausedSwitchPorts, 1u, "still spread at the end");
        NS_TEST_EXPECT_MSG_LT(r.ep[1]->GetRxBytes(), VICTIM_BYTES,
                              "the victim flow to another host is stalled");
        NS_TEST_EXPECT_MSG_EQ(r.ep[0]->GetRxBytes(), r.rxAtStorm,
                              "nothing reaches the stalled NIC's stack after the storm began");
        NS_TEST_EXPECT_MSG_GT(r.storm->GetHeldBytes(), 0u, "in-flight frames held in its RX buffer");
        // Lossless: nothing dropped, the stuck bytes are queued or held.
        NS_TEST_EXPECT_MSG_EQ(r.wdDroppedPayload, 0u, "no watchdog, no drop");
        for (const auto& sw : r.t.leaves)
        {
            NS_TEST_EXPECT_MSG_EQ(sw->GetDrops(), 0u, "lossless fabric");
        }
        Simulator::Destroy();
    }
};

class WatchdogDropTest : public TestCase
{
  public:
    WatchdogDropTest()
        : TestCase("watchdog drop: victim completes, spread stops, restored at storm end, "
                   "sent == delivered + declared lost")
    {
    }

  private:
    void DoRun() override
    {
        StormRig r;
        r.Build(NiccPfcWatchdog::DROP, MicroSeconds(1000), MicroSeconds(3000));
        const NiccPfcWatchdog& wd = r.t.leaves[0]->GetPfcWatchdog();
        NS_TEST_ASSERT_MSG_EQ(wd.GetStormsDetected(), 1u, "leaf0 detects one storm");
        if (wd.GetActions().size() != 2)
        {
            NS_TEST_ASSERT_MSG_EQ(wd.GetActions().size(), 2u, "two actions recorded");
            Simulator::Destroy();
            return;
        }
        NS_TEST_EXPECT_MSG_EQ(wd.GetRestorations(), 1u, "and restores it after the storm ends");
        const auto& acts = wd.GetActions();
        NS_TEST_ASSERT_MSG_EQ(acts.size(), 2u, "two actions recorded");
        const Time detectAt = acts[0].at;
        // Stuck from 50 us; first seen at the 60 us poll, 200 us later stormed.
        NS_TEST_EXPECT_MSG_GT_OR_EQ(detectAt, MicroSeconds(250), "not before detection time");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(detectAt, MicroSeconds(300), "within detection + two polls");
        NS_TEST_EXPECT_MSG_EQ(acts[0].port, 0u, "the port facing the stuck host");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(acts[1].at, MicroSeconds(1200), "restored >= restore after end");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(acts[1].at, MicroSeconds(1240), "within one poll");
        NS_TEST_EXPECT_MSG_EQ(wd.GetStormTime(), acts[1].at - acts[0].at, "time in storm state");
        NS_TEST_EXPECT_MSG_EQ(r.t.spines[0]->GetPfcWatchdog().GetStormsDetected(), 0u,
                              "no false storm upstream");
        NS_TEST_EXPECT_MSG_EQ(r.ep[1]->GetRxBytes(), VICTIM_BYTES, "the victim flow completes");
        NS_TEST_EXPECT_MSG_GT(r.PeakBefore(acts[0].at), 1u, "spread before detection");
        uint32_t after = 0;
        for (const auto& s : r.spread.GetSamples())
        {
            if (s.at >= acts[0].at + MicroSeconds(20) && s.at < MicroSeconds(1000))
            {
                after = s.pausedSwitchPorts > after ? s.pausedSwitchPorts : after;
            }
        }
        NS_TEST_EXPECT_MSG_EQ(after, 0u, "no switch port paused once the watchdog acts");
        NS_TEST_EXPECT_MSG_GT(wd.GetDroppedPackets(), 0u, "traffic to the stuck host dropped");
        NS_TEST_EXPECT_MSG_GT(r.wdDroppedPayload, 0u, "declared lost");
        NS_TEST_EXPECT_MSG_EQ(r.TxTotal(), CULPRIT_BYTES + VICTIM_BYTES, "everything sent");
        NS_TEST_EXPECT_MSG_EQ(r.RxTotal() + r.wdDroppedPayload, r.TxTotal(),
                              "delivered + declared lost == sent");
        NS_TEST_EXPECT_MSG_EQ(r.storm->GetHeldBytes(), 0u, "held frames released at the end");
        Simulator::Destroy();
    }
};

class WatchdogForwardTest : public TestCase
{
  public:
    WatchdogForwardTest()
        : TestCase("watchdog forward: pauses ignored, no drop, all delivered after the storm")
    {
    }

  private:
    void DoRun() override
    {
        StormRig r;
        r.Build(NiccPfcWatchdog::FORWARD, MicroSeconds(1000), MicroSeconds(3000));
        const NiccPfcWatchdog& wd = r.t.leaves[0]->GetPfcWatchdog();
        NS_TEST_EXPECT_MSG_EQ(wd.GetStormsDetected(), 1u, "one storm");
        NS_TEST_EXPECT_MSG_EQ(wd.GetRestorations(), 1u, "restored");
        NS_TEST_EXPECT_MSG_EQ(wd.GetDroppedPackets(), 0u, "forward drops nothing");
        NS_TEST_EXPECT_MSG_EQ(r.ep[1]->GetRxBytes(), VICTIM_BYTES, "the victim completes");
        NS_TEST_EXPECT_MSG_EQ(r.ep[0]->GetRxBytes(), CULPRIT_BYTES,
                              "the stuck host gets everything once it drains");
        NS_TEST_EXPECT_MSG_GT(r.storm->GetPeakHeldBytes(), 100000u,
                              "forwarded into the stalled RX buffer");
        NS_TEST_EXPECT_MSG_EQ(r.RxTotal(), r.TxTotal(), "delivered == sent");
        Simulator::Destroy();
    }
};

/// Four switches in a ring, one host each; host i sends to host i+3 (mod 4)
/// clockwise over three ring links, so every ring link carries three flows
/// and each ring ingress waits on the next ring egress.
class RingDeadlockTest : public TestCase
{
  public:
    RingDeadlockTest()
        : TestCase("ring with routes around it: PFC deadlock detected, cycle named")
    {
    }

  private:
    void DoRun() override
    {
        NiccFabricHelper fabric;
        fabric.SetMmuAttribute("BufferSize", UintegerValue(300000));
        std::vector<Ptr<NiccSwitchNode>> sw;
        std::vector<Ptr<Node>> host;
        for (uint32_t i = 0; i < 4; ++i)
        {
            sw.push_back(fabric.CreateSwitch());
            host.push_back(fabric.CreateHost());
            fabric.Connect(host[i], sw[i], DataRate("100Gbps"), MicroSeconds(1));  // port 0
        }
        std::vector<uint32_t> cw(4); // sw[i]'s port towards sw[i+1]
        for (uint32_t i = 0; i < 4; ++i)
        {
            auto devs = fabric.Connect(sw[i], sw[(i + 1) % 4], DataRate("100Gbps"), MicroSeconds(1));
            for (uint32_t p = 0; p < sw[i]->GetNPorts(); ++p)
            {
                cw[i] = sw[i]->GetPort(p) == devs.first ? p : cw[i];
            }
        }
        // Static clockwise routes: own host on port 0, everyone else clockwise.
        for (uint32_t i = 0; i < 4; ++i)
        {
            sw[i]->ClearRoutes();
            for (uint32_t j = 0; j < 4; ++j)
            {
                sw[i]->AddRoute(host[j]->GetId(), i == j ? 0 : cw[i]);
            }
        }
        std::vector<Ptr<NiccTestEndpoint>> ep;
        for (uint32_t i = 0; i < 4; ++i)
        {
            ep.push_back(fabric.InstallTestEndpoint(host[i]));
        }
        for (uint32_t i = 0; i < 4; ++i)
        {
            ep[i]->AddFlow(host[(i + 3) % 4]->GetId(), 20000000, DataRate(0), 0xC000 + i,
                           MicroSeconds(0));
            ep[i]->AddFlow(host[(i + 2) % 4]->GetId(), 20000000, DataRate(0), 0xD000 + i,
                           MicroSeconds(0));
        }
        NiccPfcDeadlockDetector d;
        d.Start(sw, {"s0", "s1", "s2", "s3"}, MicroSeconds(50), MicroSeconds(2000));
        uint64_t rxAt1ms = 0;
        Simulator::Schedule(MicroSeconds(1000), [&]() {
            for (const auto& e : ep)
            {
                rxAt1ms += e->GetRxBytes();
            }
        });
        Simulator::Stop(MicroSeconds(2000));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_GT(d.GetDetections(), 0u, "deadlock detected");
        const NiccPfcDeadlock& f = d.GetFirst();
        if (f.ports.empty())
        {
            Simulator::Destroy();
            return;
        }
        NS_TEST_EXPECT_MSG_EQ(f.ports.size(), 4u, "a cycle through the four ring egresses");
        for (uint32_t k = 0; k < f.ports.size(); ++k)
        {
            const std::string& p = f.ports[k];
            const uint32_t s = static_cast<uint32_t>(p[1] - '0');
            NS_TEST_EXPECT_MSG_EQ(p, "s" + std::to_string(s) + ":" + std::to_string(cw[s]),
                                  "a clockwise ring egress");
            const std::string& next = f.ports[(k + 1) % f.ports.size()];
            NS_TEST_EXPECT_MSG_EQ(static_cast<uint32_t>(next[1] - '0'), (s + 1) % 4,
                                  "each waits on the next switch clockwise");
        }
        // A real deadlock: nothing moves at the end.
        uint64_t rx1 = 0;
        for (const auto& e : ep)
        {
            rx1 += e->GetRxBytes();
        }
        uint64_t total = 0;
        for (const auto& e : ep)
        {
            total += e->GetTxBytes();
        }
        NS_TEST_EXPECT_MSG_LT(rx1, total, "traffic stuck in the fabric");
        NS_TEST_EXPECT_MSG_EQ(rx1, rxAt1ms, "nothing delivered between 1 ms and 2 ms");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(f.at, MicroSeconds(500), "found early");
        Simulator::Destroy();
    }
};

class IncastNoDeadlockTest : public TestCase
{
  public:
    IncastNoDeadlockTest()
        : TestCase("incast with PFC pauses: no deadlock reported")
    {
    }

  private:
    void DoRun() override
    {
        NiccFabricHelper fabric;
        fabric.SetMmuAttribute("BufferSize", UintegerValue(500000));
        NiccLeafSpineTopology t =
            fabric.BuildLeafSpine(2, 2, 4, DataRate("100Gbps"), DataRate("100Gbps"), MicroSeconds(1));
        std::vector<Ptr<NiccTestEndpoint>> ep;
        for (const Ptr<Node>& h : t.hosts)
        {
            ep.push_back(fabric.InstallTestEndpoint(h));
        }
        for (uint32_t i = 1; i < t.hosts.size(); ++i)
        {
            ep[i]->AddFlow(t.hosts[0]->GetId(), 500000, DataRate(0), 0xC000 + i, MicroSeconds(0));
        }
        std::vector<Ptr<NiccSwitchNode>> sws = t.spines;
        sws.insert(sws.end(), t.leaves.begin(), t.leaves.end());
        NiccPfcDeadlockDetector d;
        d.Start(sws, {}, MicroSeconds(5), MicroSeconds(2000));
        Simulator::Stop(MicroSeconds(2000));
        Simulator::Run();
        uint64_t pauses = 0;
        for (const auto& s : sws)
        {
            pauses += s->GetPfcPauseSent();
        }
        NS_TEST_EXPECT_MSG_GT(pauses, 0u, "the incast paused");
        NS_TEST_EXPECT_MSG_GT(d.GetChecks(), 100u, "checked throughout");
        NS_TEST_EXPECT_MSG_EQ(d.GetDetections(), 0u, "no cycle in an up-down fabric");
        NS_TEST_EXPECT_MSG_EQ(ep[0]->GetRxBytes(), 500000u * 7, "the incast completes");
        Simulator::Destroy();
    }
};

/// The keys end to end: a leaf-spine permutation with host0 stalled from
/// 20 us to 800 us, with and without the watchdog (drop).
class ScenarioStormTest : public TestCase
{
  public:
    explicit ScenarioStormTest(bool watchdog)
        : TestCase(std::string("scenario keys: storm ") +
                   (watchdog ? "with watchdog drop: detected, restored, sent == delivered + dropped"
                             : "without watchdog: spread reported, no byte lost")),
          m_watchdog(watchdog)
    {
    }

  private:
    bool m_watchdog;

    void DoRun() override
    {
        NiccScenarioResult r;
        std::string err;
        const bool ok = NiccRunWith("leaf-spine",
                                    {"leaves=2", "spines=1", "hosts_per_leaf=3", "poisson_load=0",
                                     "permutation_bytes=2000000", "buffer_bytes=1000000", "stop_ms=5",
                                     "pfc_storm=host0@20,800",
                                     std::string("pfc_watchdog=") + (m_watchdog ? "true" : "false"),
                                     "pfc_watchdog_action=drop", "pfc_deadlock_check_us=20"},
                                    &r, &err);
        NS_TEST_ASSERT_MSG_EQ(ok, true, err);
        const NiccPfcRunResult& p = r.pfcStorm;
        NS_TEST_ASSERT_MSG_EQ(p.on, true, "reported");
        NS_TEST_ASSERT_MSG_EQ(p.storms.size(), 1u, "one storm");
        if (p.storms.size() != 1)
        {
            return;
        }
        NS_TEST_EXPECT_MSG_GT(p.storms[0].xoffSent, 0u, "XOFF sent");
        NS_TEST_EXPECT_MSG_EQ(p.storms[0].heldBytesAtEnd, 0u, "drained after the storm");
        NS_TEST_EXPECT_MSG_EQ(r.Completed(), r.flows.size(), "every flow completes");
        NS_TEST_EXPECT_MSG_GT(p.sampleUs.size(), 10u, "spread sampled");
        NS_TEST_EXPECT_MSG_GT(p.peakPorts, 0u, "the stuck host's switch port paused");
        NS_TEST_EXPECT_MSG_EQ(p.deadlockDetections, 0u, "no deadlock in a leaf-spine");
        NS_TEST_EXPECT_MSG_GT(p.deadlockChecks, 10u, "checked");
        if (m_watchdog)
        {
            NS_TEST_EXPECT_MSG_EQ(p.stormsDetected, 1u, "the stuck host's port is stormed");
            NS_TEST_EXPECT_MSG_EQ(p.restorations, 1u, "and restored");
            NS_TEST_ASSERT_MSG_EQ(p.actions.size(), 2u, "two actions");
            if (p.actions.size() != 2)
            {
                return;
            }
            NS_TEST_EXPECT_MSG_EQ(p.actions[0].port, "leaf0:0", "leaf0's port to host0");
            NS_TEST_EXPECT_MSG_EQ(p.actions[0].peer, "host0", "facing the stuck host");
            NS_TEST_EXPECT_MSG_GT(p.droppedPackets, 0u, "traffic to host0 dropped");
            NS_TEST_EXPECT_MSG_EQ(r.drops, p.droppedPackets, "every drop is the watchdog's");
        }
        else
        {
            NS_TEST_EXPECT_MSG_EQ(p.stormsDetected, 0u, "no watchdog");
            NS_TEST_EXPECT_MSG_EQ(r.drops, 0u, "lossless: no byte lost");
            NS_TEST_EXPECT_MSG_GT(p.peakPorts, 1u, "pauses spread beyond host0's link");
        }
        // Accounting: every DATA packet sent arrived at a NIC or was declared
        // dropped by the watchdog (nothing left in flight: all flows done).
        NS_TEST_EXPECT_MSG_EQ(r.dataPackets, r.rxDataPackets + p.droppedPackets,
                              "sent == delivered + declared lost");
    }
};

/// Regression: a storm without watchdog pauses the spines' ingress from the
/// leaves on and off for a millisecond; the frame whose arrival crosses the
/// threshold sits in the headroom when XOFF is decided, so a headroom of
/// 2 x rate x delay + 2 frames ran over by a few hundred bytes (6 drops).
class StormHeadroomTest : public TestCase
{
  public:
    StormHeadroomTest()
        : TestCase("storm without watchdog on a 2x2 leaf-spine: no headroom overflow")
    {
    }

  private:
    void DoRun() override
    {
        NiccScenarioResult r;
        std::string err;
        const bool ok = NiccRunWith("leaf-spine",
                                    {"leaves=2", "spines=2", "hosts_per_leaf=4",
                                     "poisson_load=0.5", "stop_ms=3", "traffic_stop_ms=2.5",
                                     "pfc_storm=host0@200,1500", "pfc_watchdog=false"},
                                    &r, &err);
        NS_TEST_ASSERT_MSG_EQ(ok, true, err);
        NS_TEST_EXPECT_MSG_GT(r.pfcStorm.peakPorts, 1u, "pauses spread beyond host0's link");
        NS_TEST_EXPECT_MSG_EQ(r.dropsHeadroomOverflow, 0u, "no headroom overflow");
        NS_TEST_EXPECT_MSG_EQ(r.drops, 0u, "lossless: no packet lost");
    }
};

/// Bad values are refused naming the key.
class ScenarioBadKeysTest : public TestCase
{
  public:
    ScenarioBadKeysTest()
        : TestCase("bad PFC storm, watchdog and deadlock keys are refused naming the key")
    {
    }

  private:
    void Refused(const std::string& scenario, const std::vector<std::string>& sets, const std::string& key)
    {
        NiccScenarioResult r;
        std::string err;
        std::vector<std::string> all = {"leaves=2", "spines=1", "hosts_per_leaf=2", "stop_ms=0.1"};
        all.insert(all.end(), sets.begin(), sets.end());
        const bool ok = NiccRunWith(scenario, scenario == "incast" ? sets : all, &r, &err);
        NS_TEST_EXPECT_MSG_EQ(ok, false, sets.back() << " refused");
        NS_TEST_EXPECT_MSG_NE(err.find("'" + key + "'"), std::string::npos, "names " << key << ": " << err);
    }

    void DoRun() override
    {
        Refused("leaf-spine", {"pfc_storm=host0"}, "pfc_storm");
        Refused("leaf-spine", {"pfc_storm=host0@abc"}, "pfc_storm");
        Refused("leaf-spine", {"pfc_storm=host0@100,50"}, "pfc_storm");
        Refused("leaf-spine", {"pfc_storm=host9@10"}, "pfc_storm");
        Refused("leaf-spine", {"pfc_storm=7@10"}, "pfc_storm");
        Refused("leaf-spine", {"pfc_watchdog_action=reboot"}, "pfc_watchdog_action");
        Refused("leaf-spine", {"pfc_watchdog_detect_us=-1"}, "pfc_watchdog_detect_us");
        Refused("leaf-spine", {"pfc_deadlock_check_us=-5"}, "pfc_deadlock_check_us");
        Refused("incast", {"pfc_storm=0@10"}, "pfc_storm");
    }
};

/// The TOML form: the keys grouped in a table; every key reaches the run.
class ScenarioTomlTest : public TestCase
{
  public:
    ScenarioTomlTest()
        : TestCase("TOML table form: storm, watchdog forward and timings from a [faults] table")
    {
    }

  private:
    void DoRun() override
    {
        const std::string text = "base = \"leaf-spine\"\n"
                                 "leaves = 2\nspines = 1\nhosts_per_leaf = 3\npoisson_load = 0\n"
                                 "permutation_bytes = 10000000\nbuffer_bytes = 1000000\nstop_ms = 5\n"
                                 "[faults]\n"
                                 "pfc_storm = \"host0@20,300\"\n"
                                 "pfc_watchdog = true\n"
                                 "pfc_watchdog_action = \"forward\"\n"
                                 "pfc_watchdog_detect_us = 100\n"
                                 "pfc_watchdog_restore_us = 50\n";
        NiccScenario s;
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(NiccLoadScenarioText(text, "storm.toml", "", &s, &err), true, err);
        NiccScenarioResult r;
        NS_TEST_ASSERT_MSG_EQ(s.Run(&r, &err), true, err);
        const NiccPfcRunResult& p = r.pfcStorm;
        NS_TEST_ASSERT_MSG_EQ(p.actions.size(), 2u, "stormed and restored");
        if (p.actions.size() != 2)
        {
            return;
        }
        NS_TEST_EXPECT_MSG_EQ(p.watchdogAction, "forward", "action from the file");
        // Stalled from 20 us (XOFF at leaf0 about 1 us later): detected 100 us on.
        NS_TEST_EXPECT_MSG_GT_OR_EQ(p.actions[0].atUs, 120.0, "detect_us from the file");
        NS_TEST_EXPECT_MSG_LT(p.actions[0].atUs, 125.0, "detect_us from the file");
        // XON at 300 us reaches leaf0 about 1 us later; restored 50 us on.
        NS_TEST_EXPECT_MSG_GT_OR_EQ(p.actions[1].atUs, 350.0, "restore_us from the file");
        NS_TEST_EXPECT_MSG_LT(p.actions[1].atUs, 355.0, "restore_us from the file");
        NS_TEST_EXPECT_MSG_EQ(p.droppedPackets, 0u, "forward drops nothing");
        NS_TEST_EXPECT_MSG_EQ(r.drops, 0u, "no byte lost");
        NS_TEST_EXPECT_MSG_EQ(r.Completed(), r.flows.size(), "every flow completes");
        NS_TEST_EXPECT_MSG_EQ(r.dataPackets, r.rxDataPackets, "sent == delivered");
    }
};

class NiccPfcStormTestSuite : public TestSuite
{
  public:
    NiccPfcStormTestSuite()
        : TestSuite("nicc-pfc-storm", UNIT)
    {
        AddTestCase(new StormSpreadsTest, TestCase::QUICK);
        AddTestCase(new WatchdogDropTest, TestCase::QUICK);
        AddTestCase(new WatchdogForwardTest, TestCase::QUICK);
        AddTestCase(new RingDeadlockTest, TestCase::QUICK);
        AddTestCase(new IncastNoDeadlockTest, TestCase::QUICK);
        AddTestCase(new ScenarioStormTest(false), TestCase::QUICK);
        AddTestCase(new ScenarioStormTest(true), TestCase::QUICK);
        AddTestCase(new StormHeadroomTest, TestCase::QUICK);
        AddTestCase(new ScenarioBadKeysTest, TestCase::QUICK);
        AddTestCase(new ScenarioTomlTest, TestCase::QUICK);
    }
};

NiccPfcStormTestSuite g_niccPfcStormTestSuite;

} // namespace
