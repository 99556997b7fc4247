/*
 * nicc-topology-file.cc — NiccFabricHelper::ParseTopologyFile / ParseTopology:
 * topology files in the text format of the HPCC simulator
 * (alibaba-edu/High-Precision-Congestion-Control, simulation/mix/topology.txt)
 * and of ns3-datacenter (header 'N S T L'). Format: nicc-fabric-helper.h
 * (NiccTopologySpec) and docs/experiments.md. Nothing is built here.
 */
#include "nicc-fabric-helper.h"
#include "nicc-units.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <limits>
#include <sstream>

namespace ns3
{

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

// A delay as ns-3's Time reads it (NiccParseTime: a unit, or unit-less
// seconds); at least 1 ns, at most 1000 s; kept in ps.
bool
ParseDelay(const std::string& tok, int64_t* ps)
{
    int64_t v = 0;
    if (!NiccParseTime(tok, &v) || v < 1000 || v > 1000000000000000LL)
    {
        return false;
    }
    *ps = v;
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
    std::ifstream in(path);
    if (!in)
    {
        *spec = NiccTopologySpec{};
        *error = path + ": cannot open the topology file";
        return false;
    }
    std::ostringstream text;
    text << in.rdbuf();
    return ParseTopology(text.str(), path, spec, error);
}

namespace
{

// One parse of a topology file's text: the header, the switch ids, then
// one link per line; each refused with file:line and field.
struct TopologyParser
{
    const std::string& path;
    NiccTopologySpec* spec;
    std::string* error;
    uint32_t nSwitches{0};
    uint32_t nLinks{0};
    uint32_t headerLine{0};
    uint32_t switchLine{0};

    bool Fail(uint32_t line, const std::string& msg)
    {
        *error = path + ":" + std::to_string(line) + ": " + msg;
        return false;
    }

    // HPCC: N S L. ns3-datacenter: N S T L; it reads T (ToRs) and then sets
    // it to S, so T never matters: checked as a number only.
    bool Header(std::vector<std::string> tok, uint32_t lineNo)
    {
        headerLine = lineNo;
        if (tok.size() != 3 && tok.size() != 4)
        {
            return Fail(lineNo, "header: expected 'N S L' (nodes, switches, links) or ns3-datacenter's "
                                "'N S T L', got " +
                                    std::to_string(tok.size()) + " fields");
        }
        const bool withTors = tok.size() == 4;
        const char* field[4] = {"N (nodes)", "S (switches)", withTors ? "T (ToRs)" : "L (links)", "L (links)"};
        uint32_t all[4] = {0, 0, 0, 0};
        for (size_t k = 0; k < tok.size(); ++k)
        {
            if (!ParseId(tok[k], &all[k]))
            {
                return Fail(lineNo, std::string("header: field ") + field[k] + ": '" + tok[k] +
                                        "' is not a non-negative integer");
            }
        }
        const uint32_t v[3] = {all[0], all[1], all[withTors ? 3 : 2]};
        if (withTors)
        {
            tok.erase(tok.begin() + 2); // tok[2] is L from here on
        }
        if (v[0] < 3 || v[0] > 1000000)
        {
            return Fail(lineNo, "header: field N (nodes): " + tok[0] +
                                    " out of range [3, 1000000] (at least one switch and two hosts)");
        }
        if (v[1] < 1 || v[1] > v[0] - 2)
        {
            return Fail(lineNo, "header: field S (switches): " + tok[1] + " out of range [1, N - 2 = " +
                                    std::to_string(v[0] - 2) + "] (at least two hosts)");
        }
        if (v[2] < 1 || v[2] > 10000000)
        {
            return Fail(lineNo, "header: field L (links): " + tok[2] + " out of range [1, 10000000]");
        }
        spec->nodes = v[0];
        nSwitches = v[1];
        nLinks = v[2];
        spec->isSwitch.assign(spec->nodes, false);
        return true;
    }

    bool SwitchIds(const std::vector<std::string>& tok, uint32_t lineNo)
    {
        switchLine = lineNo;
        if (tok.size() != nSwitches)
        {
            return Fail(lineNo, "switch ids: expected S = " + std::to_string(nSwitches) +
                                    " ids on one line, found " + std::to_string(tok.size()));
        }
        for (const std::string& t : tok)
        {
            uint32_t id;
            if (!ParseId(t, &id) || id >= spec->nodes)
            {
                return Fail(lineNo, "switch ids: '" + t + "' is not a node id in [0, N - 1 = " +
                                        std::to_string(spec->nodes - 1) + "]");
            }
            if (spec->isSwitch[id])
            {
                return Fail(lineNo, "switch ids: duplicate switch id " + t);
            }
            spec->isSwitch[id] = true;
            spec->switches.push_back(id);
        }
        return true;
    }

    // "a b rate delay error_rate"; lines past the L links are counted, not read.
    bool Link(const std::vector<std::string>& tok, uint32_t lineNo)
    {
        if (spec->links.size() == nLinks)
        {
            ++spec->ignoredLines; // the simulator reads exactly L links
            return true;
        }
        if (tok.size() != 5)
        {
            return Fail(lineNo, "link: expected 'a b rate delay error_rate', got " + std::to_string(tok.size()) +
                                    " fields");
        }
        NiccTopologySpec::Link l{0, 0, 0, 0, lineNo};
        const char* endName[2] = {"a", "b"};
        uint32_t* ends[2] = {&l.a, &l.b};
        for (int k = 0; k < 2; ++k)
        {
            if (!ParseId(tok[k], ends[k]) || *ends[k] >= spec->nodes)
            {
                return Fail(lineNo, std::string("link: field ") + endName[k] + ": '" + tok[k] +
                                        "' is not a node id in [0, N - 1 = " + std::to_string(spec->nodes - 1) +
                                        "]");
            }
        }
        if (l.a == l.b)
        {
            return Fail(lineNo, "link: self link (a = b = " + tok[0] + ")");
        }
        if (!spec->isSwitch[l.a] && !spec->isSwitch[l.b])
        {
            return Fail(lineNo, "link: both ends (" + tok[0] + ", " + tok[1] + ") are hosts; a host links to a switch");
        }
        if (!NiccParseDataRate(tok[2], &l.bps))
        {
            return Fail(lineNo, "link: field rate: '" + tok[2] +
                                    "' is not a rate (a number with a unit: bps, Kbps, Mbps, Gbps, Tbps, b/s, "
                                    "..., Bps = bytes/s, e.g. 100Gbps; or unit-less bit/s such as "
                                    "25000000000.0, read up to the '.'; at least 1 bit/s)");
        }
        if (!ParseDelay(tok[3], &l.delayPs))
        {
            return Fail(lineNo, "link: field delay: '" + tok[3] +
                                    "' is not a delay (a number with s, ms, us, ns or ps, e.g. 1us "
                                    "or 0.001ms; or unit-less seconds such as 0.000001; at least "
                                    "1ns, at most 1000s)");
        }
        double errRate = 0;
        if (!NiccParseNumber(tok[4], &errRate) || errRate < 0.0 || errRate > 1.0)
        {
            return Fail(lineNo, "link: field error_rate: '" + tok[4] + "' is not a number in [0, 1]");
        }
        l.errorRate = errRate;
        spec->links.push_back(l);
        return true;
    }

    // Hosts: exactly one link each; *linkOf = each node's link (hosts only).
    bool Hosts(std::vector<uint32_t>* linkOf)
    {
        linkOf->assign(spec->nodes, UINT32_MAX);
        for (size_t k = 0; k < spec->links.size(); ++k)
        {
            const auto& l = spec->links[k];
            for (uint32_t n : {l.a, l.b})
            {
                if (spec->isSwitch[n])
                {
                    continue;
                }
                if ((*linkOf)[n] != UINT32_MAX)
                {
                    return Fail(l.line, "host " + std::to_string(n) + " has a second link (first on line " +
                                            std::to_string(spec->links[(*linkOf)[n]].line) +
                                            "); a host has exactly one link");
                }
                (*linkOf)[n] = static_cast<uint32_t>(k);
            }
        }
        for (uint32_t n = 0; n < spec->nodes; ++n)
        {
            if (spec->isSwitch[n])
            {
                continue;
            }
            if ((*linkOf)[n] == UINT32_MAX)
            {
                return Fail(switchLine, "host " + std::to_string(n) +
                                            " (not in the switch ids) has no link; a host has exactly one link");
            }
            spec->hosts.push_back(n);
        }
        return true;
    }

    // Every host reaches every other one through switches (BFS from the first).
    bool Reachable(const std::vector<uint32_t>& linkOf)
    {
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
                return Fail(spec->links[linkOf[h]].line, "host " + std::to_string(h) + " is unreachable from host " +
                                                             std::to_string(src) + " (no switch path)");
            }
        }
        return true;
    }
};

} // namespace

bool
NiccFabricHelper::ParseTopology(const std::string& text,
                                const std::string& path,
                                NiccTopologySpec* spec,
                                std::string* error)
{
    *spec = NiccTopologySpec{};
    spec->path = path;
    TopologyParser p{path, spec, error};
    enum
    {
        HEADER,
        SWITCHES,
        LINKS
    } part = HEADER;
    std::istringstream in(text);
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
        const bool ok = part == HEADER     ? p.Header(tok, lineNo)
                        : part == SWITCHES ? p.SwitchIds(tok, lineNo)
                                           : p.Link(tok, lineNo);
        if (!ok)
        {
            return false;
        }
        part = part == HEADER ? SWITCHES : LINKS;
    }
    if (part == HEADER)
    {
        return p.Fail(lineNo, "empty topology file (expected a header line 'N S L')");
    }
    if (part == SWITCHES)
    {
        return p.Fail(lineNo, "missing the line of switch ids");
    }
    if (spec->links.size() != p.nLinks)
    {
        return p.Fail(lineNo, "fewer links than L = " + std::to_string(p.nLinks) + " (header, line " +
                                  std::to_string(p.headerLine) + "): found " + std::to_string(spec->links.size()));
    }
    std::vector<uint32_t> linkOf;
    return p.Hosts(&linkOf) && p.Reachable(linkOf);
}

uint32_t
NiccFileHostGroupSize(const NiccTopologySpec& spec, uint64_t* slowestHostBps)
{
    // Hosts under one switch form a group (permutation traffic leaves its
    // group, the interleaved ring crosses groups) when the hosts come in
    // equal runs of consecutive ids per switch; else every host is a group.
    std::vector<uint32_t> switchOf(spec.nodes, 0);
    *slowestHostBps = 0;
    for (const auto& l : spec.links)
    {
        if (!spec.isSwitch[l.a] || !spec.isSwitch[l.b])
        {
            const uint32_t host = spec.isSwitch[l.a] ? l.b : l.a;
            switchOf[host] = spec.isSwitch[l.a] ? l.a : l.b;
            *slowestHostBps = *slowestHostBps == 0 ? l.bps : std::min(*slowestHostBps, l.bps);
        }
    }
    const uint32_t n = static_cast<uint32_t>(spec.hosts.size());
    auto sw = [&](uint32_t i) { return switchOf[spec.hosts[i]]; };
    uint32_t run = 1;
    while (run < n && sw(run) == sw(0))
    {
        ++run;
    }
    bool equalRuns = n % run == 0;
    std::vector<bool> used(spec.nodes, false);
    for (uint32_t i = 0; i < n && equalRuns; ++i)
    {
        if (i % run == 0)
        {
            equalRuns = !used[sw(i)];
            used[sw(i)] = true;
        }
        equalRuns = equalRuns && sw(i) == sw(i - i % run);
    }
    return equalRuns ? run : 1;
}

} // namespace ns3
