/*
 * nicc-input-files-test-suite.cc — topology files ("nicc-input-files";
 * flow files: nicc-input-files-flow):
 *   - a topology file builds, routes (ECMP over both spines), gives 1 switch
 *     hop inside a leaf and 3 across, and a short permutation run on it
 *     completes every flow with 0 drops;
 *   - each malformed topology file fails naming file:line and the field;
 *   - the HPCC ('N S L') and ns3-datacenter ('N S T L') dialects, unit-less
 *     rates (bit/s, truncated at the '.') and delays (s), error_rate 0 spellings
 *     and a nonzero error_rate kept as the link's loss rate.
 * Inputs are written to a fresh temporary directory.
 *
 *   ./nicc-sim-test-runner --suite=nicc-input-files --verbose
 */
#include "ns3/integer.h"
#include "ns3/nicc-module.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "nicc/host/param_registry.h"
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <tuple>
#include <unistd.h>
#include <vector>

#include "nicc-test-util.h"

using namespace ns3;

namespace
{

namespace fs = std::filesystem;

class TopologyFileTest : public TestCase
{
  public:
    TopologyFileTest()
        : TestCase("topology file: builds, ECMP routes, BFS hops 1 and 3, a permutation run completes")
    {
    }

  private:
    void DoRun() override
    {
        const fs::path dir = NiccTestDir("topo");
        const std::string path = NiccWriteFile(dir, "clos.topo", kNiccClosTopo);
        std::string err;
        {
            NiccFabricHelper fabric;
            NiccFileTopology t;
            NS_TEST_ASSERT_MSG_EQ(fabric.BuildFromFile(path, &t, &err), true, err);
            NS_TEST_ASSERT_MSG_EQ(t.switches.size(), 4u, "switches");
            NS_TEST_ASSERT_MSG_EQ(t.hosts.size(), 8u, "hosts");
            NS_TEST_EXPECT_MSG_EQ(t.hostFileIds[5], 5u, "hosts in file id order");
            NS_TEST_EXPECT_MSG_EQ(t.hostSwitch[5], 1u, "host 5 under switch index 1 (node 9)");
            NS_TEST_EXPECT_MSG_EQ(t.hostDevices[0]->GetDataRate(), DataRate("100Gbps"), "host rate");
            NS_TEST_EXPECT_MSG_EQ(t.minFabricRate, DataRate("400Gbps"), "fabric rate");
            NS_TEST_EXPECT_MSG_EQ(t.switches[0]->GetNPorts(), 6u, "leaf: 4 hosts + 2 spines");
            NS_TEST_EXPECT_MSG_EQ(t.switches[0]->GetRoute(t.hosts[4]->GetId()).size(), 2u,
                                  "leaf to the other leaf's host: via either spine");
            NS_TEST_EXPECT_MSG_EQ(t.switches[0]->GetRoute(t.hosts[1]->GetId()).size(), 1u,
                                  "leaf to its own host: one port");
            NS_TEST_EXPECT_MSG_EQ(fabric.SwitchHops(t.hosts[0], t.hosts[1]), 1u, "same leaf");
            NS_TEST_EXPECT_MSG_EQ(fabric.SwitchHops(t.hosts[0], t.hosts[4]), 3u, "across leaves");
            const NiccPathsFrom p = fabric.PathsFrom(t.hosts[0]);
            NS_TEST_EXPECT_MSG_EQ_TOL(p.delayNs[t.hosts[7]->GetId()], 4000.0, 1e-9, "4 links of 1 us");
            Simulator::Destroy();
        }
        {
            // The shipped example has the same shape.
            NiccFabricHelper fabric;
            NiccFileTopology t;
            NS_TEST_ASSERT_MSG_EQ(fabric.BuildFromFile(NiccShipped("small-clos.topo"), &t, &err), true, err);
            NS_TEST_EXPECT_MSG_EQ(fabric.SwitchHops(t.hosts[0], t.hosts[3]), 1u, "example: same leaf");
            NS_TEST_EXPECT_MSG_EQ(fabric.SwitchHops(t.hosts[0], t.hosts[4]), 3u, "example: across leaves");
            Simulator::Destroy();
        }
        {
            NiccScenario s;
            bool ok = s.Select("leaf-spine", &err);
            const std::vector<std::string> sets = {"topology=file", "topology_file=" + path,
                                                   "poisson_load=0", "permutation_bytes=200000",
                                                   "stop_ms=1", "cc=dcqcn"};
            for (const std::string& kv : sets)
            {
                ok = ok && s.SetPair(kv, &err);
            }
            NiccScenarioResult r;
            ok = ok && s.Run(&r, &err);
            NS_TEST_ASSERT_MSG_EQ(ok, true, err);
            NS_TEST_EXPECT_MSG_EQ(r.hosts, 8u, "hosts");
            NS_TEST_EXPECT_MSG_EQ(r.flows.size(), 8u, "one permutation flow per host");
            NS_TEST_EXPECT_MSG_EQ(r.Completed(), 8u, "every flow completes");
            NS_TEST_EXPECT_MSG_EQ(r.drops, 0u, "lossless");
            NS_TEST_EXPECT_MSG_EQ(r.hostRateGbps, 100.0, "host rate from the file");
            for (size_t i = 0; i < r.flows.size(); ++i)
            {
                NS_TEST_EXPECT_MSG_GT(r.idealFctNs[i], 0, "ideal FCT");
                NS_TEST_EXPECT_MSG_GT(static_cast<double>(r.flows[i].fctNs), 0.95 * r.idealFctNs[i],
                                      "FCT no less than the ideal (cross-leaf, 3 switches)");
            }
            bool named = false;
            for (const auto& l : r.links)
            {
                named = named || (l.from == "sw8" && l.to == "sw10" && l.kind == "fabric");
            }
            NS_TEST_EXPECT_MSG_EQ(named, true, "links named sw<id> / host<id>");
        }
        {
            NiccScenario s;
            bool ok = s.Select("leaf-spine", &err) && s.SetPair("topology=file", &err);
            NiccScenarioResult r;
            NS_TEST_EXPECT_MSG_EQ(ok && s.Run(&r, &err), false, "topology=file without a file");
            NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "topology_file"), true, err);
        }
        fs::remove_all(dir);
    }
};

class TopologyFileErrorsTest : public TestCase
{
  public:
    TopologyFileErrorsTest()
        : TestCase("malformed topology files: the error names file:line and the field")
    {
    }

  private:
    void DoRun() override
    {
        // Base: hosts 0-3, switches 4 and 5; 0,1 on 4; 2,3 on 5; 4-5 linked.
        const std::string head = "6 2 5\n4 5\n";
        const std::string ok = "0 4 100Gbps 1us 0\n1 4 100Gbps 1us 0\n2 5 100Gbps 1us 0\n"
                               "3 5 100Gbps 1us 0\n";
        const std::string fab = "4 5 400Gbps 1us 0\n";
        struct Case
        {
            std::string text;
            const char* where;
            const char* what;
        };
        const std::vector<Case> cases = {
            {"", ":0:", "empty"},
            {"6 2\n4 5\n" + ok + fab, ":1:", "header"},
            {"x 2 5\n4 5\n" + ok + fab, ":1:", "N (nodes)"},
            {"6 9 5\n4 5\n" + ok + fab, ":1:", "S (switches)"},
            {"6 2 -1\n4 5\n" + ok + fab, ":1:", "L (links)"},
            {"6 2 5\n4 9\n" + ok + fab, ":2:", "switch ids"},
            {"6 2 5\n4 4\n" + ok + fab, ":2:", "duplicate switch id 4"},
            {"6 2 5\n4\n" + ok + fab, ":2:", "expected S = 2"},
            {head + ok + "4 4 400Gbps 1us 0\n", ":7:", "self link"},
            {head + ok + "4 7 400Gbps 1us 0\n", ":7:", "field b"},
            {head + ok + "4 5 100Gbsp 1us 0\n", ":7:", "field rate"},
            {head + ok + "4 5 fastGbps 1us 0\n", ":7:", "field rate"},
            {head + ok + "4 5 400Gbps 1xs 0\n", ":7:", "field delay"},
            {head + ok + "4 5 400Gbps 0ns 0\n", ":7:", "field delay"},
            {head + ok + "4 5 400Gbps 1us 1.5\n", ":7:", "error_rate"},
            {head + ok + "4 5 400Gbps 1us\n", ":7:", "fields"},
            {head + ok, ":6:", "fewer links than L = 5"},
            {head + ok + "0 5 100Gbps 1us 0\n", ":7:", "second link"},
            {head + "0 4 100Gbps 1us 0\n1 4 100Gbps 1us 0\n2 5 100Gbps 1us 0\n4 5 400Gbps 1us 0\n"
                    "4 5 400Gbps 1us 0\n",
             ":2:", "host 3"},
            {head + ok + "0 1 100Gbps 1us 0\n", ":7:", "both ends"},
            {"6 2 4\n4 5\n" + ok, ":5:", "unreachable"},
            // Comments and blank lines keep the line count honest.
            {"# topology\n\n6 2 5\n# switches\n4 5\n" + ok + "\n4 5 400Gbps 1us 7\n", ":11:", "error_rate"},
        };
        const fs::path dir = NiccTestDir("topo-errors");
        for (size_t i = 0; i < cases.size(); ++i)
        {
            const std::string name = "bad" + std::to_string(i) + ".topo";
            const std::string path = NiccWriteFile(dir, name, cases[i].text);
            NiccTopologySpec spec;
            std::string err;
            NS_TEST_EXPECT_MSG_EQ(NiccFabricHelper::ParseTopologyFile(path, &spec, &err), false,
                                  "case " << i << " parses");
            NS_TEST_EXPECT_MSG_EQ(NiccContains(err, name + cases[i].where), true,
                                  "case " << i << ": '" << err << "' lacks " << name << cases[i].where);
            NS_TEST_EXPECT_MSG_EQ(NiccContains(err, cases[i].what), true,
                                  "case " << i << ": '" << err << "' lacks '" << cases[i].what << "'");
        }
        // The good base parses; through a scenario, an error keeps file:line.
        NiccTopologySpec spec;
        std::string err;
        const std::string good = NiccWriteFile(dir, "good.topo", head + ok + fab);
        NS_TEST_EXPECT_MSG_EQ(NiccFabricHelper::ParseTopologyFile(good, &spec, &err), true, err);
        NS_TEST_EXPECT_MSG_EQ(spec.hosts.size(), 4u, "hosts");
        // Lines after the L links are not read (the HPCC simulator's own
        // mix/topology.txt lists more links than L, then a format note).
        const std::string extra = NiccWriteFile(dir, "extra.topo", head + ok + fab + fab + "First line: nodes\n");
        NS_TEST_EXPECT_MSG_EQ(NiccFabricHelper::ParseTopologyFile(extra, &spec, &err), true, err);
        NS_TEST_EXPECT_MSG_EQ(spec.links.size(), 5u, "exactly L links read");
        NS_TEST_EXPECT_MSG_EQ(spec.ignoredLines, 2u, "the extra link and the note are counted, not read");
        const std::string bad = NiccWriteFile(dir, "run.topo", head + ok + "4 5 400Gbps 1us 2\n");
        NiccScenario s;
        bool ok2 = s.Select("leaf-spine", &err) && s.SetPair("topology=file", &err) &&
                   s.SetPair("topology_file=" + bad, &err);
        NiccScenarioResult r;
        NS_TEST_EXPECT_MSG_EQ(ok2 && s.Run(&r, &err), false, "run with a bad topology file");
        NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "run.topo:7:"), true, err);
        fs::remove_all(dir);
    }
};

class TopologyDialectsTest : public TestCase
{
  public:
    TopologyDialectsTest()
        : TestCase("topology dialects: HPCC 'N S L' and ns3-datacenter 'N S T L', unit-less rates and "
                   "delays, error_rate 0 spellings; malformed fields name file:line and the field")
    {
    }

  private:
    void DoRun() override
    {
        // The same 6-node fabric (hosts 0-3, switches 4, 5) in two dialects.
        const std::string hpcc = "6 2 5\n4 5\n0 4 100Gbps 1us 0\n1 4 100Gb/s 1000ns 0\n"
                                 "2 5 100Gbps 0.001ms 0\n3 5 12.5GBps 1us 0\n4 5 400Gbps 1us 0\n";
        const std::string dc = "6 2 2 5\n4 5\n0 4 100000000000.0 0.000001 0.000000\n"
                               "1 4 100000000000 1e-6 0.0\n2 5 100000000000.9 0.000001 0\n"
                               "3 5 100000000000.000 0.000001 0\n4 5 400000000000.0 0.000001 0.0\n";
        NiccTopologySpec a;
        NiccTopologySpec b;
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(NiccFabricHelper::ParseTopology(hpcc, "hpcc.txt", &a, &err), true, err);
        NS_TEST_ASSERT_MSG_EQ(NiccFabricHelper::ParseTopology(dc, "dc.txt", &b, &err), true, err);
        NS_TEST_ASSERT_MSG_EQ(a.links.size(), 5u, "HPCC links");
        NS_TEST_ASSERT_MSG_EQ(b.links.size(), 5u, "ns3-datacenter links");
        NS_TEST_EXPECT_MSG_EQ(b.switches.size(), 2u, "T is not the switch count");
        for (size_t k = 0; k < a.links.size(); ++k)
        {
            NS_TEST_EXPECT_MSG_EQ(a.links[k].bps, b.links[k].bps, "link " << k << " rate");
            NS_TEST_EXPECT_MSG_EQ(a.links[k].delayPs, b.links[k].delayPs, "link " << k << " delay");
            NS_TEST_EXPECT_MSG_EQ(a.links[k].delayPs, 1000000, "link " << k << ": 1 us in ps");
        }
        NS_TEST_EXPECT_MSG_EQ(a.links[3].bps, 100000000000ULL, "12.5 GB/s = 100 Gb/s");
        NS_TEST_EXPECT_MSG_EQ(b.links[2].bps, 100000000000ULL, "unit-less: truncated at the '.'");
        NS_TEST_EXPECT_MSG_EQ(b.links[4].bps, 400000000000ULL, "unit-less fabric rate");
        // The ns3-datacenter 25 Gb/s spelling from the issue.
        NS_TEST_EXPECT_MSG_EQ(NiccFabricHelper::ParseTopology(
                                  "4 1 1 3\n3\n0 3 25000000000.0 0.000001 0\n1 3 25000000000.0 0.000001 0\n"
                                  "2 3 25000000000.0 0.000001 0\n",
                                  "dc25.txt", &b, &err),
                              true, err);
        NS_TEST_EXPECT_MSG_EQ(b.links[0].bps, 25000000000ULL, "25000000000.0 = 25 Gb/s");

        const std::string links = "0 4 100Gbps 1us 0\n1 4 100Gbps 1us 0\n2 5 100Gbps 1us 0\n3 5 100Gbps 1us 0\n";
        struct Case
        {
            std::string text;
            const char* where;
            const char* what;
        };
        const std::vector<Case> cases = {
            {"6 2 x 5\n4 5\n" + links + "4 5 400Gbps 1us 0\n", ":1:", "field T (ToRs)"},
            {"6 2 2 -5\n4 5\n" + links + "4 5 400Gbps 1us 0\n", ":1:", "field L (links)"},
            {"6 2 2 5 7\n4 5\n" + links + "4 5 400Gbps 1us 0\n", ":1:", "'N S T L'"},
            {"6 2 2 5\n4 5\n" + links + "4 5 1.2.3 1us 0\n", ":7:", "field rate"},
            {"6 2 2 5\n4 5\n" + links + "4 5 0.5 1us 0\n", ":7:", "field rate"},
            {"6 2 2 5\n4 5\n" + links + "4 5 4e11 1us 0\n", ":7:", "field rate"},
            {"6 2 2 5\n4 5\n" + links + "4 5 400Gbps 1e-10 0\n", ":7:", "field delay"},
            {"6 2 2 5\n4 5\n" + links + "4 5 400Gbps -0.001 0\n", ":7:", "field delay"},
            {"6 2 2 5\n4 5\n" + links + "4 5 400Gbps 0.001xs 0\n", ":7:", "field delay"},
            {"6 2 2 5\n4 5\n" + links + "4 5 400Gbps 1us 1.5\n", ":7:", "in [0, 1]"},
            {"6 2 2 5\n4 5\n" + links + "4 5 400Gbps 1us -0.5\n", ":7:", "in [0, 1]"},
            {"6 2 2 5\n4 5\n" + links + "4 5 400Gbps 1us zero\n", ":7:", "field error_rate"},
            {"6 2 2 5\n4 5\n" + links + "4 5 400Gbps 1us 1.0001\n", ":7:", "in [0, 1]"},
        };
        // A nonzero error_rate is the link's loss rate (docs/faults.md).
        NS_TEST_EXPECT_MSG_EQ(NiccFabricHelper::ParseTopology("6 2 2 5\n4 5\n" + links + "4 5 400Gbps 1us 0.001\n",
                                                              "lossy.txt", &b, &err),
                              true, err);
        NS_TEST_EXPECT_MSG_EQ(b.links.back().errorRate, 0.001, "error_rate kept");
        for (size_t i = 0; i < cases.size(); ++i)
        {
            const std::string name = "dialect" + std::to_string(i) + ".txt";
            NS_TEST_EXPECT_MSG_EQ(NiccFabricHelper::ParseTopology(cases[i].text, name, &b, &err), false,
                                  "case " << i << " parses");
            NS_TEST_EXPECT_MSG_EQ(NiccContains(err, name + cases[i].where), true,
                                  "case " << i << ": '" << err << "' lacks " << name << cases[i].where);
            NS_TEST_EXPECT_MSG_EQ(NiccContains(err, cases[i].what), true,
                                  "case " << i << ": '" << err << "' lacks '" << cases[i].what << "'");
        }
    }
};

class NiccInputFilesTestSuite : public TestSuite
{
  public:
    NiccInputFilesTestSuite()
        : TestSuite("nicc-input-files", UNIT)
    {
        AddTestCase(new TopologyFileTest, TestCase::QUICK);
        AddTestCase(new TopologyFileErrorsTest, TestCase::QUICK);
        AddTestCase(new TopologyDialectsTest, TestCase::QUICK);
    }
};

NiccInputFilesTestSuite g_niccInputFilesTestSuite;

} // namespace
