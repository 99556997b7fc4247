#!/usr/bin/env bash
# Runs every fuzz target for a bounded time, two at a time (the test
# command's fuzzing phase; docs/fuzzing.md).
#
#   scripts/fuzz-check.sh [SECONDS]    default 30 s per target
#
# Builds build/fuzz (scripts/build.sh fuzz, NICC_JOBS jobs, default nproc), then
# runs scripts/fuzz.sh on each target and prints one row per target: NAME,
# runs (executions), edges (coverage), result (ok, FINDING, ERROR). Ends
# with "fuzz-check: N passed, N failed"; exit 1 on any finding or error.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-30}
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
  echo "usage: scripts/fuzz-check.sh [SECONDS]" >&2; exit 2
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
  NICC_FUZZ_NOBUILD=1 bash "$top/scripts/fuzz.sh" "$t" "$seconds" >"$out/$t.txt" 2>&1 &
  running=$((running + 1))
  if [ "$running" -ge 2 ]; then wait -n; running=$((running - 1)); fi
done
wait

passed=0; failed=0
printf '%-16s %12s %8s  %s\n' NAME runs edges result
for t in "${targets[@]}"; do
  line=$(grep -E "^fuzz: $t runs=" "$out/$t.txt" | tail -1)
  runs=$(sed -nE 's/.* runs=([0-9]+).*/\1/p' <<<"$line")
  edges=$(sed -nE 's/.* edges=([0-9]+).*/\1/p' <<<"$line")
  result=$(sed -nE 's/.* result=([A-Za-z]+).*/\1/p' <<<"$line")
  [ -n "$result" ] || result=ERROR
  printf '%-16s %12s %8s  %s\n' "$t" "${runs:-0}" "${edges:-0}" "$result"
  if [ "$result" = ok ]; then passed=$((passed + 1)); else
    failed=$((failed + 1))
    grep -E 'invariant broken|runtime error|ERROR:|finding saved' "$out/$t.txt" | head -4 | sed 's/^/    /'
  fi
done
echo "fuzz-check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
