/*
 * nicc-input-files-test-suite.cc — topology files and flow files
 * ("nicc-input-files"):
 *   - a topology file builds, routes (ECMP over both spines), gives 1 switch
 *     hop inside a leaf and 3 across, and a short permutation run on it
 *     completes every flow with 0 drops;
 *   - each malformed topology file fails naming file:line and the field;
 *   - the HPCC ('N S L') and ns3-datacenter ('N S T L') dialects, unit-less
 *     rates (bit/s, truncated at the '.') and delays (s), error_rate 0 spellings
 *     and a nonzero error_rate kept as the link's loss rate;
 *   - flow files (HPCC count + lines, CSV with a header): exact sizes and
 *     start times, ids mapped to hosts, every malformed line named by
 *     file:line and field; runs on a topology file (HPCC flows at 2 s,
 *     sampling from the first start) and beside a permutation on leaf-spine,
 *     fat-tree and rail; dport and pg kept per flow.
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

// 2 leaves (8, 9) x 4 hosts (0-7), 2 spines (10, 11); the shipped example's shape.
const char* const kClos = "# comment line\n"
                          "12 4 12\n"
                          "\n"
                          "8 9 10 11\n"
                          "0 8 100Gbps 1us 0\n"
                          "1 8 100Gbps 1us 0\n"
                          "2 8 100Gbps 1us 0\n"
                          "3 8 100Gbps 1us 0\n"
                          "4 9 100Gbps 1000ns 0\n"
                          "5 9 100Gbps 1000ns 0\n"
                          "6 9 100Gbps 1000ns 0\n"
                          "7 9 100Gbps 1000ns 0\n"
                          "8 10 400Gbps 1us 0\n"
                          "8 11 400Gbps 1us 0\n"
                          "9 10 400Gbps 1us 0\n"
                          "9 11 400Gbps 1us 0\n";

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
        const std::string path = NiccWriteFile(dir, "clos.topo", kClos);
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

// Switches first (0, 1), hosts 2-5 (2, 3 on switch 0; 4, 5 on switch 1):
// file ids differ from host indices.
const char* const kSwitchesFirst = "6 2 5\n0 1\n2 0 100Gbps 1us 0\n3 0 100Gbps 1us 0\n4 1 100Gbps 1us 0\n"
                                   "5 1 100Gbps 1us 0\n0 1 100Gbps 1us 0\n";

class FlowFileParseTest : public TestCase
{
  public:
    FlowFileParseTest()
        : TestCase("flow files: HPCC and CSV parse to exact sizes and start times; ids map to hosts; every "
                   "malformed line names file:line and the field")
    {
    }

  private:
    void DoRun() override
    {
        std::string err;
        NiccFlowFile f;
        // HPCC, as traffic_gen.py leaves it: the count rewritten over a longer
        // estimate ("3 " + spaces), lines beyond the count ignored.
        NS_TEST_ASSERT_MSG_EQ(NiccParseFlowFile("3   \n0 1 3 100 1000000 2.000000000\n"
                                                "1 0 3 200 5000000000 2.000001\n"
                                                "2 3 0 100 1 2.0000000015\n"
                                                "3 2 3 100 77 2.5\n\n4 5 3 100 88 2.6\n",
                                                "flow.txt", &f, &err),
                              true, err);
        NS_TEST_EXPECT_MSG_EQ(f.format, NiccFlowFile::HPCC, "format");
        NS_TEST_ASSERT_MSG_EQ(f.flows.size(), 3u, "exactly the count is read");
        NS_TEST_EXPECT_MSG_EQ(f.ignoredLines, 2u, "two lines beyond the count");
        NS_TEST_EXPECT_MSG_EQ(f.flows[1].sizeBytes, 5000000000ULL, "64-bit size");
        NS_TEST_EXPECT_MSG_EQ(f.flows[0].startNs, 2000000000, "start 2 s");
        NS_TEST_EXPECT_MSG_EQ(f.flows[1].startNs, 2000001000, "start 2.000001 s");
        NS_TEST_EXPECT_MSG_EQ(f.flows[2].startNs, 2000000002, "start rounded to the ns");
        NS_TEST_EXPECT_MSG_EQ(f.flows[1].dport, 200, "dport");
        NS_TEST_EXPECT_MSG_EQ(f.flows[2].pg, 0, "pg");
        NS_TEST_EXPECT_MSG_EQ(f.flows[1].line, 3u, "line of the flow");
        NS_TEST_EXPECT_MSG_EQ(f.FirstStartNs(), 2000000000, "first start");
        // CSV: columns in any order, optional cells empty, spaces trimmed.
        NS_TEST_ASSERT_MSG_EQ(NiccParseFlowFile("# flows\nstart_us, src ,dst,size_bytes,cc,prio,dport\n"
                                                "1.5,0,1,1000,,3,200\n\n7,1,0,1000000000000,dcqcn,,\n",
                                                "f.csv", &f, &err),
                              true, err);
        NS_TEST_EXPECT_MSG_EQ(f.format, NiccFlowFile::CSV, "format");
        NS_TEST_ASSERT_MSG_EQ(f.flows.size(), 2u, "rows");
        NS_TEST_EXPECT_MSG_EQ(f.flows[0].startNs, 1500, "1.5 us");
        NS_TEST_EXPECT_MSG_EQ(f.flows[0].pg, 3, "prio");
        NS_TEST_EXPECT_MSG_EQ(f.flows[0].dport, 200, "dport");
        NS_TEST_EXPECT_MSG_EQ(f.flows[0].cc, "", "empty cc = the scenario's");
        NS_TEST_EXPECT_MSG_EQ(f.flows[1].sizeBytes, 1000000000000ULL, "1e12 B");
        NS_TEST_EXPECT_MSG_EQ(f.flows[1].cc, "dcqcn", "cc");
        NS_TEST_EXPECT_MSG_EQ(f.flows[1].line, 5u, "line counts comments and blanks");
        NiccFlowFileHosts hosts;
        hosts.count = 2;
        NS_TEST_EXPECT_MSG_EQ(NiccResolveFlowFile(&f, hosts, 1024, &err), true, err);
        // Topology file ids map to host indices.
        NiccTopologySpec spec;
        NS_TEST_ASSERT_MSG_EQ(NiccFabricHelper::ParseTopology(kSwitchesFirst, "sf.topo", &spec, &err), true, err);
        NS_TEST_ASSERT_MSG_EQ(NiccParseFlowFile("1\n2 5 3 100 1000 0\n", "ids.txt", &f, &err), true, err);
        hosts.spec = &spec;
        NS_TEST_ASSERT_MSG_EQ(NiccResolveFlowFile(&f, hosts, 1024, &err), true, err);
        NS_TEST_EXPECT_MSG_EQ(f.flows[0].src, 0u, "file id 2 = host index 0");
        NS_TEST_EXPECT_MSG_EQ(f.flows[0].dst, 3u, "file id 5 = host index 3");

        struct Case
        {
            std::string text;
            const char* where;
            const char* what;
        };
        const std::string csv = "src,dst,size_bytes,start_us\n";
        const std::vector<Case> parse = {
            {"", ":0:", "empty flow file"},
            {"abc\n", ":1:", "field 'count'"},
            {"-2\n", ":1:", "field 'count'"},
            {"2 x\n0 1 3 100 10 2\n1 0 3 100 10 2\n", ":1:", "field 'count': expected the flow count alone"},
            {"3\n0 1 3 100 1000 2.0\n1 0 3 100 1000 2.0\n", ":3:", "fewer flows than the count 3"},
            {"1\n0 1 3 100 1000\n", ":2:", "expected 6 fields"},
            {"1\n0 1 3 100 1000 2 7\n", ":2:", "expected 6 fields"},
            {"1\nx 1 3 100 1000 2\n", ":2:", "field 'src'"},
            {"1\n0 -1 3 100 1000 2\n", ":2:", "field 'dst'"},
            {"1\n0 1 9 100 1000 2\n", ":2:", "field 'pg'"},
            {"1\n0 1 3 70000 1000 2\n", ":2:", "field 'dport'"},
            {"1\n0 1 3 100 0 2\n", ":2:", "field 'size': 0 bytes"},
            {"1\n0 1 3 100 -5 2\n", ":2:", "field 'size'"},
            {"1\n0 1 3 100 1e6 2\n", ":2:", "field 'size'"},
            {"1\n0 1 3 100 99999999999999999999 2\n", ":2:", "field 'size'"},
            {"1\n0 1 3 100 1000 -1\n", ":2:", "field 'start_s'"},
            {"1\n0 1 3 100 1000 abc\n", ":2:", "field 'start_s'"},
            {"1\n0 1 3 100 1000 nan\n", ":2:", "field 'start_s'"},
            {"1\n0 1 3 100 1000 1e300\n", ":2:", "field 'start_s'"},
            {"1\n2 2 3 100 1000 2\n", ":2:", "to itself"},
            {"src,dst,bytes,start_us\n", ":1:", "unknown column 'bytes'"},
            {"src,dst,size_bytes\n", ":1:", "missing column 'start_us'"},
            {"src,dst,size_bytes,start_us,src\n", ":1:", "column 'src' appears twice"},
            {csv + "0,1,1000\n", ":2:", "expected 4 comma-separated fields"},
            {csv + "0,1,0,1\n", ":2:", "field 'size_bytes'"},
            {csv + "0,1,x,1\n", ":2:", "field 'size_bytes'"},
            {csv + "0,1,10,-1\n", ":2:", "field 'start_us'"},
            {csv + "0,,10,1\n", ":2:", "field 'dst'"},
            {"src,dst,size_bytes,start_us,prio\n0,1,10,1,8\n", ":2:", "field 'prio'"},
            {"src,dst,size_bytes,start_us,cc\n0,1,10,1,dcqcn\n1,0,10,1,cubic\n", ":3:",
             "field 'cc': 'cubic' is no congestion control"},
            {"# c\n\n" + csv + "\n0,0,10,1\n", ":5:", "to itself"},
        };
        for (size_t i = 0; i < parse.size(); ++i)
        {
            const std::string name = "flows" + std::to_string(i) + ".txt";
            NS_TEST_EXPECT_MSG_EQ(NiccParseFlowFile(parse[i].text, name, &f, &err), false, "case " << i << " parses");
            NS_TEST_EXPECT_MSG_EQ(NiccContains(err, name + parse[i].where), true,
                                  "case " << i << ": '" << err << "' lacks " << name << parse[i].where);
            NS_TEST_EXPECT_MSG_EQ(NiccContains(err, parse[i].what), true,
                                  "case " << i << ": '" << err << "' lacks '" << parse[i].what << "'");
        }
        // Well-formed lines that do not fit the run.
        struct Resolve
        {
            std::string text;
            bool withSpec;
            const char* what;
        };
        const std::vector<Resolve> resolve = {
            {"1\n2 0 3 100 1000 2\n", true, "field 'dst': node 0 is a switch"},
            {"1\n2 6 3 100 1000 2\n", true, "field 'dst': 6 is not a node id"},
            {"1\n9 2 3 100 1000 2\n", false, "field 'src': host 9 out of range [0, 7]"},
            {"1\n0 1 3 100 5000000000000 2\n", false, "field 'size'"},
            {csv + "0,1,5000000000000,1\n", false, "field 'size_bytes'"},
        };
        for (size_t i = 0; i < resolve.size(); ++i)
        {
            const std::string name = "fit" + std::to_string(i) + ".txt";
            NS_TEST_ASSERT_MSG_EQ(NiccParseFlowFile(resolve[i].text, name, &f, &err), true, err);
            NiccFlowFileHosts h;
            h.spec = resolve[i].withSpec ? &spec : nullptr;
            h.count = 8;
            NS_TEST_EXPECT_MSG_EQ(NiccResolveFlowFile(&f, h, 1024, &err), false, "case " << i << " fits");
            NS_TEST_EXPECT_MSG_EQ(NiccContains(err, name + ":2:"), true, "case " << i << ": '" << err << "' lacks :2:");
            NS_TEST_EXPECT_MSG_EQ(NiccContains(err, resolve[i].what), true,
                                  "case " << i << ": '" << err << "' lacks '" << resolve[i].what << "'");
        }
    }
};

class FlowFileRunTest : public TestCase
{
  public:
    FlowFileRunTest()
        : TestCase("flow files run: HPCC format at 2 s on a topology file (sampling from the first start), "
                   "CSV beside a permutation on leaf-spine, fat-tree and rail; dport and pg kept per flow")
    {
    }

  private:
    static bool Run(const std::vector<std::string>& sets, NiccScenarioResult* r, std::string* err)
    {
        NiccScenario s;
        bool ok = s.Select("leaf-spine", err);
        for (const std::string& kv : sets)
        {
            ok = ok && s.SetPair(kv, err);
        }
        return ok && s.Run(r, err);
    }

    void DoRun() override
    {
        const fs::path dir = NiccTestDir("flows");
        const std::string topo = NiccWriteFile(dir, "clos.topo", kClos);
        std::string err;
        {
            // HPCC convention: flows start at 2 s. Hosts 0-3 on leaf 8, 4-7 on leaf 9.
            const std::string flows = NiccWriteFile(dir, "flow.txt",
                                            "3 \n0 5 3 100 200000 2.0\n1 5 3 200 100000 2.00001\n"
                                            "6 2 3 100 50000 2.000005\n7 1 3 100 99 2.1\n");
            NiccScenarioResult r;
            NS_TEST_ASSERT_MSG_EQ(Run({"topology=file", "topology_file=" + topo, "flow_file=" + flows,
                                       "poisson_load=0", "stop_ms=2100", "cc=dcqcn"},
                                      &r, &err),
                                  true, err);
            NS_TEST_ASSERT_MSG_EQ(r.flows.size(), 3u, "the counted flows");
            const uint64_t size[3] = {200000, 100000, 50000};
            const int64_t start[3] = {2000000000, 2000010000, 2000005000};
            const uint32_t src[3] = {0, 1, 6};
            for (size_t i = 0; i < 3; ++i)
            {
                NS_TEST_EXPECT_MSG_EQ(r.flows[i].sizeBytes, size[i], "flow " << i << " size");
                NS_TEST_EXPECT_MSG_EQ(r.flows[i].startNs, start[i], "flow " << i << " start");
                NS_TEST_EXPECT_MSG_EQ(r.flows[i].src, src[i], "flow " << i << " src: node id = file id");
                NS_TEST_EXPECT_MSG_GT(r.flows[i].fctNs, 0, "flow " << i << " completes");
                NS_TEST_EXPECT_MSG_EQ(r.flows[i].ackedBytes, size[i], "flow " << i << " acknowledged");
                NS_TEST_EXPECT_MSG_GT(static_cast<double>(r.flows[i].fctNs), 0.95 * r.idealFctNs[i], "FCT >= ideal");
                NS_TEST_EXPECT_MSG_EQ(r.flowKind[i], static_cast<uint8_t>(NiccFlowKind::FLOWFILE), "kind file");
            }
            // Stopped once done, and nothing sampled the idle fabric for 2 s:
            // 1 ns samples from 0 would be 2e6 events on their own.
            NS_TEST_EXPECT_MSG_LT(r.simSeconds, 2.001, "stops when every flow is done");
            NS_TEST_EXPECT_MSG_LT(r.events, 400000u, "no sampling before the first start");
            NS_TEST_ASSERT_MSG_EQ(r.seriesTimeUs.empty(), false, "rate windows");
            NS_TEST_EXPECT_MSG_GT(r.seriesTimeUs.front(), 2e6, "first rate window after 2 s");
        }
        // CSV beside a permutation, on each generated topology (host indices).
        const std::string csv = NiccWriteFile(dir, "flows.csv", "src,dst,size_bytes,start_us,prio,dport\n"
                                                        "0,7,300000,5,3,200\n3,4,100000,0,,\n");
        const std::vector<std::vector<std::string>> topologies = {
            {"topology=leaf-spine", "leaves=2", "spines=2", "hosts_per_leaf=4"},
            {"topology=fat-tree", "pods=2", "tors_per_pod=1", "aggs_per_pod=1", "cores=1", "hosts_per_leaf=4"},
            {"topology=rail", "servers=4", "rails=2", "spines=1"},
        };
        for (const auto& t : topologies)
        {
            std::vector<std::string> sets = t;
            for (const char* kv : {"poisson_load=0", "permutation_bytes=50000", "stop_ms=2", "cc=hpcc"})
            {
                sets.emplace_back(kv);
            }
            sets.push_back("flow_file=" + csv);
            NiccScenarioResult r;
            NS_TEST_ASSERT_MSG_EQ(Run(sets, &r, &err), true, t[0] << ": " << err);
            NS_TEST_ASSERT_MSG_EQ(r.flows.size(), 10u, t[0] << ": 2 from the file + 8 permutation flows");
            NS_TEST_EXPECT_MSG_EQ(r.Completed(), 10u, t[0] << ": every flow completes");
            NS_TEST_EXPECT_MSG_EQ(r.flows[0].sizeBytes, 300000u, t[0] << ": file flow 0 size");
            NS_TEST_EXPECT_MSG_EQ(r.flows[0].startNs, 5000, t[0] << ": file flow 0 starts at 5 us");
            NS_TEST_EXPECT_MSG_EQ(r.flows[1].startNs, 0, t[0] << ": file flow 1 starts at 0");
            NS_TEST_EXPECT_MSG_EQ(r.flowKind[0], static_cast<uint8_t>(NiccFlowKind::FLOWFILE), t[0]);
            NS_TEST_EXPECT_MSG_EQ(r.flowKind[2], static_cast<uint8_t>(NiccFlowKind::PERMUTATION), t[0]);
        }
        {
            // A relative flow_file in a scenario file resolves against its directory.
            const std::string toml = NiccWriteFile(dir, "run.toml", "base = \"leaf-spine\"\nflow_file = \"flows.csv\"\n"
                                                            "leaves = 2\nspines = 2\nhosts_per_leaf = 4\n"
                                                            "poisson_load = 0\nstop_ms = 2\n");
            NiccScenario s;
            NS_TEST_ASSERT_MSG_EQ(NiccLoadScenarioFile(toml, &s, &err), true, err);
            NS_TEST_EXPECT_MSG_EQ(s.Get("flow_file"), (dir / "flows.csv").string(), "resolved path");
            NiccScenarioResult r;
            NS_TEST_ASSERT_MSG_EQ(s.Run(&r, &err), true, err);
            NS_TEST_EXPECT_MSG_EQ(r.Completed(), 2u, "both file flows complete");
        }
        {
            // dport and pg per flow, 0 for generated flows.
            NiccFabricHelper fabric;
            NiccNicHelper nics;
            NiccIncastTopology t = fabric.BuildIncast(2, DataRate("100Gbps"), MicroSeconds(1));
            std::vector<Ptr<Node>> hosts = t.senders;
            hosts.push_back(t.receiver);
            nics.Install(hosts);
            NiccWorkload w(&nics, hosts);
            w.StartFlowList({{0, 2, 10000, MicroSeconds(3), 200, 3, std::nullopt},
                             {1, 2, 20000, MicroSeconds(1), 100, 0, std::nullopt}});
            nics.StopWhenAllComplete();
            Simulator::Stop(MilliSeconds(1));
            Simulator::Run();
            NS_TEST_EXPECT_MSG_EQ(nics.GetNCompleted(), 2u, "both complete");
            NS_TEST_EXPECT_MSG_EQ(w.GetDport(0), 200, "dport of flow 0");
            NS_TEST_EXPECT_MSG_EQ(w.GetDport(1), 100, "dport of flow 1");
            NS_TEST_EXPECT_MSG_EQ(w.GetPg(0), 3, "pg of flow 0");
            NS_TEST_EXPECT_MSG_EQ(w.GetDport(2), 0, "no such flow: 0");
            NS_TEST_EXPECT_MSG_EQ(std::string(NiccFlowKindName(w.GetKind(1))), "file", "kind");
            NS_TEST_EXPECT_MSG_EQ(nics.GetFlowRecords()[0].startNs, 3000, "absolute start");
            Simulator::Destroy();
        }
        {
            // Errors through the scenario: file:line kept; not for incast.
            const std::string bad = NiccWriteFile(dir, "bad.txt", "2\n0 5 3 100 1000 2\n1 9 3 100 1000 2\n");
            NiccScenarioResult r;
            NS_TEST_EXPECT_MSG_EQ(Run({"topology=file", "topology_file=" + topo, "flow_file=" + bad}, &r, &err),
                                  false, "switch id");
            NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "key 'flow_file': " + bad + ":3: field 'dst'"), true, err);
            NiccScenario s;
            NS_TEST_EXPECT_MSG_EQ(s.Select("incast", &err) && s.SetPair("flow_file=" + csv, &err) && s.Run(&r, &err),
                                  false, "incast takes no flow file");
            NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "flow_file"), true, err);
        }
        fs::remove_all(dir);
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
        AddTestCase(new FlowFileParseTest, TestCase::QUICK);
        AddTestCase(new FlowFileRunTest, TestCase::QUICK);
    }
};

NiccInputFilesTestSuite g_niccInputFilesTestSuite;

} // namespace
