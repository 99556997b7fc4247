/*
 * nicc-hpcc-config-topo.cc — the HPCC config keys whose mapping reads the
 * topology file (nicc-hpcc-config-map.h): GLOBAL_T's T (the largest base
 * RTT), TRACE_FILE's switches, and the NIC rate PFC alpha scales against;
 * and NiccHpccPairs (nicc-hpcc-config.h), the base RTT and BDP of every
 * host pair as the simulator computes them.
 */
#include "nicc-hpcc-config-map.h"

#include "ns3/nicc-fabric-helper.h"

#include <algorithm>
#include <cstdint>
#include <fstream>

namespace ns3
{

std::vector<std::vector<NiccHpccPair>>
NiccHpccPairs(const NiccTopologySpec& spec, uint32_t payloadBytes)
{
    std::vector<std::vector<std::pair<uint32_t, const NiccTopologySpec::Link*>>> adj(spec.nodes);
    for (const auto& lk : spec.links)
    {
        adj[lk.a].emplace_back(lk.b, &lk);
        adj[lk.b].emplace_back(lk.a, &lk);
    }
    std::vector<uint32_t> index(spec.nodes, UINT32_MAX); // file id -> position in spec.hosts
    for (size_t i = 0; i < spec.hosts.size(); ++i)
    {
        index[spec.hosts[i]] = static_cast<uint32_t>(i);
    }
    const size_t n = spec.hosts.size();
    std::vector<std::vector<NiccHpccPair>> out(n, std::vector<NiccHpccPair>(n, NiccHpccPair{}));
    for (size_t i = 0; i < n; ++i)
    {
        // The simulator's CalculateRoute: BFS from the host, hosts do not
        // relay; each node keeps what its first-found parent gave it.
        const uint32_t h = spec.hosts[i];
        std::vector<bool> seen(spec.nodes, false);
        std::vector<uint64_t> delayNs(spec.nodes, 0);
        std::vector<uint64_t> txNs(spec.nodes, 0);
        std::vector<uint64_t> bps(spec.nodes, UINT64_MAX);
        std::vector<uint32_t> queue{h};
        seen[h] = true;
        for (size_t q = 0; q < queue.size(); ++q)
        {
            const uint32_t u = queue[q];
            if (u != h && !spec.isSwitch[u])
            {
                continue;
            }
            for (const auto& [v, lk] : adj[u])
            {
                if (seen[v])
                {
                    continue;
                }
                seen[v] = true;
                delayNs[v] = delayNs[u] + static_cast<uint64_t>(lk->delayPs) / 1000; // its time step: 1 ns
                // payload <= 9000 B (PACKET_PAYLOAD_SIZE): payload x 8e9 < 2^47.
                txNs[v] = txNs[u] + uint64_t{payloadBytes} * 8000000000ull / lk->bps;
                bps[v] = std::min(bps[u], lk->bps);
                queue.push_back(v);
            }
        }
        for (uint32_t o : spec.hosts)
        {
            if (o == h || !seen[o])
            {
                continue;
            }
            NiccHpccPair& p = out[i][index[o]];
            p.rttNs = 2 * delayNs[o] + txNs[o];
            // rtt x rate / 1e9 / 8 in 128 bits: a 1 ms RTT at 1.6 Tb/s is past 2^64.
            const unsigned __int128 bits = static_cast<unsigned __int128>(p.rttNs) * bps[o];
            const unsigned __int128 bdp = bits / 1000000000u / 8u;
            p.bdpBytes = bdp > UINT64_MAX ? UINT64_MAX : static_cast<uint64_t>(bdp);
        }
    }
    return out;
}

namespace hpcc_config
{

bool
HpccPairs(const Ctx& c, std::vector<std::vector<NiccHpccPair>>* pairs, std::string* why)
{
    NiccTopologySpec spec;
    if (!NiccFabricHelper::ParseTopologyFile(c.topologyPath, &spec, why))
    {
        return false;
    }
    *pairs = NiccHpccPairs(spec, c.payload);
    return true;
}

bool
LineFlag(const Ctx& c, const char* key, bool absent)
{
    const Line* l = c.Get(key);
    bool on = absent;
    std::string why;
    return l && Flag(*l, &on, &why) ? on : absent; // a bad value is its own row's error
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
        // DCQCN's window reads it (MapHasWin); otherwise it changes nothing.
        if (c->out->ccMode != 1 || !LineFlag(*c, "HAS_WIN", false))
        {
            c->Note(l, "applies to HPCC's T and DCQCN's window (HAS_WIN 1) only; no effect here");
        }
        return true;
    }
    if (!on)
    {
        *why = "0 (each host pair's own base RTT as T) is not implemented: nicc's HPCC has one T "
               "(hpcc.base_rtt_ns); use 1";
        return false;
    }
    // T: the largest base RTT of any host pair (third.cc maxRtt).
    std::vector<std::vector<NiccHpccPair>> pairs;
    if (!HpccPairs(*c, &pairs, why))
    {
        *why = "TOPOLOGY_FILE: " + *why;
        return false;
    }
    uint64_t rtt = 0;
    for (const auto& row : pairs)
    {
        for (const NiccHpccPair& p : row)
        {
            rtt = std::max(rtt, p.rttNs);
        }
    }
    c->baseRttNs = static_cast<double>(rtt);
    c->Set("hpcc.base_rtt_ns", std::to_string(rtt));
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
