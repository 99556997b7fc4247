/*
 * nicc-scenario-mpi.h — a fabric scenario across MPI ranks (key mpi_ranks;
 * docs/scale.md, "One simulation across ranks"): which rank owns which node,
 * and the merge of every rank's figures into one result on rank 0. Internal
 * to the scenario layer (nicc-scenario-fabric.cc).
 *
 * Every rank builds the whole fabric and runs the whole workload generator
 * (same random draws, same flow ids); a node is simulated by its owner only.
 * A figure of a node that another rank owns is therefore zero here, so
 * element-wise sums over the ranks give the figures of a one-process run.
 */
#ifndef NICC_SCENARIO_MPI_H
#define NICC_SCENARIO_MPI_H

#include "nicc-fabric-helper.h"
#include "nicc-scenario.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/// SystemIds of a fat-tree: by pod (byPod) or by ToR, in contiguous blocks;
/// hosts with their ToR, cores in blocks.
void NiccPartitionFatTree(const NiccFatTreeTopology& ft, const NiccFatTreeParams& p, uint32_t ranks, bool byPod);
/// SystemIds of a leaf-spine: leaves (with their hosts) and spines in blocks.
void NiccPartitionLeafSpine(const NiccLeafSpineTopology& ls, uint32_t ranks);
/// After the SystemIds: every link learns which of its ends are remote.
/// Returns the number of links that cross ranks.
uint32_t NiccPartitionLinks(const NiccFabricHelper& fabric);

/// The switches' and NICs' counters (drops, pauses, ECN marks, packets,
/// retransmissions, ...) of the nodes this process simulates, added to *r;
/// NiccMergeCounters then sums them over the ranks.
void NiccAddCounters(NiccScenarioResult* r,
                     const std::vector<Ptr<NiccSwitchNode>>& switches,
                     const std::vector<Ptr<Node>>& hosts);
/// Flow records of this rank's flows (nic set) onto rank 0's list.
void NiccMergeFlows(std::vector<NiccFlowRecord>* flows);
/// Counters, sample vectors and PFC events of every rank onto rank 0 (sums,
/// maxima; PFC events sorted by time, then node, port and class). `reorder`
/// / `reorderMax`: the reordering histogram and its maximum.
void NiccMergeCounters(NiccScenarioResult* r, std::vector<uint64_t>* reorder, uint32_t* reorderMax);

} // namespace ns3

#endif // NICC_SCENARIO_MPI_H
