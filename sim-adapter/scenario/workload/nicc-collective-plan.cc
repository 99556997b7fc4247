/*
 * nicc-collective-plan.cc — double binary tree and tree all-reduce steps
 * (see the header).
 */
#include "nicc-collective-plan.h"

#include <algorithm>

namespace ns3
{

std::vector<std::vector<int32_t>>
NiccDoubleBinaryTree(uint32_t n)
{
    // Tree 0 over positions 0..n-1 (root 0); see the header for the rule.
    auto parent0 = [n](uint32_t r) -> int32_t {
        if (r == 0)
        {
            return -1;
        }
        const uint32_t b = r & (~r + 1); // lowest set bit
        const uint64_t up = (r ^ b) | (static_cast<uint64_t>(b) << 1);
        return static_cast<int32_t>(up < n ? up : (r ^ b));
    };
    std::vector<std::vector<int32_t>> trees(2, std::vector<int32_t>(n, -1));
    for (uint32_t r = 0; r < n; ++r)
    {
        trees[0][r] = parent0(r);
        if (n % 2 == 0)
        {
            const int32_t p = parent0(n - 1 - r); // mirrored
            trees[1][r] = p < 0 ? -1 : static_cast<int32_t>(n - 1) - p;
        }
        else
        {
            const int32_t p = parent0((r + n - 1) % n); // shifted by one
            trees[1][r] = p < 0 ? -1 : static_cast<int32_t>((static_cast<uint32_t>(p) + 1) % n);
        }
    }
    return trees;
}

std::vector<std::vector<NiccTransfer>>
NiccTreeAllReducePlan(const std::vector<std::vector<uint32_t>>& groups, uint64_t bytes, uint32_t chunks)
{
    if (groups.empty() || bytes == 0 || chunks == 0)
    {
        return {};
    }
    const uint32_t n = static_cast<uint32_t>(groups[0].size());
    for (const auto& g : groups)
    {
        if (g.size() != n || n < 2)
        {
            return {};
        }
    }
    const auto trees = NiccDoubleBinaryTree(n);
    // Depth of every position in each tree (parents are found by walking up:
    // at most n steps, the trees have no cycles).
    std::vector<std::vector<uint32_t>> depth(2, std::vector<uint32_t>(n, 0));
    uint32_t maxDepth = 0;
    for (uint32_t t = 0; t < 2; ++t)
    {
        for (uint32_t r = 0; r < n; ++r)
        {
            uint32_t d = 0;
            for (int32_t p = trees[t][r]; p >= 0 && d <= n; p = trees[t][static_cast<uint32_t>(p)])
            {
                ++d;
            }
            depth[t][r] = d;
            maxDepth = std::max(maxDepth, d);
        }
    }
    const uint64_t chunk = std::max<uint64_t>(1, (bytes + 2ull * chunks - 1) / (2ull * chunks));
    const uint32_t phase = maxDepth + chunks - 1; // steps per phase
    std::vector<std::vector<NiccTransfer>> plan(2 * phase);
    for (uint32_t s = 0; s < phase; ++s)
    {
        for (const auto& g : groups)
        {
            for (uint32_t t = 0; t < 2; ++t)
            {
                for (uint32_t r = 0; r < n; ++r)
                {
                    const int32_t p = trees[t][r];
                    if (p < 0)
                    {
                        continue;
                    }
                    const uint32_t d = depth[t][r]; // >= 1 for a non-root
                    // Reduce: r sends chunk s - (maxDepth - d) up.
                    const int64_t up = static_cast<int64_t>(s) - (maxDepth - d);
                    if (up >= 0 && up < chunks)
                    {
                        plan[s].push_back({g[r], g[static_cast<uint32_t>(p)], chunk});
                    }
                    // Broadcast: the parent (depth d - 1) sends chunk s - (d - 1) down.
                    const int64_t down = static_cast<int64_t>(s) - (d - 1);
                    if (down >= 0 && down < chunks)
                    {
                        plan[phase + s].push_back({g[static_cast<uint32_t>(p)], g[r], chunk});
                    }
                }
            }
        }
    }
    return plan;
}

} // namespace ns3
