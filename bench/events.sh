#!/usr/bin/env bash
# events.sh — how many scheduler events the simulator spends per packet, on
# three workloads, for one nicc-sim or two side by side (before / after a
# change to the event schedule; docs/scale.md, "Events per packet-hop"). A
# benchmark, not a test: nothing is asserted, the figures are recorded.
#
#   bench/events.sh                                  # this build's nicc-sim
#   bench/events.sh --before /tmp/old/nicc-sim       # old and new, alternated, in one run
#   bench/events.sh --before-set scheduler=pq        # this build, every frame's end an event, as "old"
#   bench/events.sh --only incast --repeat 3
#
# Workloads (name: nicc-sim arguments):
#   incast    16-to-1 incast of 10 MB flows under HPCC (--scenario incast
#             --set cc=hpcc,size_bytes=10000000)
#   main      the main job's DCQCN run (--scenario ai-cluster --set cc=dcqcn)
#   fattree   HPCC's 320-host fat-tree, FB_Hadoop 30% + incast, 5 ms
#             (sim-adapter/scenarios/fat-tree-hadoop.toml, pods=5, stop_ms=5)
# Per run (from summary.json's sim block): events, data packet-hops (DATA
# packets that crossed a link), events per packet-hop, wall and CPU seconds,
# events per CPU second; then the raw event rate of ns-3's PriorityQueue
# scheduler and of NiccScheduler on this machine (bench/ns3/scheduler_bench)
# as the reference. With --before, each
# workload runs old, new, old, new ... (--repeat pairs), and the table gives
# the median of each with the ratios new / old; results (fct.csv) of old and
# new are compared and reported as identical or not.
# Options:
#   --sim PATH       nicc-sim (default build/release/sim-adapter/nicc-sim)
#   --before PATH    a second nicc-sim to compare with (e.g. built at the commit before)
#   --before-set KV  extra --set for the "old" runs (e.g. scheduler=pq: ns-3's own
#                    scheduler, under which every frame's end is an event); without
#                    --before the old runs use the same nicc-sim
#   --only LIST      comma-separated workloads (default incast,main,fattree)
#   --repeat N       runs per binary and workload (default 1)
#   --sched PATH     scheduler_bench (default build/release/bench/scheduler_bench)
#   --out DIR        output directory (default out/events)
# Output: OUT/events.csv (one row per run), OUT/events.md (the table).
# Environment: PYTHON (default /usr/bin/python3).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sim="$root/build/release/sim-adapter/nicc-sim"
before=""
before_set=""
only="incast,main,fattree"
repeat=1
sched="$root/build/release/bench/scheduler_bench"
out="out/events"
py="${PYTHON:-/usr/bin/python3}"
[[ -x "$py" ]] || py=python3

die() {
  echo "events.sh: $*" >&2
  exit 2
}
while [[ $# -gt 0 ]]; do
  case "$1" in
    --sim) [[ $# -ge 2 ]] || die "--sim needs a value"; sim="$2"; shift 2 ;;
    --before) [[ $# -ge 2 ]] || die "--before needs a value"; before="$2"; shift 2 ;;
    --before-set) [[ $# -ge 2 ]] || die "--before-set needs a value"; before_set="$2"; shift 2 ;;
    --only) [[ $# -ge 2 ]] || die "--only needs a value"; only="$2"; shift 2 ;;
    --repeat) [[ $# -ge 2 ]] || die "--repeat needs a value"; repeat="$2"; shift 2 ;;
    --sched) [[ $# -ge 2 ]] || die "--sched needs a value"; sched="$2"; shift 2 ;;
    --out) [[ $# -ge 2 ]] || die "--out needs a value"; out="$2"; shift 2 ;;
    -h | --help) sed -n '2,36p' "$0"; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[[ -x "$sim" ]] || die "nicc-sim not found at $sim (build it, or --sim PATH)"
[[ -z "$before" || -x "$before" ]] || die "--before: $before is not an executable"
[[ -x "$sched" ]] || die "scheduler_bench not found at $sched (ninja scheduler_bench, or --sched PATH)"
[[ "$repeat" =~ ^[1-9][0-9]*$ ]] || die "--repeat: '$repeat' is not a positive count"

args_of() {
  case "$1" in
    incast) echo "--scenario incast --set cc=hpcc,size_bytes=10000000" ;;
    main) echo "--scenario ai-cluster --set cc=dcqcn" ;;
    fattree) echo "--scenario $root/sim-adapter/scenarios/fat-tree-hadoop.toml --set pods=5,stop_ms=5" ;;
    *) return 1 ;;
  esac
}
IFS=, read -r -a workloads <<<"$only"
for w in "${workloads[@]}"; do
  args_of "$w" >/dev/null || die "--only: '$w' is not incast, main or fattree"
done
mkdir -p "$out"
bins=("new:$sim")
[[ -n "$before_set" && -z "$before" ]] && before="$sim"
[[ -n "$before" ]] && bins=("old:$before" "new:$sim")

for w in "${workloads[@]}"; do
  for ((k = 1; k <= repeat; k++)); do
    for b in "${bins[@]}"; do
      tag="${b%%:*}"
      exe="${b#*:}"
      dir="$out/$w-$tag-$k"
      extra=()
      [[ "$tag" == old && -n "$before_set" ]] && extra=(--set "$before_set")
      echo "events.sh: $w ($tag, run $k) -> $dir" >&2
      # shellcheck disable=SC2046
      "$exe" $(args_of "$w") "${extra[@]}" --out "$dir" --plots=false --progress=false >"$dir.log" 2>&1 ||
        die "$w ($tag) failed (see $dir.log)"
    done
  done
done

echo "events.sh: raw scheduler references (20000000 events, 100000 pending)" >&2
"$sched" --pending=100000 --events=20000000 >"$out/scheduler.txt" || die "scheduler_bench failed"
"$sched" --pending=100000 --events=20000000 --scheduler=ns3::NiccScheduler >"$out/scheduler-nicc.txt" ||
  die "scheduler_bench (NiccScheduler) failed"

NICC_SCRIPTS="$root/scripts" "$py" - "$out" "$repeat" "${#bins[@]}" "${workloads[@]}" <<'EOF'
import csv, filecmp, os, statistics, sys
sys.path.insert(0, os.environ["NICC_SCRIPTS"])
import nicc_results  # scripts/nicc_results.py: summary.json through its schema

out, repeat, nbins, workloads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
tags = ["old", "new"] if nbins == 2 else ["new"]
refs = [dict(kv.split("=", 1) for kv in open(os.path.join(out, f)).read().split())
        for f in ("scheduler.txt", "scheduler-nicc.txt")]
rows = []
for w in workloads:
    for tag in tags:
        for k in range(1, repeat + 1):
            d = os.path.join(out, "%s-%s-%d" % (w, tag, k))
            # The old binary's summary may predate today's schema: read as it is.
            s = nicc_results.load(os.path.join(d, "summary.json"), check_schema=(tag == "new"))
            events = s["sim.events"]
            hops = s.get("sim.data_packet_hops", 0)
            cpu = s.get("sim.cpu_seconds", 0.0)
            rows.append({"workload": w, "binary": tag, "run": k, "events": events,
                         "data_packet_hops": hops,
                         "events_per_hop": round(events / hops, 3) if hops else 0,
                         "wall_s": round(s["sim.wall_seconds"], 3), "cpu_s": round(cpu, 3),
                         "events_per_cpu_s": round(events / cpu) if cpu else 0})
with open(os.path.join(out, "events.csv"), "w", newline="") as f:
    wr = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
    wr.writeheader()
    wr.writerows(rows)

def med(w, tag, key):
    return statistics.median(r[key] for r in rows if r["workload"] == w and r["binary"] == tag)

lines = ["| workload | binary | events | packet-hops | events / packet-hop | wall s | CPU s | events / CPU s |",
         "|---|---|---|---|---|---|---|---|"]
for w in workloads:
    for tag in tags:
        lines.append("| %s | %s | %d | %d | %.2f | %.2f | %.2f | %.2fM |" % (
            w, tag, med(w, tag, "events"), med(w, tag, "data_packet_hops"), med(w, tag, "events_per_hop"),
            med(w, tag, "wall_s"), med(w, tag, "cpu_s"), med(w, tag, "events_per_cpu_s") / 1e6))
    if nbins == 2:
        same = filecmp.cmp(os.path.join(out, "%s-old-1" % w, "fct.csv"),
                           os.path.join(out, "%s-new-1" % w, "fct.csv"), shallow=False)
        lines.append("| %s | new / old | %.2fx | | %.2fx | %.2fx | %.2fx | fct.csv %s |" % (
            w, med(w, "new", "events") / med(w, "old", "events"),
            med(w, "new", "events_per_hop") / med(w, "old", "events_per_hop"),
            med(w, "new", "wall_s") / med(w, "old", "wall_s"),
            med(w, "new", "cpu_s") / med(w, "old", "cpu_s"), "identical" if same else "DIFFERS"))
lines.append("")
for ref in refs:
    lines.append("Raw scheduler %s on this machine: %.2fM events / s (%s)." % (
        ref["scheduler"], float(ref["events_per_second"]) / 1e6,
        ", ".join("%s=%s" % kv for kv in sorted(ref.items()) if kv[0] != "scheduler")))
open(os.path.join(out, "events.md"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
EOF
