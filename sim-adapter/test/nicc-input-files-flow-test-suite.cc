/*
 * nicc-input-files-flow-test-suite.cc — flow files ("nicc-input-files-flow";
 * topology files: nicc-input-files):
 *   - flow files (HPCC count + lines, CSV with a header): exact sizes and
 *     start times, ids mapped to hosts, every malformed line named by
 *     file:line and field;
 *   - runs on a topology file (HPCC flows at 2 s, sampling from the first
 *     start) and beside a permutation on leaf-spine, fat-tree and rail; a
 *     relative flow_file in a scenario file; dport and pg kept per flow;
 *     errors through the scenario keep file:line.
 * Inputs are written to a fresh temporary directory.
 *
 *   ./nicc-sim-test-runner --suite=nicc-input-files-flow --verbose
 */
#include "ns3/nicc-module.h"
#include "ns3/nicc-scenario-output.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "nicc-test-util.h"

using namespace ns3;

namespace
{

namespace fs = std::filesystem;

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
        const std::string topo = NiccWriteFile(dir, "clos.topo", kNiccClosTopo);
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
            // timeseries.csv, streamed as each window ended: its first row.
            std::ifstream ts(r.spool->Path(NICC_TIMESERIES_CSV));
            std::string header;
            double firstUs = 0;
            NS_TEST_ASSERT_MSG_EQ(static_cast<bool>(std::getline(ts, header) && ts >> firstUs), true, "rate windows");
            NS_TEST_EXPECT_MSG_EQ(r.seriesTimeUs.empty(), true, "streamed, not kept");
            NS_TEST_EXPECT_MSG_GT(firstUs, 2e6, "first rate window after 2 s");
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

class NiccInputFilesFlowTestSuite : public TestSuite
{
  public:
    NiccInputFilesFlowTestSuite()
        : TestSuite("nicc-input-files-flow", UNIT)
    {
        AddTestCase(new FlowFileParseTest, TestCase::QUICK);
        AddTestCase(new FlowFileRunTest, TestCase::QUICK);
    }
};

NiccInputFilesFlowTestSuite g_niccInputFilesFlowTestSuite;

} // namespace
