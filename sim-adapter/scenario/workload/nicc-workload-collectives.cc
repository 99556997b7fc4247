/*
 * nicc-workload-collectives.cc — NiccWorkload's collectives: ring and tree
 * all-reduce (the ring layouts of NiccAllReduceRings; NVLink and PXN relays
 * inside a server), all-to-all, and the step machine that starts each
 * step's flows when the previous step's flows are done (see the header).
 */
#include "nicc-workload.h"

#include "ns3/abort.h"
#include "ns3/nicc-mpi.h"
#include "ns3/nicc-ordered-scheduler.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace ns3
{

std::vector<std::vector<uint32_t>>
NiccAllReduceRings(const std::string& layout, uint32_t groups, uint32_t groupSize)
{
    std::vector<std::vector<uint32_t>> rings;
    if (layout == "rail-local" || layout == "rail-crossing")
    {
        // One ring per position in the group (per rail on the rail fabric):
        // ring i visits every group; rail-local keeps position i (NIC i of
        // every server: one rail), rail-crossing takes position
        // (i + g) mod size in group g (every hop changes rail).
        rings.resize(groupSize);
        for (uint32_t i = 0; i < groupSize; ++i)
        {
            for (uint32_t g = 0; g < groups; ++g)
            {
                const uint32_t pos = layout == "rail-local" ? i : (i + g) % groupSize;
                rings[i].push_back(g * groupSize + pos);
            }
        }
        return rings;
    }
    const uint32_t n = groups * groupSize;
    rings.emplace_back(n);
    for (uint32_t k = 0; k < n; ++k)
    {
        // interleaved: rank k in group k % groups, so each ring hop crosses
        // groups (leaves / ToRs; on rails: servers, mostly on the same rail).
        rings[0][k] = layout == "sequential" ? k : (k % groups) * groupSize + k / groups;
    }
    return rings;
}

void
NiccWorkload::StartRingAllReduce(const std::vector<uint32_t>& ranks, uint64_t bytes, Time start)
{
    (void)StartRingAllReduce(std::vector<std::vector<uint32_t>>{ranks}, bytes, start);
}

bool
NiccWorkload::StartRingAllReduce(const std::vector<std::vector<uint32_t>>& rings, uint64_t bytes, Time start)
{
    return StartRingAllReduce(rings, bytes, start, "allreduce", nullptr);
}

bool
NiccWorkload::StartRingAllReduce(const std::vector<std::vector<uint32_t>>& rings,
                                 uint64_t bytes,
                                 Time start,
                                 const std::string& name,
                                 std::function<void()> onDone,
                                 bool inServerNvlink)
{
    if (bytes == 0 || rings.empty())
    {
        return bytes == 0;
    }
    const uint64_t n = rings[0].size();
    for (const auto& r : rings)
    {
        if (r.size() != n || n < 2)
        {
            return false;
        }
    }
    Job job;
    job.result.name = name;
    job.onDone = std::move(onDone);
    job.result.stepsPlanned = static_cast<uint32_t>(2 * (n - 1));
    job.kind = NiccFlowKind::ALLREDUCE;
    job.groups = rings;
    job.chunk = std::max<uint64_t>(1, (bytes + rings.size() * n - 1) / (rings.size() * n));
    job.inServerNvlink = inServerNvlink;
    StartJob(std::move(job), start);
    return true;
}

bool
NiccWorkload::StartTreeAllReduce(const std::vector<std::vector<uint32_t>>& groups,
                                 uint64_t bytes,
                                 uint32_t chunks,
                                 Time start,
                                 const std::string& name,
                                 std::function<void()> onDone)
{
    // As parallel rings: each group reduces its share bytes / groups.
    const uint64_t share = groups.empty() ? 0 : (bytes + groups.size() - 1) / groups.size();
    std::vector<std::vector<NiccTransfer>> plan = NiccTreeAllReducePlan(groups, share, chunks);
    if (plan.empty())
    {
        return false;
    }
    Job job;
    job.result.name = name;
    job.onDone = std::move(onDone);
    job.result.stepsPlanned = static_cast<uint32_t>(plan.size());
    job.kind = NiccFlowKind::ALLREDUCE;
    job.groups = groups;
    job.plan = std::move(plan);
    StartJob(std::move(job), start);
    return true;
}

void
NiccWorkload::SetIntraServer(const std::vector<Ptr<Node>>& gpus, uint32_t perServer, bool pxn)
{
    m_gpus = gpus;
    m_perServer = std::max<uint32_t>(1, perServer);
    m_pxn = pxn && !gpus.empty();
}

void
NiccWorkload::CountHops(uint32_t j, Ptr<Node> a, Ptr<Node> b)
{
    if (!m_hops)
    {
        return;
    }
    std::vector<uint64_t>& h = m_jobs[j].result.flowsByFabricHops;
    const uint32_t hops = m_hops(a, b);
    if (h.size() <= hops)
    {
        h.resize(hops + 1, 0);
    }
    ++h[hops];
}

void
NiccWorkload::Send(uint32_t j, uint32_t src, uint32_t dst, uint64_t bytes)
{
    const NiccFlowKind kind = m_jobs[j].kind;
    ++m_jobs[j].pending;
    const uint32_t server = src / m_perServer;
    const uint32_t rail = dst % m_perServer;
    const bool sameServer = server == dst / m_perServer;
    const bool local = sameServer && !m_gpus.empty() && m_jobs[j].inServerNvlink;
    if (!local && (!m_pxn || (!sameServer && src % m_perServer == rail)))
    {
        m_flowJob.emplace(Add(src, dst, bytes, kind), j);
        CountHops(j, m_hosts[src], m_hosts[dst]);
        return;
    }
    NiccCollectiveResult& r = m_jobs[j].result;
    ++r.nvlinkFlows;
    if (sameServer)
    {
        // Inside the server: NVLink only.
        m_flowJob.emplace(AddNodes(m_gpus[src], m_gpus[dst], bytes, kind, Simulator::Now()), j);
        CountHops(j, m_gpus[src], m_gpus[dst]);
        return;
    }
    // PXN: to the GPU of this server on the receiver's rail, then on that rail.
    const uint32_t via = server * m_perServer + rail;
    ++r.relayedTransfers;
    const uint32_t id = AddNodes(m_gpus[src], m_gpus[via], bytes, kind, Simulator::Now());
    CountHops(j, m_gpus[src], m_gpus[via]);
    m_relay.emplace(id, Relay{j, via, dst, bytes});
}

void
NiccWorkload::StartAllToAll(const std::vector<uint32_t>& ranks, uint64_t bytes, Time start)
{
    const uint64_t n = ranks.size();
    if (bytes == 0 || n < 2)
    {
        return;
    }
    Job job;
    job.result.name = "alltoall";
    job.result.stepsPlanned = static_cast<uint32_t>(n - 1);
    job.kind = NiccFlowKind::ALLTOALL;
    job.groups = {ranks};
    job.chunk = std::max<uint64_t>(1, (bytes + n - 1) / n);
    StartJob(std::move(job), start);
}

void
NiccWorkload::StartJob(Job job, Time start)
{
    if (!m_traced)
    {
        for (const auto& h : m_hosts)
        {
            NiccNicHelper::GetNic(h)->TraceConnectWithoutContext(
                "FlowComplete",
                MakeCallback(&NiccWorkload::FlowComplete, this));
        }
        for (const auto& g : m_gpus)
        {
            NiccNicHelper::GetNic(g)->TraceConnectWithoutContext(
                "FlowComplete",
                MakeCallback(&NiccWorkload::FlowComplete, this));
        }
        m_traced = true;
    }
    m_jobs.push_back(std::move(job));
    Simulator::Schedule(start, &NiccWorkload::JobStep, this, static_cast<uint32_t>(m_jobs.size() - 1));
}

void
NiccWorkload::JobStep(uint32_t j)
{
    Job& job = m_jobs[j];
    job.result.steps.push_back({job.step, Simulator::Now().GetNanoSeconds(), -1});
    job.pending = 0;
    if (!job.plan.empty())
    {
        for (const NiccTransfer& t : job.plan[job.step])
        {
            Send(j, t.src, t.dst, t.bytes);
        }
        return;
    }
    const uint64_t chunk = job.chunk;
    // Ring: every rank to the next. All-to-all, step k: rank r to r + k + 1.
    const uint32_t shift = job.kind == NiccFlowKind::ALLTOALL ? job.step + 1 : 1;
    for (const auto& g : job.groups)
    {
        const uint32_t n = static_cast<uint32_t>(g.size());
        for (uint32_t r = 0; r < n; ++r)
        {
            Send(j, g[r], g[(r + shift) % n], chunk);
        }
    }
}

bool
NiccWorkload::SetNotices(Time delay, std::string* error)
{
    m_noticeDelay = delay;
    return delay.IsZero() ||
           NiccMpi::OpenMailboxes(m_hosts, MakeCallback(&NiccWorkload::NoticeArrived, this), error);
}

void
NiccWorkload::FlowComplete(uint32_t flowId, uint32_t /*qpn*/, uint64_t /*bytes*/, Time /*fct*/)
{
    if (m_noticeDelay.IsZero())
    {
        FlowDone(flowId);
        return;
    }
    if (m_flowJob.count(flowId) == 0 && m_relay.count(flowId) == 0)
    {
        return; // not a collective's: no rank needs to hear of it
    }
    ScheduleNotice(flowId, m_noticeDelay);
    uint8_t b[sizeof(uint32_t)];
    std::memcpy(b, &flowId, sizeof b);
    NiccMpi::Post(Create<Packet>(b, sizeof b), Simulator::Now() + m_noticeDelay);
}

void
NiccWorkload::NoticeArrived(Ptr<Packet> p)
{
    uint32_t flowId = 0;
    NS_ABORT_MSG_UNLESS(p->GetSize() == sizeof flowId, "a notice of " << p->GetSize() << " bytes");
    p->CopyData(reinterpret_cast<uint8_t*>(&flowId), sizeof flowId);
    ScheduleNotice(flowId, Time(0));
}

void
NiccWorkload::ScheduleNotice(uint32_t flowId, Time delay)
{
    Simulator::Schedule(delay, Ptr<EventImpl>(new NiccNoticeEvent(flowId, [this, flowId] { FlowDone(flowId); }), false));
}

void
NiccWorkload::FlowDone(uint32_t flowId)
{
    auto rel = m_relay.find(flowId);
    if (rel != m_relay.end())
    {
        // The NVLink leg is in the relay GPU: the fabric leg on its rail.
        const Relay r = rel->second;
        m_relay.erase(rel);
        m_flowJob.emplace(Add(r.via, r.dst, r.bytes, m_jobs[r.job].kind), r.job);
        CountHops(r.job, m_hosts[r.via], m_hosts[r.dst]);
        return;
    }
    auto it = m_flowJob.find(flowId);
    if (it == m_flowJob.end())
    {
        return;
    }
    const uint32_t j = it->second;
    m_flowJob.erase(it);
    Job& job = m_jobs[j];
    if (--job.pending > 0)
    {
        return;
    }
    job.result.steps.back().endNs = Simulator::Now().GetNanoSeconds();
    if (++job.step < job.result.stepsPlanned)
    {
        JobStep(j);
    }
    else if (job.onDone)
    {
        // It may start another collective (m_jobs grows): no `job` after this.
        const std::function<void()> done = job.onDone;
        done();
    }
}

std::vector<NiccCollectiveResult>
NiccWorkload::GetCollectives() const
{
    std::vector<NiccCollectiveResult> out;
    for (const auto& j : m_jobs)
    {
        out.push_back(j.result);
    }
    return out;
}

bool
NiccWorkload::CollectivesDone() const
{
    if (m_held)
    {
        return false;
    }
    for (const auto& j : m_jobs)
    {
        if (!j.result.Done())
        {
            return false;
        }
    }
    return true;
}

} // namespace ns3
