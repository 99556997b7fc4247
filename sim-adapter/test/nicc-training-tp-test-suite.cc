/*
 * nicc-training-tp-test-suite.cc — tensor parallelism and micro-batches in
 * the training workload ("nicc-training-tp"):
 *   - the timeline against a hand-computed two-layer example with t = 2:
 *     a TP all-reduce after every layer's forward and backward compute
 *     (closed-form cost a + bytes / bw), the DP buckets ready at their
 *     closing layer's backward compute end and overlapping the following
 *     TP all-reduces; every start and end, the iteration end, TP time and
 *     DP-exposed time; a case where the first bucket outlasts the backward;
 *     the same results whatever order the two streams' ends are reported in;
 *   - micro-batches without TP: the buckets fill in the last backward;
 *   - the gpt-18.4b preset's per-layer figures against the formulas;
 *   - ns-3, 2 servers x 2 GPUs on a rail fabric, t = 2, 2 layers, 2
 *     iterations: every TP all-reduce inside a server (over NVLink: 0
 *     fabric switches; without NVLink across the rails: 3), the DP
 *     all-reduces across the servers on one rail (1 switch), the order of
 *     compute, TP and DP, the replay of the measured durations, the output
 *     files; bad keys refused naming the key; the shipped scenario file.
 *
 *   ./nicc-sim-test-runner --suite=nicc-training-tp --verbose
 */
#include "nicc-test-util.h"

#include "ns3/nicc-module.h"
#include "ns3/nicc-training-timeline.h"
#include "ns3/test.h"

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint64_t MIB = 1ull << 20;

/// Two layers, t = 2: F = 100 us (50 per layer), backward 80 us (layer 1,
/// first in backward) and 120 us (layer 0), O = 30 us; gradients 3 MiB
/// (layer 1) and 1 MiB (layer 0): bucket 0 (1 MiB cap) = layer 1, bucket 1
/// = layer 0; TP all-reduces of 1 MiB (forward) and 2 MiB (backward).
NiccTrainingSpec
TpSpec(uint32_t iterations)
{
    NiccTrainingSpec s;
    s.iterations = iterations;
    s.forwardNs = 100000;
    s.optimizerNs = 30000;
    s.layers = {{3 * MIB, 80000}, {MIB, 120000}};
    s.firstBucketCapBytes = MIB;
    s.bucketCapBytes = 25 * MIB;
    s.tpForwardBytes = MIB;
    s.tpBackwardBytes = 2 * MIB;
    return s;
}

/// TP: 5 us + 10 us per MiB; DP: 10 us + `dpUsPerMib` per MiB.
int64_t
Cost(const NiccTrainingRequest& rq, int64_t dpUsPerMib)
{
    const int64_t mib = static_cast<int64_t>(rq.bytes / MIB);
    return rq.stream == NiccTrainingStream::TP ? 5000 + 10000 * mib : 10000 + dpUsPerMib * 1000 * mib;
}

class TpTimelineTest : public TestCase
{
  public:
    TpTimelineTest()
        : TestCase("timeline t = 2: hand-computed TP and DP all-reduces, every start and end")
    {
    }

  private:
    void DoRun() override
    {
        NiccTrainingTimeline tl;
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(
            NiccRunTrainingTimeline(TpSpec(2), [](const NiccTrainingRequest& rq) { return Cost(rq, 20); }, &tl,
                                    &err),
            true, err);
        NS_TEST_ASSERT_MSG_EQ(tl.Finished(), true, "both iterations end");
        NS_TEST_EXPECT_MSG_EQ(tl.ComputeNs(), 330000, "F + B + O = 100 + 200 + 30 us");
        NS_TEST_EXPECT_MSG_EQ(tl.TpAllReducesPerIteration(), 4u, "2 layers x forward and backward");
        NS_TEST_ASSERT_MSG_EQ(tl.Buckets().size(), 2u, "a bucket per layer");
        const auto& it = tl.Iterations()[0];
        NS_TEST_ASSERT_MSG_EQ(it.tpAllReduces.size(), 4u, "four TP all-reduces");
        // Forward: layer 0 0-50, TP 50-65 (1 MiB: 15 us); layer 1 65-115,
        // TP 115-130. Backward: layer 1 130-210, TP 210-235 (2 MiB: 25 us);
        // layer 0 235-355, TP 355-380.
        const int64_t start[4] = {50000, 115000, 210000, 355000};
        const int64_t end[4] = {65000, 130000, 235000, 380000};
        const uint32_t layer[4] = {0, 1, 1, 0};
        for (size_t k = 0; k < 4; ++k)
        {
            const NiccTrainingTpAllReduce& a = it.tpAllReduces[k];
            NS_TEST_EXPECT_MSG_EQ(a.startNs, start[k], "TP start " << k);
            NS_TEST_EXPECT_MSG_EQ(a.endNs, end[k], "TP end " << k);
            NS_TEST_EXPECT_MSG_EQ(a.layer, layer[k], "TP layer " << k);
            NS_TEST_EXPECT_MSG_EQ(a.backward, (k >= 2), "TP pass " << k);
            NS_TEST_EXPECT_MSG_EQ(a.bytes, (k >= 2 ? 2 * MIB : MIB), "TP bytes " << k);
        }
        // DP: bucket 0 (3 MiB, 70 us) ready when layer 1's backward compute
        // ends (210), beside its TP all-reduce: 210-280; bucket 1 (1 MiB,
        // 30 us) ready at 355: 355-385.
        NS_TEST_ASSERT_MSG_EQ(it.allReduces.size(), 2u, "two buckets");
        NS_TEST_EXPECT_MSG_EQ(it.allReduces[0].readyNs, 210000, "bucket 0 ready");
        NS_TEST_EXPECT_MSG_EQ(it.allReduces[0].startNs, 210000, "bucket 0 starts");
        NS_TEST_EXPECT_MSG_EQ(it.allReduces[0].endNs, 280000, "bucket 0 ends");
        NS_TEST_EXPECT_MSG_EQ(it.allReduces[1].readyNs, 355000, "bucket 1 ready");
        NS_TEST_EXPECT_MSG_EQ(it.allReduces[1].startNs, 355000, "bucket 1 starts");
        NS_TEST_EXPECT_MSG_EQ(it.allReduces[1].endNs, 385000, "bucket 1 ends");
        NS_TEST_EXPECT_MSG_EQ(it.computeEndNs, 380000, "the last TP all-reduce");
        NS_TEST_EXPECT_MSG_EQ(it.lastAllReduceEndNs, 385000, "last bucket");
        NS_TEST_EXPECT_MSG_EQ(it.endNs, 415000, "max(385, 380) + 30");
        NS_TEST_EXPECT_MSG_EQ(it.ExposedNs(tl.ComputeNs()), 85000, "415 - 330");
        NS_TEST_EXPECT_MSG_EQ(it.TpNs(), 80000, "15 + 15 + 25 + 25");
        NS_TEST_EXPECT_MSG_EQ(it.DpExposedNs(tl.ComputeNs()), 5000, "385 - 380");
        // The second iteration: the same, 415 us later.
        const auto& it1 = tl.Iterations()[1];
        NS_TEST_EXPECT_MSG_EQ(it1.startNs, 415000, "after the optimizer");
        NS_TEST_EXPECT_MSG_EQ(it1.tpAllReduces[0].startNs, 465000, "415 + 50");
        NS_TEST_EXPECT_MSG_EQ(it1.allReduces[1].endNs, 800000, "415 + 385");
        NS_TEST_EXPECT_MSG_EQ(it1.endNs, 830000, "415 + 415");
        const NiccTrainingSummary s = tl.Summary();
        NS_TEST_EXPECT_MSG_EQ_TOL(s.meanTpNs, 80000.0, 1e-9, "mean TP");
        NS_TEST_EXPECT_MSG_EQ_TOL(s.meanDpExposedNs, 5000.0, 1e-9, "mean DP exposed");

        // DP at 10 us + 100 us per MiB: bucket 0 (310 us) 210-520, bucket 1
        // (110 us) waits for it: 520-630, end 660.
        NS_TEST_ASSERT_MSG_EQ(
            NiccRunTrainingTimeline(TpSpec(1), [](const NiccTrainingRequest& rq) { return Cost(rq, 100); }, &tl,
                                    &err),
            true, err);
        const auto& slow = tl.Iterations()[0];
        NS_TEST_EXPECT_MSG_EQ(slow.tpAllReduces[3].endNs, 380000, "TP does not wait for DP");
        NS_TEST_EXPECT_MSG_EQ(slow.allReduces[0].endNs, 520000, "bucket 0 outlasts the backward");
        NS_TEST_EXPECT_MSG_EQ(slow.allReduces[1].startNs, 520000, "bucket 1 waits for bucket 0");
        NS_TEST_EXPECT_MSG_EQ(slow.allReduces[1].endNs, 630000, "+110 us");
        NS_TEST_EXPECT_MSG_EQ(slow.endNs, 660000, "+30 us optimizer");
        NS_TEST_EXPECT_MSG_EQ(slow.DpExposedNs(tl.ComputeNs()), 250000, "630 - 380");
        NS_TEST_EXPECT_MSG_EQ(slow.TpNs(), 80000, "TP unchanged");
    }
};

class StreamOrderTest : public TestCase
{
  public:
    StreamOrderTest()
        : TestCase("timeline t = 2: two streams waiting at once; any order of reported ends gives the same times")
    {
    }

  private:
    void DoRun() override
    {
        NiccTrainingTimeline ref;
        std::string err;
        auto cost = [](const NiccTrainingRequest& rq) { return Cost(rq, 20); };
        NS_TEST_ASSERT_MSG_EQ(NiccRunTrainingTimeline(TpSpec(2), cost, &ref, &err), true, err);
        // Report the DP end first whenever both wait.
        NiccTrainingTimeline tl;
        NS_TEST_ASSERT_MSG_EQ(tl.Init(TpSpec(2), &err), true, err);
        tl.Start(0);
        size_t both = 0;
        for (std::vector<NiccTrainingRequest> all = tl.PendingAll(); !all.empty(); all = tl.PendingAll())
        {
            both += all.size() == 2 ? 1 : 0;
            const NiccTrainingRequest& rq = all.back(); // DP last in the list
            tl.Done(rq.stream, rq.startNs + cost(rq));
        }
        NS_TEST_EXPECT_MSG_GT(both, 0u, "a bucket all-reduce beside a TP all-reduce");
        NS_TEST_ASSERT_MSG_EQ(tl.Finished(), true, "finished");
        for (size_t k = 0; k < 2; ++k)
        {
            const auto& a = tl.Iterations()[k];
            const auto& b = ref.Iterations()[k];
            NS_TEST_EXPECT_MSG_EQ(a.endNs, b.endNs, "iteration end");
            for (size_t j = 0; j < 4; ++j)
            {
                NS_TEST_EXPECT_MSG_EQ(a.tpAllReduces[j].endNs, b.tpAllReduces[j].endNs, "TP end");
            }
            for (size_t j = 0; j < 2; ++j)
            {
                NS_TEST_EXPECT_MSG_EQ(a.allReduces[j].startNs, b.allReduces[j].startNs, "DP start");
            }
        }
        // Bad TP specs.
        NiccTrainingSpec s = TpSpec(1);
        s.tpBackwardBytes = 0;
        NS_TEST_EXPECT_MSG_EQ(tl.Init(s, &err), false, "one TP size 0");
        NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "tensor parallelism"), true, err);
        s = TpSpec(1);
        s.layers.clear();
        s.gradBytes = MIB;
        s.backwardNs = 1000;
        NS_TEST_EXPECT_MSG_EQ(tl.Init(s, &err), false, "TP without layers");
        s = TpSpec(1);
        s.microbatches = 0;
        NS_TEST_EXPECT_MSG_EQ(tl.Init(s, &err), false, "0 micro-batches");
        NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "microbatches"), true, err);
    }
};

class MicrobatchTest : public TestCase
{
  public:
    MicrobatchTest()
        : TestCase("timeline: 2 micro-batches, the buckets fill in the last backward; gpt-18.4b per-layer figures")
    {
    }

  private:
    void DoRun() override
    {
        // F = 100, B = 200, O = 50 us per micro-batch; 1 + 3 MiB buckets;
        // DP 10 us + 20 us per MiB. Micro-batch 1's backward starts at 400:
        // bucket 0 ready at 450 (its 1/4 of 200), 450-480; bucket 1 at 600,
        // 600-670; end 720 = 650 of compute + 70.
        NiccTrainingSpec s;
        s.iterations = 1;
        s.microbatches = 2;
        s.forwardNs = 100000;
        s.backwardNs = 200000;
        s.optimizerNs = 50000;
        s.gradBytes = 4 * MIB;
        s.firstBucketCapBytes = MIB;
        NiccTrainingTimeline tl;
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(
            NiccRunTrainingTimeline(s, [](const NiccTrainingRequest& rq) { return Cost(rq, 20); }, &tl, &err), true,
            err);
        const auto& it = tl.Iterations()[0];
        NS_TEST_EXPECT_MSG_EQ(tl.ComputeNs(), 650000, "2 (F + B) + O");
        NS_TEST_EXPECT_MSG_EQ(it.computeEndNs, 600000, "2 (F + B)");
        NS_TEST_EXPECT_MSG_EQ(it.allReduces[0].startNs, 450000, "in the last backward");
        NS_TEST_EXPECT_MSG_EQ(it.allReduces[1].endNs, 670000, "600 + 70");
        NS_TEST_EXPECT_MSG_EQ(it.endNs, 720000, "+50");
        NS_TEST_EXPECT_MSG_EQ(it.TpNs(), 0, "no TP");

        // The t = 2 example with 2 micro-batches: micro-batch 0 as in the
        // one-micro-batch case but without buckets (its TP ends at 380);
        // micro-batch 1 from 380: forward TP 430-445, 495-510; layer 1's
        // backward ends at 590 (bucket 0: 590-660), TP 590-615; layer 0's
        // at 735 (bucket 1: 735-765), TP 735-760; end max(765, 760) + 30.
        NiccTrainingSpec m = TpSpec(1);
        m.microbatches = 2;
        NS_TEST_ASSERT_MSG_EQ(
            NiccRunTrainingTimeline(m, [](const NiccTrainingRequest& rq) { return Cost(rq, 20); }, &tl, &err), true,
            err);
        const auto& mt = tl.Iterations()[0];
        NS_TEST_EXPECT_MSG_EQ(tl.TpAllReducesPerIteration(), 8u, "2 micro-batches x 2 layers x 2 passes");
        NS_TEST_ASSERT_MSG_EQ(mt.tpAllReduces.size(), 8u, "8 TP all-reduces");
        NS_TEST_EXPECT_MSG_EQ(mt.tpAllReduces[3].endNs, 380000, "micro-batch 0 ends");
        NS_TEST_EXPECT_MSG_EQ(mt.tpAllReduces[4].microbatch, 1u, "micro-batch 1");
        NS_TEST_EXPECT_MSG_EQ(mt.tpAllReduces[4].startNs, 430000, "380 + 50");
        NS_TEST_EXPECT_MSG_EQ(mt.allReduces[0].readyNs, 590000, "bucket 0 in the last backward");
        NS_TEST_EXPECT_MSG_EQ(mt.allReduces[0].endNs, 660000, "+70");
        NS_TEST_EXPECT_MSG_EQ(mt.allReduces[1].startNs, 735000, "bucket 1");
        NS_TEST_EXPECT_MSG_EQ(mt.computeEndNs, 760000, "last TP");
        NS_TEST_EXPECT_MSG_EQ(mt.endNs, 795000, "765 + 30");
        NS_TEST_EXPECT_MSG_EQ(tl.ComputeNs(), 630000, "2 (F + B) + O");
        NS_TEST_EXPECT_MSG_EQ(mt.TpNs(), 160000, "2 x 80 us");
        NS_TEST_EXPECT_MSG_EQ(mt.DpExposedNs(tl.ComputeNs()), 5000, "795 - 630 - 160");

        // gpt-18.4b at t = 8, b = 1: per layer 96 s h^2 (1 + s/6h + V/16lh)
        // / 8 = 9.913e11 FLOPs at 135 TFLOP/s = 7.343 ms, 1/4 forward;
        // (12 h^2 + 13 h) / 8 x 2 B = 113 266 176 B per layer; embeddings
        // (V h / 8 + s h) x 2 B = 103 809 024 B; TP 2 and 4 x s h x 2 B.
        const NiccTrainingPreset* gpt = nullptr;
        for (const auto& p : NiccTrainingPresets())
        {
            gpt = std::string(p.name) == "gpt-18.4b" ? &p : gpt;
        }
        NS_TEST_ASSERT_MSG_NE(gpt, nullptr, "the preset");
        NiccTrainingSpec g;
        NiccTransformerSpec(*gpt, 8, 40, 1.0, 2.0, &g);
        NS_TEST_ASSERT_MSG_EQ(g.layers.size(), 40u, "40 layers");
        NS_TEST_EXPECT_MSG_EQ(g.forwardNs, 40 * 1835800, "40 x 7.343 ms / 4");
        NS_TEST_EXPECT_MSG_EQ(g.layers[0].backwardNs, 5507401, "3/4 of 7.343 ms");
        NS_TEST_EXPECT_MSG_EQ(g.layers[0].bytes, 113266176u, "a layer's gradients");
        NS_TEST_EXPECT_MSG_EQ(g.layers[39].bytes, 113266176u + 103809024u, "the first layer + embeddings");
        NS_TEST_EXPECT_MSG_EQ(g.tpForwardBytes, 2u * 2048 * 6144 * 2, "2 b s h fp16");
        NS_TEST_EXPECT_MSG_EQ(g.tpBackwardBytes, 4u * 2048 * 6144 * 2, "4 b s h fp16");
        // 18.4 B parameters: 8 ranks x layers + the vocabulary (split) and
        // the positions (replicated) once.
        const double params = 8.0 * 40 * 113266176 / 2 + 51200.0 * 6144 + 2048.0 * 6144;
        NS_TEST_EXPECT_MSG_EQ_TOL(params, 18.45e9, 0.01e9, "18.4 B");
        NiccTrainingSpec g1;
        NiccTransformerSpec(*gpt, 1, 2, 1.0, 2.0, &g1);
        NS_TEST_EXPECT_MSG_EQ(g1.tpForwardBytes, 0u, "t = 1: no TP");
        NS_TEST_EXPECT_MSG_EQ(g1.layers[0].backwardNs, 44059206, "3/4 of 8 x 7.343 ms at t = 1");
    }
};

/// 2 servers x 2 GPUs, t = 2, 2 layers of 100 000 B gradients, F = 20 us,
/// B = 40 us, O = 5 us, TP 64 KiB / 128 KiB, a bucket per layer.
std::vector<std::string>
SmallTp(bool nvlink)
{
    return {"topology=rail", "servers=2", "rails=2", "spines=1", "poisson_load=0", "stop_ms=50",
            nvlink ? "nvlink_gbps=1600" : "nvlink_gbps=0", "training=custom", "training_tp=2",
            "training_model_layers=2", "training_iterations=2", "training_forward_us=20",
            "training_backward_us=40", "training_optimizer_us=5", "training_grad_bytes=200000",
            "training_first_bucket_mb=0.05", "training_bucket_mb=0.05", "training_tp_forward_bytes=65536",
            "training_tp_backward_bytes=131072"};
}

class SimTpTest : public TestCase
{
  public:
    SimTpTest()
        : TestCase("ns-3 t = 2: TP inside a server (NVLink), DP across servers on one rail, the timeline's order")
    {
    }

  private:
    void DoRun() override
    {
        NiccScenario s;
        std::string err;
        bool ok = s.Select("leaf-spine", &err);
        for (const auto& kv : SmallTp(true))
        {
            ok = ok && s.SetPair(kv, &err);
        }
        NiccScenarioResult r;
        NS_TEST_ASSERT_MSG_EQ(ok && s.Run(&r, &err), true, err);
        const NiccTrainingResult& t = r.training;
        NS_TEST_EXPECT_MSG_EQ(t.tp, 2u, "t");
        NS_TEST_EXPECT_MSG_EQ(t.tpGroups, 2u, "a TP group per server");
        NS_TEST_EXPECT_MSG_EQ(t.rings, 2u, "a DP group per rail");
        NS_TEST_EXPECT_MSG_EQ(t.ranks, 4u, "4 GPUs");
        NS_TEST_EXPECT_MSG_EQ(t.tpNvlink, true, "over NVLink");
        NS_TEST_ASSERT_MSG_EQ(t.buckets.size(), 2u, "a bucket per layer");
        NS_TEST_EXPECT_MSG_EQ(t.computeNs, 65000, "20 + 40 + 5 us");
        NS_TEST_ASSERT_MSG_EQ(t.summary.iterationsDone, 2u, "both iterations");
        std::map<std::string, NiccCollectiveResult> coll;
        for (const auto& c : r.collectives)
        {
            coll[c.name] = c;
        }
        std::map<std::pair<uint32_t, std::string>, int64_t> measured;
        for (size_t k = 0; k < 2; ++k)
        {
            const NiccTrainingIteration& it = t.iterations[k];
            NS_TEST_ASSERT_MSG_EQ(it.tpAllReduces.size(), 4u, "2 layers x 2 passes");
            NS_TEST_ASSERT_MSG_EQ(it.allReduces.size(), 2u, "2 buckets");
            // Compute between TP all-reduces: 10 us per forward layer, 20 per backward.
            const int64_t gap[4] = {10000, 10000, 20000, 20000};
            int64_t prev = it.startNs;
            for (size_t j = 0; j < 4; ++j)
            {
                const NiccTrainingTpAllReduce& a = it.tpAllReduces[j];
                NS_TEST_EXPECT_MSG_EQ(a.startNs, prev + gap[j], "TP after its layer's compute");
                NS_TEST_EXPECT_MSG_GT(a.endNs, a.startNs, "takes time");
                prev = a.endNs;
                const std::string name = "train_i" + std::to_string(k) + "_u0_" + (a.backward ? "bwd" : "fwd") +
                                         std::to_string(a.layer);
                NS_TEST_ASSERT_MSG_EQ(coll.count(name), 1u, name);
                const NiccCollectiveResult& c = coll[name];
                NS_TEST_EXPECT_MSG_EQ(c.stepsPlanned, 2u, "2 (t - 1) ring steps");
                NS_TEST_EXPECT_MSG_EQ(c.steps.front().startNs, a.startNs, name);
                NS_TEST_EXPECT_MSG_EQ(c.steps.back().endNs, a.endNs, name);
                NS_TEST_EXPECT_MSG_EQ(c.nvlinkFlows, 8u, "2 groups x 2 ranks x 2 steps, all NVLink");
                NS_TEST_ASSERT_MSG_EQ(c.flowsByFabricHops.size(), 1u, name);
                NS_TEST_EXPECT_MSG_EQ(c.flowsByFabricHops[0], 8u, "0 fabric switches");
                measured[{static_cast<uint32_t>(k), name.substr(name.find("_u0_"))}] = a.endNs - a.startNs;
            }
            NS_TEST_EXPECT_MSG_EQ(it.computeEndNs, it.tpAllReduces[3].endNs, "compute ends with the last TP");
            for (size_t b = 0; b < 2; ++b)
            {
                const NiccTrainingAllReduce& a = it.allReduces[b];
                // Bucket b closes at backward layer b: ready when its compute ends.
                NS_TEST_EXPECT_MSG_EQ(a.readyNs, it.tpAllReduces[2 + b].startNs, "ready at its layer's end");
                const int64_t prevEnd = b > 0 ? it.allReduces[b - 1].endNs : a.readyNs;
                NS_TEST_EXPECT_MSG_EQ(a.startNs, std::max(a.readyNs, prevEnd), "DP stream");
                const std::string name = "train_i" + std::to_string(k) + "_b" + std::to_string(b);
                NS_TEST_ASSERT_MSG_EQ(coll.count(name), 1u, name);
                const NiccCollectiveResult& c = coll[name];
                NS_TEST_EXPECT_MSG_EQ(c.nvlinkFlows, 0u, "DP on the fabric");
                NS_TEST_ASSERT_MSG_EQ(c.flowsByFabricHops.size(), 2u, name);
                NS_TEST_EXPECT_MSG_EQ(c.flowsByFabricHops[1], 8u, "2 rings x 2 ranks x 2 steps, 1 switch (a rail)");
                measured[{static_cast<uint32_t>(k), "_b" + std::to_string(b)}] = a.endNs - a.startNs;
            }
            NS_TEST_EXPECT_MSG_EQ(it.endNs, std::max(it.lastAllReduceEndNs, it.computeEndNs) + 5000,
                                  "optimizer after both streams");
            NS_TEST_EXPECT_MSG_EQ(it.ExposedNs(t.computeNs), it.TpNs() + it.DpExposedNs(t.computeNs), "split");
            NS_TEST_EXPECT_MSG_GT(it.TpNs(), 0, "TP time exposed");
        }
        NS_TEST_EXPECT_MSG_EQ(t.iterations[1].startNs, t.iterations[0].endNs, "next iteration");
        // The timeline fed the measured durations reproduces every time.
        NiccTrainingTimeline replay;
        NS_TEST_ASSERT_MSG_EQ(NiccRunTrainingTimeline(
                                  t.spec,
                                  [&](const NiccTrainingRequest& rq) {
                                      const std::string key =
                                          rq.stream == NiccTrainingStream::DP
                                              ? "_b" + std::to_string(rq.bucket)
                                              : std::string("_u0_") + (rq.backward ? "bwd" : "fwd") +
                                                    std::to_string(rq.layer);
                                      return measured[{rq.iteration, key}];
                                  },
                                  &replay, &err),
                              true, err);
        for (size_t k = 0; k < 2; ++k)
        {
            NS_TEST_EXPECT_MSG_EQ(replay.Iterations()[k].endNs, t.iterations[k].endNs, "replayed end");
            NS_TEST_EXPECT_MSG_EQ(replay.Iterations()[k].allReduces[1].startNs, t.iterations[k].allReduces[1].startNs,
                                  "replayed DP start");
        }
        // Outputs.
        const std::filesystem::path dir = NiccTestDir("training-tp");
        NS_TEST_ASSERT_MSG_EQ(NiccWriteScenarioOutputs(s, r, dir.string(), &err), true, err);
        const std::string tp = ReadAll(dir / "training_tp.csv");
        NS_TEST_EXPECT_MSG_EQ(std::count(tp.begin(), tp.end(), '\n'), 9, "header + 8 TP all-reduces");
        NS_TEST_EXPECT_MSG_EQ(NiccContains(tp, "\n0,0,1,backward,131072,"), true, tp);
        const std::string csv = ReadAll(dir / "training.csv");
        NS_TEST_EXPECT_MSG_EQ(NiccContains(csv, "tp_comm_us,dp_exposed_us"), true, csv);
        const std::string js = ReadAll(dir / "summary.json");
        NS_TEST_EXPECT_MSG_EQ(NiccContains(js, "\"tp_over_nvlink\": true"), true, "summary");
        NS_TEST_EXPECT_MSG_EQ(NiccContains(js, "\"tp_allreduces_per_iteration\": 4"), true, "summary");
        std::filesystem::remove_all(dir);

        // Without NVLink the TP rings cross the rails: rail, spine, rail.
        NiccScenarioResult r2;
        NS_TEST_ASSERT_MSG_EQ(NiccRunWith("leaf-spine", SmallTp(false), &r2, &err), true, err);
        NS_TEST_EXPECT_MSG_EQ(r2.training.tpNvlink, false, "no NVLink");
        size_t found = 0;
        for (const auto& c : r2.collectives)
        {
            if (c.name == "train_i0_u0_fwd0")
            {
                ++found;
                NS_TEST_EXPECT_MSG_EQ(c.nvlinkFlows, 0u, "fabric");
                NS_TEST_ASSERT_MSG_EQ(c.flowsByFabricHops.size(), 4u, c.name);
                NS_TEST_EXPECT_MSG_EQ(c.flowsByFabricHops[3], 8u, "3 switches");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(found, 1u, "the first TP all-reduce");
        NS_TEST_EXPECT_MSG_GT(r2.training.iterations[0].TpNs(), t.iterations[0].TpNs(),
                              "100 Gb/s across the spine is slower than 1600 Gb/s NVLink");
    }
};

class BadTpKeysTest : public TestCase
{
  public:
    BadTpKeysTest()
        : TestCase("training_tp keys refused naming the key; the shipped training-transformer.toml")
    {
    }

  private:
    void DoRun() override
    {
        NiccScenarioResult r;
        std::string err;
        std::vector<std::string> keys = SmallTp(true);
        keys.push_back("training_tp=3");
        NS_TEST_EXPECT_MSG_EQ(NiccRunWith("leaf-spine", keys, &r, &err), false, "3 does not divide 4");
        NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "training_tp"), true, err);
        keys = SmallTp(true);
        keys.push_back("training_tp=4");
        NS_TEST_EXPECT_MSG_EQ(NiccRunWith("leaf-spine", keys, &r, &err), false, "one group: no DP");
        NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "at least 2 groups"), true, err);
        keys = SmallTp(true);
        keys.push_back("training_model_layers=0");
        NS_TEST_EXPECT_MSG_EQ(NiccRunWith("leaf-spine", keys, &r, &err), false, "no layers");
        NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "layer stack"), true, err);
        keys = SmallTp(true);
        keys.push_back("training_tp_forward_bytes=-1");
        NS_TEST_EXPECT_MSG_EQ(NiccRunWith("leaf-spine", keys, &r, &err), false, "custom needs TP bytes");
        NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "training_tp_forward_bytes"), true, err);
        keys = SmallTp(true);
        keys.push_back("training=gpt-18.4b");
        NS_TEST_EXPECT_MSG_EQ(NiccRunWith("leaf-spine", keys, &r, &err), false, "preset with grad bytes");
        NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "training_grad_bytes"), true, err);

        NiccScenario s;
        NS_TEST_ASSERT_MSG_EQ(NiccLoadScenarioFile(NiccShipped("training-transformer.toml"), &s, &err), true, err);
        NS_TEST_EXPECT_MSG_EQ(s.Get("training"), "gpt-18.4b", "preset");
        NS_TEST_EXPECT_MSG_EQ(s.Get("training_tp"), "8", "a server per TP group");
        NS_TEST_EXPECT_MSG_EQ(s.Get("topology"), "rail", "rail fabric");
        NS_TEST_EXPECT_MSG_EQ(s.Get("rails"), "8", "8 GPUs per server");
        NS_TEST_EXPECT_MSG_GT(std::stod(s.Get("nvlink_gbps")), 0.0, "NVLink");
    }
};

} // namespace

class NiccTrainingTpTestSuite : public TestSuite
{
  public:
    NiccTrainingTpTestSuite()
        : TestSuite("nicc-training-tp", UNIT)
    {
        AddTestCase(new TpTimelineTest, TestCase::QUICK);
        AddTestCase(new StreamOrderTest, TestCase::QUICK);
        AddTestCase(new MicrobatchTest, TestCase::QUICK);
        AddTestCase(new SimTpTest, TestCase::QUICK);
        AddTestCase(new BadTpKeysTest, TestCase::QUICK);
    }
};

NiccTrainingTpTestSuite g_niccTrainingTpTestSuite;
