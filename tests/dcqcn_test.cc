// Closed-form tests of the DCQCN reaction and notification points: each test
// drives one flow with a hand-built clock and checks the numbers the
// equations in docs/dcqcn.md give.
#include "nicc/dcqcn.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>

namespace dq = nicc::dcqcn;
using nicc::Action;

namespace {

constexpr uint32_t kLine = 100000;             // 100 Gb/s in Mb/s
constexpr uint32_t kLineKbps = kLine * 1000u;  // in kb/s

dq::Config MustCompile(const dq::Params& p) {
  dq::Config cfg{};
  const nicc::Status st = dq::Compile(p, &cfg);
  EXPECT_TRUE(st.ok()) << (st.field ? st.field : "") << ": " << nicc::StatusCodeName(st.code);
  return cfg;
}

// The cut as the equations give it, in exact integer arithmetic with the
// same two floors as the engine (alpha applied in Q20, then the gd shift).
uint32_t CutOf(uint32_t rc_kbps, uint32_t alpha_q20, uint32_t gd = 11) {
  const uint32_t dec =
      static_cast<uint32_t>((static_cast<uint64_t>(rc_kbps) * alpha_q20) >> 20) >> (gd - 10);
  return rc_kbps - dec;
}

TEST(DcqcnParams, ProfilesValidate) {
  EXPECT_TRUE(dq::Params::Mlx5(kLine).Validate().ok());
  EXPECT_TRUE(dq::Params::Paper(kLine).Validate().ok());
  EXPECT_TRUE(dq::Params::Mlx5(1600000).Validate().ok());  // 1.6 Tb/s
}

TEST(DcqcnParams, Mlx5ProfileUsesConnectXDefaults) {
  const dq::Params p = dq::Params::Mlx5(kLine);
  EXPECT_EQ(p.rp_time_reset, 300u);
  EXPECT_EQ(p.rp_byte_reset, 32767u);
  EXPECT_EQ(p.rp_threshold, 1u);
  EXPECT_EQ(p.rp_ai_rate, 5u);
  EXPECT_EQ(p.rp_hai_rate, 50u);
  EXPECT_EQ(p.rp_gd, 11u);
  EXPECT_EQ(p.rp_min_dec_fac, 50u);
  EXPECT_EQ(p.rp_min_rate, 1u);
  EXPECT_EQ(p.rp_max_rate, 0u);
  EXPECT_EQ(p.rp_dce_tcp_g, 1019u);
  EXPECT_EQ(p.rp_dce_tcp_rtt, 1u);
  EXPECT_EQ(p.rp_rate_reduce_monitor_period, 4u);
  EXPECT_EQ(p.rp_initial_alpha_value, 1023u);
  EXPECT_EQ(p.rp_rate_to_set_on_first_cnp, 0u);
  EXPECT_EQ(p.rp_clamp_tgt_rate, 0u);
  EXPECT_EQ(p.rp_clamp_tgt_rate_ati, 1u);
  EXPECT_EQ(p.np_min_time_between_cnps, 4u);
}

struct BadField {
  const char* field;
  nicc::StatusCode code;
  void (*mutate)(dq::Params*);
};

TEST(DcqcnParams, ValidateNamesTheBadField) {
  const BadField cases[] = {
      {"line_rate_mbps", nicc::StatusCode::kZero, [](dq::Params* p) { p->line_rate_mbps = 0; }},
      {"line_rate_mbps", nicc::StatusCode::kOutOfRange, [](dq::Params* p) { p->line_rate_mbps = 1600001; }},
      {"rp_time_reset", nicc::StatusCode::kZero, [](dq::Params* p) { p->rp_time_reset = 0; }},
      {"rp_time_reset", nicc::StatusCode::kOutOfRange, [](dq::Params* p) { p->rp_time_reset = 3000000; }},
      {"rp_threshold", nicc::StatusCode::kOutOfRange, [](dq::Params* p) { p->rp_threshold = 32; }},
      {"rp_ai_rate", nicc::StatusCode::kOutOfRange, [](dq::Params* p) { p->rp_ai_rate = kLine + 1; }},
      {"rp_hai_rate", nicc::StatusCode::kInconsistent, [](dq::Params* p) { p->rp_hai_rate = 1; }},
      {"rp_gd", nicc::StatusCode::kOutOfRange, [](dq::Params* p) { p->rp_gd = 9; }},
      {"rp_gd", nicc::StatusCode::kOutOfRange, [](dq::Params* p) { p->rp_gd = 21; }},
      {"rp_min_dec_fac", nicc::StatusCode::kZero, [](dq::Params* p) { p->rp_min_dec_fac = 0; }},
      {"rp_min_dec_fac", nicc::StatusCode::kOutOfRange, [](dq::Params* p) { p->rp_min_dec_fac = 101; }},
      {"rp_max_rate", nicc::StatusCode::kOutOfRange, [](dq::Params* p) { p->rp_max_rate = kLine + 1; }},
      {"rp_min_rate", nicc::StatusCode::kZero, [](dq::Params* p) { p->rp_min_rate = 0; }},
      {"rp_min_rate", nicc::StatusCode::kInconsistent, [](dq::Params* p) {
         p->rp_max_rate = 1000;
         p->rp_min_rate = 2000;
       }},
      {"rp_dce_tcp_g", nicc::StatusCode::kOutOfRange, [](dq::Params* p) { p->rp_dce_tcp_g = 1024; }},
      {"rp_dce_tcp_rtt", nicc::StatusCode::kZero, [](dq::Params* p) { p->rp_dce_tcp_rtt = 0; }},
      {"rp_rate_reduce_monitor_period", nicc::StatusCode::kOutOfRange,
       [](dq::Params* p) { p->rp_rate_reduce_monitor_period = 2200000; }},
      {"rp_initial_alpha_value", nicc::StatusCode::kOutOfRange,
       [](dq::Params* p) { p->rp_initial_alpha_value = 1024; }},
      {"rp_rate_to_set_on_first_cnp", nicc::StatusCode::kOutOfRange,
       [](dq::Params* p) { p->rp_rate_to_set_on_first_cnp = kLine + 1; }},
      {"rp_clamp_tgt_rate", nicc::StatusCode::kOutOfRange, [](dq::Params* p) { p->rp_clamp_tgt_rate = 2; }},
      {"rp_clamp_tgt_rate_ati", nicc::StatusCode::kOutOfRange,
       [](dq::Params* p) { p->rp_clamp_tgt_rate_ati = 7; }},
      {"np_min_time_between_cnps", nicc::StatusCode::kOutOfRange,
       [](dq::Params* p) { p->np_min_time_between_cnps = 2147484; }},
  };
  for (const BadField& c : cases) {
    dq::Params p = dq::Params::Mlx5(kLine);
    c.mutate(&p);
    const nicc::Status st = p.Validate();
    ASSERT_FALSE(st.ok()) << c.field;
    ASSERT_NE(st.field, nullptr) << c.field;
    EXPECT_EQ(std::string(st.field), c.field);
    EXPECT_EQ(st.code, c.code) << c.field;
    // Compile refuses too and leaves the output untouched.
    dq::Config cfg;
    std::memset(&cfg, 0xA5, sizeof cfg);
    EXPECT_FALSE(dq::Compile(p, &cfg).ok());
    EXPECT_EQ(cfg.max_kbps, 0xA5A5A5A5u) << c.field;
  }
}

// ---------------------------------------------------------------------------
// Reaction point.
// ---------------------------------------------------------------------------

TEST(DcqcnRp, IdleFlowSendsAtLineRateAndIgnoresTraffic) {
  const dq::Config cfg = MustCompile(dq::Params::Mlx5(kLine));
  dq::RpState s;
  dq::RpInit(cfg, &s);
  const dq::RpState before = s;
  EXPECT_EQ(dq::RpRateKbps(cfg, s), kLineKbps);
  for (uint32_t i = 0; i < 1000; ++i) {
    EXPECT_EQ(dq::RpOnTxBytes(cfg, &s, 4096, i * 330).flags, 0);
    EXPECT_EQ(dq::RpOnTimer(cfg, &s, i * 330).flags, 0);  // stale timer: nothing
  }
  EXPECT_EQ(std::memcmp(&before, &s, sizeof s), 0) << "idle flow state must not change";
}

TEST(DcqcnRp, FirstCnpAtLineRateCutsByHalfAlpha) {
  const dq::Config cfg = MustCompile(dq::Params::Mlx5(kLine));
  dq::RpState s;
  dq::RpInit(cfg, &s);
  const Action a = dq::RpOnCnp(cfg, &s, 1000);
  ASSERT_TRUE(a.Has(nicc::kActSetRate));
  ASSERT_TRUE(a.Has(nicc::kActArmTimer));
  // alpha = 1023/1024 after the first CNP; rate = R * (1 - alpha/2).
  EXPECT_EQ(s.alpha_q20, 1023u << 10);
  EXPECT_EQ(a.rate_kbps, CutOf(kLineKbps, 1023u << 10));
  EXPECT_NEAR(a.rate_kbps, kLineKbps * (1.0 - 1023.0 / 2048.0), 2.0);
  EXPECT_EQ(a.timer_ns, 1000u + 300000u);  // rp_time_reset = 300 us
  EXPECT_EQ(dq::RpRateKbps(cfg, s), a.rate_kbps);
  // mlx5 default: no timer increase yet, so the target stays at line rate.
  EXPECT_EQ(s.rt_kbps, kLineKbps);
}

TEST(DcqcnRp, CutNeverBelowMinDecFactor) {
  dq::Params p = dq::Params::Mlx5(kLine);
  p.rp_min_dec_fac = 80;  // a cut keeps at least 80 % of the rate
  const dq::Config cfg = MustCompile(p);
  dq::RpState s;
  dq::RpInit(cfg, &s);
  EXPECT_EQ(dq::RpOnCnp(cfg, &s, 0).rate_kbps, kLineKbps / 100u * 80u);
  // With rp_gd = 10 the equation alone would cut to R * (1 - alpha): the
  // floor still holds at 80 %.
  p.rp_gd = 10;
  const dq::Config cfg2 = MustCompile(p);
  dq::RpInit(cfg2, &s);
  EXPECT_EQ(dq::RpOnCnp(cfg2, &s, 0).rate_kbps, 80000000u);
  // And rp_gd = 12 cuts by alpha/4, above a 50 % floor.
  p.rp_gd = 12;
  p.rp_min_dec_fac = 50;
  const dq::Config cfg3 = MustCompile(p);
  dq::RpInit(cfg3, &s);
  EXPECT_EQ(dq::RpOnCnp(cfg3, &s, 0).rate_kbps, CutOf(kLineKbps, 1023u << 10, 12));
}

TEST(DcqcnRp, FirstCnpUsesConfiguredStartRate) {
  dq::Params p = dq::Params::Mlx5(kLine);
  p.rp_rate_to_set_on_first_cnp = 20000;
  const dq::Config cfg = MustCompile(p);
  dq::RpState s;
  dq::RpInit(cfg, &s);
  EXPECT_EQ(dq::RpOnCnp(cfg, &s, 0).rate_kbps, CutOf(20000000u, 1023u << 10));
  EXPECT_EQ(s.rt_kbps, 20000000u);
}

// Alpha decays by (1 - g) per quiet period: k periods after the first CNP,
// alpha = alpha0 * keep^k. Checked for both profiles and several k.
TEST(DcqcnRp, AlphaDecaysAcrossQuietPeriods) {
  for (const dq::Params& p : {dq::Params::Mlx5(kLine), dq::Params::Paper(kLine)}) {
    const dq::Config cfg = MustCompile(p);
    const double keep = p.rp_dce_tcp_g / 1024.0;
    const uint32_t period_ns = p.rp_dce_tcp_rtt * 1000u;
    for (uint32_t k : {1u, 2u, 3u, 7u, 50u, 200u, 1000u}) {
      dq::RpState s;
      dq::RpInit(cfg, &s);
      (void)dq::RpOnCnp(cfg, &s, 0);
      const uint32_t rc_before = s.rc_kbps;
      // Second CNP just inside period k+1 (past the monitor period).
      const uint32_t t = k * period_ns + period_ns / 2;
      const Action a = dq::RpOnCnp(cfg, &s, t);
      const double want = (1023.0 / 1024.0) * std::pow(keep, k);
      EXPECT_NEAR(s.alpha_q20 / 1048576.0, want, 4.0 / 1048576.0 + want * 1e-4)
          << "k=" << k << " g=" << p.rp_dce_tcp_g;
      if (t >= cfg.monitor_ns) {
        ASSERT_TRUE(a.Has(nicc::kActSetRate)) << k;
        EXPECT_EQ(a.rate_kbps, std::max(CutOf(rc_before, s.alpha_q20), rc_before / 2)) << k;
      }
    }
  }
}

TEST(DcqcnRp, AlphaRisesByGWhenAPeriodSawACnp) {
  const dq::Params p = dq::Params::Paper(kLine);  // g = 1/256, 55 us periods
  const dq::Config cfg = MustCompile(p);
  dq::RpState s;
  dq::RpInit(cfg, &s);
  (void)dq::RpOnCnp(cfg, &s, 0);
  // Periods of 55 us: [0,55) has the first CNP (its alpha is the initial
  // value); decay at 55 -> a*keep. A CNP at 60 marks [55,110). At 170 the
  // period [55,110) closes with +g and [110,165) closes quiet.
  (void)dq::RpOnCnp(cfg, &s, 60000);
  const double a0 = 1023.0 / 1024.0, keep = 1020.0 / 1024.0, g = 4.0 / 1024.0;
  EXPECT_NEAR(s.alpha_q20 / 1048576.0, a0 * keep, 2e-6);
  (void)dq::RpOnCnp(cfg, &s, 170000);
  // keep^n for n >= 1 quiet periods is 2^(-n L) with a 64-step table and
  // linear interpolation (docs/dcqcn.md, "Alpha"): within 1.5e-5 of alpha.
  EXPECT_NEAR(s.alpha_q20 / 1048576.0, (a0 * keep * keep + g) * keep, 2e-5);
}

// keep^n for every keep the parameter can hold (rp_dce_tcp_g = 0..1023)
// and quiet-period counts from 1 to beyond the point where alpha is 0:
// within 16 Q20 units of alpha * keep^n (docs/dcqcn.md, "Alpha").
TEST(DcqcnRp, KeepPowWithinItsBoundForEveryKeep) {
  const uint32_t ns[] = {1, 2, 3, 7, 63, 64, 65, 100, 255, 1000, 4095, 4096, 10000, 16383, 65535, 65536, 1u << 30};
  double worst = 0;
  for (uint32_t k = 0; k <= 1023; ++k) {
    dq::Params p = dq::Params::Mlx5(kLine);
    p.rp_dce_tcp_g = k;
    const dq::Config cfg = MustCompile(p);
    for (uint32_t n : ns) {
      for (uint32_t alpha : {1u << 20, 1023u << 10, 300000u, 777u}) {
        const double want = alpha * std::pow(k / 1024.0, static_cast<double>(n));
        const double got = dq::detail::KeepPow(cfg, alpha, n);
        ASSERT_NEAR(got, want, 16.0) << "k " << k << " n " << n << " alpha " << alpha;
        worst = std::max(worst, std::fabs(got - want));
      }
    }
  }
  EXPECT_GT(worst, 0.5) << "the bound is exercised";
}

TEST(DcqcnRp, MonitorPeriodHoldsSecondCut) {
  const dq::Config cfg = MustCompile(dq::Params::Mlx5(kLine));  // 4 us
  dq::RpState s;
  dq::RpInit(cfg, &s);
  const uint32_t r1 = dq::RpOnCnp(cfg, &s, 0).rate_kbps;
  EXPECT_EQ(dq::RpOnCnp(cfg, &s, 3999).flags, 0) << "inside the monitor period: no cut";
  EXPECT_EQ(s.rc_kbps, r1);
  const Action a = dq::RpOnCnp(cfg, &s, 4000);
  ASSERT_TRUE(a.Has(nicc::kActSetRate));
  EXPECT_LT(a.rate_kbps, r1);
}

// Fast recovery: with the target fixed, each of the first F timer stages
// halves the gap between current and target rate.
TEST(DcqcnRp, FastRecoveryHalvesTheGapInFStages) {
  const dq::Params p = dq::Params::Paper(kLine);  // F = 5, clamp target at cut
  const dq::Config cfg = MustCompile(p);
  dq::RpState s;
  dq::RpInit(cfg, &s);
  (void)dq::RpOnCnp(cfg, &s, 0);
  (void)dq::RpOnCnp(cfg, &s, 60000);  // second cut: target = rate before it
  const uint32_t rt = s.rt_kbps;
  uint32_t gap = rt - s.rc_kbps;
  ASSERT_GT(gap, 1000000u);
  uint32_t now = 60000;
  for (uint32_t stage = 0; stage < p.rp_threshold; ++stage) {
    now += cfg.time_reset_ns;
    const Action a = dq::RpOnTimer(cfg, &s, now);
    ASSERT_TRUE(a.Has(nicc::kActSetRate));
    ASSERT_TRUE(a.Has(nicc::kActArmTimer));
    EXPECT_EQ(a.timer_ns, now + cfg.time_reset_ns);
    EXPECT_EQ(s.rt_kbps, rt) << "fast recovery leaves the target alone";
    const uint32_t new_gap = rt - s.rc_kbps;
    EXPECT_EQ(new_gap, gap / 2) << "stage " << stage;  // (rt + rc + 1) / 2
    gap = new_gap;
  }
  // Stage F+1 is additive: target += R_AI, then average.
  const uint32_t rc = s.rc_kbps;
  now += cfg.time_reset_ns;
  (void)dq::RpOnTimer(cfg, &s, now);
  EXPECT_EQ(s.rt_kbps, rt + 40000u);
  EXPECT_EQ(s.rc_kbps, (rt + 40000u + rc + 1u) / 2u);
}

// Additive then hyper increase with both clocks: mlx5's F = 1.
TEST(DcqcnRp, AdditiveThenHyperIncrease) {
  dq::Params p = dq::Params::Mlx5(kLine);
  p.rp_clamp_tgt_rate = 1;  // target = current at every cut
  const dq::Config cfg = MustCompile(p);
  dq::RpState s;
  dq::RpInit(cfg, &s);
  (void)dq::RpOnCnp(cfg, &s, 0);
  const uint32_t rt0 = s.rt_kbps;
  ASSERT_EQ(rt0, kLineKbps);  // first CNP: target = start rate
  (void)dq::RpOnCnp(cfg, &s, 10000);
  const uint32_t rt1 = s.rt_kbps;
  ASSERT_LT(rt1, kLineKbps);
  const uint32_t byte_stage = p.rp_byte_reset;
  uint32_t now = 10000;
  // (T, BC) before each expiry -> stage:
  // timer  (0,0) FR | bytes (1,0) AI | timer (1,1) AI | bytes (2,1) AI |
  // timer  (2,2) HAI | bytes (3,2) HAI
  struct Step {
    bool timer;
    uint32_t rt_add_kbps;
  };
  const Step steps[] = {{true, 0}, {false, 5000}, {true, 5000}, {false, 5000}, {true, 50000}, {false, 50000}};
  uint32_t rt = rt1;
  for (const Step& st : steps) {
    const uint32_t rc = s.rc_kbps;
    if (st.timer) {
      now += cfg.time_reset_ns;
      (void)dq::RpOnTimer(cfg, &s, now);
    } else {
      (void)dq::RpOnTxBytes(cfg, &s, byte_stage, now);
    }
    rt += st.rt_add_kbps;
    EXPECT_EQ(s.rt_kbps, rt);
    EXPECT_EQ(s.rc_kbps, (rt + rc + 1) / 2);
  }
}

TEST(DcqcnRp, ByteCounterTriggersIncrease) {
  const dq::Config cfg = MustCompile(dq::Params::Mlx5(kLine));
  dq::RpState s;
  dq::RpInit(cfg, &s);
  const uint32_t r = dq::RpOnCnp(cfg, &s, 0).rate_kbps;
  // 32766 bytes in packets of 1000 and a remainder: no stage yet.
  uint32_t sent = 0;
  while (sent + 1000 <= 32766) {
    EXPECT_EQ(dq::RpOnTxBytes(cfg, &s, 1000, 100).flags, 0);
    sent += 1000;
  }
  EXPECT_EQ(dq::RpOnTxBytes(cfg, &s, 32766 - sent, 100).flags, 0);
  EXPECT_EQ(s.rc_kbps, r);
  // The 32767th byte completes the stage: fast recovery toward the target.
  const Action a = dq::RpOnTxBytes(cfg, &s, 1, 100);
  ASSERT_TRUE(a.Has(nicc::kActSetRate));
  EXPECT_EQ(a.rate_kbps, (kLineKbps + r + 1) / 2);
  EXPECT_EQ(s.bc_stage, 1);
  EXPECT_EQ(s.bc_bytes, 0u);
  // Leftover bytes carry into the next stage.
  (void)dq::RpOnTxBytes(cfg, &s, 40000, 200);
  EXPECT_EQ(s.bc_stage, 2);
  EXPECT_EQ(s.bc_bytes, 40000u - 32767u);
}

TEST(DcqcnRp, ByteCounterOffMeansTimerOnly) {
  dq::Params p = dq::Params::Paper(kLine);
  p.rp_byte_reset = 0;
  const dq::Config cfg = MustCompile(p);
  dq::RpState s;
  dq::RpInit(cfg, &s);
  (void)dq::RpOnCnp(cfg, &s, 0);
  (void)dq::RpOnCnp(cfg, &s, 60000);  // target = current, below line rate
  for (int i = 0; i < 100; ++i) EXPECT_EQ(dq::RpOnTxBytes(cfg, &s, 1u << 30, 100).flags, 0);
  // F timer stages of fast recovery, then additive forever: never hyper.
  uint32_t now = 60000;
  for (int i = 0; i < 5; ++i) (void)dq::RpOnTimer(cfg, &s, now += cfg.time_reset_ns);
  for (int i = 0; i < 20; ++i) {
    const uint32_t rt = s.rt_kbps;
    (void)dq::RpOnTimer(cfg, &s, now += cfg.time_reset_ns);
    EXPECT_EQ(s.rt_kbps, rt + 40000u);
  }
}

TEST(DcqcnRp, ClampsAtMinAndMaxRate) {
  dq::Params p = dq::Params::Paper(kLine);
  p.rp_min_rate = 30000;  // 30 Gb/s floor
  p.rp_max_rate = 60000;  // 60 Gb/s ceiling
  const dq::Config cfg = MustCompile(p);
  dq::RpState s;
  dq::RpInit(cfg, &s);
  EXPECT_EQ(dq::RpRateKbps(cfg, s), 60000000u);
  uint32_t now = 0;
  for (int i = 0; i < 10; ++i) {
    const Action a = dq::RpOnCnp(cfg, &s, now += 60000);
    EXPECT_GE(a.rate_kbps, 30000000u);
  }
  EXPECT_EQ(s.rc_kbps, 30000000u);
  // Recover: never above 60 Gb/s; released exactly at 60 Gb/s.
  bool released = false;
  for (int i = 0; i < 100000 && !released; ++i) {
    now = s.timer_due_ns;
    const Action a = dq::RpOnTimer(cfg, &s, now);
    EXPECT_LE(a.rate_kbps, 60000000u);
    EXPECT_LE(s.rt_kbps, 60000000u);
    released = a.Has(nicc::kActCancelTimer);
    if (released) {
      EXPECT_EQ(a.rate_kbps, 60000000u);
    }
  }
  EXPECT_TRUE(released);
  EXPECT_EQ(s.flags & dq::kRpActive, 0);
  EXPECT_EQ(dq::RpRateKbps(cfg, s), 60000000u);
}

TEST(DcqcnRp, TargetClampAfterTimerIncrease) {
  const dq::Config cfg = MustCompile(dq::Params::Mlx5(kLine));  // clamp 0, ati 1
  dq::RpState s;
  dq::RpInit(cfg, &s);
  (void)dq::RpOnCnp(cfg, &s, 0);
  (void)dq::RpOnTxBytes(cfg, &s, 32767, 10);  // byte stage only
  (void)dq::RpOnCnp(cfg, &s, 20000);
  EXPECT_EQ(s.rt_kbps, kLineKbps) << "no timer increase since the cut: target kept";
  (void)dq::RpOnTimer(cfg, &s, 20000 + 300000);
  const uint32_t rc = s.rc_kbps;
  (void)dq::RpOnCnp(cfg, &s, 330000);
  EXPECT_EQ(s.rt_kbps, rc) << "a timer increase since the cut: target = current";
}

TEST(DcqcnRp, EarlyAndStaleTimersAreHarmless) {
  const dq::Config cfg = MustCompile(dq::Params::Mlx5(kLine));
  dq::RpState s;
  dq::RpInit(cfg, &s);
  (void)dq::RpOnCnp(cfg, &s, 0);
  const dq::RpState before = s;
  const Action early = dq::RpOnTimer(cfg, &s, 299999);
  EXPECT_EQ(early.flags, nicc::kActArmTimer);
  EXPECT_EQ(early.timer_ns, 300000u);
  EXPECT_EQ(std::memcmp(&before, &s, sizeof s), 0);
  // A CNP re-arms the timer; the old deadline then counts as early.
  (void)dq::RpOnCnp(cfg, &s, 200000);
  EXPECT_EQ(dq::RpOnTimer(cfg, &s, 300000).flags, nicc::kActArmTimer);
}

// The same CNP burst and recovery started at t = 0 and just before the 32-bit
// clock wraps give the same rates, stage for stage.
TEST(DcqcnRp, ClockRolloverInTheMiddleOfRecovery) {
  const dq::Config cfg = MustCompile(dq::Params::Paper(kLine));
  for (uint32_t base : {0u, 0xFFFFFFFFu - 150000u, 0xFFFFFFFFu - 1000000u}) {
    SCOPED_TRACE(base);
    dq::RpState ref, s;
    dq::RpInit(cfg, &ref);
    dq::RpInit(cfg, &s);
    const uint32_t cnps[] = {0, 60000, 130000};
    for (uint32_t t : cnps) {
      const Action want = dq::RpOnCnp(cfg, &ref, t);
      const Action got = dq::RpOnCnp(cfg, &s, base + t);
      EXPECT_EQ(got.rate_kbps, want.rate_kbps);
      EXPECT_EQ(got.timer_ns - base, want.timer_ns);
    }
    for (int i = 0; i < 200; ++i) {
      const uint32_t t = ref.timer_due_ns;
      const Action want = dq::RpOnTimer(cfg, &ref, t);
      const Action got = dq::RpOnTimer(cfg, &s, base + t);
      ASSERT_EQ(got.flags, want.flags) << i;
      ASSERT_EQ(got.rate_kbps, want.rate_kbps) << i;
      (void)dq::RpOnTxBytes(cfg, &ref, 4096, t + 1);
      (void)dq::RpOnTxBytes(cfg, &s, 4096, base + t + 1);
      if (i == 100) {  // and a CNP mid-recovery, across the wrap for base != 0
        EXPECT_EQ(dq::RpOnCnp(cfg, &s, base + t + 2).rate_kbps, dq::RpOnCnp(cfg, &ref, t + 2).rate_kbps);
        EXPECT_EQ(s.alpha_q20, ref.alpha_q20);
      }
    }
  }
}

TEST(DcqcnRp, RatesReach1600Gbps) {
  const dq::Config cfg = MustCompile(dq::Params::Mlx5(1600000));
  dq::RpState s;
  dq::RpInit(cfg, &s);
  EXPECT_EQ(dq::RpRateKbps(cfg, s), 1600000000u);
  const Action a = dq::RpOnCnp(cfg, &s, 0);
  EXPECT_EQ(a.rate_kbps, CutOf(1600000000u, 1023u << 10));
  // Recovery back to exactly 1.6 Tb/s without overflow.
  bool released = false;
  for (int i = 0; i < 1000 && !released; ++i) {
    released = dq::RpOnTxBytes(cfg, &s, 32767, static_cast<uint32_t>(i)).Has(nicc::kActCancelTimer);
    EXPECT_LE(s.rc_kbps, 1600000000u);
  }
  EXPECT_TRUE(released);
}

// ---------------------------------------------------------------------------
// Notification point.
// ---------------------------------------------------------------------------

TEST(DcqcnNp, AtMostOneCnpPerInterval) {
  const dq::Config cfg = MustCompile(dq::Params::Mlx5(kLine));  // 4 us
  dq::NpState s;
  dq::NpInit(&s);
  EXPECT_FALSE(dq::NpOnPacket(cfg, &s, false, 0).Has(nicc::kActSendCnp));
  EXPECT_TRUE(dq::NpOnPacket(cfg, &s, true, 100).Has(nicc::kActSendCnp));
  EXPECT_FALSE(dq::NpOnPacket(cfg, &s, true, 200).Has(nicc::kActSendCnp)) << "two CE in 4 us: one CNP";
  EXPECT_FALSE(dq::NpOnPacket(cfg, &s, true, 4099).Has(nicc::kActSendCnp));
  EXPECT_TRUE(dq::NpOnPacket(cfg, &s, true, 4100).Has(nicc::kActSendCnp));
  EXPECT_FALSE(dq::NpOnPacket(cfg, &s, false, 9000).Has(nicc::kActSendCnp));
}

TEST(DcqcnNp, PacingAcrossClockWrapAndLongSilence) {
  const dq::Config cfg = MustCompile(dq::Params::Paper(kLine));  // 50 us
  dq::NpState s;
  dq::NpInit(&s);
  const uint32_t t0 = 0xFFFFFFFFu - 20000u;
  EXPECT_TRUE(dq::NpOnPacket(cfg, &s, true, t0).Has(nicc::kActSendCnp));
  EXPECT_FALSE(dq::NpOnPacket(cfg, &s, true, t0 + 49999u).Has(nicc::kActSendCnp));  // wrapped
  EXPECT_TRUE(dq::NpOnPacket(cfg, &s, true, t0 + 50000u).Has(nicc::kActSendCnp));
  // Silence of 3 s (beyond the 2^31 ns horizon): the next CE gets a CNP.
  EXPECT_TRUE(dq::NpOnPacket(cfg, &s, true, t0 + 50000u + 3000000000u).Has(nicc::kActSendCnp));
}

TEST(DcqcnNp, ZeroIntervalSendsForEveryCe) {
  dq::Params p = dq::Params::Mlx5(kLine);
  p.np_min_time_between_cnps = 0;
  const dq::Config cfg = MustCompile(p);
  dq::NpState s;
  dq::NpInit(&s);
  for (uint32_t t = 0; t < 10; ++t) EXPECT_TRUE(dq::NpOnPacket(cfg, &s, true, t).Has(nicc::kActSendCnp));
}

}  // namespace

// ---------------------------------------------------------------------------
// sigcomm15 variant and rp_cut_on_grid (docs/dcqcn.md, Variants; the HPCC
// simulator's DCQCN). The vectors cover them in depth; these pin the rules
// in closed form.

TEST(DcqcnSigcomm15, AlphaMovesAtEveryCnpAndTheCutUsesTheOldAlpha) {
  dq::Params p = dq::Params::Paper(kLine);
  p.variant = dq::kVariantSigcomm15;
  const dq::Config cfg = MustCompile(p);
  dq::RpState s;
  dq::RpInit(cfg, &s);
  const uint32_t a0 = 1023u << 10;
  Action a = dq::RpOnCnp(cfg, &s, 0);
  EXPECT_EQ(a.rate_kbps, CutOf(kLineKbps, a0));
  const uint32_t a1 = static_cast<uint32_t>((uint64_t{a0} * cfg.alpha_keep_q20) >> 20) + cfg.alpha_g_q20;
  EXPECT_EQ(s.alpha_q20, a1);
  // A second CNP 10 us later (inside K = 55 us): no decay, the cut uses a1.
  const uint32_t rc = s.rc_kbps;
  a = dq::RpOnCnp(cfg, &s, 10000);
  EXPECT_EQ(a.rate_kbps, CutOf(rc, a1));
  EXPECT_EQ(s.alpha_q20, static_cast<uint32_t>((uint64_t{a1} * cfg.alpha_keep_q20) >> 20) + cfg.alpha_g_q20);
}

TEST(DcqcnSigcomm15, StateDoesNotGrow) {
  static_assert(sizeof(dq::RpState) == 32, "RpState stays 32 bytes with the sigcomm15 variant");
  EXPECT_EQ(nicc::kDcqcnVariantCount, 2u);
  EXPECT_STREQ(nicc::kDcqcnVariants[dq::kVariantSigcomm15].name, "sigcomm15");
}

TEST(DcqcnGrid, FirstCnpCutsAtTheFirstCheck) {
  dq::Params p = dq::Params::Mlx5(kLine);
  p.rp_cut_on_grid = 1;
  const dq::Config cfg = MustCompile(p);
  dq::RpState s;
  dq::RpInit(cfg, &s);
  Action a = dq::RpOnCnp(cfg, &s, 1000);
  EXPECT_EQ(a.flags, nicc::kActSetRate | nicc::kActArmTimer);
  EXPECT_EQ(a.rate_kbps, kLineKbps);  // no cut yet
  EXPECT_EQ(a.timer_ns, 5000u);       // the first check, 4 us later
  a = dq::RpOnTimer(cfg, &s, 5000);
  EXPECT_LT(a.rate_kbps, kLineKbps / 100 * 52);  // cut by about alpha/2 at the check
  EXPECT_EQ(a.timer_ns, 5000u + 300000u);        // the increase timer starts at the cut
  // A CNP between checks arms the next check on the grid (9 us), not 4 us after it.
  a = dq::RpOnCnp(cfg, &s, 6500);
  EXPECT_EQ(a.flags, nicc::kActArmTimer);
  EXPECT_EQ(a.timer_ns, 9000u);
}

TEST(DcqcnGrid, ParameterErrorsNameTheField) {
  dq::Params p = dq::Params::Paper(kLine);  // monitor period 0
  p.rp_cut_on_grid = 1;
  nicc::Status st = p.Validate();
  EXPECT_EQ(st.code, nicc::StatusCode::kInconsistent);
  EXPECT_STREQ(st.field, "rp_cut_on_grid");
  p = dq::Params::Mlx5(kLine);
  p.rp_cut_on_grid = 1;
  p.variant = dq::kVariantSigcomm15;
  st = p.Validate();
  EXPECT_EQ(st.code, nicc::StatusCode::kUnsupported);
  EXPECT_STREQ(st.field, "rp_cut_on_grid");
  p.rp_cut_on_grid = 0;
  p.variant = 2;
  st = p.Validate();
  EXPECT_EQ(st.code, nicc::StatusCode::kOutOfRange);
  EXPECT_STREQ(st.field, "variant");
}

TEST(DcqcnGrid, CheckPeriodPlusTimerPeriodStaysInsideTheHorizon) {
  dq::Params p = dq::Params::Mlx5(kLine);  // P + T = 2147483 us < 2^31 ns: accepted
  p.rp_cut_on_grid = 1;
  p.rp_rate_reduce_monitor_period = 1073742;
  p.rp_time_reset = 1073741;
  EXPECT_TRUE(p.Validate().ok());
  p.rp_time_reset = 1073742;  // 1 us more: refused
  const nicc::Status st = p.Validate();
  EXPECT_EQ(st.code, nicc::StatusCode::kInconsistent);
  EXPECT_STREQ(st.field, "rp_cut_on_grid");
  p.rp_cut_on_grid = 0;  // without the grid each period is only held to 2^31 ns
  EXPECT_TRUE(p.Validate().ok());
}
