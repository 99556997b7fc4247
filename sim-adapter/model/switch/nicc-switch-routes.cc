/*
 * nicc-switch-routes.cc — NiccSwitchNode's routing table and egress choice:
 * per destination node a 2-byte index into the switch's distinct next-hop
 * sets, and the pick among them by ECMP hash, per-packet spray or least
 * queue (nicc-switch-node.h).
 */
#include "nicc-hash.h"
#include "nicc-rocev2-header.h"
#include "nicc-switch-node.h"

#include "ns3/abort.h"

namespace ns3
{

namespace
{
constexpr uint8_t UDP_PROTOCOL = 17;
} // namespace

void
NiccSwitchNode::AddRoute(uint32_t dst, uint32_t port)
{
    std::vector<uint32_t> ports = GetRoute(dst);
    ports.push_back(port);
    SetRoute(dst, ports);
}

void
NiccSwitchNode::SetRoute(uint32_t dst, const std::vector<uint32_t>& ports)
{
    SetRouteGroup(dst, InternRouteGroup(ports));
}

uint16_t
NiccSwitchNode::InternRouteGroup(const std::vector<uint32_t>& ports)
{
    auto [it, added] = m_routeGroupIndex.emplace(ports, static_cast<uint16_t>(m_routeGroups.size()));
    if (added)
    {
        NS_ABORT_MSG_IF(m_routeGroups.size() > UINT16_MAX, "more than 65535 distinct next-hop sets in one switch");
        m_routeGroups.push_back(ports);
    }
    return it->second;
}

void
NiccSwitchNode::SetRouteGroup(uint32_t dst, uint16_t group)
{
    if (m_routeOf.size() <= dst)
    {
        m_routeOf.resize(dst + 1, 0);
    }
    m_routeOf[dst] = group;
}

void
NiccSwitchNode::ClearRoutes()
{
    m_routeOf.clear();
    m_routeGroups.assign(1, {}); // group 0: no route
    m_routeGroupIndex.clear();
    m_routeGroupIndex.emplace(std::vector<uint32_t>{}, 0);
}

uint64_t
NiccSwitchNode::EcmpHash(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport) const
{
    uint64_t x = NiccMix64((static_cast<uint64_t>(m_ecmpSeed) << 32) ^ src);
    x = NiccMix64(x ^ (static_cast<uint64_t>(dst) << 24) ^ UDP_PROTOCOL);
    x = NiccMix64(x ^ (static_cast<uint64_t>(sport) << 16) ^ dport);
    return x;
}

uint64_t
NiccSwitchNode::EcmpHash(const NiccRoceHeader& h) const
{
    return EcmpHash(h.GetSrc(), h.GetDst(), h.GetSport(), h.GetDport());
}

uint32_t
NiccSwitchNode::SelectEgressPort(const NiccRoceHeader& h)
{
    return SelectEgressPort(h.GetSrc(), h.GetDst(), h.GetSport(), h.GetDport());
}

uint32_t
NiccSwitchNode::SelectEgressPort(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport)
{
    const std::vector<uint32_t>& hops = GetRoute(dst);
    const uint32_t n = static_cast<uint32_t>(hops.size());
    if (n == 1)
    {
        return hops[0];
    }
    switch (m_mode)
    {
    case SPRAY:
        return hops[m_rng->GetInteger(0, n - 1)];
    case LEAST_QUEUE: {
        const uint32_t start = static_cast<uint32_t>(EcmpHash(src, dst, sport, dport) % n);
        uint32_t best = hops[start];
        uint64_t bestBytes = m_ports[best]->GetTotalQueueBytes();
        for (uint32_t k = 1; k < n; ++k)
        {
            const uint32_t port = hops[(start + k) % n];
            const uint64_t bytes = m_ports[port]->GetTotalQueueBytes();
            if (bytes < bestBytes)
            {
                best = port;
                bestBytes = bytes;
            }
        }
        return best;
    }
    case ECMP:
    default:
        return hops[EcmpHash(src, dst, sport, dport) % n];
    }
}

} // namespace ns3
