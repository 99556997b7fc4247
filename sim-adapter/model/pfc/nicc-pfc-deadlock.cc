/*
 * nicc-pfc-deadlock.cc — NiccPfcDeadlockDetector: wait-for graph of paused
 * egress queues and an iterative depth-first cycle search.
 */
#include "nicc-pfc-deadlock.h"

#include "nicc-mpi.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cstring>
#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NiccPfcDeadlock");

void
NiccPfcDeadlockDetector::Start(const std::vector<Ptr<NiccSwitchNode>>& switches,
                               const std::vector<std::string>& names,
                               Time period,
                               Time stop)
{
    m_switches = switches;
    m_names = names;
    m_period = period;
    m_stop = stop;
    std::map<const NiccNetDevice*, std::pair<uint32_t, uint32_t>> where;
    m_base.clear();
    uint32_t total = 0;
    for (uint32_t s = 0; s < switches.size(); ++s)
    {
        m_base.push_back(total);
        for (uint32_t p = 0; p < switches[s]->GetNPorts(); ++p)
        {
            where[PeekPointer(switches[s]->GetPort(p))] = {s, p};
        }
        total += switches[s]->GetNPorts();
    }
    m_ports.assign(total, Port{});
    for (uint32_t s = 0; s < switches.size(); ++s)
    {
        for (uint32_t p = 0; p < switches[s]->GetNPorts(); ++p)
        {
            Ptr<NiccNetDevice> peer = switches[s]->GetPort(p)->GetPeer();
            auto it = peer ? where.find(PeekPointer(peer)) : where.end();
            if (it != where.end())
            {
                m_ports[m_base[s] + p] = Port{static_cast<int32_t>(it->second.first), it->second.second};
            }
        }
    }
    if (m_names.size() != switches.size())
    {
        m_names.clear();
        for (const Ptr<NiccSwitchNode>& sw : switches)
        {
            m_names.push_back("sw" + std::to_string(sw->GetId()));
        }
    }
    Simulator::Schedule(period, &NiccPfcDeadlockDetector::Periodic, this);
}

void
NiccPfcDeadlockDetector::Periodic()
{
    Check();
    if (Simulator::Now() + m_period <= m_stop)
    {
        Simulator::Schedule(m_period, &NiccPfcDeadlockDetector::Periodic, this);
    }
}

void
NiccPfcDeadlockDetector::OwnGraph(uint8_t cls, std::vector<uint64_t>* vertex, std::vector<uint8_t>* edges) const
{
    const uint32_t rank = NiccMpi::Rank();
    vertex->assign(m_ports.size(), 0);
    // Vertices: stopped egress queues towards a switch.
    for (uint32_t s = 0; s < m_switches.size(); ++s)
    {
        for (uint32_t p = 0; rank == m_switches[s]->GetSystemId() && p < m_switches[s]->GetNPorts(); ++p)
        {
            Ptr<NiccNetDevice> d = m_switches[s]->GetPort(p);
            (*vertex)[m_base[s] + p] = cls < d->GetNumClasses() && m_ports[m_base[s] + p].peerSw >= 0 &&
                                       d->IsPaused(cls) && d->GetQueuePackets(cls) > 0;
        }
    }
    // Edges v = (S, p) -> w = (N, e) when N's egress e is a vertex holding
    // a packet that entered N on q, the port facing S (v's own vertex bit is
    // on S's rank: the edge is kept if both ends are vertices).
    uint32_t metas[SCAN_DEPTH];
    std::vector<uint8_t> in;
    for (uint32_t t = 0; t < m_switches.size(); ++t)
    {
        Ptr<NiccSwitchNode> nsw = m_switches[t];
        for (uint32_t e = 0; rank == nsw->GetSystemId() && e < nsw->GetNPorts(); ++e)
        {
            const uint32_t w = m_base[t] + e;
            if (!(*vertex)[w])
            {
                continue;
            }
            in.assign(nsw->GetNPorts(), 0);
            const uint32_t k = nsw->GetPort(e)->PeekQueueMeta(cls, metas, SCAN_DEPTH);
            for (uint32_t i = 0; i < k; ++i)
            {
                const uint32_t q = metas[i] & NiccSwitchNode::META_PORT_MASK;
                if (q < in.size())
                {
                    in[q] = 1;
                }
            }
            for (uint32_t q = 0; q < in.size(); ++q)
            {
                const Port& link = m_ports[m_base[t] + q];
                if (in[q] && link.peerSw >= 0)
                {
                    const uint32_t vw[2] = {m_base[link.peerSw] + link.peerPort, w};
                    const auto* b = reinterpret_cast<const uint8_t*>(vw);
                    edges->insert(edges->end(), b, b + sizeof vw);
                }
            }
        }
    }
}

bool
NiccPfcDeadlockDetector::Check()
{
    ++m_checks;
    const uint32_t n = static_cast<uint32_t>(m_ports.size());
    bool found = false;
    for (uint8_t cls = 1; cls < NiccNetDevice::MAX_CLASSES; ++cls)
    {
        // Under MPI each rank sees its own switches: it finds their vertices
        // and the edges into them; rank 0 gets every rank's and looks for a
        // cycle (every rank checks at the same times, and each makes the
        // same collective calls: NiccMpi). One process: the same graph, the
        // edges in the same order.
        std::vector<uint64_t> vertex;
        std::vector<uint8_t> edges;
        OwnGraph(cls, &vertex, &edges);
        NiccMpi::SumToRoot(&vertex);
        edges = NiccMpi::GatherToRoot(edges);
        if (found || NiccMpi::Rank() != 0 || std::all_of(vertex.begin(), vertex.end(), [](uint64_t x) { return x == 0; }))
        {
            continue;
        }
        std::vector<std::vector<uint32_t>> adj(n);
        for (std::size_t at = 0; at + 2 * sizeof(uint32_t) <= edges.size(); at += 2 * sizeof(uint32_t))
        {
            uint32_t vw[2];
            std::memcpy(vw, &edges[at], sizeof vw);
            if (vertex[vw[0]] && vertex[vw[1]])
            {
                adj[vw[0]].push_back(vw[1]);
            }
        }
        for (auto& a : adj)
        {
            std::sort(a.begin(), a.end()); // by the far switch's port, as one process finds them
        }
        found = FindCycle(cls, vertex, adj);
    }
    return found;
}

bool
NiccPfcDeadlockDetector::FindCycle(uint8_t cls,
                                   const std::vector<uint64_t>& vertex,
                                   const std::vector<std::vector<uint32_t>>& adj)
{
    const uint32_t n = static_cast<uint32_t>(adj.size());
    // Iterative DFS: 0 white, 1 on the stack, 2 done.
    std::vector<uint8_t> colour(n, 0);
    std::vector<uint32_t> parent(n, 0);
    std::vector<std::pair<uint32_t, uint32_t>> stack;
    for (uint32_t root = 0; root < n; ++root)
    {
        if (!vertex[root] || colour[root])
        {
            continue;
        }
        stack.push_back({root, 0});
        colour[root] = 1;
        while (!stack.empty())
        {
            auto& [v, next] = stack.back();
            if (next == adj[v].size())
            {
                colour[v] = 2;
                stack.pop_back();
                continue;
            }
            const uint32_t w = adj[v][next++];
            if (colour[w] == 0)
            {
                colour[w] = 1;
                parent[w] = v;
                stack.push_back({w, 0});
            }
            else if (colour[w] == 1)
            {
                // Back edge v -> w: the cycle is w .. v along parents.
                ++m_detections;
                if (m_first.at.IsNegative())
                {
                    std::vector<uint32_t> cyc;
                    for (uint32_t x = v; x != w; x = parent[x])
                    {
                        cyc.push_back(x);
                    }
                    cyc.push_back(w);
                    m_first.at = Simulator::Now();
                    m_first.cls = cls;
                    for (auto it = cyc.rbegin(); it != cyc.rend(); ++it)
                    {
                        uint32_t s = 0;
                        while (s + 1 < m_base.size() && m_base[s + 1] <= *it)
                        {
                            ++s;
                        }
                        m_first.ports.push_back(m_names[s] + ":" + std::to_string(*it - m_base[s]));
                    }
                    NS_LOG_WARN("PFC deadlock: cycle of " << cyc.size() << " paused queues at "
                                                         << Simulator::Now().As(Time::US));
                }
                return true;
            }
        }
    }
    return false;
}

} // namespace ns3
