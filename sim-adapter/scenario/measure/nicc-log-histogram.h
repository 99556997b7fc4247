/*
 * nicc-log-histogram.h — percentiles of a stream of unsigned values in
 * memory that depends on the largest value, never on how many were added
 * (the queue samplers: summary.json queue_bytes, queue_cdf.csv,
 * queue_monitor; docs/scale.md "Streaming statistics").
 *
 * Layout (fixed buckets, the HDR-histogram idea): a value below 2^kSubBits
 * has a bucket of its own (exact); a value in the octave [2^e, 2^(e+1)),
 * e >= kSubBits, falls in one of the octave's 2^kSubBits equal buckets of
 * width 2^(e - kSubBits). A percentile is the nearest-rank one over the
 * buckets, reported as the largest value of its bucket, no more than the
 * exact maximum. So for the exact nearest-rank value x the reported r obeys
 *
 *     x <= r < x * (1 + 2^-kSubBits)        (kSubBits = 8: under 0.391%)
 *
 * and r == x whenever x < 256 or x is the maximum. The count, the maximum
 * and q = 1 are exact. Memory: one counter per bucket up to the largest
 * value's bucket, at most (65 - kSubBits) * 2^kSubBits = 14,592 counters
 * (117 KB); a queue of at most 32 MB needs 18 octaves (37 KB).
 *
 *   NiccLogHistogram h;
 *   h.Add(1500); h.Add(3000);
 *   h.Percentile(0.5);  // 1503: 1500's bucket is [1500, 1503] (octave 2^10, width 4)
 *   h.Percentile(1.0);  // 3000: the maximum, exact
 */
#ifndef NICC_LOG_HISTOGRAM_H
#define NICC_LOG_HISTOGRAM_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{

class NiccLogHistogram
{
  public:
    static constexpr unsigned kSubBits = 8;
    static constexpr uint64_t kSub = uint64_t{1} << kSubBits;
    /// Buckets of the whole uint64 range.
    static constexpr size_t kMaxBuckets = (65 - kSubBits) * kSub;

    /// The bucket of value v.
    static size_t Bucket(uint64_t v)
    {
        if (v < kSub)
        {
            return static_cast<size_t>(v);
        }
        const unsigned e = 63u - static_cast<unsigned>(__builtin_clzll(v)); // e >= kSubBits
        const uint64_t sub = (v >> (e - kSubBits)) - kSub;                  // in [0, kSub)
        return static_cast<size_t>(kSub + (e - kSubBits) * kSub + sub);
    }

    /// The largest value that falls in bucket b.
    static uint64_t BucketTop(size_t b)
    {
        if (b < kSub)
        {
            return b;
        }
        const uint64_t octave = (b - kSub) / kSub; // e - kSubBits
        const uint64_t sub = (b - kSub) % kSub;
        const uint64_t lo = (kSub + sub) << octave;
        return lo + ((uint64_t{1} << octave) - 1);
    }

    void Add(uint64_t v)
    {
        const size_t b = Bucket(v);
        if (b >= m_counts.size())
        {
            m_counts.resize(b + 1, 0);
        }
        ++m_counts[b];
        ++m_count;
        m_max = std::max(m_max, v);
    }

    uint64_t Count() const { return m_count; }
    uint64_t Max() const { return m_max; }
    /// Counters held (the memory in use is 8 bytes each).
    size_t Buckets() const { return m_counts.size(); }

    /// The value of 0-based rank k in sorted order (k < Count()), as the
    /// top of its bucket capped at the maximum; 0 if empty.
    uint64_t ValueAtRank(uint64_t k) const
    {
        uint64_t seen = 0;
        for (size_t b = 0; b < m_counts.size(); ++b)
        {
            seen += m_counts[b];
            if (seen > k)
            {
                return std::min(BucketTop(b), m_max);
            }
        }
        return m_max;
    }

    /// ValueAtRank of each of `ranks` (ascending), in one walk of the buckets.
    std::vector<uint64_t> ValuesAtRanks(const std::vector<uint64_t>& ranks) const
    {
        std::vector<uint64_t> out;
        out.reserve(ranks.size());
        uint64_t seen = 0;
        size_t b = 0;
        for (uint64_t k : ranks)
        {
            while (b < m_counts.size() && seen + m_counts[b] <= k)
            {
                seen += m_counts[b++];
            }
            out.push_back(b < m_counts.size() ? std::min(BucketTop(b), m_max) : m_max);
        }
        return out;
    }

    /// The 0-based sorted rank of the nearest-rank q-percentile, q in [0, 1]:
    /// ceil(q * n) - 1 (0 for q = 0): the rule of every percentile of a run.
    static uint64_t NearestRank(uint64_t n, double q)
    {
        const uint64_t rank = static_cast<uint64_t>(std::ceil(q * static_cast<double>(n)));
        return rank == 0 ? 0 : std::min(rank, n) - 1;
    }

    /// Nearest-rank percentile, q in [0, 1]; 0 if empty; q = 1 is the exact max.
    uint64_t Percentile(double q) const
    {
        if (m_count == 0)
        {
            return 0;
        }
        return q >= 1.0 ? m_max : ValueAtRank(NearestRank(m_count, q));
    }

    /// Add every value of another histogram.
    void Merge(const NiccLogHistogram& o)
    {
        if (o.m_counts.size() > m_counts.size())
        {
            m_counts.resize(o.m_counts.size(), 0);
        }
        for (size_t b = 0; b < o.m_counts.size(); ++b)
        {
            m_counts[b] += o.m_counts[b];
        }
        m_count += o.m_count;
        m_max = std::max(m_max, o.m_max);
    }

    /// The counters of the first `buckets` buckets, zero-padded (for MPI
    /// reductions: every rank sends the same length; the sum is the
    /// histogram of all ranks' values).
    std::vector<uint64_t> Counters(size_t buckets) const
    {
        std::vector<uint64_t> v(buckets, 0);
        const size_t n = std::min(buckets, m_counts.size());
        std::copy(m_counts.begin(), m_counts.begin() + static_cast<std::ptrdiff_t>(n), v.begin());
        return v;
    }

    /// Replace the state by counters (as Counters) and a maximum.
    void Assign(const std::vector<uint64_t>& counters, uint64_t max)
    {
        m_counts = counters;
        while (!m_counts.empty() && m_counts.back() == 0)
        {
            m_counts.pop_back();
        }
        m_count = 0;
        for (uint64_t c : m_counts)
        {
            m_count += c;
        }
        m_max = m_count ? max : 0;
    }

    /// Same values added (bucket by bucket), same maximum.
    bool operator==(const NiccLogHistogram& o) const
    {
        return m_count == o.m_count && m_max == o.m_max && m_counts == o.m_counts;
    }

  private:
    std::vector<uint64_t> m_counts;
    uint64_t m_count{0};
    uint64_t m_max{0};
};

} // namespace ns3

#endif // NICC_LOG_HISTOGRAM_H
