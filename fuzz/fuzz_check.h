// fuzz_check.h — how a fuzz target reports a broken invariant: print what
// broke to stderr, then trap, so that libFuzzer (a crash, the input saved)
// and the replay main (an abnormal exit, the ctest fails) both catch it.
//
//   NICC_FUZZ_CHECK(window <= max, "window %u above %u", window, max);
//
// Every target's source is built with nicc_add_fuzzer (fuzz/CMakeLists.txt),
// which puts this folder on the include path.
#ifndef NICC_FUZZ_CHECK_H_
#define NICC_FUZZ_CHECK_H_

#include <cstdio>

#define NICC_FUZZ_CHECK(cond, ...)                                                      \
  do {                                                                                  \
    if (!(cond)) {                                                                      \
      std::fprintf(stderr, "%s:%d: invariant broken: %s: ", __FILE__, __LINE__, #cond); \
      std::fprintf(stderr, __VA_ARGS__);                                                \
      std::fprintf(stderr, "\n");                                                       \
      std::fflush(stderr);                                                              \
      __builtin_trap();                                                                 \
    }                                                                                   \
  } while (0)

#endif  // NICC_FUZZ_CHECK_H_
