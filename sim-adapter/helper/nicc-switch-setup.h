/*
 * nicc-switch-setup.h — switch settings applied after a fabric is built,
 * where they depend on the switch's place or its ports: buffer size per
 * tier (edge / aggregation / core, by distance from the hosts) and RED/ECN
 * thresholds per port rate (the HPCC simulator's KMIN_MAP / KMAX_MAP /
 * PMAX_MAP in one table).
 *
 *   std::vector<NiccEcnMapEntry> map;
 *   if (!NiccParseEcnMap("25Gbps:100:400:0.2;100Gbps:400:1600:0.2", &map, &err)) ...
 *   NiccApplyTierBuffers(fabric.GetSwitches(), 0, 24000000, 32000000);
 *   if (!NiccApplyEcnMap(fabric.GetSwitches(), map, &err)) ... // a port rate without entry
 *
 * Units: rates in bit/s, thresholds in bytes (the map's text in KB of
 * 1000 B, as the HPCC simulator writes them), buffers in bytes.
 */
#ifndef NICC_SWITCH_SETUP_H
#define NICC_SWITCH_SETUP_H

#include "ns3/nicc-ecn.h"
#include "ns3/nicc-switch-node.h"

#include <string>
#include <vector>

namespace ns3
{

/// Tier of every switch (same order): 1 = edge (a host is attached),
/// 2 = aggregation (one switch hop from an edge switch), 3 = core (two or
/// more); 0 = no path to any host.
std::vector<uint32_t> NiccSwitchTiers(const std::vector<Ptr<NiccSwitchNode>>& switches);

/// Sets the MMU BufferSize of every switch of a tier whose size is not 0
/// (core covers tier 3 and above). Call before the first packet.
void NiccApplyTierBuffers(const std::vector<Ptr<NiccSwitchNode>>& switches,
                          uint64_t edgeBytes,
                          uint64_t aggBytes,
                          uint64_t coreBytes);

/// One row of a per-rate ECN table.
struct NiccEcnMapEntry
{
    uint64_t bps;
    NiccRedParams red;
};

/// Parses "RATE:KMIN:KMAX:PMAX;RATE:..." (RATE: bit/s as a bare integer or
/// with a unit, e.g. 25Gbps; KMIN, KMAX: integer KB of 1000 B; PMAX in
/// [0, 1]; Kmin <= Kmax; each rate once). Empty text = no map. False with a
/// message naming the entry and field.
bool NiccParseEcnMap(const std::string& text, std::vector<NiccEcnMapEntry>* out, std::string* error);

/// Gives every port of every switch the entry for its exact rate. False
/// (nothing changed) naming the switch, port and rate when one is missing.
bool NiccApplyEcnMap(const std::vector<Ptr<NiccSwitchNode>>& switches,
                     const std::vector<NiccEcnMapEntry>& map,
                     std::string* error);

} // namespace ns3

#endif // NICC_SWITCH_SETUP_H
