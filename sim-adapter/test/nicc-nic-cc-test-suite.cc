/*
 * nicc-nic-cc-test-suite.cc — congestion control end to end on the nicc NIC
 * ("nicc-nic-cc"; the NIC's own mechanisms: nicc-nic), each a built-in
 * scenario run to a bound and checked against a property:
 *   - lossless without CC: 16-to-1 incast with cc=none pauses the fabric
 *     (PFC frames > 0) and still loses nothing (0 drops, every flow done,
 *     bytes delivered == bytes sent, no retransmission);
 *   - HPCC vs DCQCN in the 16-to-1 incast: after 1 ms, the p99 bottleneck
 *     queue stays below 40 KB with HPCC, DCQCN's is at least 3x HPCC's and
 *     above 120 KB; no drops with PFC on; HPCC-PINT (one utilisation code
 *     per packet, stamped by the switch) also stays below 40 KB, busy;
 *   - DCQCN fairness: two long flows, the second 1 ms later; from 3 ms until
 *     the first finishes every 500 us window gives each flow within 10% of
 *     the fair share, with the link >= 85% used;
 *   - DCQCN with CnpOnAck (cnp_on_ack=1): no CNP packet is sent, every flow
 *     completes, and the ACK-borne signal cuts the senders (under a quarter
 *     of the PFC pauses of cc=none).
 * All full size (16 senders, 100 Gb/s, 1 us links); ~0.5 s in total.
 *
 *   ./nicc-sim-test-runner --suite=nicc-nic-cc --verbose
 */
#include "ns3/nicc-module.h"
#include "ns3/test.h"

#include "nicc-test-util.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

// ---------------------------------------------------------------------------
class LosslessNoCcTest : public TestCase
{
  public:
    LosslessNoCcTest()
        : TestCase("cc=none 16-to-1 incast: PFC pauses, nothing is lost, every flow completes")
    {
    }

  private:
    void DoRun() override
    {
        NiccScenarioResult r;
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(
            NiccRunWith("incast", {"cc=none", "size_bytes=1000000", "stop_ms=10"}, &r, &err),
            true,
            err);
        uint64_t sent = 0;
        for (const auto& f : r.flows)
        {
            sent += f.sizeBytes;
        }
        NS_TEST_ASSERT_MSG_EQ(r.flows.size(), 16u, "16 flows");
        NS_TEST_ASSERT_MSG_EQ(r.Completed(), 16u, "every flow completes");
        NS_TEST_ASSERT_MSG_GT(r.pauseFrames, 0u, "without CC the fabric must pause");
        NS_TEST_ASSERT_MSG_EQ(r.drops, 0u, "lossless: zero drops");
        NS_TEST_ASSERT_MSG_EQ(r.bytesDelivered, sent, "bytes delivered == bytes sent");
        NS_TEST_ASSERT_MSG_EQ(r.bytesAcked, sent, "every byte acknowledged");
        NS_TEST_ASSERT_MSG_EQ(r.retxPackets, 0u, "no loss, so no retransmission");
        NS_TEST_ASSERT_MSG_EQ(r.timeouts, 0u, "no timeout");
        // The bottleneck ran at line rate: 16 MB take >= 1.32 ms on the wire
        // and the last flow finishes within 5% of that.
        int64_t last = 0;
        for (const auto& f : r.flows)
        {
            last = std::max(last, f.startNs + f.fctNs);
        }
        NS_TEST_ASSERT_MSG_LT(last, 1390000, "PFC keeps the bottleneck busy");
    }
};

// ---------------------------------------------------------------------------
// CnpOnAck: DCQCN's congestion signal rides on the ACKs (the HPCC
// simulator's receiver); no CNP packet is sent, and the senders still back
// off (far fewer PFC pauses than without CC).
class CnpOnAckTest : public TestCase
{
  public:
    CnpOnAckTest()
        : TestCase("DCQCN with cnp_on_ack: no CNP packets, the ACKs' CE echoes cut the rate")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::string> base = {"size_bytes=1000000", "stop_ms=10"};
        NiccScenarioResult none;
        NiccScenarioResult acks;
        NiccScenarioResult cnps;
        std::string err;
        auto with = [&base](std::vector<std::string> more) {
            more.insert(more.begin(), base.begin(), base.end());
            return more;
        };
        NS_TEST_ASSERT_MSG_EQ(NiccRunWith("incast", with({"cc=none"}), &none, &err), true, err);
        NS_TEST_ASSERT_MSG_EQ(NiccRunWith("incast", with({"cc=dcqcn", "cnp_on_ack=1"}), &acks, &err), true, err);
        NS_TEST_ASSERT_MSG_EQ(NiccRunWith("incast", with({"cc=dcqcn"}), &cnps, &err), true, err);
        NS_TEST_EXPECT_MSG_EQ(acks.Completed(), 16u, "every flow completes");
        NS_TEST_EXPECT_MSG_EQ(acks.cnpsSent, 0u, "no CNP packet with cnp_on_ack");
        NS_TEST_EXPECT_MSG_GT(cnps.cnpsSent, 0u, "CNP packets without it");
        NS_TEST_EXPECT_MSG_EQ(acks.drops, 0u, "lossless");
        NS_TEST_EXPECT_MSG_LT(acks.pauseFrames * 4, none.pauseFrames, "the senders backed off");
    }
};

// ---------------------------------------------------------------------------
class HpccQueueTest : public TestCase
{
  public:
    HpccQueueTest()
        : TestCase("16-to-1 incast after convergence: HPCC and HPCC-PINT p99 queue < 40 KB, DCQCN's "
                   "several times larger, no drops")
    {
    }

  private:
    void DoRun() override
    {
        // 10 MB per sender does not finish in 3 ms: all 16 stay active; the
        // queue is sampled every 1 us from 1 ms on.
        const std::vector<std::string> common = {"size_bytes=10000000",
                                                 "stop_ms=3",
                                                 "warmup_us=1000"};
        std::vector<std::string> h = common;
        h.push_back("cc=hpcc");
        std::vector<std::string> d = common;
        d.push_back("cc=dcqcn");
        std::vector<std::string> pt = common;
        pt.push_back("cc=hpcc-pint");
        NiccScenarioResult hpcc;
        NiccScenarioResult dcqcn;
        NiccScenarioResult pint;
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(NiccRunWith("incast", h, &hpcc, &err), true, err);
        NS_TEST_ASSERT_MSG_EQ(NiccRunWith("incast", pt, &pint, &err), true, err);
        NS_TEST_ASSERT_MSG_LT(pint.QueuePercentile(0.99), 40000u, "HPCC-PINT p99 queue after convergence");
        NS_TEST_ASSERT_MSG_GT(pint.utilization, 0.85, "HPCC-PINT keeps the bottleneck busy");
        NS_TEST_ASSERT_MSG_EQ(pint.drops, 0u, "no drops with PFC (HPCC-PINT)");
        NS_TEST_ASSERT_MSG_EQ(NiccRunWith("incast", d, &dcqcn, &err), true, err);
        const uint64_t hq = hpcc.QueuePercentile(0.99);
        const uint64_t dq = dcqcn.QueuePercentile(0.99);
        NS_TEST_ASSERT_MSG_EQ(hpcc.queueHist.Count(), 2000u, "2 ms of 1 us samples");
        NS_TEST_ASSERT_MSG_LT(hq, 40000u, "HPCC p99 queue after convergence");
        NS_TEST_ASSERT_MSG_GT(dq, 3 * hq, "DCQCN's p99 queue is several times HPCC's");
        NS_TEST_ASSERT_MSG_GT(dq, 120000u, "DCQCN's p99 queue is several times the HPCC bound");
        NS_TEST_ASSERT_MSG_EQ(hpcc.drops, 0u, "no drops with PFC (HPCC)");
        NS_TEST_ASSERT_MSG_EQ(dcqcn.drops, 0u, "no drops with PFC (DCQCN)");
        NS_TEST_ASSERT_MSG_GT(hpcc.utilization, 0.85, "HPCC keeps the bottleneck busy");
        // Every sender progressed under HPCC (no starvation in the incast).
        for (const auto& f : hpcc.flows)
        {
            NS_TEST_ASSERT_MSG_GT(f.ackedBytes, 500000u, "flow " << f.id << " starved");
        }
    }
};

// ---------------------------------------------------------------------------
class DcqcnFairnessTest : public TestCase
{
  public:
    DcqcnFairnessTest()
        : TestCase("DCQCN: two flows converge to within 10% of fair share and stay there")
    {
    }

  private:
    void DoRun() override
    {
        // Fairness scenario defaults: DCQCN paper profile, RED 100/400 KB,
        // flow 2 starts 1 ms after flow 1, 40 MB each, 500 us windows.
        NiccScenarioResult r;
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(NiccRunWith("fairness", {"cc=dcqcn"}, &r, &err), true, err);
        NS_TEST_ASSERT_MSG_EQ(r.flows.size(), 2u, "two flows");
        NS_TEST_ASSERT_MSG_EQ(r.Completed(), 2u, "both complete");
        const auto& s = r.rateSeriesGbps;
        const double w = r.rateWindowUs;
        // Windows [3 ms, first completion): both flows active throughout.
        const int64_t firstEnd =
            std::min(r.flows[0].startNs + r.flows[0].fctNs, r.flows[1].startNs + r.flows[1].fctNs);
        uint32_t checked = 0;
        for (size_t k = 0; k < s[0].size() && k < s[1].size(); ++k)
        {
            const double t0 = static_cast<double>(k) * w * 1000.0;
            if (t0 < 3e6 || t0 + w * 1000.0 > static_cast<double>(firstEnd))
            {
                continue;
            }
            const double fair = (s[0][k] + s[1][k]) / 2;
            for (int i = 0; i < 2; ++i)
            {
                NS_TEST_ASSERT_MSG_LT_OR_EQ(std::abs(s[i][k] - fair),
                                            0.10 * fair,
                                            "flow " << i << " in window at " << t0 / 1e3
                                                    << " us: " << s[i][k] << " Gb/s vs fair "
                                                    << fair);
            }
            NS_TEST_ASSERT_MSG_GT(2 * fair, 85.0, "link used in window at " << t0 / 1e3 << " us");
            ++checked;
        }
        NS_TEST_ASSERT_MSG_GT_OR_EQ(checked, 4u, "at least 2 ms of both flows checked");
        NS_TEST_ASSERT_MSG_EQ(r.drops, 0u, "no drops");
    }
};

// ---------------------------------------------------------------------------
class NiccNicCcTestSuite : public TestSuite
{
  public:
    NiccNicCcTestSuite()
        : TestSuite("nicc-nic-cc", UNIT)
    {
        AddTestCase(new LosslessNoCcTest, TestCase::QUICK);
        AddTestCase(new HpccQueueTest, TestCase::QUICK);
        AddTestCase(new DcqcnFairnessTest, TestCase::QUICK);
        AddTestCase(new CnpOnAckTest, TestCase::QUICK);
    }
};

NiccNicCcTestSuite g_niccNicCcTestSuite; //!< static registration

} // namespace
