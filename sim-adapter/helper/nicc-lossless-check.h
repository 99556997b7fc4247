/*
 * nicc-lossless-check.h — before a run: can every switch's buffer back the
 * PFC headroom it reserves? A lossless fabric whose headroom exceeds the
 * buffer would drop data (or control) packets while claiming to be lossless,
 * so such a configuration is refused with the buffer each switch needs, or
 * (policy SHRINK) its headroom is scaled down to fit with a warning; drops of
 * lossless data then show up as headroom overflow (NiccSwitchNode::
 * GetHeadroomOverflowDrops).
 *
 *   std::string error, warning;
 *   if (!NiccCheckLosslessBuffer(fabric.GetSwitches(), NiccHeadroomPolicy::REFUSE,
 *                                &error, &warning)) { ... error names the switch ... }
 *
 * Bytes throughout. Needed per switch (NiccSwitchMmu banner):
 *   ports x lossless classes x headroom per (port, class) + one maximum frame
 *   per port for the shared pool.
 */
#ifndef NICC_LOSSLESS_CHECK_H
#define NICC_LOSSLESS_CHECK_H

#include "ns3/nicc-switch-node.h"

#include <string>
#include <vector>

namespace ns3
{

/// What to do with a lossless switch whose buffer cannot back its headroom.
enum class NiccHeadroomPolicy : uint8_t
{
    REFUSE = 0, ///< refuse the configuration (error names the buffer needed)
    SHRINK = 1, ///< scale the headroom down to fit; warn
};

/// "switch node 5: 65 ports x 1 lossless class x 253 294 B headroom ..." for
/// one switch: how its required buffer is made up.
std::string NiccDescribeBufferNeed(Ptr<NiccSwitchNode> sw);

/**
 * Checks every switch (PFC on) against its buffer. REFUSE: false and *error
 * names the first switch that does not fit, the buffer it needs and why.
 * SHRINK: fits each such switch's headroom (NiccSwitchMmu::FitHeadroomToBuffer)
 * and appends one line per switch to *warning; false only if a buffer is
 * below even the minimal shared pool. Switches with PFC off pass.
 */
bool NiccCheckLosslessBuffer(const std::vector<Ptr<NiccSwitchNode>>& switches,
                             NiccHeadroomPolicy policy,
                             std::string* error,
                             std::string* warning);

} // namespace ns3

#endif // NICC_LOSSLESS_CHECK_H
