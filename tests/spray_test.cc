// Unit tests of spray path selection (engine/nicc/spray.h, prng.h): PRNG
// known answers, port mapping, Validate() errors, and the rules of each
// policy with a fake clock (PLB, DLB and the ECN path rule: spray_lb_test.cc). Known-answer values were computed with an
// independent Python model written from docs/spray.md.
#include "nicc/ecn_path.h"
#include "nicc/spray.h"

#include <gtest/gtest.h>

#include "spray_test_util.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <set>
#include <vector>

namespace sp = nicc::spray;
using nicc::StatusCode;
using sp::Feedback;
using sp::Policy;

using namespace spray_test;

namespace {

// ---------------------------------------------------------------------------
// PRNG
// ---------------------------------------------------------------------------

TEST(Prng, Xorshift32StepKnownAnswers) {
  // The bare step from state 1 (Marsaglia's xorshift32, shifts 13/17/5).
  uint32_t x = 1;
  EXPECT_EQ(nicc::PrngNext(&x), 270369u);
  EXPECT_EQ(nicc::PrngNext(&x), 67634689u);
  EXPECT_EQ(nicc::PrngNext(&x), 2647435461u);
  EXPECT_EQ(nicc::PrngNext(&x), 307599695u);
  EXPECT_EQ(x, 307599695u);
}

TEST(Prng, SeededKnownAnswers) {
  EXPECT_EQ(nicc::PrngSeed(1), 0x9E3779B9u);
  EXPECT_EQ(nicc::PrngSeed(0), 0x6E696363u);  // zero seed -> fixed non-zero state
  EXPECT_EQ(nicc::PrngSeed(0x12345678), 0x887934B8u);
  uint32_t x = nicc::PrngSeed(1);
  EXPECT_EQ(nicc::PrngNext(&x), 0x510C4619u);
  EXPECT_EQ(nicc::PrngNext(&x), 0xE02E553Eu);
  EXPECT_EQ(nicc::PrngNext(&x), 0x7BB98F3Au);
  EXPECT_EQ(nicc::PrngNext(&x), 0x0183A8B5u);
  x = nicc::PrngSeed(0);
  EXPECT_EQ(nicc::PrngNext(&x), 0x02A16E41u);
  EXPECT_EQ(nicc::PrngNext(&x), 0xC2426755u);
  x = nicc::PrngSeed(0x12345678);
  EXPECT_EQ(nicc::PrngNext(&x), 0x73221A2Fu);
  EXPECT_EQ(nicc::PrngNext(&x), 0x3C9BA19Cu);
  EXPECT_EQ(nicc::PrngByte(0x73221A2Fu), 0x73u);
}

TEST(Prng, NeverReachesZero) {
  uint32_t x = nicc::PrngSeed(0);
  for (int i = 0; i < 100000; ++i) ASSERT_NE(nicc::PrngNext(&x), 0u);
}

// ---------------------------------------------------------------------------
// Ports
// ---------------------------------------------------------------------------

TEST(Ports, FlowLabelVectors) {
  EXPECT_EQ(sp::FlowLabelToPort(0x00000), 0xC000);
  EXPECT_EQ(sp::FlowLabelToPort(0xFFFFF), 0xFFC0);
  EXPECT_EQ(sp::FlowLabelToPort(0x12345), 0xE341);
  EXPECT_EQ(sp::FlowLabelToPort(0x03FFF), 0xFFFF);
  EXPECT_EQ(sp::FlowLabelToPort(0xFC000), 0xC03F);
  EXPECT_EQ(sp::FlowLabelToPort(0xABCDE), 0xFCF4);
}

TEST(Ports, EvPortsFollowFlowLabels) {
  const sp::Config cfg = C(Policy::kOps, 8);
  EXPECT_EQ(cfg.port_base, 0xE341);
  std::set<uint16_t> ports;
  for (uint32_t i = 0; i < 256; ++i) {
    const uint16_t port = sp::EvPort(cfg, i);
    // EV i is the port of flow label fl ^ i.
    EXPECT_EQ(port, sp::FlowLabelToPort(sp::EvFlowLabel(cfg, i))) << i;
    EXPECT_GE(port, 0xC000);
    EXPECT_EQ(sp::EvIndex(cfg, port), static_cast<int32_t>(i));
    ports.insert(port);
  }
  EXPECT_EQ(ports.size(), 256u);
}

TEST(Ports, ExplicitBaseAndForeignPorts) {
  sp::Params p = P(Policy::kOps, 4);
  p.base_port = 0xD000;
  const sp::Config cfg = C(p);
  EXPECT_EQ(sp::EvPort(cfg, 0), 0xD000);
  EXPECT_EQ(sp::EvPort(cfg, 15), 0xD00F);
  EXPECT_EQ(sp::EvIndex(cfg, 0xD00F), 15);
  EXPECT_EQ(sp::EvIndex(cfg, 0xD010), -1);
  EXPECT_EQ(sp::EvIndex(cfg, 0xCFFF), -1);
}

// ---------------------------------------------------------------------------
// Validate / Compile
// ---------------------------------------------------------------------------

struct BadCase {
  const char* field;
  StatusCode code;
  void (*mutate)(sp::Params*);
};

TEST(SprayParams, DefaultsValidForEveryPolicy) {
  for (uint32_t pol = 0; pol < sp::kPolicyCount; ++pol) {
    const auto policy = static_cast<Policy>(pol);
    const uint32_t k = policy == Policy::kDlb ? 4 : policy == Policy::kBitmap ? 6 : 8;
    const nicc::Status st = P(policy, k).Validate();
    EXPECT_TRUE(st.ok()) << pol << " " << (st.field ? st.field : "");
  }
}

TEST(SprayParams, ValidateNamesTheField) {
  const BadCase cases[] = {
      {"policy", StatusCode::kOutOfRange,
       [](sp::Params* p) { p->policy = static_cast<Policy>(6); }},
      {"ev_bits", StatusCode::kOutOfRange, [](sp::Params* p) { p->ev_bits = 9; }},
      {"ev_bits", StatusCode::kUnsupported,
       [](sp::Params* p) {
         p->policy = Policy::kBitmap;
         p->ev_bits = 7;
       }},
      {"ev_bits", StatusCode::kUnsupported,
       [](sp::Params* p) {
         p->policy = Policy::kDlb;
         p->ev_bits = 5;
       }},
      {"flow_label", StatusCode::kOutOfRange, [](sp::Params* p) { p->flow_label = 0x100000; }},
      {"base_port", StatusCode::kOutOfRange, [](sp::Params* p) { p->base_port = 0xBFF0; }},
      {"base_port", StatusCode::kOutOfRange, [](sp::Params* p) { p->base_port = 0x10000; }},
      {"base_port", StatusCode::kInconsistent, [](sp::Params* p) { p->base_port = 0xC001; }},
      {"bitmap_ecn_penalty", StatusCode::kOutOfRange,
       [](sp::Params* p) { p->bitmap_ecn_penalty = 16; }},
      {"bitmap_nack_penalty", StatusCode::kOutOfRange,
       [](sp::Params* p) { p->bitmap_nack_penalty = 16; }},
      {"reps_max_reuse", StatusCode::kZero, [](sp::Params* p) { p->reps_max_reuse = 0; }},
      {"reps_max_reuse", StatusCode::kOutOfRange, [](sp::Params* p) { p->reps_max_reuse = 4; }},
      {"reps_freeze_us", StatusCode::kOutOfRange,
       [](sp::Params* p) { p->reps_freeze_us = 2200000; }},
      {"plb_rehash_rounds", StatusCode::kZero, [](sp::Params* p) { p->plb_rehash_rounds = 0; }},
      {"plb_rehash_rounds", StatusCode::kOutOfRange,
       [](sp::Params* p) { p->plb_rehash_rounds = 256; }},
      {"plb_idle_rehash_rounds", StatusCode::kInconsistent,
       [](sp::Params* p) { p->plb_idle_rehash_rounds = 13; }},
      {"plb_cong_thresh_pct", StatusCode::kZero, [](sp::Params* p) { p->plb_cong_thresh_pct = 0; }},
      {"plb_cong_thresh_pct", StatusCode::kOutOfRange,
       [](sp::Params* p) { p->plb_cong_thresh_pct = 101; }},
      {"plb_suspend_us", StatusCode::kOutOfRange,
       [](sp::Params* p) { p->plb_suspend_us = 2200000; }},
      {"dlb_gain_shift", StatusCode::kZero, [](sp::Params* p) { p->dlb_gain_shift = 0; }},
      {"dlb_gain_shift", StatusCode::kOutOfRange, [](sp::Params* p) { p->dlb_gain_shift = 8; }},
      {"dlb_rtt_shift", StatusCode::kOutOfRange, [](sp::Params* p) { p->dlb_rtt_shift = 17; }},
      {"dlb_hysteresis", StatusCode::kOutOfRange, [](sp::Params* p) { p->dlb_hysteresis = 65536; }},
      {"dlb_probe_shift", StatusCode::kOutOfRange, [](sp::Params* p) { p->dlb_probe_shift = 8; }},
      {"dlb_min_dwell", StatusCode::kOutOfRange, [](sp::Params* p) { p->dlb_min_dwell = 256; }},
  };
  for (const BadCase& c : cases) {
    sp::Params p = P(Policy::kOps, 4);
    c.mutate(&p);
    const nicc::Status st = p.Validate();
    EXPECT_EQ(st.code, c.code) << c.field;
    ASSERT_NE(st.field, nullptr) << c.field;
    EXPECT_STREQ(st.field, c.field);
    // Compile refuses and leaves the output alone.
    sp::Config cfg{};
    cfg.port_base = 0x1234;
    EXPECT_EQ(sp::Compile(p, &cfg).code, c.code) << c.field;
    EXPECT_EQ(cfg.port_base, 0x1234) << c.field;
  }
}

TEST(SprayParams, EdgesThatAreValid) {
  sp::Params p = P(Policy::kBitmap, 6);
  p.base_port = 0xFFC0;  // aligned to 64, last 64 ports
  p.plb_idle_rehash_rounds = 0;
  p.reps_freeze_us = 0;
  p.plb_suspend_us = sp::kMaxPeriodUs;
  p.dlb_probe_shift = 0;
  EXPECT_TRUE(p.Validate().ok());
  const sp::Config cfg = C(p);
  EXPECT_EQ(sp::EvPort(cfg, 63), 0xFFFF);
  EXPECT_EQ(cfg.dlb_probe_mask, 0);
  static_assert(sp::Params::Defaults(Policy::kPlb, 3, 0).Validate().ok(),
                "Validate is usable at compile time");
}

// ---------------------------------------------------------------------------
// ecmp
// ---------------------------------------------------------------------------

TEST(Ecmp, OneFixedEvWhateverTheFeedback) {
  const sp::Config cfg = C(Policy::kEcmp, 8);
  sp::SprayState st;
  sp::Init(cfg, &st, 42);
  for (int i = 0; i < 100; ++i) {
    const nicc::Action a = sp::Select(cfg, &st, 1000u * static_cast<uint32_t>(i));
    ASSERT_TRUE(a.Has(nicc::kActUseEv));
    EXPECT_EQ(a.ev, 0xE341);
    sp::OnFeedback(cfg, &st, a.ev, static_cast<Feedback>(i % 4), 5000, 0);
  }
}

// ---------------------------------------------------------------------------
// ops
// ---------------------------------------------------------------------------

std::vector<uint32_t> OpsRound(const sp::Config& cfg, sp::OpsState* s) {
  std::vector<uint32_t> r;
  for (uint32_t i = 0; i <= cfg.ev_mask; ++i) r.push_back(Idx(cfg, sp::OpsSelect(cfg, s)));
  return r;
}

TEST(Ops, KnownAnswerRounds) {
  const sp::Config cfg3 = C(Policy::kOps, 3);
  sp::OpsState s;
  sp::OpsInit(cfg3, &s, 1);
  EXPECT_EQ(OpsRound(cfg3, &s), (std::vector<uint32_t>{5, 4, 7, 6, 0, 1, 2, 3}));
  EXPECT_EQ(OpsRound(cfg3, &s), (std::vector<uint32_t>{7, 6, 0, 1, 2, 3, 5, 4}));
  EXPECT_EQ(OpsRound(cfg3, &s), (std::vector<uint32_t>{1, 5, 6, 2, 4, 0, 3, 7}));
  const sp::Config cfg4 = C(Policy::kOps, 4);
  sp::OpsInit(cfg4, &s, 0xC0FFEE);
  EXPECT_EQ(OpsRound(cfg4, &s),
            (std::vector<uint32_t>{4, 0, 9, 7, 1, 15, 6, 2, 14, 10, 3, 13, 11, 5, 12, 8}));
  EXPECT_EQ(OpsRound(cfg4, &s),
            (std::vector<uint32_t>{14, 7, 12, 10, 1, 8, 3, 15, 4, 13, 6, 0, 11, 2, 9, 5}));
}

TEST(Ops, EveryRoundIsAPermutationAndDiffersFromThePrevious) {
  for (uint32_t k = 0; k <= sp::kMaxEvBits; ++k) {
    const sp::Config cfg = C(Policy::kOps, k);
    for (uint32_t seed : {0u, 1u, 7u, 0xDEADBEEFu}) {
      sp::OpsState s;
      sp::OpsInit(cfg, &s, seed);
      std::vector<uint32_t> prev;
      std::set<std::vector<uint32_t>> distinct;
      for (int round = 0; round < 64; ++round) {
        std::vector<uint32_t> r = OpsRound(cfg, &s);
        std::vector<uint32_t> sorted = r;
        std::sort(sorted.begin(), sorted.end());
        for (uint32_t i = 0; i <= cfg.ev_mask; ++i)
          ASSERT_EQ(sorted[i], i) << "k=" << k << " seed=" << seed << " round=" << round;
        if (k >= 1 && round > 0) {
          ASSERT_NE(r, prev) << "k=" << k << " round=" << round;
        }
        distinct.insert(r);
        prev = r;
      }
      // The order varies: with k >= 4 almost every one of 64 rounds differs.
      // 2^(2k-1) possible orders: 64 draws from 128 (k = 4) give ~50
      // distinct, from 512 (k = 5) ~60.
      if (k == 4) {
        EXPECT_GE(distinct.size(), 44u) << "seed=" << seed;
      }
      if (k >= 5) {
        EXPECT_GE(distinct.size(), 54u) << "k=" << k << " seed=" << seed;
      }
      if (k == 1) {
        EXPECT_EQ(distinct.size(), 2u);
      }
    }
  }
}

TEST(Ops, RoundsDoNotAlignWithSelectsAcrossFlows) {
  // Two flows with different seeds do not send in the same order.
  const sp::Config cfg = C(Policy::kOps, 5);
  sp::OpsState a, b;
  sp::OpsInit(cfg, &a, 1);
  sp::OpsInit(cfg, &b, 2);
  EXPECT_NE(OpsRound(cfg, &a), OpsRound(cfg, &b));
}

// ---------------------------------------------------------------------------
// bitmap
// ---------------------------------------------------------------------------

// The bitmap's sends must equal the OPS candidate stream of the same seed,
// except that the first `skips` turns of `ev` (the only penalised EV) go to
// the EV after it in index order.
void ExpectSkipsExactly(uint32_t k, uint32_t ev, Feedback kind, uint32_t feedbacks,
                        uint32_t skips) {
  const sp::Config cfg = C(Policy::kBitmap, k);
  sp::BitmapState bm;
  sp::BitmapInit(cfg, &bm, 99);
  sp::OpsState shadow;
  sp::OpsInit(cfg, &shadow, 99);
  for (uint32_t i = 0; i < feedbacks; ++i)
    sp::BitmapOnFeedback(cfg, &bm, sp::EvPort(cfg, ev), kind);
  ASSERT_EQ(sp::BitmapPenalty(bm, ev), skips);
  uint32_t skipped = 0;
  const uint32_t n = cfg.ev_mask + 1u;
  for (uint32_t sent = 0; sent < 40 * n; ++sent) {
    uint32_t expect = Idx(cfg, sp::OpsSelect(cfg, &shadow));
    if (expect == ev && skipped < skips) {
      ++skipped;
      expect = (ev + 1u) & cfg.ev_mask;
    }
    ASSERT_EQ(Idx(cfg, sp::BitmapSelect(cfg, &bm)), expect) << "send " << sent;
  }
  EXPECT_EQ(skipped, skips);
  EXPECT_EQ(sp::BitmapPenalty(bm, ev), 0u);
}

TEST(Bitmap, PenalisedEvSkippedExactlyItsPenalty) {
  ExpectSkipsExactly(3, 2, Feedback::kEcn, 1, 1);
  ExpectSkipsExactly(3, 2, Feedback::kEcn, 3, 3);
  ExpectSkipsExactly(4, 9, Feedback::kNack, 1, 4);
  ExpectSkipsExactly(4, 9, Feedback::kNack, 2, 8);
  ExpectSkipsExactly(6, 63, Feedback::kTimeout, 1, 15);
  ExpectSkipsExactly(6, 0, Feedback::kEcn, 40, 15);  // saturates at 15
  ExpectSkipsExactly(2, 1, Feedback::kGood, 5, 0);   // good ACKs add nothing
}

TEST(Bitmap, PenaltyArithmetic) {
  const sp::Config cfg = C(Policy::kBitmap, 6);
  sp::BitmapState bm;
  sp::BitmapInit(cfg, &bm, 5);
  const uint16_t p7 = sp::EvPort(cfg, 7);
  const uint16_t p6 = sp::EvPort(cfg, 6);  // shares byte 3 with EV 7
  sp::BitmapOnFeedback(cfg, &bm, p7, Feedback::kEcn);
  EXPECT_EQ(sp::BitmapPenalty(bm, 7), 1u);
  sp::BitmapOnFeedback(cfg, &bm, p7, Feedback::kNack);
  EXPECT_EQ(sp::BitmapPenalty(bm, 7), 5u);
  sp::BitmapOnFeedback(cfg, &bm, p6, Feedback::kNack);
  EXPECT_EQ(sp::BitmapPenalty(bm, 6), 4u);
  EXPECT_EQ(sp::BitmapPenalty(bm, 7), 5u);
  sp::BitmapOnFeedback(cfg, &bm, p7, Feedback::kTimeout);
  EXPECT_EQ(sp::BitmapPenalty(bm, 7), 15u);
  sp::BitmapOnFeedback(cfg, &bm, p7, Feedback::kNack);
  EXPECT_EQ(sp::BitmapPenalty(bm, 7), 15u);
  EXPECT_EQ(sp::BitmapPenalty(bm, 6), 4u);
  sp::BitmapOnFeedback(cfg, &bm, 0x1234, Feedback::kTimeout);  // foreign port
  for (uint32_t i = 0; i < 64; ++i) {
    if (i != 6 && i != 7) {
      EXPECT_EQ(sp::BitmapPenalty(bm, i), 0u) << i;
    }
  }
}

TEST(Bitmap, AllPenalisedStillSends) {
  const sp::Config cfg = C(Policy::kBitmap, 2);
  sp::BitmapState bm;
  sp::BitmapInit(cfg, &bm, 3);
  for (uint32_t i = 0; i < 4; ++i)
    sp::BitmapOnFeedback(cfg, &bm, sp::EvPort(cfg, i), Feedback::kTimeout);
  // No EV is clean: each selection uses its OPS candidate anyway and takes
  // one off the candidate's penalty, so each round of 4 takes one off every
  // EV's and 15 rounds drain them. (In the last round, the EVs drained
  // earlier in it are clean and take the later candidates' turns.)
  for (int round = 0; round < 15; ++round) {
    std::set<uint32_t> sent;
    for (int i = 0; i < 4; ++i) {
      const int32_t idx = sp::EvIndex(cfg, sp::BitmapSelect(cfg, &bm));
      ASSERT_GE(idx, 0);
      sent.insert(static_cast<uint32_t>(idx));
    }
    if (round < 14) {
      ASSERT_EQ(sent.size(), 4u) << round;
    }
    for (uint32_t i = 0; i < 4; ++i)
      ASSERT_EQ(sp::BitmapPenalty(bm, i), 14u - static_cast<uint32_t>(round)) << round;
  }
  // Clean again: plain OPS rounds.
  std::set<uint32_t> round;
  for (int i = 0; i < 4; ++i) round.insert(Idx(cfg, sp::BitmapSelect(cfg, &bm)));
  EXPECT_EQ(round.size(), 4u);
}

// A penalised candidate's turn goes to the first clean EV after it in
// index order, across the 32-EV word boundary and around the end; only the
// candidate's penalty drops.
TEST(Bitmap, NextCleanEvInIndexOrder) {
  const sp::Config cfg = C(Policy::kBitmap, 6);
  for (const uint32_t clean : {0u, 5u, 31u, 32u, 33u, 63u}) {
    sp::BitmapState bm;
    sp::BitmapInit(cfg, &bm, 11);
    sp::OpsState shadow;
    sp::OpsInit(cfg, &shadow, 11);
    for (uint32_t i = 0; i < 64; ++i)
      if (i != clean) sp::BitmapOnFeedback(cfg, &bm, sp::EvPort(cfg, i), Feedback::kTimeout);
    for (uint32_t sent = 0; sent < 64; ++sent) {
      const uint32_t cand = Idx(cfg, sp::OpsSelect(cfg, &shadow));
      const uint32_t got = Idx(cfg, sp::BitmapSelect(cfg, &bm));
      ASSERT_EQ(got, clean) << "clean " << clean << " send " << sent;
      if (cand != clean) {
        ASSERT_EQ(sp::BitmapPenalty(bm, cand), 14u) << cand;
      }
    }
    for (uint32_t i = 0; i < 64; ++i)
      ASSERT_EQ(sp::BitmapPenalty(bm, i), i == clean ? 0u : 14u) << i;
  }
  // Two clean EVs: the one after the candidate (cyclically) wins.
  const sp::Config c4 = C(Policy::kBitmap, 4);
  sp::BitmapState bm;
  sp::BitmapInit(c4, &bm, 21);
  sp::OpsState shadow;
  sp::OpsInit(c4, &shadow, 21);
  for (uint32_t i = 0; i < 16; ++i)
    if (i != 3 && i != 12) sp::BitmapOnFeedback(c4, &bm, sp::EvPort(c4, i), Feedback::kTimeout);
  for (uint32_t sent = 0; sent < 16; ++sent) {
    const uint32_t cand = Idx(c4, sp::OpsSelect(c4, &shadow));
    const uint32_t want = cand == 3 || cand == 12 ? cand : (cand > 3 && cand < 12 ? 12u : 3u);
    ASSERT_EQ(Idx(c4, sp::BitmapSelect(c4, &bm)), want) << cand;
  }
}

// ---------------------------------------------------------------------------
// reps
// ---------------------------------------------------------------------------

sp::Config RepsCfg(uint32_t k, uint32_t reuse = 1, uint32_t freeze_us = 100) {
  sp::Params p = P(Policy::kReps, k);
  p.reps_max_reuse = reuse;
  p.reps_freeze_us = freeze_us;
  return C(p);
}

TEST(Reps, ExploresWithThePrngWhenEmpty) {
  const sp::Config cfg = RepsCfg(4);
  sp::RepsState s;
  sp::RepsInit(cfg, &s, 7);
  std::vector<uint32_t> got;
  for (int i = 0; i < 6; ++i) got.push_back(Idx(cfg, sp::RepsSelect(cfg, &s, 0)));
  EXPECT_EQ(got, (std::vector<uint32_t>{9, 3, 2, 14, 8, 5}));
}

TEST(Reps, RecyclesOnlyCleanEvsInOrder) {
  const sp::Config cfg = RepsCfg(4);
  sp::RepsState s, shadow;
  sp::RepsInit(cfg, &s, 11);
  sp::RepsInit(cfg, &shadow, 11);  // predicts exploration
  sp::RepsOnFeedback(cfg, &s, sp::EvPort(cfg, 3), Feedback::kGood, 0);
  sp::RepsOnFeedback(cfg, &s, sp::EvPort(cfg, 12), Feedback::kEcn, 0);
  sp::RepsOnFeedback(cfg, &s, sp::EvPort(cfg, 5), Feedback::kGood, 0);
  sp::RepsOnFeedback(cfg, &s, sp::EvPort(cfg, 13), Feedback::kNack, 0);
  sp::RepsOnFeedback(cfg, &s, 0x0101, Feedback::kGood, 0);  // foreign: ignored
  EXPECT_EQ(s.count, 2);
  EXPECT_EQ(Idx(cfg, sp::RepsSelect(cfg, &s, 0)), 3u);
  EXPECT_EQ(Idx(cfg, sp::RepsSelect(cfg, &s, 0)), 5u);
  // Each clean ACK bought one send: now empty, so explore (same draws as a
  // fresh state of the same seed, which never recycled anything).
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(sp::RepsSelect(cfg, &s, 0), sp::RepsSelect(cfg, &shadow, 0));
}

TEST(Reps, FullRingDropsTheOldest) {
  const sp::Config cfg = RepsCfg(8);
  sp::RepsState s;
  sp::RepsInit(cfg, &s, 1);
  for (uint32_t ev = 100; ev < 110; ++ev)
    sp::RepsOnFeedback(cfg, &s, sp::EvPort(cfg, ev), Feedback::kGood, 0);
  EXPECT_EQ(s.count, 8);
  for (uint32_t ev = 102; ev < 110; ++ev) EXPECT_EQ(Idx(cfg, sp::RepsSelect(cfg, &s, 0)), ev);
  EXPECT_EQ(s.count, 0);
}

TEST(Reps, EachCachedEvReusedAtMostMaxReuseTimes) {
  const sp::Config cfg = RepsCfg(6, /*reuse=*/3);
  sp::RepsState s;
  sp::RepsInit(cfg, &s, 1);
  sp::RepsOnFeedback(cfg, &s, sp::EvPort(cfg, 40), Feedback::kGood, 0);
  sp::RepsOnFeedback(cfg, &s, sp::EvPort(cfg, 41), Feedback::kGood, 0);
  std::vector<uint32_t> got;
  for (int i = 0; i < 6; ++i) got.push_back(Idx(cfg, sp::RepsSelect(cfg, &s, 0)));
  EXPECT_EQ(got, (std::vector<uint32_t>{40, 41, 40, 41, 40, 41}));
  EXPECT_EQ(s.count, 0);
}

TEST(Reps, FreezeOnTimeoutReplaysKnownGoodUntilExitTime) {
  const sp::Config cfg = RepsCfg(8, 1, /*freeze_us=*/50);
  sp::RepsState s;
  sp::RepsInit(cfg, &s, 1);
  const uint32_t t0 = 0xFFFFF000u;  // the freeze window wraps the clock
  for (uint32_t ev : {10u, 20u, 30u})
    sp::RepsOnFeedback(cfg, &s, sp::EvPort(cfg, ev), Feedback::kGood, t0);
  sp::RepsOnFeedback(cfg, &s, sp::EvPort(cfg, 20), Feedback::kTimeout, t0);
  EXPECT_TRUE(s.flags & sp::kRepsFrozen);
  EXPECT_EQ(s.freeze_until_ns, t0 + 50000u);
  EXPECT_EQ(s.count, 2);  // the timed-out EV was purged
  // Until the exit time: 10, 30, 10, 30, ... without using up the cache.
  const uint32_t exit_ns = t0 + 50000u;
  for (uint32_t i = 0; i < 20; ++i) {
    const uint32_t now = t0 + 2400u * i;  // last one at t0 + 45600
    EXPECT_EQ(Idx(cfg, sp::RepsSelect(cfg, &s, now)), i % 2 == 0 ? 10u : 30u) << i;
  }
  EXPECT_EQ(Idx(cfg, sp::RepsSelect(cfg, &s, exit_ns - 1u)), 10u);
  EXPECT_EQ(s.count, 2);
  EXPECT_TRUE(s.flags & sp::kRepsFrozen);
  // At the exit time: thawed; the cache is spent once more, then explore.
  EXPECT_EQ(Idx(cfg, sp::RepsSelect(cfg, &s, exit_ns)), 30u);
  EXPECT_FALSE(s.flags & sp::kRepsFrozen);
  EXPECT_EQ(Idx(cfg, sp::RepsSelect(cfg, &s, exit_ns)), 10u);
  EXPECT_EQ(s.count, 0);
  uint32_t expect_state = s.prng;
  const uint32_t explored = Idx(cfg, sp::RepsSelect(cfg, &s, exit_ns + 1u));
  EXPECT_EQ(explored, nicc::PrngByte(nicc::PrngNext(&expect_state)) & 0xFFu);
}

TEST(Reps, FreezeWithEmptyCacheExploresAndZeroFreezeDisables) {
  const sp::Config cfg = RepsCfg(4, 1, 0);
  sp::RepsState s;
  sp::RepsInit(cfg, &s, 1);
  sp::RepsOnFeedback(cfg, &s, sp::EvPort(cfg, 2), Feedback::kTimeout, 10);
  EXPECT_FALSE(s.flags & sp::kRepsFrozen);
  const sp::Config cfg2 = RepsCfg(4);
  sp::RepsInit(cfg2, &s, 1);
  sp::RepsOnFeedback(cfg2, &s, sp::EvPort(cfg2, 2), Feedback::kTimeout, 10);
  EXPECT_TRUE(s.flags & sp::kRepsFrozen);
  const int32_t idx = sp::EvIndex(cfg2, sp::RepsSelect(cfg2, &s, 20));
  EXPECT_GE(idx, 0);
  EXPECT_LE(idx, 15);
}

// ---------------------------------------------------------------------------
// Dispatch
// ---------------------------------------------------------------------------

TEST(Dispatch, MatchesThePerPolicyFunctions) {
  for (uint32_t pol = 0; pol < sp::kPolicyCount; ++pol) {
    const auto policy = static_cast<Policy>(pol);
    const sp::Config cfg = C(policy, 3);
    sp::SprayState a, b;
    std::memset(&a, 0, sizeof a);
    std::memset(&b, 0, sizeof b);
    sp::Init(cfg, &a, 21);
    sp::Init(cfg, &b, 21);
    for (uint32_t i = 0; i < 500; ++i) {
      const uint32_t now = 700u * i;
      const nicc::Action act = sp::Select(cfg, &a, now);
      ASSERT_EQ(act.flags, nicc::kActUseEv);
      uint16_t direct = 0;
      switch (policy) {
        case Policy::kEcmp:
          direct = sp::EcmpSelect(cfg, &b.ecmp);
          break;
        case Policy::kOps:
          direct = sp::OpsSelect(cfg, &b.ops);
          break;
        case Policy::kBitmap:
          direct = sp::BitmapSelect(cfg, &b.bitmap);
          break;
        case Policy::kReps:
          direct = sp::RepsSelect(cfg, &b.reps, now);
          break;
        case Policy::kPlb:
          direct = sp::PlbSelect(cfg, &b.plb);
          break;
        case Policy::kDlb:
          direct = sp::DlbSelect(cfg, &b.dlb);
          break;
      }
      ASSERT_EQ(act.ev, direct) << "policy " << pol << " packet " << i;
      const auto kind = static_cast<Feedback>((i * 7) % 5 == 0 ? 1 : (i % 31 == 0 ? 3 : 0));
      sp::OnFeedback(cfg, &a, act.ev, kind, 9000, now);
      switch (policy) {
        case Policy::kEcmp:
        case Policy::kOps:
          break;
        case Policy::kBitmap:
          sp::BitmapOnFeedback(cfg, &b.bitmap, act.ev, kind);
          break;
        case Policy::kReps:
          sp::RepsOnFeedback(cfg, &b.reps, act.ev, kind, now);
          break;
        case Policy::kPlb:
          sp::PlbOnFeedback(cfg, &b.plb, kind, now);
          break;
        case Policy::kDlb:
          sp::DlbOnFeedback(cfg, &b.dlb, act.ev, kind, 9000);
          break;
      }
    }
    EXPECT_EQ(std::memcmp(&a, &b, sizeof a), 0) << "policy " << pol;
  }
}

TEST(Dispatch, StateBudgets) {
  EXPECT_LE(sizeof(sp::OpsState), 32u);
  EXPECT_LE(sizeof(sp::EcmpState), 32u);
  EXPECT_LE(sizeof(sp::PlbState), 32u);
  EXPECT_LT(sizeof(sp::RepsState), 25u);
  EXPECT_EQ(sizeof(sp::BitmapState), 40u);
  EXPECT_LE(sizeof(sp::DlbState), 64u);
  EXPECT_LE(sizeof(sp::SprayState), 64u);
}

}  // namespace
