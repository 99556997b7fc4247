/*
 * nicc-part-traffic.cc — the traffic part of a fabric run (nicc-scenario-
 * part.h): per-kind congestion control (keys <kind>_cc), then the generated
 * workloads (Poisson background from a flow-size CDF, incast bursts, the
 * permutation, ring or tree all-reduce, all-to-all) and the flow file's
 * flows, all on the run's NiccWorkload (nicc-workload.h); the collectives'
 * step times in the result (written by the fabric outputs, collective.csv).
 */
#include "nicc-fabric-run.h"

namespace ns3
{

namespace
{

class TrafficPart : public NiccScenarioPart
{
  public:
    const char* Name() const override { return "traffic"; }

    bool Install(NiccFabricRun& run, std::string* error) override
    {
        NiccWorkload& work = *run.work;
        // Per-workload congestion control (keys <kind>_cc; "cc" = the NICs').
        for (uint32_t k = 0; k < NICC_FLOW_KINDS; ++k)
        {
            const auto kind = static_cast<NiccFlowKind>(k);
            const std::string key = std::string(NiccFlowKindName(kind)) + NICC_WORKLOAD_CC_SUFFIX;
            nicc::hal::CcKind cc;
            if (kind != NiccFlowKind::OTHER && NiccCcKindByName(run.Get(key.c_str()), &cc))
            {
                work.SetCc(kind, cc);
            }
        }
        const DataRate hostRate(static_cast<uint64_t>(run.hostBps));
        work.StartPoisson(&run.cdf, run.D("poisson_load"), hostRate, Seconds(0), run.trafficStop);
        work.StartIncast(run.D("incast_load"), static_cast<uint32_t>(run.U("incast_fanin")), run.U("incast_bytes"),
                         hostRate, Seconds(0), run.trafficStop);
        work.StartPermutation(run.U("permutation_bytes"), run.shape.groupSize, run.Us("permutation_start_us"));
        if (run.U("allreduce_bytes") > 0 && !StartAllReduce(run, error))
        {
            return false;
        }
        if (run.U("alltoall_bytes") > 0)
        {
            std::vector<uint32_t> ranks(run.shape.hosts);
            for (uint32_t k = 0; k < run.shape.hosts; ++k)
            {
                ranks[k] = k;
            }
            work.StartAllToAll(ranks, run.U("alltoall_bytes"), run.Us("alltoall_start_us"));
        }
        work.StartFlowList(run.flowFile.List());
        return true;
    }

    void Collect(NiccFabricRun& run) override { run.r->collectives = run.work->GetCollectives(); }

  private:
    static bool StartAllReduce(NiccFabricRun& run, std::string* error)
    {
        const std::vector<std::vector<uint32_t>> rings =
            NiccAllReduceRings(run.Get("allreduce_ring"), run.shape.groups, run.shape.groupSize);
        const Time start = run.Us("allreduce_start_us");
        const bool started =
            run.Get("allreduce_algo") == "tree"
                ? run.work->StartTreeAllReduce(rings, run.U("allreduce_bytes"),
                                               static_cast<uint32_t>(run.U("allreduce_chunks")), start, "allreduce",
                                               nullptr)
                : run.work->StartRingAllReduce(rings, run.U("allreduce_bytes"), start);
        if (!started)
        {
            *error = "key 'allreduce_ring': rail-local / rail-crossing rings need at least two groups "
                     "(servers, leaves or ToRs)";
        }
        return started;
    }
};

} // namespace

std::unique_ptr<NiccScenarioPart>
NiccMakeTrafficPart()
{
    return std::make_unique<TrafficPart>();
}

} // namespace ns3
