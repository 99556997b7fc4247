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
        const uint32_t last = static_cast<uint32_t>(spec.layers.size() - 1);
        for (uint32_t i = 0; i <= last; ++i)
        {
            t += spec.layers[i].backwardNs;
            held += spec.layers[i].bytes;
            if (held >= capOf(out.size()))
            {
                out.push_back({held, t, i});
                held = 0;
            }
        }
        if (held > 0)
        {
            out.push_back({held, t, last});
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
    if (spec.microbatches == 0)
    {
        *error = "training: microbatches must be at least 1";
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
    m_tp = spec.tpForwardBytes > 0 || spec.tpBackwardBytes > 0;
    if (m_tp && (spec.layers.empty() || spec.tpForwardBytes == 0 || spec.tpBackwardBytes == 0))
    {
        *error = "training: tensor parallelism needs layers and both TP all-reduce sizes > 0";
        return false;
    }
    m_buckets = NiccTrainingBuckets(spec);
    m_closes.assign(spec.layers.size(), -1);
    for (size_t b = 0; b < m_buckets.size() && !spec.layers.empty(); ++b)
    {
        m_closes[m_buckets[b].lastLayer] = static_cast<int32_t>(b);
    }
    return !m_buckets.empty();
}

void
NiccTrainingTimeline::BeginIteration(int64_t startNs)
{
    NiccTrainingIteration it;
    it.index = static_cast<uint32_t>(m_iterations.size());
    it.startNs = startNs;
    m_iterations.push_back(std::move(it));
    m_ready.assign(m_buckets.size(), -1);
    if (m_tp)
    {
        m_iterations.back().computeEndNs = -1;
        m_pos = 0;
        Compute(startNs);
        return;
    }
    // The buckets fill during the last micro-batch's backward.
    const int64_t perMicro = m_spec.forwardNs + m_backwardNs;
    const int64_t backwardStart = startNs + (m_spec.microbatches - 1) * perMicro + m_spec.forwardNs;
    m_iterations.back().computeEndNs = startNs + m_spec.microbatches * perMicro;
    for (size_t b = 0; b < m_buckets.size(); ++b)
    {
        m_ready[b] = backwardStart + m_buckets[b].readyOffsetNs;
    }
    NextBucket();
}

void
NiccTrainingTimeline::Compute(int64_t t)
{
    const uint32_t layers = Layers();
    const uint32_t micro = m_pos / (2 * layers);
    const uint32_t q = m_pos % (2 * layers);
    const bool backward = q >= layers;
    NiccTrainingTpAllReduce a{};
    a.microbatch = micro;
    a.backward = backward;
    int64_t end = t;
    if (!backward)
    {
        // Forward of layer q: F split evenly, the remainders spread.
        a.layer = q;
        end += m_spec.forwardNs * (q + 1) / layers - m_spec.forwardNs * q / layers;
        a.bytes = m_spec.tpForwardBytes;
    }
    else
    {
        const uint32_t j = q - layers; // backward order
        a.layer = layers - 1 - j;
        end += m_spec.layers[j].backwardNs;
        a.bytes = m_spec.tpBackwardBytes;
        if (micro + 1 == m_spec.microbatches && m_closes[j] >= 0)
        {
            m_ready[m_closes[j]] = end; // its weight gradients are complete
        }
    }
    a.startNs = end;
    a.endNs = -1;
    m_iterations.back().tpAllReduces.push_back(a);
    ++m_seq[1];
    NextBucket();
}

void
NiccTrainingTimeline::NextBucket()
{
    NiccTrainingIteration& it = m_iterations.back();
    if (!it.allReduces.empty() && it.allReduces.back().endNs < 0)
    {
        return; // the stream is busy
    }
    const size_t next = it.allReduces.size();
    if (next >= m_buckets.size() || m_ready[next] < 0)
    {
        return;
    }
    const int64_t ready = m_ready[next];
    const int64_t start = next == 0 ? ready : std::max(ready, it.allReduces.back().endNs);
    it.allReduces.push_back({static_cast<uint32_t>(next), m_buckets[next].bytes, ready, start, -1});
    ++m_seq[0];
}

void
NiccTrainingTimeline::MaybeEnd()
{
    NiccTrainingIteration& it = m_iterations.back();
    if (it.Done() || it.computeEndNs < 0 || it.allReduces.size() < m_buckets.size() ||
        it.allReduces.back().endNs < 0)
    {
        return;
    }
    it.lastAllReduceEndNs = it.allReduces.back().endNs;
    it.endNs = std::max(it.lastAllReduceEndNs, it.computeEndNs) + m_spec.optimizerNs;
    if (m_iterations.size() < m_spec.iterations)
    {
        BeginIteration(it.endNs);
    }
}

void
NiccTrainingTimeline::Start(int64_t startNs)
{
    m_iterations.clear();
    m_seq[0] = m_seq[1] = 0;
    m_started = true;
    BeginIteration(startNs);
}

std::vector<NiccTrainingRequest>
NiccTrainingTimeline::PendingAll() const
{
    std::vector<NiccTrainingRequest> out;
    if (!m_started || m_iterations.empty() || m_iterations.back().Done())
    {
        return out;
    }
    const NiccTrainingIteration& it = m_iterations.back();
    if (!it.tpAllReduces.empty() && it.tpAllReduces.back().endNs < 0)
    {
        const NiccTrainingTpAllReduce& a = it.tpAllReduces.back();
        out.push_back({it.index, 0, a.bytes, a.startNs, NiccTrainingStream::TP, a.microbatch, a.layer, a.backward,
                       m_seq[1] - 1});
    }
    if (!it.allReduces.empty() && it.allReduces.back().endNs < 0)
    {
        const NiccTrainingAllReduce& a = it.allReduces.back();
        out.push_back({it.index, a.bucket, a.bytes, a.startNs, NiccTrainingStream::DP, 0, 0, false, m_seq[0] - 1});
    }
    return out;
}

bool
NiccTrainingTimeline::Pending(NiccTrainingRequest* out) const
{
    const std::vector<NiccTrainingRequest> all = PendingAll();
    if (all.empty())
    {
        return false;
    }
    // TP first in the list: it wins a tie.
    *out = all[0];
    for (const NiccTrainingRequest& r : all)
    {
        *out = r.startNs < out->startNs ? r : *out;
    }
    return true;
}

void
NiccTrainingTimeline::Done(int64_t endNs)
{
    NiccTrainingRequest pending;
    if (Pending(&pending))
    {
        Done(pending.stream, endNs);
    }
}

void
NiccTrainingTimeline::Done(NiccTrainingStream stream, int64_t endNs)
{
    if (!m_started || m_iterations.empty() || m_iterations.back().Done())
    {
        return; // nothing running
    }
    NiccTrainingIteration& it = m_iterations.back();
    if (stream == NiccTrainingStream::DP)
    {
        if (it.allReduces.empty() || it.allReduces.back().endNs >= 0)
        {
            return;
        }
        NiccTrainingAllReduce& ar = it.allReduces.back();
        ar.endNs = std::max(endNs, ar.startNs);
        NextBucket();
        MaybeEnd();
        return;
    }
    if (it.tpAllReduces.empty() || it.tpAllReduces.back().endNs >= 0)
    {
        return;
    }
    NiccTrainingTpAllReduce& a = it.tpAllReduces.back();
    a.endNs = std::max(endNs, a.startNs);
    if (++m_pos < TpAllReducesPerIteration())
    {
        Compute(a.endNs);
        return;
    }
    it.computeEndNs = a.endNs;
    MaybeEnd();
}

bool
NiccTrainingTimeline::Finished() const
{
    return m_started && m_iterations.size() == m_spec.iterations && m_iterations.back().Done();
}

NiccTrainingSummary
NiccTrainingTimeline::Summary() const
{
    NiccTrainingSummary s;
    double sum = 0;
    double exposed = 0;
    double tp = 0;
    for (const NiccTrainingIteration& it : m_iterations)
    {
        if (it.Done())
        {
            ++s.iterationsDone;
            sum += static_cast<double>(it.DurationNs());
            exposed += static_cast<double>(it.ExposedNs(ComputeNs()));
            tp += static_cast<double>(it.TpNs());
        }
    }
    if (s.iterationsDone > 0)
    {
        s.meanIterationNs = sum / s.iterationsDone;
        s.meanExposedNs = exposed / s.iterationsDone;
        s.meanTpNs = tp / s.iterationsDone;
        s.meanDpExposedNs = s.meanExposedNs - s.meanTpNs;
        s.iterationsPerSecond = s.meanIterationNs > 0 ? 1e9 / s.meanIterationNs : 0.0;
        s.exposedShare = s.meanIterationNs > 0 ? s.meanExposedNs / s.meanIterationNs : 0.0;
    }
    return s;
}

} // namespace ns3
