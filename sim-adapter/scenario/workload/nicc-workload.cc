/*
 * nicc-workload.cc — NiccFlowSizeCdf and NiccWorkload's flows: Poisson,
 * incast, permutation and flow lists (see the header); the collectives are
 * nicc-workload-collectives.cc.
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

} // namespace ns3
