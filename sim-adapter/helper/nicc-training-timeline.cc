/*
 * nicc-training-timeline.cc — DDP bucket split and the iteration timeline
 * of a data-parallel training job (see the header).
 */
#include "nicc-training-timeline.h"

#include <algorithm>

namespace ns3
{

std::vector<NiccTrainingBucket>
NiccTrainingBuckets(const NiccTrainingSpec& spec)
{
    std::vector<NiccTrainingBucket> out;
    if (spec.bucketCapBytes == 0 || spec.firstBucketCapBytes == 0)
    {
        return out;
    }
    auto capOf = [&](size_t bucket) { return bucket == 0 ? spec.firstBucketCapBytes : spec.bucketCapBytes; };
    if (!spec.layers.empty())
    {
        // Whole layers: a bucket closes at the layer that brings it to its
        // cap; it is ready when that layer's backward has run.
        uint64_t held = 0;
        int64_t t = 0;
        for (const NiccTrainingLayer& l : spec.layers)
        {
            t += l.backwardNs;
            held += l.bytes;
            if (held >= capOf(out.size()))
            {
                out.push_back({held, t});
                held = 0;
            }
        }
        if (held > 0)
        {
            out.push_back({held, t});
        }
        return out;
    }
    // A uniform gradient stream over the backward time, cut at the caps.
    // Ready offset = ceil(B * cumulative / total): 128-bit product (B and
    // bytes each < 2^63).
    const uint64_t total = spec.gradBytes;
    uint64_t cum = 0;
    while (cum < total)
    {
        const uint64_t bytes = std::min(capOf(out.size()), total - cum);
        cum += bytes;
        const unsigned __int128 num = static_cast<unsigned __int128>(spec.backwardNs) * cum;
        const int64_t ready = static_cast<int64_t>((num + total - 1) / total);
        out.push_back({bytes, ready});
    }
    return out;
}

bool
NiccTrainingTimeline::Init(const NiccTrainingSpec& spec, std::string* error)
{
    m_spec = spec;
    m_iterations.clear();
    m_buckets.clear();
    m_started = false;
    if (spec.iterations == 0)
    {
        *error = "training: iterations must be at least 1";
        return false;
    }
    if (spec.forwardNs < 0 || spec.backwardNs < 0 || spec.optimizerNs < 0)
    {
        *error = "training: forward, backward and optimizer times must be >= 0";
        return false;
    }
    if (spec.bucketCapBytes == 0 || spec.firstBucketCapBytes == 0)
    {
        *error = "training: bucket caps must be at least 1 byte";
        return false;
    }
    m_backwardNs = spec.backwardNs;
    if (!spec.layers.empty())
    {
        m_backwardNs = 0;
        for (size_t i = 0; i < spec.layers.size(); ++i)
        {
            if (spec.layers[i].bytes == 0 || spec.layers[i].backwardNs < 0)
            {
                *error = "training: layer " + std::to_string(i) + ": bytes must be > 0 and backward time >= 0";
                return false;
            }
            m_backwardNs += spec.layers[i].backwardNs;
        }
    }
    else if (spec.gradBytes == 0)
    {
        *error = "training: gradient bytes must be > 0";
        return false;
    }
    m_buckets = NiccTrainingBuckets(spec);
    return !m_buckets.empty();
}

void
NiccTrainingTimeline::BeginIteration(int64_t startNs)
{
    NiccTrainingIteration it;
    it.index = static_cast<uint32_t>(m_iterations.size());
    it.startNs = startNs;
    it.computeEndNs = startNs + m_spec.forwardNs + m_backwardNs;
    const int64_t backwardStart = startNs + m_spec.forwardNs;
    // Bucket 0 starts when ready; later ones are filled in as they start.
    it.allReduces.push_back({0, m_buckets[0].bytes, backwardStart + m_buckets[0].readyOffsetNs,
                             backwardStart + m_buckets[0].readyOffsetNs, -1});
    m_iterations.push_back(std::move(it));
}

void
NiccTrainingTimeline::Start(int64_t startNs)
{
    m_iterations.clear();
    m_started = true;
    BeginIteration(startNs);
}

bool
NiccTrainingTimeline::Pending(NiccTrainingRequest* out) const
{
    if (!m_started || m_iterations.empty() || m_iterations.back().Done())
    {
        return false;
    }
    const NiccTrainingIteration& it = m_iterations.back();
    const NiccTrainingAllReduce& ar = it.allReduces.back();
    *out = {it.index, ar.bucket, ar.bytes, ar.startNs};
    return true;
}

void
NiccTrainingTimeline::Done(int64_t endNs)
{
    NiccTrainingRequest pending;
    if (!Pending(&pending))
    {
        return; // nothing running
    }
    NiccTrainingIteration& it = m_iterations.back();
    NiccTrainingAllReduce& ar = it.allReduces.back();
    ar.endNs = std::max(endNs, ar.startNs);
    const uint32_t next = ar.bucket + 1;
    if (next < m_buckets.size())
    {
        const int64_t ready = it.startNs + m_spec.forwardNs + m_buckets[next].readyOffsetNs;
        it.allReduces.push_back({next, m_buckets[next].bytes, ready, std::max(ready, ar.endNs), -1});
        return;
    }
    it.lastAllReduceEndNs = ar.endNs;
    it.endNs = ar.endNs + m_spec.optimizerNs;
    if (m_iterations.size() < m_spec.iterations)
    {
        BeginIteration(it.endNs);
    }
}

bool
NiccTrainingTimeline::Finished() const
{
    return m_iterations.size() == m_spec.iterations && m_iterations.back().Done();
}

NiccTrainingSummary
NiccTrainingTimeline::Summary() const
{
    NiccTrainingSummary s;
    double sum = 0;
    double exposed = 0;
    for (const NiccTrainingIteration& it : m_iterations)
    {
        if (it.Done())
        {
            ++s.iterationsDone;
            sum += static_cast<double>(it.DurationNs());
            exposed += static_cast<double>(it.ExposedNs(ComputeNs()));
        }
    }
    if (s.iterationsDone > 0)
    {
        s.meanIterationNs = sum / s.iterationsDone;
        s.meanExposedNs = exposed / s.iterationsDone;
        s.iterationsPerSecond = s.meanIterationNs > 0 ? 1e9 / s.meanIterationNs : 0.0;
        s.exposedShare = s.meanIterationNs > 0 ? s.meanExposedNs / s.meanIterationNs : 0.0;
    }
    return s;
}

} // namespace ns3
