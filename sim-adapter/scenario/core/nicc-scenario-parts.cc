/*
 * nicc-scenario-parts.cc — the registry of scenario parts
 * (nicc-scenario-part.h): one line per part, in install order. That order is
 * part of the model: parts schedule their events in it, and events at equal
 * times run in scheduling order (faults first, then the traffic they act
 * on, then the meters that watch both).
 */
#include "nicc-scenario-part.h"

namespace ns3
{

// X(Name): NiccMakeNamePart() is defined in the part's own folder.
#define NICC_SCENARIO_PARTS(X)                                                                     \
    X(Faults)        /* faults/nicc-part-faults.cc: link faults, flaps, losses */                 \
    X(Traffic)       /* workload/nicc-part-traffic.cc: generated workloads, flow file */          \
    X(Training)      /* training/nicc-part-training.cc: training iterations */                    \
    X(PortMonitor)   /* measure/nicc-part-port-monitor.cc: monitor, qlen_mon_file */              \
    X(PfcStorm)      /* faults/nicc-part-pfc-storm.cc: PFC storms, watchdog, deadlock check */    \
    X(LinkUtil)      /* measure/nicc-part-link-util.cc: link utilization over time */

#define NICC_DECLARE_PART(name) std::unique_ptr<NiccScenarioPart> NiccMake##name##Part();
NICC_SCENARIO_PARTS(NICC_DECLARE_PART)
#undef NICC_DECLARE_PART

std::vector<std::unique_ptr<NiccScenarioPart>>
NiccScenarioParts()
{
    std::vector<std::unique_ptr<NiccScenarioPart>> parts;
#define NICC_MAKE_PART(name) parts.push_back(NiccMake##name##Part());
    NICC_SCENARIO_PARTS(NICC_MAKE_PART)
#undef NICC_MAKE_PART
    return parts;
}

} // namespace ns3
