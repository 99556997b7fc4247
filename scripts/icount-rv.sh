#!/usr/bin/env bash
# RISC-V (RV64GC, -O2) instructions and an in-order cycle estimate per event
# kind, from the same drivers as scripts/icount.sh (bench/icount/*_icount.cc).
#
#   scripts/icount-rv.sh [--filter REGEX] [--out DIR]
#
# Each driver is built statically with riscv64-linux-gnu-g++ -O2
# -DNICC_ICOUNT_MARKERS and run under qemu-riscv64 with one instruction per
# translation block and an execution log (-singlestep -d exec,nochain);
# scripts/icount-rv.py counts the instructions of each event kind and runs
# them through its cycle model (single-issue in-order pipeline, SiFive E31
# latencies, static branch prediction; its header states the model).
# Prints: kind, RV64 instructions/event, modelled cycles/event, loads,
# mispredicted branches, multiplies and divides per event.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out="$top/build/icount-rv"
filter="."
while [ $# -gt 0 ]; do
  case "$1" in
    --filter) filter="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "icount-rv: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
for tool in riscv64-linux-gnu-g++ riscv64-linux-gnu-objdump qemu-riscv64; do
  command -v "$tool" >/dev/null || { echo "icount-rv: $tool not found (scripts/setup.sh installs it)" >&2; exit 2; }
done
mkdir -p "$out"
printf '%-32s %9s %9s %7s %7s %5s %5s\n' "event kind" "instr" "cycles" "loads" "mispr" "mul" "div"
for src in "$top"/bench/icount/*_icount.cc; do
  name=$(basename "$src" .cc)
  bin="$out/$name"
  riscv64-linux-gnu-g++ -std=c++17 -O2 -static -DNICC_ICOUNT_MARKERS -I"$top/engine" -I"$top/hal" \
    -I"$top/bench/icount" "$src" -o "$bin"
  riscv64-linux-gnu-objdump -d --no-show-raw-insn "$bin" > "$bin.dis"
  rm -f "$bin.fifo"; mkfifo "$bin.fifo"
  python3 "$top/scripts/icount-rv.py" "$bin.dis" "$bin.regions" "$bin.fifo" > "$bin.txt" &
  parser=$!
  qemu-riscv64 -singlestep -d exec,nochain -D "$bin.fifo" "$bin" > "$bin.regions" || {
    echo "icount-rv: $name failed under qemu" >&2; kill "$parser" 2>/dev/null || true; exit 1; }
  wait "$parser"
  rm -f "$bin.fifo"
  grep -E -- "$filter" "$bin.txt" || true
done
