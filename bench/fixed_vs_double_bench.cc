// Google Benchmark: the fixed-point engine against the double-precision
// models of the property tests (tests/double_models.h), on the same event
// stream from the same starting state, in one process. Each benchmark times
// alternate passes over one pre-generated stream (4096 events), first
// through the engine, then through the model, with a clock around
// each pass (this thread's CPU time, so other processes on a shared machine
// do not inflate either side), and reports
//   fixed_ns    ns per event, engine
//   double_ns   ns per event, model
//   ratio       fixed_ns / double_ns (the aim: <= 1/3 on tx, ack)
//   share       the fraction of the stream's events of the named kind
//   active      DCQCN: the fraction of those that find the flow rate-limited
// The benchmark's own time is the sum of both. Streams are dominated by one
// event kind (share); the other events keep the flow in the state where that
// kind does its full work (a CNP to re-activate a DCQCN flow that released).
//
// Spray policies and HPCC's TxDone have no double-precision model (spray is
// integer selection logic; HPCC does no work on a sent packet): their
// benchmarks report fixed_ns only (see docs/porting.md, "Fixed point against
// double precision").
#include <benchmark/benchmark.h>

#include <time.h>

#include <cstdint>
#include <cstdlib>
#include <random>
#include <vector>

#include "double_models.h"
#include "nicc/dcqcn.h"
#include "nicc/hal/driver.h"
#include "nicc/hpcc.h"
#include "nicc/int_codec.h"
#include "nicc/spray.h"

namespace dq = nicc::dcqcn;
namespace hp = nicc::hpcc;
namespace sp = nicc::spray;
namespace hal = nicc::hal;

namespace {

constexpr size_t kStreamLen = 4096;

// This thread's CPU time in seconds.
double ThreadSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Accumulates the two timings and sets the counters.
struct Split {
  double fixed_s = 0, double_s = 0;
  uint64_t events = 0;
  template <class F, class D>
  void Pass(size_t n, F&& fixed, D&& dbl) {
    const double t0 = ThreadSeconds();
    fixed();
    const double t1 = ThreadSeconds();
    dbl();
    const double t2 = ThreadSeconds();
    fixed_s += t1 - t0;
    double_s += t2 - t1;
    events += n;
  }
  void Report(benchmark::State& state, double share, bool has_double = true) const {
    const double f = events ? fixed_s * 1e9 / static_cast<double>(events) : 0;
    const double d = events ? double_s * 1e9 / static_cast<double>(events) : 0;
    state.counters["fixed_ns"] = f;
    if (has_double) {
      state.counters["double_ns"] = d;
      state.counters["ratio"] = d > 0 ? f / d : 0;
    }
    state.counters["share"] = share;
  }
};

// ---------------------------------------------------------------------------
// DCQCN reaction point: cnp, timer, tx.
// ---------------------------------------------------------------------------

enum class DqKind : uint8_t { kCnp, kTimer, kTx };

struct DqEvent {
  DqKind kind;
  uint32_t bytes;
  uint64_t now;
};

const dq::Params kDqParams = dq::Params::Mlx5(100000);

// A stream dominated by `main`. Timers come when the engine's timer is due
// (as a NIC delivers them), found by running the engine while generating.
//   cnp:   CNPs 4..12 us apart (each past the monitor period, so each cuts)
//   timer: the engine's timer whenever armed; a CNP when the flow released
//   tx:    4 KB packets 80 ns apart, a CNP every ~100 packets, due timers
// *active: the fraction of `main` events that find the flow active (rate
// limited), where the engine does its full work.
std::vector<DqEvent> DcqcnStream(DqKind main, uint32_t seed, double* share, double* active) {
  dq::Config cfg{};
  if (!dq::Compile(kDqParams, &cfg).ok()) std::abort();
  dq::RpState s;
  dq::RpInit(cfg, &s);
  std::mt19937 rng(seed);
  std::vector<DqEvent> v;
  uint64_t now = 1000;
  bool armed = false;
  uint64_t due = 0;
  v.push_back({DqKind::kCnp, 0, now});  // the flow starts active
  nicc::Action a = dq::RpOnCnp(cfg, &s, static_cast<uint32_t>(now));
  size_t main_count = main == DqKind::kCnp ? 1 : 0;
  size_t main_active = 0;
  for (;;) {
    if (a.Has(nicc::kActArmTimer)) {
      armed = true;
      due = now + static_cast<uint32_t>(a.timer_ns - static_cast<uint32_t>(now));
    }
    if (a.Has(nicc::kActCancelTimer)) armed = false;
    if (v.size() == kStreamLen) break;
    DqEvent e{DqKind::kTx, 0, 0};
    uint64_t next = 0;
    switch (main) {
      case DqKind::kCnp:
        next = now + 4000 + rng() % 8000;
        e.kind = DqKind::kCnp;
        break;
      case DqKind::kTimer:
        next = armed ? due : now + 10000;
        e.kind = DqKind::kCnp;
        break;
      case DqKind::kTx:
        next = now + 80;
        e.kind = (rng() % 100 == 0) ? DqKind::kCnp : DqKind::kTx;
        e.bytes = 4096;
        break;
    }
    if (armed && due <= next) {
      e.kind = DqKind::kTimer;
      next = due;
      armed = false;
    }
    now = next;
    e.now = now;
    v.push_back(e);
    if (e.kind == main) {
      ++main_count;
      if (s.flags & dq::kRpActive) ++main_active;
    }
    switch (e.kind) {
      case DqKind::kCnp:
        a = dq::RpOnCnp(cfg, &s, static_cast<uint32_t>(now));
        break;
      case DqKind::kTimer:
        a = dq::RpOnTimer(cfg, &s, static_cast<uint32_t>(now));
        break;
      case DqKind::kTx:
        a = dq::RpOnTxBytes(cfg, &s, e.bytes, static_cast<uint32_t>(now));
        break;
    }
  }
  *share = static_cast<double>(main_count) / static_cast<double>(v.size());
  *active = static_cast<double>(main_active) / static_cast<double>(main_count);
  return v;
}

void BM_Dcqcn(benchmark::State& state, DqKind main) {
  double share = 0, active = 0;
  const std::vector<DqEvent> ev = DcqcnStream(main, 17, &share, &active);
  dq::Config cfg{};
  if (!dq::Compile(kDqParams, &cfg).ok()) std::abort();
  dq::RpState s0;
  dq::RpInit(cfg, &s0);
  const double_models::dcqcn::Model m0(kDqParams);
  Split split;
  for (auto _ : state) {
    dq::RpState s = s0;
    double_models::dcqcn::Model m = m0;
    split.Pass(
        ev.size(),
        [&] {
          for (const DqEvent& e : ev) {
            const uint32_t now = static_cast<uint32_t>(e.now);
            nicc::Action a;
            switch (e.kind) {
              case DqKind::kCnp:
                a = dq::RpOnCnp(cfg, &s, now);
                break;
              case DqKind::kTimer:
                a = dq::RpOnTimer(cfg, &s, now);
                break;
              default:
                a = dq::RpOnTxBytes(cfg, &s, e.bytes, now);
                break;
            }
            benchmark::DoNotOptimize(a);
          }
        },
        [&] {
          for (const DqEvent& e : ev) {
            switch (e.kind) {
              case DqKind::kCnp:
                m.Cnp(e.now);
                break;
              case DqKind::kTimer:
                m.Timer(e.now);
                break;
              default:
                m.Bytes(e.bytes);
                break;
            }
            double r = m.rate_mbps();
            benchmark::DoNotOptimize(r);
          }
        });
  }
  split.Report(state, share);
  state.counters["active"] = active;
}
BENCHMARK_CAPTURE(BM_Dcqcn, cnp, DqKind::kCnp);
BENCHMARK_CAPTURE(BM_Dcqcn, timer, DqKind::kTimer);
BENCHMARK_CAPTURE(BM_Dcqcn, tx, DqKind::kTx);

// ---------------------------------------------------------------------------
// HPCC: ack at 1, 3, 5 hops (decoded stack; and from the wire bytes), tx.
// ---------------------------------------------------------------------------

struct HpAck {
  uint32_t seq, snd_nxt, now;
  nicc::IntStack stack;
  double_models::hpcc::ModelRecord rec[nicc::kIntMaxHops];
  uint8_t wire[nicc::IntStackBytes(nicc::kIntMaxHops)];
  size_t wire_len;
};

// ACKs 1 us apart of a flow through `hops` 100 Gb/s hops, each hop's load
// a random walk around line rate and its queue a random walk, so both
// window branches run; snd_nxt 16 ACKs ahead (a full update per 16 ACKs).
std::vector<HpAck> HpccStream(uint32_t hops, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<HpAck> v(kStreamLen);
  double tx[nicc::kIntMaxHops] = {};
  double util[nicc::kIntMaxHops];
  uint32_t q[nicc::kIntMaxHops] = {};
  for (uint32_t i = 0; i < hops; ++i) util[i] = 0.9 + 0.02 * i;
  const uint32_t code = 3;  // 100 Gb/s
  for (uint32_t k = 0; k < v.size(); ++k) {
    HpAck& a = v[k];
    a.stack = nicc::IntStack{};
    a.stack.hop_count = static_cast<uint8_t>(hops);
    for (uint32_t i = 0; i < hops; ++i) {
      util[i] += (static_cast<double>(rng() % 2001) - 1000.0) * 1e-4;
      util[i] = util[i] < 0.5 ? 0.5 : util[i] > 1.15 ? 1.15 : util[i];
      tx[i] += util[i] * nicc::IntRateGbps(code) / 8.0 * 1000.0;
      const int32_t dq = static_cast<int32_t>(rng() % 201) - 100;
      q[i] = static_cast<uint32_t>(std::min(std::max(static_cast<int32_t>(q[i]) + dq, 0), 4000));
      const uint32_t ts = 1000u * k + 333u * i;
      const uint32_t units = static_cast<uint32_t>(tx[i] / 128.0) & 0xFFFFFu;
      a.stack.hops[i] = nicc::IntHop::Make(code, ts, units, q[i]);
      a.rec[i] = {code, ts & 0xFFFFFFu, units, q[i]};
    }
    a.seq = 1000u * (k + 1);
    a.snd_nxt = a.seq + 16000;
    a.now = 1000u * (k + 1);
    if (!nicc::EncodeIntStack(a.stack, a.wire, sizeof a.wire, &a.wire_len).ok()) std::abort();
  }
  return v;
}

const hp::Params kHpParams = hp::Params::HpccPaper();

double_models::hpcc::ModelParams ModelParamsOf(const hp::Params& p) {
  return {p.line_rate_mbps / 1000.0,
          static_cast<double>(p.base_rtt_ns),
          p.eta_ppm / 1e6,
          static_cast<double>(p.w_ai_bytes),
          static_cast<double>(p.min_window_bytes),
          static_cast<double>(p.max_stage)};
}

// `wire`: both sides start from the wire bytes (the engine's codec, then
// OnAck; the codec, then the model's records from the decoded hops, then
// the model), as on a NIC where the ACK's INT arrives as bytes.
void BM_HpccAck(benchmark::State& state, bool wire) {
  const uint32_t hops = static_cast<uint32_t>(state.range(0));
  const std::vector<HpAck> ev = HpccStream(hops, 5);
  hp::Config cfg{};
  if (!hp::Compile(kHpParams, &cfg).ok()) std::abort();
  hp::State s0;
  hp::Init(cfg, &s0, 0);
  const double_models::hpcc::Model m0(ModelParamsOf(kHpParams), 0);
  Split split;
  int ambiguous = 0;
  for (auto _ : state) {
    hp::State s = s0;
    double_models::hpcc::Model m = m0;
    split.Pass(
        ev.size(),
        [&] {
          for (const HpAck& e : ev) {
            nicc::Action a;
            if (wire) {
              nicc::IntStack st;
              if (!nicc::DecodeIntStack(e.wire, e.wire_len, &st).ok()) std::abort();
              a = hp::OnAck(cfg, &s, e.seq, e.snd_nxt, st, e.now);
            } else {
              a = hp::OnAck(cfg, &s, e.seq, e.snd_nxt, e.stack, e.now);
            }
            benchmark::DoNotOptimize(a);
          }
        },
        [&] {
          for (const HpAck& e : ev) {
            bool acted;
            if (wire) {
              nicc::IntStack st;
              if (!nicc::DecodeIntStack(e.wire, e.wire_len, &st).ok()) std::abort();
              double_models::hpcc::ModelRecord rec[nicc::kIntMaxHops];
              for (uint32_t i = 0; i < st.hop_count; ++i)
                rec[i] = {st.hops[i].rate_code(), st.hops[i].ts_ns(), st.hops[i].tx_units(),
                          st.hops[i].qlen_units()};
              acted = m.Ack(e.seq, e.snd_nxt, rec, st.hop_count, st.mult_log2, 0.0, &ambiguous);
            } else {
              acted = m.Ack(e.seq, e.snd_nxt, e.rec, hops, 0, 0.0, &ambiguous);
            }
            double w = m.w();
            benchmark::DoNotOptimize(acted);
            benchmark::DoNotOptimize(w);
          }
        });
  }
  split.Report(state, 1.0);
}
BENCHMARK_CAPTURE(BM_HpccAck, decoded, false)->Arg(1)->Arg(3)->Arg(5)->ArgName("hops");
BENCHMARK_CAPTURE(BM_HpccAck, wire, true)->Arg(1)->Arg(3)->Arg(5)->ArgName("hops");

// A sent packet of an HPCC flow through the HAL's per-flow dispatch
// (TxDone): the window CC does nothing per packet; the figure is the
// dispatch's cost. No double counterpart (the model has no per-packet work).
void BM_HpccTx(benchmark::State& state) {
  hal::DriverConfig cfg{};
  if (!hal::InitDriverConfig(hal::DriverParams::Of(hal::CcKind::kHpcc, 100000), dq::Params::Mlx5(100000),
                             kHpParams, sp::Params::Defaults(sp::Policy::kEcmp, 0, 0x12345),
                             nicc::ecn_path::Rule::Defaults(), &cfg)
           .ok())
    std::abort();
  hal::SenderSlot<hp::State, sp::EcmpState> slot{};
  hal::SenderInit(cfg, slot.Ref(), 7, 0);
  Split split;
  const hal::Event tx = hal::Event::TxDone(4096);
  for (auto _ : state) {
    split.Pass(
        kStreamLen,
        [&] {
          uint32_t now = 0;
          for (size_t i = 0; i < kStreamLen; ++i) {
            nicc::Action a;
            now += 80;
            benchmark::DoNotOptimize(hal::SenderDispatch(cfg, slot.Ref(), tx, now, &a));
            benchmark::DoNotOptimize(a);
          }
        },
        [] {});
  }
  split.Report(state, 1.0, /*has_double=*/false);
}
BENCHMARK(BM_HpccTx);

// ---------------------------------------------------------------------------
// Spray: select and feedback per policy (fixed point only).
// ---------------------------------------------------------------------------

uint32_t EvBitsOf(sp::Policy p) { return p == sp::Policy::kDlb ? 4u : p == sp::Policy::kBitmap ? 6u : 8u; }

sp::Config SprayCfg(sp::Policy p) {
  sp::Config cfg{};
  if (!sp::Compile(sp::Params::Defaults(p, EvBitsOf(p), 0x12345), &cfg).ok()) std::abort();
  return cfg;
}

void BM_SpraySelect(benchmark::State& state) {
  const auto policy = static_cast<sp::Policy>(state.range(0));
  const sp::Config cfg = SprayCfg(policy);
  sp::SprayState s0;
  sp::Init(cfg, &s0, 7);
  Split split;
  for (auto _ : state) {
    sp::SprayState s = s0;
    split.Pass(
        kStreamLen,
        [&] {
          uint32_t now = 0;
          for (size_t i = 0; i < kStreamLen; ++i) {
            now += 80;
            benchmark::DoNotOptimize(sp::Select(cfg, &s, now));
          }
        },
        [] {});
  }
  split.Report(state, 1.0, false);
}
BENCHMARK(BM_SpraySelect)->DenseRange(0, 5)->ArgName("policy");

// Feedback for the ports the policy selected (precomputed): 1 in 8 ECN, 1
// in 64 NACK, the rest good, RTT 8..12 us.
void BM_SprayFeedback(benchmark::State& state) {
  const auto policy = static_cast<sp::Policy>(state.range(0));
  const sp::Config cfg = SprayCfg(policy);
  sp::SprayState s0;
  sp::Init(cfg, &s0, 7);
  struct Fb {
    uint16_t ev;
    sp::Feedback kind;
    uint32_t rtt;
  };
  std::vector<Fb> fb(kStreamLen);
  {
    sp::SprayState s = s0;
    std::mt19937 rng(3);
    uint32_t now = 0;
    for (Fb& f : fb) {
      now += 80;
      f.ev = sp::Select(cfg, &s, now).ev;
      const uint32_t r = rng() % 64;
      f.kind = r == 0 ? sp::Feedback::kNack : (r % 8 == 1) ? sp::Feedback::kEcn : sp::Feedback::kGood;
      f.rtt = 8000 + rng() % 4000;
      sp::OnFeedback(cfg, &s, f.ev, f.kind, f.rtt, now);
    }
  }
  Split split;
  for (auto _ : state) {
    sp::SprayState s = s0;
    split.Pass(
        kStreamLen,
        [&] {
          uint32_t now = 0;
          for (const Fb& f : fb) {
            now += 80;
            sp::OnFeedback(cfg, &s, f.ev, f.kind, f.rtt, now);
            benchmark::ClobberMemory();
          }
        },
        [] {});
  }
  split.Report(state, 1.0, false);
}
BENCHMARK(BM_SprayFeedback)->DenseRange(0, 5)->ArgName("policy");

}  // namespace
