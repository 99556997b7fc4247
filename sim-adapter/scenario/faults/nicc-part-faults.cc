/*
 * nicc-part-faults.cc — the faults part of a fabric run (nicc-scenario-
 * part.h): link faults, flaps and random losses from the keys fault, flap,
 * link_loss and loss_rate (NiccFaultInjector, nicc-fault.h, set up by
 * nicc-scenario-faults.cc); per fault, its losses and the goodput around it
 * in the result; summary.json "accounting" / "faults" and
 * fault_throughput.csv in the output.
 */
#include "nicc-fabric-run.h"

#include <nlohmann/json.hpp>

namespace ns3
{

// nicc-scenario-faults.cc
bool NiccFaultSummary(const NiccScenarioResult& r, const std::filesystem::path& dir, nlohmann::json* j);

namespace
{

class FaultsPart : public NiccScenarioPart
{
  public:
    const char* Name() const override { return "faults"; }

    bool Install(NiccFabricRun& run, std::string* error) override
    {
        m_faults = std::make_unique<NiccFaultInjector>(&run.fabric, MicroSeconds(run.D("fault_detect_us")),
                                                       MicroSeconds(run.D("fault_window_us")));
        return run.SetUpFaults(m_faults.get(), error);
    }

    void Finish(NiccFabricRun& run) override
    {
        NiccScenarioResult* r = run.r;
        m_faults->Finish(Simulator::Now(), &r->faults, &r->linkLoss, &r->faultThroughput);
    }

    bool Write(const NiccScenario&,
               const NiccScenarioResult& r,
               const std::filesystem::path& dir,
               nlohmann::json* summary) const override
    {
        return !r.fabric || NiccFaultSummary(r, dir, summary);
    }

  private:
    std::unique_ptr<NiccFaultInjector> m_faults;
};

} // namespace

std::unique_ptr<NiccScenarioPart>
NiccMakeFaultsPart()
{
    return std::make_unique<FaultsPart>();
}

} // namespace ns3
