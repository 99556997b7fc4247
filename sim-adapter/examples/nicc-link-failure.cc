/*
 * nicc-link-failure.cc — a fabric link fails and comes back.
 *
 * A leaf-spine of 2 leaves x 2 spines x 4 hosts at 100 Gb/s. Each host of
 * leaf 0 sends a long flow to its peer on leaf 1, spread over both spines
 * by ECMP. At 100 us the link leaf0-spine0 goes down: frames on it are
 * lost, and after `detect` the switches drop it from their ECMP groups
 * (routes recomputed over what is left). At 400 us it comes back and is
 * taken back `detect` later. Go-back-N on NACK and the retransmission
 * timeout recover what was lost.
 *
 * NiccFaultInjector (scenario layer, nicc-fault.h) does all of it from the
 * same fault syntax as nicc-sim's key `fault` (docs/faults.md): here
 * "link:leaf0-spine0@100,400". Prints what the fault cost (frames lost,
 * flows hit, their recovery time) and every flow's completion; exits 1 if
 * a flow did not complete or nothing was lost.
 *
 *   ./nicc-link-failure                         # 2 MB per flow, detect 5 us
 *   ./nicc-link-failure --detect=50us --size=4000000
 */
#include "ns3/command-line.h"
#include "ns3/nicc-module.h"
#include "ns3/node-list.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <cstdio>

using namespace ns3;

int
main(int argc, char* argv[])
{
    uint64_t size = 2000000;
    Time detect = MicroSeconds(5);
    std::string fault = "link:leaf0-spine0@100,400";
    CommandLine cmd(__FILE__);
    cmd.AddValue("size", "Bytes per flow", size);
    cmd.AddValue("detect", "Delay from a link's change to the reroute", detect);
    cmd.AddValue("fault", "Faults, in nicc-sim's 'fault' syntax (node names as below)", fault);
    cmd.Parse(argc, argv);

    NiccFabricHelper fabric;
    NiccLeafSpineTopology t =
        fabric.BuildLeafSpine(2, 2, 4, DataRate("100Gbps"), DataRate("100Gbps"), MicroSeconds(1));
    NiccNicHelper nics;
    nics.SetNicAttribute("CongestionControl", StringValue("dcqcn"));
    nics.SetNicAttribute("RetxTimeout", TimeValue(MicroSeconds(200)));
    std::string error;
    if (!nics.Install(t.hosts, &error))
    {
        std::fprintf(stderr, "nicc-link-failure: %s\n", error.c_str());
        return 2;
    }
    for (uint32_t i = 0; i < 4; ++i)
    {
        nics.AddFlow(t.hosts[i], t.hosts[4 + i], size, Time(0));
    }
    nics.StopWhenAllComplete();

    // Fault specs name nodes: name every node by its role and index.
    std::vector<std::string> names(NodeList::GetNNodes());
    for (size_t i = 0; i < t.leaves.size(); ++i)
    {
        names[t.leaves[i]->GetId()] = "leaf" + std::to_string(i);
    }
    for (size_t i = 0; i < t.spines.size(); ++i)
    {
        names[t.spines[i]->GetId()] = "spine" + std::to_string(i);
    }
    for (size_t i = 0; i < t.hosts.size(); ++i)
    {
        names[t.hosts[i]->GetId()] = "host" + std::to_string(i);
    }
    std::vector<NiccFaultSpec> specs;
    NiccFaultInjector faults(&fabric, detect, MicroSeconds(10));
    int64_t streams = 0;
    if (!NiccParseFaults(fault, "fault", false, &specs, &error) ||
        !faults.Install(specs, {}, 0.0, names, t.hosts, 0, &streams, &error))
    {
        std::fprintf(stderr, "nicc-link-failure: %s\n", error.c_str());
        return 2;
    }

    Simulator::Stop(MilliSeconds(50));
    Simulator::Run();
    std::vector<NiccFaultResult> results;
    NiccLinkLossTotals totals;
    NiccFaultThroughput throughput;
    faults.Finish(Simulator::Now(), &results, &totals, &throughput);

    std::printf("nicc-link-failure: 2 leaves x 2 spines x 4 hosts, %s, detect %lld us\n",
                fault.c_str(),
                static_cast<long long>(detect.GetMicroSeconds()));
    bool ok = true;
    for (const NiccFaultResult& f : results)
    {
        std::printf("  %s: down %.0f us, up %.0f us; %llu frames lost (%llu DATA), %u flows hit, "
                    "%u of %u measured recovered, recovery p50 %.1f us after the failure\n",
                    f.link.c_str(),
                    f.downUs,
                    f.upUs,
                    static_cast<unsigned long long>(f.lostPackets),
                    static_cast<unsigned long long>(f.lostDataPackets),
                    f.affectedFlows,
                    f.recoveredFlows,
                    f.measuredFlows,
                    f.recoveryP50Us);
        ok = ok && f.lostPackets > 0;
    }
    for (const NiccFlowRecord& r : nics.GetFlowRecords())
    {
        std::printf("  flow %u  host%u -> host%u  fct %.1f us\n",
                    r.id,
                    r.id,
                    4 + r.id,
                    r.fctNs / 1e3);
        ok = ok && r.fctNs >= 0;
    }
    Simulator::Destroy();
    return ok ? 0 : 1;
}
