#!/usr/bin/env bash
# uec-experiments.sh — issue 15's UEC experiment table: every workload x
# topology scenario (sim-adapter/scenarios/uec-*.toml: 64-to-1 incast,
# permutation, all-to-all, FB_Hadoop 30% + incast; leaf-spine and
# fat-tree) run once per transport configuration
# (sim-adapter/scenarios/uec-transports.txt: UEC = NSCC + REPS + trimming
# without PFC, UEC + RCCC, RoCEv2 DCQCN / HPCC with PFC over ECMP / REPS),
# then scripts/uec-table.py writes one table (Markdown + CSV) and the plots.
#
#   scripts/uec-experiments.sh                    # default scale -> out/uec
#   scripts/uec-experiments.sh --full --out DIR   # the bigger scale (docs/uec.md)
#   scripts/uec-experiments.sh --check --out DIR  # tiny scale; exit 1 unless the
#                                                 # expected shape holds (ctest)
#   scripts/uec-experiments.sh --jobs 2 --only uec,roce-hpcc-reps --workloads incast64
#
# Options: --out DIR (default out/uec), --jobs N (parallel runs, default 2),
# --only T1,T2 (transport rows), --workloads W1,W2, --topologies T1,T2.
# Scale overrides: sim-adapter/scenarios/uec-scales.txt. A transport whose
# cc value `nicc-sim --help` does not list is skipped with a note.
# Environment: NICC_SIM (default build/release/sim-adapter/nicc-sim),
# PYTHON (default /usr/bin/python3; matplotlib for the plots).
# Output: DIR/<workload>-<topology>/<transport>/ (nicc-sim's files),
# DIR/logs/, DIR/runs.csv, DIR/table.md, DIR/table.csv, DIR/*.png.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sim="${NICC_SIM:-$root/build/release/sim-adapter/nicc-sim}"
py="${PYTHON:-/usr/bin/python3}"
[[ -x "$py" ]] || py=python3
scen="$root/sim-adapter/scenarios"
scale="default"
out=""
jobs=2
only=""
workloads=""
topologies=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --full) scale="full"; shift ;;
    --check) scale="check"; shift ;;
    --out) out="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --workloads) workloads="$2"; shift 2 ;;
    --topologies) topologies="$2"; shift 2 ;;
    -h|--help) sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "uec-experiments.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
out="${out:-out/uec}"
if ! [[ "$jobs" =~ ^[1-9][0-9]*$ ]]; then
  echo "uec-experiments.sh: --jobs needs a positive integer, got '$jobs'" >&2; exit 2
fi
if [[ ! -x "$sim" ]]; then
  echo "uec-experiments.sh: nicc-sim not found at $sim (build it, or set NICC_SIM=path)" >&2
  exit 2
fi

# The cc values this nicc-sim knows, from its --help line "  cc   a|b|c ...".
help="$("$sim" --help 2>&1 || true)"
cc_values="$(awk '$1 == "cc" { print $2; exit }' <<<"$help")"
if [[ -z "$cc_values" ]]; then
  echo "uec-experiments.sh: could not read the cc values from '$sim --help'" >&2; exit 2
fi
has_cc() { [[ "|$cc_values|" == *"|$1|"* ]]; }
in_list() { [[ -z "$2" || ",$2," == *",$1,"* ]]; }

# Transport rows: name -> keys (comma-joined for --set).
declare -a t_names=()
declare -A t_keys=()
while read -r name rest; do
  [[ -z "$name" || "$name" == \#* ]] && continue
  in_list "$name" "$only" || continue
  t_names+=("$name")
  t_keys[$name]="$(tr -s ' \t' ',' <<<"$rest" | sed 's/,$//')"
done < "$scen/uec-transports.txt"
[[ ${#t_names[@]} -gt 0 ]] || { echo "uec-experiments.sh: no transport row selected" >&2; exit 2; }

# Scale keys of (workload, topology) from uec-scales.txt.
scale_keys() {
  awk -v s="$scale" -v w="$1" -v t="$2" '
    $0 !~ /^[ \t]*(#|$)/ && $1 == s && ($2 == "*" || $2 == w) && ($3 == "*" || $3 == t) {
      for (i = 4; i <= NF; i++) keys = keys (keys == "" ? "" : ",") $i }
    END { print keys }' "$scen/uec-scales.txt"
}

mkdir -p "$out/logs"
runs_csv="$out/runs.csv"
echo "run,workload,topology,transport,scale,dir,exit,wall_s,keys" > "$runs_csv"
declare -a plan=()
declare -A skipped=()
for f in "$scen"/uec-*-*.toml; do
  base="$(basename "$f" .toml)"          # uec-<workload>-<topology>
  wt="${base#uec-}"
  w="${wt%-*}"; t="${wt##*-}"
  in_list "$w" "$workloads" || continue
  in_list "$t" "$topologies" || continue
  for name in "${t_names[@]}"; do
    cc="$(tr ',' '\n' <<<"${t_keys[$name]}" | sed -n 's/^cc=//p')"
    if [[ -n "$cc" ]] && ! has_cc "$cc"; then
      if [[ -z "${skipped[$name]:-}" ]]; then
        echo "uec-experiments.sh: note: skipping transport $name: this nicc-sim has no cc=$cc (cc: $cc_values)" >&2
        skipped[$name]=1
      fi
      continue
    fi
    sets="${t_keys[$name]}"
    sk="$(scale_keys "$w" "$t")"
    [[ -n "$sk" ]] && sets="$sets,$sk"
    plan+=("$wt|$w|$t|$name|$f|$sets")
  done
done
n=${#plan[@]}
[[ $n -gt 0 ]] || { echo "uec-experiments.sh: nothing to run" >&2; exit 2; }
echo "uec-experiments.sh: $n runs at scale '$scale', $jobs at a time -> $out" >&2

run_one() {  # run_one INDEX "wt|w|t|name|file|sets"
  local i="$1" wt w t name f sets dir log t0 t1 rc
  IFS='|' read -r wt w t name f sets <<<"$2"
  dir="$out/$wt/$name"
  log="$out/logs/$wt-$name.log"
  rm -rf "$dir"
  echo "uec-experiments.sh: [$i/$n] $wt/$name: nicc-sim --scenario $f --set $sets" >&2
  t0=$(date +%s.%N)
  rc=0
  "$sim" --scenario "$f" --set "$sets" --out "$dir" --plots=false --progress=false >"$log" 2>&1 || rc=$?
  t1=$(date +%s.%N)
  local wall
  wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
  echo "$wt/$name,$w,$t,$name,$scale,$wt/$name,$rc,$wall,\"$sets\"" >> "$runs_csv"
  if [[ $rc -ne 0 ]]; then
    echo "uec-experiments.sh: [$i/$n] $wt/$name FAILED (exit $rc) after $wall s; see $log" >&2
  else
    echo "uec-experiments.sh: [$i/$n] $wt/$name done in $wall s ($(tail -1 "$log" | sed 's/^nicc-sim: [^:]*: //; s/ -> .*//'))" >&2
  fi
}

t_start=$(date +%s)
i=0
for p in "${plan[@]}"; do
  i=$((i + 1))
  while [[ $(jobs -rp | wc -l) -ge $jobs ]]; do wait -n || true; done
  run_one "$i" "$p" &
done
wait
t_end=$(date +%s)
echo "uec-experiments.sh: $n runs in $((t_end - t_start)) s wall" >&2

check=()
[[ "$scale" == "check" ]] && check=(--check)
"$py" "$root/scripts/uec-table.py" "$out" "${check[@]}"
