/*
 * nicc-fault-mpi.cc — NiccFaultInjector's figures of every MPI rank, joined
 * on rank 0 before Finish computes the results (nicc-fault.h).
 *
 * Every rank holds the whole fabric and runs every link change at the same
 * time, but sees only its own nodes' frames: a frame lost on a link is
 * counted on the rank that loses it (the sender's for a link already down,
 * the receiver's for a frame on the wire when it went down), a flow's
 * deliveries on its receiver's rank and its end on its sender's. Counters
 * add, flow sets join, and each flow's series comes from one rank.
 */
#include "nicc-fault.h"
#include "nicc-scenario-mpi.h"

#include "ns3/nicc-mpi.h"
#include "ns3/nicc-nic-helper.h"

namespace ns3
{

namespace
{

constexpr uint64_t kTotalKey = UINT64_MAX; ///< the series of every flow, in the series records

} // namespace

NiccFaultInjector::Ranks
NiccFaultInjector::Gather(NiccLinkLossTotals* totals) const
{
    Ranks all{m_faults, m_series, m_total, {}};
    for (const auto& h : m_hosts)
    {
        if (h->GetSystemId() != NiccMpi::Rank())
        {
            continue; // another rank runs its flows
        }
        Ptr<NiccNic> nic = NiccNicHelper::GetNic(h);
        for (uint32_t q = 0; q < nic->GetNQps(); ++q)
        {
            all.finish[(static_cast<uint64_t>(h->GetId()) << 32) | q] = nic->GetQpFinishTime(q).GetTimeStep();
        }
    }
    // Counters: the links' losses by cause, each fault's lost frames.
    std::vector<uint64_t> sums;
    for (const auto& ch : m_all)
    {
        sums.insert(sums.end(), {ch->GetLostPackets(NiccChannel::LOST_LINK_DOWN),
                                 ch->GetLostBytes(NiccChannel::LOST_LINK_DOWN),
                                 ch->GetLostPackets(NiccChannel::LOST_CORRUPTION),
                                 ch->GetLostBytes(NiccChannel::LOST_CORRUPTION)});
    }
    for (const Fault& f : m_faults)
    {
        const NiccFaultResult& r = f.result;
        sums.insert(sums.end(), {r.lostPackets, r.lostBytes, r.lostDataPackets, r.lostDataPayloadBytes});
    }
    NiccMpi::SumToRoot(&sums);
    for (size_t i = 0; i < m_all.size(); ++i)
    {
        totals->downPackets += sums[4 * i];
        totals->downBytes += sums[4 * i + 1];
        totals->corruptionPackets += sums[4 * i + 2];
        totals->corruptionBytes += sums[4 * i + 3];
    }
    for (size_t i = 0, at = 4 * m_all.size(); i < all.faults.size(); ++i, at += 4)
    {
        NiccFaultResult& r = all.faults[i].result;
        r.lostPackets = sums[at];
        r.lostBytes = sums[at + 1];
        r.lostDataPackets = sums[at + 2];
        r.lostDataPayloadBytes = sums[at + 3];
    }
    if (NiccMpi::Size() == 1)
    {
        return all;
    }
    // Records: affected flows (fault, key), finish times (key, time), series
    // (key, first, bins, the bins).
    std::vector<uint8_t> affected;
    for (uint64_t i = 0; i < m_faults.size(); ++i)
    {
        for (const auto& [key, unused] : m_faults[i].affected)
        {
            NiccMpiAppend(&affected, i);
            NiccMpiAppend(&affected, key);
        }
    }
    std::vector<uint8_t> finish;
    for (const auto& [key, t] : all.finish)
    {
        NiccMpiAppend(&finish, key);
        NiccMpiAppend(&finish, t);
    }
    std::vector<uint8_t> series;
    auto addSeries = [&series](uint64_t key, const Series& s) {
        NiccMpiAppend(&series, key);
        NiccMpiAppend(&series, static_cast<uint64_t>(s.first));
        NiccMpiAppend(&series, static_cast<uint64_t>(s.bins.size()));
        for (uint64_t b : s.bins)
        {
            NiccMpiAppend(&series, b);
        }
    };
    for (const auto& [key, s] : m_series)
    {
        addSeries(key, s);
    }
    addSeries(kTotalKey, m_total);
    affected = NiccMpi::GatherToRoot(affected);
    finish = NiccMpi::GatherToRoot(finish);
    series = NiccMpi::GatherToRoot(series);
    constexpr size_t k8 = sizeof(uint64_t);
    for (size_t at = 0; at + 2 * k8 <= affected.size(); at += 2 * k8)
    {
        all.faults[NiccMpiTake<uint64_t>(&affected[at])].affected[NiccMpiTake<uint64_t>(&affected[at + k8])] = true;
    }
    for (size_t at = 0; at + 2 * k8 <= finish.size(); at += 2 * k8)
    {
        all.finish[NiccMpiTake<uint64_t>(&finish[at])] = NiccMpiTake<int64_t>(&finish[at + k8]);
    }
    all.series.clear();
    all.total = Series{};
    for (size_t at = 0; at + 3 * k8 <= series.size();)
    {
        const auto key = NiccMpiTake<uint64_t>(&series[at]);
        const auto first = NiccMpiTake<uint64_t>(&series[at + k8]);
        const auto n = NiccMpiTake<uint64_t>(&series[at + 2 * k8]);
        at += 3 * k8;
        Series& into = key == kTotalKey ? all.total : all.series[key];
        for (uint64_t b = 0; b < n && at + k8 <= series.size(); ++b, at += k8)
        {
            const auto bytes = NiccMpiTake<uint64_t>(&series[at]);
            if (bytes > 0 || key != kTotalKey)
            {
                into.Add(static_cast<size_t>(first + b), bytes);
            }
        }
    }
    return all;
}

} // namespace ns3
