#!/usr/bin/env bash
# Configures and builds one flavour of the tree.
#
#   scripts/build.sh release   -> build/release (Release, everything)
#   scripts/build.sh asan      -> build/asan    (Debug, ASan + UBSan, tests only)
#   scripts/build.sh asan-sim  -> build/asan-sim (Release, ASan + UBSan: the
#                                 ns-3 module, nicc-sim and its test runner;
#                                 the examples are left out: they run in the
#                                 release build, on helpers the suites cover)
#   scripts/build.sh fuzz      -> build/fuzz (clang, libFuzzer + ASan + UBSan:
#                                 the fuzz targets only, docs/fuzzing.md)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
flavour=${1:-release}
targets=()
jobs=${NICC_JOBS:-$(nproc)}
case "$flavour" in
  release) args=(-DCMAKE_BUILD_TYPE=Release) ;;
  asan) args=(-DCMAKE_BUILD_TYPE=Debug -DNICC_SANITIZE=ON -DNICC_BUILD_BENCH=OFF
              -DNICC_BUILD_DEMO=OFF -DNICC_CROSS_CHECKS=OFF -DNICC_WITH_NS3=OFF) ;;
  asan-sim) args=(-DCMAKE_BUILD_TYPE=Release -DNICC_SANITIZE=ON -DNICC_BUILD_BENCH=OFF
                  -DNICC_BUILD_DEMO=OFF -DNICC_CROSS_CHECKS=OFF -DNICC_WITH_VERBS=OFF
                  -DNICC_SIM_BUILD_EXAMPLES=OFF)
            targets=(--target nicc-sim nicc-sim-test-runner) ;;
  fuzz) args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DNICC_FUZZ=ON -DCMAKE_C_COMPILER=clang
              -DCMAKE_CXX_COMPILER=clang++)
        targets=(--target nicc-fuzz-all) ;;
  *) echo "build: unknown flavour '$flavour' (release, asan, asan-sim or fuzz)" >&2; exit 2 ;;
esac
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
cmake -S "$top" -B "$top/build/$flavour" "${gen[@]}" "${args[@]}" >/dev/null
cmake --build "$top/build/$flavour" -j "$jobs" "${targets[@]}"
