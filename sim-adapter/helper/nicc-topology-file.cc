/*
 * nicc-topology-file.cc — NiccFabricHelper::ParseTopologyFile / ParseTopology:
 * topology files in the text format of the HPCC simulator
 * (alibaba-edu/High-Precision-Congestion-Control, simulation/mix/topology.txt)
 * and of ns3-datacenter (header 'N S T L'). Format: nicc-fabric-helper.h
 * (NiccTopologySpec) and docs/experiments.md. Nothing is built here.
 */
#include "nicc-fabric-helper.h"

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

// Decimal digits only (no sign, no spaces), at most 19 of them.
bool
ParseUnsigned(const std::string& tok, uint64_t* out)
{
    if (tok.empty() || tok.size() > 19 ||
        !std::all_of(tok.begin(), tok.end(), [](char c) { return c >= '0' && c <= '9'; }))
    {
        return false;
    }
    *out = std::strtoull(tok.c_str(), nullptr, 10);
    return true;
}

// A whole token as a finite decimal number (strtod's syntax).
bool
ParseNumber(const std::string& tok, double* out)
{
    char* end = nullptr;
    const double v = std::strtod(tok.c_str(), &end);
    if (tok.empty() || end != tok.c_str() + tok.size() || !std::isfinite(v))
    {
        return false;
    }
    *out = v;
    return true;
}

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

// A rate as ns-3's DataRate reads it: a number and a unit (bps, b/s, Kbps,
// ..., Tbps; Bps, KBps, ... are bytes/s; KiB/s, ... binary), or a unit-less
// number of bit/s whose integer part counts: ns-3 reads it as an integer, so
// "25000000000.0" is 25 Gb/s and "1.9" is 1 bit/s. At least 1 bit/s, at most
// 10^15 (1 Pb/s: a rate x 1 s fits uint64 with room).
bool
ParseRate(const std::string& tok, uint64_t* bps)
{
    const bool unitless = !tok.empty() && tok[0] >= '0' && tok[0] <= '9' &&
                          tok.find_first_not_of("0123456789.") == std::string::npos;
    if (unitless)
    {
        const size_t dot = tok.find('.');
        if (dot != std::string::npos && tok.find('.', dot + 1) != std::string::npos)
        {
            return false; // "1.2.3"
        }
        const std::string whole = tok.substr(0, dot);
        uint64_t v = 0;
        if (whole.size() > 16 || !ParseUnsigned(whole, &v) || v < 1 || v > 1000000000000000ULL)
        {
            return false;
        }
        *bps = v;
        return true;
    }
    static const std::vector<std::pair<const char*, double>> units = {
        {"bps", 1.0},         {"b/s", 1.0},         {"Bps", 8.0},         {"B/s", 8.0},
        {"Kbps", 1e3},        {"kbps", 1e3},        {"Kb/s", 1e3},        {"kb/s", 1e3},
        {"KBps", 8e3},        {"kBps", 8e3},        {"KB/s", 8e3},        {"kB/s", 8e3},
        {"Kib/s", 1024.0},    {"KiB/s", 8192.0},    {"Mbps", 1e6},        {"Mb/s", 1e6},
        {"MBps", 8e6},        {"MB/s", 8e6},        {"Mib/s", 1048576.0}, {"MiB/s", 8388608.0},
        {"Gbps", 1e9},        {"Gb/s", 1e9},        {"GBps", 8e9},        {"GB/s", 8e9},
        {"Gib/s", 1073741824.0}, {"GiB/s", 8589934592.0}, {"Tbps", 1e12}, {"Tb/s", 1e12}};
    double v;
    if (!ParseWithUnit(tok, units, &v) || v < 1.0 || v > 1e15)
    {
        return false;
    }
    *bps = static_cast<uint64_t>(std::llround(v));
    return true;
}

// A delay as ns-3's Time reads it: a number and a unit (s, ms, us, ns, ps),
// or a unit-less number of seconds ("0.000001", "1e-6"). At least 1 ns, at
// most 1000 s; kept in ps.
bool
ParseDelay(const std::string& tok, int64_t* ps)
{
    double v;
    if (!tok.empty() && tok.find_first_not_of("0123456789.eE+-") == std::string::npos)
    {
        if (!ParseNumber(tok, &v))
        {
            return false;
        }
        v *= 1e12; // seconds
    }
    else
    {
        static const std::vector<std::pair<const char*, double>> units = {
            {"s", 1e12}, {"ms", 1e9}, {"us", 1e6}, {"ns", 1e3}, {"ps", 1.0}};
        if (!ParseWithUnit(tok, units, &v))
        {
            return false;
        }
    }
    if (!(v >= 1000.0 && v <= 1e15))
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

bool
NiccFabricHelper::ParseTopology(const std::string& text,
                                const std::string& path,
                                NiccTopologySpec* spec,
                                std::string* error)
{
    *spec = NiccTopologySpec{};
    spec->path = path;
    std::istringstream in(text);
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
        std::vector<std::string> tok = Tokens(raw);
        if (part == HEADER)
        {
            headerLine = lineNo;
            // HPCC: N S L. ns3-datacenter: N S T L; it reads T (ToRs) and
            // then sets it to S, so T never matters: checked as a number only.
            if (tok.size() != 3 && tok.size() != 4)
            {
                return fail(lineNo, "header: expected 'N S L' (nodes, switches, links) or ns3-datacenter's "
                                    "'N S T L', got " +
                                        std::to_string(tok.size()) + " fields");
            }
            const bool withTors = tok.size() == 4;
            const char* field[4] = {"N (nodes)", "S (switches)", withTors ? "T (ToRs)" : "L (links)",
                                    "L (links)"};
            uint32_t all[4] = {0, 0, 0, 0};
            for (size_t k = 0; k < tok.size(); ++k)
            {
                if (!ParseId(tok[k], &all[k]))
                {
                    return fail(lineNo, std::string("header: field ") + field[k] + ": '" + tok[k] +
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
            ++spec->ignoredLines; // the simulator reads exactly L links
            continue;
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
                                    "' is not a rate (a number with a unit: bps, Kbps, Mbps, Gbps, Tbps, b/s, "
                                    "..., Bps = bytes/s, e.g. 100Gbps; or unit-less bit/s such as "
                                    "25000000000.0, read up to the '.'; at least 1 bit/s)");
        }
        if (!ParseDelay(tok[3], &l.delayPs))
        {
            return fail(lineNo, "link: field delay: '" + tok[3] +
                                    "' is not a delay (a number with s, ms, us, ns or ps, e.g. 1us "
                                    "or 0.001ms; or unit-less seconds such as 0.000001; at least "
                                    "1ns, at most 1000s)");
        }
        double errRate = 0;
        if (!ParseNumber(tok[4], &errRate) || errRate < 0.0 || errRate > 1.0)
        {
            return fail(lineNo, "link: field error_rate: '" + tok[4] + "' is not a number in [0, 1]");
        }
        if (errRate != 0.0)
        {
            return fail(lineNo, "link: field error_rate: " + tok[4] +
                                    ": the model has no per-link random loss yet; set it to 0 (the "
                                    "fabric drops only on buffer overflow)");
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

} // namespace ns3
