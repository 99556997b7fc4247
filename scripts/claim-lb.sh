#!/usr/bin/env bash
# claim-lb.sh — claim 3 of docs/claims.md: ring all-reduce across leaves
# (sim-adapter/scenarios/claim-lb-allreduce.toml) under each load-balancing
# variant, with the same seed and replications, then one table and the plots
# (scripts/claim-lb-table.py).
#
#   scripts/claim-lb.sh                          # -> out/claim-lb, 3 replications
#   scripts/claim-lb.sh --runs 1 --out /tmp/lb   # one replication
#   scripts/claim-lb.sh --set cc=none --out out/claim-lb-nocc   # every run overridden
#   scripts/claim-lb.sh --check --out DIR        # tiny scale; exit 1 unless the
#                                                # expected shape holds (ctest)
#
# Variants (key overrides of the scenario file, which is ECMP at both ends):
#   ecmp             spray=ecmp  switch_mode=ecmp      per-flow hash at the switches
#   nic-ops          spray=ops                         NIC oblivious spraying, 16 EVs
#   nic-reps         spray=reps                        NIC recycled-entropy spraying
#   switch-spray     switch_mode=spray                 per-packet random next hop
#   switch-adaptive  switch_mode=adaptive              least-queue next hop
#   nic-dlb          spray=dlb                         NIC least-congested EV
# recovery = auto in the scenario: selective repeat whenever anything sprays.
# Options: --out DIR, --runs N (replications run=1..N, seed 1), --set K=V,...
# (appended to every run), --only v1,v2. Runs one at a time. --check: ecmp,
# nic-reps and switch-adaptive once with 3.2 MB per rank and 10 us intervals,
# no plots; claim-lb-table.py --check then requires every all-reduce time at
# or above its ideal, ECMP's per-interval idle share above 30% and above
# twice the others', and the others faster than ECMP.
# Environment: NICC_SIM (default build/release/sim-adapter/nicc-sim), PYTHON
# (default /usr/bin/python3; matplotlib for the plots).
# Output: DIR/<variant>/run<k>/ (nicc-sim's files, link_util.png),
# DIR/table.md, DIR/table.csv, DIR/claim-lb-*.png.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sim="${NICC_SIM:-$root/build/release/sim-adapter/nicc-sim}"
py="${PYTHON:-/usr/bin/python3}"
[[ -x "$py" ]] || py=python3
scenario="$root/sim-adapter/scenarios/claim-lb-allreduce.toml"
out="$root/out/claim-lb"
runs=3
extra=""
only=""
check=""
plots=true
while [[ $# -gt 0 ]]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --set) extra="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --check) check="--check"; runs=1; only="ecmp,nic-reps,switch-adaptive"
             extra="allreduce_bytes=3200000,link_util_interval_us=10"; plots=false; shift ;;
    -h|--help) sed -n '2,33p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "claim-lb.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "claim-lb.sh: --runs: '$runs' is not a positive integer" >&2; exit 2; }
[[ -x "$sim" ]] || { echo "claim-lb.sh: $sim not built (ninja -C build/release -j1 nicc-sim)" >&2; exit 2; }

variants=(
  "ecmp spray=ecmp,switch_mode=ecmp"
  "nic-ops spray=ops"
  "nic-reps spray=reps"
  "switch-spray switch_mode=spray"
  "switch-adaptive switch_mode=adaptive"
  "nic-dlb spray=dlb"
)
mkdir -p "$out"
: > "$out/runs.csv.tmp"
echo "variant,run,dir,overrides" > "$out/runs.csv.tmp"
for v in "${variants[@]}"; do
  name="${v%% *}"
  sets="${v#* }"
  if [[ -n "$only" && ",$only," != *",$name,"* ]]; then
    continue
  fi
  for ((k = 1; k <= runs; k++)); do
    dir="$out/$name/run$k"
    all="$sets,seed=1,run=$k${extra:+,$extra}"
    echo "claim-lb.sh: $name run $k: --set $all" >&2
    "$sim" --scenario "$scenario" --set "$all" --out "$dir" --progress=false --plots=$plots >/dev/null
    echo "$name,$k,$dir,\"$all\"" >> "$out/runs.csv.tmp"
  done
done
mv "$out/runs.csv.tmp" "$out/runs.csv"
"$py" "$root/scripts/claim-lb-table.py" "$out" $check ${check:+--no-plots}
