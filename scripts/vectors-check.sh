#!/usr/bin/env bash
# Conformance vectors beyond the plain run (which ctest does):
#
#   scripts/vectors-check.sh [BUILD_DIR]
#
# 1. Instruction bounds: runs every vector under valgrind callgrind with one
#    dump per event and fails if any event costs more than its vector's
#    `bound` (x86-64 instructions, the release build's -O2).
# 2. Cross-ISA: builds the runner statically with riscv64-linux-gnu-g++ and
#    arm-linux-gnueabihf-g++, runs all vectors under qemu-user with --trace,
#    and requires every event's outputs to equal the x86-64 run bit for bit.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build/release}
runner="$build/testvectors/nicc-vectors"
vectors="$top/testvectors/vectors"
work="$build/vectors-check"
mkdir -p "$work"
[ -x "$runner" ] || { echo "vectors-check: $runner not built (scripts/build.sh release)" >&2; exit 2; }

status=0
echo "== instruction bounds (callgrind)"
valgrind --tool=callgrind --combine-dumps=yes --callgrind-out-file="$work/icount.cg" \
  "$runner" --icount "$vectors" >"$work/icount-run.log" 2>&1 || { tail -20 "$work/icount-run.log"; status=1; }
"$runner" --check-icount="$work/icount.cg" "$vectors" | tee "$work/icount.txt" | tail -15 || status=1
grep -q ' 0 over their bound' "$work/icount.txt" || status=1

echo "== cross-ISA (qemu-user)"
"$runner" --trace "$vectors" > "$work/trace-x86_64.txt" || true
srcs=("$top/testvectors/runner/main.cc" "$top/testvectors/runner/vector_file.cc"
      "$top/testvectors/runner/executor.cc" "$top/testvectors/runner/emit_c.cc")
inc=(-I"$top/engine" -I"$top/hal" -I"$top/host" -I"$top/testvectors/runner" -I"$top/ports/firmware/include")
for t in "riscv64|riscv64-linux-gnu-g++|qemu-riscv64" "armhf|arm-linux-gnueabihf-g++|qemu-arm"; do
  name=${t%%|*}; rest=${t#*|}; cxx=${rest%%|*}; qemu=${rest#*|}
  if ! command -v "$cxx" >/dev/null || ! command -v "$qemu" >/dev/null; then
    echo "vectors-check: $cxx or $qemu missing (scripts/setup.sh installs them)" >&2; status=1; continue
  fi
  bin="$work/nicc-vectors-$name"
  if [ ! -x "$bin" ] || [ -n "$(find "$top/engine" "$top/hal" "$top/host" "$top/testvectors/runner" -newer "$bin" -name '*.[ch]*' | head -1)" ]; then
    "$cxx" -std=c++17 -O2 -static -D_FILE_OFFSET_BITS=64 -Wno-psabi "${inc[@]}" "${srcs[@]}" -o "$bin"
  fi
  "$qemu" "$bin" --trace "$vectors" > "$work/trace-$name.txt" || true
  if cmp -s "$work/trace-x86_64.txt" "$work/trace-$name.txt"; then
    echo "$name: $(grep -c ' flags=' "$work/trace-$name.txt") event outputs identical to x86-64; $(tail -1 "$work/trace-$name.txt")"
  else
    echo "$name: outputs differ from x86-64:"; diff "$work/trace-x86_64.txt" "$work/trace-$name.txt" | head -10
    status=1
  fi
done
exit $status
