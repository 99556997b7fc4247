/*
 * nicc-scenario-fabric-measure.cc — what RunFabric (nicc-scenario-fabric.cc)
 * computes from a finished fabric run: each flow's ideal and standalone FCT
 * on its own path (the formula is in nicc-scenario-fabric.cc's header), the
 * bytes and utilization of every link, the permutation's throughput, and
 * the reordering percentiles of the result.
 */
#include "nicc-scenario-meters.h"

#include <numeric>

namespace ns3
{
namespace fabric_meters
{

void
FlowIdeals(NiccScenarioResult* r,
           NiccFabricHelper& fabric,
           const std::vector<double>& hostBpsOf,
           double fabricBps,
           uint32_t mtu,
           const NiccWorkload& work)
{
    // Each flow's path: switches crossed and summed link delay of a shortest
    // path (BFS over the links; every stock topology is symmetric, so this is
    // 1 / 3 / 5 switches as its shape says), host link rates at both ends
    // and the slowest fabric link in between.
    // Flows by source: one search per source, held while its flows are done.
    std::vector<size_t> order(r->flows.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return r->flows[a].src < r->flows[b].src; });
    r->idealFctNs.assign(r->flows.size(), 0);
    r->standaloneFctNs.assign(r->flows.size(), 0);
    NiccPathsFrom paths;
    uint32_t pathsSrc = UINT32_MAX;
    for (size_t i : order)
    {
        const NiccFlowRecord& f = r->flows[i];
        if (f.src != pathsSrc)
        {
            paths = fabric.PathsFrom(NodeList::GetNode(f.src));
            pathsSrc = f.src;
        }
        const uint32_t links = paths.links[f.dst];
        const uint32_t switches = links >= 2 && links != UINT32_MAX ? links - 1 : 1;
        const double pathDelayNs = paths.delayNs[f.dst];
        const bool intOn = NiccQpSender::UsesInt(f.cc); // INT on the flow's data and ACKs
        const uint32_t hdr = NiccRoceHeader::BASE_SIZE + (intOn ? NiccRoceHeader::IntBytes(switches) : 0u);
        const uint32_t ack = NiccRoceHeader::BASE_SIZE + (intOn ? NiccRoceHeader::IntBytes(switches) : 0u);
        const uint64_t full = f.sizeBytes / mtu;
        const uint64_t rest = f.sizeBytes % mtu;
        const double frames = static_cast<double>(f.sizeBytes + (full + (rest ? 1 : 0)) * hdr);
        const double last = static_cast<double>((rest ? rest : mtu) + hdr);
        std::vector<double> rates(switches + 1, fabricBps);
        rates.front() = hostBpsOf[f.src];
        rates.back() = hostBpsOf[f.dst];
        const double rmin = *std::min_element(rates.begin(), rates.end());
        double ns = frames * 8e9 / rmin + 2.0 * pathDelayNs - last * 8e9 / rmin;
        for (double rate : rates)
        {
            ns += (last + ack) * 8e9 / rate;
        }
        r->idealFctNs[i] = static_cast<int64_t>(std::ceil(ns));
        r->standaloneFctNs[i] = NiccHpccStandaloneFctNs(f.sizeBytes, mtu, NiccRoceHeader::BASE_SIZE,
                                                        NiccHpccBaseRttNs(pathDelayNs, rates, mtu),
                                                        static_cast<uint64_t>(rmin));
    }
    for (const auto& f : r->flows)
    {
        r->flowKind.push_back(static_cast<uint8_t>(work.GetKind(f.id)));
        r->bytesAcked += f.ackedBytes;
        r->bytesOffered += f.sizeBytes;
    }
}

void
LinkStats(NiccScenarioResult* r, const std::vector<Ptr<NiccNetDevice>>& devices, const FabricNodes& nodes)
{
    std::vector<uint64_t> txBytes; // per device; summed over MPI ranks
    for (const auto& dev : devices)
    {
        txBytes.push_back(dev->GetTxBytes());
    }
    NiccMpi::SumToRoot(&txBytes);
    for (size_t i = 0; i < devices.size(); ++i)
    {
        const Ptr<NiccNetDevice>& dev = devices[i];
        const uint32_t from = dev->GetNode()->GetId();
        const uint32_t to = dev->GetPeer()->GetNode()->GetId();
        const double bps = static_cast<double>(dev->GetDataRate().GetBitRate());
        NiccLinkStat l{nodes.name[from],
                       nodes.name[to],
                       nodes.onNvlink[from] || nodes.onNvlink[to]
                           ? "nvlink"
                           : (nodes.edgeOf[from] >= 0 ? "up" : (nodes.edgeOf[to] >= 0 ? "down" : "fabric")),
                       bps / 1e9,
                       txBytes[i],
                       r->simSeconds > 0 ? static_cast<double>(txBytes[i]) * 8.0 / (bps * r->simSeconds)
                                         : 0.0};
        r->links.push_back(l);
        if (l.kind == "fabric")
        {
            r->utilization += l.utilization; // mean over fabric links, below
        }
    }
    const size_t fabricLinks = std::count_if(r->links.begin(), r->links.end(),
                                             [](const NiccLinkStat& l) { return l.kind == "fabric"; });
    r->utilization = fabricLinks ? r->utilization / static_cast<double>(fabricLinks) : 0.0;
}

double
PermutationThroughput(const NiccScenarioResult& r,
                      const FabricSampler& s,
                      const NiccWorkload& work,
                      Time end,
                      double hostBps,
                      uint32_t mtu,
                      uint32_t ackInterval,
                      uint32_t hosts)
{
    if (!s.hasPermutation || !s.permSnapshot || end <= s.warmup)
    {
        return r.permutationThroughput;
    }
    const double acked = static_cast<double>(s.PermutationAcked(r.flows) - s.permAckedAtWarmup);
    const uint32_t hops = 3;
    // The permutation's flows share one cc (permutation_cc or cc).
    const auto perm = std::find_if(r.flows.begin(), r.flows.end(), [&](const NiccFlowRecord& f) {
        return work.GetKind(f.id) == NiccFlowKind::PERMUTATION;
    });
    const bool intOn = perm != r.flows.end() && NiccQpSender::UsesInt(perm->cc);
    const double hdr = NiccRoceHeader::BASE_SIZE + (intOn ? NiccRoceHeader::IntBytes(hops) : 0u);
    const double ack = (NiccRoceHeader::BASE_SIZE + (intOn ? NiccRoceHeader::IntBytes(hops) : 0u)) /
                       static_cast<double>(ackInterval);
    const double goodputPerHost = hostBps * mtu / (mtu + hdr + ack);
    return acked * 8.0 / (goodputPerHost * hosts * (end - s.warmup).GetSeconds());
}

} // namespace fabric_meters

uint32_t
NiccScenarioResult::OooPercentile(double q) const
{
    uint64_t total = 0;
    for (uint64_t c : oooHistogram)
    {
        total += c;
    }
    if (total == 0)
    {
        return 0;
    }
    const uint64_t rank = std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(q * static_cast<double>(total))));
    uint64_t seen = 0;
    for (uint32_t d = 0; d < oooHistogram.size(); ++d)
    {
        seen += oooHistogram[d];
        if (seen >= rank)
        {
            return d;
        }
    }
    return static_cast<uint32_t>(oooHistogram.size() - 1);
}

} // namespace ns3
