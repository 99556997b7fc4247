#!/usr/bin/env bash
# claim-hpcc.sh — claim 1 of docs/claims.md: short-flow tail latency of HPCC
# vs DCQCN at 400 Gb/s hosts (sim-adapter/scenarios/claim-hpcc-400g.toml),
# per congestion-control profile and over a small sensitivity grid, then one
# table and the heat map (scripts/claim-hpcc-table.py).
#
#   scripts/claim-hpcc.sh                        # -> out/claim-hpcc
#   scripts/claim-hpcc.sh --out /tmp/c1 --only profiles   # or: sweep
#   scripts/claim-hpcc.sh --check --out DIR      # tiny scale (seconds); exit 1
#                                                # unless the table is sane (ctest)
#
# Profiles (at the scenario's own cell: load 50%, incast 2%), the names of
# engine/nicc/param_tables.h (docs/params.md):
#   dcqcn-mlx5            cc=dcqcn  dcqcn.profile=mlx5         dcqcn.variant=mlx5
#   dcqcn-mlx5-sigcomm15  cc=dcqcn  dcqcn.profile=mlx5         dcqcn.variant=sigcomm15
#   dcqcn-paper           cc=dcqcn  dcqcn.profile=dcqcn-paper  dcqcn.variant=mlx5
#   dcqcn-paper-sigcomm15 cc=dcqcn  dcqcn.profile=dcqcn-paper  dcqcn.variant=sigcomm15
#   hpcc-paper            cc=hpcc       hpcc.profile=hpcc-paper
#   hpcc-later            cc=hpcc       hpcc.profile=hpcc-later
#   hpcc-pint             cc=hpcc-pint  hpcc.profile=hpcc-later
# Sweep: poisson_load 0.3/0.5/0.7 x incast_load 0/0.02/0.05, each with
# hpcc-paper, dcqcn-mlx5 (the scenario's ECN thresholds, the HPCC
# simulator's: Kmin/Kmax 1.6/6.4 MB at 400G, Pmax 0.2) and dcqcn-mlx5-ecnlow
# (the DCQCN paper's 40G thresholds 5 KB / 200 KB / Pmax 1% scaled by 10 to
# 400G: 50 KB / 2 MB, and 100 KB / 4 MB on the 800G uplinks).
# Options: --out DIR, --only profiles|sweep, --variants v1,v2 (only these),
# --set K=V,... (appended to every run; e.g. run=2 for a replication). Runs one at a time; a run whose directory already holds a summary
# for the same overrides is not repeated.
# Environment: NICC_SIM (default build/release/sim-adapter/nicc-sim), PYTHON
# (default /usr/bin/python3; matplotlib for the heat map).
# Output: DIR/l<load>-i<incast>/<variant>/ (nicc-sim's files), DIR/runs.csv,
# DIR/table.md, DIR/table.csv, DIR/claim-hpcc-heatmap.png.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sim="${NICC_SIM:-$root/build/release/sim-adapter/nicc-sim}"
py="${PYTHON:-/usr/bin/python3}"
[[ -x "$py" ]] || py=python3
scenario="$root/sim-adapter/scenarios/claim-hpcc-400g.toml"
out="$root/out/claim-hpcc"
extra=""
only=""
variants=""
check=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --set) extra="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --variants) variants="$2"; shift 2 ;;
    --check) check="--check"; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | grep '^#'; exit 0 ;;
    *) echo "claim-hpcc.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case "$only" in ""|profiles|sweep) ;; *) echo "claim-hpcc.sh: --only: '$only' is not profiles or sweep" >&2; exit 2 ;; esac
[[ -x "$sim" ]] || { echo "claim-hpcc.sh: $sim not built (ninja -C build/release -j1 nicc-sim)" >&2; exit 2; }

declare -A sets=(
  [dcqcn-mlx5]="cc=dcqcn,dcqcn.profile=mlx5,dcqcn.variant=mlx5"
  [dcqcn-mlx5-sigcomm15]="cc=dcqcn,dcqcn.profile=mlx5,dcqcn.variant=sigcomm15"
  [dcqcn-paper]="cc=dcqcn,dcqcn.profile=dcqcn-paper,dcqcn.variant=mlx5"
  [dcqcn-paper-sigcomm15]="cc=dcqcn,dcqcn.profile=dcqcn-paper,dcqcn.variant=sigcomm15"
  [hpcc-paper]="cc=hpcc,hpcc.profile=hpcc-paper"
  [hpcc-later]="cc=hpcc,hpcc.profile=hpcc-later"
  [hpcc-pint]="cc=hpcc-pint,hpcc.profile=hpcc-later"
  [dcqcn-mlx5-ecnlow]="cc=dcqcn,dcqcn.profile=mlx5,dcqcn.variant=mlx5,ecn_map=400Gbps:50:2000:0.01;800Gbps:100:4000:0.01"
)
runs=()   # "cell load incast variant"
if [[ -n "$check" ]]; then
  extra="stop_ms=0.3,traffic_stop_ms=0.2${extra:+,$extra}"
  runs=("l50-i2 0.5 0.02 dcqcn-mlx5" "l50-i2 0.5 0.02 hpcc-paper")
else
  if [[ "$only" != sweep ]]; then
    for v in dcqcn-mlx5 dcqcn-mlx5-sigcomm15 dcqcn-paper dcqcn-paper-sigcomm15 hpcc-paper hpcc-later hpcc-pint; do
      runs+=("l50-i2 0.5 0.02 $v")
    done
  fi
  if [[ "$only" != profiles ]]; then
    for l in 30 50 70; do
      for i in 0 2 5; do
        for v in hpcc-paper dcqcn-mlx5 dcqcn-mlx5-ecnlow; do
          runs+=("l$l-i$i 0.$l 0.0$i $v")
        done
      done
    done
  fi
fi
mkdir -p "$out"
[[ -n "$check" ]] && rm -rf "$out/l50-i2"   # always a fresh run under ctest
declare -A seen=()
echo "cell,load,incast,variant,dir,overrides" > "$out/runs.csv.tmp"
for r in "${runs[@]}"; do
  read -r cell load incast v <<< "$r"
  key="$cell/$v"
  [[ -n "$variants" && ",$variants," != *",$v,"* ]] && continue
  [[ -n "${seen[$key]:-}" ]] && continue
  seen[$key]=1
  dir="$out/$cell/$v"
  all="${sets[$v]},poisson_load=$load,incast_load=$incast${extra:+,$extra}"
  if [[ -f "$dir/summary.json" && -f "$dir/overrides.txt" && "$(cat "$dir/overrides.txt")" == "$all" ]]; then
    echo "claim-hpcc.sh: $key: done before" >&2
  else
    echo "claim-hpcc.sh: $key: --set $all" >&2
    rm -f "$dir/overrides.txt"
    "$sim" --scenario "$scenario" --set "$all" --out "$dir" --progress=false --plots=false >/dev/null
    printf '%s' "$all" > "$dir/overrides.txt"
  fi
  echo "$cell,$load,$incast,$v,$dir,\"$all\"" >> "$out/runs.csv.tmp"
done
mv "$out/runs.csv.tmp" "$out/runs.csv"
"$py" "$root/scripts/claim-hpcc-table.py" "$out" $check
