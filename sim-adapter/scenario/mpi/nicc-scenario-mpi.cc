/*
 * nicc-scenario-mpi.cc — partitions and result merge of a fabric scenario
 * across MPI ranks (nicc-scenario-mpi.h), and the keys it refuses.
 */
#include "nicc-scenario-mpi.h"

#include "ns3/nicc-mpi.h"
#include "ns3/nicc-nic-helper.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdlib>
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

/// A fixed-size record as bytes, for GatherToRoot.
template <typename T>
void
Append(std::vector<uint8_t>* out, const T& v)
{
    const auto* b = reinterpret_cast<const uint8_t*>(&v);
    out->insert(out->end(), b, b + sizeof(T));
}

template <typename T>
T
Take(const uint8_t* p)
{
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
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
    const std::string topo = Get("topology");
    if (topo != "fat-tree" && topo != "leaf-spine")
    {
        *error = "key 'mpi_ranks': topology=" + topo +
                 " is not partitioned across ranks (fat-tree and leaf-spine are)";
        return false;
    }
    // What a rank cannot see alone: workloads that start flows when flows of
    // other hosts finish, link faults and losses (the loss draws and the
    // fault bookkeeping are per link, not per end), and whole-fabric monitors.
    static const struct
    {
        const char* key;
        const char* what;
    } kNotDistributed[] = {
        {"allreduce_bytes", "collectives"},
        {"alltoall_bytes", "collectives"},
        {"permutation_bytes", "the permutation workload"},
        {"fault", "link faults"},
        {"flap", "link faults"},
        {"link_loss", "link losses"},
        {"loss_rate", "link losses"},
        {"pfc_storm", "PFC storms"},
        {"pfc_deadlock_check_us", "the PFC deadlock check"},
        {"monitor", "the port monitor"},
        {"qlen_mon_file", "the port monitor"},
        {"link_util_interval_us", "the link utilization series"},
    };
    for (const auto& k : kNotDistributed)
    {
        // Off: an empty spec, or a number equal to 0 ("0", "0.0", "0e0").
        const std::string v = Get(k.key);
        char* end = nullptr;
        const double x = std::strtod(v.c_str(), &end);
        const bool zero = !v.empty() && end && *end == '\0' && x == 0.0;
        if (!v.empty() && !zero)
        {
            *error = std::string("key '") + k.key + "': " + k.what +
                     " do not run across MPI ranks yet (key 'mpi_ranks' = " + std::to_string(ranks) +
                     "); run without mpi_ranks";
            return false;
        }
    }
    if (U("delay_ns") < 2)
    {
        *error = "key 'delay_ns': at least 2 with mpi_ranks (the ranks' time window is the link "
                 "delay less 1 ns)";
        return false;
    }
    const uint64_t units = topo == "leaf-spine" ? U("leaves")
                           : Get("partition") == "pod" ? U("pods")
                                                      : U("pods") * U("tors_per_pod");
    if (ranks > units)
    {
        *error = "key 'mpi_ranks': " + std::to_string(ranks) + " ranks for " + std::to_string(units) + " " +
                 (topo == "leaf-spine" ? "leaves" : Get("partition") == "pod" ? "pods" : "ToRs") +
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

uint32_t
NiccPartitionLinks(const NiccFabricHelper& fabric)
{
    uint32_t crossing = 0;
    Time shortest = Time::Max();
    for (const auto& ch : fabric.GetChannels())
    {
        ch->Partition(NiccMpi::Rank());
        if (ch->CrossesRanks())
        {
            ++crossing;
            shortest = std::min(shortest, ch->GetDelay());
        }
    }
    // ns-3 grants a window of the shortest delay between ranks and runs the
    // events at its end too; a frame with no serialization time (32 B at
    // 400 Gb/s rounds to 0 ns) can land exactly there. One nanosecond less
    // keeps every frame from another rank strictly after the window.
    if (crossing > 0)
    {
        NiccMpi::BoundLookAhead(shortest - NanoSeconds(1));
    }
    return crossing;
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
            Append(&mine, f.id);
            Append(&mine, f.fctNs);
            Append(&mine, f.ackedBytes);
        }
    }
    const std::vector<uint8_t> all = NiccMpi::GatherToRoot(mine);
    constexpr std::size_t kRecord = sizeof(uint32_t) + sizeof(int64_t) + sizeof(uint64_t);
    for (std::size_t at = 0; at + kRecord <= all.size(); at += kRecord)
    {
        const auto id = Take<uint32_t>(&all[at]);
        NiccFlowRecord& f = (*flows)[id];
        f.fctNs = Take<int64_t>(&all[at + sizeof(uint32_t)]);
        f.ackedBytes = Take<uint64_t>(&all[at + sizeof(uint32_t) + sizeof(int64_t)]);
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
        Append(&mine, e);
    }
    const std::vector<uint8_t> all = NiccMpi::GatherToRoot(mine);
    r->pfcLog.kept.clear();
    for (std::size_t at = 0; at + sizeof(NiccPfcEvent) <= all.size(); at += sizeof(NiccPfcEvent))
    {
        r->pfcLog.kept.push_back(Take<NiccPfcEvent>(&all[at]));
    }
    r->pfcLog.frames = r->pfcLog.kept.size();
    std::stable_sort(r->pfcLog.kept.begin(), r->pfcLog.kept.end(), [](const NiccPfcEvent& a, const NiccPfcEvent& b) {
        return std::tie(a.timeNs, a.node, a.port, a.priority, a.pause) <
               std::tie(b.timeNs, b.node, b.port, b.priority, b.pause);
    });
}

} // namespace ns3
