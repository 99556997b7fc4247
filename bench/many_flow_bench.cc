// Google Benchmark: 10^6 sender slots in one array, as firmware holds its
// flows (hal::SenderSlot, the per-flow functions of hal/nicc/hal/driver.h
// over each slot), with every event on a flow drawn at random, so nearly
// every event misses the caches (10^6 DCQCN + ECMP slots are 48 MB, HPCC +
// REPS 96 MB); 1024 slots (cache-resident) for comparison. Per event kind:
//   items_per_second   events per second on one core
//   touched_B          bytes of the slot one event touches (mean)
//   words_B            the same rounded out to the aligned 4-byte words
//                      holding them (what the loads of those fields move)
//   union_B            bytes any event of the kind touched
//   lines              64-byte lines those bytes span (mean over events and
//                      over the slot positions of the array's stride)
//   span_B             first to last byte of union_B (<= 64: the kind's
//                      bytes could sit in one line)
// "packet" is a packet's whole path: select + tx (+ its ACK for HPCC);
// BM_*Line/packet the same with each slot on its own 64-byte lines (stride
// rounded up to 64 B), to show what the line splits of the packed array
// cost. HPCC's tx does nothing per packet (a window CC), so it has no
// benchmark of its own; it is inside "packet".
// Bytes touched come from bench/slot_touch.h (written bytes from a
// before/after compare, read bytes by flipping each bit and watching the
// outcome), over the events of a 64-flow run of the same generator. With
// NICC_TOUCH_MAP=1 in the environment each benchmark also prints its
// union's byte ranges (offsets in the slot) to stderr.
//
//   build/release/bench/many_flow_bench --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <new>
#include <vector>

#include "nicc/hal/driver.h"
#include "slot_touch.h"

namespace dq = nicc::dcqcn;
namespace hp = nicc::hpcc;
namespace sp = nicc::spray;
namespace hal = nicc::hal;

namespace {

constexpr uint32_t kManyFlows = 1000000;

enum class Kind : uint8_t { kSelect, kTx, kCnp, kTimer, kAck, kPacket };

const char* KindName(Kind k) {
  switch (k) {
    case Kind::kSelect: return "select";
    case Kind::kTx: return "tx";
    case Kind::kCnp: return "cnp";
    case Kind::kTimer: return "timer";
    case Kind::kAck: return "ack";
    case Kind::kPacket: return "packet";
  }
  return "?";
}

// The clock and sequence the generator advances per event; the INT stacks
// ACKs carry (a pool of 256 of a flow through `hops` 100 Gb/s hops).
struct Ctx {
  uint32_t now = 1000000;
  uint32_t seq = 0;
  uint32_t k = 0;
  const nicc::IntStack* stacks = nullptr;
  void Next() {
    now += 1;
    seq += 1000;
    ++k;
  }
};

std::vector<nicc::IntStack> Stacks(uint32_t hops) {
  std::vector<nicc::IntStack> v(256);
  uint32_t tx[nicc::kIntMaxHops] = {};
  for (uint32_t k = 0; k < v.size(); ++k) {
    v[k] = nicc::IntStack{};
    v[k].hop_count = static_cast<uint8_t>(hops);
    for (uint32_t i = 0; i < hops; ++i) {
      tx[i] += 90 + (k * 7 + i * 13) % 15;
      v[k].hops[i] = nicc::IntHop::Make(3, 1000u * k + 333u * i, tx[i], (k * 31 + i) % 900);
    }
  }
  return v;
}

hal::DriverConfig MakeConfig(hal::CcKind cc, sp::Policy policy, uint32_t ev_bits) {
  hal::DriverConfig cfg{};
  if (!hal::InitDriverConfig(hal::DriverParams::Of(cc, 100000), dq::Params::Mlx5(100000),
                             hp::Params::HpccPaper(), sp::Params::Defaults(policy, ev_bits, 0x12345),
                             nicc::ecn_path::Rule::Defaults(), &cfg)
           .ok())
    std::abort();
  return cfg;
}

// A slot on its own 64-byte line(s): the same state, the array's stride
// rounded up to a multiple of 64 (48 -> 64 B, 96 -> 128 B), so a slot never
// shares a line with another and its first 64 bytes are one line.
template <class S>
struct alignas(64) LineSlot {
  S inner;
  auto Ref() { return inner.Ref(); }
};

template <class S>
uint32_t& KeyOf(S* s) {
  return s->key;
}
template <class S>
uint32_t& KeyOf(LineSlot<S>* s) {
  return s->inner.key;
}

// One composition: its slot type, its config and how each event kind runs
// on a slot (deterministic given the slot and the context).
template <class Slot>
struct Flows {
  const char* name;
  hal::DriverConfig cfg;
  std::vector<nicc::IntStack> stacks;

  slot_touch::Outcome Run(Slot* slot, Kind kind, const Ctx& c) const {
    slot_touch::Outcome o{};
    auto ref = slot->Ref();
    switch (kind) {
      case Kind::kSelect:
        o.a[0].ev = hal::SenderSelectEv(cfg, ref, c.now);
        break;
      case Kind::kTx:
        (void)hal::SenderDispatch(cfg, ref, hal::Event::TxDone(4096), c.now, &o.a[0]);
        break;
      case Kind::kCnp:
        (void)hal::SenderDispatch(cfg, ref, hal::Event::Cnp(), c.now, &o.a[0]);
        break;
      case Kind::kTimer:
        (void)hal::SenderDispatch(cfg, ref, hal::Event::Timer(), c.now, &o.a[0]);
        break;
      case Kind::kAck:
        o.a[0] = Ack(ref, c, sp::EvPort(cfg.spray, c.k & cfg.spray.ev_mask));
        break;
      case Kind::kPacket:
        o.a[0].ev = hal::SenderSelectEv(cfg, ref, c.now);
        (void)hal::SenderDispatch(cfg, ref, hal::Event::TxDone(4096), c.now, &o.a[1]);
        if (!stacks.empty()) o.a[2] = Ack(ref, c, o.a[0].ev);
        break;
    }
    return o;
  }

  template <class Ref>
  nicc::Action Ack(Ref ref, const Ctx& c, uint16_t ev) const {
    nicc::Action a = nicc::Action::None();
    if (stacks.empty()) return a;
    hal::Event e = hal::Event::Ack(c.seq, c.seq + 16000, false, ev);
    e.rtt_ns = 9000 + (c.k & 1023);
    e.int_stack = &stacks[c.k & 255];
    (void)hal::SenderDispatch(cfg, ref, e, c.now, &a);
    return a;
  }

  // A flow as the benchmark starts it: open, and (DCQCN) rate-limited by a
  // first CNP, so tx and timer events do their full work.
  void Open(Slot* slot, uint32_t id) const {
    *slot = Slot{};
    KeyOf(slot) = id;
    hal::SenderInit(cfg, slot->Ref(), id, 0);
    if (cfg.cc == hal::CcKind::kDcqcn) {
      nicc::Action a;
      (void)hal::SenderDispatch(cfg, slot->Ref(), hal::Event::Cnp(), 0, &a);
    }
  }
};

// xorshift32 and a multiply-shift into [0, n): the random flow of each event.
struct FlowPicker {
  uint32_t x = 2463534242u;
  uint32_t Next(uint32_t n) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return static_cast<uint32_t>((static_cast<uint64_t>(x) * n) >> 32);
  }
};

// Bytes touched, over the events of a 64-flow run of the same generator.
template <class Slot>
void TouchCounters(benchmark::State& state, const Flows<Slot>& fl, Kind kind) {
  std::vector<Slot> slots(64);
  for (uint32_t i = 0; i < slots.size(); ++i) fl.Open(&slots[i], i);
  FlowPicker pick;
  Ctx c;
  c.stacks = fl.stacks.data();
  std::vector<bool> uni;
  double sum_bytes = 0, sum_words = 0, sum_lines = 0;
  constexpr int kSamples = 2000;
  for (int i = 0; i < kSamples; ++i) {
    Slot* s = &slots[pick.Next(static_cast<uint32_t>(slots.size()))];
    std::vector<bool> one;
    sum_bytes += static_cast<double>(
        slot_touch::Touched(*s, [&](Slot* t) { return fl.Run(t, kind, c); }, &one));
    sum_words += static_cast<double>(slot_touch::WordBytes(one));
    sum_lines += slot_touch::MeanLines(one, sizeof(Slot));
    for (size_t b = 0; b < one.size(); ++b) {
      if (uni.size() < one.size()) uni.resize(one.size(), false);
      if (one[b]) uni[b] = true;
    }
    (void)fl.Run(s, kind, c);
    c.Next();
  }
  size_t lo = 0, hi = 0;
  slot_touch::Span(uni, &lo, &hi);
  size_t n = 0;
  for (bool b : uni) n += b ? 1 : 0;
  state.counters["touched_B"] = sum_bytes / kSamples;
  state.counters["words_B"] = sum_words / kSamples;
  state.counters["lines"] = sum_lines / kSamples;
  state.counters["union_B"] = static_cast<double>(n);
  state.counters["span_B"] = static_cast<double>(hi - lo);
  state.counters["slot_B"] = static_cast<double>(sizeof(Slot));
  const char* map = std::getenv("NICC_TOUCH_MAP");
  if (map != nullptr && map[0] == '1')
    std::fprintf(stderr, "%s %s: slot %zu B, touched bytes %s\n", fl.name, KindName(kind), sizeof(Slot),
                 slot_touch::Ranges(uni).c_str());
}

template <class Slot>
struct AlignedArray {
  Slot* p;
  explicit AlignedArray(size_t n)
      : p(static_cast<Slot*>(::operator new(n * sizeof(Slot), std::align_val_t(64)))) {}
  ~AlignedArray() { ::operator delete(p, std::align_val_t(64)); }
};

template <class Slot>
void RunMany(benchmark::State& state, const Flows<Slot>& fl, Kind kind) {
  const uint32_t n = static_cast<uint32_t>(state.range(0));
  AlignedArray<Slot> arr(n);
  for (uint32_t i = 0; i < n; ++i) fl.Open(&arr.p[i], i);
  FlowPicker pick;
  Ctx c;
  c.stacks = fl.stacks.data();
  for (auto _ : state) {
    Slot* s = &arr.p[pick.Next(n)];
    benchmark::DoNotOptimize(fl.Run(s, kind, c));
    c.Next();
  }
  state.SetItemsProcessed(state.iterations());
  TouchCounters(state, fl, kind);
}

// DCQCN + ECMP (48 B): the vendor kit's per-flow area.
using DcqcnSlot = hal::SenderSlot<dq::RpState, sp::EcmpState>;

template <class Slot>
void DcqcnEcmp(benchmark::State& state, Kind kind) {
  const Flows<Slot> fl{"dcqcn+ecmp", MakeConfig(hal::CcKind::kDcqcn, sp::Policy::kEcmp, 0), {}};
  RunMany(state, fl, kind);
}
void BM_DcqcnEcmp(benchmark::State& state, Kind kind) { DcqcnEcmp<DcqcnSlot>(state, kind); }
void BM_DcqcnEcmpLine(benchmark::State& state, Kind kind) { DcqcnEcmp<LineSlot<DcqcnSlot>>(state, kind); }

// HPCC + REPS (96 B), ACKs with `hops` INT records (the second argument).
using HpccSlot = hal::SenderSlot<hp::State, sp::RepsState>;

template <class Slot>
void HpccReps(benchmark::State& state, Kind kind) {
  const Flows<Slot> fl{"hpcc+reps", MakeConfig(hal::CcKind::kHpcc, sp::Policy::kReps, 4),
                       Stacks(static_cast<uint32_t>(state.range(1)))};
  RunMany(state, fl, kind);
}
void BM_HpccReps(benchmark::State& state, Kind kind) { HpccReps<HpccSlot>(state, kind); }
void BM_HpccRepsLine(benchmark::State& state, Kind kind) { HpccReps<LineSlot<HpccSlot>>(state, kind); }

#define NICC_MANY_(fn, name, kind) \
  BENCHMARK_CAPTURE(fn, name, kind)->ArgNames({"flows"})->Arg(1024)->Arg(kManyFlows)
NICC_MANY_(BM_DcqcnEcmp, select, Kind::kSelect);
NICC_MANY_(BM_DcqcnEcmp, tx, Kind::kTx);
NICC_MANY_(BM_DcqcnEcmp, cnp, Kind::kCnp);
NICC_MANY_(BM_DcqcnEcmp, timer, Kind::kTimer);
NICC_MANY_(BM_DcqcnEcmp, packet, Kind::kPacket);
NICC_MANY_(BM_DcqcnEcmpLine, packet, Kind::kPacket);

#define NICC_MANY_HOPS_(fn, name, kind) \
  BENCHMARK_CAPTURE(fn, name, kind)->ArgNames({"flows", "hops"})->ArgsProduct({{1024, kManyFlows}, {1, 3, 5}})
BENCHMARK_CAPTURE(BM_HpccReps, select, Kind::kSelect)
    ->ArgNames({"flows", "hops"})
    ->Args({1024, 1})
    ->Args({kManyFlows, 1});
NICC_MANY_HOPS_(BM_HpccReps, ack, Kind::kAck);
NICC_MANY_HOPS_(BM_HpccReps, packet, Kind::kPacket);
NICC_MANY_HOPS_(BM_HpccRepsLine, packet, Kind::kPacket);

}  // namespace
