/*
 * nicc-collective-plan.h — the step structure of collectives that are not a
 * simple ring: NCCL's double binary tree and the tree all-reduce's steps
 * over it (no simulator types; NiccWorkload runs the steps on the fabric).
 *
 *   auto trees = NiccDoubleBinaryTree(8);          // parents, -1 = root
 *   auto plan = NiccTreeAllReducePlan({{0, 1, 2, 3}}, 4000, 1);
 *   // plan[step] = transfers {src, dst, bytes} that run in that step
 */
#ifndef NICC_COLLECTIVE_PLAN_H
#define NICC_COLLECTIVE_PLAN_H

#include <cstdint>
#include <vector>

namespace ns3
{

/// One transfer of a collective step: host indices, bytes.
struct NiccTransfer
{
    uint32_t src;
    uint32_t dst;
    uint64_t bytes;
};

/// The two trees of NCCL's double binary tree over ranks 0..n-1: [t][r] =
/// parent of rank r in tree t, -1 for the root. Tree 0: root 0; rank r > 0
/// with lowest set bit b has parent (r ^ b) | (b << 1), or r ^ b when that
/// is >= n (ranks with b = 1, the odd ones, are leaves). Tree 1: tree 0
/// mirrored (rank r as n - 1 - r) for even n, shifted by one (r as
/// (r - 1) mod n) for odd n, so that most leaves of one tree are inner
/// nodes of the other (NCCL src/graph/trees.cc, ncclGetDtree).
std::vector<std::vector<int32_t>> NiccDoubleBinaryTree(uint32_t n);

/// Steps of a double-binary-tree all-reduce of `bytes` per rank, run in
/// lockstep by every group (ranks = host indices, tree positions in group
/// order; all groups of one size n >= 2). Each tree carries half the bytes,
/// cut into `chunks` chunks of c = ceil(bytes / (2 chunks)); with D the
/// deeper tree's depth: reduce steps s = 0 .. D + chunks - 2, in which a
/// rank at depth d sends chunk s - (D - d) (if in range) to its parent;
/// then broadcast steps s = 0 .. D + chunks - 2, in which a rank at depth d
/// sends chunk s - d to each child. Both trees run in the same steps.
/// Empty on bad input.
std::vector<std::vector<NiccTransfer>> NiccTreeAllReducePlan(const std::vector<std::vector<uint32_t>>& groups,
                                                             uint64_t bytes,
                                                             uint32_t chunks);

} // namespace ns3

#endif // NICC_COLLECTIVE_PLAN_H
