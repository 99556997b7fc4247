// Google Benchmark: nanoseconds per DCQCN event on this machine. Timings are
// for comparison on one machine only; exact instruction counts come from
// scripts/icount.sh.
#include <benchmark/benchmark.h>

#include <cstdlib>

#include "nicc/dcqcn.h"

namespace dq = nicc::dcqcn;

namespace {

dq::Config Mlx5() {
  dq::Config cfg{};
  if (!dq::Compile(dq::Params::Mlx5(100000), &cfg).ok()) std::abort();
  return cfg;
}

// Alternating CNP and timer events 300 us apart on one flow: every CNP cuts
// (monitor period over), every timer increases.
void BM_RpCnpThenTimer(benchmark::State& state) {
  const dq::Config cfg = Mlx5();
  dq::RpState s;
  dq::RpInit(cfg, &s);
  uint32_t now = 0;
  for (auto _ : state) {
    now += 300000;
    benchmark::DoNotOptimize(dq::RpOnCnp(cfg, &s, now));
    benchmark::DoNotOptimize(dq::RpOnTimer(cfg, &s, now + 300000));
  }
  state.SetItemsProcessed(2 * state.iterations());
}
BENCHMARK(BM_RpCnpThenTimer);

void BM_RpTxBytesActive(benchmark::State& state) {
  const dq::Config cfg = Mlx5();
  dq::RpState s;
  dq::RpInit(cfg, &s);
  benchmark::DoNotOptimize(dq::RpOnCnp(cfg, &s, 0));
  uint32_t now = 0;
  for (auto _ : state) {
    now += 40;
    benchmark::DoNotOptimize(dq::RpOnTxBytes(cfg, &s, 1024, now));
    if (!(s.flags & dq::kRpActive)) benchmark::DoNotOptimize(dq::RpOnCnp(cfg, &s, now));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RpTxBytesActive);

void BM_RpTxBytesIdle(benchmark::State& state) {
  const dq::Config cfg = Mlx5();
  dq::RpState s;
  dq::RpInit(cfg, &s);
  uint32_t now = 0;
  for (auto _ : state) {
    now += 40;
    benchmark::DoNotOptimize(dq::RpOnTxBytes(cfg, &s, 1024, now));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RpTxBytesIdle);

void BM_NpCePacket(benchmark::State& state) {
  const dq::Config cfg = Mlx5();
  dq::NpState s;
  dq::NpInit(&s);
  uint32_t now = 0;
  for (auto _ : state) {
    now += 1000;
    benchmark::DoNotOptimize(dq::NpOnPacket(cfg, &s, true, now));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_NpCePacket);

}  // namespace
