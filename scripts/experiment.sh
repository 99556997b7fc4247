#!/usr/bin/env bash
# experiment.sh — the default nicc experiment: the ai-cluster scenario
# (4 leaves x 4 spines x 8 hosts at 100 Gb/s, ring all-reduce + Poisson
# background + incast bursts) run with DCQCN, HPCC and HPCC + NIC spraying
# (REPS over 256 entropy values, selective repeat), one comparison table on
# stdout, plots next to the data.
#
#   scripts/experiment.sh                 # -> out/dcqcn out/hpcc out/hpcc-spray
#   NICC_SIM=/tmp/exp-build/sim-adapter/nicc-sim OUT=/tmp/exp scripts/experiment.sh
#   scripts/experiment.sh stop_ms=5       # extra --set pairs go to every run
#
# Environment: NICC_SIM (default build/release/sim-adapter/nicc-sim),
# OUT (default out), PYTHON (default /usr/bin/python3, for plot.py).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sim="${NICC_SIM:-$root/build/release/sim-adapter/nicc-sim}"
out="${OUT:-out}"
py="${PYTHON:-/usr/bin/python3}"
if [[ ! -x "$sim" ]]; then
  echo "experiment.sh: nicc-sim not found at $sim (build it, or set NICC_SIM=path)" >&2
  exit 2
fi
extra=""
for kv in "$@"; do extra="$extra,$kv"; done

runs=(
  "dcqcn:cc=dcqcn"
  "hpcc:cc=hpcc"
  "hpcc-spray:cc=hpcc,spray=reps,spray.ev_bits=8"
)
t0=$(date +%s)
for r in "${runs[@]}"; do
  name="${r%%:*}"
  sets="${r#*:}$extra"
  echo "experiment.sh: $name: nicc-sim --scenario ai-cluster --set $sets --out $out/$name" >&2
  "$sim" --scenario ai-cluster --set "$sets" --out "$out/$name" --plots=false
done
t1=$(date +%s)

# One comparison table from the three summary.json files (read through scripts/nicc_results.py).
NICC_SCRIPTS="$root/scripts" "$py" - "$out" "${runs[@]%%:*}" <<'PYEOF'
import os, sys
sys.path.insert(0, os.environ["NICC_SCRIPTS"])
import nicc_results
out, names = sys.argv[1], sys.argv[2:]
hdr = ("run", "p50 sd", "p99 sd", "p99 sd <100KB", "p99 queue KB", "PFC pauses",
       "pause us", "fabric util", "max util", "retx %", "p99 ooo", "allreduce us", "events/s")
rows = []
for n in names:
    j = nicc_results.load(os.path.join(out, n, "summary.json"))
    p99_small = max([j.get("fct_slowdown_by_size." + b + ".p99", 0) for b in ("<10KB", "10KB-100KB")] or [0])
    rows.append((n,
                 "%.2f" % j["fct_slowdown.p50"],
                 "%.2f" % j["fct_slowdown.p99"],
                 "%.2f" % p99_small,
                 "%.0f" % (j["queue_bytes.p99"] / 1e3),
                 "%d" % j["pfc.pause_frames"],
                 "%.0f" % j.get("pfc.pause_time_us", 0),
                 "%.3f" % j["link_utilization.fabric_mean"],
                 "%.3f" % j["link_utilization.fabric_max"],
                 "%.2f" % (100 * j.get("retransmission_rate", 0)),
                 "%d" % j.get("reordering.p99_distance", 0),
                 ("%.0f" % j["collective.total_us"]) if j.get("collective.complete") else
                 "%d/%d steps" % (j.get("collective.steps_done", 0), j.get("collective.steps_planned", 0)),
                 "%.2fM" % (j["sim.events_per_wall_second"] / 1e6)))
w = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(hdr)]
print("  ".join(h.rjust(w[i]) for i, h in enumerate(hdr)))
for r in rows:
    print("  ".join(v.rjust(w[i]) for i, v in enumerate(r)))
PYEOF
echo "experiment.sh: 3 runs in $((t1 - t0)) s wall; data in $out/{$(IFS=,; n=("${runs[@]%%:*}"); echo "${n[*]}")}" >&2

"$py" "$root/scripts/plot.py" "$out/dcqcn" "$out/hpcc" "$out/hpcc-spray" || \
  echo "experiment.sh: plotting failed; the data is still in $out" >&2
