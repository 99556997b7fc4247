/*
 * nicc-part-link-util.cc — the link-utilization part of a fabric run
 * (nicc-scenario-part.h): every switch-switch link's bytes per
 * link_util_interval_us from the traffic's start (NiccLinkUtilSampler,
 * nicc-link-util.h; 0 = off, no event), with the all-reduce's ideal bytes
 * per rank beside it; summary.json "link_util" and link_util.csv. The bins
 * stream to the spool's link_util.bin as sampled.
 */
#include "nicc-fabric-run.h"

#include "ns3/nicc-mpi.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace ns3
{

// nicc-link-util.cc
bool NiccWriteLinkUtilOutputs(const NiccScenarioResult& r, const std::filesystem::path& dir, nlohmann::json* j);

namespace
{

/// More samples than this over stop_ms is refused: use a longer interval.
constexpr double MAX_SAMPLES = 1e8;

class LinkUtilPart : public NiccScenarioPart
{
  public:
    const char* Name() const override { return "link-util"; }

    bool Install(NiccFabricRun& run, std::string* error) override
    {
        NiccLinkUtilResult& lu = run.r->linkUtil;
        lu.intervalUs = run.D("link_util_interval_us");
        m_sampler = std::make_unique<NiccLinkUtilSampler>(
            &lu.series, NanoSeconds(static_cast<int64_t>(std::llround(lu.intervalUs * 1e3))));
        const fabric_meters::FabricNodes& nodes = run.nodes;
        // Every switch-to-switch port (NVSwitches' aside), of every MPI rank:
        // the sampler sums each rank's part.
        for (const auto& sw : run.fabric.GetSwitches())
        {
            for (uint32_t p = 0; !nodes.onNvlink[sw->GetId()] && p < sw->GetNPorts(); ++p)
            {
                Ptr<NiccNetDevice> dev = sw->GetPort(p);
                const uint32_t peer = dev->GetPeer()->GetNode()->GetId();
                if (nodes.edgeOf[peer] < 0)
                {
                    m_sampler->Add(dev, nodes.name[sw->GetId()], nodes.name[peer]);
                }
            }
        }
        if (lu.intervalUs > 0 &&
            (run.stop - run.trafficStart).GetMicroSeconds() / lu.intervalUs * lu.series.Links() > MAX_SAMPLES)
        {
            *error = "key 'link_util_interval_us': " + run.Get("link_util_interval_us") + " us over stop_ms with " +
                     std::to_string(lu.series.Links()) +
                     " fabric links is more than 1e8 samples; use a longer interval";
            return false;
        }
        if (lu.intervalUs > 0 && run.r->spool && NiccMpi::Rank() == 0) // under MPI rank 0 keeps the bins
        {
            // The bins go to the spool as sampled (read back by the summary
            // and link_util.csv after the run).
            if (!(lu.series.out = run.r->spool->Open("link_util.bin", error)))
            {
                return false;
            }
            lu.series.file = run.r->spool->Path("link_util.bin");
        }
        m_sampler->Start(run.trafficStart);
        return true;
    }

    void Finish(NiccFabricRun& run) override
    {
        NiccLinkUtilResult& lu = run.r->linkUtil;
        if (lu.intervalUs <= 0)
        {
            return;
        }
        m_sampler->Finish(Simulator::Now());
        if (lu.series.out)
        {
            lu.series.out->flush();
            lu.series.out = nullptr; // complete: read back from lu.series.file
        }
        const uint64_t bytes = run.U("allreduce_bytes");
        if (bytes > 0)
        {
            const auto rings = NiccAllReduceRings(run.Get("allreduce_ring"), run.shape.groups, run.shape.groupSize);
            const uint64_t n = rings.empty() ? 0 : rings[0].size();
            lu.allreduceRanks = static_cast<uint32_t>(n);
            lu.allreduceRings = static_cast<uint32_t>(rings.size());
            lu.allreduceRankBytes = n < 2 ? 0 : 2 * (n - 1) * ((bytes + rings.size() * n - 1) / (rings.size() * n));
        }
    }

    bool Write(const NiccScenario&,
               const NiccScenarioResult& r,
               const std::filesystem::path& dir,
               nlohmann::json* summary) const override
    {
        return !r.fabric || NiccWriteLinkUtilOutputs(r, dir, summary);
    }

  private:
    std::unique_ptr<NiccLinkUtilSampler> m_sampler;
};

} // namespace

std::unique_ptr<NiccScenarioPart>
NiccMakeLinkUtilPart()
{
    return std::make_unique<LinkUtilPart>();
}

} // namespace ns3
