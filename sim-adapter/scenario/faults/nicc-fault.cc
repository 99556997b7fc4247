/*
 * nicc-fault.cc — NiccFaultInjector and the fault spec parsers: link
 * down/up and flap events, route recomputation after the detection delay,
 * loss rates, and the per-fault loss and recovery measurements.
 */
#include "nicc-fault.h"

#include "nicc-nic-helper.h"

#include "ns3/nicc-nic.h"
#include "ns3/nicc-rocev2-header.h"
#include "ns3/node-list.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace ns3
{

namespace
{

std::string
Trim(const std::string& s)
{
    const size_t b = s.find_first_not_of(" \t");
    const size_t e = s.find_last_not_of(" \t");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::vector<std::string>
Split(const std::string& s, char sep)
{
    std::vector<std::string> out;
    size_t start = 0;
    while (true)
    {
        const size_t k = s.find(sep, start);
        out.push_back(Trim(s.substr(start, k == std::string::npos ? std::string::npos : k - start)));
        if (k == std::string::npos)
        {
            return out;
        }
        start = k + 1;
    }
}

// A finite number >= 0 written in full.
bool
Number(const std::string& s, double* v)
{
    if (s.empty())
    {
        return false;
    }
    char* end = nullptr;
    *v = std::strtod(s.c_str(), &end);
    return end && *end == '\0' && std::isfinite(*v) && *v >= 0;
}

// "A-B" into its two names.
bool
LinkNames(const std::string& s, std::string* a, std::string* b)
{
    const size_t dash = s.find('-');
    if (dash == std::string::npos || s.find('-', dash + 1) != std::string::npos)
    {
        return false;
    }
    *a = Trim(s.substr(0, dash));
    *b = Trim(s.substr(dash + 1));
    return !a->empty() && !b->empty() && *a != *b;
}

double
Percentile(std::vector<double> v, double q)
{
    if (v.empty())
    {
        return -1;
    }
    std::sort(v.begin(), v.end());
    const size_t k = static_cast<size_t>(std::ceil(q * static_cast<double>(v.size()))) - 1;
    return v[std::min(k, v.size() - 1)];
}

} // namespace

bool
NiccParseFaults(const std::string& text,
                const std::string& key,
                bool flap,
                std::vector<NiccFaultSpec>* out,
                std::string* error)
{
    if (text.empty())
    {
        return true; // none; blank text is a spec that names nothing (an error)
    }
    for (const std::string& item : Split(text, ';'))
    {
        auto fail = [&](const std::string& msg) {
            *error = "key '" + key + "': spec '" + item + "': " + msg;
            return false;
        };
        NiccFaultSpec f;
        f.kind = flap ? "flap" : "link";
        f.text = item;
        if (item.rfind("link:", 0) != 0)
        {
            return fail(flap ? "expected link:A-B@start_us,period_us,count"
                             : "expected link:A-B@down_us[,up_us]");
        }
        const size_t at = item.find('@');
        if (at == std::string::npos)
        {
            return fail("missing '@' before the times");
        }
        if (!LinkNames(item.substr(5, at - 5), &f.a, &f.b))
        {
            return fail("link must be A-B with two different node names or ids");
        }
        const std::vector<std::string> t = Split(item.substr(at + 1), ',');
        std::vector<double> v(t.size());
        for (size_t i = 0; i < t.size(); ++i)
        {
            if (!Number(t[i], &v[i]))
            {
                return fail("time '" + t[i] + "' is not a number >= 0 (microseconds)");
            }
        }
        if (flap)
        {
            if (t.size() != 3)
            {
                return fail("expected three values start_us,period_us,count");
            }
            if (v[1] <= 0 || v[2] < 1 || v[2] > 1e6 || v[2] != std::floor(v[2]))
            {
                return fail("period_us must be > 0 and count a whole number 1..1000000");
            }
            f.downUs = v[0];
            f.periodUs = v[1];
            f.count = static_cast<uint32_t>(v[2]);
        }
        else
        {
            if (t.size() > 2)
            {
                return fail("expected down_us or down_us,up_us");
            }
            f.downUs = v[0];
            if (t.size() == 2)
            {
                if (v[1] <= v[0])
                {
                    return fail("up_us must be after down_us");
                }
                f.upUs = v[1];
            }
        }
        out->push_back(f);
    }
    return true;
}

bool
NiccParseLinkLoss(const std::string& text,
                  const std::string& key,
                  std::vector<NiccLinkLossSpec>* out,
                  std::string* error)
{
    if (text.empty())
    {
        return true; // none; blank text is a spec that names nothing (an error)
    }
    for (const std::string& item : Split(text, ';'))
    {
        NiccLinkLossSpec l;
        l.text = item;
        const size_t colon = item.rfind(':');
        if (colon == std::string::npos || !LinkNames(item.substr(0, colon), &l.a, &l.b) ||
            !Number(Trim(item.substr(colon + 1)), &l.rate) || l.rate > 1)
        {
            *error = "key '" + key + "': spec '" + item +
                     "': expected A-B:rate (two node names or ids, rate in [0, 1])";
            return false;
        }
        out->push_back(l);
    }
    return true;
}

bool
NiccCheckFaultKey(const std::string& key, const std::string& value, std::string* why)
{
    std::vector<NiccFaultSpec> faults;
    std::vector<NiccLinkLossSpec> losses;
    std::string err;
    const bool ok = key == "fault"       ? NiccParseFaults(value, key, false, &faults, &err)
                    : key == "flap"      ? NiccParseFaults(value, key, true, &faults, &err)
                    : key == "link_loss" ? NiccParseLinkLoss(value, key, &losses, &err)
                                         : true;
    if (!ok)
    {
        const std::string prefix = "key '" + key + "': ";
        *why = err.rfind(prefix, 0) == 0 ? err.substr(prefix.size()) : err;
    }
    return ok;
}

NiccFaultInjector::NiccFaultInjector(NiccFabricHelper* fabric, Time detect, Time window)
    : m_fabric(fabric),
      m_detect(detect),
      m_window(window),
      m_bin(window / 10 > TimeStep(0) ? window / 10 : window)
{
}

Ptr<Node>
NiccFaultInjector::Resolve(const std::string& name, const std::vector<std::string>& names) const
{
    for (size_t id = 0; id < names.size(); ++id)
    {
        if (names[id] == name)
        {
            return NodeList::GetNode(static_cast<uint32_t>(id));
        }
    }
    double v = 0;
    if (Number(name, &v) && v == std::floor(v) && v < NodeList::GetNNodes())
    {
        return NodeList::GetNode(static_cast<uint32_t>(v));
    }
    return nullptr;
}

bool
NiccFaultInjector::Install(const std::vector<NiccFaultSpec>& faults,
                           const std::vector<NiccLinkLossSpec>& losses,
                           double lossRate,
                           const std::vector<std::string>& names,
                           const std::vector<Ptr<Node>>& hosts,
                           int64_t stream,
                           int64_t* streamsUsed,
                           std::string* error)
{
    auto channels = [&](const std::string& a,
                        const std::string& b,
                        const std::string& text,
                        const std::string& key,
                        std::vector<Ptr<NiccChannel>>* out) {
        Ptr<Node> na = Resolve(a, names);
        Ptr<Node> nb = Resolve(b, names);
        if (!na || !nb)
        {
            *error = "key '" + key + "': spec '" + text + "': unknown node '" + (na ? b : a) +
                     "' (names as in links.csv, or node ids)";
            return false;
        }
        *out = m_fabric->FindLinks(na, nb);
        if (out->empty())
        {
            *error = "key '" + key + "': spec '" + text + "': no link between " + a + " and " + b;
            return false;
        }
        return true;
    };
    // Loss rates: fabric-wide first, then per link; two streams per channel
    // (one per direction), assigned whether or not the channel loses
    // anything (stable numbering).
    m_all = m_fabric->GetChannels();
    *streamsUsed = 0;
    // A topology file's error_rate column has set some rates already.
    const bool fileRates = std::any_of(m_all.begin(), m_all.end(),
                                       [](const Ptr<NiccChannel>& ch) { return ch->GetLossRate() > 0; });
    if (lossRate > 0 || !losses.empty() || fileRates)
    {
        for (size_t i = 0; i < m_all.size(); ++i)
        {
            if (lossRate > 0)
            {
                m_all[i]->SetLossRate(lossRate);
            }
            *streamsUsed += m_all[i]->AssignStreams(stream + *streamsUsed);
        }
    }
    for (const auto& l : losses)
    {
        std::vector<Ptr<NiccChannel>> chs;
        if (!channels(l.a, l.b, l.text, "link_loss", &chs))
        {
            return false;
        }
        for (auto& ch : chs)
        {
            ch->SetLossRate(l.rate);
        }
    }
    for (const auto& spec : faults)
    {
        Fault f;
        f.spec = spec;
        if (!channels(spec.a, spec.b, spec.text, spec.kind == "flap" ? "flap" : "fault", &f.channels))
        {
            return false;
        }
        if (spec.kind == "flap")
        {
            for (uint32_t i = 0; i < spec.count; ++i)
            {
                const double t0 = spec.downUs + i * spec.periodUs;
                f.changes.emplace_back(NanoSeconds(std::llround(t0 * 1e3)), false);
                f.changes.emplace_back(NanoSeconds(std::llround((t0 + spec.periodUs / 2) * 1e3)), true);
            }
        }
        else
        {
            f.changes.emplace_back(NanoSeconds(std::llround(spec.downUs * 1e3)), false);
            if (spec.upUs >= 0)
            {
                f.changes.emplace_back(NanoSeconds(std::llround(spec.upUs * 1e3)), true);
            }
        }
        NiccFaultResult& r = f.result;
        r.kind = spec.kind;
        r.link = spec.a + "-" + spec.b;
        r.spec = spec.text;
        r.downUs = spec.downUs;
        if (f.changes.back().second)
        {
            r.upUs = static_cast<double>(f.changes.back().first.GetNanoSeconds()) / 1e3;
        }
        r.detectUs = static_cast<double>(m_detect.GetNanoSeconds()) / 1e3;
        r.channels = static_cast<uint32_t>(f.channels.size());
        m_faults.push_back(f);
    }
    if (m_faults.empty())
    {
        return true; // loss rates only: no event, no meter
    }
    for (uint32_t i = 0; i < m_faults.size(); ++i)
    {
        for (const auto& [t, up] : m_faults[i].changes)
        {
            Simulator::Schedule(t, &NiccFaultInjector::Change, this, i, up);
        }
    }
    for (auto& ch : m_all)
    {
        m_probes.push_back(std::make_unique<Probe>(Probe{this, PeekPointer(ch)}));
        ch->TraceConnectWithoutContext("Drop", MakeCallback(&Probe::OnDrop, m_probes.back().get()));
    }
    m_hosts = hosts;
    for (const auto& h : hosts)
    {
        NiccNicHelper::GetNic(h)->TraceConnectWithoutContext(
            "Deliver",
            MakeCallback(&NiccFaultInjector::OnDeliver, this));
    }
    return true;
}

void
NiccFaultInjector::Change(uint32_t fault, bool up)
{
    for (auto& ch : m_faults[fault].channels)
    {
        ch->SetUp(up);
        if (up)
        {
            m_active.erase(PeekPointer(ch));
        }
        else
        {
            m_active[PeekPointer(ch)] = static_cast<int32_t>(fault);
        }
    }
    if (m_detect.IsZero())
    {
        Reroute(fault, up);
    }
    else
    {
        Simulator::Schedule(m_detect, &NiccFaultInjector::Reroute, this, fault, up);
    }
}

void
NiccFaultInjector::Reroute(uint32_t fault, bool up)
{
    for (auto& ch : m_faults[fault].channels)
    {
        m_fabric->SetLinkRouted(ch, up);
    }
    m_fabric->InstallRoutes();
}

void
NiccFaultInjector::Probe::OnDrop(Ptr<const Packet> p, uint32_t /*from*/, uint8_t cause)
{
    self->OnDrop(ch, p, cause);
}

void
NiccFaultInjector::OnDrop(const NiccChannel* ch, Ptr<const Packet> p, uint8_t cause)
{
    if (cause != NiccChannel::LOST_LINK_DOWN)
    {
        return;
    }
    auto it = m_active.find(ch);
    if (it == m_active.end())
    {
        return;
    }
    Fault& f = m_faults[static_cast<size_t>(it->second)];
    ++f.result.lostPackets;
    f.result.lostBytes += p->GetSize();
    uint8_t type = 0;
    p->CopyData(&type, 1);
    if (type == NiccRoceHeader::DATA)
    {
        NiccRoceHeader h;
        p->PeekHeader(h);
        ++f.result.lostDataPackets;
        f.result.lostDataPayloadBytes += h.IsTrimmed() ? 0 : h.GetPayloadSize();
        f.affected[(static_cast<uint64_t>(h.GetSrc()) << 32) | h.GetQpn()] = true;
    }
}

void
NiccFaultInjector::Series::Add(size_t bin, uint64_t bytes)
{
    if (bins.empty())
    {
        first = bin;
    }
    if (bin < first)
    {
        bins.insert(bins.begin(), first - bin, 0);
        first = bin;
    }
    if (bins.size() <= bin - first)
    {
        bins.resize(bin - first + 1, 0);
    }
    bins[bin - first] += bytes;
}

void
NiccFaultInjector::OnDeliver(uint32_t src, uint32_t qpn, uint32_t /*psn*/, uint32_t bytes)
{
    const size_t bin = static_cast<size_t>(Simulator::Now().GetTimeStep() / m_bin.GetTimeStep());
    m_series[(static_cast<uint64_t>(src) << 32) | qpn].Add(bin, bytes);
    m_total.Add(bin, bytes);
}

void
NiccFaultInjector::Finish(Time end,
                          std::vector<NiccFaultResult>* results,
                          NiccLinkLossTotals* totals,
                          NiccFaultThroughput* throughput) const
{
    // Every rank's losses, flows and series (MPI: on rank 0, which writes them).
    const Ranks all = Gather(totals);
    const int64_t bin = m_bin.GetTimeStep();
    const size_t w = static_cast<size_t>(m_window.GetTimeStep() / bin);
    const size_t nBins = static_cast<size_t>(end.GetTimeStep() / bin);
    std::map<uint64_t, bool> anyAffected;
    for (const Fault& f : all.faults)
    {
        NiccFaultResult r = f.result;
        r.affectedFlows = static_cast<uint32_t>(f.affected.size());
        const int64_t tf = f.changes.front().first.GetTimeStep();
        const size_t kf = static_cast<size_t>(tf / bin); // the bin holding the failure
        std::vector<double> rec;
        std::vector<double> recDetect;
        for (const auto& [key, unused] : f.affected)
        {
            anyAffected[key] = true;
            auto it = all.series.find(key);
            if (it == all.series.end() || kf < w)
            {
                continue;
            }
            const Series& b = it->second;
            auto at = [&](size_t k) { return b.At(k); };
            uint64_t before = 0;
            for (size_t k = kf - w; k < kf; ++k)
            {
                before += at(k);
            }
            if (before == 0)
            {
                continue; // not running before the fault
            }
            ++r.measuredFlows;
            // The flow's sender: its finish time ends the search (a flow that
            // finishes has recovered everything).
            const auto fin = all.finish.find(key);
            const int64_t finish = fin == all.finish.end() ? 0 : fin->second;
            // First window [k, k + w) starting after the failure's bin with
            // at least 90% of the bytes of the window before it.
            uint64_t sum = 0;
            for (size_t k = kf + 1; k < kf + 1 + w; ++k)
            {
                sum += at(k);
            }
            double found = -1;
            for (size_t k = kf + 1; k + w <= nBins; ++k)
            {
                if (finish > 0 && static_cast<int64_t>(k) * bin >= finish)
                {
                    found = static_cast<double>(finish - tf);
                    break;
                }
                if (10 * sum >= 9 * before)
                {
                    found = static_cast<double>(static_cast<int64_t>(k) * bin - tf);
                    break;
                }
                sum += at(k + w);
                sum -= at(k);
            }
            if (found < 0 && finish > 0 && finish <= end.GetTimeStep())
            {
                found = static_cast<double>(finish - tf);
            }
            if (found >= 0)
            {
                const double us = found * static_cast<double>(TimeStep(1).GetPicoSeconds()) / 1e6;
                rec.push_back(us);
                recDetect.push_back(std::max(0.0, us - r.detectUs));
            }
        }
        r.recoveredFlows = static_cast<uint32_t>(rec.size());
        r.recoveryP50Us = Percentile(rec, 0.5);
        r.recoveryMaxUs = Percentile(rec, 1.0);
        r.recoveryAfterDetectP50Us = Percentile(recDetect, 0.5);
        r.recoveryAfterDetectMaxUs = Percentile(recDetect, 1.0);
        results->push_back(r);
    }
    throughput->binUs = static_cast<double>(m_bin.GetNanoSeconds()) / 1e3;
    if (all.faults.empty() || all.total.bins.empty())
    {
        return;
    }
    const double toGbps = 8.0 / static_cast<double>(m_bin.GetNanoSeconds());
    const size_t first = all.total.first;
    const size_t n = nBins > first ? nBins - first : 0;
    throughput->startUs = static_cast<double>(first) * throughput->binUs;
    throughput->totalGbps.assign(n, 0.0);
    throughput->affectedGbps.assign(n, 0.0);
    for (size_t k = 0; k < n; ++k)
    {
        throughput->totalGbps[k] = static_cast<double>(all.total.At(first + k)) * toGbps;
    }
    for (const auto& [key, unused] : anyAffected)
    {
        auto it = all.series.find(key);
        if (it == all.series.end())
        {
            continue;
        }
        for (size_t k = 0; k < n; ++k)
        {
            throughput->affectedGbps[k] += static_cast<double>(it->second.At(first + k)) * toGbps;
        }
    }
}

} // namespace ns3
