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
#include <cstring>
#include <string>
#include <vector>

namespace ns3
{

/// A fixed-size record as bytes, for NiccMpi::GatherToRoot.
template <typename T>
void
NiccMpiAppend(std::vector<uint8_t>* out, const T& v)
{
    const auto* b = reinterpret_cast<const uint8_t*>(&v);
    out->insert(out->end(), b, b + sizeof(T));
}

/// The record at p (NiccMpiAppend's bytes).
template <typename T>
T
NiccMpiTake(const uint8_t* p)
{
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
}

/// SystemIds of a fat-tree: by pod (byPod) or by ToR, in contiguous blocks;
/// hosts with their ToR, cores in blocks.
void NiccPartitionFatTree(const NiccFatTreeTopology& ft, const NiccFatTreeParams& p, uint32_t ranks, bool byPod);
/// SystemIds of a leaf-spine: leaves (with their hosts) and spines in blocks.
void NiccPartitionLeafSpine(const NiccLeafSpineTopology& ls, uint32_t ranks);
/// SystemIds of any other fabric (rail, file): the edge switches (those
/// `endpoints`' links lead to, in that order) in contiguous blocks, each
/// endpoint with its edge switch, every other switch in blocks, then each
/// of `followers` (the rail fabric's GPUs) with the switch its link leads
/// to (their NVSwitch). False when there are fewer edge switches than ranks.
bool NiccPartitionByEdge(const std::vector<Ptr<NetDevice>>& endpoints,
                         const std::vector<Ptr<NetDevice>>& followers,
                         const std::vector<Ptr<NiccSwitchNode>>& switches,
                         uint32_t ranks,
                         std::string* error);
/// After the SystemIds: every link learns which of its ends are remote;
/// *crossing = the links that cross ranks. False when one of them is
/// shorter than 2 ns (no time window).
bool NiccPartitionLinks(const NiccFabricHelper& fabric, uint32_t* crossing, std::string* error);

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
