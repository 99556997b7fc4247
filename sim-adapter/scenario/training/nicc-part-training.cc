/*
 * nicc-part-training.cc — the training part of a fabric run (nicc-scenario-
 * part.h): a data-parallel (and tensor-parallel) training job's iterations
 * from key `training` (a preset or custom; NiccTrainingRun, nicc-training.h)
 * on the run's workload; its iterations and summary in the result;
 * training.csv, training_buckets.csv, training_tp.csv and summary.json
 * "training" in the output.
 */
#include "nicc-fabric-run.h"

#include <nlohmann/json.hpp>

#include <fstream>

namespace ns3
{

namespace
{

/// training.csv, training_buckets.csv, training_tp.csv and summary.json
/// "training" (nothing with training=off).
bool
WriteTrainingOutputs(const NiccTrainingResult& r, const std::filesystem::path& dir, nlohmann::json* j)
{
    if (!r.on)
    {
        return true;
    }
    std::ofstream it(dir / "training.csv");
    it << "iteration,start_ns,compute_end_ns,last_allreduce_end_ns,end_ns,iteration_us,compute_us,"
          "exposed_comm_us,iterations_per_s,tp_comm_us,dp_exposed_us\n";
    std::ofstream bk(dir / "training_buckets.csv");
    bk << "iteration,bucket,bytes,ready_ns,start_ns,end_ns,allreduce_us\n";
    std::ofstream tpf;
    if (r.tpGroups > 0)
    {
        tpf.open(dir / "training_tp.csv");
        tpf << "iteration,microbatch,layer,pass,bytes,start_ns,end_ns,allreduce_us\n";
    }
    for (const NiccTrainingIteration& i : r.iterations)
    {
        for (const NiccTrainingTpAllReduce& a : i.tpAllReduces)
        {
            if (r.tpGroups == 0)
            {
                break;
            }
            tpf << i.index << ',' << a.microbatch << ',' << a.layer << ',' << (a.backward ? "backward" : "forward")
                << ',' << a.bytes << ',' << a.startNs << ',';
            if (a.endNs >= 0)
            {
                tpf << a.endNs << ',' << static_cast<double>(a.endNs - a.startNs) / 1e3;
            }
            else
            {
                tpf << ',';
            }
            tpf << '\n';
        }
        for (const NiccTrainingAllReduce& a : i.allReduces)
        {
            bk << i.index << ',' << a.bucket << ',' << a.bytes << ',' << a.readyNs << ',' << a.startNs << ',';
            if (a.endNs >= 0)
            {
                bk << a.endNs << ',' << static_cast<double>(a.endNs - a.startNs) / 1e3;
            }
            else
            {
                bk << ','; // still running when the run stopped
            }
            bk << '\n';
        }
        if (!i.Done())
        {
            continue; // training.csv: finished iterations only
        }
        it << i.index << ',' << i.startNs << ',' << i.computeEndNs << ',' << i.lastAllReduceEndNs << ','
           << i.endNs << ',' << static_cast<double>(i.DurationNs()) / 1e3 << ','
           << static_cast<double>(r.computeNs) / 1e3 << ',' << static_cast<double>(i.ExposedNs(r.computeNs)) / 1e3
           << ',' << 1e9 / static_cast<double>(i.DurationNs()) << ',' << static_cast<double>(i.TpNs()) / 1e3 << ','
           << static_cast<double>(i.DpExposedNs(r.computeNs)) / 1e3 << '\n';
    }
    std::vector<uint64_t> bucketBytes;
    for (const auto& b : r.buckets)
    {
        bucketBytes.push_back(b.bytes);
    }
    (*j)["training"] = {
        {"preset", r.preset},
        {"source", r.source},
        {"ranks", r.ranks},
        {"rings", r.rings},
        {"ring_layout", r.ringLayout},
        {"allreduce_algo", r.algo},
        {"allreduce_relay", r.relay},
        {"iterations_planned", r.iterationsPlanned},
        {"iterations_done", r.summary.iterationsDone},
        {"forward_us", static_cast<double>(r.spec.forwardNs) / 1e3},
        {"backward_us", static_cast<double>(r.spec.backwardNs) / 1e3},
        {"optimizer_us", static_cast<double>(r.spec.optimizerNs) / 1e3},
        {"compute_us", static_cast<double>(r.computeNs) / 1e3},
        {"grad_bytes", r.spec.gradBytes},
        {"bucket_bytes", bucketBytes},
        {"mean_iteration_us", r.summary.meanIterationNs / 1e3},
        {"iterations_per_s", r.summary.iterationsPerSecond},
        {"mean_exposed_comm_us", r.summary.meanExposedNs / 1e3},
        {"exposed_comm_share", r.summary.exposedShare},
        {"tp", r.tp},
        {"tp_groups", r.tpGroups},
        {"tp_over_nvlink", r.tpNvlink},
        {"model_layers", r.spec.layers.size()},
        {"microbatches", r.spec.microbatches},
        {"tp_forward_bytes", r.spec.tpForwardBytes},
        {"tp_backward_bytes", r.spec.tpBackwardBytes},
        {"tp_allreduces_per_iteration", r.tpGroups > 0 ? 2 * r.spec.microbatches * r.spec.layers.size() : 0},
        {"mean_tp_comm_us", r.summary.meanTpNs / 1e3},
        {"mean_dp_exposed_us", r.summary.meanDpExposedNs / 1e3},
        {"meaning",
         "iteration = microbatches x (forward + backward) (bucket all-reduces overlap the last backward, one "
         "at a time; tensor-parallel all-reduces after each layer's forward and backward block the compute) "
         "+ optimizer after the last all-reduce; exposed comm = iteration time - (microbatches x (forward + "
         "backward) + optimizer) = tp comm + dp exposed; means over the finished iterations"}};
    return static_cast<bool>(it) && static_cast<bool>(bk) && (r.tpGroups == 0 || static_cast<bool>(tpf));
}

class TrainingPart : public NiccScenarioPart
{
  public:
    const char* Name() const override { return "training"; }

    bool Install(NiccFabricRun& run, std::string* error) override
    {
        return m_training.SetUp(run.scenario, run.work.get(), run.shape.groups, run.shape.groupSize, error);
    }

    void Collect(NiccFabricRun& run) override { m_training.Collect(&run.r->training); }

    bool Write(const NiccScenario&,
               const NiccScenarioResult& r,
               const std::filesystem::path& dir,
               nlohmann::json* summary) const override
    {
        return WriteTrainingOutputs(r.training, dir, summary);
    }

  private:
    NiccTrainingRun m_training;
};

} // namespace

std::unique_ptr<NiccScenarioPart>
NiccMakeTrainingPart()
{
    return std::make_unique<TrainingPart>();
}

} // namespace ns3
