// scheduler_bench.cc — the raw event rate of ns-3's simulator with one
// scheduler (default ns-3's ns3::PriorityQueueScheduler; nicc-sim's default
// is ns3::NiccScheduler, scheduler=nicc): `pending` events are kept
// in the queue, each executed event schedules one more at a uniform random
// delay in [0, 2 x mean_ns), and the rate over `events` executions is
// reported. This is the reference for a fabric run's events/s: the cost of
// the scheduler and the event dispatch alone, with no model work.
//
//   scheduler_bench [--pending=100000] [--events=20000000] [--mean_ns=1000]
//                   [--scheduler=ns3::PriorityQueueScheduler|ns3::NiccScheduler|...]
// Prints one line "key=value ..." (events_per_second per wall second and
// events_per_cpu_second among them).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <random>
#include <string>

#include "ns3/core-module.h"
#include "ns3/nicc-module.h"

namespace {

struct Bench {
  std::mt19937_64 rng{12345};
  std::uniform_int_distribution<uint64_t> delay;
  uint64_t left = 0;

  void Fire() {
    if (left == 0) {
      return;
    }
    --left;
    ns3::Simulator::Schedule(ns3::NanoSeconds(delay(rng)), &Bench::Fire, this);
  }
};

}  // namespace

int main(int argc, char** argv) {
  uint64_t pending = 100000;
  uint64_t events = 20000000;
  uint64_t meanNs = 1000;
  std::string scheduler = "ns3::PriorityQueueScheduler";
  ns3::CommandLine cmd;
  cmd.AddValue("pending", "events kept in the queue", pending);
  cmd.AddValue("events", "events executed in the timed part", events);
  cmd.AddValue("mean_ns", "mean delay of a newly scheduled event (ns)", meanNs);
  cmd.AddValue("scheduler", "ns-3 scheduler TypeId", scheduler);
  cmd.Parse(argc, argv);
  if (pending == 0 || meanNs == 0) {
    std::fprintf(stderr, "scheduler_bench: --pending and --mean_ns must be > 0\n");
    return 2;
  }

  // The nicc schedulers live in a static library: name them so they link.
  (void)ns3::NiccScheduler::GetTypeId();
  (void)ns3::NiccOrderedScheduler::GetTypeId();
  ns3::ObjectFactory f;
  f.SetTypeId(scheduler);
  ns3::Simulator::SetScheduler(f);
  Bench b;
  b.delay = std::uniform_int_distribution<uint64_t>(0, 2 * meanNs - 1);
  b.left = events;
  for (uint64_t i = 0; i < pending; ++i) {
    ns3::Simulator::Schedule(ns3::NanoSeconds(b.delay(b.rng)), &Bench::Fire, &b);
  }
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  ns3::Simulator::Run();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
  const uint64_t executed = ns3::Simulator::GetEventCount();
  ns3::Simulator::Destroy();
  std::printf(
      "scheduler=%s pending=%llu events=%llu wall_seconds=%.3f events_per_second=%.0f "
      "cpu_seconds=%.3f events_per_cpu_second=%.0f\n",
      scheduler.c_str(), static_cast<unsigned long long>(pending),
      static_cast<unsigned long long>(executed), wall,
      wall > 0 ? static_cast<double>(executed) / wall : 0.0, cpu,
      cpu > 0 ? static_cast<double>(executed) / cpu : 0.0);
  return 0;
}
