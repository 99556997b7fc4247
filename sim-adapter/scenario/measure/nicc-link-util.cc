/*
 * nicc-link-util.cc — the fabric link utilization sampler, its statistics
 * and its outputs: link_util.csv and summary.json "link_util" (see the
 * header).
 */
#include "nicc-link-util.h"

#include "nicc-scenario.h"

#include "ns3/nicc-mpi.h"
#include "ns3/simulator.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>

namespace ns3
{

NiccLinkUtilStats
NiccComputeLinkUtilStats(const std::vector<double>& util, double idleBelow)
{
    NiccLinkUtilStats st;
    st.links = static_cast<uint32_t>(util.size());
    if (util.empty())
    {
        return st;
    }
    double sum = 0;
    double sq = 0;
    uint32_t idle = 0;
    for (double u : util)
    {
        st.max = std::max(st.max, u);
        sum += u;
        sq += u * u;
        idle += u < idleBelow ? 1 : 0;
    }
    const double n = static_cast<double>(util.size());
    st.mean = sum / n;
    st.maxOverMean = st.mean > 0 ? st.max / st.mean : 0.0;
    st.jain = sq > 0 ? sum * sum / (n * sq) : 0.0;
    st.idleShare = static_cast<double>(idle) / n;
    return st;
}

void
NiccLinkUtilSeries::AddBin(int64_t startNs, int64_t endNs, const std::vector<uint64_t>& linkBytes)
{
    firstNs = firstNs < 0 ? startNs : firstNs;
    lastNs = endNs;
    if (out)
    {
        out->write(reinterpret_cast<const char*>(&startNs), sizeof(startNs));
        out->write(reinterpret_cast<const char*>(&endNs), sizeof(endNs));
        out->write(reinterpret_cast<const char*>(linkBytes.data()),
                   static_cast<std::streamsize>(linkBytes.size() * sizeof(uint64_t)));
        ++fileBins;
        return;
    }
    binStartNs.push_back(startNs);
    binEndNs.push_back(endNs);
    bytes.insert(bytes.end(), linkBytes.begin(), linkBytes.end());
}

bool
NiccLinkUtilSeries::ForEachBin(const std::function<void(int64_t, int64_t, const uint64_t*)>& f) const
{
    if (!out && file.empty())
    {
        for (size_t b = 0; b < binStartNs.size(); ++b)
        {
            f(binStartNs[b], binEndNs[b], bytes.data() + b * Links());
        }
        return true;
    }
    if (out)
    {
        out->flush();
    }
    std::ifstream in(file, std::ios::binary);
    std::vector<uint64_t> row(Links());
    for (size_t b = 0; b < fileBins; ++b)
    {
        int64_t t[2];
        in.read(reinterpret_cast<char*>(t), sizeof(t));
        in.read(reinterpret_cast<char*>(row.data()), static_cast<std::streamsize>(row.size() * sizeof(uint64_t)));
        if (!in)
        {
            return false;
        }
        f(t[0], t[1], row.data());
    }
    return true;
}

std::vector<double>
NiccLinkUtilWindow(const NiccLinkUtilSeries& s, int64_t startNs, int64_t endNs, int64_t* spanNs)
{
    const size_t links = s.Links();
    std::vector<uint64_t> bytes(links, 0);
    int64_t span = 0;
    s.ForEachBin([&](int64_t b0, int64_t b1, const uint64_t* by) {
        if (b1 <= startNs || b0 >= endNs)
        {
            return;
        }
        span += b1 - b0;
        for (size_t l = 0; l < links; ++l)
        {
            bytes[l] += by[l];
        }
    });
    *spanNs = span;
    std::vector<double> util;
    if (span <= 0)
    {
        return util;
    }
    for (size_t l = 0; l < links; ++l)
    {
        util.push_back(static_cast<double>(bytes[l]) * 8.0 / (s.bps[l] * static_cast<double>(span) * 1e-9));
    }
    return util;
}

NiccLinkUtilPerBin
NiccLinkUtilBins(const NiccLinkUtilSeries& s, int64_t startNs, int64_t endNs, double idleBelow)
{
    NiccLinkUtilPerBin pb;
    const size_t links = s.Links();
    std::vector<double> util(links, 0.0);
    s.ForEachBin([&](int64_t b0, int64_t b1, const uint64_t* by) {
        const double sec = static_cast<double>(b1 - b0) * 1e-9;
        if (b1 <= startNs || b0 >= endNs || sec <= 0)
        {
            return;
        }
        bool any = false;
        for (size_t l = 0; l < links; ++l)
        {
            util[l] = static_cast<double>(by[l]) * 8.0 / (s.bps[l] * sec);
            any = any || util[l] > 0;
        }
        if (!any)
        {
            return;
        }
        const NiccLinkUtilStats st = NiccComputeLinkUtilStats(util, idleBelow);
        ++pb.bins;
        pb.jain += st.jain;
        pb.maxOverMean += st.maxOverMean;
        pb.idleShare += st.idleShare;
        pb.max = std::max(pb.max, st.max);
    });
    if (pb.bins > 0)
    {
        pb.jain /= pb.bins;
        pb.maxOverMean /= pb.bins;
        pb.idleShare /= pb.bins;
    }
    return pb;
}

NiccLinkUtilSampler::NiccLinkUtilSampler(NiccLinkUtilSeries* out, Time interval)
    : m_out(out),
      m_interval(interval)
{
}

void
NiccLinkUtilSampler::Add(Ptr<NiccNetDevice> dev, const std::string& from, const std::string& to)
{
    m_devs.push_back(dev);
    m_out->from.push_back(from);
    m_out->to.push_back(to);
    m_out->bps.push_back(static_cast<double>(dev->GetDataRate().GetBitRate()));
}

void
NiccLinkUtilSampler::Start(Time start)
{
    if (m_interval.IsStrictlyPositive() && !m_devs.empty())
    {
        Simulator::Schedule(start, &NiccLinkUtilSampler::Sample, this);
    }
}

void
NiccLinkUtilSampler::Sample()
{
    const int64_t now = Simulator::Now().GetNanoSeconds();
    if (m_lastNs >= 0 && now > m_lastNs)
    {
        AddBin(now);
    }
    m_last.resize(m_devs.size());
    for (size_t i = 0; i < m_devs.size(); ++i)
    {
        m_last[i] = m_devs[i]->GetTxBytes();
    }
    m_lastNs = now;
    Simulator::Schedule(m_interval, &NiccLinkUtilSampler::Sample, this);
}

void
NiccLinkUtilSampler::Finish(Time end)
{
    if (m_lastNs >= 0 && end.GetNanoSeconds() > m_lastNs)
    {
        AddBin(end.GetNanoSeconds());
        m_lastNs = end.GetNanoSeconds();
    }
}

void
NiccLinkUtilSampler::AddBin(int64_t endNs)
{
    // Under MPI a link's bytes are counted on its sender's rank: the bin is
    // the sum over the ranks (every rank samples at the same times, and
    // ends the run at the same time), kept on rank 0, which writes it.
    m_row.resize(m_devs.size());
    for (size_t i = 0; i < m_devs.size(); ++i)
    {
        const bool mine = m_devs[i]->GetNode()->GetSystemId() == NiccMpi::Rank();
        m_row[i] = mine ? m_devs[i]->GetTxBytes() - m_last[i] : 0;
    }
    NiccMpi::SumAll(&m_row);
    if (NiccMpi::Rank() == 0)
    {
        m_out->AddBin(m_lastNs, endNs, m_row);
    }
}

namespace
{

/// The lowest per-rank share of the fabric over the edge switches: for
/// each, min(host link rate, summed rate of its switch uplinks / hosts
/// under it), bit/s; 0 when the topology has no such links.
double
PerRankShareBps(const NiccScenarioResult& r)
{
    std::map<std::string, double> hostRate; // edge switch -> slowest host link into it
    std::map<std::string, uint32_t> hosts;
    std::map<std::string, double> upCap;
    for (const auto& l : r.links)
    {
        if (l.kind == "up")
        {
            auto it = hostRate.find(l.to);
            hostRate[l.to] = it == hostRate.end() ? l.rateGbps * 1e9 : std::min(it->second, l.rateGbps * 1e9);
            ++hosts[l.to];
        }
    }
    for (const auto& l : r.links)
    {
        if (l.kind == "fabric" && hosts.count(l.from))
        {
            upCap[l.from] += l.rateGbps * 1e9;
        }
    }
    double share = 0;
    bool any = false;
    for (const auto& [edge, n] : hosts)
    {
        const auto cap = upCap.find(edge);
        if (cap == upCap.end())
        {
            continue; // no switch uplinks: its hosts' traffic never crosses the fabric
        }
        const double s = std::min(hostRate[edge], cap->second / static_cast<double>(n));
        share = any ? std::min(share, s) : s;
        any = true;
    }
    return share;
}

nlohmann::json
StatsJson(const NiccLinkUtilStats& st)
{
    return {{"links", st.links},
            {"max", st.max},
            {"mean", st.mean},
            {"max_over_mean", st.maxOverMean},
            {"jain", st.jain},
            {"idle_share", st.idleShare}};
}

} // namespace

bool
NiccWriteLinkUtilOutputs(const NiccScenarioResult& r, const std::filesystem::path& dir, nlohmann::json* j)
{
    const NiccLinkUtilResult& lu = r.linkUtil;
    if (lu.intervalUs <= 0)
    {
        return true;
    }
    const NiccLinkUtilSeries& s = lu.series;
    std::ofstream csv(dir / "link_util.csv");
    csv << "time_us,link,bytes,util\n";
    const bool read = s.ForEachBin([&](int64_t b0, int64_t b1, const uint64_t* by) {
        const double sec = static_cast<double>(b1 - b0) * 1e-9;
        for (size_t l = 0; l < s.Links(); ++l)
        {
            csv << static_cast<double>(b0) / 1e3 << ',' << s.from[l] << "->" << s.to[l] << ',' << by[l] << ','
                << static_cast<double>(by[l]) * 8.0 / (s.bps[l] * sec) << '\n';
        }
    });
    // The window: the all-reduce from its first step's start to its last
    // step's end (the run's end if it did not finish), else the whole series.
    int64_t t0 = s.Bins() ? s.firstNs : 0;
    int64_t t1 = s.Bins() ? s.lastNs : 0;
    std::string window = "run";
    const NiccCollectiveResult* ar = nullptr;
    for (const auto& c : r.collectives)
    {
        if (c.name == "allreduce" && !c.steps.empty())
        {
            ar = &c;
            break;
        }
    }
    if (ar)
    {
        t0 = ar->steps.front().startNs;
        t1 = ar->Done() ? ar->steps.back().endNs : t1;
        window = ar->Done() ? "allreduce" : "allreduce (unfinished: to the run's end)";
    }
    int64_t span = 0;
    const std::vector<double> util = NiccLinkUtilWindow(s, t0, t1, &span);
    nlohmann::json& o = (*j)["link_util"];
    o["interval_us"] = lu.intervalUs;
    o["bins"] = s.Bins();
    o["window"] = window;
    o["window_start_us"] = static_cast<double>(t0) / 1e3;
    o["window_end_us"] = static_cast<double>(t1) / 1e3;
    o["window_span_us"] = static_cast<double>(span) / 1e3;
    o["idle_below"] = 0.05;
    o["fabric"] = StatsJson(NiccComputeLinkUtilStats(util));
    const NiccLinkUtilPerBin pb = NiccLinkUtilBins(s, t0, t1);
    o["per_bin"] = {{"bins", pb.bins},
                    {"jain", pb.jain},
                    {"max_over_mean", pb.maxOverMean},
                    {"idle_share", pb.idleShare},
                    {"max", pb.max}};
    o["per_link"] = nlohmann::json::object();
    for (size_t l = 0; l < util.size(); ++l)
    {
        o["per_link"][s.from[l] + "->" + s.to[l]] = util[l];
    }
    o["meaning"] = "fabric links = switch-to-switch link directions; per link: wire bytes sent over the "
                   "bins overlapping the window / (rate x their summed duration); max, mean, max / mean, "
                   "Jain = (sum u)^2 / (n sum u^2), idle_share = share of links below idle_below; fabric: "
                   "over the window as a whole; per_bin: the same figures per interval, averaged over "
                   "the intervals with any fabric traffic (max: any link in any interval)";
    if (ar && lu.allreduceRankBytes > 0)
    {
        const double share = PerRankShareBps(r);
        const double idealUs = share > 0 ? static_cast<double>(lu.allreduceRankBytes) * 8.0 / share * 1e6 : 0.0;
        const double totalUs = ar->Done() ? static_cast<double>(ar->TotalNs()) / 1e3 : -1.0;
        o["allreduce"] = {{"ranks_per_ring", lu.allreduceRanks},
                          {"rings", lu.allreduceRings},
                          {"rank_bytes", lu.allreduceRankBytes},
                          {"per_rank_share_gbps", share / 1e9},
                          {"total_us", totalUs},
                          {"ideal_us", idealUs},
                          {"ratio", totalUs > 0 && idealUs > 0 ? totalUs / idealUs : -1.0},
                          {"formula", "ideal = rank_bytes * 8 / per_rank_share; rank_bytes = 2 (n - 1) * "
                                      "ceil(allreduce_bytes / (rings * n)) payload bytes each rank sends; "
                                      "per_rank_share = min over edge switches of min(host link rate, "
                                      "summed switch uplink rate / hosts under it); no headers, no "
                                      "per-step latency"}};
    }
    return read && static_cast<bool>(csv);
}

} // namespace ns3
