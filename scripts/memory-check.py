#!/usr/bin/env python3
"""memory-check.py: a run's memory does not grow with simulated time.

  scripts/memory-check.py --sim build/release/sim-adapter/nicc-sim [--out DIR]

The same 16 flows (a permutation of 200 MB flows at 10 Gb/s on a 16-host
leaf-spine: none finishes inside 20 ms) run for 2 ms and for 20 ms with
every series on: the queue sampler at its default sample_ns (1 us), the
port monitor on every switch port (monitor=all, queues.csv), link
utilization every 1 us (link_util.csv). Then the same 2 ms run with the
sampler at 1 ms. Checks (exit 1 on a failure, 2 on a bad option):
  * 20 ms sampled 10x what 2 ms did (queue samples, queues.csv rows), yet
    its peak RSS is within 5% of the 2 ms run's;
  * the default sampler's peak RSS is within 1.2x of the 1 ms sampler's;
  * every monitored port's p50 / p95 / p99 in summary.json is within the
    log histogram's bound of the exact nearest-rank value of its series in
    queues.csv: exact <= reported < exact * (1 + 2^-8).
Deterministic: the runs have no random input beyond the fixed seed.
"""
import argparse
import csv
import math
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nicc_results  # noqa: E402  (scripts/nicc_results.py)

SUB_BITS = 8  # NiccLogHistogram::kSubBits (sim-adapter/scenario/measure/nicc-log-histogram.h)
BASE = ("leaves=4,spines=4,hosts_per_leaf=4,rate_gbps=10,poisson_load=0,monitor=all,"
        "link_util_interval_us=1")
failures = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        failures.append(what)


def run(sim, out, flows, extra):
    cmd = [sim, "--scenario", "leaf-spine", "--set", f"{BASE},flow_file={flows},{extra}",
           "--out", out, "--plots=false", "--progress=false"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"memory-check: {' '.join(cmd)} failed ({p.returncode}):\n{p.stderr}")
    return nicc_results.load(os.path.join(out, "summary.json"))


def exact_percentiles(path):
    series = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            series.setdefault(f"{row['switch']}:{row['port']}", []).append(int(row["queue_bytes"]))
    return series


def nearest_rank(sorted_values, q):
    n = len(sorted_values)
    rank = math.ceil(q * n)
    return sorted_values[0 if rank == 0 else min(rank, n) - 1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sim", default=os.environ.get("NICC_SIM", "build/release/sim-adapter/nicc-sim"))
    ap.add_argument("--out", help="keep the runs here (default: a temporary directory)")
    args = ap.parse_args()
    if not os.access(args.sim, os.X_OK):
        print(f"memory-check: --sim: {args.sim} is not an executable", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        top = args.out or tmp
        os.makedirs(top, exist_ok=True)
        flows = os.path.join(top, "flows.csv")
        with open(flows, "w") as f:
            f.write("src,dst,size_bytes,start_us\n")
            f.writelines(f"{i},{(i + 5) % 16},200000000,0\n" for i in range(16))
        short = run(args.sim, os.path.join(top, "2ms"), flows, "stop_ms=2")
        long = run(args.sim, os.path.join(top, "20ms"), flows, "stop_ms=20")
        coarse = run(args.sim, os.path.join(top, "2ms-sample-1ms"), flows, "stop_ms=2,sample_ns=1000000")

        for s in (short, long):
            check(s["flows.total"] == 16 and s["flows.completed"] == 0, "the same 16 flows, none done")
        ratio = long["queue_bytes.samples"] / max(short["queue_bytes.samples"], 1)
        check(9.5 < ratio < 10.5, f"20 ms sampled {ratio:.2f}x the queue samples of 2 ms")
        rows = [sum(1 for _ in open(os.path.join(top, d, "queues.csv"))) - 1 for d in ("2ms", "20ms")]
        check(9.5 < rows[1] / max(rows[0], 1) < 10.5, f"queues.csv rows {rows[0]} -> {rows[1]}")
        rss = [s["sim.peak_rss_bytes"] for s in (short, long, coarse)]
        grow = rss[1] / rss[0]
        check(grow <= 1.05, f"peak RSS 2 ms {rss[0] / 1e6:.1f} MB, 20 ms {rss[1] / 1e6:.1f} MB ({grow:.3f}x, <= 1.05)")
        sampler = rss[0] / rss[2]
        check(sampler <= 1.2, f"peak RSS at sample_ns=1000 vs 1000000: {sampler:.3f}x (<= 1.2)")

        series = exact_percentiles(os.path.join(top, "20ms", "queues.csv"))
        ports = long.get("queue_monitor.ports")
        worst = 0.0
        bad = []
        for name, st in ports.items():
            values = sorted(series[name])
            for q, key in ((0.50, "p50"), (0.95, "p95"), (0.99, "p99")):
                exact = nearest_rank(values, q)
                got = st[key]
                rel = (got - exact) / exact if exact else 0.0
                worst = max(worst, rel)
                if not (exact <= got and (got == exact or rel < 2.0 ** -SUB_BITS)):
                    bad.append(f"{name} {key}: exact {exact}, reported {got}")
            if st["max"] != values[-1] or st["samples"] != len(values):
                bad.append(f"{name}: max {st['max']} vs {values[-1]}, samples {st['samples']} vs {len(values)}")
        check(not bad, f"{len(ports)} ports' p50/p95/p99 within 2^-{SUB_BITS} of exact (worst {worst:.5f})"
              + ("".join("\n      " + b for b in bad[:5])))
    print("memory-check: " + ("passed" if not failures else f"{len(failures)} failed"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
