#!/usr/bin/env bash
# hpcc-reproduce.sh — the HPCC paper's FB_Hadoop 30% + incast comparison of
# HPCC and DCQCN, run from HPCC-simulator inputs: scripts/hpcc-inputs.py
# writes a config, topology and flow file per seed, nicc-sim runs each with
# --hpcc-config, scripts/hpcc-compare.py prints the tables (and the plot).
#
#   scripts/hpcc-reproduce.sh                       # small: 32 hosts, 3 seeds, 3 ms of arrivals
#   scripts/hpcc-reproduce.sh --full                # the paper's 320-host fat-tree, 1 seed, 5 ms
#   scripts/hpcc-reproduce.sh --check --seeds "1 2 3" OUT   # exit 1 unless HPCC wins (the test)
#   scripts/hpcc-reproduce.sh --burst OUT           # long flows into host 0, then a burst: queues
#
# Environment: NICC_SIM (default build/release/sim-adapter/nicc-sim),
# PYTHON (default /usr/bin/python3). Output: OUT (default out/hpcc-repro)
# with seed<N>/{config_*.txt,topology.txt,flow.txt,nicc-dcqcn/,nicc-hpcc/},
# fct.png (per-bucket slowdown) and, with --burst, queues.png.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sim="${NICC_SIM:-$root/build/release/sim-adapter/nicc-sim}"
py="${PYTHON:-/usr/bin/python3}"
[[ -x "$py" ]] || py=python3
size="--small --duration-ms 3"
seeds="1 2 3"
check=""
pattern="mix"
out=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --full) size="--duration-ms 5"; seeds="1"; shift ;;
    --seeds) seeds="$2"; shift 2 ;;
    --check) check="--check"; shift ;;
    --burst) pattern="burst"; seeds="1"; shift ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    -*) echo "hpcc-reproduce.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) out="$1"; shift ;;
  esac
done
out="${out:-out/hpcc-repro}"
if [[ ! -x "$sim" ]]; then
  echo "hpcc-reproduce.sh: nicc-sim not found at $sim (build it, or set NICC_SIM=path)" >&2
  exit 2
fi
dirs=()
for seed in $seeds; do
  d="$out/seed$seed"
  # shellcheck disable=SC2086
  "$py" "$root/scripts/hpcc-inputs.py" "$d" $size --seed "$seed" --pattern "$pattern"
  for cc in dcqcn hpcc; do
    echo "hpcc-reproduce.sh: nicc-sim --hpcc-config $d/config_$cc.txt --out $d/nicc-$cc" >&2
    "$sim" --hpcc-config "$d/config_$cc.txt" --out "$d/nicc-$cc" --plots=false --progress=true \
      2> >(grep -v '^nicc-sim: note: ' >&2)
  done
  dirs+=("$d")
done
if [[ "$pattern" == "burst" ]]; then
  "$py" "$root/scripts/plot.py" "${dirs[0]}/nicc-dcqcn" >/dev/null 2>&1 || true
  "$py" "$root/scripts/plot.py" "${dirs[0]}/nicc-hpcc" >/dev/null 2>&1 || true
  "$py" "$root/scripts/hpcc-burst.py" "${dirs[0]}" --plot "$out/queues.png"
else
  "$py" "$root/scripts/hpcc-compare.py" "${dirs[@]}" --plot "$out/fct.png" $check
fi
