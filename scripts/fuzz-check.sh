#!/usr/bin/env bash
# Every fuzz target, the same way on every machine: the test command's
# fuzzing phase (docs/fuzzing.md).
#
#   scripts/fuzz-check.sh [RUNS]    default 40000 executions per target (FUZZ_RUNS)
#
# Builds build/fuzz (scripts/build.sh fuzz, NICC_JOBS jobs, default nproc),
# then runs `scripts/fuzz.sh --runs RUNS --seed 1` on each target, two
# targets at a time (one per core, each a single process): every input of
# fuzz/corpus/TARGET and fuzz/regress/TARGET replayed by name, then RUNS
# executions from the fixed seed. Prints one row per target: NAME, replayed
# (inputs), runs (executions), edges (coverage), result (ok, FINDING,
# ERROR). Ends with "fuzz-check: N passed, N failed"; exit 1 on any finding
# or error. Open-ended random fuzzing is scripts/fuzz.sh TARGET SECONDS:
# what it finds becomes an input under fuzz/regress/ and a fix.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-${FUZZ_RUNS:-40000}}
if ! [[ "$runs" =~ ^[0-9]{1,9}$ ]] || [ "$runs" -lt 1 ]; then
  echo "usage: scripts/fuzz-check.sh [RUNS]" >&2; exit 2
fi
if ! NICC_JOBS=${NICC_JOBS:-$(nproc)} bash "$top/scripts/build.sh" fuzz >/dev/null; then
  echo "fuzz-check: build of build/fuzz failed"; echo "fuzz-check: 0 passed, 1 failed"; exit 1
fi
mapfile -t targets < <(bash "$top/scripts/fuzz.sh" --list)
out=$(mktemp -d "${TMPDIR:-/tmp}/nicc-fuzz-check.XXXXXX")
trap 'rm -rf "$out"' EXIT

# Two at a time: one per core.
running=0
for t in "${targets[@]}"; do
  NICC_FUZZ_NOBUILD=1 bash "$top/scripts/fuzz.sh" --runs "$runs" --seed 1 "$t" >"$out/$t.txt" 2>&1 &
  running=$((running + 1))
  if [ "$running" -ge 2 ]; then wait -n; running=$((running - 1)); fi
done
wait

passed=0; failed=0
printf '%-16s %8s %10s %8s  %s\n' NAME replayed runs edges result
for t in "${targets[@]}"; do
  line=$(grep -E "^fuzz: $t replayed=" "$out/$t.txt" | tail -1)
  replayed=$(sed -nE 's/.* replayed=([0-9]+).*/\1/p' <<<"$line")
  done_runs=$(sed -nE 's/.* runs=([0-9]+).*/\1/p' <<<"$line")
  edges=$(sed -nE 's/.* edges=([0-9]+).*/\1/p' <<<"$line")
  result=$(sed -nE 's/.* result=([A-Za-z]+).*/\1/p' <<<"$line")
  [ -n "$result" ] || result=ERROR
  printf '%-16s %8s %10s %8s  %s\n' "$t" "${replayed:-0}" "${done_runs:-0}" "${edges:-0}" "$result"
  if [ "$result" = ok ]; then passed=$((passed + 1)); else
    failed=$((failed + 1))
    grep -E 'invariant broken|runtime error|ERROR:|finding saved' "$out/$t.txt" | head -4 | sed 's/^/    /'
  fi
done
echo "fuzz-check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
