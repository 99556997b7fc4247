/*
 * nicc-training-test-suite.cc — the data-parallel training workload
 * ("nicc-training"):
 *   - DDP's bucket split: 51.2 MB of gradients into 1 MiB + 25 MiB + the
 *     rest; a per-layer profile packed in whole layers, ready when the
 *     closing layer's backward ends;
 *   - the timeline against a hand-computed two-bucket example with the
 *     closed-form all-reduce time a + bytes / bw: one case where bucket 0's
 *     all-reduce hides under the remaining backward (only the last bucket's
 *     all-reduce is exposed), one where it outlasts the backward and bucket
 *     1 waits for it on the one communication stream;
 *   - bad specs refused naming the field;
 *   - ns-3, 4 ranks on a 2 x 1 x 2 leaf-spine, 2 iterations of 3 buckets:
 *     every bucket's ring all-reduce starts no earlier than its bucket is
 *     ready and not before the previous one ended (exactly at the later of
 *     the two), the optimizer follows the last one, the next forward the
 *     optimizer, iteration time >= F + B + O, the timeline fed the measured
 *     all-reduce durations reproduces every time to the ns, and the outputs
 *     (training.csv, training_buckets.csv, summary.json) hold them;
 *   - bad training keys refused naming the key;
 *   - a per-layer profile file (training_layers_file) on the fabric: buckets
 *     of whole layers, ready at their last layer's backward end; bad files
 *     refused naming file and line;
 *   - the shipped training-resnet50.toml, one iteration: 16 ranks in 4
 *     rail rings, DDP's three buckets of 51.2 MB, and an iteration of
 *     103.644 ms of compute plus at least the last bucket's all-reduce.
 *
 *   ./nicc-sim-test-runner --suite=nicc-training --verbose
 */
#include "nicc-test-util.h"

#include "ns3/nicc-module.h"
#include "ns3/nicc-training-timeline.h"
#include "ns3/test.h"

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint64_t MIB = 1ull << 20;

/// The hand example: F = 100 us, B = 200 us, O = 50 us, 4 MiB of gradients
/// with a 1 MiB first bucket: bucket 0 = 1 MiB ready 50 us into backward,
/// bucket 1 = 3 MiB ready when backward ends (200 us). Two iterations.
NiccTrainingSpec
HandSpec()
{
    NiccTrainingSpec s;
    s.iterations = 2;
    s.forwardNs = 100000;
    s.backwardNs = 200000;
    s.optimizerNs = 50000;
    s.gradBytes = 4 * MIB;
    s.firstBucketCapBytes = MIB;
    s.bucketCapBytes = 25 * MIB;
    return s;
}

class BucketSplitTest : public TestCase
{
  public:
    BucketSplitTest()
        : TestCase("DDP bucket split: 1 MiB first bucket, 25 MiB caps, per-layer profile")
    {
    }

  private:
    void DoRun() override
    {
        NiccTrainingSpec s;
        s.gradBytes = 51200000; // ResNet-50, fp16
        s.backwardNs = 51200000; // 1 ns per byte: ready offset = cumulative bytes
        std::vector<NiccTrainingBucket> b = NiccTrainingBuckets(s);
        NS_TEST_ASSERT_MSG_EQ(b.size(), 3u, "1 MiB + 25 MiB + rest");
        NS_TEST_EXPECT_MSG_EQ(b[0].bytes, 1048576u, "first bucket 1 MiB");
        NS_TEST_EXPECT_MSG_EQ(b[1].bytes, 26214400u, "25 MiB");
        NS_TEST_EXPECT_MSG_EQ(b[2].bytes, 23937024u, "the rest");
        NS_TEST_EXPECT_MSG_EQ(b[0].readyOffsetNs, 1048576, "ready after its share");
        NS_TEST_EXPECT_MSG_EQ(b[1].readyOffsetNs, 27262976, "ready after its share");
        NS_TEST_EXPECT_MSG_EQ(b[2].readyOffsetNs, 51200000, "last ready at backward end");

        // Ready offsets round up: 3 equal buckets of 1 byte over 10 ns.
        NiccTrainingSpec r;
        r.gradBytes = 3;
        r.backwardNs = 10;
        r.firstBucketCapBytes = 1;
        r.bucketCapBytes = 1;
        b = NiccTrainingBuckets(r);
        NS_TEST_ASSERT_MSG_EQ(b.size(), 3u, "three buckets");
        NS_TEST_EXPECT_MSG_EQ(b[0].readyOffsetNs, 4, "ceil(10/3)");
        NS_TEST_EXPECT_MSG_EQ(b[1].readyOffsetNs, 7, "ceil(20/3)");
        NS_TEST_EXPECT_MSG_EQ(b[2].readyOffsetNs, 10, "all");

        // Profile (backward order): a bucket closes at the layer reaching
        // its cap and may exceed it.
        NiccTrainingSpec p;
        p.firstBucketCapBytes = 100;
        p.bucketCapBytes = 1000;
        p.layers = {{60, 5}, {60, 7}, {500, 11}, {600, 13}, {30, 17}};
        b = NiccTrainingBuckets(p);
        NS_TEST_ASSERT_MSG_EQ(b.size(), 3u, "120 | 1100 | 30");
        NS_TEST_EXPECT_MSG_EQ(b[0].bytes, 120u, "two layers reach 100");
        NS_TEST_EXPECT_MSG_EQ(b[0].readyOffsetNs, 12, "after layers 0-1");
        NS_TEST_EXPECT_MSG_EQ(b[1].bytes, 1100u, "500 + 600 reach 1000");
        NS_TEST_EXPECT_MSG_EQ(b[1].readyOffsetNs, 36, "after layers 0-3");
        NS_TEST_EXPECT_MSG_EQ(b[2].bytes, 30u, "the rest");
        NS_TEST_EXPECT_MSG_EQ(b[2].readyOffsetNs, 53, "backward end");
        NiccTrainingTimeline tl;
        std::string err;
        p.iterations = 1;
        NS_TEST_ASSERT_MSG_EQ(tl.Init(p, &err), true, err);
        NS_TEST_EXPECT_MSG_EQ(tl.BackwardNs(), 53, "B = the layers' sum");
    }
};

/// All-reduce time a + bytes / bw with bw in bytes per ns given as
/// `nsPerMib` per MiB (exact for whole MiB).
struct ClosedForm
{
    int64_t aNs;
    int64_t nsPerMib;

    int64_t operator()(const NiccTrainingRequest& rq) const
    {
        return aNs + static_cast<int64_t>(rq.bytes * static_cast<uint64_t>(nsPerMib) / MIB);
    }
};

class HandTimelineTest : public TestCase
{
  public:
    /// slow = false: a = 10 us, 20 us per MiB (hidden); true: 200 us per MiB.
    explicit HandTimelineTest(bool slow)
        : TestCase(slow ? "timeline, hand example: bucket 0 outlasts backward, bucket 1 waits (exposed)"
                        : "timeline, hand example: bucket 0 hidden under backward"),
          m_slow(slow)
    {
    }

  private:
    void DoRun() override
    {
        NiccTrainingTimeline tl;
        std::string err;
        const ClosedForm cost{10000, m_slow ? 200000 : 20000};
        NS_TEST_ASSERT_MSG_EQ(NiccRunTrainingTimeline(HandSpec(), cost, &tl, &err), true, err);
        NS_TEST_ASSERT_MSG_EQ(tl.Finished(), true, "both iterations end");
        NS_TEST_EXPECT_MSG_EQ(tl.ComputeNs(), 350000, "F + B + O");
        const auto& its = tl.Iterations();
        NS_TEST_ASSERT_MSG_EQ(its.size(), 2u, "two iterations");
        for (const auto& it : its)
        {
            NS_TEST_ASSERT_MSG_EQ(it.allReduces.size(), 2u, "two buckets");
        }
        const auto& a0 = its[0].allReduces[0];
        const auto& a1 = its[0].allReduces[1];
        NS_TEST_EXPECT_MSG_EQ(a0.bytes, MIB, "bucket 0 = 1 MiB");
        NS_TEST_EXPECT_MSG_EQ(a1.bytes, 3 * MIB, "bucket 1 = 3 MiB");
        // Bucket 0: ready at F + B/4 = 150 us, starts then.
        NS_TEST_EXPECT_MSG_EQ(a0.readyNs, 150000, "bucket 0 ready");
        NS_TEST_EXPECT_MSG_EQ(a0.startNs, 150000, "bucket 0 starts when ready");
        NS_TEST_EXPECT_MSG_EQ(a1.readyNs, 300000, "bucket 1 ready at backward end");
        NS_TEST_EXPECT_MSG_EQ(its[0].computeEndNs, 300000, "F + B");
        if (!m_slow)
        {
            // 10 + 20 = 30 us: 150 -> 180 us, before bucket 1 is ready.
            NS_TEST_EXPECT_MSG_EQ(a0.endNs, 180000, "bucket 0 end");
            // 10 + 60 = 70 us from its ready time.
            NS_TEST_EXPECT_MSG_EQ(a1.startNs, 300000, "bucket 1 starts when ready");
            NS_TEST_EXPECT_MSG_EQ(a1.endNs, 370000, "bucket 1 end");
            NS_TEST_EXPECT_MSG_EQ(its[0].lastAllReduceEndNs, 370000, "last all-reduce end");
            NS_TEST_EXPECT_MSG_EQ(its[0].endNs, 420000, "optimizer after it: +50 us");
            NS_TEST_EXPECT_MSG_EQ(its[0].DurationNs(), 420000, "iteration time");
            // Only bucket 1's own 70 us is exposed: bucket 0 is hidden.
            NS_TEST_EXPECT_MSG_EQ(its[0].ExposedNs(tl.ComputeNs()), 70000, "exposed = last bucket");
            // Iteration 1 starts at 420 us: the same shape shifted.
            NS_TEST_EXPECT_MSG_EQ(its[1].startNs, 420000, "next forward after the optimizer");
            NS_TEST_EXPECT_MSG_EQ(its[1].allReduces[0].startNs, 570000, "420 + 150");
            NS_TEST_EXPECT_MSG_EQ(its[1].allReduces[0].endNs, 600000, "+30");
            NS_TEST_EXPECT_MSG_EQ(its[1].allReduces[1].startNs, 720000, "420 + 300");
            NS_TEST_EXPECT_MSG_EQ(its[1].allReduces[1].endNs, 790000, "+70");
            NS_TEST_EXPECT_MSG_EQ(its[1].endNs, 840000, "+50");
            const NiccTrainingSummary s = tl.Summary();
            NS_TEST_EXPECT_MSG_EQ(s.iterationsDone, 2u, "two done");
            NS_TEST_EXPECT_MSG_EQ_TOL(s.meanIterationNs, 420000.0, 1e-9, "mean iteration");
            NS_TEST_EXPECT_MSG_EQ_TOL(s.iterationsPerSecond, 1e9 / 420000.0, 1e-9, "iterations/s");
            NS_TEST_EXPECT_MSG_EQ_TOL(s.exposedShare, 70000.0 / 420000.0, 1e-12, "exposed share");
        }
        else
        {
            // 10 + 200 = 210 us: 150 -> 360 us, past the backward end.
            NS_TEST_EXPECT_MSG_EQ(a0.endNs, 360000, "bucket 0 end");
            // Bucket 1 (ready at 300) waits for the stream: 360 -> 970 us.
            NS_TEST_EXPECT_MSG_EQ(a1.startNs, 360000, "bucket 1 waits for bucket 0");
            NS_TEST_EXPECT_MSG_EQ(a1.endNs, 970000, "10 + 600 us");
            NS_TEST_EXPECT_MSG_EQ(its[0].endNs, 1020000, "optimizer: +50 us");
            NS_TEST_EXPECT_MSG_EQ(its[0].DurationNs(), 1020000, "iteration time");
            NS_TEST_EXPECT_MSG_EQ(its[0].ExposedNs(tl.ComputeNs()), 670000, "1020 - 350 us");
            NS_TEST_EXPECT_MSG_EQ(its[1].startNs, 1020000, "next iteration");
            NS_TEST_EXPECT_MSG_EQ(its[1].allReduces[0].startNs, 1170000, "1020 + 150");
            NS_TEST_EXPECT_MSG_EQ(its[1].allReduces[1].startNs, 1380000, "1170 + 210");
            NS_TEST_EXPECT_MSG_EQ(its[1].endNs, 2040000, "1380 + 610 + 50");
            const NiccTrainingSummary s = tl.Summary();
            NS_TEST_EXPECT_MSG_EQ_TOL(s.exposedShare, 670000.0 / 1020000.0, 1e-12, "exposed share");
        }
    }

    bool m_slow;
};

class BadSpecTest : public TestCase
{
  public:
    BadSpecTest()
        : TestCase("timeline: bad specs refused naming the field")
    {
    }

  private:
    void DoRun() override
    {
        NiccTrainingTimeline tl;
        std::string err;
        NiccTrainingSpec s = HandSpec();
        s.iterations = 0;
        NS_TEST_EXPECT_MSG_EQ(tl.Init(s, &err), false, "0 iterations");
        NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "iterations"), true, err);
        s = HandSpec();
        s.gradBytes = 0;
        NS_TEST_EXPECT_MSG_EQ(tl.Init(s, &err), false, "no gradients");
        NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "gradient bytes"), true, err);
        s = HandSpec();
        s.forwardNs = -1;
        NS_TEST_EXPECT_MSG_EQ(tl.Init(s, &err), false, "negative time");
        NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "forward"), true, err);
        s = HandSpec();
        s.layers = {{10, 1}, {0, 1}};
        NS_TEST_EXPECT_MSG_EQ(tl.Init(s, &err), false, "empty layer");
        NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "layer 1"), true, err);
        // Done with nothing pending changes nothing.
        NS_TEST_ASSERT_MSG_EQ(tl.Init(HandSpec(), &err), true, err);
        tl.Done(5);
        NiccTrainingRequest rq;
        NS_TEST_EXPECT_MSG_EQ(tl.Pending(&rq), false, "not started");
    }
};

/// The small job: F = 50 us, B = 300 us, O = 20 us, 2.5 MiB of gradients
/// in 1 MiB buckets (1 + 1 + 0.5 MiB), 2 iterations, 4 ranks at 100 Gb/s.
std::vector<std::string>
SmallJob()
{
    return {"leaves=2", "spines=1", "hosts_per_leaf=2", "poisson_load=0", "stop_ms=20",
            "training=custom", "training_iterations=2", "training_start_us=5",
            "training_forward_us=50", "training_backward_us=300", "training_optimizer_us=20",
            "training_grad_bytes=2621440", "training_bucket_mb=1", "training_first_bucket_mb=1"};
}

class SimIterationsTest : public TestCase
{
  public:
    SimIterationsTest()
        : TestCase("ns-3: bucket all-reduces in order after their buckets, optimizer last, = the timeline")
    {
    }

  private:
    void DoRun() override
    {
        NiccScenario s;
        std::string err;
        bool ok = s.Select("leaf-spine", &err);
        for (const auto& kv : SmallJob())
        {
            ok = ok && s.SetPair(kv, &err);
        }
        NiccScenarioResult r;
        NS_TEST_ASSERT_MSG_EQ(ok && s.Run(&r, &err), true, err);
        const NiccTrainingResult& t = r.training;
        NS_TEST_ASSERT_MSG_EQ(t.on, true, "training ran");
        NS_TEST_EXPECT_MSG_EQ(t.ranks, 4u, "every host");
        NS_TEST_ASSERT_MSG_EQ(t.buckets.size(), 3u, "1 + 1 + 0.5 MiB");
        NS_TEST_EXPECT_MSG_EQ(t.buckets[2].bytes, 524288u, "last bucket");
        NS_TEST_EXPECT_MSG_EQ(t.computeNs, 370000, "F + B + O");
        NS_TEST_ASSERT_MSG_EQ(t.iterations.size(), 2u, "two iterations");
        NS_TEST_EXPECT_MSG_EQ(t.summary.iterationsDone, 2u, "both finished (no early stop between buckets)");
        NS_TEST_EXPECT_MSG_EQ(t.iterations[0].startNs, 5000, "training_start_us");
        // Measured durations per (iteration, bucket), for the replay.
        std::map<std::pair<uint32_t, uint32_t>, int64_t> measured;
        std::map<std::string, NiccCollectiveResult> coll;
        for (const auto& c : r.collectives)
        {
            coll[c.name] = c;
        }
        for (size_t k = 0; k < t.iterations.size(); ++k)
        {
            const NiccTrainingIteration& it = t.iterations[k];
            NS_TEST_ASSERT_MSG_EQ(it.allReduces.size(), 3u, "one all-reduce per bucket");
            if (k > 0)
            {
                NS_TEST_EXPECT_MSG_EQ(it.startNs, t.iterations[k - 1].endNs, "forward after the optimizer");
            }
            NS_TEST_EXPECT_MSG_EQ(it.computeEndNs, it.startNs + 350000, "F + B");
            for (size_t b = 0; b < it.allReduces.size(); ++b)
            {
                const NiccTrainingAllReduce& a = it.allReduces[b];
                NS_TEST_EXPECT_MSG_EQ(a.bucket, b, "in bucket order");
                NS_TEST_EXPECT_MSG_GT_OR_EQ(a.startNs, a.readyNs, "not before its bucket is ready");
                NS_TEST_EXPECT_MSG_GT(a.endNs, a.startNs, "takes time on the fabric");
                const int64_t prevEnd = b > 0 ? it.allReduces[b - 1].endNs : 0;
                NS_TEST_EXPECT_MSG_GT_OR_EQ(a.startNs, prevEnd, "one at a time");
                NS_TEST_EXPECT_MSG_EQ(a.startNs, std::max(a.readyNs, prevEnd), "at the later of the two");
                // The fabric's collective is this all-reduce: same start and end.
                const std::string name = "train_i" + std::to_string(k) + "_b" + std::to_string(b);
                NS_TEST_ASSERT_MSG_EQ(coll.count(name), 1u, name);
                const NiccCollectiveResult& c = coll[name];
                NS_TEST_EXPECT_MSG_EQ(c.Done(), true, name);
                NS_TEST_EXPECT_MSG_EQ(c.stepsPlanned, 6u, "2 (n - 1) ring steps");
                NS_TEST_EXPECT_MSG_EQ(c.steps.front().startNs, a.startNs, name + " start");
                NS_TEST_EXPECT_MSG_EQ(c.steps.back().endNs, a.endNs, name + " end");
                measured[{static_cast<uint32_t>(k), static_cast<uint32_t>(b)}] = a.endNs - a.startNs;
            }
            NS_TEST_EXPECT_MSG_EQ(it.lastAllReduceEndNs, it.allReduces.back().endNs, "last all-reduce");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(it.lastAllReduceEndNs, it.computeEndNs, "last bucket after backward");
            NS_TEST_EXPECT_MSG_EQ(it.endNs, it.lastAllReduceEndNs + 20000, "optimizer after the last");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(it.DurationNs(), t.computeNs, "iteration >= compute");
        }
        // ALLREDUCE flows: 2 iterations x 3 buckets x 6 steps x 4 ranks.
        const size_t arFlows = std::count(r.flowKind.begin(), r.flowKind.end(),
                                          static_cast<uint8_t>(NiccFlowKind::ALLREDUCE));
        NS_TEST_EXPECT_MSG_EQ(arFlows, 144u, "every ring step's flows");
        // The timeline fed the measured durations gives the same times.
        NiccTrainingTimeline replay;
        NS_TEST_ASSERT_MSG_EQ(NiccRunTrainingTimeline(
                                  t.spec,
                                  [&](const NiccTrainingRequest& rq) {
                                      return measured[{rq.iteration, rq.bucket}];
                                  },
                                  &replay, &err, 5000),
                              true, err);
        NS_TEST_ASSERT_MSG_EQ(replay.Iterations().size(), 2u, "replayed");
        for (size_t k = 0; k < 2; ++k)
        {
            const auto& a = replay.Iterations()[k];
            const auto& b = t.iterations[k];
            NS_TEST_EXPECT_MSG_EQ(a.endNs, b.endNs, "replayed iteration end");
            NS_TEST_EXPECT_MSG_EQ(a.lastAllReduceEndNs, b.lastAllReduceEndNs, "replayed last all-reduce");
            for (size_t j = 0; j < 3; ++j)
            {
                NS_TEST_EXPECT_MSG_EQ(a.allReduces[j].startNs, b.allReduces[j].startNs, "replayed start");
                NS_TEST_EXPECT_MSG_EQ(a.allReduces[j].endNs, b.allReduces[j].endNs, "replayed end");
            }
        }
        const double meanNs = (t.iterations[0].DurationNs() + t.iterations[1].DurationNs()) / 2.0;
        NS_TEST_EXPECT_MSG_EQ_TOL(t.summary.meanIterationNs, meanNs, 1e-6, "mean iteration");
        NS_TEST_EXPECT_MSG_EQ_TOL(t.summary.iterationsPerSecond, 1e9 / meanNs, 1e-6, "iterations/s");
        NS_TEST_EXPECT_MSG_EQ_TOL(t.summary.exposedShare, (meanNs - 370000.0) / meanNs, 1e-9, "exposed share");

        // Outputs.
        const std::filesystem::path dir = NiccTestDir("training");
        NS_TEST_ASSERT_MSG_EQ(NiccWriteScenarioOutputs(s, r, dir.string(), &err), true, err);
        const std::string csv = ReadAll(dir / "training.csv");
        NS_TEST_EXPECT_MSG_EQ(std::count(csv.begin(), csv.end(), '\n'), 3, "header + 2 iterations");
        NS_TEST_EXPECT_MSG_EQ(NiccContains(csv, "\n1," + std::to_string(t.iterations[1].startNs) + ","), true,
                              csv);
        const std::string bk = ReadAll(dir / "training_buckets.csv");
        NS_TEST_EXPECT_MSG_EQ(std::count(bk.begin(), bk.end(), '\n'), 7, "header + 6 all-reduces");
        const std::string js = ReadAll(dir / "summary.json");
        NS_TEST_EXPECT_MSG_EQ(NiccContains(js, "\"exposed_comm_share\""), true, "summary training");
        NS_TEST_EXPECT_MSG_EQ(NiccContains(js, "\"iterations_done\": 2"), true, "summary training");
        std::filesystem::remove_all(dir);
    }
};

class BadTrainingKeysTest : public TestCase
{
  public:
    BadTrainingKeysTest()
        : TestCase("training keys: custom without times, a rank subset of rail rings, out of range; preset defaults")
    {
    }

  private:
    void DoRun() override
    {
        NiccScenarioResult r;
        std::string err;
        NS_TEST_EXPECT_MSG_EQ(NiccRunWith("leaf-spine", {"leaves=2", "spines=1", "hosts_per_leaf=2", "poisson_load=0",
                                                         "training=custom", "training_grad_bytes=1000"},
                                          &r, &err),
                              false, "custom needs times");
        NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "training_forward_us"), true, err);
        std::vector<std::string> keys = SmallJob();
        keys.push_back("allreduce_ring=rail-local");
        keys.push_back("training_ranks=3");
        NS_TEST_EXPECT_MSG_EQ(NiccRunWith("leaf-spine", keys, &r, &err), false, "subset of rail rings");
        NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "training_ranks"), true, err);
        keys = SmallJob();
        keys.push_back("training_grad_bytes=-2");
        NS_TEST_EXPECT_MSG_EQ(NiccRunWith("leaf-spine", keys, &r, &err), false, "below -1");
        NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "training_grad_bytes"), true, err);
        // A preset fills what is not set: resnet50 at fp32 = 102.4 MB.
        NiccScenario s;
        NS_TEST_ASSERT_MSG_EQ(s.Select("leaf-spine", &err) && s.SetPair("training=resnet50", &err) &&
                                  s.SetPair("training_precision=fp32", &err),
                              true, err);
        NS_TEST_EXPECT_MSG_EQ(s.Get("training_grad_bytes"), "-1", "the preset's");
        NS_TEST_EXPECT_MSG_EQ(NiccTrainingPresets().front().params * 4, 102.4e6, "ResNet-50 fp32 gradients");
        // Every preset is a value of the key `training`.
        for (const auto& p : NiccTrainingPresets())
        {
            NS_TEST_EXPECT_MSG_EQ(s.Set("training", p.name, &err), true, err);
        }
    }
};

class LayersFileTest : public TestCase
{
  public:
    LayersFileTest()
        : TestCase("training_layers_file: buckets of whole layers on the fabric; bad files name file:line")
    {
    }

  private:
    void DoRun() override
    {
        const std::filesystem::path dir = NiccTestDir("training-layers");
        // Backward order: 0.6 MiB + 0.6 MiB close the 1 MiB first bucket at
        // 30 us; 1.5 MiB closes the second (1 MiB cap) at 130 us; the last
        // 0.25 MiB layer is the third, ready at 150 us.
        const std::string good = NiccWriteFile(dir, "layers.csv",
                                               "# ResNet-like, last layer first\n"
                                               "bytes,backward_us\n629146,10\n629146,20\n1572864,100\n"
                                               "262144,20\n");
        std::vector<std::string> keys = {"leaves=2", "spines=1", "hosts_per_leaf=2", "poisson_load=0",
                                         "stop_ms=20", "training=custom", "training_iterations=1",
                                         "training_forward_us=40", "training_optimizer_us=10",
                                         "training_bucket_mb=1", "training_layers_file=" + good};
        NiccScenarioResult r;
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(NiccRunWith("leaf-spine", keys, &r, &err), true, err);
        const NiccTrainingResult& t = r.training;
        NS_TEST_ASSERT_MSG_EQ(t.buckets.size(), 3u, "three buckets of whole layers");
        NS_TEST_EXPECT_MSG_EQ(t.buckets[0].bytes, 1258292u, "two layers");
        NS_TEST_EXPECT_MSG_EQ(t.buckets[0].readyOffsetNs, 30000, "after layers 0-1");
        NS_TEST_EXPECT_MSG_EQ(t.buckets[1].bytes, 1572864u, "one layer over the cap");
        NS_TEST_EXPECT_MSG_EQ(t.buckets[1].readyOffsetNs, 130000, "after layer 2");
        NS_TEST_EXPECT_MSG_EQ(t.buckets[2].readyOffsetNs, 150000, "backward end");
        NS_TEST_EXPECT_MSG_EQ(t.spec.backwardNs, 150000, "B = the layers' sum");
        NS_TEST_EXPECT_MSG_EQ(t.spec.gradBytes, 3093300u, "bytes = the layers' sum");
        NS_TEST_EXPECT_MSG_EQ(t.computeNs, 200000, "40 + 150 + 10 us");
        NS_TEST_ASSERT_MSG_EQ(t.summary.iterationsDone, 1u, "ran");
        const NiccTrainingIteration& it = t.iterations[0];
        NS_TEST_EXPECT_MSG_EQ(it.allReduces[0].readyNs, 70000, "F + 30 us");
        NS_TEST_EXPECT_MSG_EQ(it.allReduces[2].readyNs, it.computeEndNs, "last at backward end");
        NS_TEST_EXPECT_MSG_EQ(it.endNs, it.allReduces[2].endNs + 10000, "optimizer after the last");

        const std::string bad = NiccWriteFile(dir, "bad.csv", "bytes,backward_us\n100,5\n0,5\n");
        keys.back() = "training_layers_file=" + bad;
        NS_TEST_EXPECT_MSG_EQ(NiccRunWith("leaf-spine", keys, &r, &err), false, "a zero-byte layer");
        NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "training_layers_file"), true, err);
        NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "bad.csv:3:"), true, err);
        const std::string noHeader = NiccWriteFile(dir, "nohdr.csv", "100,5\n");
        keys.back() = "training_layers_file=" + noHeader;
        NS_TEST_EXPECT_MSG_EQ(NiccRunWith("leaf-spine", keys, &r, &err), false, "no header");
        NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "nohdr.csv:1: expected the header"), true, err);
        keys.back() = "training_layers_file=" + (dir / "missing.csv").string();
        NS_TEST_EXPECT_MSG_EQ(NiccRunWith("leaf-spine", keys, &r, &err), false, "missing file");
        NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "cannot open"), true, err);
        std::filesystem::remove_all(dir);
    }
};

class ShippedResnetTest : public TestCase
{
  public:
    ShippedResnetTest()
        : TestCase("training-resnet50.toml: 16 ranks, 3 DDP buckets, one iteration")
    {
    }

  private:
    void DoRun() override
    {
        NiccScenario s;
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(NiccLoadScenarioFile(NiccShipped("training-resnet50.toml"), &s, &err), true, err);
        NS_TEST_EXPECT_MSG_EQ(s.Get("training"), "resnet50", "preset");
        NS_TEST_EXPECT_MSG_EQ(s.Get("topology"), "rail", "rail fabric");
        NS_TEST_ASSERT_MSG_EQ(s.Set("training_iterations", "1", &err) && s.Set("stop_ms", "110", &err), true, err);
        NiccScenarioResult r;
        NS_TEST_ASSERT_MSG_EQ(s.Run(&r, &err), true, err);
        const NiccTrainingResult& t = r.training;
        NS_TEST_EXPECT_MSG_EQ(t.ranks, 16u, "4 servers x 4 NICs");
        NS_TEST_EXPECT_MSG_EQ(t.rings, 4u, "one ring per rail");
        NS_TEST_EXPECT_MSG_EQ(t.spec.gradBytes, 51200000u, "25.6 M x 2 B");
        NS_TEST_ASSERT_MSG_EQ(t.buckets.size(), 3u, "1 MiB, 25 MiB, rest");
        NS_TEST_EXPECT_MSG_EQ(t.buckets[0].bytes, 1048576u, "first bucket");
        NS_TEST_EXPECT_MSG_EQ(t.computeNs, 103644000, "256 / 2470 s");
        NS_TEST_ASSERT_MSG_EQ(t.summary.iterationsDone, 1u, "one iteration");
        const NiccTrainingIteration& it = t.iterations[0];
        const NiccTrainingAllReduce& last = it.allReduces.back();
        NS_TEST_EXPECT_MSG_EQ(it.DurationNs(), t.computeNs + (last.endNs - last.startNs),
                              "earlier buckets hidden: only the last bucket's all-reduce is exposed");
        NS_TEST_EXPECT_MSG_GT(last.endNs - last.startNs, 0, "the last all-reduce takes time");
    }
};

} // namespace

class NiccTrainingTestSuite : public TestSuite
{
  public:
    NiccTrainingTestSuite()
        : TestSuite("nicc-training", UNIT)
    {
        AddTestCase(new BucketSplitTest, TestCase::QUICK);
        AddTestCase(new HandTimelineTest(false), TestCase::QUICK);
        AddTestCase(new HandTimelineTest(true), TestCase::QUICK);
        AddTestCase(new BadSpecTest, TestCase::QUICK);
        AddTestCase(new SimIterationsTest, TestCase::QUICK);
        AddTestCase(new BadTrainingKeysTest, TestCase::QUICK);
        AddTestCase(new LayersFileTest, TestCase::QUICK);
        AddTestCase(new ShippedResnetTest, TestCase::QUICK);
    }
};

NiccTrainingTestSuite g_niccTrainingTestSuite;
