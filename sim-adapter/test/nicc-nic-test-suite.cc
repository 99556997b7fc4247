/*
 * nicc-nic-test-suite.cc — tests of the nicc NIC ("nicc-nic"; congestion
 * control end to end: nicc-nic-cc), each a small simulation run to a bound
 * and checked against a property:
 *   - engine parameters as Attributes: every non-backend row of every
 *     parameter table is an ns3::NiccNic Attribute with the derived name,
 *     default -1 and range [-1, row max]; setting it changes the compiled
 *     engine configuration; backend rows are no Attributes;
 *   - pacing: a rate cut while a QP waits out its gap re-keys its next
 *     send time (no packet at the old, higher rate after the cut);
 *   - a full driver flow table: a sender QP and a receiver flow refused
 *     are counted (GetFlowTableFullTx/Rx), traced (FlowTableFull), wait
 *     for a slot and complete;
 *   - selective repeat over a reordering fabric (spray over two spines of
 *     unequal delay): every packet reaches the application exactly once and
 *     in PSN order, out-of-order placements happen, the flow completes;
 *   - 64-bit messages: a 5e9 B flow (past 2^32 B; HPCC on wrapping 32-bit
 *     sequences) completes near its ideal FCT with its bytes counted exactly
 *     and its size in fct.csv / summary.json; a 1e12 B flow runs 1 ms with
 *     acknowledged / delivered bytes equal to the payload the packets carried.
 * ~0.2 s in total, plus ~1 s for the 5e9 B flow.
 *
 *   ./nicc-sim-test-runner --suite=nicc-nic --verbose
 */
#include "ns3/enum.h"
#include "ns3/integer.h"
#include "ns3/nicc-module.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include "nicc/host/param_registry.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ns3;

namespace
{

// ---------------------------------------------------------------------------
// Two leaves, two spines; the path over spine 1 has 4 us more delay, and the
// sender sprays (ops over 16 EVs), so packets arrive out of order.
class ReorderRecoveryTest : public TestCase
{
  public:
    explicit ReorderRecoveryTest(NiccNic::Recovery mode)
        : TestCase(mode == NiccNic::SELECTIVE_REPEAT
                       ? "selective repeat over unequal sprayed paths: in order, exactly once"
                       : "go-back-N over unequal sprayed paths: in order, exactly once"),
          m_mode(mode)
    {
    }

  private:
    void Deliver(uint32_t /*src*/, uint32_t /*qpn*/, uint32_t psn, uint32_t bytes)
    {
        m_inOrder = m_inOrder && psn == m_nextPsn;
        m_nextPsn = psn + 1;
        m_bytes += bytes;
    }

    void DoRun() override
    {
        NiccFabricHelper::UsePriorityQueueScheduler();
        NiccFabricHelper fabric;
        const DataRate rate("100Gbps");
        Ptr<NiccSwitchNode> leaf0 = fabric.CreateSwitch();
        Ptr<NiccSwitchNode> leaf1 = fabric.CreateSwitch();
        Ptr<NiccSwitchNode> spine0 = fabric.CreateSwitch();
        Ptr<NiccSwitchNode> spine1 = fabric.CreateSwitch();
        Ptr<Node> a = fabric.CreateHost();
        Ptr<Node> b = fabric.CreateHost();
        fabric.Connect(a, leaf0, rate, MicroSeconds(1));
        fabric.Connect(b, leaf1, rate, MicroSeconds(1));
        fabric.Connect(leaf0, spine0, rate, MicroSeconds(1));
        fabric.Connect(spine0, leaf1, rate, MicroSeconds(1));
        fabric.Connect(leaf0, spine1, rate, MicroSeconds(3));
        fabric.Connect(spine1, leaf1, rate, MicroSeconds(3));
        fabric.InstallRoutes();

        NiccNicHelper nics;
        nics.SetNicAttribute("CongestionControl", StringValue("none"));
        nics.SetNicAttribute("SprayPolicy", StringValue("ops"));
        nics.SetNicAttribute("SprayEvBits", IntegerValue(4));
        nics.SetNicAttribute("Recovery", EnumValue(m_mode));
        Ptr<NiccNic> tx = nics.Install(a);
        Ptr<NiccNic> rx = nics.Install(b);
        rx->TraceConnectWithoutContext("Deliver",
                                       MakeCallback(&ReorderRecoveryTest::Deliver, this));
        const uint64_t size = 2000000;
        nics.AddFlow(a, b, size, MicroSeconds(1));
        nics.StopWhenAllComplete();
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(nics.GetNCompleted(), 1u, "the flow completes");
        NS_TEST_ASSERT_MSG_EQ(m_inOrder, true, "application sees PSNs in order");
        NS_TEST_ASSERT_MSG_EQ(m_bytes, size, "every byte delivered exactly once");
        NS_TEST_ASSERT_MSG_EQ(rx->GetRxDeliveredBytes(), size, "receiver count");
        NS_TEST_ASSERT_MSG_GT(rx->GetNacksSent(), 0u, "the fabric did reorder (gaps seen)");
        if (m_mode == NiccNic::SELECTIVE_REPEAT)
        {
            NS_TEST_ASSERT_MSG_GT(rx->GetRxOooPlaced(), 100u, "out-of-order placement used");
            // Only missing packets are resent: far fewer than go-back-N would.
            NS_TEST_ASSERT_MSG_LT(tx->GetRetxPackets(), tx->GetTxDataPackets() / 2,
                                  "selective, not go-back");
        }
        uint64_t drops = 0;
        for (const auto& sw : fabric.GetSwitches())
        {
            drops += sw->GetDrops();
        }
        NS_TEST_ASSERT_MSG_EQ(drops, 0u, "lossless");
        Simulator::Destroy();
    }

    NiccNic::Recovery m_mode;
    bool m_inOrder{true};
    uint32_t m_nextPsn{0};
    uint64_t m_bytes{0};
};

// ---------------------------------------------------------------------------
// One host on one switch; NICs installed on its device one after another.
class ParamAttributeTest : public TestCase
{
  public:
    ParamAttributeTest()
        : TestCase("every engine parameter row is a NiccNic Attribute with the row's range and "
                   "reaches the compiled engine config")
    {
    }

  private:
    // Installs a NIC with `name` = `value` (no Attribute when name is
    // empty); false when Install rejects the configuration.
    bool Compile(const std::string& name, int64_t value, nicc::hal::DriverConfig* cfg)
    {
        Ptr<NiccNic> nic = CreateObject<NiccNic>();
        if (!name.empty())
        {
            nic->SetAttribute(name, IntegerValue(value));
        }
        std::string err;
        if (!nic->Install(m_dev, &err))
        {
            return false;
        }
        *cfg = nic->GetDriverConfig();
        nic->Dispose();
        return true;
    }

    void DoRun() override
    {
        NiccFabricHelper fabric;
        Ptr<NiccSwitchNode> sw = fabric.CreateSwitch();
        Ptr<Node> host = fabric.CreateHost();
        fabric.Connect(host, sw, DataRate("100Gbps"), MicroSeconds(1));
        for (uint32_t i = 0; i < host->GetNDevices() && !m_dev; ++i)
        {
            m_dev = DynamicCast<NiccNetDevice>(host->GetDevice(i));
        }
        NS_TEST_ASSERT_MSG_NE(m_dev, nullptr, "host device");
        nicc::hal::DriverConfig base{};
        NS_TEST_ASSERT_MSG_EQ(Compile("", 0, &base), true, "defaults compile");

        const TypeId tid = NiccNic::GetTypeId();
        uint32_t attributes = 0;
        uint32_t backend = 0;
        nicc::host::ForEachTable([&](const auto& t) {
            for (uint32_t r = 0; r < t.count; ++r)
            {
                const auto& row = t.rows[r];
                const std::string name = nicc::host::AttributeName(t, row);
                TypeId::AttributeInformation info;
                const bool found = tid.LookupAttributeByName(name, &info);
                if (row.backend())
                {
                    ++backend;
                    NS_TEST_EXPECT_MSG_EQ(found, false, name << " is the NIC's own (backend row)");
                    continue;
                }
                NS_TEST_EXPECT_MSG_EQ(found, true, name << " is an Attribute");
                if (!found)
                {
                    continue;
                }
                ++attributes;
                const auto initial = DynamicCast<const IntegerValue>(info.initialValue);
                NS_TEST_EXPECT_MSG_EQ((initial && initial->Get() == -1), true, name << " defaults to -1");
                NS_TEST_EXPECT_MSG_EQ(info.help.find(nicc::host::HelpText(t, row)), 0u, name << " help");
                NS_TEST_EXPECT_MSG_EQ(info.checker->Check(IntegerValue(row.max)), true, name << " max");
                NS_TEST_EXPECT_MSG_EQ(info.checker->Check(IntegerValue(-1)), true, name << " -1");
                NS_TEST_EXPECT_MSG_EQ(info.checker->Check(IntegerValue(int64_t{row.max} + 1)),
                                      false,
                                      name << " max + 1");
                NS_TEST_EXPECT_MSG_EQ(info.checker->Check(IntegerValue(-2)), false, name << " -2");
                // Some value in range (cross-field rules may refuse a few)
                // must compile to a different engine config.
                const int64_t lo = row.min;
                const int64_t hi = row.max;
                std::vector<int64_t> tries = {hi, lo, lo + 1, (lo + hi) / 2, hi - 1};
                for (uint32_t p = 0; p < t.profile_count; ++p)
                {
                    tries.push_back(int64_t{row.value[p]} + 1);
                    tries.push_back(int64_t{row.value[p]} - 1);
                }
                bool changed = false;
                for (int64_t v : tries)
                {
                    nicc::hal::DriverConfig cfg{};
                    if (v >= lo && v <= hi && Compile(name, v, &cfg) &&
                        std::memcmp(&cfg, &base, sizeof(cfg)) != 0)
                    {
                        changed = true;
                        break;
                    }
                }
                NS_TEST_EXPECT_MSG_EQ(changed, true, name << " reaches GetDriverConfig()");
            }
        });
        NS_TEST_EXPECT_MSG_GT(attributes, 30u, "every table's rows");
        NS_TEST_EXPECT_MSG_EQ(backend, 7u, "line rate (driver, dcqcn, hpcc, nscc, rccc), flow label, base port");

        // Profiles take the registry's spellings only.
        Ptr<NiccNic> nic = CreateObject<NiccNic>();
        nic->SetAttribute("DcqcnProfile", StringValue("paper"));
        std::string err;
        NS_TEST_EXPECT_MSG_EQ(nic->Install(m_dev, &err), false, "old spelling 'paper'");
        NS_TEST_EXPECT_MSG_NE(err.find("DcqcnProfile"), std::string::npos, err);
        nic = CreateObject<NiccNic>();
        nic->SetAttribute("DcqcnProfile", StringValue("dcqcn-paper"));
        nic->SetAttribute("HpccProfile", StringValue("hpcc-later"));
        nic->SetAttribute("EcnRuleProfile", StringValue("ecn-nscc"));
        NS_TEST_EXPECT_MSG_EQ(nic->Install(m_dev, &err), true, err);
        NS_TEST_EXPECT_MSG_EQ(nic->GetDriverConfig().ecn_rule.change_path_on_low_delay, 1u, "ecn-nscc");
        // nscc+rccc is hosted (credit words in DATA and ACKs); a misspelling is refused by name.
        nic = CreateObject<NiccNic>();
        nic->SetAttribute("CongestionControl", StringValue("nscc+rccc"));
        NS_TEST_EXPECT_MSG_EQ(nic->Install(m_dev, &err), true, err);
        NS_TEST_EXPECT_MSG_EQ(static_cast<int>(nic->GetDriverConfig().cc),
                              static_cast<int>(nicc::hal::CcKind::kNsccRccc),
                              "nscc+rccc");
        nic = CreateObject<NiccNic>();
        nic->SetAttribute("CongestionControl", StringValue("nscc+rcc"));
        NS_TEST_EXPECT_MSG_EQ(nic->Install(m_dev, &err), false, "nscc+rcc refused");
        NS_TEST_EXPECT_MSG_NE(err.find("'nscc+rcc'"), std::string::npos, err);
        m_dev = nullptr;
        Simulator::Destroy();
    }

    Ptr<NiccNetDevice> m_dev;
};

// ---------------------------------------------------------------------------
// One sender at a forced rate (cc=none, actions applied directly): a cut
// while the QP waits out its gap pushes the next packet back.
class PacingCutTest : public TestCase
{
  public:
    PacingCutTest()
        : TestCase("pacing: a paced QP whose rate is cut sends its next packet no earlier than "
                   "the new rate allows")
    {
    }

  private:
    void Tx(Ptr<const Packet> p)
    {
        if (p->GetSize() > 500) // DATA, not ACK/CNP/PFC
        {
            m_tx.emplace_back(Simulator::Now().GetPicoSeconds(), p->GetSize());
        }
    }

    static void SetRate(Ptr<NiccNic> nic, uint32_t kbps)
    {
        nicc::Action a = nicc::Action::None();
        a.flags = nicc::kActSetRate;
        a.rate_kbps = kbps;
        nic->Apply(0, a); // the NIC's first driver flow is QP 0's
    }

    void DoRun() override
    {
        NiccFabricHelper::UsePriorityQueueScheduler();
        NiccFabricHelper fabric;
        Ptr<NiccSwitchNode> sw = fabric.CreateSwitch();
        Ptr<Node> a = fabric.CreateHost();
        Ptr<Node> b = fabric.CreateHost();
        fabric.Connect(a, sw, DataRate("100Gbps"), MicroSeconds(1));
        fabric.Connect(b, sw, DataRate("100Gbps"), MicroSeconds(1));
        fabric.InstallRoutes();
        NiccNicHelper nics;
        nics.SetNicAttribute("CongestionControl", StringValue("none"));
        Ptr<NiccNic> tx = nics.Install(a);
        nics.Install(b);
        tx->GetDevice()->TraceConnectWithoutContext("Tx", MakeCallback(&PacingCutTest::Tx, this));
        nics.AddFlow(a, b, 1000000, MicroSeconds(1));
        const int64_t cutPs = MicroSeconds(20).GetPicoSeconds() + 300000;
        Simulator::Schedule(MicroSeconds(5), &PacingCutTest::SetRate, tx, 10000000);  // 10 Gb/s
        Simulator::Schedule(PicoSeconds(cutPs), &PacingCutTest::SetRate, tx, 1000000); // 1 Gb/s
        Simulator::Stop(MicroSeconds(60));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(tx->GetQpRateKbps(0), 1000000u, "the cut took");
        size_t k = 0;
        while (k < m_tx.size() && m_tx[k].first < cutPs)
        {
            ++k;
        }
        NS_TEST_ASSERT_MSG_GT(k, 10u, "packets before the cut");
        NS_TEST_ASSERT_MSG_LT(k + 2, m_tx.size(), "packets after the cut");
        const auto [prevPs, prevBytes] = m_tx[k - 1];
        const int64_t oldGapPs = int64_t{prevBytes} * 8 * 100; // at 10 Gb/s
        const int64_t newGapPs = int64_t{prevBytes} * 8 * 1000; // at 1 Gb/s
        NS_TEST_ASSERT_MSG_LT(cutPs - prevPs, oldGapPs, "the cut came while the QP waited (paced)");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(m_tx[k].first - prevPs,
                                    newGapPs - 1000,
                                    "first packet after the cut: " << (m_tx[k].first - prevPs)
                                                                   << " ps after the previous one");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(m_tx[k + 1].first - m_tx[k].first,
                                    int64_t{m_tx[k].second} * 8 * 1000 - 1000,
                                    "and the next at the new rate");
        Simulator::Destroy();
    }

    std::vector<std::pair<int64_t, uint32_t>> m_tx; ///< (time ps, bytes) of DATA frames
};

// ---------------------------------------------------------------------------
// B opens 1025 sender QPs to C (one more than its sender table holds); C's
// receiver table then holds B's 1024 flows when a flow from A arrives.
class FlowTableFullTest : public TestCase
{
  public:
    FlowTableFullTest()
        : TestCase("a full driver flow table is counted and traced (sender and receiver), and "
                   "every refused flow still completes")
    {
    }

  private:
    void Full(bool receiver, uint32_t peer, uint32_t qpn)
    {
        m_events.push_back({receiver, peer, qpn});
    }

    void DoRun() override
    {
        NiccFabricHelper::UsePriorityQueueScheduler();
        NiccFabricHelper fabric;
        Ptr<NiccSwitchNode> sw = fabric.CreateSwitch();
        Ptr<Node> a = fabric.CreateHost();
        Ptr<Node> b = fabric.CreateHost();
        Ptr<Node> c = fabric.CreateHost();
        for (const auto& h : {a, b, c})
        {
            fabric.Connect(h, sw, DataRate("100Gbps"), MicroSeconds(1));
        }
        fabric.InstallRoutes();
        NiccNicHelper nics;
        nics.SetNicAttribute("CongestionControl", StringValue("none"));
        nics.Install(a);
        Ptr<NiccNic> nb = nics.Install(b);
        Ptr<NiccNic> nc = nics.Install(c);
        nb->TraceConnectWithoutContext("FlowTableFull", MakeCallback(&FlowTableFullTest::Full, this));
        nc->TraceConnectWithoutContext("FlowTableFull", MakeCallback(&FlowTableFullTest::Full, this));
        const uint32_t n = NiccNic::MAX_FLOWS + 1;
        for (uint32_t i = 0; i < n; ++i)
        {
            nics.AddFlow(b, c, 20000, MicroSeconds(1)); // ~1.7 ms of round robin
        }
        nics.AddFlow(a, c, 100000, MicroSeconds(200)); // after every QP of B sent once
        nics.StopWhenAllComplete();
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(nb->GetFlowTableFullTx(), 1u, "B: QP 1024 refused at its start");
        NS_TEST_EXPECT_MSG_EQ(nb->GetFlowTableFullRx(), 0u, "B receives nothing");
        NS_TEST_EXPECT_MSG_EQ(nc->GetFlowTableFullRx(), 1u, "C: A's flow refused at its first packet");
        NS_TEST_EXPECT_MSG_EQ(nc->GetFlowTableFullTx(), 0u, "C sends nothing");
        NS_TEST_ASSERT_MSG_EQ(m_events.size(), 2u, "FlowTableFull fired once per refusal");
        NS_TEST_EXPECT_MSG_EQ(m_events[0].receiver, false, "first: the sender QP");
        NS_TEST_EXPECT_MSG_EQ(m_events[0].peer, c->GetId(), "its destination");
        NS_TEST_EXPECT_MSG_EQ(m_events[0].qpn, NiccNic::MAX_FLOWS, "its qpn");
        NS_TEST_EXPECT_MSG_EQ(m_events[1].receiver, true, "then the receiver flow");
        NS_TEST_EXPECT_MSG_EQ(m_events[1].peer, a->GetId(), "its source");
        NS_TEST_EXPECT_MSG_EQ(m_events[1].qpn, 0u, "the sender's qpn");
        NS_TEST_EXPECT_MSG_EQ(nics.GetNCompleted(), n + 1, "every flow completes, the refused ones too");
        // The refused QP started only when a slot freed: after the others'
        // first packets, so it finishes last of B's.
        NS_TEST_EXPECT_MSG_GT(nb->GetQpFinishTime(NiccNic::MAX_FLOWS),
                              nb->GetQpFinishTime(0),
                              "the refused QP waited");
        Simulator::Destroy();
    }

    struct Event
    {
        bool receiver;
        uint32_t peer;
        uint32_t qpn;
    };

    std::vector<Event> m_events;
};

// ---------------------------------------------------------------------------
// ---------------------------------------------------------------------------
// Messages above 4 GiB: 64-bit sizes in the NIC, the engine on wrapping
// 32-bit sequence numbers.

class LargeMessageTest : public TestCase
{
  public:
    LargeMessageTest()
        : TestCase("a 5e9 B flow (HPCC, 400 Gbps, 9000 B MTU) crosses 2^32 B, completes near its ideal "
                   "FCT with every byte counted, and fct.csv and summary.json carry the 64-bit size")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t size = 5000000000ULL;
        NS_TEST_ASSERT_MSG_GT(size, uint64_t{1} << 32, "the flow crosses the 32-bit sequence space");
        NiccScenario s;
        std::string err;
        bool ok = s.Select("incast", &err);
        for (const char* kv : {"senders=1", "size_bytes=5000000000", "rate_gbps=400", "mtu=9000", "cc=hpcc",
                               "stop_ms=200", "sample_ns=100000", "rate_window_us=10000"})
        {
            ok = ok && s.SetPair(kv, &err);
        }
        NiccScenarioResult r;
        ok = ok && s.Run(&r, &err);
        NS_TEST_ASSERT_MSG_EQ(ok, true, err);
        NS_TEST_ASSERT_MSG_EQ(r.flows.size(), 1u, "one flow");
        const NiccFlowRecord& f = r.flows[0];
        NS_TEST_EXPECT_MSG_EQ(f.sizeBytes, size, "64-bit size in the record");
        NS_TEST_ASSERT_MSG_GT(f.fctNs, 0, "the flow completes");
        NS_TEST_EXPECT_MSG_EQ(f.ackedBytes, size, "acknowledged bytes, exactly");
        NS_TEST_EXPECT_MSG_EQ(r.bytesAcked, size, "result: acknowledged bytes");
        NS_TEST_EXPECT_MSG_EQ(r.bytesDelivered, size, "delivered in order, once each, exactly");
        NS_TEST_EXPECT_MSG_EQ(r.retxPackets, 0u, "nothing resent (a wrap artifact would stall or resend)");
        const uint64_t packets = (size + 8999) / 9000;
        NS_TEST_EXPECT_MSG_EQ(r.dataPackets, packets, "one DATA packet per 9000 B");
        // HPCC's window law compares 32-bit sequences: past the wrap (the last
        // 14% of the bytes) a broken comparison collapses the window and the
        // FCT grows. HPCC alone runs at eta = 95% of the line: ~1.053 x ideal.
        NS_TEST_EXPECT_MSG_LT(static_cast<double>(f.fctNs), 1.08 * static_cast<double>(r.idealFctNs[0]),
                              "FCT within 8% of the ideal " << r.idealFctNs[0] << " ns");

        // The outputs carry the size as written, not modulo 2^32.
        const std::string dir = "/tmp/nicc-nic-test-large-" + std::to_string(::getpid());
        NS_TEST_ASSERT_MSG_EQ(NiccWriteScenarioOutputs(s, r, dir, &err), true, err);
        std::ifstream csv(dir + "/fct.csv");
        std::string header;
        std::string line;
        std::getline(csv, header);
        std::getline(csv, line);
        const bool sized = line.rfind("0,", 0) == 0 && line.find(",5000000000,") != std::string::npos;
        NS_TEST_EXPECT_MSG_EQ(sized, true, "fct.csv: " << line);
        std::ifstream js(dir + "/summary.json");
        const std::string json((std::istreambuf_iterator<char>(js)), std::istreambuf_iterator<char>());
        const bool acked = json.find("\"acked\": 5000000000") != std::string::npos;
        NS_TEST_EXPECT_MSG_EQ(acked, true, "summary.json bytes.acked");
        std::filesystem::remove_all(dir);
    }
};

class HugeMessageTest : public TestCase
{
  public:
    HugeMessageTest()
        : TestCase("a 1e12 B flow runs 1 ms: PSNs in order, acknowledged and delivered bytes equal the "
                   "payload the packets carried")
    {
    }

  private:
    struct Rx
    {
        uint64_t packets{0};
        uint64_t bytes{0};
        uint32_t badPsn{0};
        uint32_t badSize{0};

        void OnDeliver(uint32_t /*src*/, uint32_t /*qpn*/, uint32_t psn, uint32_t payload)
        {
            badPsn += psn != packets ? 1 : 0;
            badSize += payload != 1024 ? 1 : 0;
            ++packets;
            bytes += payload;
        }
    };

    void DoRun() override
    {
        const uint64_t size = 1000000000000ULL;
        NiccFabricHelper fabric;
        NiccNicHelper nics;
        nics.SetNicAttribute("CongestionControl", StringValue("dcqcn"));
        NiccIncastTopology t = fabric.BuildIncast(1, DataRate("100Gbps"), MicroSeconds(1));
        nics.Install(t.senders);
        nics.Install(t.receiver);
        const uint32_t id = nics.AddFlow(t.senders[0], t.receiver, size, MicroSeconds(1));
        Rx rx;
        NiccNicHelper::GetNic(t.receiver)->TraceConnectWithoutContext("Deliver", MakeCallback(&Rx::OnDeliver, &rx));
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        const NiccFlowRecord f = nics.GetFlowRecords()[id];
        Ptr<NiccNic> tx = NiccNicHelper::GetNic(t.senders[0]);
        Ptr<NiccNic> recv = NiccNicHelper::GetNic(t.receiver);
        NS_TEST_EXPECT_MSG_EQ(f.sizeBytes, size, "size");
        NS_TEST_EXPECT_MSG_EQ(tx->GetQpSize(f.qpn), size, "QP size: not reduced modulo 2^32");
        NS_TEST_EXPECT_MSG_EQ(f.fctNs, -1, "not done after 1 ms");
        NS_TEST_EXPECT_MSG_EQ(rx.badPsn, 0u, "PSNs delivered in order");
        NS_TEST_EXPECT_MSG_EQ(rx.badSize, 0u, "every packet carries a full 1024 B payload");
        // ~11 GB/s for 1 ms: at least 80% of the line.
        NS_TEST_EXPECT_MSG_GT(rx.packets, 9000u, "packets delivered in 1 ms");
        NS_TEST_EXPECT_MSG_EQ(recv->GetRxDeliveredBytes(), rx.bytes, "receiver counter = payload delivered");
        NS_TEST_EXPECT_MSG_EQ(rx.bytes, rx.packets * 1024, "payload = packets x 1024");
        NS_TEST_EXPECT_MSG_EQ(f.ackedBytes % 1024, 0u, "acknowledged whole packets");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(f.ackedBytes, rx.bytes, "acknowledged no more than delivered");
        NS_TEST_EXPECT_MSG_GT(f.ackedBytes + 64 * 1024, rx.bytes, "ACKs in flight: under 64 packets");
        NS_TEST_EXPECT_MSG_EQ(tx->GetTxDataBytes(), tx->GetTxDataPackets() * 1024, "sent = packets x 1024");
        NS_TEST_EXPECT_MSG_EQ(tx->GetRetxPackets(), 0u, "nothing resent");
        Simulator::Destroy();
    }
};

class NiccNicTestSuite : public TestSuite
{
  public:
    NiccNicTestSuite()
        : TestSuite("nicc-nic", UNIT)
    {
        AddTestCase(new ParamAttributeTest, TestCase::QUICK);
        AddTestCase(new PacingCutTest, TestCase::QUICK);
        AddTestCase(new FlowTableFullTest, TestCase::QUICK);
        AddTestCase(new ReorderRecoveryTest(NiccNic::SELECTIVE_REPEAT), TestCase::QUICK);
        AddTestCase(new ReorderRecoveryTest(NiccNic::GO_BACK_N), TestCase::QUICK);
        AddTestCase(new LargeMessageTest, TestCase::QUICK);
        AddTestCase(new HugeMessageTest, TestCase::QUICK);
    }
};

NiccNicTestSuite g_niccNicTestSuite; //!< static registration

} // namespace
