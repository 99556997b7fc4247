#!/usr/bin/env bash
# claim-multirail.sh — issue 18, claim 2: rail-optimized vs rail-oblivious
# fabrics for ResNet-50 data-parallel training (docs/training.md, "The
# multi-rail claim").
#
#   bash scripts/claim-multirail.sh [build-dir] [out-dir] [scales]
#
# Runs sim-adapter/scenarios/claim-multirail.toml (4 servers x 8 NICs at
# 100 Gb/s, one ring per rail) as:
#   rail        rail-optimized fabric, rail-local rings (1 switch per hop)
#   leafspine   the same 32 NICs on a leaf-spine, a leaf per server (8 hosts),
#               8 spines, 1:1, ECMP; the same rings (leaf, spine, leaf: 3)
#   rail-x      rail fabric, rings whose hops change rail (rail, spine, rail)
#   rail-x-pxn  the same with PXN relays over NVLink (NVLink, then 1 switch)
#   leafspine-spray  leafspine with per-packet switch spraying instead of ECMP
#   rail-tree   rail, double binary trees (8 chunks) instead of rings
# for every compute scale s in `scales` (default "1 0.3 0.1 0.084 0.05 0.03 0.01"):
# forward, backward and optimizer times = s x the ResNet-50 preset's (the
# compute / communication ratio). rail-x, rail-x-pxn and rail-tree run at s = 1 only.
# Writes <out-dir>/claim-multirail.csv, claim-multirail.md (tables) and
# claim-multirail.png (speed-up over the compute time; needs matplotlib).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$here/build/release}"
out="${2:-$here/out/claim-multirail}"
scales="${3:-1 0.3 0.1 0.084 0.05 0.03 0.01}"
sim="$build/sim-adapter/nicc-sim"
file="$here/sim-adapter/scenarios/claim-multirail.toml"
[ -x "$sim" ] || { echo "claim-multirail.sh: no $sim (build nicc-sim first)" >&2; exit 2; }
mkdir -p "$out"

# ResNet-50 preset (NiccTrainingPresets): F, B, O in us.
F=34448; B=68896; O=300
leafspine="topology=leaf-spine,leaves=4,hosts_per_leaf=8,spines=8,nvlink_gbps=0"

run() { # name scale extra-keys
  local name="$1" s="$2" extra="$3"
  local times
  times="$(python3 -c "s=$s; print(f'training_forward_us={$F*s:.3f},training_backward_us={$B*s:.3f},training_optimizer_us={$O*s:.3f}')")"
  "$sim" --scenario "$file" --set "$times${extra:+,$extra}" --out "$out/$name-s$s" >"$out/$name-s$s.log" 2>&1 ||
    { echo "claim-multirail.sh: $name s=$s failed, see $out/$name-s$s.log" >&2; exit 1; }
  echo "$name s=$s: $(tail -1 "$out/$name-s$s.log")"
}

for s in $scales; do
  run rail "$s" ""
  run leafspine "$s" "$leafspine"
  run leafspine-spray "$s" "$leafspine,switch_mode=spray"
done
run rail-x 1 "allreduce_ring=rail-crossing"
run rail-x-pxn 1 "allreduce_ring=rail-crossing,allreduce_relay=pxn"
run rail-tree 1 "allreduce_algo=tree,allreduce_chunks=8"

# Debian's python3 has python3-matplotlib (scripts/setup.sh); another python3 first
# in PATH may not.
py=/usr/bin/python3; [ -x "$py" ] || py=python3
"$py" "$here/scripts/claim-multirail.py" "$out" $scales
