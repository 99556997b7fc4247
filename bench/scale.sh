#!/usr/bin/env bash
# scale.sh — the scaling curve of one workload (docs/scale.md): HPCC's
# fat-tree FB_Hadoop 30% + 2% incast (sim-adapter/scenarios/fat-tree-hadoop.toml)
# at several fabric sizes, each run alone, then the raw ns-3 scheduler's
# event rate on this machine as the reference. A benchmark, not a test:
# nothing is asserted, the figures are recorded.
#
#   bench/scale.sh                                  # 128 320 1024 2048 4096 8192 hosts, 5 ms
#   bench/scale.sh --sizes "128 1024 4096 8192" --stop-ms 1   # the 1 ms curve of docs/scale.md
#   bench/scale.sh --sizes "128 320" --stop-ms 1    # a shorter curve
#   bench/scale.sh --sizes 128 --stop-ms 0.05 --out /tmp/s --no-plot   # smoke run
#
# Fabric per size (hosts = pods x 64): `pods` pods of 4 ToRs x 16 hosts at
# 100 Gb/s, 4 aggregation switches per pod, 16 cores, 400 Gb/s fabric
# links; ToRs and aggs non-blocking (16 x 100 down, 4 x 400 up), each core
# one link per pod. 128 = 2 pods, 320 = 5 (HPCC's), 1024 = 16, 2048 = 32,
# 4096 = 64, 8192 = 128 (a core then has 128 ports).
#
# Per size it records (from the run's summary.json, sim block): wall time,
# events, data packet-hops (DATA packets that crossed a link), wall ns per
# packet-hop, events per wall second, peak RSS (getrusage) and RSS per host,
# and the CPU time (user + sys) with the same ratios: on a shared machine
# wall time includes waiting for a core, CPU time does not.
# Output: OUT/scale.csv, OUT/scale.md (a Markdown table), OUT/scale.png
# (wall per packet-hop and RSS per host vs hosts), one run directory per
# size. Options:
#   --sizes "N ..."   host counts, each a multiple of 64, at most 32768 (default
#                     128 320 1024 2048 4096 8192)
#   --stop-ms MS      simulated time per run (default 5, the HPCC paper's)
#   --out DIR         output directory (default out/scale)
#   --sim PATH        nicc-sim (default build/release/sim-adapter/nicc-sim)
#   --sched PATH      scheduler_bench (default build/release/bench/scheduler_bench)
#   --sched-events N  scheduler reference: events executed (default 20000000)
#   --set K=V,...     extra scenario keys for every run (e.g. poisson_load=0,
#                     incast_load=0: the fabric without traffic, for memory)
#   --no-plot         skip the PNG
#   --reuse           keep a size whose OUT/hN/summary.json exists (re-run
#                     only the others, e.g. after measuring some sizes again)
# Environment: PYTHON (default /usr/bin/python3, with matplotlib for the plot).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sizes="128 320 1024 2048 4096 8192"
stop_ms=5
out="out/scale"
sim="$root/build/release/sim-adapter/nicc-sim"
sched="$root/build/release/bench/scheduler_bench"
sched_events=20000000
plot=1
reuse=0
extra=""
py="${PYTHON:-/usr/bin/python3}"

die() {
  echo "scale.sh: $*" >&2
  exit 2
}
while [[ $# -gt 0 ]]; do
  case "$1" in
    --sizes) [[ $# -ge 2 ]] || die "--sizes needs a value"; sizes="$2"; shift 2 ;;
    --stop-ms) [[ $# -ge 2 ]] || die "--stop-ms needs a value"; stop_ms="$2"; shift 2 ;;
    --out) [[ $# -ge 2 ]] || die "--out needs a value"; out="$2"; shift 2 ;;
    --sim) [[ $# -ge 2 ]] || die "--sim needs a value"; sim="$2"; shift 2 ;;
    --sched) [[ $# -ge 2 ]] || die "--sched needs a value"; sched="$2"; shift 2 ;;
    --sched-events) [[ $# -ge 2 ]] || die "--sched-events needs a value"; sched_events="$2"; shift 2 ;;
    --set) [[ $# -ge 2 ]] || die "--set needs a value"; extra=",$2"; shift 2 ;;
    --no-plot) plot=0; shift ;;
    --reuse) reuse=1; shift ;;
    -h | --help) sed -n '2,39p' "$0"; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[[ -x "$sim" ]] || die "nicc-sim not found at $sim (build it, or --sim PATH)"
[[ -x "$sched" ]] || die "scheduler_bench not found at $sched (ninja scheduler_bench, or --sched PATH)"
[[ "$stop_ms" =~ ^[0-9]*\.?[0-9]+$ ]] || die "--stop-ms: '$stop_ms' is not a number of ms"
[[ "$sched_events" =~ ^[0-9]+$ ]] || die "--sched-events: '$sched_events' is not a count"
for n in $sizes; do
  [[ "$n" =~ ^[0-9]+$ ]] && ((n >= 64 && n % 64 == 0 && n <= 32768)) ||
    die "--sizes: '$n' is not a multiple of 64 hosts up to 32768 (512 pods)"
done
mkdir -p "$out"
scenario="$root/sim-adapter/scenarios/fat-tree-hadoop.toml"

for n in $sizes; do
  pods=$((n / 64))
  dir="$out/h$n"
  if [[ "$reuse" = 1 && -f "$dir/summary.json" ]]; then
    echo "scale.sh: $n hosts: keeping $dir (--reuse)" >&2
    continue
  fi
  echo "scale.sh: $n hosts ($pods pods), $stop_ms ms simulated -> $dir" >&2
  timer=()
  # Peak RSS also from time(1), for a nicc-sim that does not report it.
  [[ -x /usr/bin/time ]] && timer=(/usr/bin/time -o "$out/h$n.maxrss" -f "%M %U %S")
  "${timer[@]}" "$sim" --scenario "$scenario" --set "pods=$pods,stop_ms=$stop_ms$extra" --out "$dir" \
    --plots=false --progress=false >"$out/h$n.log" 2>&1 ||
    die "the $n-host run failed (see $out/h$n.log)"
done

echo "scale.sh: ns-3 scheduler reference ($sched_events events, 100000 pending)" >&2
"$sched" --pending=100000 --events="$sched_events" >"$out/scheduler.txt" ||
  die "scheduler_bench failed"

NICC_SCRIPTS="$root/scripts" "$py" - "$out" "$stop_ms" "$plot" $sizes <<'EOF'
import csv, datetime, os, platform, re, sys
sys.path.insert(0, os.environ["NICC_SCRIPTS"])
import nicc_results  # scripts/nicc_results.py: summary.json through its schema

out, stop_ms, plot = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
sizes = [int(n) for n in sys.argv[4:]]
ref = dict(kv.split("=", 1) for kv in open(os.path.join(out, "scheduler.txt")).read().split())
ref_eps = float(ref["events_per_second"])
ref_cpu_eps = float(ref.get("events_per_cpu_second", 0))
cpu = "unknown CPU"
try:
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
except OSError:
    pass
rows = []
for n in sizes:
    s = nicc_results.load(os.path.join(out, "h%d" % n, "summary.json"))
    hops = s.get("sim.data_packet_hops", 0)
    rss = s.get("sim.peak_rss_bytes", 0)
    tfile = os.path.join(out, "h%d.maxrss" % n)
    tvals = open(tfile).read().split()[-3:] if os.path.exists(tfile) else []
    if not rss and tvals:
        rss = int(tvals[0]) * 1024
    cpu_s = s.get("sim.cpu_seconds") or (float(tvals[1]) + float(tvals[2]) if tvals else 0.0)
    rows.append({
        "hosts": n,
        "pods": n // 64,
        "switches": n // 64 * 8 + 16,
        "stop_ms": stop_ms,
        "flows": s["flows.total"],
        "wall_s": round(s["sim.wall_seconds"], 3),
        "events": s["sim.events"],
        "data_packet_hops": hops,
        "cpu_s": round(cpu_s, 3),
        "wall_ns_per_hop": round(s["sim.wall_seconds"] * 1e9 / hops, 1) if hops else 0,
        "cpu_ns_per_hop": round(cpu_s * 1e9 / hops, 1) if hops else 0,
        "events_per_cpu_s": round(s["sim.events"] / cpu_s) if cpu_s else 0,
        "events_per_hop": round(s["sim.events"] / hops, 2) if hops else 0,
        "events_per_s": round(s["sim.events_per_wall_second"]),
        "peak_rss_mb": round(rss / 2**20, 1),
        "rss_per_host_kb": round(rss / 1024 / n, 1),
        "sched_ref_events_per_s": round(ref_eps),
        "sched_ref_events_per_cpu_s": round(ref_cpu_eps),
    })
with open(os.path.join(out, "scale.csv"), "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
    w.writeheader()
    w.writerows(rows)
cols = [("hosts", "hosts"), ("switches", "switches"), ("flows", "flows"), ("wall_s", "wall s"),
        ("cpu_s", "CPU s"), ("events", "events"), ("data_packet_hops", "DATA packet-hops"),
        ("wall_ns_per_hop", "wall ns / hop"), ("cpu_ns_per_hop", "CPU ns / hop"),
        ("events_per_hop", "events / hop"), ("events_per_s", "events / wall s"),
        ("events_per_cpu_s", "events / CPU s"),
        ("peak_rss_mb", "peak RSS MB"), ("rss_per_host_kb", "RSS / host KB")]
md = ["%s, %s, %s ms simulated; ns-3 PriorityQueueScheduler alone (100k pending): %.2f M events / wall s, "
      "%.2f M events / CPU s." % (datetime.date.today().isoformat(), cpu, stop_ms, ref_eps / 1e6, ref_cpu_eps / 1e6), "",
      "| " + " | ".join(c[1] for c in cols) + " |",
      "|" + "---:|" * len(cols)]
for r in rows:
    md.append("| " + " | ".join(str(r[c[0]]) for c in cols) + " |")
if len(rows) > 1 and rows[0]["wall_ns_per_hop"] and rows[0]["cpu_ns_per_hop"]:
    md += ["", "Per packet-hop at %d hosts / at %d hosts: wall %.2fx, CPU %.2fx." % (
        rows[-1]["hosts"], rows[0]["hosts"], rows[-1]["wall_ns_per_hop"] / rows[0]["wall_ns_per_hop"],
        rows[-1]["cpu_ns_per_hop"] / rows[0]["cpu_ns_per_hop"])]
if len(rows) > 1:
    d = (rows[-1]["peak_rss_mb"] - rows[0]["peak_rss_mb"]) * 1024 / (rows[-1]["hosts"] - rows[0]["hosts"])
    md += ["", "Peak RSS per added host (%d to %d hosts, its share of the switches included): %.1f KB."
           % (rows[0]["hosts"], rows[-1]["hosts"], d)]
open(os.path.join(out, "scale.md"), "w").write("\n".join(md) + "\n")
print("\n".join(md))
if plot:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(1, 2, figsize=(10, 3.8))
    h = [r["hosts"] for r in rows]
    ax[0].plot(h, [r["wall_ns_per_hop"] for r in rows], "o-", label="wall")
    ax[0].plot(h, [r["cpu_ns_per_hop"] for r in rows], "s--", label="CPU (user + sys)")
    ax[0].legend()
    ax[0].set_xscale("log", base=2)
    ax[0].set_xticks(h, [str(x) for x in h])
    ax[0].set_ylim(bottom=0)
    ax[0].set_xlabel("hosts")
    ax[0].set_ylabel("ns per DATA packet-hop")
    ax[0].set_title("cost of the work (one core)")
    ax[1].plot(h, [r["rss_per_host_kb"] for r in rows], "o-", color="tab:orange")
    ax[1].set_xscale("log", base=2)
    ax[1].set_xticks(h, [str(x) for x in h])
    ax[1].set_ylim(bottom=0)
    ax[1].set_xlabel("hosts")
    ax[1].set_ylabel("peak RSS per host (KB)")
    ax[1].set_title("memory")
    fig.suptitle("fat-tree FB_Hadoop 30%% + 2%% incast, %s ms, HPCC" % stop_ms)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "scale.png"), dpi=110)
EOF
echo "scale.sh: wrote $out/scale.csv $out/scale.md$( ((plot)) && echo " $out/scale.png")" >&2
