// Property test: the fixed-point DCQCN reaction point against a
// double-precision model of the same equations (tests/double_models.h), from
// docs/dcqcn.md and sharing no code with the engine. 10^5 seeded random
// events (CNPs, timer expiries, sent bytes) over several profiles; at every
// step the engine's rate must be within max(0.5 %, 1 Mb/s) of the model's,
// and both must agree on every discrete decision (timer deadlines, release).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>

#include "double_models.h"
#include "nicc/dcqcn.h"

namespace dq = nicc::dcqcn;

namespace {

using Model = double_models::dcqcn::Model;

struct Profile {
  const char* name;
  dq::Params params;
};

// Runs `events` random events on one flow and compares engine and model.
// Raises *worst to the worst relative error seen (for the report).
void RunStream(const Profile& prof, uint32_t seed, int events, uint64_t t0, double* worst) {
  dq::Config cfg{};
  EXPECT_TRUE(dq::Compile(prof.params, &cfg).ok());
  dq::RpState s;
  dq::RpInit(cfg, &s);
  Model m(prof.params);
  std::mt19937 rng(seed);
  // Event mix: congestion episodes with CNPs every ~20-100 us, and quiet
  // stretches where only packets and timers happen.
  std::uniform_real_distribution<double> u(0.0, 1.0);
  uint64_t now = t0;
  bool engine_timer = false;
  uint64_t engine_due = 0;
  bool congested = true;
  for (int i = 0; i < events; ++i) {
    if (u(rng) < 0.01) congested = !congested;
    const double mean_gap_ns = congested ? 3000.0 : 20000.0;
    const uint64_t gap = static_cast<uint64_t>(-std::log(1.0 - u(rng)) * mean_gap_ns);
    uint64_t next = now + gap;
    nicc::Action a;
    const char* what;
    if (engine_timer && engine_due <= next) {
      now = engine_due;
      engine_timer = false;
      ASSERT_EQ(m.timer_due(), engine_due) << "timer deadlines differ";
      a = dq::RpOnTimer(cfg, &s, static_cast<uint32_t>(now));
      m.Timer(now);
      what = "timer";
    } else {
      now = next;
      const double r = u(rng);
      if (congested && r < 0.15) {
        a = dq::RpOnCnp(cfg, &s, static_cast<uint32_t>(now));
        m.Cnp(now);
        what = "cnp";
      } else {
        const uint32_t bytes = 64 + static_cast<uint32_t>(u(rng) * 9000.0);
        a = dq::RpOnTxBytes(cfg, &s, bytes, static_cast<uint32_t>(now));
        m.Bytes(bytes);
        what = "bytes";
      }
    }
    if (a.Has(nicc::kActArmTimer)) {
      engine_timer = true;
      engine_due = now + static_cast<uint32_t>(a.timer_ns - static_cast<uint32_t>(now));
    }
    if (a.Has(nicc::kActCancelTimer)) engine_timer = false;

    const bool engine_active = (s.flags & dq::kRpActive) != 0;
    ASSERT_EQ(engine_active, m.active())
        << prof.name << " seed " << seed << " event " << i << " (" << what << ")";
    const double got = dq::RpRateKbps(cfg, s) / 1000.0;
    const double want = m.rate_mbps();
    const double tol = std::max(0.005 * want, 1.0);
    ASSERT_NEAR(got, want, tol) << prof.name << " seed " << seed << " event " << i << " (" << what
                                << ") t=" << now;
    *worst = std::max(*worst, std::fabs(got - want) / want);
  }
}

TEST(DcqcnProperty, EngineMatchesDoubleModelOver1e5Events) {
  dq::Params mlx5_clamped = dq::Params::Mlx5(100000);
  mlx5_clamped.rp_clamp_tgt_rate = 1;
  dq::Params paper_400g = dq::Params::Paper(400000);
  paper_400g.rp_byte_reset = 256 * 1024;  // byte stages actually happen
  dq::Params tuned = dq::Params::Mlx5(200000);
  tuned.rp_min_dec_fac = 70;
  tuned.rp_gd = 12;
  tuned.rp_threshold = 3;
  tuned.rp_rate_to_set_on_first_cnp = 50000;
  tuned.rp_max_rate = 150000;
  tuned.rp_dce_tcp_rtt = 10;
  const Profile profiles[] = {
      {"mlx5-100G", dq::Params::Mlx5(100000)},
      {"mlx5-clamped", mlx5_clamped},
      {"paper-100G", dq::Params::Paper(100000)},
      {"paper-400G", paper_400g},
      {"tuned-200G", tuned},
  };
  int total = 0;
  double worst = 0.0;
  uint32_t seed = 1;
  for (const Profile& prof : profiles) {
    for (int stream = 0; stream < 20; ++stream, ++seed) {
      // Half the streams start a few ms before the 32-bit clock wraps.
      const uint64_t t0 = (stream % 2) ? 0xFFFFFFFFull - 3000000ull : 1000;
      RunStream(prof, seed, 1000, t0, &worst);
      if (HasFatalFailure()) return;
      total += 1000;
    }
  }
  EXPECT_EQ(total, 100000);
  RecordProperty("worst_relative_error", std::to_string(worst));
  std::printf("worst relative rate error over %d events: %.3g\n", total, worst);
}

}  // namespace
