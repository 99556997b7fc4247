/*
 * nicc-output-test-suite.cc — tests of the run outputs ("nicc-output"):
 *   - per-port queue statistics (p50 / p95 / p99 / max, time of max, drain
 *     time) against hand-computed series;
 *   - the `monitor` spec: names, node ids, SWITCH:*, host-facing, all,
 *     duplicates once; errors name the item and the field;
 *   - the HPCC simulator's formats: IPs from node ids, base RTT and
 *     standalone FCT (exact for a 5 GB flow), sport per source host in
 *     start order, dport 100 / 200, fct.txt and pfc.txt lines;
 *   - fct_analysis.py's convention on a hand-made list of flows;
 *   - topology=file: ns-3 node ids equal the file's ids;
 *   - an incast run with monitor=switch:*: series inside the window,
 *     consistent statistics, the receiver port's peak, PFC frames recorded
 *     at the paused devices, fct.txt one line per completed flow.
 * ~1 s in total (Release).
 */
#include "ns3/nicc-module.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace ns3;

namespace
{

class QueueStatsTest : public TestCase
{
  public:
    QueueStatsTest()
        : TestCase("queue statistics: nearest-rank percentiles, first time of max, drain from the peak")
    {
    }

  private:
    void DoRun() override
    {
        // A burst: up to 8000 B at 300 ns (again at 400), at or below 1000 B
        // at 600 ns, empty at 800 ns.
        const std::vector<int64_t> t = {0, 100, 200, 300, 400, 500, 600, 700, 800, 900};
        const std::vector<uint64_t> q = {0, 500, 3000, 8000, 8000, 4000, 900, 2000, 0, 100};
        NiccQueueStats s = NiccComputeQueueStats(t, q, 1000);
        // Sorted: 0 0 100 500 900 2000 3000 4000 8000 8000; rank ceil(q * 10).
        NS_TEST_ASSERT_MSG_EQ(s.samples, 10, "samples");
        NS_TEST_ASSERT_MSG_EQ(s.p50Bytes, 900, "p50 = 5th of 10");
        NS_TEST_ASSERT_MSG_EQ(s.p95Bytes, 8000, "p95 = 10th");
        NS_TEST_ASSERT_MSG_EQ(s.maxBytes, 8000, "max");
        NS_TEST_ASSERT_MSG_EQ(s.maxTimeNs, 300, "first sample at the max");
        NS_TEST_ASSERT_MSG_EQ(s.drainNs, 300, "900 B at 600 ns, 300 ns after the peak");
        NS_TEST_ASSERT_MSG_EQ(NiccComputeQueueStats(t, q, 0).drainNs, 500, "empty at 800 ns");
        NS_TEST_ASSERT_MSG_EQ(NiccComputeQueueStats(t, q, 8000).drainNs, 0, "the peak itself");

        // 20 samples 0, 100, ..., 1900 out of order: p50 = 10th = 900,
        // p95 = 19th = 1800, p99 = 20th = 1900.
        std::vector<int64_t> t2;
        std::vector<uint64_t> q2;
        for (uint32_t i = 0; i < 20; ++i)
        {
            t2.push_back(i * 1000);
            q2.push_back(((i * 7) % 20) * 100);
        }
        s = NiccComputeQueueStats(t2, q2, 0);
        NS_TEST_ASSERT_MSG_EQ(s.p50Bytes, 900, "p50");
        NS_TEST_ASSERT_MSG_EQ(s.p95Bytes, 1800, "p95");
        NS_TEST_ASSERT_MSG_EQ(s.p99Bytes, 1900, "p99");
        // 1900 = (i * 7) % 20 * 100 at i = 17 (119 % 20 = 19).
        NS_TEST_ASSERT_MSG_EQ(s.maxTimeNs, 17000, "time of max");
        NS_TEST_ASSERT_MSG_EQ(s.drainNs, -1, "never 0 after i = 17 (i = 0, 20 only)");

        s = NiccComputeQueueStats({}, {}, 1000);
        NS_TEST_ASSERT_MSG_EQ(s.samples, 0, "empty series");
        NS_TEST_ASSERT_MSG_EQ(s.maxTimeNs, -1, "no time of max");
    }
};

class MonitorSpecTest : public TestCase
{
  public:
    MonitorSpecTest()
        : TestCase("monitor spec: names, node ids, SWITCH:*, host-facing, all; errors name item and field")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<NiccMonitorSwitch> sws = {{4, "leaf0", {true, true, false}}, {5, "spine0", {false, false}}};
        std::vector<NiccMonitorPortId> p;
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(NiccParseMonitorSpec("leaf0:2", sws, &p, &err), true, err);
        NS_TEST_ASSERT_MSG_EQ(p.size(), 1, "one port");
        NS_TEST_ASSERT_MSG_EQ(p[0].sw * 10 + p[0].port, 2, "leaf0 port 2");
        NS_TEST_ASSERT_MSG_EQ(NiccParseMonitorSpec("5:1, leaf0:1,leaf0:1", sws, &p, &err), true, err);
        NS_TEST_ASSERT_MSG_EQ(p.size(), 2, "duplicates once");
        NS_TEST_ASSERT_MSG_EQ(p[0].sw * 10 + p[0].port, 11, "node id 5 = spine0, first");
        NS_TEST_ASSERT_MSG_EQ(p[1].sw * 10 + p[1].port, 1, "then leaf0:1");
        NS_TEST_ASSERT_MSG_EQ(NiccParseMonitorSpec("leaf0:*", sws, &p, &err), true, err);
        NS_TEST_ASSERT_MSG_EQ(p.size(), 3, "every port of leaf0");
        NS_TEST_ASSERT_MSG_EQ(NiccParseMonitorSpec("host-facing", sws, &p, &err), true, err);
        NS_TEST_ASSERT_MSG_EQ(p.size(), 2, "leaf0 ports 0 and 1 face hosts");
        NS_TEST_ASSERT_MSG_EQ(p[1].port, 1, "in port order");
        NS_TEST_ASSERT_MSG_EQ(NiccParseMonitorSpec("all", sws, &p, &err), true, err);
        NS_TEST_ASSERT_MSG_EQ(p.size(), 5, "every switch port");

        struct Bad
        {
            const char* spec;
            const char* want;
        };
        for (const Bad& b : {Bad{"leaf9:1", "item 1 'leaf9:1': field SWITCH"},
                             Bad{"leaf0:1,leaf0:3", "item 2 'leaf0:3': field PORT: leaf0 has 3 ports"},
                             Bad{"leaf0:x", "field PORT: 'x'"},
                             Bad{"leaf0", "expected SWITCH:PORT"},
                             Bad{"leaf0:1,,leaf0:2", "item 2 '': empty"},
                             Bad{"7:0", "no switch named or numbered '7'"}})
        {
            err.clear();
            NS_TEST_ASSERT_MSG_EQ(NiccParseMonitorSpec(b.spec, sws, &p, &err), false, b.spec);
            NS_TEST_ASSERT_MSG_NE(err.find("key 'monitor'"), std::string::npos, err);
            NS_TEST_ASSERT_MSG_NE(err.find(b.want), std::string::npos, err);
        }
    }
};

class HpccFormatTest : public TestCase
{
  public:
    HpccFormatTest()
        : TestCase("HPCC formats: IP from node id, standalone FCT, sport per source, fct.txt, pfc.txt")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(NiccHpccIp(0), 0x0b000001u, "node 0");
        NS_TEST_ASSERT_MSG_EQ(NiccHpccIp(257), 0x0b010101u, "node 257: + 0x10000 + 0x100");
        NS_TEST_ASSERT_MSG_EQ(((NiccHpccIp(300) >> 8) & 0xffff), 300, "node id = (ip >> 8) & 0xffff");

        // 2 links of 1 us at 100 Gb/s, 1000-byte payloads: 2 * 2000 + 2 * 80.
        const int64_t rtt = NiccHpccBaseRttNs(2000.0, {100e9, 100e9}, 1000);
        NS_TEST_ASSERT_MSG_EQ(rtt, 4160, "base RTT");
        // 1000 B: 1032 wire bytes = 82.56 ns -> 82; 2500 B: 3 packets, 2596 B = 207.68 -> 207.
        NS_TEST_ASSERT_MSG_EQ(NiccHpccStandaloneFctNs(1000, 1000, 32, rtt, 100000000000ull), 4160 + 82, "1 packet");
        NS_TEST_ASSERT_MSG_EQ(NiccHpccStandaloneFctNs(2500, 1000, 32, rtt, 100000000000ull), 4160 + 207, "3 packets");
        // 5e9 B: 5e6 packets, 5.16e9 wire bytes = 412.8 ms exactly (no 64-bit overflow).
        NS_TEST_ASSERT_MSG_EQ(NiccHpccStandaloneFctNs(5000000000ull, 1000, 32, 0, 100000000000ull), 412800000,
                              "5 GB");

        const std::vector<uint8_t> kinds = {static_cast<uint8_t>(NiccFlowKind::POISSON),
                                            static_cast<uint8_t>(NiccFlowKind::INCAST),
                                            static_cast<uint8_t>(NiccFlowKind::ALLREDUCE)};
        const std::vector<uint32_t> d = NiccFlowDports(kinds, 3, false);
        NS_TEST_ASSERT_MSG_EQ(d[0] * 10000 + d[1] * 10 + d[2] / 100, 1002001, "100, 200, 100");
        NS_TEST_ASSERT_MSG_EQ(NiccFlowDports({}, 2, true)[1], 200, "incast scenario: every flow");

        NiccScenarioResult r;
        //           id src dst size  start fct
        const auto dc = nicc::hal::CcKind::kDcqcn;
        r.flows = {{0, 1, 3, 1000, 100, 5000, 0, nullptr, 0, dc},
                   {1, 1, 3, 2000, 50, -1, 0, nullptr, 0, dc},
                   {2, 2, 3, 3000, 0, 9000, 0, nullptr, 0, dc},
                   {3, 1, 257, 4000, 100, 1000, 0, nullptr, 0, dc}};
        const std::vector<uint16_t> sp = NiccHpccSports(r.flows);
        // Start order: 2 (src 2), 1, 0, 3 (src 1, 0 and 3 tie at 100: by id).
        NS_TEST_ASSERT_MSG_EQ(sp[2], 10000, "first of host 2");
        NS_TEST_ASSERT_MSG_EQ(sp[1], 10000, "first of host 1");
        NS_TEST_ASSERT_MSG_EQ(sp[0], 10001, "second of host 1");
        NS_TEST_ASSERT_MSG_EQ(sp[3], 10002, "third of host 1, whatever its destination");
        r.standaloneFctNs = {111, 222, 333, 444};
        r.flowDport = {100, 100, 200, 100};
        std::ostringstream fct;
        NiccWriteHpccFct(fct, r);
        // Completion order: flow 3 at 1100, flow 0 at 5100, flow 2 at 9000; flow 1 never.
        NS_TEST_ASSERT_MSG_EQ(fct.str(),
                              "0b000101 0b010101 10002 100 4000 100 1000 444\n"
                              "0b000101 0b000301 10001 100 1000 100 5000 111\n"
                              "0b000201 0b000301 10000 200 3000 0 9000 333\n",
                              "fct.txt");

        const std::vector<NiccPfcEvent> ev = {{1500, 2, 0, 0, 1, true, 4, 3}, {2500, 4, 1, 7, 1, false, 5, 0}};
        std::ostringstream txt;
        std::ostringstream csv;
        NiccWriteHpccPfc(txt, ev);
        NiccWritePfcCsv(csv, ev);
        NS_TEST_ASSERT_MSG_EQ(txt.str(), "1500 2 0 1 1\n2500 4 1 8 0\n", "pfc.txt: ifindex = port + 1");
        NS_TEST_ASSERT_MSG_EQ(csv.str(),
                              "time_ns,node,port,priority,type,from_node,from_port\n"
                              "1500,2,0,1,XOFF,4,3\n2500,4,7,1,XON,5,0\n",
                              "pfc.csv");
    }
};

class HpccFctAnalysisTest : public TestCase
{
  public:
    HpccFctAnalysisTest()
        : TestCase("fct_analysis.py convention: by dport, clamp at 1, largest dropped, a[int(n * p)]")
    {
    }

  private:
    void DoRun() override
    {
        // (size, fct, standalone, dport): slowdowns 1 (clamped from 0.5), 3,
        // 2, 5, 4, 1, 9, 7 for background sizes 100..800; one incast flow.
        const std::vector<NiccHpccFctFlow> f = {{100, 50, 100, 100},  {200, 300, 100, 100}, {300, 200, 100, 100},
                                                {400, 500, 100, 100}, {500, 400, 100, 100}, {600, 100, 100, 100},
                                                {700, 900, 100, 100}, {800, 700, 100, 100}, {150, 1000, 100, 200}};
        // Background: 800 dropped, n = 7; step 50: [0, 3) and [3, 7).
        auto b = NiccHpccFctAnalysis(f, NiccHpccFlowType::BACKGROUND, 50);
        NS_TEST_ASSERT_MSG_EQ(b.size(), 2, "two buckets");
        NS_TEST_ASSERT_MSG_EQ(b[0].flows, 3, "3 flows");
        NS_TEST_ASSERT_MSG_EQ(b[0].sizeBytes, 300, "last size of bucket 0");
        NS_TEST_ASSERT_MSG_EQ(b[0].p50, 2.0, "{1, 2, 3}[1]");
        NS_TEST_ASSERT_MSG_EQ(b[0].p95, 3.0, "{1, 2, 3}[int(2.85)]");
        NS_TEST_ASSERT_MSG_EQ(b[1].startPercent, 50, "second bucket");
        NS_TEST_ASSERT_MSG_EQ(b[1].flows, 4, "4 flows");
        NS_TEST_ASSERT_MSG_EQ(b[1].sizeBytes, 700, "800 was dropped");
        NS_TEST_ASSERT_MSG_EQ(b[1].p50, 5.0, "{1, 4, 5, 9}[2]");
        NS_TEST_ASSERT_MSG_EQ(b[1].p99, 9.0, "{1, 4, 5, 9}[3]");
        // All: the incast flow (150 B, slowdown 10) joins bucket 0: [0, 4).
        b = NiccHpccFctAnalysis(f, NiccHpccFlowType::ALL, 50);
        NS_TEST_ASSERT_MSG_EQ(b[0].flows, 4, "4 flows");
        NS_TEST_ASSERT_MSG_EQ(b[0].p50, 3.0, "{1, 2, 3, 10}[2]");
        NS_TEST_ASSERT_MSG_EQ(b[0].p95, 10.0, "{1, 2, 3, 10}[3]");
        // Incast: one flow, dropped as the largest: nothing.
        NS_TEST_ASSERT_MSG_EQ(NiccHpccFctAnalysis(f, NiccHpccFlowType::INCAST, 5).size(), 0, "empty");
        // Step 5 over 7 flows: only non-empty buckets, each flow once.
        b = NiccHpccFctAnalysis(f, NiccHpccFlowType::BACKGROUND, 5);
        uint32_t total = 0;
        for (const auto& x : b)
        {
            total += x.flows;
        }
        NS_TEST_ASSERT_MSG_EQ(total, 7, "every kept flow in one bucket");
    }
};

class FileNodeIdTest : public TestCase
{
  public:
    FileNodeIdTest()
        : TestCase("topology file: ns-3 node ids are the file's ids, which fct.txt and pfc.txt use")
    {
    }

  private:
    void DoRun() override
    {
        const std::filesystem::path p = std::filesystem::temp_directory_path() / "nicc-output-ids.topo";
        // Switches 0 and 5, hosts 1-4 and 6: ids interleaved.
        std::ofstream(p) << "7 2 6\n0 5\n1 0 100Gbps 1us 0\n2 0 100Gbps 1us 0\n0 5 100Gbps 1us 0\n"
                            "3 5 100Gbps 1us 0\n4 5 100Gbps 1us 0\n6 5 100Gbps 1us 0\n";
        NiccTopologySpec spec;
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(NiccFabricHelper::ParseTopologyFile(p.string(), &spec, &err), true, err);
        NiccFabricHelper fabric;
        NiccFileTopology t = fabric.BuildFromSpec(spec);
        for (uint32_t n = 0; n < spec.nodes; ++n)
        {
            NS_TEST_ASSERT_MSG_EQ(t.node[n]->GetId(), n, "node id = file id");
            NS_TEST_ASSERT_MSG_EQ((DynamicCast<NiccSwitchNode>(t.node[n]) != nullptr), spec.isSwitch[n], "type");
        }
        Simulator::Destroy();
        std::filesystem::remove(p);
    }
};

class MonitorRunTest : public TestCase
{
  public:
    MonitorRunTest()
        : TestCase("incast with monitor=switch:*: series in the window, consistent statistics, PFC frames")
    {
    }

  private:
    void DoRun() override
    {
        NiccScenario s;
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(s.Select("incast", &err), true, err);
        // 8 x 200 KB into one port through a 400 KB buffer: PFC pauses.
        for (const char* kv : {"senders=8", "size_bytes=200000", "buffer_bytes=400000", "cc=dcqcn", "stop_ms=5",
                               "monitor=switch:*", "monitor_start_us=2", "monitor_stop_us=400",
                               "monitor_period_ns=500", "qlen_mon_file=qlen.txt"})
        {
            NS_TEST_ASSERT_MSG_EQ(s.SetPair(kv, &err), true, err);
        }
        NiccScenarioResult r;
        NS_TEST_ASSERT_MSG_EQ(s.Run(&r, &err), true, err);
        NS_TEST_ASSERT_MSG_EQ(r.monitoredPorts.size(), 9, "8 sender ports + the receiver port");
        uint64_t peak = 0;
        for (const auto& p : r.monitoredPorts)
        {
            NS_TEST_ASSERT_MSG_EQ(p.timeNs.size(), p.queueBytes.size(), "one length per time");
            NS_TEST_ASSERT_MSG_GT(p.timeNs.size(), 100, "sampled");
            NS_TEST_ASSERT_MSG_EQ(p.timeNs.front(), 2000, "first sample at monitor_start_us");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(p.timeNs.back(), 400000, "none after monitor_stop_us");
            NS_TEST_ASSERT_MSG_EQ(p.timeNs[1] - p.timeNs[0], 500, "period");
            const NiccQueueStats st = NiccComputeQueueStats(p.timeNs, p.queueBytes, 1000);
            NS_TEST_ASSERT_MSG_GT_OR_EQ(st.maxBytes, st.p99Bytes, "max >= p99");
            NS_TEST_ASSERT_MSG_GT_OR_EQ(st.p99Bytes, st.p95Bytes, "p99 >= p95");
            NS_TEST_ASSERT_MSG_GT_OR_EQ(st.p95Bytes, st.p50Bytes, "p95 >= p50");
            NS_TEST_ASSERT_MSG_GT_OR_EQ(st.maxTimeNs, p.timeNs.front(), "max inside the window");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(st.maxTimeNs, p.timeNs.back(), "max inside the window");
            peak = std::max(peak, st.maxBytes);
        }
        // The receiver's port (the last added) holds the incast queue.
        const NiccQueueStats rx = NiccComputeQueueStats(r.monitoredPorts.back().timeNs,
                                                        r.monitoredPorts.back().queueBytes, 1000);
        NS_TEST_ASSERT_MSG_EQ(rx.maxBytes, peak, "the receiver port peaks highest");
        NS_TEST_ASSERT_MSG_GT(rx.maxBytes, 50000, "an incast queue");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(rx.drainNs, 0, "drained after the peak before 400 us");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(rx.maxBytes, r.queueMaxExact, "sampled max <= exact max");

        // PFC: every XOFF the switch sent was received by a sender's device.
        NS_TEST_ASSERT_MSG_GT(r.pauseFrames, 0, "the small buffer pauses");
        uint64_t xoffAtHosts = 0;
        for (const auto& e : r.pfcEvents)
        {
            xoffAtHosts += (e.pause && e.nodeType == 0) ? 1 : 0;
            NS_TEST_ASSERT_MSG_EQ(e.fromNode, r.monitoredPorts[0].node, "sent by the switch");
        }
        NS_TEST_ASSERT_MSG_EQ(xoffAtHosts, r.pauseFrames, "received = sent");

        // fct.txt: one line per completed flow, IPs of the flow's nodes.
        std::ostringstream fct;
        NiccWriteHpccFct(fct, r);
        std::istringstream in(fct.str());
        std::string line;
        uint32_t lines = 0;
        while (std::getline(in, line))
        {
            uint32_t sip = 0;
            uint32_t dip = 0;
            uint32_t sport = 0;
            uint32_t dport = 0;
            NS_TEST_ASSERT_MSG_EQ(std::sscanf(line.c_str(), "%x %x %u %u", &sip, &dip, &sport, &dport), 4, line);
            NS_TEST_ASSERT_MSG_EQ(sport, 10000, "one flow per sender");
            NS_TEST_ASSERT_MSG_EQ(dport, 200, "incast");
            NS_TEST_ASSERT_MSG_EQ(((dip >> 8) & 0xffff), r.flows[0].dst, "the receiver");
            ++lines;
        }
        NS_TEST_ASSERT_MSG_EQ(lines, r.Completed(), "completed flows");
        NS_TEST_ASSERT_MSG_EQ(r.Completed(), 8, "all done");
        // qlen: a dump at the window's end, one line per port after it.
        // (The run ends when the flows are done, before monitor_stop_us.)
        NS_TEST_ASSERT_MSG_EQ(r.qlenMonText.rfind("time: ", 0), 0, "a dump at the last sample");
        NS_TEST_ASSERT_MSG_EQ(r.qlenMonText.find("time: ", 1), std::string::npos, "only that one");
        NS_TEST_ASSERT_MSG_EQ(std::count(r.qlenMonText.begin(), r.qlenMonText.end(), '\n'), 10, "9 port lines");
    }
};

class NiccOutputTestSuite : public TestSuite
{
  public:
    NiccOutputTestSuite()
        : TestSuite("nicc-output", UNIT)
    {
        AddTestCase(new QueueStatsTest, TestCase::QUICK);
        AddTestCase(new MonitorSpecTest, TestCase::QUICK);
        AddTestCase(new HpccFormatTest, TestCase::QUICK);
        AddTestCase(new HpccFctAnalysisTest, TestCase::QUICK);
        AddTestCase(new FileNodeIdTest, TestCase::QUICK);
        AddTestCase(new MonitorRunTest, TestCase::QUICK);
    }
};

NiccOutputTestSuite g_niccOutputTestSuite;

} // namespace
