#!/usr/bin/env bash
# Exact instruction counts per engine event under valgrind callgrind.
#
#   scripts/icount.sh [BUILD_DIR] [--filter REGEX]
#
# Runs every driver in BUILD_DIR/icount (built from bench/icount/*_icount.cc)
# under callgrind and prints, per event kind, the instructions executed per
# event (x86-64, the build's flags: -O2). Counts are exact and repeatable for
# the same binary, so they can be compared across commits, unlike timings.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build="$top/build/release"
filter="."
while [ $# -gt 0 ]; do
  case "$1" in
    --filter) filter="$2"; shift 2 ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) build="$1"; shift ;;
  esac
done
command -v valgrind >/dev/null || { echo "icount: valgrind not found (scripts/setup.sh installs it)" >&2; exit 2; }
[ -d "$build/icount" ] || { echo "icount: no drivers in $build/icount; build first (scripts/test.sh builds them)" >&2; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf '%-32s %14s\n' "event kind" "instr/event"
for drv in "$build"/icount/*_icount; do
  [ -x "$drv" ] || continue
  name=$(basename "$drv")
  valgrind --tool=callgrind --collect-atstart=yes --callgrind-out-file="$tmp/$name.%p" \
    "$drv" >"$tmp/$name.log" 2>&1 || { cat "$tmp/$name.log" >&2; exit 1; }
  for f in "$tmp/$name".*; do
    case "$f" in *.log) continue ;; esac
    # Each dump carries "desc: Trigger: Client Request: <kind> <n>" and
    # "summary: <Ir>" (or "totals:").
    kind=$(sed -n 's/^desc: Trigger: Client Request: //p' "$f")
    [ -n "$kind" ] || continue
    n=${kind##* }; kind=${kind% *}
    ir=$(sed -n 's/^summary: //p;s/^totals: //p' "$f" | head -1 | awk '{print $1}')
    echo "$kind $n $ir"
  done
done | grep -E -- "$filter" | sort | awk '{printf "%-32s %14.1f\n", $1, $3 / $2}'
