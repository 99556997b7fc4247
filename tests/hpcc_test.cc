// HPCC sender: closed-form cases. Each test drives a flow with hand-built
// INT stacks whose numbers make u, U and W exact or nearly so, and asserts
// them against the equations of docs/hpcc.md. Windows are held in 1/16 B and
// eta = 0.95 in Q20, so a window may differ from the real-number result by a
// fraction of a byte: expectations allow 1 B.
#include "nicc/hpcc.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace {

namespace hp = nicc::hpcc;
using nicc::Action;
using nicc::IntHop;
using nicc::IntStack;
using nicc::StatusCode;

constexpr uint32_t kQ20 = 1u << 20;
constexpr uint32_t k100G = 3, k50G = 2, k400G = 5, k1600G = 7;

// The paper profile with T = 12.8 us, so that 100 Gb/s * T = 160000 B is a
// whole number of 128-B and 80-B units (1250 and 2000).
hp::Params P12800() {
  hp::Params p = hp::Params::HpccPaper();
  p.base_rtt_ns = 12800;
  return p;
}

// One switch egress port as INT sees it: wrapping counters.
struct Link {
  uint32_t code;
  uint32_t ts = 1000;
  uint32_t tx = 0;  // 128-B units
  uint32_t q = 0;   // 80-B units
  // d ns pass; the port sends `util` of its rate meanwhile (as whole units)
  // and its queue becomes q_units.
  void Step(uint32_t d, double util, uint32_t q_units, uint32_t mult_log2 = 0) {
    const double bytes = util * nicc::IntRateGbps(code) / 8.0 * d;
    ts += d;
    tx += static_cast<uint32_t>(std::llround(bytes / (128.0 * (1u << mult_log2))));
    q = q_units;
  }
  IntHop Hop() const { return IntHop::Make(code, ts, tx, q); }
};

IntStack StackOf(const std::vector<Link>& links, uint32_t mult_log2 = 0) {
  IntStack st{};
  st.hop_count = static_cast<uint8_t>(links.size());
  st.mult_log2 = static_cast<uint8_t>(mult_log2);
  for (size_t i = 0; i < links.size(); ++i) st.hops[i] = links[i].Hop();
  return st;
}

// A flow with explicit control of full updates: Full() acknowledges past the
// last update mark, Fast() does not.
class Flow {
 public:
  explicit Flow(const hp::Params& p, uint32_t start_seq = 0) {
    EXPECT_TRUE(hp::Compile(p, &cfg).ok());
    hp::Init(cfg, &s, start_seq);
  }
  Action Full(const IntStack& st, uint32_t dt_ns = 1000) {
    now += dt_ns;
    const uint32_t ack = s.last_update_seq + 1;
    return hp::OnAck(cfg, &s, ack, ack + 100000, st, now);
  }
  Action Fast(const IntStack& st, uint32_t dt_ns = 1000) {
    now += dt_ns;
    return hp::OnAck(cfg, &s, s.last_update_seq, s.last_update_seq + 7, st, now);
  }
  double U() const { return static_cast<double>(s.u_q20) / kQ20; }
  double Wc() const { return s.wc_q4 / 16.0; }
  hp::Config cfg{};
  hp::State s{};
  uint32_t now = 5000;
};

TEST(Hpcc, StateBudget) {
  EXPECT_EQ(sizeof(hp::State), 64u);
}

TEST(Hpcc, InitIsLineRate) {
  Flow f(hp::Params::HpccPaper());
  EXPECT_EQ(hp::WindowBytes(f.s), 162500u);  // 100 Gb/s * 13 us
  EXPECT_EQ(hp::RateKbps(f.cfg, f.s), 100000000u);
  EXPECT_EQ(f.s.hop_count, hp::kNoHistory);
}

// One hop sending exactly at line rate with an empty queue: U = 1, and a
// full update moves W to Wc / (1/eta) + W_AI.
TEST(Hpcc, LineRateEmptyQueueGivesUOne) {
  Flow f(hp::Params::HpccPaper());
  std::vector<Link> l{{k100G}};
  EXPECT_EQ(f.Full(StackOf(l)).flags, 0);  // first ACK: history only
  l[0].Step(13312, 1.0, 0);                // 1300 units = 166400 B in 13.312 us
  const Action a = f.Full(StackOf(l));
  EXPECT_EQ(f.s.u_q20, kQ20);
  ASSERT_TRUE(a.Has(nicc::kActSetWindow) && a.Has(nicc::kActSetRate));
  const double w = 162500 * 0.95 + 80;  // 154455
  EXPECT_NEAR(a.window_bytes, w, 1.0);
  EXPECT_NEAR(f.Wc(), w, 1.0);
  EXPECT_EQ(f.s.stage, 0);
  EXPECT_NEAR(a.rate_kbps, w * 8e6 / 13000, 8e6 / 13000);  // W / T, within 1 B of W
}

// A standing queue of one BDP of the hop adds 1 to u: U doubles. The queue
// term uses min(qlen, previous qlen), as in the paper: a queue seen only in
// the newest record does not count yet.
TEST(Hpcc, StandingQueueOfOneBdpDoublesU) {
  for (int variant = 0; variant < 3; ++variant) {
    Flow f(P12800());
    std::vector<Link> l{{k100G}};
    l[0].q = variant == 1 ? 2000 : 0;  // 2000 * 80 B = 160000 B = B * T
    EXPECT_EQ(f.Full(StackOf(l)).flags, 0);
    l[0].Step(12800, 1.0, variant == 0 ? 0 : 2000);
    const Action a = f.Full(StackOf(l));
    const double want_u = variant == 1 ? 2.0 : 1.0;
    EXPECT_NEAR(f.U(), want_u, 2.0 / kQ20) << variant;
    EXPECT_NEAR(a.window_bytes, 160000 * 0.95 / want_u + 80, 1.0) << variant;
  }
}

// Below eta, full updates add W_AI and count stages; at maxStage the next
// one is multiplicative (Wc / (U/eta) + W_AI) and the count restarts.
TEST(Hpcc, StageCountingAndMaxStage) {
  Flow f(P12800());
  std::vector<Link> l{{k100G}};
  l[0].q = 2000;
  f.Full(StackOf(l));
  l[0].Step(12800, 1.0, 2000);  // U = 2
  double w = 160000 * 0.95 / 2 + 80;
  EXPECT_NEAR(f.Full(StackOf(l)).window_bytes, w, 1.0);
  EXPECT_EQ(f.s.stage, 0);
  for (int stage = 1; stage <= 5; ++stage) {
    l[0].Step(12800, 0.5, 0);  // U = 0.5 < eta
    w += 80;
    EXPECT_NEAR(f.Full(StackOf(l)).window_bytes, w, 1.0) << stage;
    EXPECT_EQ(f.s.stage, stage);
    EXPECT_NEAR(f.U(), 0.5, 1e-6);
  }
  l[0].Step(12800, 0.5, 0);  // stage == maxStage: multiplicative although U < eta
  w = w * 0.95 / 0.5 + 80;
  EXPECT_NEAR(f.Full(StackOf(l)).window_bytes, w, 1.0);
  EXPECT_EQ(f.s.stage, 0);
  l[0].Step(12800, 0.5, 0);
  w += 80;
  EXPECT_NEAR(f.Full(StackOf(l)).window_bytes, w, 1.0);
  EXPECT_EQ(f.s.stage, 1);
}

// maxStage = 0 (the authors' later setting): every update is multiplicative.
TEST(Hpcc, MaxStageZeroAlwaysMultiplies) {
  hp::Params p = hp::Params::HpccLater();
  p.base_rtt_ns = 12800;
  Flow f(p);
  std::vector<Link> l{{k100G}};
  l[0].q = 2000;
  f.Full(StackOf(l));
  l[0].Step(12800, 1.0, 2000);
  double w = 160000 * 0.95 / 2 + 80;  // 76080
  EXPECT_NEAR(f.Full(StackOf(l)).window_bytes, w, 1.0);
  l[0].Step(12800, 0.5, 0);
  w = w * 0.95 / 0.5 + 80;  // 144632
  EXPECT_NEAR(f.Full(StackOf(l)).window_bytes, w, 1.0);
  EXPECT_EQ(f.s.stage, 0);
  l[0].Step(12800, 0.5, 0);
  EXPECT_EQ(f.Full(StackOf(l)).window_bytes, 160000u);  // clamped at the BDP
}

// Fast reactions compute W from Wc with the current U but commit nothing:
// Wc, stage and the update mark stay; the next full update starts from Wc.
TEST(Hpcc, FastReactionNeverCommits) {
  Flow f(P12800());
  std::vector<Link> l{{k100G}};
  l[0].q = 2000;
  f.Full(StackOf(l));
  l[0].Step(12800, 1.0, 2000);
  f.Full(StackOf(l));
  const uint32_t wc = f.s.wc_q4, mark = f.s.last_update_seq;
  const double wc_b = f.Wc();                        // 76080
  const double utils[] = {0.5, 1.0, 0.2, 1.2, 0.5};  // d >= T: U = u; whole units
  for (int round = 0; round < 4; ++round) {
    for (int k = 0; k < 5; ++k) {
      l[0].Step(12800, utils[k], 0);
      const Action a = f.Fast(StackOf(l));
      EXPECT_NEAR(f.U(), utils[k], 2e-6) << round << " " << k;
      // U >= eta: Wc / (U/eta) + W_AI; else (stage 0 < 5) Wc + W_AI.
      const double want = utils[k] >= 0.95 ? wc_b * 0.95 / utils[k] + 80 : wc_b + 80;
      EXPECT_NEAR(a.window_bytes, want, 1.0) << round << " " << k;
      EXPECT_EQ(f.s.wc_q4, wc);
      EXPECT_EQ(f.s.stage, 0);
      EXPECT_EQ(f.s.last_update_seq, mark);
    }
  }
  // U just measured: 0.5 (d >= T), stage 0 < 5: additive from the old Wc.
  EXPECT_NEAR(f.U(), 0.5, 1e-6);
  l[0].Step(12800, 0.5, 0);
  const Action a = f.Full(StackOf(l));
  EXPECT_NEAR(a.window_bytes, wc_b + 80, 1.0);
  EXPECT_EQ(f.s.stage, 1);
  EXPECT_NE(f.s.last_update_seq, mark);
}

TEST(Hpcc, FastReactionUsesTheMeasuredU) {
  Flow f(P12800());
  std::vector<Link> l{{k100G}};
  f.Full(StackOf(l));
  l[0].Step(12800, 1.0, 0);
  f.Full(StackOf(l));  // U = 1: Wc = 152080
  EXPECT_NEAR(f.Wc(), 152080, 1.0);
  l[0].Step(12800, 1.0, 6000);  // queue 3 BDP appears; min() hides it once
  EXPECT_NEAR(f.Fast(StackOf(l)).window_bytes, 152080 * 0.95 + 80, 1.0);
  l[0].Step(12800, 1.0, 6000);  // now u = 1 + 3 = 4
  EXPECT_NEAR(f.U(), 1.0, 1e-6);
  const Action a = f.Fast(StackOf(l));
  EXPECT_NEAR(f.U(), 4.0, 1e-6);
  EXPECT_NEAR(a.window_bytes, 152080 * 0.95 / 4 + 80, 1.0);
  EXPECT_NEAR(f.Wc(), 152080, 1.0);
}

TEST(Hpcc, ClampAtTheBdp) {
  Flow f(P12800());
  std::vector<Link> l{{k100G}};
  f.Full(StackOf(l));
  for (int i = 0; i < 8; ++i) {
    l[0].Step(12800, 0.5, 0);
    const Action a = f.Full(StackOf(l));
    EXPECT_EQ(a.window_bytes, 160000u);
    EXPECT_EQ(a.rate_kbps, 100000000u);  // exactly the line rate
  }
}

TEST(Hpcc, ClampAtTheFloorWithSaturatedU) {
  Flow f(P12800());
  std::vector<Link> l{{k100G}};
  l[0].q = 1563;  // x 80 B x 2^7 = 16.0 MB = 100 BDP: u = 100 -> capped at 64
  f.Full(StackOf(l, 7));
  uint32_t last = 0;
  for (int i = 0; i < 6; ++i) {
    l[0].Step(12800, 0.0, 1563, 7);
    last = f.Full(StackOf(l, 7)).window_bytes;
    EXPECT_EQ(f.s.u_q20, hp::kUCapQ20);
  }
  EXPECT_EQ(last, 163u);                                          // min_window_bytes
  EXPECT_NEAR(hp::RateKbps(f.cfg, f.s), 163 * 8e6 / 12800, 1.0);  // ~101.9 Mb/s
}

TEST(Hpcc, ZeroUtilisationWithMaxStageZeroGoesToTheCeiling) {
  hp::Params p = hp::Params::HpccLater();
  p.base_rtt_ns = 12800;
  Flow f(p);
  std::vector<Link> l{{k100G}};
  l[0].q = 2000;
  f.Full(StackOf(l));
  l[0].Step(12800, 1.0, 2000);
  EXPECT_NEAR(f.Full(StackOf(l)).window_bytes, 76080, 1.0);
  l[0].Step(12800, 0.0, 0);
  EXPECT_NE(f.s.u_q20, 0u);  // U = 2 before this ACK
  const Action a = f.Full(StackOf(l));
  EXPECT_EQ(f.s.u_q20, 0u);
  EXPECT_EQ(a.window_bytes, 160000u);
}

// d < T: the sample is weighted d/T (EWMA over T).
TEST(Hpcc, EwmaWeightIsTauOverT) {
  Flow f(P12800());
  std::vector<Link> l{{k100G}};
  f.Full(StackOf(l));
  double u = 0;
  for (int i = 0; i < 30; ++i) {
    l[0].Step(1280, 1.0, 0);  // d = T/10, u = 1 exactly (125 units)
    f.Fast(StackOf(l));
    u = u * (1 - 1.0 / 10) + 1.0 / 10;
    EXPECT_NEAR(f.U(), u, 4e-6) << i;
  }
}

// 24-bit timestamps and 20-bit byte counters wrapping mid-flow change
// nothing: a flow whose counters wrap acts exactly like one whose do not.
TEST(Hpcc, TimestampAndByteCounterWrapMidFlow) {
  Flow a(P12800()), b(P12800());
  std::vector<Link> la{{k100G}, {k400G}}, lb{{k100G}, {k400G}};
  la[0].ts = (1u << 24) - 3 * 12800 - 77;
  la[0].tx = (1u << 20) - 2 * 1250 - 3;
  la[1].ts = (1u << 24) - 1000;
  la[1].tx = (1u << 20) - 7;
  lb[1].ts = 50000;
  const uint32_t ds[] = {12800, 12800, 3200, 800, 25600, 12800, 1600, 12800, 6400, 12800};
  const double us[] = {1.0, 0.9, 1.1, 0.5, 1.0, 0.7, 1.0, 1.0, 0.3, 1.0};
  const uint32_t qs[] = {0, 500, 800, 800, 100, 0, 0, 2000, 2000, 0};
  EXPECT_EQ(a.Full(StackOf(la)).flags, b.Full(StackOf(lb)).flags);
  bool ts_wrapped = false, tx_wrapped = false;
  for (int i = 0; i < 10; ++i) {
    const uint32_t ts0 = la[0].ts & 0xFFFFFF, tx0 = la[0].tx & 0xFFFFF;
    for (auto* l : {&la, &lb}) {
      (*l)[0].Step(ds[i], us[i], qs[i]);
      (*l)[1].Step(ds[i], us[i] * 0.5, 0);
    }
    ts_wrapped |= (la[0].ts & 0xFFFFFF) < ts0;
    tx_wrapped |= (la[0].tx & 0xFFFFF) < tx0;
    const Action x = i % 3 == 0 ? a.Full(StackOf(la)) : a.Fast(StackOf(la));
    const Action y = i % 3 == 0 ? b.Full(StackOf(lb)) : b.Fast(StackOf(lb));
    ASSERT_NE(x.flags, 0) << i;
    EXPECT_EQ(x.window_bytes, y.window_bytes) << i;
    EXPECT_EQ(x.rate_kbps, y.rate_kbps) << i;
    EXPECT_EQ(a.s.u_q20, b.s.u_q20) << i;
    if (i == 0) {
      EXPECT_EQ(a.s.u_q20, kQ20);  // line rate across the wrap
    }
  }
  EXPECT_TRUE(ts_wrapped);
  EXPECT_TRUE(tx_wrapped);
}

// The hop with the largest u decides, wherever it sits on the path.
TEST(Hpcc, BottleneckHopCountsWithThreeHops) {
  // u: 0.3 at 100G, 0.9 at 400G, 0.6 at 50G; every ordering of the hops.
  std::vector<std::pair<uint32_t, double>> hops{{k100G, 0.3}, {k400G, 0.9}, {k50G, 0.6}};
  std::sort(hops.begin(), hops.end());
  do {
    Flow f(P12800());
    std::vector<Link> l;
    for (auto& h : hops) l.push_back(Link{h.first});
    f.Full(StackOf(l));
    // Different d >= T per hop, all giving whole units.
    for (size_t i = 0; i < 3; ++i)
      l[i].Step(12800 * static_cast<uint32_t>(i + 1), hops[i].second, 0);
    const Action a = f.Full(StackOf(l));
    EXPECT_NEAR(f.U(), 0.9, 2e-6);
    EXPECT_EQ(a.window_bytes, 160000u);  // 0.95 / 0.9 > 1: clamped at the BDP
  } while (std::next_permutation(hops.begin(), hops.end()));
}

TEST(Hpcc, BottleneckHopCountsWithFiveHops) {
  // u = 0.2, 0.4, 1.5 (tx 1.0 + half a BDP queued), 0.7, 0.1.
  for (int pos = 0; pos < 5; ++pos) {
    Flow f(P12800());
    std::vector<Link> l{{k100G}, {k400G}, {k50G}, {k1600G}, {k100G}};
    const double others[] = {0.2, 0.4, 0.7, 0.1};
    l[pos].q = 10 * nicc::IntRateGbps(l[pos].code);  // B T / 2 in 80-B units
    f.Full(StackOf(l));
    for (int i = 0, k = 0; i < 5; ++i) {
      if (i == pos) {
        l[i].Step(12800, 1.0, l[i].q);
      } else {
        l[i].Step(12800, others[k++], 0);
      }
    }
    const Action a = f.Full(StackOf(l));
    EXPECT_NEAR(f.U(), 1.5, 4e-6) << pos;
    EXPECT_NEAR(a.window_bytes, 160000 * 0.95 / 1.5 + 80, 1.0) << pos;
  }
}

// tau is the bottleneck hop's own timestamp delta.
TEST(Hpcc, TauComesFromTheBottleneckHop) {
  Flow f(P12800());
  std::vector<Link> l{{k100G}, {k100G}, {k100G}};
  f.Full(StackOf(l));
  l[0].Step(25600, 0.5, 0);
  l[1].Step(6400, 1.0, 400);  // u = 1 + 0.2 (queue 32000 B) over d = T/2
  l[1].q = 400;
  l[2].Step(25600, 0.5, 0);
  f.Fast(StackOf(l));
  // The queue term uses min(400, 0) = 0 on this first sample: u = 1.0.
  EXPECT_NEAR(f.U(), 0.5, 2e-6);  // 0 * (1 - 1/2) + 1.0 * 1/2
  l[0].Step(25600, 0.5, 0);
  l[1].Step(6400, 1.0, 400);
  l[2].Step(25600, 0.5, 0);
  f.Fast(StackOf(l));
  EXPECT_NEAR(f.U(), 0.5 * 0.5 + 1.2 * 0.5, 2e-6);
}

// A hop whose clock did not advance gives no sample and keeps its record;
// its next sample spans both intervals. No hop advancing: no action.
TEST(Hpcc, StaleHopKeepsItsRecord) {
  Flow f(P12800());
  std::vector<Link> l{{k100G}, {k100G}};
  f.Full(StackOf(l));
  IntStack st = StackOf(l);
  EXPECT_EQ(f.Fast(st).flags, 0);  // identical records: nothing advanced
  Link kept = l[0];
  l[0].Step(12800, 1.0, 0);
  l[1].Step(12800, 0.5, 0);
  IntStack mixed = StackOf(l);
  mixed.hops[0] = kept.Hop();  // hop 0 repeats its old record
  ASSERT_NE(f.Fast(mixed).flags, 0);
  EXPECT_NEAR(f.U(), 0.5, 2e-6);
  EXPECT_EQ(f.s.hop_word[0], kept.Hop().word);
  l[0].Step(12800, 1.0, 0);  // hop 0: 2 x 1250 units over 25600 ns -> u = 1
  l[1].Step(12800, 0.5, 0);
  f.Fast(StackOf(l));
  EXPECT_NEAR(f.U(), 1.0, 2e-6);
}

// Every kind of path change resets the history instead of producing a
// sample; U, Wc and stage survive; the next ACK measures the new path.
TEST(Hpcc, PathChangeResetsHistory) {
  enum Change { kHopCount, kRateCode, kMultiplier, kTsBack, kTxJump, kExpired };
  for (int change = kHopCount; change <= kExpired; ++change) {
    Flow f(P12800());
    std::vector<Link> l{{k100G}, {k100G}, {k100G}};
    f.Full(StackOf(l));
    for (auto& x : l) x.Step(12800, 0.5, 0);
    f.Full(StackOf(l));
    const hp::State before = f.s;
    uint32_t mult = 0, dt = 1000;
    switch (change) {
      case kHopCount:
        l.pop_back();
        break;
      case kRateCode:
        l[1].code = k400G;
        break;
      case kMultiplier:
        mult = 1;
        break;
      case kTsBack:
        l[2].ts -= 10;
        break;
      case kTxJump:
        l[1].ts += 1000;
        l[1].tx += 1u << 19;
        break;  // 5e4 x line rate
      case kExpired:
        dt = 256001;
        for (auto& x : l) x.Step(12800, 0.5, 0);
        break;
    }
    const IntStack st = StackOf(l, mult);
    EXPECT_EQ(f.Full(st, dt).flags, 0) << change;
    EXPECT_EQ(f.s.hop_count, l.size()) << change;
    EXPECT_EQ(f.s.mult_log2, mult) << change;
    for (size_t i = 0; i < l.size(); ++i) EXPECT_EQ(f.s.hop_word[i], st.hops[i].word) << change;
    EXPECT_EQ(f.s.u_q20, before.u_q20) << change;
    EXPECT_EQ(f.s.wc_q4, before.wc_q4) << change;
    EXPECT_EQ(f.s.stage, before.stage) << change;
    EXPECT_EQ(f.s.last_update_seq, before.last_update_seq) << change;
    // The new path, measured from the records just stored.
    for (auto& x : l) x.Step(12800, 0.8, 0, mult);
    ASSERT_NE(f.Full(StackOf(l, mult)).flags, 0) << change;
    EXPECT_NEAR(f.U(), 0.8, 2e-6) << change;
  }
}

TEST(Hpcc, SequenceNumbersWrap) {
  Flow f(P12800(), /*start_seq=*/0xFFFFFF00u);
  std::vector<Link> l{{k100G}};
  const uint32_t snd = 0xFFFFFF80u;
  hp::OnAck(f.cfg, &f.s, 0xFFFFFF10u, snd, StackOf(l), 1000);  // history
  l[0].Step(12800, 0.5, 0);
  hp::OnAck(f.cfg, &f.s, 0xFFFFFF20u, 0x00000100u, StackOf(l), 2000);  // past the start: full
  EXPECT_EQ(f.s.stage, 1);
  EXPECT_EQ(f.s.last_update_seq, 0x100u);
  l[0].Step(12800, 0.5, 0);
  hp::OnAck(f.cfg, &f.s, 0xFFFFFFF0u, 0x200u, StackOf(l), 3000);  // before 0x100: fast
  EXPECT_EQ(f.s.stage, 1);
  l[0].Step(12800, 0.5, 0);
  hp::OnAck(f.cfg, &f.s, 0x101u, 0x300u, StackOf(l), 4000);  // past 0x100 across the wrap
  EXPECT_EQ(f.s.stage, 2);
  EXPECT_EQ(f.s.last_update_seq, 0x300u);
}

TEST(Hpcc, ReachesOnePointSixTerabits) {
  hp::Params p = hp::Params::HpccPaper();
  p.line_rate_mbps = 1600000;
  Flow f(p);
  EXPECT_EQ(hp::WindowBytes(f.s), 2600000u);
  EXPECT_EQ(hp::RateKbps(f.cfg, f.s), 1600000000u);
  std::vector<Link> l{{k1600G}};
  f.Full(StackOf(l));
  l[0].Step(16384, 1.0, 0);  // 25600 units = 3.28 MB in 16.4 us
  const Action a = f.Full(StackOf(l));
  EXPECT_EQ(f.s.u_q20, kQ20);
  EXPECT_NEAR(a.window_bytes, 2600000 * 0.95 + 80, 1.0);
  EXPECT_NEAR(a.rate_kbps, (2600000 * 0.95 + 80) * 8e6 / 13000, 8e6 / 13000);
}

// hpcc-pint: the same law driven by a one-byte U, on a sample of ACKs.
TEST(HpccPint, WindowLawFromTheCode) {
  Flow f(P12800());
  Action a = hp::OnPintAck(f.cfg, &f.s, 1, 1000, 128, 0);  // U = 1
  EXPECT_EQ(f.s.u_q20, kQ20);
  EXPECT_NEAR(a.window_bytes, 160000 * 0.95 + 80, 1.0);
  EXPECT_EQ(f.s.stage, 0);
  a = hp::OnPintAck(f.cfg, &f.s, 1001, 2000, 0, 0);  // U = 0: additive
  EXPECT_NEAR(a.window_bytes, 160000 * 0.95 + 160, 1.0);
  EXPECT_EQ(f.s.stage, 1);
  a = hp::OnPintAck(f.cfg, &f.s, 1500, 2000, 144, 0);  // U = 2, fast reaction
  EXPECT_NEAR(a.window_bytes, (160000 * 0.95 + 160) * 0.95 / 2 + 80, 1.0);
  EXPECT_EQ(f.s.stage, 1);
  a = hp::OnPintAck(f.cfg, &f.s, 2001, 3000, 255, 0);  // U = 245 -> capped at 64
  EXPECT_EQ(f.s.u_q20, hp::kUCapQ20);
  EXPECT_NEAR(a.window_bytes, (160000 * 0.95 + 160) * 0.95 / 64 + 80, 1.0);
}

TEST(HpccPint, SampledAcksCommitOncePerRtt) {
  Flow f(P12800());
  uint32_t snd = 0, commits = 0, mark = f.s.last_update_seq;
  double wc = 160000;
  for (uint32_t i = 1; i <= 256; ++i) {
    const uint32_t ack = i * 1000;
    snd = ack + 40000;          // 40 ACKs in flight: a full update every 40 ACKs
    if (i % 16 != 0) continue;  // 1 ACK in 16 carries a code
    const uint8_t code = 136;   // U = 2^(8/16) = 1.414
    const Action a = hp::OnPintAck(f.cfg, &f.s, ack, snd, code, 0);
    const double u = std::pow(2.0, 0.5);
    if (f.s.last_update_seq != mark) {
      ++commits;
      mark = f.s.last_update_seq;
      wc = wc * 0.95 / u + 80;
    }
    EXPECT_NEAR(a.window_bytes,
                std::max(163.0, f.s.last_update_seq == snd ? wc : wc * 0.95 / u + 80), 1.0);
  }
  // Updates at the 16th ACK and then the first sampled ACK past each mark
  // (every 48 ACKs): 6 in 256 ACKs.
  EXPECT_EQ(commits, 6u);
}

// --- Params -----------------------------------------------------------------

TEST(HpccParams, ProfilesAreValid) {
  EXPECT_TRUE(hp::Params::HpccPaper().Validate().ok());
  EXPECT_TRUE(hp::Params::HpccLater().Validate().ok());
  EXPECT_EQ(hp::Params::HpccPaper().max_stage, 5u);
  EXPECT_EQ(hp::Params::HpccLater().max_stage, 0u);
  EXPECT_EQ(hp::Params::HpccPaper().eta_ppm, 950000u);
  EXPECT_EQ(hp::Params::HpccPaper().w_ai_bytes, 80u);
  EXPECT_EQ(hp::Params::HpccPaper().base_rtt_ns, 13000u);
  EXPECT_EQ(hp::Params::HpccPaper().line_rate_mbps, 100000u);
  static_assert(hp::Params::HpccPaper().Validate().ok(), "usable at compile time");
}

struct BadCase {
  void (*edit)(hp::Params*);
  StatusCode code;
  const char* field;
};

TEST(HpccParams, ValidateNamesTheField) {
  const BadCase cases[] = {
      {[](hp::Params* p) { p->line_rate_mbps = 0; }, StatusCode::kZero, "line_rate_mbps"},
      {[](hp::Params* p) { p->line_rate_mbps = 1600001; }, StatusCode::kOutOfRange,
       "line_rate_mbps"},
      {[](hp::Params* p) { p->base_rtt_ns = 0; }, StatusCode::kZero, "base_rtt_ns"},
      {[](hp::Params* p) { p->base_rtt_ns = 999; }, StatusCode::kOutOfRange, "base_rtt_ns"},
      {[](hp::Params* p) { p->base_rtt_ns = 1000001; }, StatusCode::kOutOfRange, "base_rtt_ns"},
      {[](hp::Params* p) { p->eta_ppm = 0; }, StatusCode::kZero, "eta_ppm"},
      {[](hp::Params* p) { p->eta_ppm = 1000001; }, StatusCode::kOutOfRange, "eta_ppm"},
      {[](hp::Params* p) { p->max_stage = 256; }, StatusCode::kOutOfRange, "max_stage"},
      {[](hp::Params* p) { p->w_ai_bytes = 162501; }, StatusCode::kInconsistent, "w_ai_bytes"},
      {[](hp::Params* p) { p->min_window_bytes = 0; }, StatusCode::kZero, "min_window_bytes"},
      {[](hp::Params* p) { p->min_window_bytes = 162501; }, StatusCode::kInconsistent,
       "min_window_bytes"},
      {[](hp::Params* p) { p->history_timeout_us = 0; }, StatusCode::kZero, "history_timeout_us"},
      {[](hp::Params* p) { p->history_timeout_us = 672; }, StatusCode::kOutOfRange,
       "history_timeout_us"},
  };
  for (const BadCase& c : cases) {
    hp::Params p = hp::Params::HpccPaper();
    c.edit(&p);
    const nicc::Status s = p.Validate();
    EXPECT_EQ(s.code, c.code) << c.field;
    EXPECT_STREQ(s.field, c.field);
    hp::Config cfg{};
    cfg.t_ns = 12345;
    EXPECT_EQ(hp::Compile(p, &cfg).code, c.code);
    EXPECT_EQ(cfg.t_ns, 12345u) << "Compile must leave *out untouched on error";
  }
  // The edges themselves are valid.
  hp::Params p = hp::Params::HpccPaper();
  p.eta_ppm = 1000000;
  p.w_ai_bytes = 162500;
  p.min_window_bytes = 162500;
  p.max_stage = 255;
  p.history_timeout_us = 671;
  EXPECT_TRUE(p.Validate().ok());
  p = hp::Params::HpccPaper();
  p.line_rate_mbps = 1600000;
  p.base_rtt_ns = 1000000;  // largest BDP: 200 MB, 3.2e9 in 1/16 B
  hp::Config cfg{};
  ASSERT_TRUE(hp::Compile(p, &cfg).ok());
  EXPECT_EQ(cfg.w_max_q4, 3200000000u);
  p.base_rtt_ns = 1000;
  p.line_rate_mbps = 25000;
  EXPECT_TRUE(hp::Compile(p, &cfg).ok());
}

}  // namespace

namespace {

// A 1.6 Tb/s hop's 20-bit tx-byte counter (128 B units, x1) wraps every
// 671 us. Every history timeout the parameters admit is shorter, so two ACKs
// whose history survives are never a whole wrap apart: a hop at line rate
// reads U = 1, not the alias (0.041 at 8000 us, which older bounds allowed).
TEST(HpccParams, HistoryTimeoutStaysBelowOneTxByteWrap) {
  hp::Params p = hp::Params::HpccPaper();
  p.history_timeout_us = 672;
  EXPECT_EQ(p.Validate().code, StatusCode::kOutOfRange);
  p.history_timeout_us = 8000;
  EXPECT_EQ(p.Validate().code, StatusCode::kOutOfRange);
  EXPECT_STREQ(p.Validate().field, "history_timeout_us");

  p.history_timeout_us = hp::kMaxHistoryTimeoutUs;
  Flow f(p);
  std::vector<Link> l{{k1600G}};
  EXPECT_EQ(f.Full(StackOf(l)).flags, 0);  // history only
  const uint32_t gap_ns = hp::kMaxHistoryTimeoutUs * 1000u;
  l[0].Step(gap_ns, 1.0, 0);  // line rate for the longest gap the history survives
  const Action a = f.Full(StackOf(l), gap_ns);
  EXPECT_NE(a.flags, 0);
  EXPECT_NEAR(f.U(), 1.0, 0.01);

  // One microsecond longer and the history is dropped: no measurement.
  Flow g(p);
  std::vector<Link> m{{k1600G}};
  g.Full(StackOf(m));
  m[0].Step(gap_ns + 1000u, 1.0, 0);
  EXPECT_EQ(g.Full(StackOf(m), gap_ns + 1000u).flags, 0);
  // A 670 us ACK gap, but the hop's stamps 680 us apart: its counter wrapped (U would read 0.013).
  m[0].Step(680000u, 1.0, 0);
  EXPECT_EQ(g.Full(StackOf(m), 670000u).flags, 0);
}

}  // namespace
