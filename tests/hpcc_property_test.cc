// HPCC against a separately written double-precision model.
//
// The model (tests/double_models.h) is written from the equations of the paper (Li et al.,
// SIGCOMM 2019, Algorithm 1) and docs/hpcc.md in real numbers: per-hop
// txRate from counter deltas, u from qlen and txRate, U as an EWMA over T,
// and the window law. It shares no code with the engine (it does not
// include nicc/hpcc.h arithmetic; only the wire records and the engine's
// entry points are used to drive the engine side).
//
// 10^5 seeded random ACK streams in total, 1-5 hops, every rate code,
// multipliers 1..8, counters and sequence numbers starting anywhere (so 24-bit
// timestamps, 20-bit byte counters and 32-bit sequences wrap), random
// parameters. At every ACK the engine must act exactly when the model does,
// and its window must be within 0.5% of the model's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "double_models.h"
#include "nicc/hpcc.h"
#include "nicc/int_codec.h"

namespace {

namespace hp = nicc::hpcc;

using double_models::hpcc::Model;
using double_models::hpcc::ModelParams;
using double_models::hpcc::ModelRecord;

// ---------------------------------------------------------------------------
// Random streams.
// ---------------------------------------------------------------------------

struct Rng {
  std::mt19937_64 g;
  explicit Rng(uint64_t seed) : g(seed) {}
  double Uniform(double lo, double hi) {
    return lo + (hi - lo) * static_cast<double>(g() >> 11) * (1.0 / 9007199254740992.0);
  }
  uint32_t Below(uint32_t n) { return static_cast<uint32_t>(g() % n); }
};

hp::Params RandomParams(Rng& r) {
  const uint32_t kind = r.Below(10);
  if (kind < 3) return hp::Params::HpccPaper();
  if (kind < 5) return hp::Params::HpccLater();
  hp::Params p{};
  p.line_rate_mbps = 25000u << r.Below(7);
  p.base_rtt_ns = 2000 + r.Below(60000);
  p.eta_ppm = 800000 + r.Below(200001);
  p.max_stage = r.Below(9);
  const uint32_t bdp =
      static_cast<uint32_t>(static_cast<uint64_t>(p.line_rate_mbps) * p.base_rtt_ns / 8000);
  p.w_ai_bytes = r.Below(bdp / 100 + 1);
  p.min_window_bytes = 100 + r.Below(std::max(1u, bdp / 50));
  p.history_timeout_us = 256;
  return p;
}

struct HopGen {
  uint32_t code, ts;
  double tx_bytes;  // cumulative, exact
  uint32_t q;
  double util;
};

struct Totals {
  long steps = 0, actions = 0, ambiguous = 0;
  double worst_rel = 0, worst_abs = 0, worst_reported = 0;
};

// One stream; returns false on the first mismatch (after reporting it).
bool RunStream(uint64_t seed, Totals* tot) {
  Rng r(seed);
  const hp::Params p = RandomParams(r);
  hp::Config cfg{};
  if (!hp::Compile(p, &cfg).ok()) {
    ADD_FAILURE() << "seed " << seed << ": params do not compile";
    return false;
  }
  const ModelParams mp{p.line_rate_mbps / 1000.0,
                       static_cast<double>(p.base_rtt_ns),
                       p.eta_ppm / 1e6,
                       static_cast<double>(p.w_ai_bytes),
                       static_cast<double>(p.min_window_bytes),
                       static_cast<double>(p.max_stage)};
  const uint32_t start_seq = static_cast<uint32_t>(r.g());
  hp::State s{};
  hp::Init(cfg, &s, start_seq);
  Model model(mp, start_seq);

  const uint32_t hops = 1 + r.Below(5);
  const uint32_t mult_log2 = r.Below(4);
  const double unit_tx = 128.0 * (1u << mult_log2);
  HopGen gen[nicc::kIntMaxHops];
  for (uint32_t i = 0; i < hops; ++i) {
    HopGen& h = gen[i];
    h.code = 1 + r.Below(7);
    h.ts = static_cast<uint32_t>(r.g());
    h.tx_bytes = unit_tx * r.Below(1u << 20);
    h.q = r.Below(3) == 0 ? r.Below(4000) : 0;
    h.util = r.Uniform(0, 1.2);
  }
  const double t = p.base_rtt_ns;
  uint32_t now = static_cast<uint32_t>(r.g());
  uint32_t ack = start_seq;
  const uint32_t acks = 12 + r.Below(17);  // 12..28 ACKs
  for (uint32_t k = 0; k < acks; ++k) {
    nicc::IntStack st{};
    st.hop_count = static_cast<uint8_t>(hops);
    st.mult_log2 = static_cast<uint8_t>(mult_log2);
    ModelRecord rec[nicc::kIntMaxHops];
    uint32_t step_ns = 1;
    for (uint32_t i = 0; i < hops; ++i) {
      HopGen& h = gen[i];
      const uint32_t pick = r.Below(100);
      uint32_t d;
      if (k == 0 || pick < 2) {
        d = 0;  // first record, or a hop whose clock did not move
      } else if (pick < 70) {
        d = 20 + r.Below(2000);
      } else if (pick < 92) {
        d = 2000 + r.Below(static_cast<uint32_t>(t));
      } else {
        d = static_cast<uint32_t>(t) + r.Below(2 * static_cast<uint32_t>(t));
      }
      h.util = std::clamp(h.util + r.Uniform(-0.15, 0.15), 0.0, 1.2);
      h.ts += d;
      h.tx_bytes += h.util * nicc::IntRateGbps(h.code) / 8.0 * d;
      const uint32_t qpick = r.Below(50);
      if (qpick == 0) {
        h.q = r.Below(1u << 17);  // a burst: may saturate u at 64
      } else if (qpick < 5) {
        h.q = 0;
      } else {
        const int32_t dq = static_cast<int32_t>(r.Below(401)) - 200;
        h.q = static_cast<uint32_t>(std::clamp(static_cast<int32_t>(h.q) + dq, 0, (1 << 17) - 1));
      }
      const uint32_t tx_units =
          static_cast<uint32_t>(std::fmod(std::floor(h.tx_bytes / unit_tx), 1048576.0));
      st.hops[i] = nicc::IntHop::Make(h.code, h.ts, tx_units, h.q);
      rec[i] = {h.code, h.ts & 0xFFFFFFu, tx_units, h.q};
      step_ns = std::max(step_ns, d);
    }
    // Through the wire format and back, as a backend would.
    uint8_t wire[nicc::IntStackBytes(nicc::kIntMaxHops)];
    size_t len = 0;
    nicc::IntStack decoded{};
    if (!nicc::EncodeIntStack(st, wire, sizeof wire, &len).ok() ||
        !nicc::DecodeIntStack(wire, len, &decoded).ok()) {
      ADD_FAILURE() << "seed " << seed << ": codec";
      return false;
    }
    now += step_ns;
    ack += 500 + r.Below(3500);
    const uint32_t snd_nxt = ack + 2000 + r.Below(40000);
    const nicc::Action a = hp::OnAck(cfg, &s, ack, snd_nxt, decoded, now);
    int amb = 0;
    const bool acted = model.Ack(ack, snd_nxt, rec, hops, mult_log2,
                                 static_cast<double>(s.u_q20) / (1 << 20), &amb);
    tot->ambiguous += amb;
    ++tot->steps;
    if (acted != (a.flags != 0)) {
      ADD_FAILURE() << "seed " << seed << " ack " << k << ": engine acted=" << (a.flags != 0)
                    << " model acted=" << acted;
      return false;
    }
    if (!acted) continue;
    ++tot->actions;
    // Two checks. The engine's own window (1/16 B) must be within 0.5%.
    // The reported whole-byte window must be too, or within 0.5625 B: whole
    // bytes cannot do better than 0.5 B (0.5% of a 100-B window), plus the
    // 1/16 B of the internal format.
    const double w = model.w();
    const double err_q4 = std::fabs(s.w_q4 / 16.0 - w);
    const double err = std::fabs(a.window_bytes - w);
    tot->worst_rel = std::max(tot->worst_rel, err_q4 / w);
    tot->worst_abs = std::max(tot->worst_abs, err_q4);
    tot->worst_reported = std::max(tot->worst_reported, err / w);
    if (err_q4 > 0.005 * w || err > std::max(0.005 * w, 0.5625)) {
      ADD_FAILURE() << "seed " << seed << " ack " << k << ": engine W " << s.w_q4 / 16.0 << " ("
                    << a.window_bytes << ") model W " << w << " (U engine " << s.u_q20 / 1048576.0
                    << " model " << model.u() << ")";
      return false;
    }
  }
  return true;
}

TEST(HpccProperty, MatchesDoubleModelOnRandomStreams) {
  constexpr uint64_t kStreams = 100000;
  Totals tot;
  int failures = 0;
  for (uint64_t seed = 1; seed <= kStreams && failures < 5; ++seed)
    if (!RunStream(seed, &tot)) ++failures;
  std::printf(
      "hpcc property: %llu streams, %ld ACKs, %ld actions; worst |dW|/W %.5f%% "
      "(largest |dW| %.3f B), reported whole-byte window %.4f%%; %ld near-ties "
      "settled by the engine's pick\n",
      static_cast<unsigned long long>(kStreams), tot.steps, tot.actions, 100 * tot.worst_rel,
      tot.worst_abs, 100 * tot.worst_reported, tot.ambiguous);
  EXPECT_EQ(failures, 0);
  EXPECT_GT(tot.actions, tot.steps / 2);  // the streams do exercise the law
  EXPECT_LT(tot.ambiguous, tot.steps / 1000);
}

TEST(HpccProperty, PintMatchesDoubleModel) {
  double worst = 0;
  for (uint64_t seed = 1; seed <= 2000; ++seed) {
    Rng r(seed * 7919);
    const hp::Params p = RandomParams(r);
    hp::Config cfg{};
    ASSERT_TRUE(hp::Compile(p, &cfg).ok());
    const ModelParams mp{p.line_rate_mbps / 1000.0,
                         static_cast<double>(p.base_rtt_ns),
                         p.eta_ppm / 1e6,
                         static_cast<double>(p.w_ai_bytes),
                         static_cast<double>(p.min_window_bytes),
                         static_cast<double>(p.max_stage)};
    uint32_t ack = static_cast<uint32_t>(r.g());
    hp::State s{};
    hp::Init(cfg, &s, ack);
    Model model(mp, ack);
    for (int k = 0; k < 30; ++k) {
      ack += 1000 + r.Below(3000);
      const uint32_t snd = ack + r.Below(30000);
      const uint8_t code = static_cast<uint8_t>(r.Below(5) == 0 ? r.Below(256) : 110 + r.Below(40));
      const nicc::Action a = hp::OnPintAck(cfg, &s, ack, snd, code, 0);
      model.Pint(ack, snd, code);
      const double err = std::fabs(s.w_q4 / 16.0 - model.w()) / model.w();
      worst = std::max(worst, err);
      ASSERT_LE(err, 0.005) << "seed " << seed << " ack " << k << ": " << s.w_q4 / 16.0 << " vs "
                            << model.w();
      ASSERT_LE(std::fabs(a.window_bytes - model.w()), std::max(0.005 * model.w(), 0.5625));
    }
  }
  std::printf("hpcc-pint property: 2000 streams, worst |dW| %.4f%%\n", 100 * worst);
}

}  // namespace
