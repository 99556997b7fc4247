/*
 * nicc-rail-collective-test-suite.cc — the server inside a rail fabric and
 * the collectives that use it ("nicc-rail-collective"):
 *   - NCCL's double binary tree: both trees' parents for 8 ranks (mirrored)
 *     and 5 ranks (shifted) against hand-derived values; for 8 ranks the
 *     leaves of one tree are inner nodes of the other;
 *   - the tree all-reduce's steps: 4 ranks, unpipelined (4 steps of
 *     bytes / 2) and in 2 chunks (6 steps: leaves first, then the levels);
 *   - ns-3, 2 servers x 2 rails, rings whose hops all change rail: without
 *     relays every flow crosses rail, spine, rail (3 switches); with
 *     allreduce_relay=pxn every transfer is one NVLink flow (0 fabric
 *     switches) and one flow on the receiver's rail (1 switch), and the
 *     spine links carry nothing; NVLink built but unused leaves every flow's
 *     FCT as without it; a sequential ring's hops inside a server go over
 *     NVLink only;
 *   - ns-3, the tree all-reduce on 4 hosts: step count, flows and bytes;
 *     a training job with tree all-reduces finishes its iterations;
 *   - bad keys refused naming the key (NVLink off a rail fabric, PXN
 *     without NVLink, NVLink with pfc=false or above 1600 Gb/s);
 *   - the shipped claim-multirail.toml (small gradients): 32 ranks in 8
 *     rings, every flow 1 fabric switch; rail-crossing rings with PXN: one
 *     NVLink leg and one 1-switch leg per transfer; no spine traffic.
 *
 *   ./nicc-sim-test-runner --suite=nicc-rail-collective --verbose
 */
#include "nicc-test-util.h"

#include "ns3/nicc-module.h"
#include "ns3/test.h"

#include <algorithm>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

class DoubleBinaryTreeTest : public TestCase
{
  public:
    DoubleBinaryTreeTest()
        : TestCase("double binary tree: parents of both trees for 8 (mirrored) and 5 (shifted) ranks")
    {
    }

  private:
    void DoRun() override
    {
        // Tree 0, 8 ranks: 0 - 4 - {2, 6}, 2 - {1, 3}, 6 - {5, 7}.
        auto t = NiccDoubleBinaryTree(8);
        NS_TEST_ASSERT_MSG_EQ(t.size(), 2u, "two trees");
        const std::vector<int32_t> t0 = {-1, 2, 4, 2, 0, 6, 4, 6};
        // Tree 1 = tree 0 over 7 - r: 7 - 3 - {1, 5}, 1 - {0, 2}, 5 - {4, 6}.
        const std::vector<int32_t> t1 = {1, 3, 1, 7, 5, 3, 5, -1};
        for (uint32_t r = 0; r < 8; ++r)
        {
            NS_TEST_EXPECT_MSG_EQ(t[0][r], t0[r], "tree 0 parent of " << r);
            NS_TEST_EXPECT_MSG_EQ(t[1][r], t1[r], "tree 1 parent of " << r);
        }
        // A leaf of one tree (no children) is an inner node of the other.
        for (uint32_t r = 0; r < 8; ++r)
        {
            const bool leaf0 = std::count(t[0].begin(), t[0].end(), static_cast<int32_t>(r)) == 0;
            const bool leaf1 = std::count(t[1].begin(), t[1].end(), static_cast<int32_t>(r)) == 0;
            NS_TEST_EXPECT_MSG_EQ(leaf0 && leaf1, false, "rank " << r << " a leaf in both trees");
        }
        // 5 ranks: tree 0 = 0 - 4 - 2 - {1, 3}; tree 1 shifted by one:
        // 1 - 0 - 3 - {2, 4}.
        t = NiccDoubleBinaryTree(5);
        const std::vector<int32_t> o0 = {-1, 2, 4, 2, 0};
        const std::vector<int32_t> o1 = {1, -1, 3, 0, 3};
        for (uint32_t r = 0; r < 5; ++r)
        {
            NS_TEST_EXPECT_MSG_EQ(t[0][r], o0[r], "odd tree 0 parent of " << r);
            NS_TEST_EXPECT_MSG_EQ(t[1][r], o1[r], "odd tree 1 parent of " << r);
        }
    }
};

/// Transfers of one step as "src>dst" strings, sorted.
std::vector<std::string>
Edges(const std::vector<NiccTransfer>& step)
{
    std::vector<std::string> out;
    for (const auto& t : step)
    {
        out.push_back(std::to_string(t.src) + ">" + std::to_string(t.dst));
    }
    std::sort(out.begin(), out.end());
    return out;
}

class TreePlanTest : public TestCase
{
  public:
    TreePlanTest()
        : TestCase("tree all-reduce plan: 4 ranks, 1 chunk (4 steps) and 2 chunks (6 steps), bytes per transfer")
    {
    }

  private:
    void DoRun() override
    {
        // Ranks are hosts 10..13 (tree positions 0..3). Tree 0: 0 - 2 -
        // {1, 3}; tree 1 (mirrored): 3 - 1 - {0, 2}; both of depth 2.
        const std::vector<std::vector<uint32_t>> g = {{10, 11, 12, 13}};
        auto plan = NiccTreeAllReducePlan(g, 4000, 1);
        NS_TEST_ASSERT_MSG_EQ(plan.size(), 4u, "2 x depth steps");
        const std::vector<std::vector<std::string>> want = {
            {"10>11", "11>12", "12>11", "13>12"}, // leaves up (depth 2)
            {"11>13", "12>10"},                   // depth 1 to the roots
            {"10>12", "13>11"},                   // roots down
            {"11>10", "11>12", "12>11", "12>13"}, // depth 1 to the leaves
        };
        for (size_t s = 0; s < plan.size(); ++s)
        {
            NS_TEST_EXPECT_MSG_EQ((Edges(plan[s]) == want[s]), true, "step " << s);
            for (const auto& t : plan[s])
            {
                NS_TEST_EXPECT_MSG_EQ(t.bytes, 2000u, "half the bytes per tree");
            }
        }
        // 2 chunks: (2 + 2 - 1) steps per phase; the levels overlap.
        plan = NiccTreeAllReducePlan(g, 4000, 2);
        NS_TEST_ASSERT_MSG_EQ(plan.size(), 6u, "2 x (depth + chunks - 1)");
        const std::vector<size_t> sizes = {4, 6, 2, 2, 6, 4};
        uint64_t total = 0;
        for (size_t s = 0; s < plan.size(); ++s)
        {
            NS_TEST_EXPECT_MSG_EQ(plan[s].size(), sizes[s], "transfers in step " << s);
            for (const auto& t : plan[s])
            {
                NS_TEST_EXPECT_MSG_EQ(t.bytes, 1000u, "a quarter: half per tree, in 2 chunks");
                total += t.bytes;
            }
        }
        // Each of 2 x 3 edges carries both chunks up and both down.
        NS_TEST_EXPECT_MSG_EQ(total, 24000u, "bytes moved");
        NS_TEST_EXPECT_MSG_EQ((Edges(plan[0]) == want[0]), true, "chunk 0 leaves first");
        NS_TEST_EXPECT_MSG_EQ(NiccTreeAllReducePlan({{1}}, 10, 1).empty(), true, "one rank");
        NS_TEST_EXPECT_MSG_EQ(NiccTreeAllReducePlan({{1, 2}, {3}}, 10, 1).empty(), true, "unequal groups");
    }
};

/// 2 servers x 2 rails at 100 Gb/s, one spine; an all-reduce of 400 kB.
std::vector<std::string>
RailKeys()
{
    return {"topology=rail", "servers=2", "rails=2", "spines=1", "rate_gbps=100", "poisson_load=0",
            "allreduce_bytes=400000", "allreduce_ring=rail-crossing", "stop_ms=5"};
}

uint64_t
SpineBytes(const NiccScenarioResult& r)
{
    uint64_t b = 0;
    for (const auto& l : r.links)
    {
        b += l.kind == "fabric" ? l.txBytes : 0;
    }
    return b;
}

class PxnHopsTest : public TestCase
{
  public:
    PxnHopsTest()
        : TestCase("ns-3: rail-crossing rings cross 3 switches; with PXN 1 (after NVLink), spines idle")
    {
    }

  private:
    void DoRun() override
    {
        NiccScenarioResult plain;
        NiccScenarioResult unused;
        NiccScenarioResult pxn;
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(NiccRunWith("leaf-spine", RailKeys(), &plain, &err), true, err);
        std::vector<std::string> keys = RailKeys();
        keys.push_back("nvlink_gbps=1600");
        NS_TEST_ASSERT_MSG_EQ(NiccRunWith("leaf-spine", keys, &unused, &err), true, err);
        keys.push_back("allreduce_relay=pxn");
        NS_TEST_ASSERT_MSG_EQ(NiccRunWith("leaf-spine", keys, &pxn, &err), true, err);

        // Rings {0, 3} and {1, 2}: every hop changes server and rail. Two
        // steps of 4 transfers.
        NS_TEST_ASSERT_MSG_EQ(plain.collectives.size(), 1u, "one all-reduce");
        const NiccCollectiveResult& a = plain.collectives[0];
        NS_TEST_EXPECT_MSG_EQ(a.Done(), true, "done");
        NS_TEST_EXPECT_MSG_EQ((a.flowsByFabricHops == std::vector<uint64_t>{0, 0, 0, 8}), true,
                              "8 flows over rail, spine, rail");
        NS_TEST_EXPECT_MSG_EQ(a.nvlinkFlows, 0u, "no NVLink");
        NS_TEST_EXPECT_MSG_GT(SpineBytes(plain), 0u, "the spine carries the ring");

        // NVLink built, not used: the same flows with the same FCTs.
        NS_TEST_ASSERT_MSG_EQ(unused.flows.size(), plain.flows.size(), "same flows");
        for (size_t i = 0; i < plain.flows.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(unused.flows[i].fctNs, plain.flows[i].fctNs, "flow " << i);
        }

        const NiccCollectiveResult& p = pxn.collectives[0];
        NS_TEST_EXPECT_MSG_EQ(p.Done(), true, "done with relays");
        NS_TEST_EXPECT_MSG_EQ(p.stepsPlanned, 2u, "the ring's steps");
        NS_TEST_EXPECT_MSG_EQ(p.relayedTransfers, 8u, "every transfer relayed");
        NS_TEST_EXPECT_MSG_EQ(p.nvlinkFlows, 8u, "one NVLink leg each");
        NS_TEST_EXPECT_MSG_EQ((p.flowsByFabricHops == std::vector<uint64_t>{8, 8}), true,
                              "8 NVLink legs (0 fabric switches), 8 rail legs (1)");
        NS_TEST_EXPECT_MSG_EQ(pxn.flows.size(), 16u, "two flows per transfer");
        NS_TEST_EXPECT_MSG_EQ(SpineBytes(pxn), 0u, "nothing crosses the spine");
        uint64_t nvlinkBytes = 0;
        for (const auto& l : pxn.links)
        {
            nvlinkBytes += l.kind == "nvlink" ? l.txBytes : 0;
        }
        NS_TEST_EXPECT_MSG_GT(nvlinkBytes, 8u * 100000u, "the NVLink legs carry the chunks");
        for (const auto& f : pxn.flows)
        {
            NS_TEST_EXPECT_MSG_EQ(f.ackedBytes, 100000u, "chunk = 400000 / (2 rings x 2 ranks)");
        }
        // Store and forward: flows 0-3 are step 0's NVLink legs, 4-7 its
        // rail legs, each started when an NVLink leg ended.
        std::vector<int64_t> legEnds;
        for (uint32_t i = 0; i < 4; ++i)
        {
            legEnds.push_back(pxn.flows[i].startNs + pxn.flows[i].fctNs);
        }
        for (uint32_t i = 4; i < 8; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ((std::count(legEnds.begin(), legEnds.end(), pxn.flows[i].startNs) > 0), true,
                                  "rail leg " << i << " starts as an NVLink leg ends");
        }

        // A sequential ring over 0, 1, 2, 3: hops 0>1 and 2>3 stay inside
        // a server (NVLink only), 1>2 and 3>0 cross servers (2>... relay).
        keys.push_back("allreduce_ring=sequential");
        NiccScenarioResult seq;
        NS_TEST_ASSERT_MSG_EQ(NiccRunWith("leaf-spine", keys, &seq, &err), true, err);
        const NiccCollectiveResult& q = seq.collectives[0];
        NS_TEST_EXPECT_MSG_EQ(q.stepsPlanned, 6u, "2 (4 - 1)");
        // Per step: 2 NVLink-only, 1>2 (rail 1 to rail 0: relayed), 3>0
        // (rail 1 to rail 0: relayed): 4 NVLink flows, 2 rail legs.
        NS_TEST_EXPECT_MSG_EQ(q.nvlinkFlows, 6u * 4u, "NVLink flows");
        NS_TEST_EXPECT_MSG_EQ(q.relayedTransfers, 6u * 2u, "relayed");
        NS_TEST_EXPECT_MSG_EQ((q.flowsByFabricHops == std::vector<uint64_t>{24, 12}), true, "hops");
    }
};

class TreeSimTest : public TestCase
{
  public:
    TreeSimTest()
        : TestCase("ns-3: tree all-reduce on 4 hosts: steps, flows, bytes; a training job with trees")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::string> base = {"leaves=2", "spines=1", "hosts_per_leaf=2", "poisson_load=0",
                                               "allreduce_ring=sequential", "allreduce_bytes=40000",
                                               "allreduce_algo=tree", "stop_ms=5"};
        NiccScenarioResult r;
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(NiccRunWith("leaf-spine", base, &r, &err), true, err);
        NS_TEST_ASSERT_MSG_EQ(r.collectives.size(), 1u, "one all-reduce");
        NS_TEST_EXPECT_MSG_EQ(r.collectives[0].Done(), true, "done");
        NS_TEST_EXPECT_MSG_EQ(r.collectives[0].stepsPlanned, 4u, "2 x depth 2");
        NS_TEST_EXPECT_MSG_EQ(r.flows.size(), 12u, "2 trees x 3 edges, up and down");
        for (const auto& f : r.flows)
        {
            NS_TEST_EXPECT_MSG_EQ(f.sizeBytes, 20000u, "half per tree");
        }
        std::vector<std::string> keys = base;
        keys.push_back("allreduce_chunks=2");
        NS_TEST_ASSERT_MSG_EQ(NiccRunWith("leaf-spine", keys, &r, &err), true, err);
        NS_TEST_EXPECT_MSG_EQ(r.collectives[0].stepsPlanned, 6u, "pipelined in 2 chunks");
        NS_TEST_EXPECT_MSG_EQ(r.flows.size(), 24u, "every edge twice per phase");
        NS_TEST_EXPECT_MSG_EQ(r.collectives[0].steps.size(), 6u, "all steps ran");

        keys = base;
        for (const char* k : {"allreduce_bytes=0", "training=custom", "training_iterations=2",
                              "training_forward_us=10", "training_backward_us=20", "training_optimizer_us=5",
                              "training_grad_bytes=400000", "training_first_bucket_mb=0.1",
                              "training_bucket_mb=0.2"})
        {
            keys.push_back(k);
        }
        NS_TEST_ASSERT_MSG_EQ(NiccRunWith("leaf-spine", keys, &r, &err), true, err);
        NS_TEST_EXPECT_MSG_EQ(r.training.summary.iterationsDone, 2u, "both iterations with tree all-reduces");
        NS_TEST_EXPECT_MSG_EQ(r.training.algo, "tree", "reported");
        NS_TEST_EXPECT_MSG_EQ(r.collectives.size(), 6u, "3 buckets x 2 iterations");
        for (const auto& c : r.collectives)
        {
            NS_TEST_EXPECT_MSG_EQ(c.stepsPlanned, 4u, c.name);
        }
    }
};

class BadNvlinkKeysTest : public TestCase
{
  public:
    BadNvlinkKeysTest()
        : TestCase("NVLink and PXN keys: off a rail fabric, PXN without NVLink, lossy fabric refused")
    {
    }

  private:
    void DoRun() override
    {
        NiccScenarioResult r;
        std::string err;
        NS_TEST_EXPECT_MSG_EQ(NiccRunWith("leaf-spine", {"nvlink_gbps=900"}, &r, &err), false, "leaf-spine");
        NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "nvlink_gbps"), true, err);
        std::vector<std::string> keys = RailKeys();
        keys.push_back("allreduce_relay=pxn");
        NS_TEST_EXPECT_MSG_EQ(NiccRunWith("leaf-spine", keys, &r, &err), false, "no NVLink");
        NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "allreduce_relay"), true, err);
        keys = RailKeys();
        keys.push_back("nvlink_gbps=900");
        keys.push_back("pfc=false");
        NS_TEST_EXPECT_MSG_EQ(NiccRunWith("leaf-spine", keys, &r, &err), false, "lossy");
        NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "nvlink_gbps"), true, err);
        NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "pfc"), true, err);
        keys = RailKeys();
        keys.push_back("nvlink_gbps=3600");
        NS_TEST_EXPECT_MSG_EQ(NiccRunWith("leaf-spine", keys, &r, &err), false, "above the NIC line-rate limit");
        NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "nvlink_gbps"), true, err);
    }
};

class ShippedMultirailTest : public TestCase
{
  public:
    ShippedMultirailTest()
        : TestCase("claim-multirail.toml: 32 ranks in 8 rail rings, 1 switch per flow; PXN for rail-crossing rings")
    {
    }

  private:
    void DoRun() override
    {
        for (const bool crossing : {false, true})
        {
            NiccScenario s;
            std::string err;
            NS_TEST_ASSERT_MSG_EQ(NiccLoadScenarioFile(NiccShipped("claim-multirail.toml"), &s, &err), true, err);
            NS_TEST_EXPECT_MSG_EQ(s.Get("topology"), "rail", "rail fabric");
            // Small gradients keep it short: 2 buckets of 1 MiB + 0.9 MiB.
            NS_TEST_ASSERT_MSG_EQ(s.Set("training_iterations", "1", &err) &&
                                      s.Set("training_grad_bytes", "2000000", &err) &&
                                      (!crossing || (s.Set("allreduce_ring", "rail-crossing", &err) &&
                                                     s.Set("allreduce_relay", "pxn", &err))),
                                  true, err);
            NiccScenarioResult r;
            NS_TEST_ASSERT_MSG_EQ(s.Run(&r, &err), true, err);
            NS_TEST_EXPECT_MSG_EQ(r.training.ranks, 32u, "4 servers x 8 NICs");
            NS_TEST_EXPECT_MSG_EQ(r.training.rings, 8u, "a ring per rail position");
            NS_TEST_ASSERT_MSG_EQ(r.collectives.size(), 2u, "two buckets");
            for (const auto& c : r.collectives)
            {
                // 6 steps x 32 transfers; rail-crossing hops all change rail.
                const std::vector<uint64_t> want =
                    crossing ? std::vector<uint64_t>{192, 192} : std::vector<uint64_t>{0, 192};
                NS_TEST_EXPECT_MSG_EQ((c.flowsByFabricHops == want), true, c.name);
                NS_TEST_EXPECT_MSG_EQ(c.relayedTransfers, crossing ? 192u : 0u, c.name);
            }
            NS_TEST_EXPECT_MSG_EQ(SpineBytes(r), 0u, "no flow crosses a spine");
        }
    }
};

class NiccRailCollectiveTestSuite : public TestSuite
{
  public:
    NiccRailCollectiveTestSuite()
        : TestSuite("nicc-rail-collective", UNIT)
    {
        AddTestCase(new DoubleBinaryTreeTest, TestCase::QUICK);
        AddTestCase(new TreePlanTest, TestCase::QUICK);
        AddTestCase(new PxnHopsTest, TestCase::QUICK);
        AddTestCase(new TreeSimTest, TestCase::QUICK);
        AddTestCase(new BadNvlinkKeysTest, TestCase::QUICK);
        AddTestCase(new ShippedMultirailTest, TestCase::QUICK);
    }
};

NiccRailCollectiveTestSuite g_niccRailCollectiveTestSuite;

} // namespace
