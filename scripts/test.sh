#!/usr/bin/env bash
# The test command: installs what is missing, builds, and runs every test.
#
#   scripts/test.sh
#
# 1. GoogleTest suites, the install/find_package check and the freestanding
#    cross-compile of every engine/ and hal/ header (rv32imac, rv64imac,
#    cortex-m4, -Werror), in a Release build;
# 2. the conformance vectors under callgrind (instruction bounds) and, built
#    statically for RV64 and 32-bit ARM, under qemu-user (outputs identical
#    to x86-64): scripts/vectors-check.sh;
# 3. one fat-tree / leaf-spine simulation across 1, 2 and 4 MPI ranks with
#    identical results, against ns-3 built with MPI from Debian's source
#    (scripts/mpi-check.sh; the build takes 2-4 minutes the first time);
# 3b. the module built inside that ns-3 tree as contrib/nicc with ./ns3,
#    two examples' outputs equal to the out-of-tree build's
#    (scripts/contrib-check.sh);
# 4. the same GoogleTest suites under AddressSanitizer + UBSan;
# 5. the ns-3 module's test suites and nicc-sim checks under ASan + UBSan
#    (a Release build of the module with the sanitizers);
# 6. every libFuzzer target, the same way on every machine
#    (scripts/fuzz-check.sh, build/fuzz with clang): the checked-in corpus
#    and regression inputs replayed, then a fixed number of runs (FUZZ_RUNS,
#    default 40000) from a fixed seed; one pass or fail per target.
#    Open-ended fuzzing is scripts/fuzz.sh TARGET SECONDS, never part of this.
# Each phase's wall and CPU time (user + sys of everything it ran) is
# printed as it ends and again in a table before the last line, which is
# "N passed, N failed"; exits non-zero on any failure.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
# phase NAME: close the running phase (its wall and CPU time) and open NAME.
phases=(); phase_name=""; phase_wall=0; phase_cpu=0
cpu=0
cpu_now() {  # cpu=: user + sys seconds of this shell's children so far (times, not in a subshell)
  times >build/.times
  cpu=$(awk 'END { split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%d", u[1]*60 + u[2] + s[1]*60 + s[2] }' build/.times)
}
phase() {
  local now=$SECONDS
  cpu_now
  if [ -n "$phase_name" ]; then
    phases+=("$(printf '%-14s %6d s wall %6d s CPU' "$phase_name" $((now - phase_wall)) $((cpu - phase_cpu)))")
    echo "-- ${phases[-1]}"
  fi
  phase_name=$1; phase_wall=$now; phase_cpu=$cpu
}
mkdir -p build
phase setup
bash scripts/setup.sh || exit 1

passed=0; failed=0
tally() {  # tally LOG: add ctest's counts from its summary line
  local line
  line=$(grep -E '[0-9]+% tests passed, [0-9]+ tests failed out of [0-9]+' "$1" | tail -1)
  if [ -z "$line" ]; then failed=$((failed + 1)); return; fi
  local f t
  f=$(sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\1/' <<<"$line")
  t=$(sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\2/' <<<"$line")
  passed=$((passed + t - f)); failed=$((failed + f))
}

mkdir -p build
status=0
phase "release build"
echo "== release build"
bash scripts/build.sh release || { echo "release build failed"; echo "0 passed, 1 failed"; exit 1; }
phase "release tests"
echo "== release tests"
(cd build/release && ctest --output-on-failure -j "$(nproc)" --timeout 900) 2>&1 | tee build/ctest-release.log
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
tally build/ctest-release.log

phase vectors
echo "== conformance vectors: instruction bounds and cross-ISA runs"
if bash scripts/vectors-check.sh build/release 2>&1 | tee build/vectors-check.log; then
  passed=$((passed + 1))
else
  failed=$((failed + 1)); status=1
fi

phase mpi
echo "== one fabric across MPI ranks (ns-3 built with MPI from Debian's source)"
bash scripts/mpi-check.sh 2>&1 | tee build/mpi-check.log
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
line=$(grep -E '^mpi-check: [0-9]+ passed, [0-9]+ failed' build/mpi-check.log | tail -1)
if [ -n "$line" ]; then
  passed=$((passed + $(sed -E 's/^mpi-check: ([0-9]+) passed.*/\1/' <<<"$line")))
  failed=$((failed + $(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$line")))
else
  failed=$((failed + 1)); status=1
fi

phase contrib
echo "== the module inside ns-3's own tree (contrib/nicc, ./ns3): outputs equal the out-of-tree build's"
bash scripts/contrib-check.sh 2>&1 | tee build/contrib-check.log
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
line=$(grep -E '^contrib-check: [0-9]+ passed, [0-9]+ failed' build/contrib-check.log | tail -1)
if [ -n "$line" ]; then
  passed=$((passed + $(sed -E 's/^contrib-check: ([0-9]+) passed.*/\1/' <<<"$line")))
  failed=$((failed + $(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$line")))
else
  failed=$((failed + 1)); status=1
fi

phase "asan (unit)"
echo "== sanitizer build (ASan + UBSan)"
if bash scripts/build.sh asan; then
  echo "== sanitizer tests"
  (cd build/asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
     ctest --output-on-failure -j "$(nproc)" -L unit --timeout 900) 2>&1 | tee build/ctest-asan.log
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  tally build/ctest-asan.log
else
  echo "sanitizer build failed"; status=1; failed=$((failed + 1))
fi

phase "asan-sim"
echo "== sanitizer build of the ns-3 module (ASan + UBSan)"
if bash scripts/build.sh asan-sim; then
  echo "== sanitizer sim tests"
  (cd build/asan-sim && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
     ctest --output-on-failure -j "$(nproc)" -L sim --timeout 1200) 2>&1 | tee build/ctest-asan-sim.log
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  tally build/ctest-asan-sim.log
else
  echo "sanitizer build of the ns-3 module failed"; status=1; failed=$((failed + 1))
fi

phase fuzz
echo "== fuzzing: every target, corpus replayed, then ${FUZZ_RUNS:-40000} runs from seed 1 (libFuzzer + ASan + UBSan)"
bash scripts/fuzz-check.sh "${FUZZ_RUNS:-40000}" 2>&1 | tee build/fuzz-check.log
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
line=$(grep -E '^fuzz-check: [0-9]+ passed, [0-9]+ failed' build/fuzz-check.log | tail -1)
if [ -n "$line" ]; then
  passed=$((passed + $(sed -E 's/^fuzz-check: ([0-9]+) passed.*/\1/' <<<"$line")))
  failed=$((failed + $(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$line")))
else
  failed=$((failed + 1)); status=1
fi

phase end
echo "== time by phase (total $SECONDS s wall, $cpu s CPU)"
printf '%s\n' "${phases[@]}"
echo "$passed passed, $failed failed"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ]
