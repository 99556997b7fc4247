/*
 * nicc-part-pfc-storm.cc — the PFC-storm part of a fabric run (nicc-
 * scenario-part.h): storms, the PFC watchdog, the pause-spread sampler and
 * the deadlock check (NiccPfcRun, nicc-scenario-pfc.h; keys pfc_storm,
 * pfc_watchdog*, pfc_spread_sample_us, pfc_deadlock_check_us); the
 * result's pfcStorm; summary.json "pfc_storm" and pfc_spread.csv.
 */
#include "nicc-fabric-run.h"

#include <nlohmann/json.hpp>

namespace ns3
{

// nicc-scenario-pfc.cc
bool NiccWritePfcOutputs(const NiccPfcRunResult& r, const std::filesystem::path& dir, nlohmann::json* j);

namespace
{

class PfcStormPart : public NiccScenarioPart
{
  public:
    const char* Name() const override { return "pfc-storm"; }

    bool Install(NiccFabricRun& run, std::string* error) override
    {
        return m_pfc.SetUp(run.scenario, run.fabric.GetSwitches(), run.switchNames, run.nodes.hostDevices,
                           run.hostNames, run.stop, error);
    }

    void Finish(NiccFabricRun& run) override { m_pfc.Collect(&run.r->pfcStorm); }

    bool Write(const NiccScenario&,
               const NiccScenarioResult& r,
               const std::filesystem::path& dir,
               nlohmann::json* summary) const override
    {
        return NiccWritePfcOutputs(r.pfcStorm, dir, summary);
    }

  private:
    NiccPfcRun m_pfc;
};

} // namespace

std::unique_ptr<NiccScenarioPart>
NiccMakePfcStormPart()
{
    return std::make_unique<PfcStormPart>();
}

} // namespace ns3
