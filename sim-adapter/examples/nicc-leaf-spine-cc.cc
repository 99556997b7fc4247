/*
 * nicc-leaf-spine-cc.cc — DCQCN against HPCC on a leaf-spine fabric.
 *
 * Two leaves, two spines, four hosts per leaf, every link 100 Gb/s. The
 * four hosts of leaf 0 each send one flow to host 0 of leaf 1 (a 4-to-1
 * incast across the spines) while host 1 of leaf 0 also sends a long flow
 * to host 1 of leaf 1 through the same spines. The same traffic runs once
 * per congestion control; the program prints each flow's completion time
 * (FCT) and the largest switch queue of each run, and exits 1 if a flow
 * did not complete.
 *
 *   ./nicc-leaf-spine-cc                        # 1 MB incast flows, 8 MB long flow
 *   ./nicc-leaf-spine-cc --size=200000 --long=2000000
 *
 * With 1 MB flows the incast queue passes DCQCN's ECN threshold (Kmin 400 KB
 * at 100 Gb/s) and reaches 1.26 MB; HPCC, reading each hop's queue and
 * utilization from INT, holds it near 470 KB and finishes every flow
 * sooner. With 200 KB flows the queue stays below Kmin: DCQCN never cuts
 * and HPCC, aiming at 95% utilization, is the slower one. Node ids are
 * printed (hosts of leaf 0 are nodes 3..6).
 *
 * The fabric comes from NiccFabricHelper (BuildLeafSpine installs the
 * routes), the NICs from NiccNicHelper: its Attribute CongestionControl
 * picks the engine's algorithm for every QP of the NIC.
 */
#include "ns3/command-line.h"
#include "ns3/nicc-module.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace ns3;

struct RunResult
{
    std::vector<NiccFlowRecord> flows;
    uint64_t maxQueue{0}; ///< largest egress queue of any switch, bytes
};

// One run: build the fabric, install NICs with `cc`, start the flows, run.
static RunResult
RunOnce(const std::string& cc, uint64_t size, uint64_t longSize)
{
    NiccFabricHelper fabric;
    NiccLeafSpineTopology t =
        fabric.BuildLeafSpine(2, 2, 4, DataRate("100Gbps"), DataRate("100Gbps"), MicroSeconds(1));

    NiccNicHelper nics;
    nics.SetNicAttribute("CongestionControl", StringValue(cc));
    std::string error;
    if (!nics.Install(t.hosts, &error))
    {
        std::fprintf(stderr, "nicc-leaf-spine-cc: %s\n", error.c_str());
        std::exit(2);
    }
    // Hosts 0..3 are leaf 0, 4..7 leaf 1.
    for (uint32_t i = 0; i < 4; ++i)
    {
        nics.AddFlow(t.hosts[i], t.hosts[4], size, MicroSeconds(10));
    }
    nics.AddFlow(t.hosts[1], t.hosts[5], longSize, Time(0));
    nics.StopWhenAllComplete();

    Simulator::Stop(MilliSeconds(50));
    Simulator::Run();
    RunResult r;
    r.flows = nics.GetFlowRecords();
    for (const auto& sw : fabric.GetSwitches())
    {
        r.maxQueue = std::max<uint64_t>(r.maxQueue, sw->GetMaxQueueBytes());
    }
    Simulator::Destroy();
    return r;
}

int
main(int argc, char* argv[])
{
    uint64_t size = 1000000;
    uint64_t longSize = 8000000;
    CommandLine cmd(__FILE__);
    cmd.AddValue("size", "Bytes of each incast flow", size);
    cmd.AddValue("long", "Bytes of the long flow", longSize);
    cmd.Parse(argc, argv);

    const RunResult dcqcn = RunOnce("dcqcn", size, longSize);
    const RunResult hpcc = RunOnce("hpcc", size, longSize);

    std::printf("nicc-leaf-spine-cc: 2 leaves x 2 spines x 4 hosts, 100 Gb/s\n");
    std::printf("%-6s %-9s %10s %14s %14s\n", "flow", "src->dst", "bytes", "DCQCN FCT us", "HPCC FCT us");
    for (size_t i = 0; i < dcqcn.flows.size(); ++i)
    {
        const NiccFlowRecord& d = dcqcn.flows[i];
        const NiccFlowRecord& h = hpcc.flows[i];
        std::printf("%-6u %3u->%-5u %10llu %14.1f %14.1f\n",
                    d.id,
                    d.src,
                    d.dst,
                    static_cast<unsigned long long>(d.sizeBytes),
                    d.fctNs / 1e3,
                    h.fctNs / 1e3);
    }
    std::printf("largest switch queue: DCQCN %llu B, HPCC %llu B\n",
                static_cast<unsigned long long>(dcqcn.maxQueue),
                static_cast<unsigned long long>(hpcc.maxQueue));
    for (const RunResult* r : {&dcqcn, &hpcc})
    {
        for (const NiccFlowRecord& f : r->flows)
        {
            if (f.fctNs < 0)
            {
                std::printf("flow %u did not complete\n", f.id);
                return 1;
            }
        }
    }
    return 0;
}
