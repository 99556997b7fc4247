/*
 * nicc-training.h — a data-parallel training job on the simulated fabric:
 * the iteration timeline of nicc-training-timeline.h, with every bucket's
 * gradient all-reduce run as a ring all-reduce of NiccWorkload (rings from
 * the key allreduce_ring) started when the timeline says, and its measured
 * duration fed back into the timeline.
 *
 * Keys (nicc-scenario-key-table.cc; docs/training.md):
 *   training=off|resnet50|custom   training_iterations=3   training_start_us=0
 *   training_forward_us / _backward_us / _optimizer_us   (-1 = the preset's)
 *   training_grad_bytes (-1 = the preset's)   training_precision=fp16|fp32
 *   training_bucket_mb=25   training_first_bucket_mb=1   (MiB, as DDP)
 *   training_ranks=0 (= every host)   training_layers_file=PATH (per-layer profile)
 *
 * Within RunFabric:
 *   NiccTrainingRun training;
 *   if (!training.SetUp(scenario, &work, groups, groupSize, error)) ...
 *   ...Simulator::Run()...
 *   training.Collect(&result.training);
 * Outputs (NiccWriteTrainingOutputs, nicc-training.cc): training.csv,
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
};

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
    uint32_t rings{0};
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
    void AllReduceDone();

    bool m_on{false};
    NiccWorkload* m_work{nullptr};
    NiccTrainingTimeline m_timeline;
    std::vector<std::vector<uint32_t>> m_rings;
    bool m_tree{false};    ///< allreduce_algo=tree
    uint32_t m_chunks{1};  ///< allreduce_chunks
    NiccTrainingResult m_info; ///< the static part of the result
};

} // namespace ns3

#endif // NICC_TRAINING_H
