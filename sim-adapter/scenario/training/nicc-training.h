/*
 * nicc-training.h — a data-parallel training job on the simulated fabric:
 * the iteration timeline of nicc-training-timeline.h, with every bucket's
 * gradient all-reduce run as a ring all-reduce of NiccWorkload (rings from
 * the key allreduce_ring) started when the timeline says, and its measured
 * duration fed back into the timeline.
 *
 * Keys (nicc-scenario-key-table.cc; docs/training.md):
 *   training=off|resnet50|gpt-18.4b|custom   training_iterations=3   training_start_us=0
 *   training_forward_us / _backward_us / _optimizer_us   (-1 = the preset's)
 *   training_grad_bytes (-1 = the preset's)   training_precision=fp16|fp32
 *   training_bucket_mb=25   training_first_bucket_mb=1   (MiB, as DDP)
 *   training_ranks=0 (= every host)   training_layers_file=PATH (per-layer profile)
 *   training_tp=0 (= the preset's: gpt-18.4b 8, else 1)   training_model_layers=-1
 *   training_micro_batch=-1   training_microbatches=1
 *   training_tp_forward_bytes / training_tp_backward_bytes (-1 = the preset's)
 *
 * Tensor parallelism (training_tp = t > 1): hosts t at a time form a TP
 * group (consecutive hosts: one server of a rail fabric); each group runs
 * the timeline's TP all-reduces as ring all-reduces among its t ranks, over
 * the server's NVLink when it has one (nvlink_gbps > 0), else the fabric;
 * the DP groups are the ranks with the same index in their TP group (one
 * rail), each all-reducing its own gradients (params / t per rank).
 *
 * Within RunFabric:
 *   NiccTrainingRun training;
 *   if (!training.SetUp(scenario, &work, groups, groupSize, error)) ...
 *   ...Simulator::Run()...
 *   training.Collect(&result.training);
 * Outputs (the training part, nicc-part-training.cc): training.csv,
 * training_buckets.csv, summary.json "training"; scripts/plot.py draws
 * training.png from them.
 */
#ifndef NICC_TRAINING_H
#define NICC_TRAINING_H

#include "ns3/nicc-training-timeline.h"
#include "ns3/nicc-workload.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class NiccScenario;

/// A model preset: where its numbers come from is in docs/training.md.
struct NiccTrainingPreset
{
    const char* name;
    double params;      ///< parameters (gradient elements per rank)
    double forwardUs;   ///< per iteration
    double backwardUs;
    double optimizerUs;
    const char* source; ///< one line: model, GPU, batch, figure
    // A transformer layer stack (layers > 0; docs/training.md):
    uint32_t layers{0};  ///< transformer layers l
    double hidden{0};    ///< hidden size h
    double seqLen{0};    ///< sequence length s
    double vocab{0};     ///< vocabulary V
    double tflops{0};    ///< achieved model FLOP/s per GPU, in TFLOP/s
    uint32_t tp{1};      ///< tensor-parallel degree of the configuration
    double microBatch{1}; ///< sequences per micro-batch b
};

/// A transformer preset's timeline for `tp` ranks per TP group, the first
/// `layers` of its layers, micro-batches of `microBatch` sequences and
/// `gradBytes` bytes per gradient: per layer 96 b s h^2 (1 + s/(6h) +
/// V/(16 l h)) / t FLOPs at the preset's rate, a quarter of it forward;
/// (12 h^2 + 13 h) / t parameters per layer per rank, the embeddings' (V h /
/// t + s h) with the first layer (last in backward order); TP all-reduces of
/// 2 b s h and 4 b s h fp16 values (forward, backward with the recomputed
/// forward); optimizer 28 bytes per parameter at 1.555 TB/s. Fills `spec`'s
/// forward, layers, optimizer and TP fields.
void NiccTransformerSpec(const NiccTrainingPreset& p,
                         uint32_t tp,
                         uint32_t layers,
                         double microBatch,
                         double gradBytes,
                         NiccTrainingSpec* spec);

/// Every preset (the key `training`'s values besides off and custom).
const std::vector<NiccTrainingPreset>& NiccTrainingPresets();

/// Reads a per-layer profile (key training_layers_file): a CSV whose first
/// line (after '#' comments and blank lines) is the header
/// "bytes,backward_us", then one layer a line in backward order, bytes an
/// integer > 0, backward_us >= 0. False with "path:line: reason" in *error.
bool NiccReadTrainingLayers(const std::string& path, std::vector<NiccTrainingLayer>* out, std::string* error);

/// What the training keys produced in one run.
struct NiccTrainingResult
{
    bool on{false};
    std::string preset;      ///< "resnet50" or "custom"
    std::string source;      ///< the preset's source line
    std::string ringLayout;  ///< allreduce_ring
    std::string algo;        ///< allreduce_algo
    std::string relay;       ///< allreduce_relay
    uint32_t ranks{0};
    uint32_t rings{0};       ///< DP rings (with tp > 1: the DP groups)
    uint32_t tp{1};          ///< tensor-parallel degree
    uint32_t tpGroups{0};    ///< TP groups (ranks / tp; 0 without TP)
    bool tpNvlink{false};    ///< NVLink on and every TP group inside one server (its rings over NVLink)
    uint32_t iterationsPlanned{0};
    NiccTrainingSpec spec;   ///< as run
    int64_t computeNs{0};    ///< F + B + O
    std::vector<NiccTrainingBucket> buckets;
    std::vector<NiccTrainingIteration> iterations; ///< started ones, in order
    NiccTrainingSummary summary;
};

/// One training job in a fabric run.
class NiccTrainingRun
{
  public:
    /// Reads the training keys of `s` (nothing to do with training=off);
    /// the ranks are the hosts of the allreduce_ring layout over `groups`
    /// groups of `groupSize` hosts. False with the key named in *error.
    bool SetUp(const NiccScenario& s, NiccWorkload* work, uint32_t groups, uint32_t groupSize, std::string* error);
    bool On() const { return m_on; }
    /// Fill *r from the run (after Simulator::Run).
    void Collect(NiccTrainingResult* r) const;

  private:
    /// Start the timeline's pending all-reduce at its time, if any; release
    /// the workload's hold when the job is finished.
    void Next();
    void AllReduceDone(NiccTrainingStream stream);
    /// training_tp and the layer-stack keys into `spec`; the DP / TP groups.
    bool SetUpParallel(const NiccScenario& s, uint32_t tp, uint32_t hosts, NiccTrainingSpec* spec, std::string* error);
    /// The DP rings of `layout` (without TP: over every host, or the first
    /// training_ranks); refused with fewer than 2 ranks per ring.
    bool SetUpRings(const NiccScenario& s,
                    uint32_t tp,
                    uint32_t groups,
                    uint32_t groupSize,
                    const std::string& layout,
                    std::string* error);

    bool m_on{false};
    NiccWorkload* m_work{nullptr};
    NiccTrainingTimeline m_timeline;
    std::vector<std::vector<uint32_t>> m_rings;
    std::vector<std::vector<uint32_t>> m_tpGroups; ///< empty without TP
    uint64_t m_dpScale{1};   ///< DP bytes x this: with TP each DP ring reduces its own gradients
    uint64_t m_issued[2]{0, 0}; ///< requests started per stream
    bool m_tree{false};    ///< allreduce_algo=tree
    uint32_t m_chunks{1};  ///< allreduce_chunks
    NiccTrainingResult m_info; ///< the static part of the result
};

} // namespace ns3

#endif // NICC_TRAINING_H
