#!/usr/bin/env bash
# Runs one libFuzzer target (docs/fuzzing.md).
#
#   scripts/fuzz.sh TARGET SECONDS             open-ended: a random seed, SECONDS of fuzzing
#   scripts/fuzz.sh --runs N [--seed S] TARGET  the same answer every time: replay every
#                                              input of fuzz/corpus/TARGET and
#                                              fuzz/regress/TARGET, then exactly N
#                                              executions from seed S (default 1)
#   scripts/fuzz.sh --list                     the targets (nicc_add_fuzzer calls)
#
# The run starts from a scratch copy of fuzz/corpus/TARGET and
# fuzz/regress/TARGET (fuzz/ is never written), with fuzz/dict/TARGET.dict
# when there is one. Prints executions, exec/s, edges (cov) and features
# (ft), and the last line "fuzz: TARGET replayed=N runs=N edges=N features=N
# exec_s=N result=ok|FINDING|ERROR". On a finding (crash, sanitizer report,
# timeout over 10 s, leak, invariant broken) the input is kept under
# build/fuzz/findings/TARGET/ and its path printed; exit 1. Exit 2 on a
# usage or build error. Builds with NICC_JOBS jobs (default 1); not at all
# with NICC_FUZZ_NOBUILD=1.
#
# --runs mode is what the test command uses (scripts/fuzz-check.sh): one
# process (no -jobs/-fork), the corpus reloaded never (-reload=0), and the
# address space laid out the same way on every run (setarch -R, where the
# kernel allows it) so that nothing but the seed steers libFuzzer.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

list_targets() {
  find "$top/fuzz" -name CMakeLists.txt -print0 |
    xargs -0 grep -h -oE '^[[:space:]]*nicc_add_fuzzer\([A-Za-z0-9_-]+' | sed -E 's/.*nicc_add_fuzzer\(//' | sort -u
}

usage() {
  echo "usage: scripts/fuzz.sh TARGET SECONDS | --runs N [--seed S] TARGET | --list" >&2; exit 2
}
number() { [[ "$1" =~ ^[0-9]{1,9}$ ]] && [ "$1" -ge 1 ]; }
if [ "${1:-}" = "--list" ]; then list_targets; exit 0; fi
nruns="" seed=1 seconds=""
if [ "${1:-}" = "--runs" ]; then
  [ $# -ge 3 ] && number "$2" || usage
  nruns=$2; shift 2
  if [ "${1:-}" = "--seed" ]; then
    [ $# -ge 3 ] && number "$2" || usage
    seed=$2; shift 2
  fi
  [ $# -eq 1 ] || usage
  target=$1
else
  [ $# -eq 2 ] && number "$2" || usage
  target=$1 seconds=$2
fi
if ! list_targets | grep -qx -- "$target"; then
  echo "fuzz: unknown target '$target' (scripts/fuzz.sh --list)" >&2; exit 2
fi

# Targets live in fuzz/<area>/: the binary is found wherever CMake put it.
build() {
  if [ ! -f "$top/build/fuzz/CMakeCache.txt" ]; then
    NICC_JOBS=${NICC_JOBS:-1} bash "$top/scripts/build.sh" fuzz >/dev/null || return 1
  fi
  cmake --build "$top/build/fuzz" -j "${NICC_JOBS:-1}" --target "nicc-fuzz-$target" >/dev/null || return 1
}
# NICC_FUZZ_NOBUILD=1: build/fuzz is current (fuzz-check.sh built it; two
# builds in one folder at once would race).
if [ "${NICC_FUZZ_NOBUILD:-0}" != 1 ] && ! build; then
  echo "fuzz: build of nicc-fuzz-$target failed" >&2; exit 2
fi
bin=$(find "$top/build/fuzz/fuzz" -type f -name "nicc-fuzz-$target" -perm -u+x | head -1)
[ -n "$bin" ] || { echo "fuzz: nicc-fuzz-$target not built" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/nicc-fuzz-$target.XXXXXX")
trap 'rm -rf "$work" ${scratch:+"$scratch"}' EXIT
mkdir -p "$work/corpus"
for d in "$top/fuzz/corpus/$target" "$top/fuzz/regress/$target"; do
  [ -d "$d" ] && find "$d" -maxdepth 1 -type f -exec cp {} "$work/corpus/" \;
done
findings="$top/build/fuzz/findings/$target"
mkdir -p "$findings"
args=(-timeout=10 -rss_limit_mb=2048 -print_final_stats=1
      -artifact_prefix="$findings/" -close_fd_mask=1)
[ -f "$top/fuzz/dict/$target.dict" ] && args+=(-dict="$top/fuzz/dict/$target.dict")

log="$work/log"
# Targets that build file trees (verbs-sysfs) put them under TMPDIR: in
# memory when the machine has /dev/shm (a mkdir on disk costs ~1 ms).
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
  export TMPDIR=/dev/shm
fi
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
seeds=$(find "$work/corpus" -maxdepth 1 -type f | wc -l)
replayed=0
run=()
if [ -n "$nruns" ]; then
  # The same layout every run: some of what the targets reach orders or
  # hashes by address, which moves libFuzzer's coverage by an edge or two.
  setarch -R true 2>/dev/null && run=(setarch -R)
  # Scratch files at the same path every run (the targets parse their
  # paths): one folder per target, held by a lock while in use; a second
  # run of the same target at once gets a folder of its own.
  scratch="${TMPDIR:-/tmp}/nicc-fuzz-scratch.$target"
  exec 9>"$scratch.lock"
  if flock -n 9; then
    rm -rf "$scratch"
  else
    scratch="$work/scratch"
    echo "fuzz: $target: another run holds ${TMPDIR:-/tmp}/nicc-fuzz-scratch.$target; coverage may differ from a lone run"
  fi
  mkdir -p "$scratch"
  export NICC_FUZZ_SCRATCH=$scratch
  # Every checked-in input once, by name, in name order: a regression fails
  # here on its own, not only if the fuzzing below happens to keep it.
  mapfile -t inputs < <(find "$work/corpus" -maxdepth 1 -type f | LC_ALL=C sort)
  echo "fuzz: $target: replaying $seeds inputs, then $nruns runs from seed $seed"
  "${run[@]}" "$bin" "${args[@]}" "${inputs[@]}" >"$work/replay.log" 2>&1
  rc=$?
  cat "$work/replay.log" >"$log"
  if [ $rc -eq 0 ]; then
    replayed=$seeds
    "${run[@]}" "$bin" "${args[@]}" -runs="$nruns" -seed="$seed" -reload=0 "$work/corpus" >>"$log" 2>&1
    rc=$?
  fi
else
  echo "fuzz: $target for ${seconds}s ($seeds seed inputs)"
  "$bin" "${args[@]}" -max_total_time="$seconds" "$work/corpus" >"$log" 2>&1
  rc=$?
fi
mkdir -p "$top/build/fuzz/logs"
cp "$log" "$top/build/fuzz/logs/$target.log"

last=$(grep -E '^#[0-9]+' "$log" | tail -1)
runs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | tail -1 | awk '{print $2}')
eps=$(grep -oE 'stat::average_exec_per_sec: *[0-9]+' "$log" | tail -1 | awk '{print $2}')
edges=$(grep -oE 'cov: [0-9]+' <<<"$last" | awk '{print $2}')
ft=$(grep -oE 'ft: [0-9]+' <<<"$last" | awk '{print $2}')
[ -n "$runs" ] || runs=$(grep -oE '^#[0-9]+' <<<"$last" | tr -d '#')
echo "$last"
crash=$(grep -oE 'Test unit written to [^ ]+' "$log" | tail -1 | sed 's/Test unit written to //')
if [ $rc -eq 0 ]; then
  result=ok
elif [ -n "$crash" ]; then
  result=FINDING
  grep -E 'invariant broken|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error|SUMMARY' "$log" | head -5
  echo "fuzz: finding saved as $crash (log: build/fuzz/logs/$target.log)"
else
  result=ERROR
  tail -20 "$log"
fi
echo "fuzz: $target replayed=$replayed runs=${runs:-0} edges=${edges:-0} features=${ft:-0} exec_s=${eps:-0} result=$result"
[ "$result" = ok ] && exit 0
[ "$result" = FINDING ] && exit 1
exit 2
