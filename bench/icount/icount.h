// icount.h — exact instruction counts per event under valgrind callgrind.
//
// A driver calls Measure("dcqcn.rp_cnp", n, fn) once per event kind: the
// counters are zeroed, fn(i) runs n times, and the counts are dumped under
// the kind's name. scripts/icount.sh runs every driver under callgrind and
// divides each dump's instruction total by n. Outside valgrind the client
// requests are no-ops, so drivers also run (and check themselves) natively.
//
// Built with NICC_ICOUNT_MARKERS (scripts/icount-rv.sh: RISC-V, under
// qemu-user with one instruction per translation block), Measure() instead
// prints "icount-region <kind> <n>" and brackets the n calls with calls of
// nicc_icount_begin() / nicc_icount_end(), whose names the qemu execution
// log shows; the script counts the instructions between them.
#ifndef NICC_BENCH_ICOUNT_H_
#define NICC_BENCH_ICOUNT_H_

#ifndef NICC_ICOUNT_MARKERS
#include <valgrind/callgrind.h>
#endif

#include <cstdio>
#include <cstdlib>

#ifdef NICC_ICOUNT_MARKERS
// One definition each: every driver is a single translation unit.
extern "C" __attribute__((noinline, noipa)) void nicc_icount_begin() { asm volatile("" ::: "memory"); }
extern "C" __attribute__((noinline, noipa)) void nicc_icount_end() { asm volatile("" ::: "memory"); }
#endif

namespace nicc_bench {

// Keeps a value alive so the measured call is not optimised away.
template <class T>
inline void Sink(const T& v) {
  asm volatile("" : : "r,m"(v) : "memory");
}

// Runs fn(0..n-1) between a zero and a dump of callgrind's counters. The dump
// is named "<kind> <n>" so the script knows the divisor.
template <class Fn>
void Measure(const char* kind, int n, Fn fn) {
#ifdef NICC_ICOUNT_MARKERS
  std::printf("icount-region %s %d\n", kind, n);
  std::fflush(stdout);
  nicc_icount_begin();
  for (int i = 0; i < n; ++i) fn(i);
  nicc_icount_end();
#else
  char name[128];
  std::snprintf(name, sizeof name, "%s %d", kind, n);
  CALLGRIND_ZERO_STATS;
  for (int i = 0; i < n; ++i) fn(i);
  CALLGRIND_DUMP_STATS_AT(name);
#endif
}

// A driver's own sanity check (that the path measured is the path meant).
inline void Expect(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "icount driver: expectation failed: %s\n", what);
    std::exit(1);
  }
}

}  // namespace nicc_bench

#endif  // NICC_BENCH_ICOUNT_H_
