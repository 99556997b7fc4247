#!/usr/bin/env bash
# Freestanding cross-compile of every engine/ and hal/ header for the three
# firmware targets (rv32imac, rv64imac, cortex-m4) with -Wall -Wextra
# -Werror, then a footprint report: text size and worst stack use of each
# bench/footprint/*.cc translation unit per target, and the per-flow bytes of
# every sender composition (CC x spray policy), the receiver slot and the C
# ABI's contexts (bench/footprint/slot_footprint.cc); then checks the
# footprint against the budgets in bench/footprint/budgets.txt (the one
# table: text and largest event-path stack per algorithm's unit on
# rv32imac and cortex-m4; scripts/footprint-budget.py).
#
#   scripts/cross-check.sh [--out DIR]
#
# Exits non-zero if any header fails to compile on any target, if a unit is
# over a budget (each excess named: unit, target, figure), or if a
# toolchain is missing (scripts/setup.sh installs them).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out="$top/build/cross"
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) echo "cross-check: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"

# name | compiler | flags
targets=(
  "rv32imac|riscv64-unknown-elf-g++|-march=rv32imac -mabi=ilp32"
  "rv64imac|riscv64-unknown-elf-g++|-march=rv64imac -mabi=lp64"
  "cortex-m4|arm-none-eabi-g++|-mcpu=cortex-m4 -mthumb"
)
common="-DNICC_PARAM_DOCS=0 -std=c++17 -ffreestanding -fno-exceptions -fno-rtti -fno-strict-aliasing -nostdinc++ -Wall -Wextra -Werror -I$top/engine -I$top/hal -I$top/ports/firmware/include -I$top"

for t in "${targets[@]}"; do
  cxx=${t#*|}; cxx=${cxx%%|*}
  if ! command -v "$cxx" >/dev/null; then
    echo "cross-check: $cxx not found; run scripts/setup.sh" >&2
    exit 2
  fi
done

mapfile -t headers < <(cd "$top" && find engine hal -name '*.h' 2>/dev/null | sort)
fails=0; count=0
for t in "${targets[@]}"; do
  name=${t%%|*}; rest=${t#*|}; cxx=${rest%%|*}; flags=${rest#*|}
  for h in "${headers[@]}"; do
    printf '#include "%s"\n#include "%s"\n' "$h" "$h" > "$out/tu.cc"  # also checks include guards
    # shellcheck disable=SC2086
    if ! "$cxx" $common $flags -I"$top" -c "$out/tu.cc" -o "$out/tu.o" 2>"$out/err.txt"; then
      echo "FAIL $name $h"; sed -n 1,20p "$out/err.txt"; fails=$((fails + 1))
    fi
    count=$((count + 1))
  done
done
# The firmware C API headers and the example harness compile as C99.
for t in "riscv64-unknown-elf-gcc|-march=rv32imac -mabi=ilp32" "arm-none-eabi-gcc|-mcpu=cortex-m4 -mthumb"; do
  cc=${t%%|*}; flags=${t#*|}
  for h in fw.h fw_vector.h; do
    printf '#include "nicc/%s"\n' "$h" > "$out/c99.c"
    # shellcheck disable=SC2086
    if ! "$cc" -std=c99 -pedantic -Wall -Wextra -Werror -ffreestanding $flags -I"$top/ports/firmware/include" -I"$top/engine" \
        -c "$out/c99.c" -o "$out/c99.o" 2>"$out/err.txt"; then
      echo "FAIL $cc C99 nicc/$h"; sed -n 1,20p "$out/err.txt"; fails=$((fails + 1))
    fi
    count=$((count + 1))
  done
done
echo "cross-check: $count header compiles, $fails failed"

# Footprint report.
report="$out/footprint.txt"
{
  echo "# text bytes and worst stack use (bytes) per entry point, -Os"
  for t in "${targets[@]}"; do
    name=${t%%|*}; rest=${t#*|}; cxx=${rest%%|*}; flags=${rest#*|}
    echo "## $name ($("$cxx" --version | head -1))"
    size=${cxx%g++}size
    for src in "$top"/bench/footprint/*.cc "$top"/ports/firmware/src/*.cc; do
      [ -e "$src" ] || continue
      base=$(basename "$src" .cc)
      obj="$out/$name-$base.o"
      # shellcheck disable=SC2086
      "$cxx" $common $flags -Os -ffunction-sections -fcallgraph-info=su -c "$src" -o "$obj"
      text=$("$size" "$obj" | awk 'NR==2 {print $1}')
      echo "$base: text $text bytes"
      python3 "$top/scripts/stack-report.py" "${obj%.o}.ci"
      if [ "$base" = slot_footprint ]; then
        # Per-flow bytes, read from the probe's symbol sizes: the C++ slots
        # (hal::SenderSlot<Cc, Policy>, hal::ReceiverSlot) and the C ABI's
        # contexts (nicc_fw_flow_bytes / nicc_fw_rx_flow_bytes) per composition.
        echo "per-flow bytes (sender: cc x policy; C++ slot / C ABI context):"
        nm=${cxx%g++}nm
        declare -A sz=()
        while read -r _ hex _ sym; do sz[$sym]=$((16#$hex)); done < <("$nm" -S "$obj" | grep -E ' nicc_(slot|fw)_')
        printf '  %-10s' "cc"; for pol in ecmp ops bitmap reps plb dlb; do printf ' %9s' "$pol"; done; echo
        for cc in none dcqcn hpcc nscc hpcc_spray nscc_rccc; do
          printf '  %-10s' "$cc"
          for pol in ecmp ops bitmap reps plb dlb; do
            printf ' %9s' "${sz[nicc_slot_tx_${cc}_$pol]}/${sz[nicc_fw_tx_${cc}_$pol]}"
          done
          echo
        done
        echo "  any-CC any-policy sender slot ${sz[nicc_slot_tx_any_any]}; receiver slot ${sz[nicc_slot_rx]} / C ABI ${sz[nicc_fw_rx]}"
        echo "  RCCC: port ${sz[nicc_slot_rccc_port]} / C ABI ${sz[nicc_fw_port_bytes]}; receiving flow ${sz[nicc_slot_rccc_rx]}"
        unset sz
      fi
    done
  done
} > "$report"
cat "$report"
budget_rc=0
python3 "$top/scripts/footprint-budget.py" "$report" "$top/bench/footprint/budgets.txt" || budget_rc=$?
[ "$fails" -eq 0 ] && [ "$budget_rc" -eq 0 ]
