// Double-precision models of DCQCN's reaction point and of HPCC's window
// law, written from docs/dcqcn.md, docs/hpcc.md and the HPCC paper (Li et
// al., SIGCOMM 2019, Algorithm 1) in real numbers. They share no arithmetic
// with the engine (only its parameter structs and the INT rate-code table).
// Used by the property tests (tests/dcqcn_property_test.cc,
// tests/hpcc_property_test.cc), which check the engine against them, and by
// bench/fixed_vs_double_bench.cc, which times both on one event stream.
#ifndef NICC_TESTS_DOUBLE_MODELS_H_
#define NICC_TESTS_DOUBLE_MODELS_H_

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "nicc/dcqcn.h"
#include "nicc/hpcc.h"
#include "nicc/int_codec.h"

namespace double_models {
namespace dcqcn {

namespace dq = nicc::dcqcn;

// The model: rates in Mb/s as doubles, time as 64-bit ns.
class Model {
 public:
  explicit Model(const dq::Params& p) : p_(p) {
    max_ = p.rp_max_rate ? p.rp_max_rate : p.line_rate_mbps;
    g_ = 1.0 - p.rp_dce_tcp_g / 1024.0;
  }

  bool active() const { return active_; }
  double rate_mbps() const { return active_ ? rc_ : max_; }
  uint64_t timer_due() const { return due_; }

  void Cnp(uint64_t now) {
    if (!active_) {
      active_ = true;
      rc_ = rt_ = p_.rp_rate_to_set_on_first_cnp ? p_.rp_rate_to_set_on_first_cnp : max_;
      alpha_ = p_.rp_initial_alpha_value / 1024.0;
      alpha_start_ = now;
      cnp_in_period_ = false;
      Cut(now);
      return;
    }
    CatchUp(now);
    cnp_in_period_ = true;
    if (cut_open_ || now - last_cut_ >= p_.rp_rate_reduce_monitor_period * 1000ull) Cut(now);
  }

  void Timer(uint64_t now) {
    CatchUp(now);
    if (now - last_cut_ >= p_.rp_rate_reduce_monitor_period * 1000ull) cut_open_ = true;
    Increase(true);
    if (active_) due_ = now + p_.rp_time_reset * 1000ull;
  }

  void Bytes(uint64_t bytes) {
    if (!active_ || p_.rp_byte_reset == 0) return;
    bc_bytes_ += bytes;
    if (bc_bytes_ < p_.rp_byte_reset) return;
    bc_bytes_ -= p_.rp_byte_reset;
    if (bc_bytes_ >= p_.rp_byte_reset) bc_bytes_ = p_.rp_byte_reset - 1;
    Increase(false);
  }

 private:
  // Alpha periods of rp_dce_tcp_rtt: a period closes with
  // alpha = (1-g) alpha + g if it saw a CNP, else (1-g) alpha.
  void CatchUp(uint64_t now) {
    const uint64_t period = p_.rp_dce_tcp_rtt * 1000ull;
    const uint64_t k = (now - alpha_start_) / period;
    if (k == 0) return;
    alpha_start_ += k * period;
    alpha_ = (1.0 - g_) * alpha_ + (cnp_in_period_ ? g_ : 0.0);
    cnp_in_period_ = false;
    alpha_ *= std::pow(1.0 - g_, static_cast<double>(k - 1));
  }

  void Cut(uint64_t now) {
    if (p_.rp_clamp_tgt_rate || (p_.rp_clamp_tgt_rate_ati && timer_inc_)) rt_ = rc_;
    double next = rc_ * (1.0 - alpha_ / std::ldexp(1.0, static_cast<int>(p_.rp_gd) - 10));
    next = std::max(next, rc_ * p_.rp_min_dec_fac / 100.0);
    next = std::max(next, static_cast<double>(p_.rp_min_rate));
    rc_ = next;
    rt_ = std::max(rt_, rc_);
    t_ = bc_ = 0;
    bc_bytes_ = 0;
    last_cut_ = now;
    cut_open_ = false;
    timer_inc_ = false;
    due_ = now + p_.rp_time_reset * 1000ull;
  }

  void Increase(bool by_timer) {
    const int f = static_cast<int>(p_.rp_threshold);
    if (std::max(t_, bc_) >= f) {
      rt_ = std::min(rt_ + (std::min(t_, bc_) > f ? p_.rp_hai_rate : p_.rp_ai_rate), max_);
    }
    rc_ = (rt_ + rc_) / 2.0;
    if (by_timer) {
      t_ = std::min(t_ + 1, 255);
      timer_inc_ = true;
    } else {
      bc_ = std::min(bc_ + 1, 255);
    }
    if (rt_ >= max_ && max_ - rc_ <= 1.0) {
      active_ = false;
      rc_ = max_;
    }
  }

  dq::Params p_;
  double max_, g_;
  bool active_ = false;
  double rc_ = 0, rt_ = 0, alpha_ = 0;
  uint64_t alpha_start_ = 0, last_cut_ = 0, due_ = 0, bc_bytes_ = 0;
  bool cnp_in_period_ = false, cut_open_ = false, timer_inc_ = false;
  int t_ = 0, bc_ = 0;
};

}  // namespace dcqcn

namespace hpcc {

// ---------------------------------------------------------------------------
// The model, in double precision.
// ---------------------------------------------------------------------------

struct ModelParams {
  double line_gbps, t_ns, eta, w_ai, w_min, max_stage;
};

struct ModelRecord {
  uint32_t code, ts, tx, q;  // as on the wire
};

class Model {
 public:
  explicit Model(const ModelParams& p, uint32_t start_seq)
      : p_(p),
        bdp_(std::floor(p.line_gbps / 8.0 * p.t_ns)),
        wc_(bdp_),
        w_(bdp_),
        last_seq_(start_seq) {}

  // Returns whether the ACK moves the window. `engine_u` is used only to
  // settle hops whose u values are equal to within the engine's resolution
  // but whose tau differ (the paper's rule is then ambiguous in practice);
  // `ambiguous` counts those.
  bool Ack(uint32_t ack_seq, uint32_t snd_nxt, const ModelRecord* rec, size_t hops,
           uint32_t mult_log2, double engine_u, int* ambiguous) {
    if (!have_ || hops != hops_ || mult_log2 != mult_) {
      for (size_t i = 0; i < hops; ++i) last_[i] = rec[i];
      hops_ = hops;
      mult_ = mult_log2;
      have_ = true;
      return false;
    }
    const double mult = std::ldexp(1.0, static_cast<int>(mult_log2));
    struct Sample {
      double u, d;
    };
    Sample samples[8];
    size_t n = 0;
    for (size_t i = 0; i < hops; ++i) {
      const uint32_t d = (rec[i].ts - last_[i].ts) & 0xFFFFFFu;
      if (d == 0) continue;  // the hop's clock did not move: keep its old record
      const double bytes = static_cast<double>((rec[i].tx - last_[i].tx) & 0xFFFFFu) * 128.0 * mult;
      const double qlen = std::min(rec[i].q, last_[i].q) * 80.0 * mult;
      const double b = nicc::IntRateGbps(rec[i].code) / 8.0;  // bytes per ns
      const double u = qlen / (b * p_.t_ns) + bytes / d / b;
      samples[n++] = {std::min(u, 64.0), static_cast<double>(d)};
      last_[i] = rec[i];
    }
    if (n == 0) return false;
    // Largest u; ties to the later hop.
    size_t best = 0;
    for (size_t i = 1; i < n; ++i)
      if (samples[i].u >= samples[best].u) best = i;
    auto ewma = [&](const Sample& s) {
      const double tau = std::min(s.d, p_.t_ns);
      return u_ * (1 - tau / p_.t_ns) + s.u * tau / p_.t_ns;
    };
    const double first = ewma(samples[best]);
    double next_u = first;
    for (size_t i = 0; i < n; ++i) {
      if (samples[i].u < samples[best].u * (1 - 2e-5) - 1e-9) continue;
      const double alt = ewma(samples[i]);
      if (std::fabs(alt - engine_u) < std::fabs(next_u - engine_u)) next_u = alt;
    }
    if (next_u != first) ++*ambiguous;
    u_ = next_u;

    Window(ack_seq, snd_nxt);
    return true;
  }

  void Pint(uint32_t ack_seq, uint32_t snd_nxt, uint8_t code) {
    u_ = code == 0 ? 0.0 : std::min(64.0, std::pow(2.0, (code - 128) / 16.0));
    Window(ack_seq, snd_nxt);
  }

 private:
  // The window step from u_ (both the INT and the PINT path): multiplicative
  // when u >= eta or after max_stage additive steps; Wc moves once per RTT.
  void Window(uint32_t ack_seq, uint32_t snd_nxt) {
    const bool full = static_cast<int32_t>(ack_seq - last_seq_) > 0;
    const bool mult_step = u_ >= p_.eta || stage_ >= p_.max_stage;
    // u = 0 on the multiplicative step: +inf, clamped below.
    double w = mult_step ? wc_ / (u_ / p_.eta) + p_.w_ai : wc_ + p_.w_ai;
    w = std::min(std::max(w, p_.w_min), bdp_);
    if (full) {
      wc_ = w;
      stage_ = mult_step ? 0 : stage_ + 1;
      last_seq_ = snd_nxt;
    }
    w_ = w;
  }

 public:
  double w() const { return w_; }
  double u() const { return u_; }

 private:
  ModelParams p_;
  double bdp_, wc_, w_, u_ = 0;
  double stage_ = 0;
  uint32_t last_seq_;
  bool have_ = false;
  uint32_t mult_ = 0;
  size_t hops_ = 0;
  ModelRecord last_[8] = {};
};

}  // namespace hpcc
}  // namespace double_models

#endif  // NICC_TESTS_DOUBLE_MODELS_H_
