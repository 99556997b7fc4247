/*
 * nicc-fabric-helper.cc — NiccFabricHelper: node and link creation, BFS
 * equal-cost routing, stock topologies, topology files.
 */
#include "nicc-fabric-helper.h"

#include "ns3/abort.h"
#include "ns3/nicc-channel.h"
#include "ns3/node-list.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

namespace ns3
{

NiccFabricHelper::NiccFabricHelper()
{
    m_deviceFactory.SetTypeId("ns3::NiccNetDevice");
    m_channelFactory.SetTypeId("ns3::NiccChannel");
    m_switchFactory.SetTypeId("ns3::NiccSwitchNode");
    m_mmuFactory.SetTypeId("ns3::NiccSwitchMmu");
    m_endpointFactory.SetTypeId("ns3::NiccTestEndpoint");
}

void
NiccFabricHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
    if (name == "NumClasses")
    {
        m_mmuFactory.Set(name, value);
    }
}

void
NiccFabricHelper::SetChannelAttribute(const std::string& name, const AttributeValue& value)
{
    m_channelFactory.Set(name, value);
}

void
NiccFabricHelper::SetSwitchAttribute(const std::string& name, const AttributeValue& value)
{
    m_switchFactory.Set(name, value);
    m_seedSet = m_seedSet || name == "EcmpSeed";
}

void
NiccFabricHelper::SetMmuAttribute(const std::string& name, const AttributeValue& value)
{
    m_mmuFactory.Set(name, value);
}

void
NiccFabricHelper::SetEndpointAttribute(const std::string& name, const AttributeValue& value)
{
    m_endpointFactory.Set(name, value);
}

Ptr<NiccSwitchNode>
NiccFabricHelper::CreateSwitch()
{
    Ptr<NiccSwitchNode> sw = m_switchFactory.Create<NiccSwitchNode>();
    sw->SetMmu(m_mmuFactory.Create<NiccSwitchMmu>());
    if (!m_seedSet)
    {
        sw->SetAttribute("EcmpSeed", UintegerValue(sw->GetId()));
    }
    m_switches.push_back(sw);
    return sw;
}

Ptr<Node>
NiccFabricHelper::CreateHost()
{
    Ptr<Node> host = CreateObject<Node>();
    m_hosts.push_back(host);
    return host;
}

std::pair<Ptr<NiccNetDevice>, Ptr<NiccNetDevice>>
NiccFabricHelper::Connect(Ptr<Node> a, Ptr<Node> b, DataRate rate, Time delay)
{
    Ptr<NiccChannel> ch = m_channelFactory.Create<NiccChannel>();
    ch->SetAttribute("Delay", TimeValue(delay));
    Link link{a, b, 0, 0, delay, ch};
    Ptr<NiccNetDevice> devs[2];
    Ptr<Node> nodes[2] = {a, b};
    uint32_t* ports[2] = {&link.portA, &link.portB};
    for (int k = 0; k < 2; ++k)
    {
        devs[k] = m_deviceFactory.Create<NiccNetDevice>();
        devs[k]->SetAttribute("DataRate", DataRateValue(rate));
        devs[k]->Attach(ch);
        Ptr<NiccSwitchNode> sw = DynamicCast<NiccSwitchNode>(nodes[k]);
        if (sw)
        {
            *ports[k] = sw->AddPort(devs[k]); // after Attach: headroom needs the delay
        }
        else
        {
            nodes[k]->AddDevice(devs[k]);
        }
    }
    m_links.push_back(link);
    return {devs[0], devs[1]};
}

void
NiccFabricHelper::SetLinkRouted(Ptr<NiccChannel> ch, bool routed)
{
    if (routed)
    {
        m_unrouted.erase(PeekPointer(ch));
    }
    else
    {
        m_unrouted.insert(PeekPointer(ch));
    }
}

std::vector<Ptr<NiccChannel>>
NiccFabricHelper::FindLinks(Ptr<Node> a, Ptr<Node> b) const
{
    std::vector<Ptr<NiccChannel>> out;
    for (const Link& l : m_links)
    {
        if ((l.a == a && l.b == b) || (l.a == b && l.b == a))
        {
            out.push_back(l.channel);
        }
    }
    return out;
}

std::vector<Ptr<NiccChannel>>
NiccFabricHelper::GetChannels() const
{
    std::vector<Ptr<NiccChannel>> out;
    for (const Link& l : m_links)
    {
        out.push_back(l.channel);
    }
    return out;
}

Ptr<NiccTestEndpoint>
NiccFabricHelper::InstallTestEndpoint(Ptr<Node> host)
{
    for (uint32_t i = 0; i < host->GetNDevices(); ++i)
    {
        Ptr<NiccNetDevice> dev = DynamicCast<NiccNetDevice>(host->GetDevice(i));
        if (dev)
        {
            Ptr<NiccTestEndpoint> ep = m_endpointFactory.Create<NiccTestEndpoint>();
            ep->Install(dev);
            host->AggregateObject(ep);
            return ep;
        }
    }
    NS_ABORT_MSG("host " << host->GetId() << " has no NiccNetDevice");
    return nullptr;
}

NiccIncastTopology
NiccFabricHelper::BuildIncast(uint32_t senders, DataRate rate, Time delay)
{
    NiccIncastTopology t;
    t.sw = CreateSwitch();
    for (uint32_t i = 0; i < senders; ++i)
    {
        Ptr<Node> h = CreateHost();
        t.senders.push_back(h);
        t.senderDevices.push_back(Connect(h, t.sw, rate, delay).first);
    }
    t.receiver = CreateHost();
    t.receiverDevice = Connect(t.receiver, t.sw, rate, delay).first;
    InstallRoutes();
    return t;
}

NiccLeafSpineTopology
NiccFabricHelper::BuildLeafSpine(uint32_t leaves,
                                 uint32_t spines,
                                 uint32_t hostsPerLeaf,
                                 DataRate hostRate,
                                 DataRate fabricRate,
                                 Time delay)
{
    NiccLeafSpineTopology t;
    for (uint32_t s = 0; s < spines; ++s)
    {
        t.spines.push_back(CreateSwitch());
    }
    for (uint32_t l = 0; l < leaves; ++l)
    {
        Ptr<NiccSwitchNode> leaf = CreateSwitch();
        t.leaves.push_back(leaf);
        for (uint32_t k = 0; k < hostsPerLeaf; ++k)
        {
            Ptr<Node> h = CreateHost();
            t.hosts.push_back(h);
            t.hostDevices.push_back(Connect(h, leaf, hostRate, delay).first);
        }
        t.uplinks.emplace_back();
        for (uint32_t s = 0; s < spines; ++s)
        {
            t.uplinks.back().push_back(Connect(leaf, t.spines[s], fabricRate, delay).first);
        }
    }
    InstallRoutes();
    return t;
}

NiccFatTreeParams
NiccFatTreeParams::Hpcc()
{
    NiccFatTreeParams p;
    p.pods = 5;
    p.torsPerPod = 4;
    p.aggsPerPod = 4;
    p.cores = 16;
    p.hostsPerTor = 16;
    p.hostRate = DataRate("100Gbps");
    p.fabricRate = DataRate("400Gbps");
    p.delay = MicroSeconds(1);
    p.bufferBytes = 32000000;
    return p;
}

NiccFatTreeTopology
NiccFabricHelper::BuildFatTree(const NiccFatTreeParams& p)
{
    NS_ABORT_MSG_IF(p.pods == 0 || p.torsPerPod == 0 || p.aggsPerPod == 0 || p.cores == 0,
                    "fat-tree: pods, torsPerPod, aggsPerPod and cores must be > 0");
    if (p.bufferBytes > 0)
    {
        SetMmuAttribute("BufferSize", UintegerValue(p.bufferBytes));
    }
    NiccFatTreeTopology t;
    for (uint32_t c = 0; c < p.cores; ++c)
    {
        t.cores.push_back(CreateSwitch());
    }
    const bool striped = p.cores % p.aggsPerPod == 0;
    const uint32_t group = striped ? p.cores / p.aggsPerPod : p.cores;
    for (uint32_t pod = 0; pod < p.pods; ++pod)
    {
        for (uint32_t j = 0; j < p.aggsPerPod; ++j)
        {
            Ptr<NiccSwitchNode> agg = CreateSwitch();
            t.aggs.push_back(agg);
            const uint32_t first = striped ? j * group : 0;
            for (uint32_t c = first; c < first + group; ++c)
            {
                Connect(agg, t.cores[c], p.fabricRate, p.delay);
            }
        }
        for (uint32_t i = 0; i < p.torsPerPod; ++i)
        {
            Ptr<NiccSwitchNode> tor = CreateSwitch();
            t.tors.push_back(tor);
            for (uint32_t k = 0; k < p.hostsPerTor; ++k)
            {
                Ptr<Node> h = CreateHost();
                t.hosts.push_back(h);
                t.hostDevices.push_back(Connect(h, tor, p.hostRate, p.delay).first);
            }
            for (uint32_t j = 0; j < p.aggsPerPod; ++j)
            {
                Connect(tor, t.aggs[pod * p.aggsPerPod + j], p.fabricRate, p.delay);
            }
        }
    }
    InstallRoutes();
    return t;
}

NiccFatTreeTopology
NiccFabricHelper::BuildHpccFatTree()
{
    return BuildFatTree(NiccFatTreeParams::Hpcc());
}

NiccRailTopology
NiccFabricHelper::BuildRail(const NiccRailParams& p)
{
    NS_ABORT_MSG_IF(p.rails == 0, "rail: rails must be > 0");
    if (p.bufferBytes > 0)
    {
        SetMmuAttribute("BufferSize", UintegerValue(p.bufferBytes));
    }
    NiccRailTopology t;
    t.rails = p.rails;
    for (uint32_t s = 0; s < p.spines; ++s)
    {
        t.spines.push_back(CreateSwitch());
    }
    for (uint32_t i = 0; i < p.rails; ++i)
    {
        Ptr<NiccSwitchNode> rail = CreateSwitch();
        t.railSwitches.push_back(rail);
        for (uint32_t s = 0; s < p.spines; ++s)
        {
            Connect(rail, t.spines[s], p.fabricRate, p.delay);
        }
    }
    t.nics.resize(static_cast<size_t>(p.hosts) * p.rails);
    t.nicDevices.resize(t.nics.size());
    for (uint32_t h = 0; h < p.hosts; ++h)
    {
        for (uint32_t i = 0; i < p.rails; ++i)
        {
            Ptr<Node> nic = CreateHost();
            t.nics[h * p.rails + i] = nic;
            t.nicDevices[h * p.rails + i] = Connect(nic, t.railSwitches[i], p.hostRate, p.delay).first;
        }
    }
    if (p.nvlinkRate.GetBitRate() > 0)
    {
        // After every fabric node: the fabric's node ids (addresses, ECMP
        // seeds) are those of a rail fabric without NVLink.
        t.gpus.resize(t.nics.size());
        t.gpuDevices.resize(t.nics.size());
        for (uint32_t h = 0; h < p.hosts; ++h)
        {
            Ptr<NiccSwitchNode> nvs = CreateSwitch();
            t.nvSwitches.push_back(nvs);
            for (uint32_t i = 0; i < p.rails; ++i)
            {
                Ptr<Node> gpu = CreateHost();
                t.gpus[h * p.rails + i] = gpu;
                t.gpuDevices[h * p.rails + i] = Connect(gpu, nvs, p.nvlinkRate, p.nvlinkDelay).first;
            }
        }
    }
    InstallRoutes();
    return t;
}

// Topology files: ParseTopologyFile is in nicc-topology-file.cc.

NiccFileTopology
NiccFabricHelper::BuildFromSpec(const NiccTopologySpec& spec)
{
    NiccFileTopology t;
    t.node.resize(spec.nodes);
    std::vector<int32_t> switchIndex(spec.nodes, -1);
    for (size_t k = 0; k < spec.switches.size(); ++k)
    {
        switchIndex[spec.switches[k]] = static_cast<int32_t>(k);
    }
    // Nodes in file id order, so ns-3 node ids follow the file's.
    t.switches.resize(spec.switches.size());
    for (uint32_t n = 0; n < spec.nodes; ++n)
    {
        if (spec.isSwitch[n])
        {
            Ptr<NiccSwitchNode> sw = CreateSwitch();
            t.switches[switchIndex[n]] = sw;
            t.node[n] = sw;
        }
        else
        {
            t.node[n] = CreateHost();
        }
    }
    std::vector<int32_t> hostIndex(spec.nodes, -1);
    for (size_t i = 0; i < spec.hosts.size(); ++i)
    {
        hostIndex[spec.hosts[i]] = static_cast<int32_t>(i);
        t.hosts.push_back(t.node[spec.hosts[i]]);
        t.hostFileIds.push_back(spec.hosts[i]);
    }
    t.hostDevices.resize(spec.hosts.size());
    t.hostSwitch.resize(spec.hosts.size());
    uint64_t minFabric = 0;
    for (const auto& l : spec.links)
    {
        auto devs = Connect(t.node[l.a], t.node[l.b], DataRate(l.bps), PicoSeconds(l.delayPs));
        if (l.errorRate > 0)
        {
            m_links.back().channel->SetLossRate(l.errorRate); // the error_rate column
        }
        if (hostIndex[l.a] >= 0)
        {
            t.hostDevices[hostIndex[l.a]] = devs.first;
            t.hostSwitch[hostIndex[l.a]] = static_cast<uint32_t>(switchIndex[l.b]);
        }
        else if (hostIndex[l.b] >= 0)
        {
            t.hostDevices[hostIndex[l.b]] = devs.second;
            t.hostSwitch[hostIndex[l.b]] = static_cast<uint32_t>(switchIndex[l.a]);
        }
        else
        {
            minFabric = minFabric == 0 ? l.bps : std::min(minFabric, l.bps);
        }
    }
    t.minFabricRate = DataRate(minFabric);
    InstallRoutes();
    return t;
}

bool
NiccFabricHelper::BuildFromFile(const std::string& path, NiccFileTopology* topo, std::string* error)
{
    NiccTopologySpec spec;
    if (!ParseTopologyFile(path, &spec, error))
    {
        return false;
    }
    *topo = BuildFromSpec(spec);
    return true;
}

NiccPathsFrom
NiccFabricHelper::PathsFrom(Ptr<Node> src) const
{
    const uint32_t nNodes = NodeList::GetNNodes();
    if (m_pathAdjLinks != m_links.size() || m_pathAdj.size() != nNodes) // one search per host: built once
    {
        m_pathAdj.assign(nNodes, {});
        m_pathIsSwitch.assign(nNodes, false);
        for (const auto& sw : m_switches)
        {
            m_pathIsSwitch[sw->GetId()] = true;
        }
        for (const Link& l : m_links)
        {
            const double ns = l.delay.ToDouble(Time::NS);
            m_pathAdj[l.a->GetId()].emplace_back(l.b->GetId(), ns);
            m_pathAdj[l.b->GetId()].emplace_back(l.a->GetId(), ns);
        }
        m_pathAdjLinks = m_links.size();
    }
    const auto& adj = m_pathAdj;
    const std::vector<bool>& isSwitch = m_pathIsSwitch;
    NiccPathsFrom p;
    p.links.assign(nNodes, std::numeric_limits<uint32_t>::max());
    p.delayNs.assign(nNodes, 0.0);
    const uint32_t s = src->GetId();
    p.links[s] = 0;
    std::deque<uint32_t> frontier{s};
    while (!frontier.empty())
    {
        const uint32_t u = frontier.front();
        frontier.pop_front();
        if (u != s && !isSwitch[u])
        {
            continue; // hosts do not relay
        }
        for (const auto& [v, ns] : adj[u])
        {
            if (p.links[v] == std::numeric_limits<uint32_t>::max())
            {
                p.links[v] = p.links[u] + 1;
                p.delayNs[v] = p.delayNs[u] + ns;
                frontier.push_back(v);
            }
        }
    }
    return p;
}

uint32_t
NiccFabricHelper::SwitchHops(Ptr<Node> a, Ptr<Node> b) const
{
    const NiccPathsFrom p = PathsFrom(a);
    const uint32_t links = p.links[b->GetId()];
    return links == std::numeric_limits<uint32_t>::max() || links == 0 ? 0 : links - 1;
}

void
NiccFabricHelper::UsePriorityQueueScheduler()
{
    ObjectFactory f;
    f.SetTypeId("ns3::PriorityQueueScheduler");
    Simulator::SetScheduler(f);
}

} // namespace ns3
