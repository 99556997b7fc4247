#!/usr/bin/env python3
"""sim-fingerprint.py: are the simulator's results the same as when the
fingerprints were made?

  scripts/sim-fingerprint.py --check            # compare with the checked-in fingerprints
  scripts/sim-fingerprint.py --update           # rewrite them (a model change; say which in the commit)
  scripts/sim-fingerprint.py --check --only incast-dcqcn,main-hpcc
  scripts/sim-fingerprint.py --list

Runs every case of sim-adapter/test/fingerprint/cases.txt (name | scenario |
--set overrides) with nicc-sim (--sim, or NICC_SIM, default
build/release/sim-adapter/nicc-sim), two at a time (--jobs), and records per
case:
  * the SHA-256 of fct.csv, pfc.csv, queue_cdf.csv, links.csv,
    timeseries.csv, collective.csv and training.csv (those the run writes);
  * the SHA-256 of every figure of summary.json except the run's cost
    (sim.wall_seconds, sim.cpu_seconds, sim.peak_rss_bytes, sim.events,
    sim.events_per_wall_second) and the inputs (config.*, which the scenario
    fixes), flattened to sorted "a.b.c": value lines;
  * the headline figures in clear (HEADLINE below; those present), so that
    a difference says what moved.
A scenario entry that names an HPCC simulator config file (…/config.txt)
runs with --hpcc-config instead of --scenario, on a copy of its folder (the
config's output files are relative to it).

--check prints each case as same / DIFFERENT (the first differing files and
figures, old -> new) and exits 1 if any differs or fails to run; the event
count per data packet-hop is shown beside each case, as it is the one figure
an event-schedule change is meant to move. Every run's summary.json is
read through nicc_results (sim-adapter/scenario/core/summary-schema.txt):
a field the schema does not declare, of the wrong type or missing fails
the case. Exit 2 on a bad cases file or
option.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nicc_results  # noqa: E402  (scripts/nicc_results.py)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = os.path.join(ROOT, "sim-adapter", "test", "fingerprint", "cases.txt")
PRINTS = os.path.join(ROOT, "sim-adapter", "test", "fingerprint", "fingerprints.json")
FILES = ("fct.csv", "pfc.csv", "queue_cdf.csv", "links.csv", "timeseries.csv",
         "collective.csv", "training.csv")
# The run's cost, not its result.
COST = {"sim.wall_seconds", "sim.cpu_seconds", "sim.peak_rss_bytes", "sim.events",
        "sim.events_per_wall_second"}
HEADLINE = ("flows.completed", "flows.total", "fct_slowdown.p50", "fct_slowdown.p99",
            "fct_slowdown.p999", "queue_bytes.p99", "queue_bytes.max", "pfc.pause_frames",
            "pfc.pause_time_us", "ecn.marked", "drops", "drops_headroom_overflow", "trims",
            "bytes.acked", "bytes.cnps_sent", "bytes.retransmitted_packets", "bytes.timeouts",
            "collective.total_us", "reordering.max_distance", "sim.data_packet_hops",
            "sim.simulated_seconds", "link_utilization.fabric_max")


def read_cases(path):
    cases = []
    seen = set()
    with open(path, encoding="utf-8") as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            parts = [p.strip() for p in line.split("|")]
            if len(parts) != 3 or not parts[0] or not parts[1]:
                sys.exit(f"sim-fingerprint: {path}:{lineno}: want 'name | scenario | overrides'")
            if parts[0] in seen:
                sys.exit(f"sim-fingerprint: {path}:{lineno}: case '{parts[0]}' appears twice")
            seen.add(parts[0])
            cases.append({"name": parts[0], "scenario": parts[1], "set": parts[2]})
    return cases


def flatten(x, prefix, out):
    if isinstance(x, dict):
        for k, v in x.items():
            flatten(v, f"{prefix}.{k}" if prefix else k, out)
    elif isinstance(x, list):
        out[prefix] = json.dumps(x, sort_keys=True)
    else:
        out[prefix] = x


def run_case(sim, case, keep):
    d = tempfile.mkdtemp(prefix="nicc-fp-" + case["name"] + "-")
    try:
        cmd = [sim]
        scenario = case["scenario"]
        if scenario.endswith("config.txt"):
            # The config names its output files (fct.txt, pfc.txt, ...)
            # relative to itself: run a copy of its folder, so nothing is
            # written into the source tree.
            src = os.path.dirname(os.path.join(ROOT, scenario))
            copy = os.path.join(d, "input", os.path.basename(src))
            shutil.copytree(src, copy)
            cmd += ["--hpcc-config", os.path.join(copy, os.path.basename(scenario))]
        elif "/" in scenario:
            cmd += ["--scenario", os.path.join(ROOT, scenario)]
        else:
            cmd += ["--scenario", scenario]
        if case["set"]:
            cmd += ["--set", case["set"]]
        cmd += ["--out", d, "--plots=false"]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            return None, f"nicc-sim exited {p.returncode}: {p.stderr.strip()[-400:]}"
        try:
            summary = nicc_results.load(d).data  # refused unless it matches summary-schema.txt
        except nicc_results.SummaryError as e:
            return None, f"summary.json against the schema: {e}"
        flat = {}
        flatten(summary, "", flat)
        figures = {k: v for k, v in flat.items() if k not in COST and not k.startswith("config.")}
        text = "\n".join(f"{k}={json.dumps(figures[k])}" for k in sorted(figures))
        headline = {k: figures[k] for k in HEADLINE if k in figures}
        files = {}
        for name in FILES:
            path = os.path.join(d, name)
            if os.path.exists(path):
                with open(path, "rb") as f:
                    files[name] = hashlib.sha256(f.read()).hexdigest()
        hops = flat.get("sim.data_packet_hops", 0) or 0
        events = flat.get("sim.events", 0) or 0
        cost = {"events": events, "events_per_packet_hop": events / hops if hops else None,
                "wall_seconds": flat.get("sim.wall_seconds")}
        return {"files": files, "summary_sha256": hashlib.sha256(text.encode()).hexdigest(),
                "headline": headline}, cost
    finally:
        if keep:
            print(f"sim-fingerprint: {case['name']}: kept {d}", file=sys.stderr)
        else:
            shutil.rmtree(d, ignore_errors=True)


def differences(old, new, limit=8):
    out = []
    for name in sorted(set(old["files"]) | set(new["files"])):
        a, b = old["files"].get(name), new["files"].get(name)
        if a != b:
            out.append(f"{name}: {'absent' if a is None else a[:12]} -> {'absent' if b is None else b[:12]}")
    if old["summary_sha256"] != new["summary_sha256"]:
        out.append(f"summary.json figures: {old['summary_sha256'][:12]} -> {new['summary_sha256'][:12]}")
    for key in HEADLINE:
        a, b = old["headline"].get(key, "absent"), new["headline"].get(key, "absent")
        if a != b:
            out.append(f"{key}: {a} -> {b}")
    return out[:limit] + ([f"... and {len(out) - limit} more"] if len(out) > limit else [])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="compare with the fingerprints; exit 1 on a difference")
    mode.add_argument("--update", action="store_true", help="rewrite the fingerprints of the cases run")
    mode.add_argument("--list", action="store_true", help="list the cases")
    ap.add_argument("--only", default="", help="comma-separated case names (default: all)")
    ap.add_argument("--sim", default=os.environ.get("NICC_SIM", os.path.join(ROOT, "build/release/sim-adapter/nicc-sim")))
    ap.add_argument("--cases", default=CASES)
    ap.add_argument("--prints", default=PRINTS, help="the fingerprints file")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--keep", action="store_true", help="keep each run's output directory")
    args = ap.parse_args()

    cases = read_cases(args.cases)
    if args.only:
        wanted = [n for n in args.only.split(",") if n]
        names = {c["name"] for c in cases}
        for n in wanted:
            if n not in names:
                print(f"sim-fingerprint: --only: no case '{n}' in {args.cases}", file=sys.stderr)
                return 2
        cases = [c for c in cases if c["name"] in wanted]
    if args.list:
        for c in cases:
            print(f"{c['name']:28s} {c['scenario']} {c['set']}")
        return 0
    if not os.access(args.sim, os.X_OK):
        print(f"sim-fingerprint: nicc-sim not found at {args.sim} (build it or pass --sim)", file=sys.stderr)
        return 2
    if args.jobs < 1:
        print("sim-fingerprint: --jobs must be at least 1", file=sys.stderr)
        return 2

    prints = {}
    if os.path.exists(args.prints):
        with open(args.prints, encoding="utf-8") as f:
            prints = json.load(f)
    elif args.check:
        print(f"sim-fingerprint: {args.prints} does not exist (make it with --update)", file=sys.stderr)
        return 2

    bad = 0
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {c["name"]: pool.submit(run_case, args.sim, c, args.keep) for c in cases}
        for c in cases:
            fp, info = futures[c["name"]].result()
            if fp is None:
                print(f"{c['name']:28s} FAILED  {info}")
                bad += 1
                continue
            eph = info["events_per_packet_hop"]
            cost = f"{info['events']:>10d} events, {eph:5.2f} per packet-hop" if eph else f"{info['events']:>10d} events"
            results[c["name"]] = fp
            if args.update:
                print(f"{c['name']:28s} recorded   {cost}")
                continue
            old = prints.get(c["name"])
            if old is None:
                print(f"{c['name']:28s} NO FINGERPRINT (run --update)")
                bad += 1
            elif old == fp:
                print(f"{c['name']:28s} same       {cost}")
            else:
                print(f"{c['name']:28s} DIFFERENT  {cost}")
                for line in differences(old, fp):
                    print(f"    {line}")
                bad += 1
    if args.update:
        prints.update(results)
        keep = {c["name"] for c in read_cases(args.cases)}
        prints = {k: prints[k] for k in sorted(prints) if k in keep}
        with open(args.prints, "w", encoding="utf-8") as f:
            json.dump(prints, f, indent=1, sort_keys=True)
            f.write("\n")
        print(f"sim-fingerprint: wrote {len(results)} case(s) to {os.path.relpath(args.prints, ROOT)}")
        return 1 if bad else 0
    print(f"sim-fingerprint: {len(cases) - bad} same, {bad} different or failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
