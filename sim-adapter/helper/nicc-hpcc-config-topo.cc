/*
 * nicc-hpcc-config-topo.cc — the HPCC config keys whose mapping reads the
 * topology file (nicc-hpcc-config-map.h): GLOBAL_T's T (the largest base
 * RTT), TRACE_FILE's switches, and the NIC rate PFC alpha scales against.
 */
#include "nicc-hpcc-config-map.h"

#include "ns3/nicc-fabric-helper.h"

#include <algorithm>
#include <cmath>
#include <fstream>

namespace ns3
{
namespace hpcc_config
{

/// Largest base RTT of any host pair as the simulator computes it for
/// GLOBAL_T: 2 x the summed link delays + one payload's transmission time
/// on every link of a shortest (fewest links) path, ns.
bool
MaxBaseRttNs(const Ctx& c, double* rttNs, std::string* why)
{
    NiccTopologySpec spec;
    if (!NiccFabricHelper::ParseTopologyFile(c.topologyPath, &spec, why))
    {
        return false;
    }
    std::vector<std::vector<std::pair<uint32_t, const NiccTopologySpec::Link*>>> adj(spec.nodes);
    for (const auto& lk : spec.links)
    {
        adj[lk.a].emplace_back(lk.b, &lk);
        adj[lk.b].emplace_back(lk.a, &lk);
    }
    double worst = 0;
    for (uint32_t h : spec.hosts)
    {
        std::vector<int32_t> dist(spec.nodes, -1);
        std::vector<double> ns(spec.nodes, 0.0);
        std::vector<uint32_t> queue{h};
        dist[h] = 0;
        for (size_t i = 0; i < queue.size(); ++i)
        {
            const uint32_t u = queue[i];
            if (u != h && !spec.isSwitch[u])
            {
                continue; // hosts do not relay
            }
            for (const auto& [v, lk] : adj[u])
            {
                if (dist[v] < 0)
                {
                    dist[v] = dist[u] + 1;
                    ns[v] = ns[u] + 2.0 * static_cast<double>(lk->delayPs) / 1000.0 +
                            c.payload * 8.0e9 / static_cast<double>(lk->bps);
                    queue.push_back(v);
                }
            }
        }
        for (uint32_t o : spec.hosts)
        {
            if (o != h && dist[o] > 0)
            {
                worst = std::max(worst, ns[o]);
            }
        }
    }
    *rttNs = worst;
    return true;
}

bool
MapGlobalT(const Line& l, Ctx* c, std::string* why)
{
    bool on;
    if (!Flag(l, &on, why))
    {
        return false;
    }
    if (!Hpcc(*c))
    {
        c->Note(l, "applies to HPCC's T only; no effect with this CC_MODE");
        return true;
    }
    if (!on)
    {
        *why = "0 (each host pair's own base RTT as T) is not implemented: nicc's HPCC has one T "
               "(hpcc.base_rtt_ns); use 1";
        return false;
    }
    double rtt;
    if (!MaxBaseRttNs(*c, &rtt, why))
    {
        *why = "TOPOLOGY_FILE: " + *why;
        return false;
    }
    c->baseRttNs = std::round(rtt);
    c->Set("hpcc.base_rtt_ns", std::to_string(static_cast<uint64_t>(c->baseRttNs)));
    return true;
}

bool
MapTraceFile(const Line& l, Ctx* c, std::string* why)
{
    if (!c->trace)
    {
        return true;
    }
    std::string p;
    if (!InputFile(l, c, &p, why))
    {
        return false;
    }
    // The count, then that many node ids (ids past the last node are
    // skipped, as the simulator does); its switches are monitored.
    std::ifstream in(p);
    uint64_t n = 0;
    if (!(in >> n))
    {
        *why = p + ":1: expected the number of nodes to trace";
        return false;
    }
    NiccTopologySpec spec;
    if (!NiccFabricHelper::ParseTopologyFile(c->topologyPath, &spec, why))
    {
        *why = "TOPOLOGY_FILE: " + *why;
        return false;
    }
    std::string mon;
    for (uint64_t i = 0; i < n; ++i)
    {
        uint64_t id;
        if (!(in >> id))
        {
            *why = p + ": declares " + std::to_string(n) + " node ids and has " + std::to_string(i);
            return false;
        }
        if (id < spec.isSwitch.size() && spec.isSwitch[id])
        {
            mon += (mon.empty() ? "" : ",") + std::to_string(id) + ":*";
        }
    }
    if (!mon.empty())
    {
        c->Set("monitor", mon);
    }
    c->Note(l, "nicc writes no packet-level trace (mix.tr); the queues of the switches listed here are "
               "monitored instead (queues.csv, per-port statistics in summary.json)");
    return true;
}

/// The simulator scales each switch port's PFC alpha with the port's rate
/// over the NIC rate (its pfc_a_shift): the NIC rate is the first host's link.
bool
SetAlphaReference(Ctx* c, std::string* error)
{
    NiccTopologySpec spec;
    if (!NiccFabricHelper::ParseTopologyFile(c->topologyPath, &spec, error))
    {
        return false;
    }
    const uint32_t firstHost = spec.hosts.empty() ? 0 : spec.hosts.front();
    for (const auto& lk : spec.links)
    {
        if (lk.a == firstHost || lk.b == firstHost)
        {
            c->Set("pfc_alpha_ref_rate", std::to_string(lk.bps) + "bps");
            return true;
        }
    }
    return true;
}

} // namespace hpcc_config
} // namespace ns3
