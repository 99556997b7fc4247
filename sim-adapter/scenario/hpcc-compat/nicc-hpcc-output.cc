/*
 * nicc-hpcc-output.cc — the HPCC simulator's fct.txt / pfc.txt formats, its
 * FCT analysis convention, and pfc.csv (see the header).
 */
#include "nicc-hpcc-output.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>

namespace ns3
{

uint32_t
NiccHpccIp(uint32_t nodeId)
{
    return 0x0b000001u + (nodeId / 256) * 0x00010000u + (nodeId % 256) * 0x00000100u;
}

int64_t
NiccHpccBaseRttNs(double pathDelayNs, const std::vector<double>& linkBps, uint32_t mtu)
{
    // third.cc: txDelay += packet_payload_size * 1e9 * 8 / bw per link, in
    // integer ns; rtt = delay * 2 + txDelay.
    int64_t tx = 0;
    for (double bps : linkBps)
    {
        const uint64_t b = static_cast<uint64_t>(bps);
        tx += b > 0 ? static_cast<int64_t>(uint64_t{mtu} * 8000000000ull / b) : 0;
    }
    return 2 * static_cast<int64_t>(std::llround(pathDelayNs)) + tx;
}

int64_t
NiccHpccStandaloneFctNs(uint64_t sizeBytes,
                        uint32_t mtu,
                        uint32_t headerBytes,
                        int64_t baseRttNs,
                        uint64_t bottleneckBps)
{
    if (bottleneckBps == 0 || mtu == 0)
    {
        return baseRttNs;
    }
    const uint64_t packets = sizeBytes == 0 ? 0 : (sizeBytes - 1) / mtu + 1;
    const uint64_t wire = sizeBytes + packets * headerBytes;
    // third.cc: total_bytes * 8000000000 / b in integers; 128 bits so that
    // sizes past 2.3 GB do not overflow.
    __extension__ using U128 = unsigned __int128;
    const U128 bits = static_cast<U128>(wire) * 8000000000u;
    return baseRttNs + static_cast<int64_t>(bits / bottleneckBps);
}

std::vector<uint32_t>
NiccFlowDports(const std::vector<uint8_t>& flowKind, size_t flows, bool incastScenario)
{
    std::vector<uint32_t> d(flows, incastScenario ? NICC_HPCC_DPORT_INCAST : NICC_HPCC_DPORT_BACKGROUND);
    for (size_t i = 0; i < flows && i < flowKind.size(); ++i)
    {
        if (flowKind[i] == static_cast<uint8_t>(NiccFlowKind::INCAST))
        {
            d[i] = NICC_HPCC_DPORT_INCAST;
        }
    }
    return d;
}

std::vector<uint16_t>
NiccHpccSports(const std::vector<NiccFlowRecord>& flows)
{
    std::vector<size_t> order(flows.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return flows[a].startNs != flows[b].startNs ? flows[a].startNs < flows[b].startNs
                                                    : flows[a].id < flows[b].id;
    });
    std::vector<uint16_t> sport(flows.size(), 0);
    std::map<uint32_t, uint16_t> next; // per source host
    for (size_t i : order)
    {
        auto it = next.emplace(flows[i].src, NICC_HPCC_FIRST_SPORT).first;
        sport[i] = it->second++;
    }
    return sport;
}

void
NiccWriteHpccFct(std::ostream& os, const NiccScenarioResult& r)
{
    const std::vector<uint16_t> sport = NiccHpccSports(r.flows);
    std::vector<size_t> done;
    for (size_t i = 0; i < r.flows.size(); ++i)
    {
        if (r.flows[i].fctNs >= 0)
        {
            done.push_back(i);
        }
    }
    std::stable_sort(done.begin(), done.end(), [&](size_t a, size_t b) {
        const int64_t ea = r.flows[a].startNs + r.flows[a].fctNs;
        const int64_t eb = r.flows[b].startNs + r.flows[b].fctNs;
        return ea != eb ? ea < eb : r.flows[a].id < r.flows[b].id;
    });
    char line[160];
    for (size_t i : done)
    {
        const NiccFlowRecord& f = r.flows[i];
        std::snprintf(line,
                      sizeof(line),
                      "%08" PRIx32 " %08" PRIx32 " %u %u %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
                      NiccHpccIp(f.src),
                      NiccHpccIp(f.dst),
                      static_cast<unsigned>(sport[i]),
                      static_cast<unsigned>(i < r.flowDport.size() ? r.flowDport[i] : NICC_HPCC_DPORT_BACKGROUND),
                      f.sizeBytes,
                      static_cast<uint64_t>(f.startNs),
                      static_cast<uint64_t>(f.fctNs),
                      static_cast<uint64_t>(i < r.standaloneFctNs.size() ? r.standaloneFctNs[i] : 0));
        os << line;
    }
}

void
NiccWriteHpccPfcRow(std::ostream& os, const NiccPfcEvent& e)
{
    // ifindex: the simulator's device index, whose device 0 is the
    // loopback; nicc's device p is its p + 1.
    char line[96];
    std::snprintf(line,
                  sizeof(line),
                  "%" PRIu64 " %u %u %u %u\n",
                  static_cast<uint64_t>(e.timeNs),
                  e.node,
                  static_cast<unsigned>(e.nodeType),
                  e.port + 1,
                  e.pause ? 1u : 0u);
    os << line;
}

void
NiccWriteHpccPfc(std::ostream& os, const std::vector<NiccPfcEvent>& events)
{
    for (const auto& e : events)
    {
        NiccWriteHpccPfcRow(os, e);
    }
}

void
NiccWritePfcCsvRow(std::ostream& os, const NiccPfcEvent& e)
{
    os << e.timeNs << ',' << e.node << ',' << e.port << ',' << static_cast<unsigned>(e.priority) << ','
       << (e.pause ? "XOFF" : "XON") << ',' << e.fromNode << ',' << e.fromPort << '\n';
}

void
NiccWritePfcCsv(std::ostream& os, const std::vector<NiccPfcEvent>& events)
{
    os << NICC_PFC_CSV_HEADER;
    for (const auto& e : events)
    {
        NiccWritePfcCsvRow(os, e);
    }
}

std::vector<NiccHpccFctFlow>
NiccHpccFctFlows(const NiccScenarioResult& r)
{
    std::vector<NiccHpccFctFlow> v;
    for (size_t i = 0; i < r.flows.size(); ++i)
    {
        if (r.flows[i].fctNs >= 0 && i < r.standaloneFctNs.size())
        {
            v.push_back({r.flows[i].sizeBytes,
                         r.flows[i].fctNs,
                         r.standaloneFctNs[i],
                         i < r.flowDport.size() ? r.flowDport[i] : NICC_HPCC_DPORT_BACKGROUND});
        }
    }
    return v;
}

const char*
NiccHpccFlowTypeName(NiccHpccFlowType t)
{
    switch (t)
    {
    case NiccHpccFlowType::BACKGROUND:
        return "background";
    case NiccHpccFlowType::INCAST:
        return "incast";
    case NiccHpccFlowType::ALL:
        break;
    }
    return "all";
}

std::vector<NiccHpccFctBucket>
NiccHpccFctAnalysis(const std::vector<NiccHpccFctFlow>& flows, NiccHpccFlowType type, uint32_t stepPercent)
{
    std::vector<std::pair<uint64_t, double>> a; // (size, slowdown)
    for (const auto& f : flows)
    {
        const bool keep = type == NiccHpccFlowType::ALL ||
                          (type == NiccHpccFlowType::BACKGROUND && f.dport == NICC_HPCC_DPORT_BACKGROUND) ||
                          (type == NiccHpccFlowType::INCAST && f.dport == NICC_HPCC_DPORT_INCAST);
        if (!keep || f.standaloneFctNs <= 0)
        {
            continue;
        }
        const double slow = static_cast<double>(f.fctNs) / static_cast<double>(f.standaloneFctNs);
        a.emplace_back(f.sizeBytes, slow < 1 ? 1.0 : slow);
    }
    std::sort(a.begin(), a.end());
    if (!a.empty())
    {
        a.pop_back(); // the script's split('\n')[:-2] loses the last line
    }
    std::vector<NiccHpccFctBucket> out;
    const uint64_t n = a.size();
    if (stepPercent == 0 || stepPercent > 100)
    {
        return out;
    }
    for (uint32_t i = 0; i < 100; i += stepPercent)
    {
        const uint64_t lo = i * n / 100;
        const uint64_t hi = std::min<uint64_t>((i + stepPercent) * n / 100, n);
        if (hi <= lo)
        {
            continue;
        }
        std::vector<double> s;
        for (uint64_t k = lo; k < hi; ++k)
        {
            s.push_back(a[k].second);
        }
        std::sort(s.begin(), s.end());
        auto pctl = [&](double p) { return s[static_cast<size_t>(static_cast<double>(s.size()) * p)]; };
        out.push_back({i, a[hi - 1].first, static_cast<uint32_t>(s.size()), pctl(0.5), pctl(0.95), pctl(0.99)});
    }
    return out;
}

} // namespace ns3
