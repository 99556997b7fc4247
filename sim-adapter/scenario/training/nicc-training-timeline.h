/*
 * nicc-training-timeline.h — the iteration timeline of a data-parallel
 * training job, without any simulator type: R ranks each run forward (F),
 * backward (B) and the optimizer step (O) per iteration; backward produces
 * the gradients in buckets (PyTorch DDP: reverse layer order, the first
 * bucket in that order capped at first_bucket_cap, the others at
 * bucket_cap); each bucket is all-reduced over the ranks, one all-reduce at
 * a time in bucket order (one communication stream); the optimizer step
 * starts when the last all-reduce ends and the next iteration's forward
 * after it. How long an all-reduce takes comes from outside: a closed-form
 * cost (unit tests) or the simulated fabric (nicc-training.h).
 *
 *   NiccTrainingSpec spec;                       // ns and bytes
 *   spec.forwardNs = 100000; spec.backwardNs = 200000; spec.optimizerNs = 50000;
 *   spec.gradBytes = 4 << 20; spec.iterations = 2;
 *   NiccTrainingTimeline tl;
 *   std::string err;
 *   if (!tl.Init(spec, &err)) ...                // err names the field
 *   tl.Start(0);
 *   NiccTrainingRequest rq;
 *   while (tl.Pending(&rq))                      // the all-reduce to run next
 *       tl.Done(rq.startNs + 10000 + rq.bytes / 50);   // when it ended
 *   tl.Iterations()[0].ExposedNs(tl.ComputeNs())
 *
 * Timeline of iteration k (start s_k, bucket b ready after its share of B):
 *   ready_b      = s_k + F + ready offset of b (its cumulative bytes / all
 *                  bytes x B, rounded up; with a per-layer profile the end of
 *                  the backward of its last layer)
 *   start_b      = max(ready_b, end_{b-1})      (start_0 = ready_0)
 *   end_b        = start_b + all-reduce time (from outside)
 *   compute end  = s_k + F + B
 *   end_k        = end_last + O = s_{k+1}
 *   exposed comm = (end_k - s_k) - (F + B + O) = end_last - compute end
 * The last bucket is ready only when backward ends, so its whole all-reduce
 * is exposed: exposed comm >= the last bucket's all-reduce time.
 *
 * Micro-batches (gradient accumulation): with M > 1 the iteration runs M
 * forward + backward passes (F and B are per micro-batch) and the buckets
 * fill during the last backward only: compute = M (F + B) + O.
 *
 * Tensor parallelism (a layer stack, tpForwardBytes > 0): the layers of
 * `layers` (backward order) are also the forward's (forward order = the
 * reverse, F split evenly over them); after each layer's forward compute
 * the tensor-parallel group all-reduces tpForwardBytes and after each
 * layer's backward compute tpBackwardBytes, and the next layer's compute
 * waits for it (a second stream, on the critical path). A bucket is ready
 * when the backward compute of its last layer ends (its weight gradients;
 * the layer's own TP all-reduce carries the input gradient). The DP stream
 * runs beside the TP stream:
 *   compute end  = end of the last layer's backward TP all-reduce
 *   end_k        = max(end_last, compute end) + O
 *   TP time      = sum of the iteration's TP all-reduce durations (exposed
 *                  by construction)
 *   DP exposed   = exposed comm - TP time
 * Units: ns, bytes.
 */
#ifndef NICC_TRAINING_TIMELINE_H
#define NICC_TRAINING_TIMELINE_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/// One layer of a per-layer profile, in backward order (last layer first):
/// its gradient bytes and its backward compute time.
struct NiccTrainingLayer
{
    uint64_t bytes;
    int64_t backwardNs;
};

/// What a training job is.
struct NiccTrainingSpec
{
    uint32_t iterations{1};
    int64_t forwardNs{0};
    int64_t backwardNs{0};  ///< ignored with a per-layer profile (the layers' sum)
    int64_t optimizerNs{0};
    uint64_t gradBytes{0};  ///< gradient bytes per rank; ignored with a profile
    uint64_t bucketCapBytes{25ull << 20};   ///< DDP bucket_cap_mb = 25 (MiB)
    uint64_t firstBucketCapBytes{1ull << 20}; ///< DDP _DEFAULT_FIRST_BUCKET_BYTES (1 MiB)
    /// Optional per-layer profile in backward order; empty = gradients
    /// produced uniformly over the backward time.
    std::vector<NiccTrainingLayer> layers;
    /// Forward + backward passes per iteration (gradient accumulation);
    /// forwardNs / backwardNs / layers are per micro-batch.
    uint32_t microbatches{1};
    /// Tensor-parallel all-reduce bytes per rank after each layer's forward
    /// and backward compute (0 = no tensor parallelism); needs `layers`.
    uint64_t tpForwardBytes{0};
    uint64_t tpBackwardBytes{0};
};

/// The two communication streams of a job.
enum class NiccTrainingStream : uint8_t
{
    DP = 0, ///< data-parallel gradient buckets (overlap the backward)
    TP = 1, ///< tensor-parallel activation all-reduces (block the compute)
};

/// A gradient bucket: bytes and when its gradients are complete, measured
/// from the start of backward.
struct NiccTrainingBucket
{
    uint64_t bytes;
    int64_t readyOffsetNs;
    uint32_t lastLayer{0}; ///< with layers: the closing layer (backward order)
};

/// One bucket all-reduce of one iteration.
struct NiccTrainingAllReduce
{
    uint32_t bucket;
    uint64_t bytes;
    int64_t readyNs;
    int64_t startNs;
    int64_t endNs; ///< -1 while running
};

/// One tensor-parallel all-reduce of one iteration.
struct NiccTrainingTpAllReduce
{
    uint32_t microbatch;
    uint32_t layer;   ///< model layer, forward order (0 = the first)
    bool backward;
    uint64_t bytes;
    int64_t startNs;  ///< = the end of the layer's compute
    int64_t endNs;    ///< -1 while running
};

/// One iteration (absolute times, ns).
struct NiccTrainingIteration
{
    uint32_t index;
    int64_t startNs;
    /// start + M (F + B); with TP the end of the last backward TP
    /// all-reduce (-1 until known)
    int64_t computeEndNs{-1};
    int64_t lastAllReduceEndNs{-1};
    int64_t endNs{-1};      ///< max(last all-reduce end, compute end) + O; -1 while running
    std::vector<NiccTrainingAllReduce> allReduces;
    std::vector<NiccTrainingTpAllReduce> tpAllReduces;
    bool Done() const { return endNs >= 0; }
    int64_t DurationNs() const { return endNs - startNs; }
    /// Iteration time minus M (F + B) + O: communication not hidden by compute.
    int64_t ExposedNs(int64_t computeNs) const { return DurationNs() - computeNs; }
    /// Sum of the finished TP all-reduces' durations (all exposed).
    int64_t TpNs() const
    {
        int64_t sum = 0;
        for (const auto& a : tpAllReduces)
        {
            sum += a.endNs >= 0 ? a.endNs - a.startNs : 0;
        }
        return sum;
    }
    /// Exposed communication of the DP stream: exposed - TP time.
    int64_t DpExposedNs(int64_t computeNs) const { return ExposedNs(computeNs) - TpNs(); }
};

/// An all-reduce the timeline wants run: on `stream`, of iteration
/// `iteration`, `bytes` per rank, starting at `startNs`; DP: bucket
/// `bucket`; TP: `microbatch`, `layer` (forward order), `backward`. `seq`
/// counts the stream's requests from 0 (a driver starts each once).
struct NiccTrainingRequest
{
    uint32_t iteration;
    uint32_t bucket;
    uint64_t bytes;
    int64_t startNs;
    NiccTrainingStream stream{NiccTrainingStream::DP};
    uint32_t microbatch{0};
    uint32_t layer{0};
    bool backward{false};
    uint64_t seq{0};
};

/// DDP's bucket split of a spec (gradients in backward order): the first
/// bucket closes once it holds firstBucketCapBytes, every later one at
/// bucketCapBytes (with a profile a bucket closes at the first layer that
/// brings it to the cap, so it may exceed it, as DDP's assignment by size
/// does; without one the byte stream is cut exactly). Empty on a bad spec.
std::vector<NiccTrainingBucket> NiccTrainingBuckets(const NiccTrainingSpec& spec);

/// Mean figures over the finished iterations.
struct NiccTrainingSummary
{
    uint32_t iterationsDone{0};
    double meanIterationNs{0};
    double iterationsPerSecond{0};
    double meanExposedNs{0};
    double exposedShare{0}; ///< mean exposed / mean iteration time
    double meanTpNs{0};         ///< TP all-reduce time per iteration
    double meanDpExposedNs{0};  ///< exposed - TP time
};

/**
 * The iteration timeline, driven from outside: Start(), then repeatedly
 * Pending() (the next all-reduce to run) and Done(its end time) until
 * Pending() returns false. With tensor parallelism a DP and a TP all-reduce
 * may be waiting at once (PendingAll, Done(stream, end)); the results do not
 * depend on the order in which their ends are reported.
 */
class NiccTrainingTimeline
{
  public:
    /// Check the spec and split it into buckets; false with the field named
    /// in *error (iterations >= 1, times >= 0, at least one gradient byte,
    /// caps >= 1, layers with bytes > 0).
    bool Init(const NiccTrainingSpec& spec, std::string* error);
    /// Iteration 0 starts at `startNs`.
    void Start(int64_t startNs);
    /// The waiting all-reduce with the earliest start (TP first on a tie);
    /// false when none is waiting (every iteration done, or not started).
    bool Pending(NiccTrainingRequest* out) const;
    /// Every waiting all-reduce: at most one per stream.
    std::vector<NiccTrainingRequest> PendingAll() const;
    /// The all-reduce Pending() gives ended at `endNs` (>= its start).
    void Done(int64_t endNs);
    /// The waiting all-reduce of `stream` ended at `endNs`.
    void Done(NiccTrainingStream stream, int64_t endNs);
    /// Every planned iteration has ended.
    bool Finished() const;

    const std::vector<NiccTrainingBucket>& Buckets() const { return m_buckets; }
    const std::vector<NiccTrainingIteration>& Iterations() const { return m_iterations; }
    const NiccTrainingSpec& Spec() const { return m_spec; }
    /// M (F + B) + O of one iteration.
    int64_t ComputeNs() const
    {
        return static_cast<int64_t>(m_spec.microbatches) * (m_spec.forwardNs + m_backwardNs) + m_spec.optimizerNs;
    }
    /// Tensor-parallel all-reduces per iteration (2 x layers x M; 0 without).
    uint32_t TpAllReducesPerIteration() const { return m_tp ? 2 * m_spec.microbatches * Layers() : 0; }
    int64_t BackwardNs() const { return m_backwardNs; }
    NiccTrainingSummary Summary() const;

  private:
    uint32_t Layers() const { return static_cast<uint32_t>(m_spec.layers.size()); }
    void BeginIteration(int64_t startNs);
    /// TP: run the compute of position m_pos from `t`, then request its TP
    /// all-reduce.
    void Compute(int64_t t);
    /// Start the next DP all-reduce when its bucket is ready and the stream free.
    void NextBucket();
    /// End the iteration when both streams and the compute are done.
    void MaybeEnd();

    NiccTrainingSpec m_spec;
    int64_t m_backwardNs{0};
    bool m_tp{false};
    std::vector<int64_t> m_ready;      ///< this iteration's bucket ready times (-1 = not yet)
    std::vector<int32_t> m_closes;     ///< per layer (backward order): the bucket it closes, or -1
    uint32_t m_pos{0};                 ///< TP: position in the iteration (M x 2 x layers)
    uint64_t m_seq[2]{0, 0};           ///< requests made per stream
    std::vector<NiccTrainingBucket> m_buckets;
    std::vector<NiccTrainingIteration> m_iterations;
    bool m_started{false};
};

/// Runs `spec` from 0 with all-reduce times given per (iteration, bucket)
/// by `durationNs` (a closed-form cost, or durations measured elsewhere);
/// false on a bad spec.
template <typename DurationFn>
bool
NiccRunTrainingTimeline(const NiccTrainingSpec& spec,
                        DurationFn durationNs,
                        NiccTrainingTimeline* out,
                        std::string* error,
                        int64_t startNs = 0)
{
    if (!out->Init(spec, error))
    {
        return false;
    }
    out->Start(startNs);
    NiccTrainingRequest rq;
    while (out->Pending(&rq))
    {
        out->Done(rq.startNs + durationNs(rq));
    }
    return true;
}

} // namespace ns3

#endif // NICC_TRAINING_TIMELINE_H
