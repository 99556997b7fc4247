/*
 * nicc-switch-setup.cc — per-tier buffers and per-rate ECN thresholds of
 * built switches (see the header banner).
 */
#include "nicc-switch-setup.h"

#include "ns3/data-rate.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <map>
#include <sstream>

namespace ns3
{

namespace
{
/// Splits on `sep`, keeping empty fields (they are errors for the caller).
std::vector<std::string>
Fields(const std::string& s, char sep)
{
    std::vector<std::string> out;
    std::string item;
    std::istringstream ss(s);
    while (std::getline(ss, item, sep))
    {
        out.push_back(item);
    }
    if (!s.empty() && s.back() == sep)
    {
        out.emplace_back();
    }
    return out;
}

/// A non-negative integer that fits 40 bits (no sign, no junk).
bool
ParseCount(const std::string& s, uint64_t* v)
{
    if (s.empty() || s.size() > 13 || s.find_first_not_of("0123456789") != std::string::npos)
    {
        return false;
    }
    *v = std::strtoull(s.c_str(), nullptr, 10);
    return *v < (uint64_t{1} << 40);
}

bool
ParseRate(const std::string& s, uint64_t* bps)
{
    if (ParseCount(s, bps))
    {
        return *bps > 0;
    }
    DataRateValue v;
    if (s.empty() || !v.DeserializeFromString(s, MakeDataRateChecker()))
    {
        return false;
    }
    *bps = v.Get().GetBitRate();
    return *bps > 0;
}
} // namespace

std::vector<uint32_t>
NiccSwitchTiers(const std::vector<Ptr<NiccSwitchNode>>& switches)
{
    // Multi-source BFS over switch-switch links from every edge switch.
    std::map<uint32_t, size_t> index; // node id -> position in `switches`
    for (size_t k = 0; k < switches.size(); ++k)
    {
        index[switches[k]->GetId()] = k;
    }
    std::vector<uint32_t> tier(switches.size(), 0);
    std::deque<size_t> queue;
    for (size_t k = 0; k < switches.size(); ++k)
    {
        for (uint32_t p = 0; p < switches[k]->GetNPorts(); ++p)
        {
            Ptr<NiccNetDevice> peer = switches[k]->GetPort(p)->GetPeer();
            if (peer && !DynamicCast<NiccSwitchNode>(peer->GetNode()))
            {
                tier[k] = 1;
                queue.push_back(k);
                break;
            }
        }
    }
    while (!queue.empty())
    {
        const size_t k = queue.front();
        queue.pop_front();
        for (uint32_t p = 0; p < switches[k]->GetNPorts(); ++p)
        {
            Ptr<NiccNetDevice> peer = switches[k]->GetPort(p)->GetPeer();
            auto it = peer ? index.find(peer->GetNode()->GetId()) : index.end();
            if (it != index.end() && tier[it->second] == 0)
            {
                tier[it->second] = tier[k] + 1;
                queue.push_back(it->second);
            }
        }
    }
    return tier;
}

void
NiccApplyTierBuffers(const std::vector<Ptr<NiccSwitchNode>>& switches,
                     uint64_t edgeBytes,
                     uint64_t aggBytes,
                     uint64_t coreBytes)
{
    if (edgeBytes == 0 && aggBytes == 0 && coreBytes == 0)
    {
        return;
    }
    const std::vector<uint32_t> tier = NiccSwitchTiers(switches);
    for (size_t k = 0; k < switches.size(); ++k)
    {
        const uint64_t bytes = tier[k] == 1 ? edgeBytes : tier[k] == 2 ? aggBytes
                               : tier[k] >= 3 ? coreBytes
                                              : 0;
        if (bytes > 0)
        {
            switches[k]->GetMmu()->SetAttribute("BufferSize", UintegerValue(bytes));
        }
    }
}

bool
NiccParseEcnMap(const std::string& text, std::vector<NiccEcnMapEntry>* out, std::string* error)
{
    out->clear();
    if (text.empty())
    {
        return true;
    }
    const std::vector<std::string> entries = Fields(text, ';');
    for (size_t e = 0; e < entries.size(); ++e)
    {
        const std::string where = "entry " + std::to_string(e + 1) + " '" + entries[e] + "'";
        const std::vector<std::string> f = Fields(entries[e], ':');
        if (f.size() != 4)
        {
            *error = where + ": expected RATE:KMIN_KB:KMAX_KB:PMAX, got " +
                     std::to_string(f.size()) + " field(s)";
            return false;
        }
        NiccEcnMapEntry row{};
        uint64_t kmin = 0;
        uint64_t kmax = 0;
        if (!ParseRate(f[0], &row.bps))
        {
            *error = where + ": rate '" + f[0] + "' is not a rate (bit/s, or e.g. 25Gbps)";
            return false;
        }
        if (!ParseCount(f[1], &kmin))
        {
            *error = where + ": kmin '" + f[1] + "' is not a whole number of KB";
            return false;
        }
        if (!ParseCount(f[2], &kmax))
        {
            *error = where + ": kmax '" + f[2] + "' is not a whole number of KB";
            return false;
        }
        if (kmin > kmax)
        {
            *error = where + ": kmin " + f[1] + " is above kmax " + f[2];
            return false;
        }
        char* end = nullptr;
        const double pmax = std::strtod(f[3].c_str(), &end);
        if (f[3].empty() || end != f[3].c_str() + f[3].size() || !(pmax >= 0.0 && pmax <= 1.0))
        {
            *error = where + ": pmax '" + f[3] + "' is not a probability in [0, 1]";
            return false;
        }
        for (const auto& seen : *out)
        {
            if (seen.bps == row.bps)
            {
                *error = where + ": rate " + std::to_string(row.bps) + " bit/s given twice";
                return false;
            }
        }
        row.red = NiccRedParams{kmin * 1000, kmax * 1000, pmax};
        out->push_back(row);
    }
    return true;
}

bool
NiccApplyEcnMap(const std::vector<Ptr<NiccSwitchNode>>& switches,
                const std::vector<NiccEcnMapEntry>& map,
                std::string* error)
{
    if (map.empty())
    {
        return true;
    }
    auto find = [&map](uint64_t bps) {
        return std::find_if(map.begin(), map.end(), [bps](const NiccEcnMapEntry& e) {
            return e.bps == bps;
        });
    };
    for (const auto& sw : switches) // check all first: nothing changes on an error
    {
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            const uint64_t bps = sw->GetPort(p)->GetDataRate().GetBitRate();
            if (find(bps) == map.end())
            {
                *error = "no entry for " + std::to_string(bps) + " bit/s (port " +
                         std::to_string(p) + " of switch node " + std::to_string(sw->GetId()) +
                         "); every port rate in use needs one";
                return false;
            }
        }
    }
    for (const auto& sw : switches)
    {
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            sw->SetRedParams(p, find(sw->GetPort(p)->GetDataRate().GetBitRate())->red);
        }
    }
    return true;
}

} // namespace ns3
