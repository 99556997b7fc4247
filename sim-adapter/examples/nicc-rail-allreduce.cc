/*
 * nicc-rail-allreduce.cc — a ring all-reduce on a rail-optimized fabric.
 *
 * Servers with `rails` NICs each; NIC i of every server is on rail switch i
 * (NiccFabricHelper::BuildRail), as in GPU clusters where GPU i of each
 * server talks over its own NIC. A multi-rail collective library runs one
 * ring per rail, each reducing its share of the buffer: here NiccWorkload
 * starts the rings (NiccAllReduceRings "rail-local": ring i = NIC i of
 * every server) and reports each of the 2 (n - 1) steps.
 *
 * Prints the steps' durations and the all-reduce's algorithm bandwidth
 * (bytes / time) against the ideal, the rails' aggregate line rate over the
 * 2 (n - 1) / n bytes each NIC must send; exits 1 if the all-reduce did not
 * finish.
 *
 *   ./nicc-rail-allreduce                       # 4 servers x 4 rails, 16 MB
 *   ./nicc-rail-allreduce --servers=8 --bytes=64000000 --cc=hpcc
 */
#include "ns3/command-line.h"
#include "ns3/nicc-module.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <cstdio>

using namespace ns3;

int
main(int argc, char* argv[])
{
    uint32_t servers = 4;
    uint32_t rails = 4;
    uint64_t bytes = 16000000;
    std::string cc = "dcqcn";
    CommandLine cmd(__FILE__);
    cmd.AddValue("servers", "Servers (ring size)", servers);
    cmd.AddValue("rails", "NICs per server (rings)", rails);
    cmd.AddValue("bytes", "All-reduce buffer size in bytes", bytes);
    cmd.AddValue("cc", "Congestion control: none, dcqcn, hpcc", cc);
    cmd.Parse(argc, argv);

    NiccFabricHelper fabric;
    NiccRailParams p;
    p.hosts = servers;
    p.rails = rails;
    p.hostRate = DataRate("100Gbps");
    NiccRailTopology t = fabric.BuildRail(p);

    NiccNicHelper nics;
    nics.SetNicAttribute("CongestionControl", StringValue(cc));
    std::string error;
    if (!nics.Install(t.nics, &error))
    {
        std::fprintf(stderr, "nicc-rail-allreduce: %s\n", error.c_str());
        return 2;
    }
    // Ranks are indices into t.nics (server h's NIC i is h * rails + i):
    // servers are the groups, the rails the positions within one.
    NiccWorkload work(&nics, t.nics);
    const auto rings = NiccAllReduceRings("rail-local", servers, rails);
    // The simulation ends when the last step does (or at 1 s).
    if (!work.StartRingAllReduce(rings, bytes, Time(0), "allreduce", [] { Simulator::Stop(); }))
    {
        std::fprintf(stderr, "nicc-rail-allreduce: needs at least 2 servers\n");
        return 2;
    }
    Simulator::Stop(Seconds(1));
    Simulator::Run();

    const NiccCollectiveResult c = work.GetCollectives().at(0);
    std::printf("nicc-rail-allreduce: %u servers x %u rails at 100 Gb/s, %llu B, cc %s, %zu rings\n",
                servers,
                rails,
                static_cast<unsigned long long>(bytes),
                cc.c_str(),
                rings.size());
    for (size_t k = 0; k < c.steps.size(); ++k)
    {
        std::printf("  step %2zu  %8.1f us\n", k, (c.steps[k].endNs - c.steps[k].startNs) / 1e3);
    }
    const bool done = c.Done();
    if (done)
    {
        // Each NIC sends 2 (n - 1) / n of its ring's share; the rails run in parallel.
        const double n = servers;
        const double idealNs = 2 * (n - 1) / n * (static_cast<double>(bytes) / rails) * 8 / 100e9 * 1e9;
        std::printf("  all-reduce %.1f us, ideal %.1f us (%.2f x); algorithm bandwidth %.1f Gb/s\n",
                    c.TotalNs() / 1e3,
                    idealNs / 1e3,
                    c.TotalNs() / idealNs,
                    static_cast<double>(bytes) * 8 / c.TotalNs());
    }
    else
    {
        std::printf("  all-reduce did not finish: %zu of %u steps\n", c.steps.size(), c.stepsPlanned);
    }
    Simulator::Destroy();
    return done ? 0 : 1;
}
