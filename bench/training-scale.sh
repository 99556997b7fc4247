#!/usr/bin/env bash
# training-scale.sh — one data-parallel training iteration (the ResNet-50
# preset's timeline) on a fat-tree of pods of 64 hosts, in one process or
# across MPI ranks, with CPU time, peak memory and the iteration figures
# (docs/scale.md, "A training iteration at scale").
#
#   bash bench/training-scale.sh [--hosts "2048 8192"] [--cc "dcqcn hpcc nscc"]
#                                [--np "0 1 2"] [--grad-bytes N] [--set K=V,...] [--out DIR]
#
# --np: 0 = the one-process build (build/release), R > 0 = mpirun -np R of
# the MPI build (build/mpi, made by scripts/mpi-check.sh) with mpi_ranks=R.
# The gradients are --grad-bytes per rank (default 3,200,000: ResNet-50's
# 51.2 MB of fp16 gradients / 16, in DDP's buckets of 1 MiB then 25 MiB),
# the MTU 4096, the all-reduce NCCL's double binary tree with 4 chunks
# (a ring over thousands of ranks is thousands of steps, each a flow per
# rank); --set adds or overrides keys. The compute is the preset's 103.6 ms.
# For each run one line:
#   hosts cc np wall_s cpu_s peak_MB data_packet_hops ns_per_hop iteration_us exposed_comm_us identical
# where identical compares fct.csv and training.csv with the first run of
# the same hosts and cc that has np > 0 (MPI runs are byte-identical to
# each other; a one-process run differs by the notices' delay, notice_ns).
set -uo pipefail
top="$(cd "$(dirname "$0")/.." && pwd)"
hosts="2048"; ccs="hpcc"; nps="1 2"; grad=3200000; extra=""; out="$top/build/training-scale"
while [ $# -gt 0 ]; do
  case "$1" in
    --hosts) hosts="$2"; shift 2 ;;
    --cc) ccs="$2"; shift 2 ;;
    --np) nps="$2"; shift 2 ;;
    --grad-bytes) grad="$2"; shift 2 ;;
    --set) extra=",$2"; shift 2 ;;
    --out) out="$(realpath -m "$2")"; shift 2 ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "training-scale.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
mkdir -p "$out"
echo "hosts cc np wall_s cpu_s peak_MB data_packet_hops ns_per_hop iteration_us exposed_comm_us identical"
for n in $hosts; do
  if [ $((n % 64)) -ne 0 ]; then echo "training-scale.sh: --hosts: $n is not a multiple of 64" >&2; exit 2; fi
  for cc in $ccs; do
    ref=""
    for np in $nps; do
      set_="pods=$((n / 64)),poisson_load=0,incast_load=0,cc=$cc,training=resnet50,training_precision=fp16"
      set_="$set_,training_grad_bytes=$grad,training_iterations=1,mtu=4096,allreduce_algo=tree,allreduce_chunks=4"
      set_="$set_,sample_ns=100000,rate_window_us=1000,stop_ms=2000$extra"
      dir="$out/h$n-$cc-np$np"
      if [ "$np" = 0 ]; then
        cmd=("$top/build/release/sim-adapter/nicc-sim")
      else
        cmd=(mpirun -np "$np" "$top/build/mpi/sim-adapter/nicc-sim"); set_="$set_,mpi_ranks=$np"
      fi
      t0=$(date +%s.%N)
      if ! "${cmd[@]}" --scenario "$top/sim-adapter/scenarios/fat-tree-hadoop.toml" --set "$set_" \
           --plots=false --out "$dir" >"$dir.log" 2>&1; then
        echo "$n $cc $np failed: $(grep nicc-sim "$dir.log" | tail -n 1)"; continue
      fi
      wall=$(python3 -c "import time; print(f'{time.time() - $t0:.1f}')")
      same="-"
      if [ "$np" != 0 ]; then
        if [ -z "$ref" ]; then ref="$dir"; same="ref"
        elif cmp -s "$ref/fct.csv" "$dir/fct.csv" && cmp -s "$ref/training.csv" "$dir/training.csv"; then same="yes"
        else same="NO"; fi
      fi
      python3 - "$dir/summary.json" "$n" "$cc" "$np" "$wall" "$same" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
sim, tr = s["sim"], s["training"]
hops = sim["data_packet_hops"]
print(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], f"{sim['cpu_seconds']:.1f}",
      f"{sim['peak_rss_bytes'] / 1e6:.0f}", hops, f"{sim['cpu_seconds'] * 1e9 / max(1, hops):.0f}",
      f"{tr['mean_iteration_us']:.0f}", f"{tr['mean_exposed_comm_us']:.0f}", sys.argv[6])
PY
    done
  done
done
