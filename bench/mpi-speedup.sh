#!/usr/bin/env bash
# mpi-speedup.sh — the speed-up of one fabric simulation across MPI ranks
# (docs/scale.md, "One simulation across ranks"). A benchmark, not a test:
# it records figures; it only fails when a run fails or when the ranks'
# flow completion times are not identical to one rank's.
#
#   bench/mpi-speedup.sh                       # 320 hosts, 1 ms, ranks 1 2 4
#   bench/mpi-speedup.sh --hosts 128 --stop-ms 0.5 --ranks "1 2"
#
# The workload is bench/scale.sh's (HPCC's fat-tree, FB_Hadoop 30% + 2%
# incast, sim-adapter/scenarios/fat-tree-hadoop.toml, pods = hosts / 64).
# Runs, each alone: the default one-process nicc-sim (PriorityQueue
# scheduler: the reference a user has today), then the MPI build under
# `mpirun -np R` with mpi_ranks=R and partition (default pod) for each R.
# Output: OUT/mpi.csv and OUT/mpi.md (wall s, CPU s of rank 0, events
# summed over ranks, speed-up against -np 1 and against the one-process run)
# and one run directory per R. Options:
#   --hosts N        a multiple of 64 (default 320)
#   --stop-ms MS     simulated time (default 1)
#   --ranks "R ..."  (default "1 2 4"; more ranks than cores oversubscribe)
#   --partition P    pod | leaf (default pod)
#   --out DIR        (default out/mpi-speedup)
#   --sim PATH       one-process nicc-sim (default build/release/sim-adapter/nicc-sim)
#   --mpi-sim PATH   nicc-sim built against ns-3 with MPI (default
#                    build/mpi/sim-adapter/nicc-sim; scripts/mpi-check.sh builds it)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
hosts=320; stop_ms=1; ranks="1 2 4"; partition=pod; out="out/mpi-speedup"
sim="$root/build/release/sim-adapter/nicc-sim"
mpisim="$root/build/mpi/sim-adapter/nicc-sim"
die() { echo "mpi-speedup.sh: $*" >&2; exit 2; }
while [[ $# -gt 0 ]]; do
  case "$1" in
    --hosts) hosts="$2"; shift 2 ;;
    --stop-ms) stop_ms="$2"; shift 2 ;;
    --ranks) ranks="$2"; shift 2 ;;
    --partition) partition="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --sim) sim="$2"; shift 2 ;;
    --mpi-sim) mpisim="$2"; shift 2 ;;
    -h | --help) sed -n '2,27p' "$0"; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[[ "$hosts" =~ ^[0-9]+$ ]] && ((hosts >= 64 && hosts % 64 == 0)) || die "--hosts: '$hosts' is not a multiple of 64"
[[ -x "$sim" ]] || die "nicc-sim not found at $sim"
[[ -x "$mpisim" ]] || die "the MPI nicc-sim not found at $mpisim (bash scripts/mpi-check.sh builds it)"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
mkdir -p "$out"
scenario="$root/sim-adapter/scenarios/fat-tree-hadoop.toml"
keys="pods=$((hosts / 64)),stop_ms=$stop_ms"
run() {  # run NAME CMD...
  local name=$1; shift
  echo "mpi-speedup.sh: $name" >&2
  local t0; t0=$(date +%s.%N)
  "$@" --scenario "$scenario" --out "$out/$name" --plots=false --progress=false >"$out/$name.log" 2>&1 ||
    die "$name failed (see $out/$name.log)"
  python3 -c "import time; print(time.time() - $t0)" >"$out/$name.wall"
}
run one-process "$sim" --set "$keys"
for r in $ranks; do
  run "np$r" mpirun -np "$r" "$mpisim" --set "$keys,mpi_ranks=$r,partition=$partition"
done
NICC_SCRIPTS="$root/scripts" python3 - "$out" "$hosts" "$stop_ms" "$partition" $ranks <<'PY'
import csv, os, sys
sys.path.insert(0, os.environ["NICC_SCRIPTS"])
import nicc_results  # scripts/nicc_results.py: summary.json through its schema
out, hosts, stop_ms, partition = sys.argv[1:5]
ranks = [int(r) for r in sys.argv[5:]]
def load(name):
    s = nicc_results.load(os.path.join(out, name, "summary.json"))
    return {"wall": float(open(os.path.join(out, name + ".wall")).read()),
            "cpu": s.get("sim.cpu_seconds", 0.0), "events": s["sim.events"],
            "hops": s.get("sim.data_packet_hops", 0)}
ref = load("one-process")
rows = [dict(run="one process (pq)", ranks=0, **ref)]
base = None
fct1 = open(os.path.join(out, "np%d" % ranks[0], "fct.csv")).read()
bad = []
for r in ranks:
    m = load("np%d" % r)
    base = base or m["wall"]
    rows.append(dict(run="mpirun -np %d" % r, ranks=r, **m))
    if open(os.path.join(out, "np%d" % r, "fct.csv")).read() != fct1:
        bad.append(r)
with open(os.path.join(out, "mpi.csv"), "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["run", "ranks", "wall_s", "cpu_s_rank0", "events", "data_packet_hops", "speedup_vs_np1", "speedup_vs_one_process"])
    for x in rows:
        w.writerow([x["run"], x["ranks"], "%.2f" % x["wall"], "%.2f" % x["cpu"], x["events"], x["hops"],
                    "%.2f" % (base / x["wall"]) if x["ranks"] else "", "%.2f" % (ref["wall"] / x["wall"])])
lines = ["%s hosts, %s ms simulated, partition=%s; identical fct.csv for every -np: %s" %
         (hosts, stop_ms, partition, "yes" if not bad else "NO (np %s differ)" % bad), "",
         "| run | wall s | CPU s (rank 0) | events (all ranks) | speed-up vs -np 1 | vs one process |",
         "|---|---:|---:|---:|---:|---:|"]
for x in rows:
    lines.append("| %s | %.2f | %.2f | %d | %s | %.2f |" % (x["run"], x["wall"], x["cpu"], x["events"],
                 "%.2f" % (base / x["wall"]) if x["ranks"] else "", ref["wall"] / x["wall"]))
open(os.path.join(out, "mpi.md"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
sys.exit(1 if bad else 0)
PY
