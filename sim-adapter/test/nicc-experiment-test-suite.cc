/*
 * nicc-experiment-test-suite.cc — tests of the fabric experiment scenarios
 * ("nicc-experiment"):
 *   - permutation on a leaf-spine with as many spines as hosts per leaf
 *     (2 leaves x 8 spines x 8 hosts, 100 Gb/s everywhere, cc=none, PFC on),
 *     replications RngRun 1-5 (one random permutation each): with ECMP the
 *     mean throughput is within 0.10 of the 1 - 1/e collision bound (0.632);
 *     OPS spraying (256 EVs per QP) exceeds 0.90 of ideal on average and
 *     0.85 in every run, REPS 0.95 in every run (measured, runs 1-10: ECMP
 *     0.44-0.75, mean 0.62; OPS 0.883-0.945, mean 0.914; REPS >= 0.996);
 *   - a lossy sprayed permutation (PFC off, small buffer): selective repeat
 *     with the reorder-tolerant NACK threshold still delivers every byte;
 *   - FB Hadoop 30% + incast on a small 3-tier fat-tree: HPCC's p95 slowdown
 *     of flows under 120 KB below DCQCN's, its p99 queue under 0.6 of
 *     DCQCN's (the HPCC paper's comparison, at 32 hosts; ~10 s);
 *   - multi-rail (8 servers x 4 NICs): REPS spraying and rail-local rings
 *     each cut the all-reduce time against rail-crossing rings on ECMP;
 *   - all-to-all: n - 1 pairwise synchronized steps, every ordered pair once;
 *   - the CDF loader: FB Hadoop's mean from the file, interpolation;
 *   - randomness: the `run` key or the RngRun global value (--RngRun,
 *     NS_GLOBAL_VALUE) picks the replication, `seed` the seed; repeatable;
 *   - topologies: same-rail traffic (server a NIC i -> server b NIC i) on the
 *     rail-optimized fabric crosses 1 switch (1 INT record), where the same
 *     traffic between servers on different leaves of a leaf-spine crosses 3;
 *     the HPCC fat-tree preset has the published shape (320 hosts, 20 ToR,
 *     20 agg, 16 core, 32 MB buffers), 1:1 at every tier, and cross-pod
 *     traffic crosses 5 switches with ECMP width 4 at ToR and aggregation.
 *   - sprayed HPCC (cc=hpcc-spray, REPS over 4 EVs, every ACK's INT to the
 *     engine, the path signal to REPS) on the permutation's leaf-spine, seed
 *     1, runs 1-3, against HPCC on ECMP and HPCC + REPS hearing one EV
 *     (int_single_path): throughput 0.717 / 0.674 / 0.662, asserted > 0.62
 *     in every run and, over the runs, >= 0.95 of single-path HPCC + REPS's
 *     (0.602 / 0.670 / 0.627; measured 1.08); its p99 switch queue four to
 *     five packets (4232-5290 B), asserted <= 8000 B in every run, <= 6x
 *     ECMP HPCC's (1058-1066 B; measured 4.3x over the runs) and < 0.25 of
 *     single-path HPCC + REPS's (25-56 KB; measured 0.11). The aim of 0.9
 *     of ideal is not reached (docs/hpcc.md, "The permutation test").
 * Throughput = permutation goodput from warmup_us to the end over the ideal
 * goodput (line rate less header and ACK bytes). ~13 s in total.
 *
 *   ./nicc-sim-test-runner --suite=nicc-experiment --verbose
 */
#include "ns3/boolean.h"
#include "ns3/nicc-module.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/test.h"

#include "nicc-test-util.h"

#include <cmath>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

double
PermutationThroughput(const std::string& spray, uint32_t run, std::string* err)
{
    NiccScenarioResult r;
    const bool ok = NiccRunWith("leaf-spine",
                            {"leaves=2", "spines=8", "hosts_per_leaf=8", "poisson_load=0",
                             "permutation_bytes=100000000", "stop_ms=0.4", "warmup_us=100", "cc=none",
                             "spray.ev_bits=8", "spray=" + spray, "run=" + std::to_string(run)},
                            &r,
                            err);
    return ok ? r.permutationThroughput : -1.0;
}

class PermutationEcmpVsSprayTest : public TestCase
{
  public:
    PermutationEcmpVsSprayTest()
        : TestCase("permutation, spines = hosts per leaf: ECMP near 1 - 1 over e, OPS and REPS >= 90%, "
                   "RngRun 1-5")
    {
    }

  private:
    void DoRun() override
    {
        std::string err;
        const uint32_t runs = 5;
        double ecmpSum = 0;
        double opsSum = 0;
        double repsSum = 0;
        for (uint32_t run = 1; run <= runs; ++run)
        {
            const double ecmp = PermutationThroughput("ecmp", run, &err);
            const double ops = PermutationThroughput("ops", run, &err);
            const double reps = PermutationThroughput("reps", run, &err);
            NS_TEST_ASSERT_MSG_EQ(err.empty(), true, err);
            NS_TEST_EXPECT_MSG_GT(ops, 0.85, "OPS throughput, run " << run);
            NS_TEST_EXPECT_MSG_GT(reps, 0.95, "REPS throughput, run " << run);
            NS_TEST_EXPECT_MSG_LT(reps, 1.01, "REPS cannot beat the line rate, run " << run);
            ecmpSum += ecmp;
            opsSum += ops;
            repsSum += reps;
        }
        const double bound = 1.0 - std::exp(-1.0);
        NS_TEST_EXPECT_MSG_EQ_TOL(ecmpSum / runs, bound, 0.10, "ECMP mean throughput vs 1 - 1/e");
        NS_TEST_EXPECT_MSG_GT(opsSum / runs, 0.90, "OPS mean throughput");
        NS_TEST_EXPECT_MSG_GT(repsSum / runs, ecmpSum / runs + 0.20, "REPS mean vs ECMP mean");
    }
};

/// Sprayed HPCC against single-path HPCC on the permutation fabric (see the
/// banner for the measured figures).
class SprayedHpccPermutationTest : public TestCase
{
  public:
    SprayedHpccPermutationTest()
        : TestCase("permutation, REPS over 4 EVs: hpcc-spray's throughput >= 0.95 of single-path HPCC + "
                   "REPS's with a p99 queue of a few packets (<= 6x ECMP HPCC's, < 0.25 of single-path "
                   "HPCC + REPS's); seed 1, RngRun 1-3")
    {
    }

  private:
    struct Figures
    {
        double throughput;
        double q99;
        uint64_t drops;
    };

    static Figures Run(const std::string& cc, const std::string& spray, uint32_t run, std::string* err)
    {
        NiccScenarioResult r;
        const bool ok = NiccRunWith("leaf-spine",
                                {"leaves=2", "spines=8", "hosts_per_leaf=8", "poisson_load=0",
                                 "permutation_bytes=100000000", "stop_ms=0.4", "warmup_us=100", "cc=" + cc,
                                 "spray=" + spray, "spray.ev_bits=2", "seed=1", "run=" + std::to_string(run)},
                                &r,
                                err);
        return ok ? Figures{r.permutationThroughput, static_cast<double>(r.QueuePercentile(0.99)), r.drops}
                  : Figures{-1.0, -1.0, 0};
    }

    void DoRun() override
    {
        std::string err;
        const uint32_t runs = 3;
        double ecmpQ = 0;
        double singleQ = 0;
        double sprayQ = 0;
        double singleT = 0;
        double sprayT = 0;
        for (uint32_t run = 1; run <= runs; ++run)
        {
            const Figures ecmp = Run("hpcc", "ecmp", run, &err);
            const Figures single = Run("hpcc", "reps", run, &err); // int_single_path: the scenario's default
            const Figures spray = Run("hpcc-spray", "reps", run, &err);
            NS_TEST_ASSERT_MSG_EQ(err.empty(), true, err);
            NS_TEST_EXPECT_MSG_GT(ecmp.q99, 0.0, "ECMP HPCC: some queue, run " << run);
            // Measured 0.717 / 0.674 / 0.662 (0.45-0.48 without the path signal).
            NS_TEST_EXPECT_MSG_GT(spray.throughput, 0.62, "hpcc-spray throughput floor, run " << run);
            NS_TEST_EXPECT_MSG_LT(spray.throughput, 1.01, "no faster than the line rate, run " << run);
            NS_TEST_EXPECT_MSG_EQ(spray.drops, 0u, "lossless, run " << run);
            // A few packets: measured 5290 / 4232 / 4232 B.
            NS_TEST_EXPECT_MSG_LT_OR_EQ(spray.q99, 8000.0, "hpcc-spray p99 queue, run " << run);
            ecmpQ += ecmp.q99;
            singleQ += single.q99;
            sprayQ += spray.q99;
            singleT += single.throughput;
            sprayT += spray.throughput;
        }
        // The second aim: within 5% of single-path HPCC + REPS
        // (measured 1.08 of it over the runs).
        NS_TEST_EXPECT_MSG_GT_OR_EQ(sprayT, 0.95 * singleT, "hpcc-spray throughput vs single-path HPCC + REPS");
        // Four to five packets against ECMP HPCC's one: measured 4.3x over
        // the runs (4.96, 3.97, 4.00).
        NS_TEST_EXPECT_MSG_LT_OR_EQ(sprayQ, 6.0 * ecmpQ, "hpcc-spray p99 queue vs ECMP HPCC's, mean of the runs");
        // Single-path HPCC + REPS hears one of its four paths: its queue
        // depends on where the others land (3-56 KB over permutations seen),
        // so the mean is compared (measured 0.11).
        NS_TEST_EXPECT_MSG_LT(sprayQ, 0.25 * singleQ, "hpcc-spray p99 queue vs single-path HPCC + REPS, mean");
    }
};

/// Selective repeat with the reorder-tolerant NACK rule still recovers real
/// loss: PFC off and a 100 KB buffer drop packets of a sprayed permutation;
/// every flow completes and every byte arrives.
class SprayLossRecoveryTest : public TestCase
{
  public:
    SprayLossRecoveryTest()
        : TestCase("lossy fabric, sprayed permutation: selective repeat (NACK threshold 255) delivers all")
    {
    }

  private:
    void DoRun() override
    {
        NiccScenarioResult r;
        std::string err;
        const bool ok = NiccRunWith("leaf-spine",
                                {"leaves=2", "spines=2", "hosts_per_leaf=4", "poisson_load=0",
                                 "permutation_bytes=2000000", "stop_ms=20", "cc=none", "spray=reps",
                                 "spray.ev_bits=4", "pfc=false", "buffer_bytes=100000", "rto_us=200"},
                                &r,
                                &err);
        NS_TEST_ASSERT_MSG_EQ(ok, true, err);
        NS_TEST_EXPECT_MSG_GT(r.drops, 0u, "the buffer is small enough to drop");
        NS_TEST_EXPECT_MSG_GT(r.retxPackets, 0u, "drops were resent");
        NS_TEST_EXPECT_MSG_EQ(r.Completed(), 8u, "every flow completes");
        NS_TEST_EXPECT_MSG_EQ(r.bytesDelivered, 8u * 2000000u, "every byte delivered in order");
    }
};

/// FB Hadoop at 30% load plus incast bursts on a small 3-tier fat-tree
/// (2 pods x 2 ToR x 2 agg, 2 cores, 8 hosts per ToR: 32 hosts at 100 Gb/s,
/// 400 Gb/s fabric, 2 ms): HPCC's p95 slowdown of flows under 120 KB is
/// below DCQCN's (mean over seeds 1-3) and its p99 switch queue is under
/// 0.6 of DCQCN's in every seed (measured 0.43-0.47; p95 3.7-4.0 vs 5.4-5.9).
class FatTreeHpccVsDcqcnTest : public TestCase
{
  public:
    FatTreeHpccVsDcqcnTest()
        : TestCase("fat-tree, FB Hadoop 30% + incast: HPCC small-flow p95 and p99 queue below DCQCN")
    {
    }

  private:
    void DoRun() override
    {
        double p95[2] = {0, 0};
        for (uint32_t seed = 1; seed <= 3; ++seed)
        {
            uint64_t q99[2] = {0, 0};
            for (int k = 0; k < 2; ++k)
            {
                NiccScenarioResult r;
                std::string err;
                const bool ok = NiccRunWith("leaf-spine",
                                        {"topology=fat-tree", "pods=2", "tors_per_pod=2", "aggs_per_pod=2",
                                         "cores=2", "hosts_per_leaf=8", "cdf=fbhdp", "poisson_load=0.3",
                                         "incast_load=0.03", "stop_ms=2", k == 0 ? "cc=dcqcn" : "cc=hpcc",
                                         "seed=" + std::to_string(seed)},
                                        &r,
                                        &err);
                NS_TEST_ASSERT_MSG_EQ(ok, true, err);
                size_t n = 0;
                p95[k] += r.SlowdownPercentileOf(0.95, 0, 120000, -1, &n) / 3.0;
                NS_TEST_EXPECT_MSG_GT(n, 1500u, "small flows completed, seed " << seed);
                NS_TEST_EXPECT_MSG_EQ(r.drops, 0u, "lossless");
                q99[k] = r.QueuePercentile(0.99);
            }
            NS_TEST_EXPECT_MSG_GT(q99[0], 0u, "DCQCN queues build, seed " << seed);
            NS_TEST_EXPECT_MSG_LT(static_cast<double>(q99[1]), 0.6 * static_cast<double>(q99[0]),
                                  "HPCC p99 queue vs DCQCN, seed " << seed);
        }
        NS_TEST_EXPECT_MSG_LT(p95[1], p95[0], "HPCC p95 slowdown (< 120 KB) vs DCQCN, mean of 3 seeds");
    }
};

/// Multi-rail: 8 servers x 4 NICs, rails joined by 2 spines at 2:1, an
/// 8 MB ring all-reduce as one ring per rail. Rings that change rail at
/// every hop cross the spines: with ECMP they collide (measured 1087 us),
/// REPS spraying spreads them (728 us); rail-local rings stay on their
/// rail switch (354 us). Spraying and rail-local placement each cut the
/// collective time against rail-crossing ECMP.
class MultiRailCollectiveTest : public TestCase
{
  public:
    MultiRailCollectiveTest()
        : TestCase("multi-rail all-reduce: spraying and rail-local rings cut completion time vs ECMP")
    {
    }

  private:
    double Total(const std::string& ring, const std::string& spray)
    {
        NiccScenarioResult r;
        std::string err;
        const bool ok = NiccRunWith("leaf-spine",
                                {"topology=rail", "servers=8", "rails=4", "spines=2", "oversubscription=2",
                                 "poisson_load=0", "allreduce_bytes=8000000", "allreduce_ring=" + ring,
                                 "spray=" + spray, "spray.ev_bits=8", "stop_ms=5", "cc=dcqcn"},
                                &r,
                                &err);
        NS_TEST_EXPECT_MSG_EQ(ok, true, err);
        if (!ok || r.collectives.size() != 1)
        {
            return -1;
        }
        NS_TEST_EXPECT_MSG_EQ(r.collectives[0].stepsPlanned, 14u, "2 (8 - 1) steps");
        NS_TEST_EXPECT_MSG_EQ(r.collectives[0].Done(), true, "all-reduce completes");
        NS_TEST_EXPECT_MSG_EQ(r.Completed(), 14u * 32u, "every step: one flow per NIC");
        return static_cast<double>(r.collectives[0].TotalNs()) / 1e3;
    }

    void DoRun() override
    {
        const double ecmp = Total("rail-crossing", "ecmp");
        const double sprayed = Total("rail-crossing", "reps");
        const double local = Total("rail-local", "reps");
        NS_TEST_ASSERT_MSG_GT(ecmp, 0, "baseline ran");
        NS_TEST_EXPECT_MSG_LT(sprayed, 0.8 * ecmp, "REPS vs ECMP, rail-crossing rings");
        NS_TEST_EXPECT_MSG_LT(local, 0.5 * ecmp, "rail-local + REPS vs rail-crossing ECMP");
        NS_TEST_EXPECT_MSG_LT(local, sprayed, "rail-local beats crossing even when sprayed");
    }
};

/// All-to-all by pairwise exchange on 2 leaves x 4 hosts: 7 steps, each with
/// 8 flows of bytes / 8 from rank r to rank r + k; every byte arrives.
class AllToAllTest : public TestCase
{
  public:
    AllToAllTest()
        : TestCase("all-to-all: n - 1 pairwise steps of bytes over n, every rank to every other once")
    {
    }

  private:
    void DoRun() override
    {
        NiccScenarioResult r;
        std::string err;
        const bool ok = NiccRunWith("leaf-spine",
                                {"leaves=2", "spines=2", "hosts_per_leaf=4", "poisson_load=0",
                                 "alltoall_bytes=800000", "stop_ms=5"},
                                &r,
                                &err);
        NS_TEST_ASSERT_MSG_EQ(ok, true, err);
        NS_TEST_ASSERT_MSG_EQ(r.collectives.size(), 1u, "one collective");
        const NiccCollectiveResult& c = r.collectives[0];
        NS_TEST_EXPECT_MSG_EQ(c.name, "alltoall", "name");
        NS_TEST_EXPECT_MSG_EQ(c.stepsPlanned, 7u, "n - 1 steps");
        NS_TEST_EXPECT_MSG_EQ(c.Done(), true, "done");
        NS_TEST_ASSERT_MSG_EQ(r.flows.size(), 56u, "8 x 7 flows");
        std::vector<std::vector<int>> pairs(64, std::vector<int>(64, 0));
        for (const auto& f : r.flows)
        {
            NS_TEST_EXPECT_MSG_EQ(f.sizeBytes, 100000u, "bytes / n per flow");
            NS_TEST_EXPECT_MSG_GT(f.fctNs, 0, "flow completed");
            pairs[f.src % 64][f.dst % 64] += 1;
        }
        int distinct = 0;
        for (const auto& row : pairs)
        {
            for (int v : row)
            {
                NS_TEST_EXPECT_MSG_LT(v, 2, "each ordered pair once");
                distinct += v;
            }
        }
        NS_TEST_EXPECT_MSG_EQ(distinct, 56, "56 ordered pairs");
        for (size_t k = 1; k < c.steps.size(); ++k)
        {
            NS_TEST_EXPECT_MSG_EQ(c.steps[k].startNs, c.steps[k - 1].endNs, "steps synchronized");
        }
        NS_TEST_EXPECT_MSG_EQ(r.bytesDelivered, 56u * 100000u, "every byte delivered");
    }
};

/// Randomness as in any ns-3 model: the workload draws from ns-3 streams,
/// so the `run` key, or with run = 0 the RngRun global value (--RngRun,
/// NS_GLOBAL_VALUE), selects the replication, and `seed` the seed; a run is
/// repeatable, and a scenario leaves RngRun as it found it.
class RngRunTest : public TestCase
{
  public:
    RngRunTest()
        : TestCase("randomness: the run and seed keys and the RngRun global value pick the permutation")
    {
    }

  private:
    /// Destination node of each host's permutation flow, and the run used.
    std::vector<uint32_t> Permutation(const std::vector<std::string>& extra, uint64_t* run)
    {
        std::vector<std::string> sets = {"leaves=2", "spines=2", "hosts_per_leaf=4", "poisson_load=0",
                                         "permutation_bytes=10000", "stop_ms=1"};
        sets.insert(sets.end(), extra.begin(), extra.end());
        NiccScenarioResult r;
        std::string err;
        NS_TEST_EXPECT_MSG_EQ(NiccRunWith("leaf-spine", sets, &r, &err), true, err);
        std::vector<uint32_t> dst;
        for (const auto& f : r.flows)
        {
            dst.push_back(f.dst);
        }
        *run = r.rngRun;
        return dst;
    }

    void DoRun() override
    {
        uint64_t run = 0;
        const auto a = Permutation({"run=1"}, &run);
        NS_TEST_ASSERT_MSG_EQ(a.size(), 8u, "one flow per host");
        NS_TEST_EXPECT_MSG_EQ(run, 1u, "run key");
        NS_TEST_EXPECT_MSG_EQ((Permutation({"run=1"}, &run) == a), true, "repeatable");
        const auto b = Permutation({"run=2"}, &run);
        NS_TEST_EXPECT_MSG_EQ((b == a), false, "run 2 draws another permutation");
        NS_TEST_EXPECT_MSG_EQ((Permutation({"seed=2", "run=1"}, &run) == a), false, "seed 2 too");

        const uint64_t before = RngSeedManager::GetRun();
        RngSeedManager::SetRun(2); // what --RngRun=2 / NS_GLOBAL_VALUE="RngRun=2" do
        NS_TEST_EXPECT_MSG_EQ((Permutation({}, &run) == b), true, "run = 0: the global RngRun");
        NS_TEST_EXPECT_MSG_EQ(run, 2u, "reported run");
        Permutation({"run=5"}, &run);
        NS_TEST_EXPECT_MSG_EQ(RngSeedManager::GetRun(), 2u, "a run key leaves the global value");
        RngSeedManager::SetRun(before);
    }
};

class CdfTest : public TestCase
{
  public:
    CdfTest()
        : TestCase("flow-size CDF: mean from the file, linear interpolation")
    {
    }

  private:
    void DoRun() override
    {
        NiccFlowSizeCdf cdf;
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(cdf.Load(NiccScenario::DataDir() + "/FbHdp_distribution.txt", &err),
                              true,
                              err);
        // Closed form of the piecewise-linear mean of the shipped file.
        const double pts[][2] = {{0, 0}, {100, 1}, {200, 2}, {300, 5}, {350, 15}, {400, 20},
                                 {500, 30}, {600, 40}, {700, 50}, {1000, 60}, {2000, 67},
                                 {7000, 70}, {30000, 72}, {50000, 82}, {80000, 87},
                                 {120000, 90}, {300000, 95}, {1000000, 97.5}, {2000000, 99},
                                 {10000000, 100}};
        double mean = 0;
        for (size_t i = 1; i < sizeof(pts) / sizeof(pts[0]); ++i)
        {
            mean += (pts[i][1] - pts[i - 1][1]) / 100.0 * (pts[i][0] + pts[i - 1][0]) / 2.0;
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(cdf.MeanBytes(), mean, 1e-6, "mean");
        NS_TEST_EXPECT_MSG_EQ(cdf.Sample(99.5), 6000000, "interpolation between 99 and 100");
        NS_TEST_EXPECT_MSG_EQ(cdf.Sample(0.5), 50, "first segment");
        NiccFlowSizeCdf bad;
        NS_TEST_EXPECT_MSG_EQ(bad.Load("/nonexistent/cdf.txt", &err), false, "missing file");
    }
};

/// Sends 64 KB from `src` to `dst` with INT on; returns the INT hop count of
/// the last DATA packet received (-1 if none arrived or bytes were lost).
int
IntHopsOf(NiccFabricHelper& fabric, Ptr<Node> src, Ptr<Node> dst)
{
    Ptr<NiccTestEndpoint> tx = fabric.InstallTestEndpoint(src);
    Ptr<NiccTestEndpoint> rx = fabric.InstallTestEndpoint(dst);
    tx->AddFlow(dst->GetId(), 64000, DataRate(0), 0xC001, MicroSeconds(1));
    Simulator::Run();
    const bool ok = rx->GetRxBytes() == 64000 && rx->HasIntStack();
    const int hops = ok ? int(rx->GetLastIntStack().hop_count) : -1;
    Simulator::Destroy();
    return hops;
}

class RailVsLeafSpineHopsTest : public TestCase
{
  public:
    RailVsLeafSpineHopsTest()
        : TestCase("same-rail traffic: 1 switch hop on the rail fabric, 3 on a leaf-spine")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t rail = 3;
        {
            NiccFabricHelper fabric;
            fabric.SetEndpointAttribute("IntEnabled", BooleanValue(true));
            NiccRailParams p; // 8 rails
            p.hosts = 2;
            p.spines = 2; // rails joined: cross-rail paths exist, same-rail stays local
            NiccRailTopology t = fabric.BuildRail(p);
            NS_TEST_ASSERT_MSG_EQ(t.railSwitches.size(), 8u, "8 rails");
            NS_TEST_ASSERT_MSG_EQ(t.nics.size(), 16u, "2 servers x 8 NICs");
            Ptr<NiccSwitchNode> sw = t.railSwitches[rail];
            NS_TEST_EXPECT_MSG_EQ(sw->GetRoute(t.Nic(1, rail)->GetId()).size(), 1u,
                                  "rail switch: one direct port to the peer NIC");
            NS_TEST_EXPECT_MSG_EQ(sw->GetRoute(t.Nic(1, rail + 1)->GetId()).size(), 2u,
                                  "cross-rail: via either spine");
            NS_TEST_EXPECT_MSG_EQ(IntHopsOf(fabric, t.Nic(0, rail), t.Nic(1, rail)), 1,
                                  "rail fabric: same-rail crosses one switch");
        }
        {
            NiccFabricHelper fabric;
            fabric.SetEndpointAttribute("IntEnabled", BooleanValue(true));
            NiccLeafSpineTopology t = fabric.BuildLeafSpine(2, 2, 1, DataRate("400Gbps"),
                                                            DataRate("400Gbps"), MicroSeconds(1));
            NS_TEST_EXPECT_MSG_EQ(IntHopsOf(fabric, t.hosts[0], t.hosts[1]), 3,
                                  "leaf-spine, hosts on different leaves: leaf, spine, leaf");
        }
    }
};

class HpccFatTreeTest : public TestCase
{
  public:
    HpccFatTreeTest()
        : TestCase("HPCC fat-tree preset: 320 hosts, 20 ToR, 20 agg, 16 core, 5 hops across pods")
    {
    }

  private:
    void DoRun() override
    {
        NiccFabricHelper fabric;
        fabric.SetEndpointAttribute("IntEnabled", BooleanValue(true));
        NiccFatTreeTopology t = fabric.BuildHpccFatTree();
        NS_TEST_ASSERT_MSG_EQ(t.hosts.size(), 320u, "hosts");
        NS_TEST_ASSERT_MSG_EQ(t.tors.size(), 20u, "ToRs");
        NS_TEST_ASSERT_MSG_EQ(t.aggs.size(), 20u, "aggregation");
        NS_TEST_ASSERT_MSG_EQ(t.cores.size(), 16u, "cores");
        for (const auto& sws : {t.tors, t.aggs, t.cores})
        {
            for (const auto& sw : sws)
            {
                NS_TEST_EXPECT_MSG_EQ(sw->GetMmu()->GetBufferSize(), 32000000u, "32 MB buffer");
                NS_TEST_EXPECT_MSG_EQ(sw->GetNPorts(), sws[0]->GetNPorts(), "uniform radix");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(t.tors[0]->GetNPorts(), 20u, "ToR: 16 hosts + 4 aggs");
        NS_TEST_EXPECT_MSG_EQ(t.aggs[0]->GetNPorts(), 8u, "agg: 4 ToRs + 4 cores");
        NS_TEST_EXPECT_MSG_EQ(t.cores[0]->GetNPorts(), 5u, "core: one agg per pod");
        NS_TEST_EXPECT_MSG_EQ(t.hostDevices[0]->GetDataRate(), DataRate("100Gbps"), "host rate");
        const uint32_t far = t.hosts[319]->GetId(); // pod 4; host 0 is in pod 0
        NS_TEST_EXPECT_MSG_EQ(t.tors[0]->GetRoute(far).size(), 4u, "ToR: ECMP over 4 aggs");
        NS_TEST_EXPECT_MSG_EQ(t.aggs[0]->GetRoute(far).size(), 4u, "agg: ECMP over its 4 cores");
        NS_TEST_EXPECT_MSG_EQ(t.tors[0]->GetRoute(t.hosts[16]->GetId()).size(), 4u,
                              "same pod: via any agg");
        NS_TEST_EXPECT_MSG_EQ(IntHopsOf(fabric, t.hosts[0], t.hosts[319]), 5,
                              "ToR, agg, core, agg, ToR");
    }
};

class NiccExperimentTestSuite : public TestSuite
{
  public:
    NiccExperimentTestSuite()
        : TestSuite("nicc-experiment", UNIT)
    {
        AddTestCase(new CdfTest, TestCase::QUICK);
        AddTestCase(new RngRunTest, TestCase::QUICK);
        AddTestCase(new PermutationEcmpVsSprayTest, TestCase::QUICK);
        AddTestCase(new SprayedHpccPermutationTest, TestCase::QUICK);
        AddTestCase(new SprayLossRecoveryTest, TestCase::QUICK);
        AddTestCase(new FatTreeHpccVsDcqcnTest, TestCase::QUICK);
        AddTestCase(new MultiRailCollectiveTest, TestCase::QUICK);
        AddTestCase(new AllToAllTest, TestCase::QUICK);
        AddTestCase(new RailVsLeafSpineHopsTest, TestCase::QUICK);
        AddTestCase(new HpccFatTreeTest, TestCase::QUICK);
    }
};

NiccExperimentTestSuite g_niccExperimentTestSuite;

} // namespace
