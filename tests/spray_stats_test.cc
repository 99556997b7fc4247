// Statistical tests of spray path selection: exact OPS balance over 10^5
// selections, REPS steering away from a bad path, and the uniformity of the
// PRNG draws the policies use. All runs are seeded, so every number here is
// deterministic; the bounds leave room for other seeds.
#include <gtest/gtest.h>

#include <cstdio>
#include <deque>
#include <utility>
#include <vector>

#include "nicc/spray.h"

namespace sp = nicc::spray;
using sp::Feedback;
using sp::Policy;

namespace {

sp::Config C(Policy policy, uint32_t ev_bits) {
  sp::Config cfg{};
  EXPECT_TRUE(sp::Compile(sp::Params::Defaults(policy, ev_bits, 0xABCDE), &cfg).ok());
  return cfg;
}

uint32_t Idx(const sp::Config& cfg, uint16_t port) {
  const int32_t i = sp::EvIndex(cfg, port);
  EXPECT_GE(i, 0);
  return static_cast<uint32_t>(i);
}

constexpr uint32_t kSelections = 100000;

TEST(OpsStats, HundredThousandSelectionsAreExactlyBalanced) {
  for (uint32_t k = 0; k <= sp::kMaxEvBits; ++k) {
    const sp::Config cfg = C(Policy::kOps, k);
    const uint32_t n = cfg.ev_mask + 1u;
    for (uint32_t seed : {1u, 2u, 0xFEEDu}) {
      sp::SprayState st;
      sp::Init(cfg, &st, seed);
      std::vector<uint32_t> count(n, 0);
      for (uint32_t i = 0; i < kSelections; ++i) ++count[Idx(cfg, sp::Select(cfg, &st, i).ev)];
      // Every complete round gives each EV one packet; the last, partial
      // round gives kSelections mod n EVs one more.
      const uint32_t base = kSelections / n;
      uint32_t extra = 0;
      for (uint32_t ev = 0; ev < n; ++ev) {
        ASSERT_GE(count[ev], base) << "k=" << k << " ev=" << ev;
        ASSERT_LE(count[ev], base + 1u) << "k=" << k << " ev=" << ev;
        extra += count[ev] - base;
      }
      EXPECT_EQ(extra, kSelections % n) << "k=" << k;
      if (kSelections % n == 0) {
        for (uint32_t ev = 0; ev < n; ++ev) EXPECT_EQ(count[ev], base);
      }
    }
  }
}

TEST(BitmapStats, WithoutFeedbackBitmapIsOps) {
  const sp::Config cfg = C(Policy::kBitmap, 5);
  sp::SprayState st;
  sp::Init(cfg, &st, 3);
  std::vector<uint32_t> count(32, 0);
  for (uint32_t i = 0; i < kSelections; ++i) ++count[Idx(cfg, sp::Select(cfg, &st, 0).ev)];
  for (uint32_t ev = 0; ev < 32; ++ev) EXPECT_EQ(count[ev], kSelections / 32) << ev;
}

// ACK-clocked flow: `window` packets in flight; the feedback of the oldest
// arrives, then the next packet is sent. Packets on EV `bad` come back as
// `bad_kind`, the rest clean; the feedback of `lost_pct`% of packets (drawn
// at random) never arrives, so REPS' cache runs dry that often and it must
// explore. Returns the share of packets sent on `bad` after `warmup`.
double BadShare(const sp::Config& cfg, uint32_t seed, uint32_t bad, Feedback bad_kind,
                uint32_t window, uint32_t packets, uint32_t warmup, uint32_t lost_pct = 0) {
  uint32_t loss_rng = nicc::PrngSeed(seed + 1000u);
  sp::SprayState st;
  sp::Init(cfg, &st, seed);
  std::deque<uint16_t> in_flight;
  uint32_t on_bad = 0;
  uint32_t now = 0;
  for (uint32_t i = 0; i < packets; ++i) {
    now += 100;  // 100 ns per packet
    if (in_flight.size() == window) {
      const uint16_t port = in_flight.front();
      in_flight.pop_front();
      const Feedback kind = Idx(cfg, port) == bad ? bad_kind : Feedback::kGood;
      if (nicc::PrngNext(&loss_rng) % 100u >= lost_pct)
        sp::OnFeedback(cfg, &st, port, kind, 8000, now);
    }
    const uint16_t port = sp::Select(cfg, &st, now).ev;
    in_flight.push_back(port);
    if (i >= warmup && Idx(cfg, port) == bad) ++on_bad;
  }
  return static_cast<double>(on_bad) / (packets - warmup);
}

TEST(RepsStats, OneBadPathOfEightGetsUnderFivePercent) {
  // 10^5 packets, the first 10^4 are warm-up. Without lost feedback the
  // cache never runs dry once the bad EV has left it: 0 after warm-up.
  // With lost feedback, every loss and every bad packet's feedback is an
  // exploration, 1 in 8 of them on the bad EV: share = (lost + share) / 8,
  // so about lost / 7 (2.9% at 20% lost).
  const sp::Config cfg = C(Policy::kReps, 3);
  for (Feedback kind : {Feedback::kEcn, Feedback::kNack}) {
    for (uint32_t lost_pct : {0u, 10u, 20u}) {
      for (uint32_t window : {4u, 16u, 64u}) {
        for (uint32_t seed : {1u, 42u}) {
          const double share = BadShare(cfg, seed, 5, kind, window, kSelections, 10000, lost_pct);
          std::printf("reps 1-of-8 bad (%s) lost %2u%% window %2u seed %2u: %.3f%% on the bad EV\n",
                      kind == Feedback::kEcn ? "ecn " : "nack", lost_pct, window, seed,
                      100.0 * share);
          EXPECT_LT(share, 0.05) << "lost " << lost_pct << " window " << window << " seed " << seed;
          if (lost_pct == 0) {
            EXPECT_EQ(share, 0.0);
          } else {
            EXPECT_NEAR(share, lost_pct / 700.0, lost_pct / 700.0 * 0.1);
          }
        }
      }
    }
  }
}

TEST(RepsStats, OpsBaselineSendsAnEighthToTheBadPath) {
  // The same harness with OPS, to show it measures what it claims: an
  // oblivious sprayer cannot avoid the bad EV.
  const sp::Config cfg = C(Policy::kOps, 3);
  const double share = BadShare(cfg, 1, 5, Feedback::kEcn, 16, kSelections, 10000);
  EXPECT_NEAR(share, 0.125, 0.001);
}

TEST(BitmapStats, MarkedPathIsUsedLess) {
  // Every packet on EV 5 marked: ECN +1 means it is skipped about once per
  // use; NACK +4 about four times per use.
  const sp::Config cfg = C(Policy::kBitmap, 3);
  const double ecn = BadShare(cfg, 1, 5, Feedback::kEcn, 16, kSelections, 10000);
  const double nack = BadShare(cfg, 1, 5, Feedback::kNack, 16, kSelections, 10000);
  std::printf("bitmap 1-of-8 bad: ecn %.4f%%, nack %.4f%% on the bad EV\n", 100.0 * ecn,
              100.0 * nack);
  EXPECT_LT(ecn, 0.10);
  EXPECT_LT(nack, 0.05);
  EXPECT_LT(nack, ecn);
}

TEST(PrngStats, TopByteIsUniform) {
  // Chi-square of the top byte over 2^20 outputs, 255 degrees of freedom:
  // the 0.1% critical value is 330.5.
  uint32_t x = nicc::PrngSeed(2024);
  std::vector<uint32_t> bins(256, 0);
  constexpr uint32_t kDraws = 1u << 20;
  for (uint32_t i = 0; i < kDraws; ++i) ++bins[nicc::PrngByte(nicc::PrngNext(&x))];
  const double expect = kDraws / 256.0;
  double chi2 = 0;
  for (uint32_t b : bins) chi2 += (b - expect) * (b - expect) / expect;
  std::printf("prng top-byte chi-square (255 dof): %.1f\n", chi2);
  EXPECT_LT(chi2, 330.5);
}

TEST(RepsStats, ExplorationIsUniform) {
  const sp::Config cfg = C(Policy::kReps, 4);
  sp::RepsState s;
  sp::RepsInit(cfg, &s, 31);
  std::vector<uint32_t> count(16, 0);
  for (uint32_t i = 0; i < kSelections; ++i) ++count[Idx(cfg, sp::RepsSelect(cfg, &s, 0))];
  for (uint32_t ev = 0; ev < 16; ++ev) {
    EXPECT_NEAR(count[ev], kSelections / 16.0, kSelections / 16.0 * 0.05) << ev;
  }
}

TEST(PlbStats, RepathTargetsAreUniformOverTheOthers) {
  sp::Params p = sp::Params::Defaults(Policy::kPlb, 3, 0);
  p.plb_rehash_rounds = 1;
  p.plb_idle_rehash_rounds = 0;
  sp::Config cfg{};
  ASSERT_TRUE(sp::Compile(p, &cfg).ok());
  sp::PlbState s;
  sp::PlbInit(cfg, &s, 8);
  std::vector<uint32_t> moves(64, 0);  // [from * 8 + to]
  constexpr uint32_t kRepaths = 70000;
  for (uint32_t i = 0; i < kRepaths; ++i) {
    const uint32_t from = s.ev;
    (void)sp::PlbSelect(cfg, &s);
    sp::PlbOnFeedback(cfg, &s, Feedback::kEcn, 0);
    ASSERT_NE(s.ev, from);
    ++moves[from * 8 + s.ev];
  }
  // From each EV, each of the 7 others about equally often.
  for (uint32_t from = 0; from < 8; ++from) {
    uint32_t total = 0;
    for (uint32_t to = 0; to < 8; ++to) total += moves[from * 8 + to];
    for (uint32_t to = 0; to < 8; ++to) {
      if (to == from) continue;
      EXPECT_NEAR(moves[from * 8 + to], total / 7.0, total / 7.0 * 0.15) << from << "->" << to;
    }
  }
}

}  // namespace
