#!/usr/bin/env bash
# mpi-check.sh — one fabric simulation across MPI ranks gives exactly the
# results of one rank (docs/scale.md, "One simulation across ranks").
#
#   bash scripts/mpi-check.sh [--build DIR] [--out DIR] [--keep]
#
# 1. Builds the MPI flavour of ns-3 (scripts/build-ns3-mpi.sh, once) and
#    nicc-sim against it in DIR (default build/mpi).
# 2. Runs each case below under `mpirun -np 1` and `-np N` (N = 2 and 4) and
#    requires every output file to be byte-identical, and summary.json equal
#    but for its `sim` block (wall and CPU time, memory, events summed over
#    ranks) and the key mpi_ranks itself:
#      fat-tree, 4 pods x 4 ToRs x 4 hosts (64 hosts, 48 switches), HPCC,
#        Poisson + incast, partition=pod and partition=leaf;
#      the same fat-tree with DCQCN at 60% load and small buffers, so that
#        PFC pauses cross ranks (and the run asserts it has pauses);
#      leaf-spine, 8 leaves x 8 hosts, DCQCN;
#      the workloads whose steps wait on flows of other ranks (notices, key
#      notice_ns) and the samplers that see the whole fabric, on the same
#      fat-tree: a training job (2 iterations, ring all-reduce of buckets);
#      a tree all-reduce and an all-to-all; a permutation with every port
#      monitored (queues.csv) and the link utilization series; a PFC storm
#      with the watchdog and the deadlock check under Poisson + incast;
#      a rail fabric (8 servers x 4 NICs, NVLink, PXN relays: partitioned by
#        rail switch, each server's GPUs and NVSwitch together) and a topology
#        file (small-clos.topo, 2 leaves: -np 1 and 2), with an all-reduce;
#      link faults (down/up, a flap train) and link losses on the fat-tree;
#    and one process with notice_ns = the link delay and scheduler=ordered
#    gives the -np 1 files of the training job.
# 3. Refusals, exit 2 with the key named: mpi_ranks larger than the MPI job,
#    links too short for a time window (delay_ns=1), more ranks than a
#    topology file has edge switches.
# 4. nicc-campaign's MPI points on a one-node Slurm cluster started for the
#    check (scripts/slurm-test.sh --ntasks 2 with this nicc-sim): 3 points,
#    each one 2-task job of the array running mpirun -np 2 ... mpi_ranks=2,
#    with the fct.csv of -np 1; the local runner's --ntasks 2 too. Needs
#    root (the Slurm daemons run as root); skipped, not counted, otherwise.
# Prints one line per check and "mpi-check: N passed, M failed".
set -uo pipefail
top="$(cd "$(dirname "$0")/.." && pwd)"
cd "$top"
build="$top/build/mpi"
out="$top/build/mpi-check"
keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="$(realpath -m "$2")"; shift 2 ;;
    --out) out="$(realpath -m "$2")"; shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "mpi-check.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done

t0=$(date +%s)
bash scripts/build-ns3-mpi.sh || { echo "mpi-check: building ns-3 with MPI failed"; exit 1; }
prefix="$top/build/ns3-mpi/prefix"
if [ ! -f "$build/build.ninja" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
    -DNICC_BUILD_TESTS=OFF -DNICC_BUILD_BENCH=OFF -DNICC_BUILD_DEMO=OFF -DNICC_CROSS_CHECKS=OFF -DNICC_WITH_VERBS=OFF >/dev/null || { echo "mpi-check: configure failed"; exit 1; }
fi
ninja -C "$build" nicc-sim >/dev/null || { echo "mpi-check: building nicc-sim failed"; exit 1; }
sim="$build/sim-adapter/nicc-sim"
echo "mpi-check: ns-3 with MPI and nicc-sim built in $(( $(date +%s) - t0 )) s"

# Open MPI refuses root unless told; oversubscribe: 4 ranks on 2 cores.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
passed=0; failed=0
ok() { echo "mpi-check: ok   $*"; passed=$((passed + 1)); }
bad() { echo "mpi-check: FAIL $*"; failed=$((failed + 1)); }

rm -rf "$out"; mkdir -p "$out"
common="--plots=false"
ft="--scenario leaf-spine --set topology=fat-tree,pods=4,tors_per_pod=4,aggs_per_pod=4,cores=8,hosts_per_leaf=4"
ft="$ft,fabric_rate_gbps=400,cdf=fbhdp,stop_ms=0.5"
declare -A cases=(
  [fat-tree-pod]="$ft,cc=hpcc,poisson_load=0.5,incast_load=0.05,partition=pod"
  [fat-tree-leaf]="$ft,cc=hpcc,poisson_load=0.5,incast_load=0.05,partition=leaf"
  [fat-tree-pfc]="$ft,cc=dcqcn,poisson_load=0.6,incast_load=0.1,buffer_bytes=1000000,partition=pod"
  [leaf-spine]="--scenario leaf-spine --set leaves=8,spines=4,hosts_per_leaf=8,cc=dcqcn,poisson_load=0.5,incast_load=0.05,stop_ms=0.5"
)
# Workloads and whole-fabric samplers (finite runs end when their flows do).
ftw="${ft%,cdf=*}"
cases[training]="$ftw,cc=dcqcn,poisson_load=0,training=custom,training_grad_bytes=2000000,training_forward_us=20,training_backward_us=40,training_optimizer_us=5,training_bucket_mb=0.5,training_iterations=2,stop_ms=20"
cases[tree-alltoall]="$ftw,cc=hpcc,poisson_load=0,allreduce_bytes=1000000,allreduce_algo=tree,alltoall_bytes=640000,stop_ms=20"
cases[permutation-monitor]="$ftw,cc=hpcc,poisson_load=0,permutation_bytes=200000,monitor=all,link_util_interval_us=5,stop_ms=5"
cases[pfc-storm-deadlock]="$ftw,cc=dcqcn,poisson_load=0.5,incast_load=0.1,buffer_bytes=1000000,pfc_storm=3@50,pfc_watchdog=true,pfc_deadlock_check_us=20,stop_ms=0.4"
# Partitioned by edge switch: a rail fabric with NVLink and PXN relays (4 rails), a topology file (2 leaves).
cases[rail-pxn]="--scenario leaf-spine --set topology=rail,servers=8,rails=4,spines=2,nvlink_gbps=900,allreduce_relay=pxn,allreduce_bytes=1000000,poisson_load=0,stop_ms=10"
cases[topology-file]="--scenario sim-adapter/scenarios/small-clos.toml --set stop_ms=0.5,allreduce_bytes=400000"
names="fat-tree-pod fat-tree-leaf fat-tree-pfc leaf-spine training tree-alltoall permutation-monitor pfc-storm-deadlock"
# Link faults (down/up and a flap train, on links that cross ranks) and losses (every link, and one link more).
cases[faults]="$ft,cc=dcqcn,poisson_load=0.5,stop_ms=0.6,recovery=sr,fault=link:agg0-core0@100,300;link:tor0-agg0@150,400,flap=link:agg4-core1@50,40,3"
cases[losses]="$ft,cc=hpcc,poisson_load=0.5,stop_ms=0.5,recovery=sr,loss_rate=0.001,link_loss=agg0-core0:0.01"
names="$names rail-pxn topology-file faults losses"
declare -A nps=([topology-file]="1 2")  # at most one rank per edge switch; the others: 1 2 4

same() {  # same A B: every output file identical; summary.json but for sim/mpi_ranks
  NICC_SCRIPTS="$top/scripts" python3 - "$1" "$2" <<'PY'
import os, sys
sys.path.insert(0, os.environ["NICC_SCRIPTS"])
import nicc_results  # scripts/nicc_results.py: summary.json through its schema
a, b = sys.argv[1], sys.argv[2]
fa, fb = sorted(os.listdir(a)), sorted(os.listdir(b))
if fa != fb:
    sys.exit(f"files differ: {set(fa) ^ set(fb)}")
def strip(d):
    d.pop("sim", None)
    for k in ("mpi_ranks", "notice_ns", "scheduler"):  # the run's mode, not its model
        d.get("config", {}).pop(k, None)
    return d
for f in fa:
    if f == "summary.json":
        # The whole object compared (.data), each checked against the schema first.
        if strip(nicc_results.load(os.path.join(a, f)).data) != strip(nicc_results.load(os.path.join(b, f)).data):
            sys.exit("summary.json differs")
    elif open(os.path.join(a, f), "rb").read() != open(os.path.join(b, f), "rb").read():
        sys.exit(f"{f} differs")
PY
}

for name in $names; do
  for n in ${nps[$name]:-1 2 4}; do
    t=$(date +%s.%N)
    if ! mpirun -np "$n" "$sim" ${cases[$name]},mpi_ranks=$n $common --out "$out/$name-np$n" \
         >"$out/$name-np$n.log" 2>&1; then
      bad "$name -np $n: nicc-sim failed ($(tail -1 "$out/$name-np$n.log"))"; continue
    fi
    secs=$(python3 -c "import time; print(f'{time.time() - $t:.1f}')")
    if [ "$n" = 1 ]; then
      flows=$(python3 -c "import sys; sys.path.insert(0, '$top/scripts'); import nicc_results; s=nicc_results.load('$out/$name-np1/summary.json'); print(s['flows.completed'], '/', s['flows.total'])" 2>/dev/null)
      ok "$name -np 1: ran in $secs s ($flows flows done)"
      continue
    fi
    if why=$(same "$out/$name-np1" "$out/$name-np$n" 2>&1); then
      ok "$name -np $n: identical to -np 1 ($secs s)"
    else
      bad "$name -np $n: $why"
    fi
  done
done
# One process, notices one link delay late and the ordered scheduler: the MPI run's files.
if "$sim" ${cases[training]},notice_ns=1000,scheduler=ordered $common --out "$out/training-alone" >"$out/training-alone.log" 2>&1 \
   && why=$(same "$out/training-np1" "$out/training-alone" 2>&1); then
  ok "training in one process (notice_ns=1000, scheduler=ordered): identical to -np 1"
else
  bad "training in one process: ${why:-$(tail -1 "$out/training-alone.log")}"
fi
pauses=$(python3 -c "import sys; sys.path.insert(0, '$top/scripts'); import nicc_results; print(nicc_results.load('$out/fat-tree-pfc-np1/summary.json')['pfc.frames_received'])" 2>/dev/null || echo 0)
if [ "${pauses:-0}" -gt 0 ]; then ok "fat-tree-pfc: $pauses PFC frames (pauses cross ranks)"; else bad "fat-tree-pfc: no PFC frame"; fi

refuse() {  # refuse NAME NP WANT ARGS...: exit 2 and WANT in the message
  local name=$1 np=$2 want=$3; shift 3
  mpirun -np "$np" "$sim" "$@" $common --out "$out/refuse-$name" >"$out/refuse-$name.log" 2>&1
  local rc=$?
  if [ "$rc" -eq 2 ] && grep -q "$want" "$out/refuse-$name.log"; then
    ok "refused $name: $(grep -m1 "$want" "$out/refuse-$name.log")"
  else
    bad "refused $name: rc $rc, want '$want' ($(tail -1 "$out/refuse-$name.log"))"
  fi
}
refuse ranks 1 "key 'mpi_ranks'" ${cases[leaf-spine]},mpi_ranks=2
refuse delay 2 "key 'delay_ns'" ${cases[leaf-spine]},mpi_ranks=2,delay_ns=1
refuse edges 4 "key 'mpi_ranks'" ${cases[topology-file]},mpi_ranks=4

# nicc-campaign --ntasks 2: every point one 2-rank job on a one-node Slurm cluster.
if [ "$(id -u)" -ne 0 ]; then
  echo "mpi-check: skipped nicc-campaign --ntasks 2 on Slurm: scripts/slurm-test.sh needs root (not counted)"
else
  t=$(date +%s)
  if NICC_SIM="$sim" bash scripts/slurm-test.sh --ntasks 2 >"$out/slurm-ntasks.log" 2>&1; then
    ok "nicc-campaign --ntasks 2 on Slurm: 3 points, each a 2-task job, fct.csv of -np 1; local runner too ($(( $(date +%s) - t )) s)"
  else
    bad "nicc-campaign --ntasks 2 on Slurm: $(grep -m1 'FAIL' "$out/slurm-ntasks.log" || tail -1 "$out/slurm-ntasks.log") (log $out/slurm-ntasks.log)"
  fi
fi

[ "$keep" = 1 ] || rm -rf "$out"/*-np*/ "$out/training-alone"
echo "mpi-check: $passed passed, $failed failed ($(( $(date +%s) - t0 )) s)"
[ "$failed" -eq 0 ]
