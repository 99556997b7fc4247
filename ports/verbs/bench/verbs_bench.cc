// Google Benchmark: per-message overhead of the verbs shim, in ns, on the
// fake device (ports/verbs/tests/fake_device.h). One iteration = one RDMA
// WRITE through PathSet::PostWrite (spray choice, host pacer, TxDone to the
// CC, ibv_post_send) plus its completion through PathSet::Poll (timestamp ->
// RTT, Ack feedback to the spray policy). BM_FakeDeviceOnly measures the fake
// device's own post+poll cost, to subtract.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <memory>

#include "fake_device.h"
#include "nicc/verbs/path_set.h"

namespace {

using nicc::verbs::PathSet;
using nicc::verbs::PathSetOptions;
using nicc::verbs::PostResult;
using nicc::verbs::testing::FakeDevice;

struct Rig {
  std::unique_ptr<FakeDevice> dev;
  ibv_context* ctx = nullptr;
  ibv_pd* pd = nullptr;
  std::unique_ptr<PathSet> ps;

  Rig(nicc::spray::Policy policy, nicc::verbs::CcMode cc, bool timestamps) {
    FakeDevice::Config cfg;
    cfg.record_posts = false;
    cfg.default_rtt_ns = 0;     // completes at once: one poll per message
    cfg.clock_step_ns = 1000;   // every host-clock read moves 1 us: the pacer never holds
    if (!timestamps) cfg.completion_timestamp_mask = 0;
    dev = std::make_unique<FakeDevice>(cfg);
    ctx = dev->OpenFirst();
    pd = dev->AllocPd(ctx);
    PathSetOptions o;
    o.num_paths = 8;
    o.policy = policy;
    o.cc = cc;
    auto made = PathSet::Create(dev.get(), ctx, pd, o);
    if (!made.ok()) std::abort();
    ps = std::move(*made);
    nicc::verbs::PeerInfo peer;
    for (uint32_t i = 0; i < 8; ++i) peer.qpns.push_back(0x900 + i);
    if (!ps->Connect(peer).ok()) std::abort();
  }
  ~Rig() {
    ps.reset();
    (void)dev->DeallocPd(pd);
    (void)dev->CloseDevice(ctx);
  }
};

void RunMessages(benchmark::State& state, Rig& rig) {
  const nicc::verbs::WriteRequest w{0x1000, 1, 4096, 0x20000, 2};
  uint64_t paced = 0;
  for (auto _ : state) {
    const nicc::verbs::PostOutcome o = rig.ps->PostWrite(w);
    if (o.result != PostResult::kPosted) ++paced;
    benchmark::DoNotOptimize(rig.ps->Poll(4));
  }
  state.counters["not_posted"] = static_cast<double>(paced);
  state.SetItemsProcessed(state.iterations());
}

void BM_ShimPerMessage(benchmark::State& state) {
  Rig rig(static_cast<nicc::spray::Policy>(state.range(0)),
          state.range(1) ? nicc::verbs::CcMode::kDcqcn : nicc::verbs::CcMode::kNone,
          /*timestamps=*/true);
  RunMessages(state, rig);
}
// policy: 0 ecmp, 1 ops, 3 reps, 5 dlb; cc: 0 none, 1 dcqcn.
BENCHMARK(BM_ShimPerMessage)
    ->ArgNames({"policy", "dcqcn"})
    ->Args({0, 0})
    ->Args({1, 0})
    ->Args({1, 1})
    ->Args({3, 1})
    ->Args({5, 1});

void BM_ShimPerMessageHostClockRtt(benchmark::State& state) {
  Rig rig(nicc::spray::Policy::kOps, nicc::verbs::CcMode::kDcqcn, /*timestamps=*/false);
  RunMessages(state, rig);
}
BENCHMARK(BM_ShimPerMessageHostClockRtt);

// As nicc-verbs run measures: every completion's latency into the
// fixed-bucket histogram of the report (ops, DCQCN).
void BM_ShimPerMessageWithLatencyHistogram(benchmark::State& state) {
  Rig rig(nicc::spray::Policy::kOps, nicc::verbs::CcMode::kDcqcn, /*timestamps=*/true);
  nicc::verbs::LatencyHistogram lat;
  rig.ps->set_latency_histogram(&lat);
  RunMessages(state, rig);
  rig.ps->set_latency_histogram(nullptr);
  if (lat.count() == 0) state.SkipWithError("no completion recorded");
}
BENCHMARK(BM_ShimPerMessageWithLatencyHistogram);

// The fake device alone: ibv_post_send + ibv_start_poll/ibv_end_poll on one QP.
void BM_FakeDeviceOnly(benchmark::State& state) {
  Rig rig(nicc::spray::Policy::kEcmp, nicc::verbs::CcMode::kNone, true);
  ibv_qp* qp = rig.ps->qp(0);
  ibv_cq_ex* cq = reinterpret_cast<ibv_cq_ex*>(qp->send_cq);
  ibv_sge sge{0x1000, 4096, 1};
  ibv_send_wr wr{};
  wr.sg_list = &sge;
  wr.num_sge = 1;
  wr.opcode = IBV_WR_RDMA_WRITE;
  wr.send_flags = IBV_SEND_SIGNALED;
  ibv_send_wr* bad = nullptr;
  for (auto _ : state) {
    benchmark::DoNotOptimize(rig.dev->HostNowNs());
    benchmark::DoNotOptimize(ibv_post_send(qp, &wr, &bad));
    benchmark::DoNotOptimize(rig.dev->HostNowNs());
    ibv_poll_cq_attr attr{};
    if (ibv_start_poll(cq, &attr) == 0) {
      benchmark::DoNotOptimize(ibv_wc_read_completion_ts(cq));
      ibv_end_poll(cq);
    }
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_FakeDeviceOnly);

}  // namespace
