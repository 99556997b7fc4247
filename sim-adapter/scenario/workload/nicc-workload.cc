/*
 * nicc-workload.cc — NiccFlowSizeCdf and NiccWorkload (see the header).
 */
#include "nicc-workload.h"

#include "ns3/abort.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

namespace ns3
{

bool
NiccFlowSizeCdf::Load(const std::string& path, std::string* error)
{
    std::ifstream in(path);
    if (!in)
    {
        *error = path + ": cannot open the flow-size CDF file";
        return false;
    }
    m_bytes.clear();
    m_percent.clear();
    std::string line;
    uint32_t lineNo = 0;
    while (std::getline(in, line))
    {
        ++lineNo;
        if (line.find_first_not_of(" \t\r") == std::string::npos || line[0] == '#')
        {
            continue;
        }
        std::istringstream ls(line);
        double b;
        double p;
        if (!(ls >> b >> p) || b < 0 || p < 0 || p > 100 ||
            (!m_bytes.empty() && (b < m_bytes.back() || p < m_percent.back())))
        {
            *error = path + ":" + std::to_string(lineNo) +
                     ": expected '<bytes> <cumulative percent>', monotone, percent in [0, 100]";
            return false;
        }
        m_bytes.push_back(b);
        m_percent.push_back(p);
    }
    if (m_bytes.size() < 2 || m_percent.back() != 100.0)
    {
        *error = path + ": needs at least two points and a last point at 100 percent";
        return false;
    }
    // Mass below the first point sits at the first size.
    m_mean = m_bytes[0] * m_percent[0] / 100.0;
    for (size_t i = 1; i < m_bytes.size(); ++i)
    {
        m_mean += (m_percent[i] - m_percent[i - 1]) / 100.0 * (m_bytes[i] + m_bytes[i - 1]) / 2.0;
    }
    return true;
}

uint64_t
NiccFlowSizeCdf::Sample(double u) const
{
    size_t i = 0;
    while (i < m_percent.size() && m_percent[i] <= u)
    {
        ++i;
    }
    double bytes;
    if (i == 0)
    {
        bytes = m_bytes[0];
    }
    else if (i >= m_percent.size())
    {
        bytes = m_bytes.back();
    }
    else
    {
        const double f = (u - m_percent[i - 1]) / (m_percent[i] - m_percent[i - 1]);
        bytes = m_bytes[i - 1] + f * (m_bytes[i] - m_bytes[i - 1]);
    }
    return std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(bytes)));
}

const char*
NiccFlowKindName(NiccFlowKind k)
{
    // The scenario keys <name>_cc (nicc-scenario-keys.cc) are these names.
    switch (k)
    {
    case NiccFlowKind::POISSON:
        return "poisson";
    case NiccFlowKind::INCAST:
        return "incast";
    case NiccFlowKind::PERMUTATION:
        return "permutation";
    case NiccFlowKind::ALLREDUCE:
        return "allreduce";
    case NiccFlowKind::ALLTOALL:
        return "alltoall";
    case NiccFlowKind::FLOWFILE:
        return "file";
    default:
        return "other";
    }
}

bool
NiccCcKindByName(const std::string& name, nicc::hal::CcKind* out)
{
    for (const auto& c : nicc::hal::kCcKinds)
    {
        if (name == c.name)
        {
            *out = static_cast<nicc::hal::CcKind>(c.code);
            return true;
        }
    }
    return false;
}

std::string
NiccCcKindNames(const char* sep)
{
    std::string out;
    for (const auto& c : nicc::hal::kCcKinds)
    {
        out += (out.empty() ? "" : sep) + std::string(c.name);
    }
    return out;
}

NiccWorkload::NiccWorkload(NiccNicHelper* nics, const std::vector<Ptr<Node>>& hosts)
    : m_nics(nics),
      m_hosts(hosts),
      m_poissonGap(CreateObject<ExponentialRandomVariable>()),
      m_poissonPick(CreateObject<UniformRandomVariable>()),
      m_incastGap(CreateObject<ExponentialRandomVariable>()),
      m_incastPick(CreateObject<UniformRandomVariable>()),
      m_permPick(CreateObject<UniformRandomVariable>())
{
    NS_ABORT_MSG_UNLESS(hosts.size() >= 2, "NiccWorkload needs at least two hosts");
}

int64_t
NiccWorkload::AssignStreams(int64_t stream)
{
    m_poissonGap->SetStream(stream);
    m_poissonPick->SetStream(stream + 1);
    m_incastGap->SetStream(stream + 2);
    m_incastPick->SetStream(stream + 3);
    m_permPick->SetStream(stream + 4);
    return STREAMS;
}

NiccFlowKind
NiccWorkload::GetKind(uint32_t flowId) const
{
    return flowId < m_kind.size() ? static_cast<NiccFlowKind>(m_kind[flowId]) : NiccFlowKind::OTHER;
}

uint16_t
NiccWorkload::GetDport(uint32_t flowId) const
{
    return flowId < m_dport.size() ? m_dport[flowId] : 0;
}

uint8_t
NiccWorkload::GetPg(uint32_t flowId) const
{
    return flowId < m_pg.size() ? m_pg[flowId] : 0;
}

uint32_t
NiccWorkload::Add(uint32_t src, uint32_t dst, uint64_t bytes, NiccFlowKind kind)
{
    return AddAt(src, dst, bytes, kind, Simulator::Now());
}

void
NiccWorkload::SetCc(NiccFlowKind kind, nicc::hal::CcKind cc)
{
    m_cc[static_cast<uint32_t>(kind)] = cc;
}

uint32_t
NiccWorkload::AddAt(uint32_t src,
                    uint32_t dst,
                    uint64_t bytes,
                    NiccFlowKind kind,
                    Time start,
                    std::optional<nicc::hal::CcKind> cc)
{
    return AddNodes(m_hosts[src], m_hosts[dst], bytes, kind, start, cc);
}

uint32_t
NiccWorkload::AddNodes(Ptr<Node> src,
                       Ptr<Node> dst,
                       uint64_t bytes,
                       NiccFlowKind kind,
                       Time start,
                       std::optional<nicc::hal::CcKind> cc)
{
    if (!cc)
    {
        cc = m_cc[static_cast<uint32_t>(kind)];
    }
    const uint32_t id = cc ? m_nics->AddFlow(src, dst, bytes, start, *cc) : m_nics->AddFlow(src, dst, bytes, start);
    if (m_kind.size() <= id)
    {
        m_kind.resize(id + 1, static_cast<uint8_t>(NiccFlowKind::OTHER));
    }
    m_kind[id] = static_cast<uint8_t>(kind);
    return id;
}

Time
NiccWorkload::Exponential(const Ptr<ExponentialRandomVariable>& rv, double perSecond)
{
    const double seconds = rv->GetValue(1.0 / perSecond, 0.0); // mean, no bound
    return NanoSeconds(std::max<int64_t>(1, std::llround(seconds * 1e9)));
}

void
NiccWorkload::Shuffle(const Ptr<UniformRandomVariable>& rv, std::vector<uint32_t>* v)
{
    for (uint32_t i = static_cast<uint32_t>(v->size()); i > 1; --i)
    {
        std::swap((*v)[i - 1], (*v)[rv->GetInteger(0, i - 1)]);
    }
}

// --- Poisson flows ----------------------------------------------------------

void
NiccWorkload::StartPoisson(const NiccFlowSizeCdf* cdf, double load, DataRate rate, Time start, Time stop)
{
    if (load <= 0)
    {
        return;
    }
    m_cdf = cdf;
    m_poissonPerSecond = load * static_cast<double>(rate.GetBitRate()) / (8.0 * cdf->MeanBytes());
    m_poissonStop = stop;
    for (uint32_t h = 0; h < m_hosts.size(); ++h)
    {
        Simulator::Schedule(start + Exponential(m_poissonGap, m_poissonPerSecond),
                            &NiccWorkload::PoissonArrival,
                            this,
                            h);
    }
}

void
NiccWorkload::PoissonArrival(uint32_t host)
{
    if (Simulator::Now() >= m_poissonStop)
    {
        return;
    }
    const uint32_t n = static_cast<uint32_t>(m_hosts.size());
    uint32_t dst = m_poissonPick->GetInteger(0, n - 2);
    dst += dst >= host ? 1 : 0; // uniform among the other hosts
    Add(host, dst, m_cdf->Sample(m_poissonPick->GetValue(0.0, 100.0)), NiccFlowKind::POISSON);
    Simulator::Schedule(Exponential(m_poissonGap, m_poissonPerSecond),
                        &NiccWorkload::PoissonArrival,
                        this,
                        host);
}

// --- Incast bursts ----------------------------------------------------------

void
NiccWorkload::StartIncast(double load, uint32_t fanin, uint64_t bytes, DataRate rate, Time start, Time stop)
{
    if (load <= 0 || fanin == 0 || bytes == 0)
    {
        return;
    }
    m_incastFanin = std::min<uint32_t>(fanin, static_cast<uint32_t>(m_hosts.size()) - 1);
    m_incastBytes = bytes;
    m_incastStop = stop;
    m_incastPerSecond = load * static_cast<double>(m_hosts.size()) *
                        static_cast<double>(rate.GetBitRate()) /
                        (8.0 * m_incastFanin * static_cast<double>(bytes));
    Simulator::Schedule(start + Exponential(m_incastGap, m_incastPerSecond), &NiccWorkload::IncastArrival, this);
}

void
NiccWorkload::IncastArrival()
{
    if (Simulator::Now() >= m_incastStop)
    {
        return;
    }
    const uint32_t n = static_cast<uint32_t>(m_hosts.size());
    std::vector<uint32_t> order(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        order[i] = i;
    }
    Shuffle(m_incastPick, &order);
    const uint32_t dst = order[0];
    for (uint32_t k = 1; k <= m_incastFanin; ++k)
    {
        Add(order[k], dst, m_incastBytes, NiccFlowKind::INCAST);
    }
    Simulator::Schedule(Exponential(m_incastGap, m_incastPerSecond), &NiccWorkload::IncastArrival, this);
}

// --- Permutation ------------------------------------------------------------

void
NiccWorkload::StartPermutation(uint64_t bytes, uint32_t crossGroup, Time start)
{
    if (bytes == 0)
    {
        return;
    }
    m_crossGroup = std::max<uint32_t>(1, crossGroup);
    const uint32_t n = static_cast<uint32_t>(m_hosts.size());
    m_perm.assign(n, 0);
    const uint32_t g = m_crossGroup;
    const bool cross = g > 1 && n / g >= 2;
    bool ok = false;
    // Rejection sampling, bounded; a failure falls back to a shifted pairing.
    for (uint32_t attempt = 0; attempt < 100000 && !ok; ++attempt)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            m_perm[i] = i;
        }
        Shuffle(m_permPick, &m_perm);
        ok = true;
        for (uint32_t i = 0; i < n && ok; ++i)
        {
            ok = cross ? m_perm[i] / g != i / g : m_perm[i] != i;
        }
    }
    if (!ok)
    {
        const uint32_t shift = cross ? g : 1;
        for (uint32_t i = 0; i < n; ++i)
        {
            m_perm[i] = (i + shift) % n;
        }
    }
    Simulator::Schedule(start, &NiccWorkload::RunPermutation, this, bytes);
}

void
NiccWorkload::RunPermutation(uint64_t bytes)
{
    for (uint32_t i = 0; i < m_perm.size(); ++i)
    {
        Add(i, m_perm[i], bytes, NiccFlowKind::PERMUTATION);
    }
}

// --- Flow lists -------------------------------------------------------------

void
NiccWorkload::StartFlowList(const std::vector<NiccListedFlow>& flows)
{
    for (const NiccListedFlow& f : flows)
    {
        NS_ABORT_MSG_UNLESS(f.src < m_hosts.size() && f.dst < m_hosts.size() && f.src != f.dst,
                            "flow list: bad hosts " << f.src << " -> " << f.dst);
        const uint32_t id = AddAt(f.src, f.dst, f.sizeBytes, NiccFlowKind::FLOWFILE, f.start, f.cc);
        if (m_dport.size() <= id)
        {
            m_dport.resize(id + 1, 0);
            m_pg.resize(id + 1, 0);
        }
        m_dport[id] = f.dport;
        m_pg[id] = f.pg;
    }
}

// --- Collectives ---------------------------------------------------------------

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
                MakeCallback(&NiccWorkload::FlowDone, this));
        }
        for (const auto& g : m_gpus)
        {
            NiccNicHelper::GetNic(g)->TraceConnectWithoutContext(
                "FlowComplete",
                MakeCallback(&NiccWorkload::FlowDone, this));
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

void
NiccWorkload::FlowDone(uint32_t flowId, uint32_t /*qpn*/, uint64_t /*bytes*/, Time /*fct*/)
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
