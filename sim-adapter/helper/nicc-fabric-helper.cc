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
    Link link{a, b, 0, 0, delay};
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
NiccFabricHelper::InstallRoutes()
{
    const uint32_t nNodes = NodeList::GetNNodes();
    // Adjacency: per node id, (neighbour id, switch port index or unused).
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> adj(nNodes);
    std::vector<bool> isSwitch(nNodes, false);
    for (const auto& sw : m_switches)
    {
        sw->ClearRoutes();
        isSwitch[sw->GetId()] = true;
    }
    for (const Link& l : m_links)
    {
        adj[l.a->GetId()].emplace_back(l.b->GetId(), l.portA);
        adj[l.b->GetId()].emplace_back(l.a->GetId(), l.portB);
    }
    constexpr uint32_t INF = std::numeric_limits<uint32_t>::max();
    std::vector<uint32_t> dist(nNodes);
    std::deque<uint32_t> frontier;
    for (const auto& host : m_hosts)
    {
        const uint32_t dst = host->GetId();
        std::fill(dist.begin(), dist.end(), INF);
        dist[dst] = 0;
        frontier.assign(1, dst);
        while (!frontier.empty())
        {
            const uint32_t u = frontier.front();
            frontier.pop_front();
            if (u != dst && !isSwitch[u])
            {
                continue; // other hosts do not relay
            }
            for (const auto& [v, port] : adj[u])
            {
                if (dist[v] == INF)
                {
                    dist[v] = dist[u] + 1;
                    frontier.push_back(v);
                }
            }
        }
        for (const auto& sw : m_switches)
        {
            const uint32_t s = sw->GetId();
            if (dist[s] == INF)
            {
                continue;
            }
            for (const auto& [v, port] : adj[s])
            {
                if (dist[v] + 1 == dist[s])
                {
                    sw->AddRoute(dst, port);
                }
            }
        }
    }
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
    InstallRoutes();
    return t;
}

// ---------------------------------------------------------------------------
// Topology files.

namespace
{

// Non-negative decimal integer that fits in uint32_t.
bool
ParseId(const std::string& tok, uint32_t* out)
{
    if (tok.empty() || tok.size() > 10 ||
        !std::all_of(tok.begin(), tok.end(), [](char c) { return c >= '0' && c <= '9'; }))
    {
        return false;
    }
    const unsigned long long v = std::strtoull(tok.c_str(), nullptr, 10);
    if (v > std::numeric_limits<uint32_t>::max())
    {
        return false;
    }
    *out = static_cast<uint32_t>(v);
    return true;
}

// "<number><unit>": a plain decimal number (digits, optional fraction or
// exponent) directly followed by one of the units; value * unit scale.
bool
ParseWithUnit(const std::string& tok,
              const std::vector<std::pair<const char*, double>>& units,
              double* out)
{
    auto digit = [&](size_t k) { return k < tok.size() && tok[k] >= '0' && tok[k] <= '9'; };
    size_t i = 0;
    while (digit(i) || (i < tok.size() && tok[i] == '.'))
    {
        ++i;
    }
    // Optional exponent: e / E, optional sign, at least one digit.
    if (i < tok.size() && (tok[i] == 'e' || tok[i] == 'E'))
    {
        size_t k = i + 1;
        if (k < tok.size() && (tok[k] == '+' || tok[k] == '-'))
        {
            ++k;
        }
        if (digit(k))
        {
            while (digit(k))
            {
                ++k;
            }
            i = k;
        }
    }
    const std::string num = tok.substr(0, i);
    const std::string unit = tok.substr(i);
    if (num.empty() || !(num[0] >= '0' && num[0] <= '9'))
    {
        return false;
    }
    char* end = nullptr;
    const double v = std::strtod(num.c_str(), &end);
    if (end != num.c_str() + num.size() || !std::isfinite(v))
    {
        return false;
    }
    for (const auto& [name, scale] : units)
    {
        if (unit == name)
        {
            *out = v * scale;
            return std::isfinite(*out);
        }
    }
    return false;
}

bool
ParseRate(const std::string& tok, uint64_t* bps)
{
    static const std::vector<std::pair<const char*, double>> units = {
        {"bps", 1.0},   {"b/s", 1.0},   {"Kbps", 1e3},  {"kbps", 1e3},  {"Kb/s", 1e3},
        {"kb/s", 1e3},  {"Mbps", 1e6},  {"Mb/s", 1e6},  {"Gbps", 1e9},  {"Gb/s", 1e9},
        {"Tbps", 1e12}, {"Tb/s", 1e12}};
    double v;
    if (!ParseWithUnit(tok, units, &v) || v < 1.0 || v > 1e15)
    {
        return false;
    }
    *bps = static_cast<uint64_t>(std::llround(v));
    return true;
}

bool
ParseDelay(const std::string& tok, int64_t* ps)
{
    static const std::vector<std::pair<const char*, double>> units = {
        {"s", 1e12}, {"ms", 1e9}, {"us", 1e6}, {"ns", 1e3}, {"ps", 1.0}};
    double v;
    if (!ParseWithUnit(tok, units, &v) || v < 1000.0 || v > 1e15)
    {
        return false;
    }
    *ps = static_cast<int64_t>(std::llround(v));
    return true;
}

std::vector<std::string>
Tokens(const std::string& line)
{
    std::istringstream is(line);
    std::vector<std::string> out;
    std::string t;
    while (is >> t)
    {
        out.push_back(t);
    }
    return out;
}

} // namespace

bool
NiccFabricHelper::ParseTopologyFile(const std::string& path, NiccTopologySpec* spec, std::string* error)
{
    *spec = NiccTopologySpec{};
    spec->path = path;
    std::ifstream in(path);
    if (!in)
    {
        *error = path + ": cannot open the topology file";
        return false;
    }
    auto fail = [&](uint32_t line, const std::string& msg) {
        *error = path + ":" + std::to_string(line) + ": " + msg;
        return false;
    };
    enum
    {
        HEADER,
        SWITCHES,
        LINKS
    } part = HEADER;
    uint32_t nSwitches = 0;
    uint32_t nLinks = 0;
    uint32_t headerLine = 0;
    uint32_t switchLine = 0;
    uint32_t lineNo = 0;
    std::string raw;
    while (std::getline(in, raw))
    {
        ++lineNo;
        if (!raw.empty() && raw.back() == '\r')
        {
            raw.pop_back();
        }
        const size_t first = raw.find_first_not_of(" \t");
        if (first == std::string::npos || raw[first] == '#')
        {
            continue;
        }
        const std::vector<std::string> tok = Tokens(raw);
        if (part == HEADER)
        {
            headerLine = lineNo;
            if (tok.size() != 3)
            {
                return fail(lineNo, "header: expected 'N S L' (nodes, switches, links), got " +
                                        std::to_string(tok.size()) + " fields");
            }
            const char* field[3] = {"N (nodes)", "S (switches)", "L (links)"};
            uint32_t v[3];
            for (int k = 0; k < 3; ++k)
            {
                if (!ParseId(tok[k], &v[k]))
                {
                    return fail(lineNo, std::string("header: field ") + field[k] + ": '" + tok[k] +
                                            "' is not a non-negative integer");
                }
            }
            if (v[0] < 3 || v[0] > 1000000)
            {
                return fail(lineNo, "header: field N (nodes): " + tok[0] +
                                        " out of range [3, 1000000] (at least one switch and two hosts)");
            }
            if (v[1] < 1 || v[1] > v[0] - 2)
            {
                return fail(lineNo, "header: field S (switches): " + tok[1] + " out of range [1, N - 2 = " +
                                        std::to_string(v[0] - 2) + "] (at least two hosts)");
            }
            if (v[2] < 1 || v[2] > 10000000)
            {
                return fail(lineNo, "header: field L (links): " + tok[2] + " out of range [1, 10000000]");
            }
            spec->nodes = v[0];
            nSwitches = v[1];
            nLinks = v[2];
            spec->isSwitch.assign(spec->nodes, false);
            part = SWITCHES;
            continue;
        }
        if (part == SWITCHES)
        {
            switchLine = lineNo;
            if (tok.size() != nSwitches)
            {
                return fail(lineNo, "switch ids: expected S = " + std::to_string(nSwitches) +
                                        " ids on one line, found " + std::to_string(tok.size()));
            }
            for (const std::string& t : tok)
            {
                uint32_t id;
                if (!ParseId(t, &id) || id >= spec->nodes)
                {
                    return fail(lineNo, "switch ids: '" + t + "' is not a node id in [0, N - 1 = " +
                                            std::to_string(spec->nodes - 1) + "]");
                }
                if (spec->isSwitch[id])
                {
                    return fail(lineNo, "switch ids: duplicate switch id " + t);
                }
                spec->isSwitch[id] = true;
                spec->switches.push_back(id);
            }
            part = LINKS;
            continue;
        }
        if (spec->links.size() == nLinks)
        {
            return fail(lineNo, "more links than L = " + std::to_string(nLinks) + " (header, line " +
                                    std::to_string(headerLine) + ")");
        }
        if (tok.size() != 5)
        {
            return fail(lineNo, "link: expected 'a b rate delay error_rate', got " +
                                    std::to_string(tok.size()) + " fields");
        }
        NiccTopologySpec::Link l{0, 0, 0, 0, lineNo};
        const char* endName[2] = {"a", "b"};
        uint32_t* ends[2] = {&l.a, &l.b};
        for (int k = 0; k < 2; ++k)
        {
            if (!ParseId(tok[k], ends[k]) || *ends[k] >= spec->nodes)
            {
                return fail(lineNo, std::string("link: field ") + endName[k] + ": '" + tok[k] +
                                        "' is not a node id in [0, N - 1 = " +
                                        std::to_string(spec->nodes - 1) + "]");
            }
        }
        if (l.a == l.b)
        {
            return fail(lineNo, "link: self link (a = b = " + tok[0] + ")");
        }
        if (!spec->isSwitch[l.a] && !spec->isSwitch[l.b])
        {
            return fail(lineNo, "link: both ends (" + tok[0] + ", " + tok[1] +
                                    ") are hosts; a host links to a switch");
        }
        if (!ParseRate(tok[2], &l.bps))
        {
            return fail(lineNo, "link: field rate: '" + tok[2] +
                                    "' is not a rate (a number with bps, Kbps, Mbps, Gbps or Tbps, "
                                    "e.g. 100Gbps; at least 1bps)");
        }
        if (!ParseDelay(tok[3], &l.delayPs))
        {
            return fail(lineNo, "link: field delay: '" + tok[3] +
                                    "' is not a delay (a number with s, ms, us, ns or ps, e.g. 1us "
                                    "or 1000ns; at least 1ns)");
        }
        char* end = nullptr;
        const double errRate = std::strtod(tok[4].c_str(), &end);
        if (end == tok[4].c_str() || *end != '\0' || !std::isfinite(errRate))
        {
            return fail(lineNo, "link: field error_rate: '" + tok[4] + "' is not a number");
        }
        if (errRate != 0.0)
        {
            return fail(lineNo, "link: field error_rate: " + tok[4] +
                                    " is not supported (only 0: the fabric is lossless or drops "
                                    "on buffer overflow, never at random)");
        }
        spec->links.push_back(l);
    }
    if (part == HEADER)
    {
        return fail(lineNo, "empty topology file (expected a header line 'N S L')");
    }
    if (part == SWITCHES)
    {
        return fail(lineNo, "missing the line of switch ids");
    }
    if (spec->links.size() != nLinks)
    {
        return fail(lineNo, "fewer links than L = " + std::to_string(nLinks) + " (header, line " +
                                std::to_string(headerLine) + "): found " +
                                std::to_string(spec->links.size()));
    }
    // Hosts: exactly one link each.
    std::vector<uint32_t> linkOf(spec->nodes, UINT32_MAX);
    for (size_t k = 0; k < spec->links.size(); ++k)
    {
        const auto& l = spec->links[k];
        for (uint32_t n : {l.a, l.b})
        {
            if (spec->isSwitch[n])
            {
                continue;
            }
            if (linkOf[n] != UINT32_MAX)
            {
                return fail(l.line, "host " + std::to_string(n) + " has a second link (first on line " +
                                        std::to_string(spec->links[linkOf[n]].line) +
                                        "); a host has exactly one link");
            }
            linkOf[n] = static_cast<uint32_t>(k);
        }
    }
    for (uint32_t n = 0; n < spec->nodes; ++n)
    {
        if (spec->isSwitch[n])
        {
            continue;
        }
        if (linkOf[n] == UINT32_MAX)
        {
            return fail(switchLine, "host " + std::to_string(n) +
                                        " (not in the switch ids) has no link; a host has exactly one link");
        }
        spec->hosts.push_back(n);
    }
    // Every host reaches every other one through switches.
    std::vector<std::vector<uint32_t>> adj(spec->nodes);
    for (const auto& l : spec->links)
    {
        adj[l.a].push_back(l.b);
        adj[l.b].push_back(l.a);
    }
    std::vector<bool> seen(spec->nodes, false);
    const uint32_t src = spec->hosts.front();
    std::deque<uint32_t> frontier{src};
    seen[src] = true;
    while (!frontier.empty())
    {
        const uint32_t u = frontier.front();
        frontier.pop_front();
        if (u != src && !spec->isSwitch[u])
        {
            continue;
        }
        for (uint32_t v : adj[u])
        {
            if (!seen[v])
            {
                seen[v] = true;
                frontier.push_back(v);
            }
        }
    }
    for (uint32_t h : spec->hosts)
    {
        if (!seen[h])
        {
            return fail(spec->links[linkOf[h]].line, "host " + std::to_string(h) +
                                                         " is unreachable from host " +
                                                         std::to_string(src) + " (no switch path)");
        }
    }
    return true;
}

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
    std::vector<std::vector<std::pair<uint32_t, double>>> adj(nNodes);
    std::vector<bool> isSwitch(nNodes, false);
    for (const auto& sw : m_switches)
    {
        isSwitch[sw->GetId()] = true;
    }
    for (const Link& l : m_links)
    {
        const double ns = l.delay.ToDouble(Time::NS);
        adj[l.a->GetId()].emplace_back(l.b->GetId(), ns);
        adj[l.b->GetId()].emplace_back(l.a->GetId(), ns);
    }
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
