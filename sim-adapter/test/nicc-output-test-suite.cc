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
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
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
        NS_TEST_ASSERT_MSG_EQ(s.p50Bytes, 901, "p50 = 5th of 10: 900, its bucket's top 901");
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
        // Reported as the top of the value's histogram bucket
        // (nicc-log-histogram.h): 900 is in [900, 901] (octave 512, width
        // 2), 1800 in [1800, 1803] (octave 1024, width 4); 1900 is the max.
        NS_TEST_ASSERT_MSG_EQ(s.p50Bytes, 901, "p50");
        NS_TEST_ASSERT_MSG_EQ(s.p95Bytes, 1803, "p95");
        NS_TEST_ASSERT_MSG_EQ(s.p99Bytes, 1900, "p99: the maximum, exact");
        // 1900 = (i * 7) % 20 * 100 at i = 17 (119 % 20 = 19).
        NS_TEST_ASSERT_MSG_EQ(s.maxTimeNs, 17000, "time of max");
        NS_TEST_ASSERT_MSG_EQ(s.drainNs, -1, "never 0 after i = 17 (i = 0, 20 only)");

        s = NiccComputeQueueStats({}, {}, 1000);
        NS_TEST_ASSERT_MSG_EQ(s.samples, 0, "empty series");
        NS_TEST_ASSERT_MSG_EQ(s.maxTimeNs, -1, "no time of max");
    }
};

// NiccLogHistogram against exact nearest-rank percentiles of the same
// values, on distributions a queue shows: small exact values, packet
// multiples, log-uniform bursts, a heavy tail, and the uint64 extremes.
class LogHistogramTest : public TestCase
{
  public:
    LogHistogramTest()
        : TestCase("log histogram: every percentile >= exact and < exact * (1 + 2^-8); exact below 256 and at max")
    {
    }

  private:
    static uint64_t Next(uint64_t* x) // splitmix64: fixed seed, any platform
    {
        uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }

    void Check(const std::string& name, std::vector<uint64_t> v)
    {
        NiccLogHistogram h;
        for (uint64_t x : v)
        {
            h.Add(x);
        }
        std::sort(v.begin(), v.end());
        NS_TEST_ASSERT_MSG_EQ(h.Count(), v.size(), name << ": count");
        NS_TEST_ASSERT_MSG_EQ(h.Max(), v.back(), name << ": max");
        NS_TEST_ASSERT_MSG_EQ(h.Percentile(1.0), v.back(), name << ": q = 1 is the max");
        double worst = 0;
        for (uint32_t i = 0; i <= 1000; ++i)
        {
            const double q = i / 1000.0;
            const uint64_t exact = v[NiccLogHistogram::NearestRank(v.size(), q)];
            const uint64_t got = h.Percentile(q);
            NS_TEST_ASSERT_MSG_GT_OR_EQ(got, exact, name << " q=" << q << ": never below");
            if (exact < NiccLogHistogram::kSub)
            {
                NS_TEST_ASSERT_MSG_EQ(got, exact, name << " q=" << q << ": exact below 256");
            }
            const double rel = exact ? (static_cast<double>(got) - static_cast<double>(exact)) / static_cast<double>(exact) : 0;
            NS_TEST_ASSERT_MSG_LT(rel, 1.0 / NiccLogHistogram::kSub, name << " q=" << q << ": within 2^-8");
            worst = std::max(worst, rel);
        }
        NS_TEST_ASSERT_MSG_LT_OR_EQ(h.Buckets(), NiccLogHistogram::kMaxBuckets, name << ": bounded");
        std::vector<uint64_t> ranks;
        for (uint64_t k = 0; k < v.size(); k += 1 + v.size() / 500)
        {
            ranks.push_back(k);
        }
        const std::vector<uint64_t> walk = h.ValuesAtRanks(ranks);
        for (size_t i = 0; i < ranks.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(walk[i], h.ValueAtRank(ranks[i]), name << ": one walk = rank by rank");
        }
        std::cout << "log histogram, " << name << ": " << v.size() << " values, " << h.Buckets()
                  << " counters, worst relative error " << worst << "\n";
    }

    void DoRun() override
    {
        uint64_t seed = 1;
        std::vector<uint64_t> small, packets, bursts, tail;
        for (uint32_t i = 0; i < 20000; ++i)
        {
            small.push_back(Next(&seed) % 300);
            packets.push_back((Next(&seed) % 400) * 1048 + (Next(&seed) % 3) * 64);
            bursts.push_back(static_cast<uint64_t>(std::exp2(static_cast<double>(Next(&seed) % 2400) / 100.0)));
            const double u = std::min(static_cast<double>(Next(&seed) >> 11) / 9007199254740992.0, 0.999999);
            tail.push_back(static_cast<uint64_t>(1000.0 / std::pow(1.0 - u, 1.2))); // Pareto
        }
        Check("uniform 0..299", small);
        Check("1048 B packets", packets);
        Check("log-uniform 1..2^24", bursts);
        Check("Pareto 1.2", tail);
        Check("extremes", {0, 1, 255, 256, 257, UINT64_MAX / 2, UINT64_MAX - 1, UINT64_MAX});

        // Merging two halves is the histogram of the whole; Counters/Assign
        // (the MPI reduction) keeps it.
        NiccLogHistogram a, b, all;
        for (size_t i = 0; i < packets.size(); ++i)
        {
            (i % 2 ? a : b).Add(packets[i]);
            all.Add(packets[i]);
        }
        a.Merge(b);
        NS_TEST_ASSERT_MSG_EQ((a == all), true, "merge of halves");
        NiccLogHistogram c;
        c.Assign(all.Counters(NiccLogHistogram::kMaxBuckets), all.Max());
        NS_TEST_ASSERT_MSG_EQ((c == all), true, "counters round trip");
        // Memory does not grow with the number of samples: a 10x longer
        // stream of the same distribution holds the same counters.
        NiccLogHistogram shortRun, longRun;
        uint64_t s1 = 7, s2 = 7;
        for (uint32_t i = 0; i < 100000; ++i)
        {
            shortRun.Add(Next(&s1) % 4000000);
        }
        for (uint32_t i = 0; i < 1000000; ++i)
        {
            longRun.Add(Next(&s2) % 4000000);
        }
        NS_TEST_ASSERT_MSG_EQ(longRun.Buckets(), shortRun.Buckets(), "same counters at 10x the samples");
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
        // queues.csv, streamed as sampled: every port's series, in time order.
        std::map<std::string, std::vector<int64_t>> times;
        std::map<std::string, std::vector<uint64_t>> lengths;
        std::ifstream q(r.spool->Path(NICC_QUEUES_CSV));
        std::string row;
        NS_TEST_ASSERT_MSG_EQ(static_cast<bool>(std::getline(q, row)), true, "queues.csv header");
        NS_TEST_ASSERT_MSG_EQ(row, "time_ns,switch,port,queue_bytes", "queues.csv header");
        int64_t lastNs = 0;
        while (std::getline(q, row))
        {
            long long t = 0;
            char sw[32] = {};
            unsigned port = 0;
            unsigned long long bytes = 0;
            NS_TEST_ASSERT_MSG_EQ(std::sscanf(row.c_str(), "%lld,%31[^,],%u,%llu", &t, sw, &port, &bytes), 4, row);
            NS_TEST_ASSERT_MSG_GT_OR_EQ(t, lastNs, "rows in time order");
            lastNs = t;
            const std::string key = std::string(sw) + ":" + std::to_string(port);
            times[key].push_back(t);
            lengths[key].push_back(bytes);
        }
        uint64_t peak = 0;
        for (const auto& p : r.monitoredPorts)
        {
            const std::string key = p.switchName + ":" + std::to_string(p.port);
            const std::vector<int64_t>& tn = times[key];
            NS_TEST_ASSERT_MSG_GT(tn.size(), 100, "sampled");
            NS_TEST_ASSERT_MSG_EQ(tn.front(), 2000, "first sample at monitor_start_us");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(tn.back(), 400000, "none after monitor_stop_us");
            NS_TEST_ASSERT_MSG_EQ(tn[1] - tn[0], 500, "period");
            // The streamed statistics against the file's series, exactly
            // where they are exact, within the histogram's bound elsewhere.
            const NiccQueueStats st = p.queue.Stats();
            const NiccQueueStats fromFile = NiccComputeQueueStats(tn, lengths[key], 1000);
            NS_TEST_ASSERT_MSG_EQ(st.samples, tn.size(), "one sample per row");
            NS_TEST_ASSERT_MSG_EQ(fromFile.maxBytes, st.maxBytes, "max");
            NS_TEST_ASSERT_MSG_EQ(fromFile.maxTimeNs, st.maxTimeNs, "time of the max");
            NS_TEST_ASSERT_MSG_EQ(fromFile.drainNs, st.drainNs, "drain time");
            std::vector<uint64_t> sorted = lengths[key];
            std::sort(sorted.begin(), sorted.end());
            const std::pair<double, uint64_t> pct[] = {{0.50, st.p50Bytes}, {0.95, st.p95Bytes}, {0.99, st.p99Bytes}};
            for (const auto& [qq, got] : pct)
            {
                const uint64_t exact = sorted[NiccLogHistogram::NearestRank(sorted.size(), qq)];
                NS_TEST_ASSERT_MSG_GT_OR_EQ(got, exact, key << " p" << qq * 100 << ": never below the exact value");
                NS_TEST_ASSERT_MSG_LT_OR_EQ(static_cast<double>(got),
                                            static_cast<double>(exact) * (1.0 + 1.0 / NiccLogHistogram::kSub),
                                            key << " p" << qq * 100 << ": within the stated bound");
            }
            NS_TEST_ASSERT_MSG_GT_OR_EQ(st.maxBytes, st.p99Bytes, "max >= p99");
            NS_TEST_ASSERT_MSG_GT_OR_EQ(st.p99Bytes, st.p95Bytes, "p99 >= p95");
            NS_TEST_ASSERT_MSG_GT_OR_EQ(st.p95Bytes, st.p50Bytes, "p95 >= p50");
            NS_TEST_ASSERT_MSG_GT_OR_EQ(st.maxTimeNs, tn.front(), "max inside the window");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(st.maxTimeNs, tn.back(), "max inside the window");
            peak = std::max(peak, st.maxBytes);
        }
        // The receiver's port (the last added) holds the incast queue.
        const NiccQueueStats rx = r.monitoredPorts.back().queue.Stats();
        NS_TEST_ASSERT_MSG_EQ(rx.maxBytes, peak, "the receiver port peaks highest");
        NS_TEST_ASSERT_MSG_GT(rx.maxBytes, 50000, "an incast queue");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(rx.drainNs, 0, "drained after the peak before 400 us");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(rx.maxBytes, r.queueMaxExact, "sampled max <= exact max");

        // PFC: every XOFF the switch sent was received by a sender's device
        // (pfc.csv, streamed as received).
        NS_TEST_ASSERT_MSG_GT(r.pauseFrames, 0, "the small buffer pauses");
        uint64_t xoffAtHosts = 0;
        uint64_t frames = 0;
        std::ifstream pfc(r.spool->Path("pfc.csv"));
        NS_TEST_ASSERT_MSG_EQ(static_cast<bool>(std::getline(pfc, row)), true, "pfc.csv header");
        while (std::getline(pfc, row))
        {
            unsigned long long t = 0;
            unsigned node = 0, port = 0, prio = 0, fromNode = 0, fromPort = 0;
            char type[8] = {};
            NS_TEST_ASSERT_MSG_EQ(std::sscanf(row.c_str(), "%llu,%u,%u,%u,%7[^,],%u,%u", &t, &node, &port, &prio,
                                              type, &fromNode, &fromPort),
                                  7, row);
            xoffAtHosts += std::string(type) == "XOFF" && node != r.monitoredPorts[0].node ? 1 : 0;
            ++frames;
            NS_TEST_ASSERT_MSG_EQ(fromNode, r.monitoredPorts[0].node, "sent by the switch");
        }
        NS_TEST_ASSERT_MSG_EQ(frames, r.pfcLog.frames, "every frame counted is in the file");
        NS_TEST_ASSERT_MSG_EQ(r.pfcLog.kept.size(), 0u, "streamed, none kept in memory");
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
        std::ifstream qlenFile(r.spool->Path(NICC_QLEN_SPOOL));
        const std::string qlen((std::istreambuf_iterator<char>(qlenFile)), std::istreambuf_iterator<char>());
        NS_TEST_ASSERT_MSG_EQ(qlen.rfind("time: ", 0), 0, "a dump at the last sample");
        NS_TEST_ASSERT_MSG_EQ(qlen.find("time: ", 1), std::string::npos, "only that one");
        NS_TEST_ASSERT_MSG_EQ(std::count(qlen.begin(), qlen.end(), '\n'), 10, "9 port lines");
    }
};

class NiccOutputTestSuite : public TestSuite
{
  public:
    NiccOutputTestSuite()
        : TestSuite("nicc-output", UNIT)
    {
        AddTestCase(new QueueStatsTest, TestCase::QUICK);
        AddTestCase(new LogHistogramTest, TestCase::QUICK);
        AddTestCase(new MonitorSpecTest, TestCase::QUICK);
        AddTestCase(new HpccFormatTest, TestCase::QUICK);
        AddTestCase(new HpccFctAnalysisTest, TestCase::QUICK);
        AddTestCase(new FileNodeIdTest, TestCase::QUICK);
        AddTestCase(new MonitorRunTest, TestCase::QUICK);
    }
};

NiccOutputTestSuite g_niccOutputTestSuite;

} // namespace
