// Google Benchmark: nanoseconds per spray selection and per feedback event
// on this machine. Timings are for comparison on one machine only; exact
// instruction counts come from scripts/icount.sh.
#include <benchmark/benchmark.h>

#include <cstdlib>

#include "nicc/ecn_path.h"
#include "nicc/spray.h"

namespace sp = nicc::spray;
using sp::Feedback;
using sp::Policy;

namespace {

sp::Config Cfg(Policy policy, uint32_t ev_bits) {
  sp::Config cfg{};
  if (!sp::Compile(sp::Params::Defaults(policy, ev_bits, 0x12345), &cfg).ok()) std::abort();
  return cfg;
}

uint32_t EvBits(Policy p) {
  return p == Policy::kDlb ? 4u : p == Policy::kBitmap ? 6u : 8u;
}

// Select() through the dispatching entry, one flow.
void BM_Select(benchmark::State& state) {
  const auto policy = static_cast<Policy>(state.range(0));
  const sp::Config cfg = Cfg(policy, EvBits(policy));
  sp::SprayState s;
  sp::Init(cfg, &s, 7);
  uint32_t now = 0;
  for (auto _ : state) {
    now += 50;
    benchmark::DoNotOptimize(sp::Select(cfg, &s, now));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Select)->DenseRange(0, 5)->ArgName("policy");

// One selection plus its feedback (1 in 8 ECN-marked), ACK-clocked with
// immediate feedback: the per-packet cost of a policy.
void BM_SelectAndFeedback(benchmark::State& state) {
  const auto policy = static_cast<Policy>(state.range(0));
  const sp::Config cfg = Cfg(policy, EvBits(policy));
  sp::SprayState s;
  sp::Init(cfg, &s, 7);
  uint32_t now = 0;
  uint32_t i = 0;
  for (auto _ : state) {
    now += 50;
    const nicc::Action a = sp::Select(cfg, &s, now);
    const Feedback kind = (++i & 7u) == 0 ? Feedback::kEcn : Feedback::kGood;
    sp::OnFeedback(cfg, &s, a.ev, kind, 9000, now);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_SelectAndFeedback)->DenseRange(0, 5)->ArgName("policy");

void BM_OpsSelectDirect(benchmark::State& state) {
  const sp::Config cfg = Cfg(Policy::kOps, static_cast<uint32_t>(state.range(0)));
  sp::OpsState s;
  sp::OpsInit(cfg, &s, 7);
  for (auto _ : state) benchmark::DoNotOptimize(sp::OpsSelect(cfg, &s));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_OpsSelectDirect)->Arg(4)->Arg(8)->ArgName("ev_bits");

void BM_ClassifyEcn(benchmark::State& state) {
  nicc::ecn_path::Rule rule = nicc::ecn_path::Rule::Defaults();
  rule.base_rtt_ns = 10000;
  uint32_t rtt = 10000;
  for (auto _ : state) {
    rtt = rtt * 1103515245u + 12345u;  // vary the input; wraps by design
    benchmark::DoNotOptimize(nicc::ecn_path::Classify(rule, true, 10000u + (rtt >> 20)));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ClassifyEcn);

}  // namespace
