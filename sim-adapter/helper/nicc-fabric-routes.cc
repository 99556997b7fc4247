/*
 * nicc-fabric-routes.cc — NiccFabricHelper::InstallRoutes: shortest-path
 * next hops of every switch towards every host over the routed links (one
 * breadth-first search per edge switch; docs/sim-fabric.md "Routing").
 */
#include "nicc-fabric-helper.h"

#include "ns3/nicc-channel.h"
#include "ns3/node-list.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <map>
#include <vector>

namespace ns3
{

namespace
{

constexpr uint32_t ROUTE_INF = std::numeric_limits<uint32_t>::max();
using Adjacency = std::vector<std::vector<std::pair<uint32_t, uint32_t>>>; ///< node -> (neighbour, port)

// Hop distances from `src` over links that are routed; hosts other than
// src do not relay.
void
RouteDistances(uint32_t src, const Adjacency& adj, const std::vector<bool>& isSwitch, std::vector<uint32_t>* dist)
{
    std::fill(dist->begin(), dist->end(), ROUTE_INF);
    (*dist)[src] = 0;
    std::deque<uint32_t> frontier(1, src);
    while (!frontier.empty())
    {
        const uint32_t u = frontier.front();
        frontier.pop_front();
        if (u != src && !isSwitch[u])
        {
            continue;
        }
        for (const auto& [v, port] : adj[u])
        {
            if ((*dist)[v] == ROUTE_INF)
            {
                (*dist)[v] = (*dist)[u] + 1;
                frontier.push_back(v);
            }
        }
    }
}

// The ports of node s towards every neighbour one hop closer, in link order.
std::vector<uint32_t>
CloserPorts(uint32_t s, const Adjacency& adj, const std::vector<uint32_t>& dist)
{
    std::vector<uint32_t> ports;
    for (const auto& [v, port] : adj[s])
    {
        if (dist[v] != ROUTE_INF && dist[v] + 1 == dist[s])
        {
            ports.push_back(port);
        }
    }
    return ports;
}

} // namespace

void
NiccFabricHelper::InstallRoutes()
{
    const uint32_t nNodes = NodeList::GetNNodes();
    Adjacency adj(nNodes);
    std::vector<bool> isSwitch(nNodes, false);
    for (const auto& sw : m_switches)
    {
        sw->ClearRoutes();
        isSwitch[sw->GetId()] = true;
    }
    for (const Link& l : m_links)
    {
        if (m_unrouted.count(PeekPointer(l.channel)) > 0)
        {
            continue; // failed link, removed from routing (SetLinkRouted)
        }
        adj[l.a->GetId()].emplace_back(l.b->GetId(), l.portA);
        adj[l.b->GetId()].emplace_back(l.a->GetId(), l.portB);
    }
    // A host whose routed links all go to one switch E is, from every other
    // switch, as far as E plus one: its shortest paths are E's. So one
    // search per edge switch serves all its hosts (the same next hops, in
    // the same order, as a search from each host); E itself sends to the
    // host's own links. Other hosts (on several switches) get a search each.
    std::map<uint32_t, std::vector<uint32_t>> hostsOf; // edge switch id -> its hosts, in host order
    std::vector<uint32_t> alone;
    for (const auto& host : m_hosts)
    {
        const uint32_t h = host->GetId();
        const auto& links = adj[h];
        const bool single = !links.empty() && isSwitch[links[0].first] &&
                            std::all_of(links.begin(), links.end(),
                                        [&](const auto& e) { return e.first == links[0].first; });
        (single ? hostsOf[links[0].first] : alone).push_back(h);
    }
    std::vector<uint32_t> dist(nNodes);
    for (const auto& [edge, hosts] : hostsOf)
    {
        RouteDistances(edge, adj, isSwitch, &dist);
        for (const auto& sw : m_switches)
        {
            const uint32_t s = sw->GetId();
            if (s == edge)
            {
                for (uint32_t h : hosts)
                {
                    std::vector<uint32_t> ports;
                    for (const auto& [v, port] : adj[s])
                    {
                        if (v == h)
                        {
                            ports.push_back(port);
                        }
                    }
                    sw->SetRoute(h, ports);
                }
            }
            else if (dist[s] != ROUTE_INF)
            {
                const uint16_t group = sw->InternRouteGroup(CloserPorts(s, adj, dist));
                for (uint32_t h : hosts)
                {
                    sw->SetRouteGroup(h, group);
                }
            }
        }
    }
    for (uint32_t h : alone)
    {
        RouteDistances(h, adj, isSwitch, &dist);
        for (const auto& sw : m_switches)
        {
            if (dist[sw->GetId()] != ROUTE_INF)
            {
                sw->SetRoute(h, CloserPorts(sw->GetId(), adj, dist));
            }
        }
    }
}

} // namespace ns3
