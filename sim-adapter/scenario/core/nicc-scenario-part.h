/*
 * nicc-scenario-part.h — one subsystem of a scenario run as one small
 * interface: what it builds into the fabric and schedules (Install), what
 * it reads once the simulation stops (Finish), what it adds to the result
 * after the core figures (Collect) and what it writes to the output
 * directory (Write). A fabric run (NiccFabricRun, nicc-fabric-run.h) calls
 * every registered part in order; NiccWriteScenarioOutputs calls every
 * part's Write for every scenario.
 *
 * A new workload or meter is one folder's file defining
 *   std::unique_ptr<NiccScenarioPart> NiccMakeFooPart();
 * and one line X(Foo) in NICC_SCENARIO_PARTS (nicc-scenario-parts.cc).
 * Internal to the scenario layer.
 */
#ifndef NICC_SCENARIO_PART_H
#define NICC_SCENARIO_PART_H

#include <nlohmann/json_fwd.hpp>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class NiccFabricRun;
class NiccScenario;
struct NiccScenarioResult;

/// One subsystem of a scenario run (faults, traffic, training, meters, ...).
class NiccScenarioPart
{
  public:
    virtual ~NiccScenarioPart() = default;
    /// Its name, for messages.
    virtual const char* Name() const = 0;
    /// Fabric scenarios, before the simulation runs: read its keys, build
    /// into the fabric, schedule its events. Parts install in registration
    /// order, which is the order their events at equal times run in. False
    /// with *error naming the key refuses the run.
    virtual bool Install(NiccFabricRun& run, std::string* error) = 0;
    /// Right after Simulator::Run, before any figure is merged across MPI ranks.
    virtual void Finish(NiccFabricRun& run) { (void)run; }
    /// After the core figures (flows, counters, MPI merges): its part of the result.
    virtual void Collect(NiccFabricRun& run) { (void)run; }
    /// Its summary.json fields and files in `dir`, for every scenario
    /// (nothing where it did not run); false when a file cannot be written.
    virtual bool Write(const NiccScenario& s,
                       const NiccScenarioResult& r,
                       const std::filesystem::path& dir,
                       nlohmann::json* summary) const
    {
        (void)s, (void)r, (void)dir, (void)summary;
        return true;
    }
};

/// Every registered part, new instances, in registration order.
std::vector<std::unique_ptr<NiccScenarioPart>> NiccScenarioParts();

} // namespace ns3

#endif // NICC_SCENARIO_PART_H
