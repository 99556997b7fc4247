// Google Benchmark: nanoseconds per HPCC ACK on this machine, for 1, 3 and 5
// INT hops (fast reactions with a full update every 16 ACKs), for the INT
// decode alone, and for the PINT variant. Timings compare on one machine
// only; exact instruction counts come from scripts/icount.sh.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <vector>

#include "nicc/hpcc.h"
#include "nicc/int_codec.h"

namespace hp = nicc::hpcc;

namespace {

hp::Config Paper() {
  hp::Config cfg{};
  if (!hp::Compile(hp::Params::HpccPaper(), &cfg).ok()) std::abort();
  return cfg;
}

// 256 consecutive INT stacks of a flow through n 100 Gb/s hops, ACKs 1 us
// apart, load and queue varying so that both window branches run.
std::vector<nicc::IntStack> Stacks(uint32_t n) {
  std::vector<nicc::IntStack> v(256);
  uint32_t tx[nicc::kIntMaxHops] = {};
  for (uint32_t k = 0; k < v.size(); ++k) {
    v[k].hop_count = static_cast<uint8_t>(n);
    for (uint32_t i = 0; i < n; ++i) {
      tx[i] += 90 + (k * 7 + i * 13) % 15;  // 0.92 .. 1.07 of line rate
      v[k].hops[i] = nicc::IntHop::Make(3, 1000u * k + 333u * i, tx[i], (k * 31 + i) % 900);
    }
  }
  return v;
}

void BM_HpccAck(benchmark::State& state) {
  const hp::Config cfg = Paper();
  const auto stacks = Stacks(static_cast<uint32_t>(state.range(0)));
  hp::State s;
  hp::Init(cfg, &s, 0);
  uint32_t k = 0, seq = 0, now = 0;
  for (auto _ : state) {
    const nicc::IntStack& st = stacks[k++ & 255];
    seq += 1000;
    now += 1000;
    // snd_nxt 16 ACKs ahead: one full update per 16 ACKs.
    benchmark::DoNotOptimize(hp::OnAck(cfg, &s, seq, seq + 16000, st, now));
    if ((k & 255) == 0) s.hop_count = hp::kNoHistory;  // the stacks restart: new history
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_HpccAck)->Arg(1)->Arg(3)->Arg(5);

void BM_IntDecode(benchmark::State& state) {
  const auto stacks = Stacks(static_cast<uint32_t>(state.range(0)));
  uint8_t wire[nicc::IntStackBytes(nicc::kIntMaxHops)];
  size_t len = 0;
  if (!nicc::EncodeIntStack(stacks[5], wire, sizeof wire, &len).ok()) std::abort();
  nicc::IntStack out;
  for (auto _ : state) {
    benchmark::DoNotOptimize(nicc::DecodeIntStack(wire, len, &out));
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_IntDecode)->Arg(1)->Arg(3)->Arg(5);

void BM_HpccPintAck(benchmark::State& state) {
  const hp::Config cfg = Paper();
  hp::State s;
  hp::Init(cfg, &s, 0);
  uint32_t seq = 0;
  uint8_t code = 120;
  for (auto _ : state) {
    seq += 1000;
    code = static_cast<uint8_t>(code == 140 ? 120 : code + 1);
    benchmark::DoNotOptimize(hp::OnPintAck(cfg, &s, seq, seq + 16000, code, 0));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_HpccPintAck);

}  // namespace
