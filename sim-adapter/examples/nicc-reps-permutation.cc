/*
 * nicc-reps-permutation.cc — REPS packet spraying against ECMP on a
 * permutation.
 *
 * A leaf-spine of 4 leaves x 4 spines x 4 hosts (100 Gb/s everywhere, so
 * the fabric is not oversubscribed). Every host sends one flow to the host
 * with the same position one leaf over (host i -> host (i + 4) mod 16), all
 * at once: a permutation that a perfect fabric carries at line rate. With
 * ECMP each flow hashes onto one spine and some spines get two flows; with
 * REPS (recycled entropy packet spraying, the engine's spray policy "reps")
 * each packet picks its path, so the load spreads over the spines.
 *
 * Prints, per policy, the last flow's completion time over the ideal one
 * (the bytes at line rate) and how many packets arrived ahead of their
 * turn; exits 1 if a flow did not complete or REPS was not faster.
 *
 *   ./nicc-reps-permutation                    # 1 MB per flow
 *   ./nicc-reps-permutation --size=4000000
 *
 * Spraying needs entropy values to spray over (SprayEvBits: 2^4 = 16 here;
 * the engine's spray profile has 0, i.e. one path) and a receiver that
 * places out-of-order packets (Recovery SelectiveRepeat).
 */
#include "ns3/command-line.h"
#include "ns3/integer.h"
#include "ns3/nicc-module.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <algorithm>
#include <cstdio>

using namespace ns3;

struct PolicyResult
{
    int64_t lastFctNs{-1}; ///< -1: a flow did not complete
    uint64_t outOfOrder{0};
    uint64_t delivered{0};
};

static void
CountOoo(uint64_t* n, uint32_t /* distance */)
{
    ++*n;
}

static void
CountDelivered(uint64_t* n, uint32_t /* src */, uint32_t /* qpn */, uint32_t /* psn */, uint32_t /* bytes */)
{
    ++*n;
}

static PolicyResult
RunPolicy(const std::string& policy, uint64_t size)
{
    NiccFabricHelper fabric;
    NiccLeafSpineTopology t =
        fabric.BuildLeafSpine(4, 4, 4, DataRate("100Gbps"), DataRate("100Gbps"), MicroSeconds(1));
    NiccNicHelper nics;
    nics.SetNicAttribute("CongestionControl", StringValue("dcqcn"));
    nics.SetNicAttribute("SprayPolicy", StringValue(policy));
    nics.SetNicAttribute("SprayEvBits", IntegerValue(4));
    nics.SetNicAttribute("Recovery", StringValue("SelectiveRepeat"));
    std::string error;
    if (!nics.Install(t.hosts, &error))
    {
        std::fprintf(stderr, "nicc-reps-permutation: %s\n", error.c_str());
        std::exit(2);
    }
    PolicyResult r;
    const uint32_t n = static_cast<uint32_t>(t.hosts.size());
    for (uint32_t i = 0; i < n; ++i)
    {
        nics.AddFlow(t.hosts[i], t.hosts[(i + 4) % n], size, Time(0));
        Ptr<NiccNic> nic = NiccNicHelper::GetNic(t.hosts[i]);
        nic->TraceConnectWithoutContext("OutOfOrder", MakeBoundCallback(&CountOoo, &r.outOfOrder));
        nic->TraceConnectWithoutContext("Deliver", MakeBoundCallback(&CountDelivered, &r.delivered));
    }
    nics.StopWhenAllComplete();
    Simulator::Stop(MilliSeconds(100));
    Simulator::Run();
    r.lastFctNs = 0;
    for (const NiccFlowRecord& f : nics.GetFlowRecords())
    {
        r.lastFctNs = f.fctNs < 0 || r.lastFctNs < 0 ? -1 : std::max(r.lastFctNs, f.fctNs);
    }
    Simulator::Destroy();
    return r;
}

int
main(int argc, char* argv[])
{
    uint64_t size = 1000000;
    CommandLine cmd(__FILE__);
    cmd.AddValue("size", "Bytes per flow", size);
    cmd.Parse(argc, argv);

    const double idealNs = static_cast<double>(size) * 8 / 100e9 * 1e9;
    std::printf("nicc-reps-permutation: 16 hosts, 4 leaves x 4 spines, %llu B per flow, ideal %.1f us\n",
                static_cast<unsigned long long>(size),
                idealNs / 1e3);
    PolicyResult res[2];
    const char* policies[2] = {"ecmp", "reps"};
    for (int k = 0; k < 2; ++k)
    {
        res[k] = RunPolicy(policies[k], size);
        if (res[k].lastFctNs < 0)
        {
            std::printf("  %-5s a flow did not complete\n", policies[k]);
            return 1;
        }
        std::printf("  %-5s last flow %8.1f us = %.2f x ideal; %llu of %llu packets arrived out of order\n",
                    policies[k],
                    res[k].lastFctNs / 1e3,
                    res[k].lastFctNs / idealNs,
                    static_cast<unsigned long long>(res[k].outOfOrder),
                    static_cast<unsigned long long>(res[k].delivered));
    }
    return res[1].lastFctNs < res[0].lastFctNs ? 0 : 1;
}
