// Unit tests of the spray policies that repath on congestion rounds and
// feedback (engine/nicc/spray.h): PLB, DLB, and the NSCC ECN path rule
// (ecn_path.h), with a fake clock. The other policies, the PRNG, ports and
// Validate(): spray_test.cc.
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
// plb
// ---------------------------------------------------------------------------

// ACK-clocked flow with `window` packets in flight: each feedback is
// followed by one send, so the in-flight count never reaches 0. Returns
// the number of feedbacks until the EV changed (0 = never within `max`).
uint32_t PlbBusyFeedbacksToRepath(const sp::Config& cfg, sp::PlbState* s, uint32_t window,
                                  uint32_t max, Feedback (*kind_of)(uint32_t)) {
  const uint8_t start = s->ev;
  for (uint32_t i = 0; i < window; ++i) (void)sp::PlbSelect(cfg, s);
  for (uint32_t f = 1; f <= max; ++f) {
    sp::PlbOnFeedback(cfg, s, kind_of(f), 1000u * f);
    if (s->ev != start) return f;
    (void)sp::PlbSelect(cfg, s);
  }
  return 0;
}

TEST(Plb, RepathsExactlyAfterNCongestedRounds) {
  const sp::Config cfg = C(Policy::kPlb, 4);  // N = 12
  for (uint32_t window : {2u, 8u, 33u}) {
    sp::PlbState s;
    sp::PlbInit(cfg, &s, 5);
    const uint32_t f = PlbBusyFeedbacksToRepath(cfg, &s, window, 100 * window,
                                                [](uint32_t) { return Feedback::kEcn; });
    EXPECT_EQ(f, 12u * window) << "window " << window;
    EXPECT_EQ(s.cong_rounds, 0);
  }
}

TEST(Plb, NeverAfterNMinus1) {
  // 11 congested rounds, one clean round, repeated: never a repath.
  const sp::Config cfg = C(Policy::kPlb, 4);
  sp::PlbState s;
  sp::PlbInit(cfg, &s, 5);
  const uint32_t f = PlbBusyFeedbacksToRepath(cfg, &s, 8, 8 * 12 * 20, [](uint32_t fb) {
    const uint32_t round = (fb - 1) / 8;  // 0-based
    return round % 12 == 11 ? Feedback::kGood : Feedback::kEcn;
  });
  EXPECT_EQ(f, 0u);
  EXPECT_EQ(s.ev, 0);  // still the flow's own EV
}

TEST(Plb, HalfMarkedIsCongestedLessIsNot) {
  sp::Params p = P(Policy::kPlb, 3);
  p.plb_rehash_rounds = 1;
  p.plb_idle_rehash_rounds = 0;
  const sp::Config cfg = C(p);
  sp::PlbState s;
  // 4 of 8 marked: congested -> repath at the end of the first round.
  sp::PlbInit(cfg, &s, 5);
  EXPECT_EQ(
      PlbBusyFeedbacksToRepath(
          cfg, &s, 8, 8, [](uint32_t fb) { return fb % 2 ? Feedback::kNack : Feedback::kGood; }),
      8u);
  // 3 of 8: not congested.
  sp::PlbInit(cfg, &s, 5);
  EXPECT_EQ(PlbBusyFeedbacksToRepath(
                cfg, &s, 8, 64,
                [](uint32_t fb) { return fb % 8 < 3 ? Feedback::kEcn : Feedback::kGood; }),
            0u);
}

TEST(Plb, FewerRoundsWhenIdle) {
  // Lockstep: a window is sent, all of it is acked, nothing is in flight at
  // the end of each round: repath after exactly 3 rounds.
  const sp::Config cfg = C(Policy::kPlb, 4);
  sp::PlbState s;
  sp::PlbInit(cfg, &s, 9);
  const uint8_t start = s.ev;
  uint32_t rounds = 0;
  for (; rounds < 20 && s.ev == start; ++rounds) {
    for (int i = 0; i < 8; ++i) (void)sp::PlbSelect(cfg, &s);
    for (int i = 0; i < 8; ++i) {
      sp::PlbOnFeedback(cfg, &s, Feedback::kEcn, 100);
      if (i < 7) {
        ASSERT_EQ(s.ev, start) << "repath inside a round";
      }
    }
  }
  EXPECT_EQ(rounds, 3u);
  // With the idle rule off, idle flows wait the full 12 rounds.
  sp::Params p = P(Policy::kPlb, 4);
  p.plb_idle_rehash_rounds = 0;
  const sp::Config off = C(p);
  sp::PlbInit(off, &s, 9);
  rounds = 0;
  for (; rounds < 20 && s.ev == start; ++rounds) {
    for (int i = 0; i < 8; ++i) (void)sp::PlbSelect(off, &s);
    for (int i = 0; i < 8; ++i) sp::PlbOnFeedback(off, &s, Feedback::kEcn, 100);
  }
  EXPECT_EQ(rounds, 12u);
}

TEST(Plb, SuspendedAfterTimeout) {
  sp::Params p = P(Policy::kPlb, 4);
  p.plb_suspend_us = 1000;  // 1 ms
  const sp::Config cfg = C(p);
  sp::PlbState s;
  sp::PlbInit(cfg, &s, 3);
  const uint8_t start = s.ev;
  const uint32_t t_rto = 0xFFFF0000u;  // suspension spans the clock wrap
  for (int i = 0; i < 4; ++i) (void)sp::PlbSelect(cfg, &s);
  sp::PlbOnFeedback(cfg, &s, Feedback::kTimeout, t_rto);
  EXPECT_TRUE(s.flags & sp::kPlbSuspended);
  EXPECT_EQ(s.inflight, 0);
  // Busy, all marked, window 4, one round per 10 us: 12 rounds end 120 us
  // after the timeout, well inside the suspension -> no repath.
  uint32_t now = t_rto;
  for (int i = 0; i < 4; ++i) (void)sp::PlbSelect(cfg, &s);
  int round = 0;
  for (; round < 99; ++round) {
    now += 10000;  // each round closes 10 us after the previous one
    for (int i = 0; i < 4; ++i) {
      sp::PlbOnFeedback(cfg, &s, Feedback::kEcn, now);
      (void)sp::PlbSelect(cfg, &s);
    }
    if (s.ev != start) break;
  }
  // Round r (0-based) closes at t_rto + 10 us * (r + 1); the first close at
  // or past 1 ms (r = 99 -> t + 1000 us) is out of range here, so: none.
  EXPECT_EQ(s.ev, start);
  EXPECT_EQ(s.cong_rounds, 99);
  // The round closing exactly at t_rto + 1 ms ends the suspension: repath.
  now = t_rto + 1000000u;
  for (int i = 0; i < 4; ++i) {
    sp::PlbOnFeedback(cfg, &s, Feedback::kEcn, now);
    (void)sp::PlbSelect(cfg, &s);
  }
  EXPECT_NE(s.ev, start);
  EXPECT_FALSE(s.flags & sp::kPlbSuspended);
}

TEST(Plb, RepathTargetsFollowThePrng) {
  const sp::Config cfg = C(Policy::kPlb, 3);
  sp::PlbState s;
  sp::PlbInit(cfg, &s, 5);
  sp::Params p = P(Policy::kPlb, 3);
  p.plb_rehash_rounds = 1;
  p.plb_idle_rehash_rounds = 0;
  const sp::Config one = C(p);
  std::vector<uint32_t> seq;
  for (int r = 0; r < 4; ++r) {
    (void)sp::PlbSelect(one, &s);
    sp::PlbOnFeedback(one, &s, Feedback::kEcn, 0);
    seq.push_back(s.ev);
  }
  EXPECT_EQ(seq, (std::vector<uint32_t>{6, 5, 4, 3}));
}

// ---------------------------------------------------------------------------
// dlb
// ---------------------------------------------------------------------------

struct DlbRun {
  uint32_t switches = 0;
  uint32_t min_gap = 0xFFFFFFFFu;  // fewest feedbacks on cur between two moves
  uint32_t on_bad_after_warmup = 0;
  uint32_t sent_after_warmup = 0;
};

// Immediate feedback per packet. `marked(idx, i)` decides an ECN mark;
// rtt_ns(idx, i) the RTT sample.
template <class Marked, class Rtt>
DlbRun RunDlb(const sp::Config& cfg, sp::DlbState* s, uint32_t packets, uint32_t warmup,
              uint32_t bad, Marked marked, Rtt rtt_ns) {
  DlbRun out;
  uint8_t cur = s->cur;
  uint32_t on_cur = 0;
  bool moved = false;
  for (uint32_t i = 0; i < packets; ++i) {
    const uint16_t port = sp::DlbSelect(cfg, s);
    const uint32_t idx = Idx(cfg, port);
    if (i >= warmup) {
      ++out.sent_after_warmup;
      if (idx == bad) ++out.on_bad_after_warmup;
    }
    if (idx == cur) ++on_cur;
    sp::DlbOnFeedback(cfg, s, port, marked(idx, i) ? Feedback::kEcn : Feedback::kGood,
                      rtt_ns(idx, i));
    if (s->cur != cur) {
      if (i >= warmup) ++out.switches;
      if (moved && on_cur < out.min_gap) out.min_gap = on_cur;
      moved = true;
      on_cur = 0;
      cur = s->cur;
    }
  }
  return out;
}

TEST(Dlb, ConvergesToTheCleanPath) {
  const sp::Config cfg = C(Policy::kDlb, 2);
  sp::DlbState s;
  sp::DlbInit(cfg, &s, 2);
  const uint32_t bad = s.cur;  // the path it starts on is marked
  const DlbRun r = RunDlb(
      cfg, &s, 20000, 200, bad, [&](uint32_t idx, uint32_t) { return idx == bad; },
      [](uint32_t, uint32_t) { return 10000u; });
  EXPECT_NE(s.cur, bad);
  EXPECT_EQ(r.switches, 0u);  // settled within the warm-up, no flapping
  // Only probes reach the bad path: 1 in 16 packets probe, 1 in 4 probes.
  EXPECT_LE(r.on_bad_after_warmup * 64, r.sent_after_warmup + 64);
  EXPECT_GE(sp::DlbCost(s, bad), 200u);
}

TEST(Dlb, DoesNotFlapBetweenEqualPaths) {
  const sp::Config cfg = C(Policy::kDlb, 4);
  sp::DlbState s;
  sp::DlbInit(cfg, &s, 77);
  // Clean equal paths with RTT jitter of +-1 us around 12 us.
  uint32_t x = nicc::PrngSeed(1234);
  const DlbRun clean = RunDlb(
      cfg, &s, 50000, 0, 99, [](uint32_t, uint32_t) { return false; },
      [&](uint32_t, uint32_t) { return 11000u + (nicc::PrngNext(&x) >> 21); });
  EXPECT_EQ(clean.switches, 0u);
  // All paths equally marked (25%, random): noise can make another EV look
  // better, but a move never comes sooner than min_dwell (64) feedbacks on
  // the EV after the previous move, so there is no back-and-forth.
  sp::DlbInit(cfg, &s, 77);
  const DlbRun marked = RunDlb(
      cfg, &s, 50000, 0, 99, [&](uint32_t, uint32_t) { return (nicc::PrngNext(&x) >> 30) == 0; },
      [](uint32_t, uint32_t) { return 12000u; });
  std::printf("dlb equal 25%%-marked paths: %u moves in 50000 packets, min gap %u\n",
              marked.switches, marked.min_gap);
  EXPECT_GE(marked.min_gap, 64u);
  EXPECT_LE(marked.switches, 50000u / 64u);
}

TEST(Dlb, TimeoutOnCurrentMovesAway) {
  const sp::Config cfg = C(Policy::kDlb, 3);
  sp::DlbState s;
  sp::DlbInit(cfg, &s, 4);
  const uint32_t start = s.cur;
  // Let a probe measure another path first.
  for (int i = 0; i < 16; ++i) {
    const uint16_t port = sp::DlbSelect(cfg, &s);
    sp::DlbOnFeedback(cfg, &s, port, Feedback::kGood, 8000);
  }
  ASSERT_NE(s.alt, sp::kDlbNone);
  EXPECT_EQ(s.cur, start);
  sp::DlbOnFeedback(cfg, &s, sp::EvPort(cfg, start), Feedback::kTimeout, 0);
  EXPECT_NE(s.cur, start);
  EXPECT_EQ(s.alt, start);
  EXPECT_EQ(sp::DlbCost(s, start), 255u + 65535u);
}

TEST(Dlb, EwmaReachesItsTarget) {
  const sp::Config cfg = C(Policy::kDlb, 1);
  sp::DlbState s;
  sp::DlbInit(cfg, &s, 1);
  const uint16_t p0 = sp::EvPort(cfg, 0);
  sp::DlbOnFeedback(cfg, &s, p0, Feedback::kGood, 25600);  // first sample taken as is
  EXPECT_EQ(s.rtt_units[0], 100);
  sp::DlbOnFeedback(cfg, &s, p0, Feedback::kEcn, 25600);
  EXPECT_EQ(s.ecn_q8[0], 16);  // ceil(255 / 16)
  for (int i = 0; i < 100; ++i) sp::DlbOnFeedback(cfg, &s, p0, Feedback::kNack, 0);
  EXPECT_EQ(s.ecn_q8[0], 255);
  for (int i = 0; i < 100; ++i) sp::DlbOnFeedback(cfg, &s, p0, Feedback::kGood, 51200);
  EXPECT_EQ(s.ecn_q8[0], 0);
  EXPECT_EQ(s.rtt_units[0], 200);
  sp::DlbOnFeedback(cfg, &s, p0, Feedback::kGood, 51200 + 16 * 256);
  EXPECT_EQ(s.rtt_units[0], 201);  // 200 + ceil(16 / 16)
}

// ---------------------------------------------------------------------------
// NSCC rule
// ---------------------------------------------------------------------------

TEST(EcnRule, LowDelayMarksChangePath) {
  namespace ep = nicc::ecn_path;
  ep::Rule on = ep::Rule::Defaults();  // 4 us
  on.base_rtt_ns = 10000;
  EXPECT_TRUE(on.Validate().ok());
  EXPECT_EQ(ep::Classify(on, false, 50000), ep::Verdict::kNone);
  EXPECT_EQ(ep::Classify(on, true, 12000), ep::Verdict::kChangePath);
  EXPECT_EQ(ep::Classify(on, true, 14000), ep::Verdict::kChangePath);  // == threshold
  EXPECT_EQ(ep::Classify(on, true, 14001), ep::Verdict::kToCc);
  EXPECT_EQ(ep::Classify(on, true, 9000), ep::Verdict::kChangePath);  // below base
  EXPECT_EQ(ep::Classify(on, true, 0), ep::Verdict::kToCc);           // no sample
  ep::Rule off = on;
  off.change_path_on_low_delay = 0;
  EXPECT_EQ(ep::Classify(off, true, 12000), ep::Verdict::kToCc);
  EXPECT_EQ(ep::Classify(off, false, 12000), ep::Verdict::kNone);
  ep::Rule bad = on;
  bad.change_path_on_low_delay = 2;
  EXPECT_STREQ(bad.Validate().field, "change_path_on_low_delay");
  bad = on;
  bad.low_delay_ns = 0x80000000u;
  EXPECT_STREQ(bad.Validate().field, "low_delay_ns");
}

TEST(EcnRule, MarkBlamesTheLastPortOrGoesToTheCc) {
  namespace ep = nicc::ecn_path;
  ep::Rule on = ep::Rule::Defaults();
  on.base_rtt_ns = 10000;
  ep::State s;
  ep::Init(&s);
  ep::OnRtt(&s, 12000);
  EXPECT_EQ(ep::OnMark(on, s).verdict, ep::Verdict::kToCc) << "no packet sent: no path to blame";
  ep::OnSend(&s, 0xC001);
  ep::Decision d = ep::OnMark(on, s);
  EXPECT_EQ(d.verdict, ep::Verdict::kChangePath);
  EXPECT_EQ(d.ev, 0xC001);
  ep::OnRtt(&s, 0);  // no sample: the newest one stays
  EXPECT_EQ(s.last_rtt_ns, 12000u);
  ep::OnRtt(&s, 20000);
  d = ep::OnMark(on, s);
  EXPECT_EQ(d.verdict, ep::Verdict::kToCc);
  EXPECT_EQ(d.ev, 0);
}

}  // namespace
