/*
 * nicc-link-util-test-suite.cc — fabric link utilization ("nicc-link-util"):
 *   - the statistics on hand-computed utilizations (max / mean, Jain,
 *     idle share) and the window over hand-made bins;
 *   - one flow across a 2-leaf x 2-spine leaf-spine under ECMP: one uplink
 *     of the sending leaf carries it, the other stays idle, so over those
 *     two Jain = 0.5 and max / mean = 2; the series adds up to the links'
 *     byte counters;
 *   - the key off and on leaves every flow's completion time unchanged
 *     (a sprayed ring all-reduce); incast / fairness refuse the key.
 * ~1 s in total (Release).
 */
#include "nicc-test-util.h"

#include "ns3/nicc-module.h"
#include "ns3/test.h"

#include <cmath>
#include <numeric>

using namespace ns3;

namespace
{

class LinkUtilStatsTest : public TestCase
{
  public:
    LinkUtilStatsTest()
        : TestCase("link utilization statistics: max over mean, Jain, idle share, window over bins")
    {
    }

  private:
    void DoRun() override
    {
        NiccLinkUtilStats st = NiccComputeLinkUtilStats({1.0, 0.0});
        NS_TEST_EXPECT_MSG_EQ_TOL(st.jain, 0.5, 1e-12, "one of two links busy: Jain 1/2");
        NS_TEST_EXPECT_MSG_EQ_TOL(st.maxOverMean, 2.0, 1e-12, "max / mean 2");
        NS_TEST_EXPECT_MSG_EQ_TOL(st.idleShare, 0.5, 1e-12, "one of two idle");
        // 0.8, 0.4, 0.04, 0: sum 1.24, squares 0.8016, Jain = 1.5376 / (4 * 0.8016).
        st = NiccComputeLinkUtilStats({0.8, 0.4, 0.04, 0.0});
        NS_TEST_EXPECT_MSG_EQ_TOL(st.jain, 1.5376 / 3.2064, 1e-12, "Jain by hand");
        NS_TEST_EXPECT_MSG_EQ_TOL(st.mean, 0.31, 1e-12, "mean");
        NS_TEST_EXPECT_MSG_EQ_TOL(st.maxOverMean, 0.8 / 0.31, 1e-12, "max / mean");
        NS_TEST_EXPECT_MSG_EQ_TOL(st.idleShare, 0.5, 1e-12, "0.04 and 0 are below 5%");
        NS_TEST_EXPECT_MSG_EQ_TOL(NiccComputeLinkUtilStats({0.3, 0.3, 0.3}).jain, 1.0, 1e-12, "equal: Jain 1");
        st = NiccComputeLinkUtilStats({0.0, 0.0});
        NS_TEST_EXPECT_MSG_EQ(st.jain, 0.0, "all idle: Jain 0, not NaN");
        NS_TEST_EXPECT_MSG_EQ(st.maxOverMean, 0.0, "all idle: max / mean 0");
        NS_TEST_EXPECT_MSG_EQ(NiccComputeLinkUtilStats({}).links, 0u, "no links");

        // Two links at 8 Gb/s, bins of 1 us: 1000 B = full line in a bin.
        NiccLinkUtilSeries s;
        s.from = {"a", "b"};
        s.to = {"c", "d"};
        s.bps = {8e9, 8e9};
        s.binStartNs = {0, 1000, 2000, 3000};
        s.binEndNs = {1000, 2000, 3000, 3500};
        s.bytes = {1000, 0, 500, 0, 1000, 1000, 500, 500};
        int64_t span = 0;
        std::vector<double> u = NiccLinkUtilWindow(s, 1000, 2500, &span);
        NS_TEST_ASSERT_MSG_EQ(u.size(), 2u, "one value per link");
        NS_TEST_EXPECT_MSG_EQ(span, 2000, "bins 1 and 2 overlap [1000, 2500)");
        NS_TEST_EXPECT_MSG_EQ_TOL(u[0], 1500.0 / 2000.0, 1e-12, "link a: 1500 B in 2 us at 1 B/ns");
        NS_TEST_EXPECT_MSG_EQ_TOL(u[1], 1000.0 / 2000.0, 1e-12, "link b");
        u = NiccLinkUtilWindow(s, 0, 3500, &span);
        NS_TEST_EXPECT_MSG_EQ(span, 3500, "every bin, the last a half one");
        NS_TEST_EXPECT_MSG_EQ_TOL(u[0], 3000.0 / 3500.0, 1e-12, "link a over the run");
        NS_TEST_EXPECT_MSG_EQ(NiccLinkUtilWindow(s, 4000, 5000, &span).empty(), true, "no bin in the window");
        // Per bin: [1, 0], [0.5, 0], [1, 1]: Jain 0.5, 0.5, 1; max / mean 2, 2, 1.
        const NiccLinkUtilPerBin pb = NiccLinkUtilBins(s, 0, 2500);
        NS_TEST_EXPECT_MSG_EQ(pb.bins, 3u, "bins 0..2");
        NS_TEST_EXPECT_MSG_EQ_TOL(pb.jain, (0.5 + 0.5 + 1.0) / 3.0, 1e-12, "mean of the bins' Jain");
        NS_TEST_EXPECT_MSG_EQ_TOL(pb.maxOverMean, (2.0 + 2.0 + 1.0) / 3.0, 1e-12, "mean of max / mean");
        NS_TEST_EXPECT_MSG_EQ_TOL(pb.idleShare, 1.0 / 3.0, 1e-12, "one idle link in bins 0 and 1");
        NS_TEST_EXPECT_MSG_EQ_TOL(pb.max, 1.0, 1e-12, "a full bin");
        s.bytes[0] = 0; // bin 0 now idle throughout: skipped
        NS_TEST_EXPECT_MSG_EQ(NiccLinkUtilBins(s, 0, 1000).bins, 0u, "an idle bin does not count");
    }
};

/// Utilization of link from->to over the window of summary "link_util".
double
UtilOf(const NiccScenarioResult& r, const std::string& from, const std::string& to, uint64_t* bytes)
{
    const NiccLinkUtilSeries& s = r.linkUtil.series;
    int64_t span = 0;
    const std::vector<double> u = NiccLinkUtilWindow(s, s.firstNs, s.lastNs, &span);
    for (size_t l = 0; l < s.Links(); ++l)
    {
        if (s.from[l] == from && s.to[l] == to)
        {
            *bytes = 0;
            s.ForEachBin([&](int64_t, int64_t, const uint64_t* by) { *bytes += by[l]; });
            return u[l];
        }
    }
    return -1.0;
}

class OneFlowEcmpTest : public TestCase
{
  public:
    OneFlowEcmpTest()
        : TestCase("one flow on a 2-spine leaf-spine under ECMP: one uplink busy, one idle, Jain 0.5")
    {
    }

  private:
    void DoRun() override
    {
        const std::filesystem::path dir = NiccTestDir("link-util");
        const std::string flows = NiccWriteFile(dir, "one.csv", "src,dst,size_bytes,start_us\n0,1,2000000,1\n");
        NiccScenarioResult r;
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(NiccRunWith("leaf-spine",
                                          {"leaves=2", "spines=2", "hosts_per_leaf=1", "fabric_rate_gbps=100",
                                           "poisson_load=0", "switch_mode=ecmp", "spray=ecmp", "stop_ms=1",
                                           "flow_file=" + flows, "link_util_interval_us=5"},
                                          &r,
                                          &err),
                              true,
                              err);
        NS_TEST_ASSERT_MSG_EQ(r.Completed(), 1u, "the flow completes");
        const NiccLinkUtilSeries& s = r.linkUtil.series;
        NS_TEST_ASSERT_MSG_EQ(s.Links(), 8u, "2 leaves x 2 spines, both directions");
        NS_TEST_ASSERT_MSG_GT(s.Bins(), 30u, "about 160 us of flow in 5 us bins");
        NS_TEST_EXPECT_MSG_EQ(s.firstNs, 1000, "sampling starts with the flow file's first flow");
        NS_TEST_EXPECT_MSG_EQ(s.binStartNs.size(), 0u, "streamed to the spool, not held");
        size_t seen = 0;
        NS_TEST_EXPECT_MSG_EQ(s.ForEachBin([&](int64_t b0, int64_t b1, const uint64_t*) {
            if (++seen < s.Bins())
            {
                NS_TEST_EXPECT_MSG_EQ(b1 - b0, 5000, "whole bins of 5 us");
            }
        }),
                              true,
                              "the spooled bins read back");
        NS_TEST_EXPECT_MSG_EQ(seen, s.Bins(), "every bin");
        uint64_t b0 = 0;
        uint64_t b1 = 0;
        const double u0 = UtilOf(r, "leaf0", "spine0", &b0);
        const double u1 = UtilOf(r, "leaf0", "spine1", &b1);
        const double busy = std::max(u0, u1);
        NS_TEST_EXPECT_MSG_GT(busy, 0.8, "the hashed uplink runs near line rate");
        NS_TEST_EXPECT_MSG_EQ(std::min(b0, b1), 0u, "the other uplink carries nothing");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(b0 + b1, 2000000u, "the flow's bytes and headers");
        NS_TEST_EXPECT_MSG_LT(b0 + b1, 2200000u, "... and nothing else");
        const NiccLinkUtilStats st = NiccComputeLinkUtilStats({u0, u1});
        NS_TEST_EXPECT_MSG_EQ_TOL(st.jain, 0.5, 1e-12, "Jain over leaf0's uplinks");
        NS_TEST_EXPECT_MSG_EQ_TOL(st.maxOverMean, 2.0, 1e-12, "max / mean over leaf0's uplinks");
        NS_TEST_EXPECT_MSG_EQ_TOL(st.idleShare, 0.5, 1e-12, "idle share over leaf0's uplinks");
        // The series adds up to the links' counters over the whole run.
        for (const auto& l : r.links)
        {
            uint64_t sum = 0;
            if (l.kind == "fabric")
            {
                UtilOf(r, l.from, l.to, &sum);
                NS_TEST_EXPECT_MSG_EQ(sum, l.txBytes, "series total of " << l.from << "->" << l.to);
            }
        }
        // The down side mirrors it: the spine that got the flow sends it on.
        uint64_t d0 = 0;
        uint64_t d1 = 0;
        UtilOf(r, "spine0", "leaf1", &d0);
        UtilOf(r, "spine1", "leaf1", &d1);
        const bool sameSpine = (d0 > 0) == (b0 > 0) && (d1 > 0) == (b1 > 0);
        NS_TEST_EXPECT_MSG_EQ(sameSpine, true, "same spine up and down");
    }
};

class LinkUtilOffTest : public TestCase
{
  public:
    LinkUtilOffTest()
        : TestCase("link_util_interval_us off and on: every flow completes at the same time")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::string> base = {"leaves=2",       "spines=2",           "hosts_per_leaf=2",
                                               "poisson_load=0", "allreduce_bytes=400000", "spray=ops",
                                               "stop_ms=2"};
        NiccScenarioResult off;
        NiccScenarioResult on;
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(NiccRunWith("leaf-spine", base, &off, &err), true, err);
        std::vector<std::string> withKey = base;
        withKey.push_back("link_util_interval_us=1");
        NS_TEST_ASSERT_MSG_EQ(NiccRunWith("leaf-spine", withKey, &on, &err), true, err);
        NS_TEST_EXPECT_MSG_EQ(off.linkUtil.series.Bins(), 0u, "off: no series");
        NS_TEST_EXPECT_MSG_GT(on.linkUtil.series.Bins(), 10u, "on: a series");
        NS_TEST_ASSERT_MSG_EQ(off.flows.size(), on.flows.size(), "same flows");
        NS_TEST_ASSERT_MSG_GT(off.flows.size(), 0u, "the all-reduce ran");
        for (size_t i = 0; i < off.flows.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(off.flows[i].fctNs, on.flows[i].fctNs, "flow " << i);
            NS_TEST_EXPECT_MSG_EQ(off.flows[i].startNs, on.flows[i].startNs, "flow " << i);
        }
        NS_TEST_EXPECT_MSG_EQ(off.collectives[0].TotalNs(), on.collectives[0].TotalNs(), "all-reduce time");
        NS_TEST_EXPECT_MSG_EQ(off.dataPackets, on.dataPackets, "packets sent");
        // The ideal's inputs: 4 ranks, one ring, 2 * 3 steps of 100000 B.
        NS_TEST_EXPECT_MSG_EQ(on.linkUtil.allreduceRanks, 4u, "ranks");
        NS_TEST_EXPECT_MSG_EQ(on.linkUtil.allreduceRings, 1u, "rings");
        NS_TEST_EXPECT_MSG_EQ(on.linkUtil.allreduceRankBytes, 600000u, "2 (n - 1) chunks per rank");
        // A series too long to hold is refused before the run.
        NiccScenarioResult big;
        NS_TEST_EXPECT_MSG_EQ(NiccRunWith("leaf-spine", {"stop_ms=1000", "link_util_interval_us=0.001"}, &big, &err),
                              false,
                              "refused");
        NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "key 'link_util_interval_us': 0.001 us"), true, err);
        // Switch-to-switch links only: the one-switch scenarios refuse the key.
        NiccScenarioResult inc;
        NS_TEST_EXPECT_MSG_EQ(NiccRunWith("incast", {"link_util_interval_us=5"}, &inc, &err), false, "refused");
        NS_TEST_EXPECT_MSG_EQ(NiccContains(err, "key 'link_util_interval_us'"), true, err);
    }
};

class NiccLinkUtilTestSuite : public TestSuite
{
  public:
    NiccLinkUtilTestSuite()
        : TestSuite("nicc-link-util", UNIT)
    {
        AddTestCase(new LinkUtilStatsTest(), TestCase::QUICK);
        AddTestCase(new OneFlowEcmpTest(), TestCase::QUICK);
        AddTestCase(new LinkUtilOffTest(), TestCase::QUICK);
    }
};

static NiccLinkUtilTestSuite g_niccLinkUtilTestSuite;

} // namespace
