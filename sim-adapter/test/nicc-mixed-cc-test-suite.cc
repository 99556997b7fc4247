/*
 * nicc-mixed-cc-test-suite.cc — a congestion control per flow ("nicc-mixed-cc"):
 *   - one lossless fabric (one switch, PFC on, RED low enough to mark), two
 *     DCQCN, two HPCC, two NSCC and two NSCC + RCCC senders into one
 *     receiver, every NIC with the same Attributes: each QP runs the CC
 *     asked (DCQCN QPs receive CNPs and never a window; HPCC, NSCC and
 *     NSCC + RCCC QPs get set_window actions and no CNP; the receiver sends
 *     CNPs only to DCQCN senders and grants credit to the RCCC ones, whose
 *     2 MB cannot complete without grants), every flow completes, nothing
 *     is dropped, every byte arrives once;
 *   - the same mix from a scenario: a CSV flow file's cc column and the
 *     workload key incast_cc; each flow's cc in the results, per-cc slowdown;
 *   - a flow file naming no congestion control is refused with file:line.
 *
 *   ./nicc-sim-test-runner --suite=nicc-mixed-cc --verbose
 */
#include "ns3/nicc-module.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/integer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include "nicc-test-util.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

using nicc::hal::CcKind;

/// Per-CC counts of what the sender NICs saw, from their trace sources.
struct PerCc
{
    std::map<CcKind, uint64_t> cnps;    ///< CnpRx
    std::map<CcKind, uint64_t> windows; ///< Window (set_window applied)
    std::map<CcKind, uint64_t> rates;   ///< Rate (set_rate applied)
};

class MixedFabricTest : public TestCase
{
  public:
    MixedFabricTest()
        : TestCase("DCQCN, HPCC, NSCC and NSCC + RCCC flows on one lossless switch: each runs its own CC, "
                   "CNPs only to DCQCN, all complete, nothing lost")
    {
    }

  private:
    static void Cnp(PerCc* c, NiccNic* nic, uint32_t qpn, uint32_t)
    {
        ++c->cnps[nic->GetQpCc(qpn)];
    }
    static void Window(PerCc* c, NiccNic* nic, uint32_t qpn, uint32_t)
    {
        ++c->windows[nic->GetQpCc(qpn)];
    }
    static void Rate(PerCc* c, NiccNic* nic, uint32_t qpn, uint32_t)
    {
        ++c->rates[nic->GetQpCc(qpn)];
    }

    void DoRun() override
    {
        NiccFabricHelper::UsePriorityQueueScheduler();
        NiccFabricHelper fabric;
        fabric.SetSwitchAttribute("EcnKmin", UintegerValue(20000));
        fabric.SetSwitchAttribute("EcnKmax", UintegerValue(200000));
        fabric.SetSwitchAttribute("EcnPmax", DoubleValue(0.2));
        Ptr<NiccSwitchNode> sw = fabric.CreateSwitch();
        const CcKind kinds[] = {CcKind::kDcqcn, CcKind::kDcqcn, CcKind::kHpcc,     CcKind::kHpcc,
                                CcKind::kNscc,  CcKind::kNscc,  CcKind::kNsccRccc, CcKind::kNsccRccc};
        constexpr uint32_t N = 8;
        constexpr uint64_t SIZE = 2000000;
        std::vector<Ptr<Node>> senders;
        for (uint32_t i = 0; i < N; ++i)
        {
            senders.push_back(fabric.CreateHost());
            fabric.Connect(senders.back(), sw, DataRate("100Gbps"), MicroSeconds(1));
        }
        Ptr<Node> rxHost = fabric.CreateHost();
        fabric.Connect(rxHost, sw, DataRate("100Gbps"), MicroSeconds(1));
        fabric.InstallRoutes();

        NiccNicHelper nics;
        nics.SetNicAttribute("CongestionControl", StringValue("dcqcn")); // the default only
        nics.SetNicAttribute("HpccBaseRttNs", IntegerValue(9000));
        Ptr<NiccNic> rx = nics.Install(rxHost);
        PerCc seen;
        for (uint32_t i = 0; i < N; ++i)
        {
            Ptr<NiccNic> nic = nics.Install(senders[i]);
            // A raw pointer: a Ptr bound into the NIC's own trace source would
            // keep the NIC alive past Simulator::Destroy (a reference cycle).
            nic->TraceConnectWithoutContext("CnpRx",
                                            MakeBoundCallback(&MixedFabricTest::Cnp, &seen, PeekPointer(nic)));
            nic->TraceConnectWithoutContext("Window",
                                            MakeBoundCallback(&MixedFabricTest::Window, &seen, PeekPointer(nic)));
            nic->TraceConnectWithoutContext("Rate",
                                            MakeBoundCallback(&MixedFabricTest::Rate, &seen, PeekPointer(nic)));
            nics.AddFlow(senders[i], rxHost, SIZE, MicroSeconds(1), kinds[i]);
        }
        nics.StopWhenAllComplete();
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(nics.GetNCompleted(), N, "every flow completes");
        const auto recs = nics.GetFlowRecords();
        for (uint32_t i = 0; i < N; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(static_cast<int>(recs[i].cc), static_cast<int>(kinds[i]), "record's cc");
            NS_TEST_EXPECT_MSG_EQ(static_cast<int>(recs[i].nic->GetQpCc(recs[i].qpn)),
                                  static_cast<int>(kinds[i]),
                                  "QP's cc");
        }
        NS_TEST_EXPECT_MSG_EQ(sw->GetDrops(), 0u, "lossless: nothing dropped");
        NS_TEST_EXPECT_MSG_GT(sw->GetEcnMarked(), 0u, "the switch marked");
        NS_TEST_EXPECT_MSG_EQ(rx->GetRxDeliveredBytes(), N * SIZE, "every byte delivered once");
        // DCQCN: CNPs and rate cuts, never a window.
        NS_TEST_EXPECT_MSG_GT(seen.cnps[CcKind::kDcqcn], 0u, "DCQCN flows receive CNPs");
        NS_TEST_EXPECT_MSG_GT(seen.rates[CcKind::kDcqcn], 0u, "and change rate");
        NS_TEST_EXPECT_MSG_EQ(seen.windows[CcKind::kDcqcn], 0u, "DCQCN has no window");
        // HPCC (INT) and NSCC (delay, ECN echo, trims): windows, no CNP.
        NS_TEST_EXPECT_MSG_GT(seen.windows[CcKind::kHpcc], 0u, "HPCC flows get set_window (INT reached them)");
        NS_TEST_EXPECT_MSG_GT(seen.windows[CcKind::kNscc], 0u, "NSCC flows get set_window");
        NS_TEST_EXPECT_MSG_EQ(seen.cnps[CcKind::kHpcc], 0u, "no CNP to HPCC");
        NS_TEST_EXPECT_MSG_EQ(seen.cnps[CcKind::kNscc], 0u, "no CNP to NSCC");
        // NSCC + RCCC: 2 MB is more than the 150 KB initial credit, so
        // completing needs the receiver's grants in the ACKs.
        NS_TEST_EXPECT_MSG_GT(seen.windows[CcKind::kNsccRccc], 0u, "NSCC + RCCC flows get set_window");
        NS_TEST_EXPECT_MSG_EQ(seen.cnps[CcKind::kNsccRccc], 0u, "no CNP to NSCC + RCCC");
        uint64_t cnpsRx = 0;
        for (uint32_t i = 0; i < N; ++i)
        {
            cnpsRx += recs[i].nic->GetCnpsReceived();
        }
        NS_TEST_EXPECT_MSG_EQ(rx->GetCnpsSent(), cnpsRx, "every CNP the receiver sent reached a DCQCN sender");
        NS_TEST_EXPECT_MSG_EQ(cnpsRx, seen.cnps[CcKind::kDcqcn], "and only DCQCN senders");
        NS_TEST_EXPECT_MSG_GT(rx->GetRxCePackets(), seen.cnps[CcKind::kDcqcn], "CE marks beyond DCQCN's CNPs");
        Simulator::Destroy();
    }
};

std::filesystem::path
WriteTemp(const std::string& name, const std::string& text)
{
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / "nicc-mixed-cc-test";
    std::filesystem::create_directories(dir);
    std::ofstream(dir / name) << text;
    return dir / name;
}

class MixedScenarioTest : public TestCase
{
  public:
    MixedScenarioTest()
        : TestCase("a flow file's cc column and incast_cc mix CCs in one leaf-spine run; "
                   "per-flow cc in the results")
    {
    }

  private:
    void DoRun() override
    {
        // Hosts 0..15 (2 leaves x 8): file flows cross the spines.
        const std::string text = "src,dst,size_bytes,start_us,cc\n"
                                 "0,8,300000,1,dcqcn\n"
                                 "1,8,300000,1,hpcc\n"
                                 "2,8,300000,1,nscc\n"
                                 "3,9,300000,1,\n"
                                 "4,9,300000,1,hpcc\n";
        const std::string path = WriteTemp("mixed.csv", text).string();
        const std::vector<std::string> sets = {"leaves=2",        "spines=2",       "hosts_per_leaf=8",
                                               "poisson_load=0",  "incast_load=0.05", "incast_fanin=4",
                                               "incast_bytes=20000", "incast_cc=nscc", "traffic_stop_ms=0.1",
                                               "stop_ms=5",       "cc=dcqcn",       "flow_file=" + path};
        NiccScenarioResult r;
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(NiccRunWith("leaf-spine", sets, &r, &err), true, err);
        NS_TEST_ASSERT_MSG_GT(r.flows.size(), 5u, "file flows and incast flows");
        const CcKind want[] = {CcKind::kDcqcn, CcKind::kHpcc, CcKind::kNscc, CcKind::kDcqcn, CcKind::kHpcc};
        std::map<CcKind, uint32_t> perCc;
        uint32_t incast = 0;
        uint32_t row = 0; // file flows are added in row order
        for (size_t i = 0; i < r.flows.size(); ++i)
        {
            const auto& f = r.flows[i];
            ++perCc[f.cc];
            if (r.flowKind[i] == static_cast<uint8_t>(NiccFlowKind::FLOWFILE))
            {
                NS_TEST_ASSERT_MSG_LT(row, 5u, "five file flows");
                NS_TEST_EXPECT_MSG_EQ(static_cast<int>(f.cc), static_cast<int>(want[row]), "file row " << row);
                ++row;
            }
            else
            {
                NS_TEST_EXPECT_MSG_EQ(r.flowKind[i], static_cast<uint8_t>(NiccFlowKind::INCAST), "incast flow");
                NS_TEST_EXPECT_MSG_EQ(static_cast<int>(f.cc), static_cast<int>(CcKind::kNscc), "incast_cc");
                ++incast;
            }
        }
        NS_TEST_EXPECT_MSG_EQ(row, 5u, "every file row ran");
        NS_TEST_EXPECT_MSG_GT(incast, 0u, "incast bursts ran");
        NS_TEST_EXPECT_MSG_EQ(r.Completed(), r.flows.size(), "every flow completes");
        NS_TEST_EXPECT_MSG_EQ(r.drops, 0u, "lossless: nothing dropped");
        for (CcKind k : {CcKind::kDcqcn, CcKind::kHpcc, CcKind::kNscc})
        {
            size_t n = 0;
            const double p50 = r.SlowdownPercentileOf(0.5, 0, ~0ull, -1, &n, static_cast<int>(k));
            NS_TEST_EXPECT_MSG_EQ(n, perCc[k], "per-cc slowdown counts " << nicc::hal::CcKindName(k));
            NS_TEST_EXPECT_MSG_GT_OR_EQ(p50, 1.0, "slowdown >= 1 for " << nicc::hal::CcKindName(k));
        }
    }
};

class BadCcTest : public TestCase
{
  public:
    BadCcTest()
        : TestCase("a flow file row naming no congestion control is refused with file:line: field 'cc'")
    {
    }

  private:
    void DoRun() override
    {
        const std::string path =
            WriteTemp("bad.csv", "src,dst,size_bytes,start_us,cc\n0,1,1000,1,hpcc\n1,0,1000,1,reno\n").string();
        NiccScenarioResult r;
        std::string err;
        NS_TEST_EXPECT_MSG_EQ(
            NiccRunWith("leaf-spine", {"leaves=2", "spines=1", "hosts_per_leaf=2", "flow_file=" + path}, &r, &err),
            false,
            "refused");
        NS_TEST_EXPECT_MSG_NE(err.find(path + ":3: field 'cc': 'reno'"), std::string::npos, err);
        // A workload key takes only the names too.
        NiccScenario s;
        NS_TEST_ASSERT_MSG_EQ(s.Select("leaf-spine", &err), true, err);
        NS_TEST_EXPECT_MSG_EQ(s.SetPair("poisson_cc=reno", &err), false, "poisson_cc=reno refused");
        NS_TEST_EXPECT_MSG_NE(err.find("poisson_cc"), std::string::npos, err);
        NS_TEST_EXPECT_MSG_EQ(s.SetPair("poisson_cc=hpcc-pint", &err), true, err);
    }
};

class NiccMixedCcTestSuite : public TestSuite
{
  public:
    NiccMixedCcTestSuite()
        : TestSuite("nicc-mixed-cc", UNIT)
    {
        AddTestCase(new MixedFabricTest(), TestCase::QUICK);
        AddTestCase(new MixedScenarioTest(), TestCase::QUICK);
        AddTestCase(new BadCcTest(), TestCase::QUICK);
    }
};

static NiccMixedCcTestSuite g_niccMixedCcTestSuite;

} // namespace
