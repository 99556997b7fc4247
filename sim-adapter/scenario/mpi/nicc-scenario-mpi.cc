/*
 * nicc-scenario-mpi.cc — partitions and result merge of a fabric scenario
 * across MPI ranks (nicc-scenario-mpi.h), and the keys it refuses.
 */
#include "nicc-scenario-mpi.h"

#include "ns3/nicc-mpi.h"
#include "ns3/nicc-nic-helper.h"
#include "ns3/node-list.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstring>
#include <tuple>

namespace ns3
{

namespace
{

uint32_t
Block(uint64_t i, uint64_t n, uint32_t ranks)
{
    return static_cast<uint32_t>(i * ranks / n);
}

void
Own(const Ptr<Node>& node, uint32_t rank)
{
    node->SetAttribute("SystemId", UintegerValue(rank));
}

/// The node at the other end of a point-to-point device's link.
Ptr<Node>
PeerNode(const Ptr<NetDevice>& dev)
{
    Ptr<Channel> ch = dev->GetChannel();
    return ch->GetDevice(ch->GetDevice(0) == dev ? 1 : 0)->GetNode();
}

/// The summed counters of a run: one list, used by NiccMergeCounters.
constexpr uint64_t NiccScenarioResult::*kSummed[] = {
    &NiccScenarioResult::pauseFrames,
    &NiccScenarioResult::drops,
    &NiccScenarioResult::ecnMarked,
    &NiccScenarioResult::dataPackets,
    &NiccScenarioResult::retxPackets,
    &NiccScenarioResult::timeouts,
    &NiccScenarioResult::flowTableFullTx,
    &NiccScenarioResult::flowTableFullRx,
    &NiccScenarioResult::cnpsSent,
    &NiccScenarioResult::bytesDelivered,
    &NiccScenarioResult::retxBytes,
    &NiccScenarioResult::events,
    &NiccScenarioResult::dataPacketHops,
    &NiccScenarioResult::rxDataPackets,
    &NiccScenarioResult::dropsHeadroomOverflow,
    &NiccScenarioResult::trims,
    &NiccScenarioResult::dropsTrimNoBuffer,
};

} // namespace

bool
NiccScenario::CheckMpiKeys(std::string* error) const
{
    const uint64_t ranks = U("mpi_ranks");
    if (ranks == 0)
    {
        return true;
    }
    // Every workload, fault, sampler and topology runs across ranks: what a
    // rank cannot see alone reaches the others as a notice (collectives,
    // training: key notice_ns) or is summed or gathered at sample times
    // (NiccMpi::SumAll) and after the run.
    const std::string topo = Get("topology");
    if (U("delay_ns") < 2)
    {
        *error = "key 'delay_ns': at least 2 with mpi_ranks (the ranks' time window is the link "
                 "delay less 1 ns)";
        return false;
    }
    // Units of the partition (a file topology's edge switches are counted
    // when it is built: NiccPartitionByEdge).
    const bool pod = Get("partition") == "pod";
    const uint64_t units = topo == "leaf-spine" ? U("leaves")
                           : topo == "rail"     ? U("rails")
                           : topo == "file"     ? ranks
                           : pod                ? U("pods")
                                                : U("pods") * U("tors_per_pod");
    if (ranks > units)
    {
        *error = "key 'mpi_ranks': " + std::to_string(ranks) + " ranks for " + std::to_string(units) + " " +
                 (topo == "leaf-spine" ? "leaves" : topo == "rail" ? "rails" : pod ? "pods" : "ToRs") +
                 " (partition=" + Get("partition") + "): at most one rank per unit";
        return false;
    }
    return NiccMpi::Start(static_cast<uint32_t>(ranks), error);
}

void
NiccPartitionFatTree(const NiccFatTreeTopology& ft, const NiccFatTreeParams& p, uint32_t ranks, bool byPod)
{
    const uint32_t tors = static_cast<uint32_t>(ft.tors.size());
    for (uint32_t t = 0; t < tors; ++t)
    {
        const uint32_t rank = byPod ? Block(t / p.torsPerPod, p.pods, ranks) : Block(t, tors, ranks);
        Own(ft.tors[t], rank);
        for (uint32_t k = 0; k < p.hostsPerTor; ++k)
        {
            Own(ft.hosts[t * p.hostsPerTor + k], rank);
        }
    }
    for (uint32_t a = 0; a < ft.aggs.size(); ++a)
    {
        Own(ft.aggs[a], byPod ? Block(a / p.aggsPerPod, p.pods, ranks) : Block(a, ft.aggs.size(), ranks));
    }
    for (uint32_t c = 0; c < ft.cores.size(); ++c)
    {
        Own(ft.cores[c], Block(c, ft.cores.size(), ranks));
    }
}

void
NiccPartitionLeafSpine(const NiccLeafSpineTopology& ls, uint32_t ranks)
{
    const uint32_t leaves = static_cast<uint32_t>(ls.leaves.size());
    const uint32_t hpl = static_cast<uint32_t>(ls.hosts.size()) / leaves;
    for (uint32_t l = 0; l < leaves; ++l)
    {
        Own(ls.leaves[l], Block(l, leaves, ranks));
        for (uint32_t k = 0; k < hpl; ++k)
        {
            Own(ls.hosts[l * hpl + k], Block(l, leaves, ranks));
        }
    }
    for (uint32_t s = 0; s < ls.spines.size(); ++s)
    {
        Own(ls.spines[s], Block(s, ls.spines.size(), ranks));
    }
}

bool
NiccPartitionByEdge(const std::vector<Ptr<NetDevice>>& endpoints,
                    const std::vector<Ptr<NetDevice>>& followers,
                    const std::vector<Ptr<NiccSwitchNode>>& switches,
                    uint32_t ranks,
                    std::string* error)
{
    // Edge switches in the order their first endpoint comes; the others.
    std::vector<int32_t> edgeIndex(NodeList::GetNNodes(), -1);
    std::vector<Ptr<Node>> edges;
    for (const auto& dev : endpoints)
    {
        Ptr<Node> sw = PeerNode(dev);
        if (edgeIndex[sw->GetId()] < 0)
        {
            edgeIndex[sw->GetId()] = static_cast<int32_t>(edges.size());
            edges.push_back(sw);
        }
    }
    if (edges.size() < ranks)
    {
        *error = "key 'mpi_ranks': " + std::to_string(ranks) + " ranks for " + std::to_string(edges.size()) +
                 " edge switches (the switches endpoints hang off): at most one rank per edge switch";
        return false;
    }
    std::vector<Ptr<Node>> inner;
    for (const auto& sw : switches)
    {
        if (edgeIndex[sw->GetId()] < 0)
        {
            inner.push_back(sw);
        }
    }
    for (uint32_t e = 0; e < edges.size(); ++e)
    {
        Own(edges[e], Block(e, edges.size(), ranks));
    }
    for (const auto& dev : endpoints)
    {
        Ptr<Node> sw = PeerNode(dev);
        Own(dev->GetNode(), edges[edgeIndex[sw->GetId()]]->GetSystemId());
    }
    for (uint32_t c = 0; c < inner.size(); ++c)
    {
        Own(inner[c], Block(c, inner.size(), ranks));
    }
    for (const auto& dev : followers)
    {
        Own(dev->GetNode(), PeerNode(dev)->GetSystemId());
    }
    return true;
}

bool
NiccPartitionLinks(const NiccFabricHelper& fabric, uint32_t* crossing, std::string* error)
{
    *crossing = 0;
    Time shortest = Time::Max();
    for (const auto& ch : fabric.GetChannels())
    {
        ch->Partition(NiccMpi::Rank());
        if (ch->CrossesRanks())
        {
            ++*crossing;
            shortest = std::min(shortest, ch->GetDelay());
        }
    }
    if (*crossing > 0 && shortest < NanoSeconds(2))
    {
        *error = "key 'mpi_ranks': a link between two ranks has a delay of " +
                 std::to_string(shortest.GetNanoSeconds()) +
                 " ns: at least 2 ns (the ranks' time window is the shortest such delay less 1 ns)";
        return false;
    }
    // ns-3 grants a window of the shortest delay between ranks and runs the
    // events at its end too; a frame with no serialization time (32 B at
    // 400 Gb/s rounds to 0 ns) can land exactly there. One nanosecond less
    // keeps every frame from another rank strictly after the window.
    if (*crossing > 0)
    {
        NiccMpi::BoundLookAhead(shortest - NanoSeconds(1));
    }
    return true;
}

void
NiccAddCounters(NiccScenarioResult* r,
                const std::vector<Ptr<NiccSwitchNode>>& switches,
                const std::vector<Ptr<Node>>& hosts)
{
    for (const auto& sw : switches)
    {
        r->pauseFrames += sw->GetPfcPauseSent();
        r->drops += sw->GetDrops();
        r->dropsHeadroomOverflow += sw->GetHeadroomOverflowDrops();
        r->trims += sw->GetTrims();
        r->dropsTrimNoBuffer += sw->GetTrimDrops();
        r->ecnMarked += sw->GetEcnMarked();
        r->dataPacketHops += sw->GetDataPacketsReceived();
        r->queueMaxExact = std::max(r->queueMaxExact, sw->GetMaxQueueBytes());
    }
    for (const auto& h : hosts)
    {
        Ptr<NiccNic> nic = NiccNicHelper::GetNic(h);
        r->dataPackets += nic->GetTxDataPackets();
        r->retxPackets += nic->GetRetxPackets();
        r->timeouts += nic->GetTimeouts();
        r->flowTableFullTx += nic->GetFlowTableFullTx();
        r->flowTableFullRx += nic->GetFlowTableFullRx();
        r->cnpsSent += nic->GetCnpsSent();
        r->bytesDelivered += nic->GetRxDeliveredBytes();
        r->retxBytes += nic->GetRetxBytes();
        r->rxDataPackets += nic->GetRxDataPackets();
        r->dataPacketHops += nic->GetRxDataPackets();
    }
}

void
NiccMergeFlows(std::vector<NiccFlowRecord>* flows)
{
    if (NiccMpi::Size() == 1)
    {
        return;
    }
    std::vector<uint8_t> mine;
    for (const auto& f : *flows)
    {
        if (f.nic)
        {
            NiccMpiAppend(&mine, f.id);
            NiccMpiAppend(&mine, f.fctNs);
            NiccMpiAppend(&mine, f.ackedBytes);
        }
    }
    const std::vector<uint8_t> all = NiccMpi::GatherToRoot(mine);
    constexpr std::size_t kRecord = sizeof(uint32_t) + sizeof(int64_t) + sizeof(uint64_t);
    for (std::size_t at = 0; at + kRecord <= all.size(); at += kRecord)
    {
        const auto id = NiccMpiTake<uint32_t>(&all[at]);
        NiccFlowRecord& f = (*flows)[id];
        f.fctNs = NiccMpiTake<int64_t>(&all[at + sizeof(uint32_t)]);
        f.ackedBytes = NiccMpiTake<uint64_t>(&all[at + sizeof(uint32_t) + sizeof(int64_t)]);
    }
}

void
NiccMergeCounters(NiccScenarioResult* r, std::vector<uint64_t>* reorder, uint32_t* reorderMax)
{
    if (!NiccMpi::Active())
    {
        return;
    }
    std::vector<uint64_t> sums;
    for (auto field : kSummed)
    {
        sums.push_back(r->*field);
    }
    sums.push_back(static_cast<uint64_t>(r->pauseTimeNs)); // whole nanoseconds (PauseMeter)
    NiccMpi::SumToRoot(&sums);
    for (std::size_t i = 0; i < std::size(kSummed); ++i)
    {
        r->*kSummed[i] = sums[i];
    }
    r->pauseTimeNs = static_cast<double>(sums.back());
    std::vector<uint64_t> maxima{r->queueMaxExact, *reorderMax};
    NiccMpi::MaxToRoot(&maxima);
    r->queueMaxExact = maxima[0];
    *reorderMax = static_cast<uint32_t>(maxima[1]);
    NiccMpi::SumToRoot(reorder);
    // Queue histograms: every rank sampled its own ports; counters add.
    for (NiccLogHistogram* h : {&r->queueHist, &r->hostDownQueueHist})
    {
        std::vector<uint64_t> counters = h->Counters(NiccLogHistogram::kMaxBuckets);
        std::vector<uint64_t> max{h->Max()};
        NiccMpi::SumToRoot(&counters);
        NiccMpi::MaxToRoot(&max);
        h->Assign(counters, max[0]);
    }

    // PFC events: every rank's, in one order that does not depend on which
    // rank saw them (the same order with one rank).
    std::vector<uint8_t> mine;
    for (const auto& e : r->pfcLog.kept)
    {
        NiccMpiAppend(&mine, e);
    }
    const std::vector<uint8_t> all = NiccMpi::GatherToRoot(mine);
    r->pfcLog.kept.clear();
    for (std::size_t at = 0; at + sizeof(NiccPfcEvent) <= all.size(); at += sizeof(NiccPfcEvent))
    {
        r->pfcLog.kept.push_back(NiccMpiTake<NiccPfcEvent>(&all[at]));
    }
    r->pfcLog.frames = r->pfcLog.kept.size();
    std::stable_sort(r->pfcLog.kept.begin(), r->pfcLog.kept.end(), [](const NiccPfcEvent& a, const NiccPfcEvent& b) {
        return std::tie(a.timeNs, a.node, a.port, a.priority, a.pause) <
               std::tie(b.timeNs, b.node, b.port, b.priority, b.pause);
    });
}

} // namespace ns3
