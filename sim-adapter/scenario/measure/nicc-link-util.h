/*
 * nicc-link-util.h — per-link utilization of the fabric links (switch to
 * switch, each direction on its own) over time, and its summary (key
 * link_util_interval_us; docs/claims.md, docs/experiments.md):
 *   - NiccLinkUtilSampler reads the transmit byte counter every device
 *     already keeps (NiccNetDevice::GetTxBytes) once per interval: one
 *     event per interval for all links, no per-packet work, nothing the
 *     simulated devices see;
 *   - NiccComputeLinkUtilStats: max, mean, max / mean, Jain's fairness
 *     index and the share of idle links (< 5% by default) of a set of
 *     per-link utilizations;
 *   - NiccLinkUtilWindow: the bins that overlap a time window (the
 *     all-reduce's duration) and each link's utilization over them.
 *
 *   NiccLinkUtilStats st = NiccComputeLinkUtilStats({1.0, 0.0});
 *   // st.jain == 0.5, st.maxOverMean == 2, st.idleShare == 0.5
 *
 * Units: times in ns, bytes on the wire (headers included), rates in bit/s,
 * utilization in [0, 1] (bytes * 8 / (rate * time)).
 */
#ifndef NICC_LINK_UTIL_H
#define NICC_LINK_UTIL_H

#include "ns3/nicc-net-device.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/// The sampled series of a run: one row per fabric link direction, one
/// column per interval (the last may be shorter: the run's end). A run's
/// sampler streams the bins to a file as they are sampled (`file`: per bin
/// int64 start, int64 end, uint64 bytes per link, host byte order), so its
/// memory does not grow with simulated time; a series built by hand (or
/// with no file) holds them in the vectors.
struct NiccLinkUtilSeries
{
    std::vector<std::string> from; ///< per link: transmitting switch (links.csv name)
    std::vector<std::string> to;   ///< per link: receiving switch
    std::vector<double> bps;       ///< per link: line rate, bit/s
    std::vector<int64_t> binStartNs;
    std::vector<int64_t> binEndNs;
    std::vector<uint64_t> bytes; ///< [bin * links + link] wire bytes sent in the bin
    std::ostream* out{nullptr};  ///< while sampling: where the bins go (nullptr: the vectors)
    std::filesystem::path file;  ///< the bins written to `out`
    size_t fileBins{0};
    int64_t firstNs{-1}; ///< start of the first bin; -1 = none
    int64_t lastNs{-1};  ///< end of the last bin

    size_t Links() const { return from.size(); }
    size_t Bins() const { return out || !file.empty() ? fileBins : binStartNs.size(); }
    /// Append one bin (bytes: one per link).
    void AddBin(int64_t startNs, int64_t endNs, const std::vector<uint64_t>& linkBytes);
    /// f(startNs, endNs, bytes) for every bin in time order, bytes[link];
    /// false if the file cannot be read back.
    bool ForEachBin(const std::function<void(int64_t, int64_t, const uint64_t*)>& f) const;
};

/// What the summary needs besides the series: the collective's window and
/// the inputs of the ideal all-reduce time (0 = no all-reduce).
struct NiccLinkUtilResult
{
    double intervalUs{0}; ///< 0: off (no series)
    NiccLinkUtilSeries series;
    uint64_t allreduceRankBytes{0}; ///< bytes each rank sends in the all-reduce: 2 (n - 1) * chunk
    uint32_t allreduceRanks{0};     ///< ranks of one ring
    uint32_t allreduceRings{0};
};

/// Summary of a set of per-link utilizations.
struct NiccLinkUtilStats
{
    uint32_t links{0};
    double max{0};
    double mean{0};
    double maxOverMean{0}; ///< 0 when the mean is 0
    double jain{0};        ///< (sum u)^2 / (n * sum u^2); 0 when every u is 0
    double idleShare{0};   ///< share of links with u < idleBelow
};

/// Statistics of per-link utilizations `util` (any non-negative values).
NiccLinkUtilStats NiccComputeLinkUtilStats(const std::vector<double>& util, double idleBelow = 0.05);

/// Each link's utilization over the bins that overlap [startNs, endNs)
/// (whole bins: the window widens to the bins' edges; *spanNs = their summed
/// duration). Empty when no bin overlaps.
std::vector<double> NiccLinkUtilWindow(const NiccLinkUtilSeries& s, int64_t startNs, int64_t endNs, int64_t* spanNs);

/// Per-bin figures averaged over the bins that overlap a window: a link
/// that is idle half the time and saturated the other half has the mean
/// utilization of one at half load, but not its per-bin figures.
struct NiccLinkUtilPerBin
{
    uint32_t bins{0};        ///< bins in the window with any fabric traffic (the others are skipped)
    double jain{0};          ///< mean over those bins of the bin's Jain index
    double maxOverMean{0};   ///< mean of the bin's max / mean
    double idleShare{0};     ///< mean of the bin's share of links below idleBelow
    double max{0};           ///< highest utilization of any link in any bin
};

/// NiccComputeLinkUtilStats of each bin overlapping [startNs, endNs), averaged.
NiccLinkUtilPerBin NiccLinkUtilBins(const NiccLinkUtilSeries& s, int64_t startNs, int64_t endNs, double idleBelow = 0.05);

/**
 * \ingroup nicc
 * \brief Samples the transmit byte counters of a set of link directions
 * every interval into a NiccLinkUtilSeries.
 */
class NiccLinkUtilSampler
{
  public:
    NiccLinkUtilSampler(NiccLinkUtilSeries* out, Time interval);
    /// A link direction: dev transmits from switch `from` to switch `to`.
    void Add(Ptr<NiccNetDevice> dev, const std::string& from, const std::string& to);
    /// First snapshot at `start`, then one bin per interval (interval 0: nothing).
    void Start(Time start);
    /// After the run: the last, partial bin up to `end` (under MPI: on every
    /// rank, with the same `end`).
    void Finish(Time end);

  private:
    void Sample();
    void AddBin(int64_t endNs); ///< the bin from the last snapshot to endNs

    NiccLinkUtilSeries* m_out;
    Time m_interval;
    std::vector<Ptr<NiccNetDevice>> m_devs;
    std::vector<uint64_t> m_last;
    std::vector<uint64_t> m_row; ///< the bin being added
    int64_t m_lastNs{-1}; ///< time of the last snapshot; -1 = not started
};

} // namespace ns3

#endif // NICC_LINK_UTIL_H
