/*
 * nicc-lossless-test-suite.cc — "lossless means lossless" ("nicc-lossless"):
 *   - the MMU's buffer budget: required = classes x headroom sum + one frame
 *     per port; FitHeadroomToBuffer scales to fit, refuses below MinShared;
 *   - the pre-run check: a lossless incast whose headroom exceeds the buffer
 *     is refused naming the bytes it needs; headroom_policy=shrink runs it
 *     and counts overflow drops apart (drops_headroom_overflow);
 *   - loss recovery makes progress: lossy runs (PFC off, small buffer; and
 *     shrunk headroom) complete every flow with drops > 0, go-back-N and
 *     selective repeat;
 *   - the matrix: incast 16/64/128 senders x 1/10 us links x MTU 1 KB/4 KB/
 *     9 KB, PFC on, senders at line rate: every run is refused up front with
 *     the needed buffer in the message, or completes with 0 drops, at the
 *     default 16 MB buffer and at exactly the buffer the check asks for.
 *
 *   ./nicc-sim-test-runner --suite=nicc-lossless --verbose
 */
#include "ns3/nicc-module.h"
#include "ns3/test.h"

#include "nicc-test-util.h"
#include "ns3/uinteger.h"

#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// Closed-form headroom bytes of one (port, class) on a 100 Gb/s link.
uint64_t
Headroom100G(uint64_t delayNs, uint32_t mtu)
{
    return 2 * 100000000000ull / 8 * delayNs / 1000000000ull + 3ull * (mtu + 32 + 42);
}

class MmuBudgetTest : public TestCase
{
  public:
    MmuBudgetTest()
        : TestCase("MMU budget: classes x headroom + one frame per port; shrink to fit")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<NiccSwitchMmu> mmu = CreateObject<NiccSwitchMmu>();
        mmu->SetAttribute("BufferSize", UintegerValue(1000000));
        mmu->SetAttribute("NumClasses", UintegerValue(3)); // 2 lossless classes
        mmu->AddPort(200000, 1100);
        mmu->AddPort(100000, 1100);
        mmu->AddPort(100000, 9100);
        NS_TEST_EXPECT_MSG_EQ(mmu->GetLosslessClasses(), 2u, "classes 1 and 2");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetMinSharedBytes(), 11300u, "1100 + 1100 + 9100");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetRequiredBufferBytes(), 2u * 400000u + 11300u, "");
        NS_TEST_EXPECT_MSG_EQ(mmu->FitHeadroomToBuffer(), true, "already fits");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetHeadroomMax(), 200000u, "unchanged when it fits");

        mmu->SetAttribute("BufferSize", UintegerValue(411300)); // budget 200 000 per class
        NS_TEST_EXPECT_MSG_EQ(mmu->FitHeadroomToBuffer(), true, "shrinks");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetHeadroomSize(0), 100000u, "halved");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetHeadroomSize(1), 50000u, "halved");
        NS_TEST_EXPECT_MSG_EQ((mmu->GetRequiredBufferBytes() <= 411300u), true, "fits now");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetSharedSize(), 11300u, "the minimal pool is left");

        // Headroom overflow is its own drop: fill (port 1, class 1) past 50 000 B.
        uint32_t admitted = 0;
        for (uint32_t k = 0; k < 100; ++k)
        {
            const NiccSwitchMmu::Admission a = mmu->Admit(1, 1, 1000);
            if (a == NiccSwitchMmu::DROP_HEADROOM)
            {
                break;
            }
            ++admitted;
        }
        NS_TEST_EXPECT_MSG_EQ(mmu->GetHeadroomOverflowDrops(), 1u, "one overflow drop");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetDrops(), 1u, "counted among all drops");
        NS_TEST_EXPECT_MSG_GT(admitted, 49u, "the shrunk headroom was used");

        mmu->SetAttribute("BufferSize", UintegerValue(11299));
        const uint64_t before = mmu->GetHeadroomSize(0);
        NS_TEST_EXPECT_MSG_EQ(mmu->FitHeadroomToBuffer(), false, "below the minimal pool");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetHeadroomSize(0), before, "nothing changed");
    }
};

class RefuseOrShrinkTest : public TestCase
{
  public:
    RefuseOrShrinkTest()
        : TestCase("64-to-1 incast, 10 us links, 16 MB: refused naming the buffer; shrink runs, "
                   "overflow drops counted apart, every flow done")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::string> base = {"cc=dcqcn", "senders=64", "size_bytes=200000",
                                               "delay_ns=10000", "stop_ms=50"};
        NiccScenarioResult r;
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(NiccRunWith("incast", base, &r, &err), false, "refused");
        // 65 ports x 253 294 B + 65 x 1 098 B.
        const uint64_t need = 65 * Headroom100G(10000, 1024) + 65 * 1098;
        NS_TEST_EXPECT_MSG_EQ(need, 16535480u, "closed form");
        NS_TEST_EXPECT_MSG_NE(err.find("needs 16 535 480 B of buffer"), std::string::npos, err);
        NS_TEST_EXPECT_MSG_NE(err.find("65 ports x 1 lossless class"), std::string::npos, err);
        NS_TEST_EXPECT_MSG_NE(err.find("buffer_bytes is 16 000 000 B"), std::string::npos, err);

        // One more byte of buffer and it runs, losslessly.
        std::vector<std::string> fits = base;
        fits.push_back("buffer_bytes=" + std::to_string(need));
        NS_TEST_ASSERT_MSG_EQ(NiccRunWith("incast", fits, &r, &err), true, err);
        NS_TEST_EXPECT_MSG_EQ(r.drops, 0u, "exactly the needed buffer is lossless");
        NS_TEST_EXPECT_MSG_EQ(r.Completed(), 64u, "");

        // Shrink with a buffer far too small for the headroom.
        std::vector<std::string> shrink = {"cc=dcqcn", "senders=16", "size_bytes=200000",
                                           "delay_ns=10000", "stop_ms=50", "buffer_bytes=1500000",
                                           "headroom_policy=shrink"};
        for (const char* recovery : {"gbn", "sr"})
        {
            std::vector<std::string> sets = shrink;
            sets.push_back(std::string("recovery=") + recovery);
            NiccScenarioResult s;
            NS_TEST_ASSERT_MSG_EQ(NiccRunWith("incast", sets, &s, &err), true, err);
            NS_TEST_EXPECT_MSG_GT(s.dropsHeadroomOverflow, 0u, recovery);
            NS_TEST_EXPECT_MSG_EQ((s.dropsHeadroomOverflow <= s.drops), true, recovery);
            NS_TEST_EXPECT_MSG_EQ(s.Completed(), 16u, recovery);
            NS_TEST_EXPECT_MSG_EQ(s.bytesDelivered, 16u * 200000u, recovery);
        }
    }
};

class LossyProgressTest : public TestCase
{
  public:
    LossyProgressTest()
        : TestCase("PFC off, small buffer: go-back-N and selective repeat complete every flow")
    {
    }

  private:
    void DoRun() override
    {
        for (const char* recovery : {"gbn", "sr"})
        {
            for (const char* cc : {"none", "dcqcn"})
            {
                NiccScenarioResult r;
                std::string err;
                const std::string what = std::string(recovery) + " cc=" + cc;
                NS_TEST_ASSERT_MSG_EQ(NiccRunWith("incast",
                                              {std::string("cc=") + cc, "senders=16",
                                               "size_bytes=100000", "pfc=false",
                                               "buffer_bytes=200000", "stop_ms=100",
                                               std::string("recovery=") + recovery},
                                              &r,
                                              &err),
                                      true,
                                      err);
                NS_TEST_EXPECT_MSG_GT(r.drops, 0u, what);
                NS_TEST_EXPECT_MSG_EQ(r.dropsHeadroomOverflow, 0u, what + ": no headroom when lossy");
                NS_TEST_EXPECT_MSG_EQ(r.Completed(), 16u, what);
                NS_TEST_EXPECT_MSG_EQ(r.bytesDelivered, 16u * 100000u, what);
            }
        }
    }
};

/// The matrix, each cell at the default 16 MB buffer and at the tightest
/// buffer the check accepts (the shared pool is then one frame per port:
/// nearly every packet goes through the headroom, the hardest case for its
/// size). cc=none: senders at line rate, 256 KB each.
class LosslessMatrixTest : public TestCase
{
  public:
    LosslessMatrixTest()
        : TestCase("incast 16, 64, 128 senders x 1, 10 us x MTU 1, 4, 9 KB: refused with the "
                   "buffer needed, or 0 drops (also at the tightest accepted buffer)")
    {
    }

  private:
    static std::string Grouped(uint64_t v)
    {
        std::string d = std::to_string(v);
        for (int k = static_cast<int>(d.size()) - 3; k > 0; k -= 3)
        {
            d.insert(static_cast<size_t>(k), " ");
        }
        return d;
    }

    void DoRun() override
    {
        uint32_t refused = 0;
        uint32_t ran = 0;
        uint64_t tightPauses = 0;
        for (uint32_t senders : {16u, 64u, 128u})
        {
            for (uint64_t delayNs : {1000u, 10000u})
            {
                for (uint32_t mtu : {1024u, 4096u, 9000u})
                {
                    const uint64_t need = (senders + 1) * (Headroom100G(delayNs, mtu) + mtu + 74);
                    for (uint64_t buffer : {uint64_t{16000000}, need})
                    {
                        const std::string what = std::to_string(senders) + " senders, " +
                                                 std::to_string(delayNs) + " ns, mtu " +
                                                 std::to_string(mtu) + ", buffer " +
                                                 std::to_string(buffer);
                        NiccScenarioResult r;
                        std::string err;
                        const bool ok = NiccRunWith(
                            "incast",
                            {"cc=none", "senders=" + std::to_string(senders), "size_bytes=256000",
                             "delay_ns=" + std::to_string(delayNs), "mtu=" + std::to_string(mtu),
                             "buffer_bytes=" + std::to_string(buffer), "stop_ms=20"},
                            &r,
                            &err);
                        if (need > buffer)
                        {
                            ++refused;
                            NS_TEST_EXPECT_MSG_EQ(ok, false, what + ": must be refused");
                            NS_TEST_EXPECT_MSG_NE(err.find("needs " + Grouped(need) + " B"),
                                                  std::string::npos,
                                                  what + ": " + err);
                            break; // the tightest buffer is the same refusal
                        }
                        ++ran;
                        NS_TEST_ASSERT_MSG_EQ(ok, true, what + ": " + err);
                        NS_TEST_EXPECT_MSG_EQ(r.drops, 0u, what);
                        NS_TEST_EXPECT_MSG_EQ(r.Completed(), senders, what);
                        NS_TEST_EXPECT_MSG_EQ(r.bytesDelivered, senders * 256000ull, what);
                        if (buffer == need)
                        {
                            NS_TEST_EXPECT_MSG_GT(r.pauseFrames, 0u, what + ": PFC was exercised");
                            tightPauses += r.pauseFrames;
                        }
                    }
                }
            }
        }
        NS_TEST_EXPECT_MSG_EQ(refused, 6u, "64 and 128 senders at 10 us");
        NS_TEST_EXPECT_MSG_EQ(ran, 24u, "12 cells x 2 buffers");
        NS_TEST_EXPECT_MSG_GT(tightPauses, 1000u, "");
    }
};

class NiccLosslessTestSuite : public TestSuite
{
  public:
    NiccLosslessTestSuite()
        : TestSuite("nicc-lossless", UNIT)
    {
        AddTestCase(new MmuBudgetTest, TestCase::QUICK);
        AddTestCase(new RefuseOrShrinkTest, TestCase::QUICK);
        AddTestCase(new LossyProgressTest, TestCase::QUICK);
        AddTestCase(new LosslessMatrixTest, TestCase::QUICK);
    }
};

NiccLosslessTestSuite g_niccLosslessTestSuite;

} // namespace
