#!/usr/bin/env python3
"""claim-hpcc-table.py — the table and heat map of claim 1 (docs/claims.md)
from the runs of scripts/claim-hpcc.sh.

    claim-hpcc-table.py DIR [--check] [--no-plots] [--reps DIR2,DIR3,...]

Per run (DIR/runs.csv: cell, load, incast, variant, dir):
- short flows: every flow of fct.csv with size_bytes < 100000 that completed;
  FCT p99 / p99.9 in us and slowdown (fct / standalone fct) p99 / p99.9,
  nearest rank; 'open' = short flows still running at the end (not counted).
- host-facing queueing delay: queues.csv holds every 1 us sample of every
  switch port to a host (monitor = host-facing); delay = queue bytes x 8 /
  host rate (the port drains at that rate), p99 / p99.9 over all samples of
  all those ports together.
- PFC pause frames and pause-time share, headroom-overflow drops, ECN-marked
  share, retransmitted share of DATA packets, from summary.json.
Per sweep cell: reduction = 1 - HPCC/DCQCN of short-flow FCT p99 (and p99.9)
against each DCQCN baseline. --check: exit 1 unless every run has short flows
and every FCT, slowdown and reduction is finite with FCTs > 0.
--reps: replications of the sweep (claim-hpcc.sh --only sweep --variants
hpcc-paper,dcqcn-mlx5 --set run=K --out DIRK, each with its reduction.csv):
DIR/replications.md holds per cell the reduction of each replication, their
mean and the mean FCT p99s, and the heat map shows the mean (min-max).
Writes DIR/table.md, DIR/table.csv, DIR/reduction.csv, DIR/claim-hpcc-heatmap.png.
"""
import csv
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nicc_results  # noqa: E402  (scripts/nicc_results.py)

SHORT = 100000


def rank(sorted_vals, q):
    """Nearest-rank percentile of an ascending list (q in (0, 1])."""
    if not sorted_vals:
        return float("nan")
    k = max(1, math.ceil(q * len(sorted_vals)))
    return sorted_vals[k - 1]


def run_metrics(d):
    s = nicc_results.load(os.path.join(d, "summary.json"))
    rate_gbps = float(s.get("config.rate_gbps", 400.0))
    fct, sd, open_ = [], [], 0
    with open(os.path.join(d, "fct.csv")) as f:
        for r in csv.DictReader(f):
            if int(r["size_bytes"]) >= SHORT:
                continue
            if r["fct_ns"] == "":
                open_ += 1
                continue
            fct.append(int(r["fct_ns"]) / 1e3)
            sd.append(float(r["slowdown"]))
    fct.sort()
    sd.sort()
    q = []
    with open(os.path.join(d, "queues.csv")) as f:
        for r in csv.DictReader(f):
            q.append(int(r["queue_bytes"]))
    q.sort()
    to_us = 8.0 / (rate_gbps * 1e3)  # bytes -> us at the host rate
    return {
        "short": len(fct), "open": open_,
        "fct_p99": rank(fct, 0.99), "fct_p999": rank(fct, 0.999),
        "sd_p99": rank(sd, 0.99), "sd_p999": rank(sd, 0.999),
        "qd_p99": rank(q, 0.99) * to_us, "qd_p999": rank(q, 0.999) * to_us,
        "q_samples": len(q),
        "pause_frames": s["pfc.pause_frames"],
        "pause_frac": s["pfc.pause_time_fraction"],
        "hr_drops": s.get("drops_headroom_overflow", 0),
        "marked": s["ecn.marked_fraction"],
        "retx": s.get("retransmission_rate", 0.0),
    }


def red(h, d):
    return 1.0 - h / d if d > 0 else float("nan")


def main():
    args = sys.argv[1:]
    check = "--check" in args
    plots = "--no-plots" not in args and not check
    reps = []
    if "--reps" in args:
        i = args.index("--reps")
        if i + 1 >= len(args):
            print("claim-hpcc-table.py: --reps needs DIR2,DIR3,...", file=sys.stderr)
            return 2
        reps = [d for d in args[i + 1].split(",") if d]
        del args[i:i + 2]
    pos = [a for a in args if not a.startswith("--")]
    if len(pos) != 1:
        print("usage: claim-hpcc-table.py DIR [--check] [--no-plots]", file=sys.stderr)
        return 2
    out = pos[0]
    try:
        rows = list(csv.DictReader(open(os.path.join(out, "runs.csv"))))
    except OSError as e:
        print(f"claim-hpcc-table.py: {e} (run scripts/claim-hpcc.sh first)", file=sys.stderr)
        return 2
    runs = {}
    for r in rows:
        try:
            m = run_metrics(r["dir"])
        except (OSError, KeyError, ValueError) as e:
            print(f"claim-hpcc-table.py: run {r['dir']}: {e}", file=sys.stderr)
            return 2
        except nicc_results.SummaryError as e:
            # An unreadable summary.json: the OSError / ValueError as before; one the schema refuses: why.
            print(f"claim-hpcc-table.py: run {r['dir']}: {e.__cause__ or e}", file=sys.stderr)
            return 2
        m.update(cell=r["cell"], load=float(r["load"]), incast=float(r["incast"]), variant=r["variant"])
        runs[(r["cell"], r["variant"])] = m

    cols = ["cell", "variant", "short", "open", "fct_p99", "fct_p999", "sd_p99", "sd_p999",
            "qd_p99", "qd_p999", "pause_frames", "pause_frac", "hr_drops", "retx", "marked"]
    with open(os.path.join(out, "table.csv"), "w") as f:
        w = csv.writer(f)
        w.writerow(cols)
        for m in runs.values():
            w.writerow([m[c] if not isinstance(m[c], float) else f"{m[c]:.4g}" for c in cols])

    md = ["| load | incast | variant | short flows (open) | FCT p99 us | FCT p99.9 us | slowdown p99 | "
          "slowdown p99.9 | host-port queue delay p99 us | p99.9 us | PFC pauses | pause time % | "
          "headroom drops | retx % | ECN marked % |",
          "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for m in runs.values():
        md.append(f"| {m['load']:.0%} | {m['incast']:.0%} | {m['variant']} | {m['short']} ({m['open']}) | "
                  f"{m['fct_p99']:.1f} | {m['fct_p999']:.1f} | {m['sd_p99']:.2f} | {m['sd_p999']:.2f} | "
                  f"{m['qd_p99']:.2f} | {m['qd_p999']:.2f} | {m['pause_frames']} | {100 * m['pause_frac']:.1f} | "
                  f"{m['hr_drops']} | {100 * m['retx']:.2f} | {100 * m['marked']:.2f} |")

    # Reductions per cell against each DCQCN baseline present.
    cells = sorted({(m["load"], m["incast"], m["cell"]) for m in runs.values()})
    bases = [b for b in ("dcqcn-mlx5", "dcqcn-mlx5-ecnlow", "dcqcn-mlx5-sigcomm15", "dcqcn-paper",
                         "dcqcn-paper-sigcomm15") if any(k[1] == b for k in runs)]
    hpccs = [h for h in ("hpcc-paper", "hpcc-later", "hpcc-pint") if any(k[1] == h for k in runs)]
    red_rows = []
    for load, inc, cell in cells:
        for h in hpccs:
            for b in bases:
                if (cell, h) in runs and (cell, b) in runs:
                    H, D = runs[(cell, h)], runs[(cell, b)]
                    red_rows.append((load, inc, cell, h, b, red(H["fct_p99"], D["fct_p99"]),
                                     red(H["fct_p999"], D["fct_p999"]), red(H["qd_p99"], D["qd_p99"])))
    md += ["", "Reduction 1 - HPCC/DCQCN (short-flow FCT p99, p99.9; host-port queue delay p99):", "",
           "| load | incast | HPCC | DCQCN | FCT p99 | FCT p99.9 | queue delay p99 |", "|---|---|---|---|---|---|---|"]
    for load, inc, cell, h, b, r99, r999, rq in red_rows:
        md.append(f"| {load:.0%} | {inc:.0%} | {h} | {b} | {100 * r99:.0f}% | {100 * r999:.0f}% | {100 * rq:.0f}% |")
    with open(os.path.join(out, "table.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    with open(os.path.join(out, "reduction.csv"), "w") as f:
        w = csv.writer(f)
        w.writerow(["load", "incast", "hpcc", "dcqcn", "red_fct_p99", "red_fct_p999", "red_qdelay_p99"])
        for row in red_rows:
            w.writerow([row[0], row[1], row[3], row[4]] + [f"{x:.4f}" for x in row[5:]])
    print("\n".join(md))

    rep = replications(out, reps, red_rows, runs) if reps else None
    if plots:
        heatmap(out, red_rows, rep, reps)

    if check:
        bad = []
        for m in runs.values():
            name = f"{m['cell']}/{m['variant']}"
            if m["short"] < 10:
                bad.append(f"{name}: only {m['short']} short flows")
            for k in ("fct_p99", "fct_p999", "sd_p99", "sd_p999"):
                if not (math.isfinite(m[k]) and m[k] > 0):
                    bad.append(f"{name}: {k} = {m[k]}")
            if not (m["fct_p999"] >= m["fct_p99"] and m["sd_p99"] >= 1.0):
                bad.append(f"{name}: p99.9 {m['fct_p999']} < p99 {m['fct_p99']} or slowdown p99 < 1")
            if not (math.isfinite(m["qd_p99"]) and 0 <= m["qd_p99"] <= m["qd_p999"] and m["q_samples"] > 0):
                bad.append(f"{name}: queue delay p99 {m['qd_p99']} p99.9 {m['qd_p999']}")
        if not red_rows:
            bad.append("no cell with both HPCC and DCQCN")
        for row in red_rows:
            if not all(math.isfinite(x) and x < 1 for x in row[5:7]):
                bad.append(f"reduction {row}")
        if bad:
            print("claim-hpcc-table.py --check: FAILED\n  " + "\n  ".join(bad), file=sys.stderr)
            return 1
        print("claim-hpcc-table.py --check: ok")
    return 0


def replications(out, reps, red_rows, runs):
    """Per sweep cell: hpcc-paper vs dcqcn-mlx5 reduction of each replication."""
    per = {}  # (load, incast) -> list of (red_p99, red_p999, hpcc_p99, dcqcn_p99)
    for r in red_rows:
        if r[3] == "hpcc-paper" and r[4] == "dcqcn-mlx5":
            H, D = runs[(r[2], "hpcc-paper")], runs[(r[2], "dcqcn-mlx5")]
            per.setdefault((r[0], r[1]), []).append((r[5], r[6], H["fct_p99"], D["fct_p99"]))
    for d in reps:
        t = {(x["cell"], x["variant"]): x for x in csv.DictReader(open(os.path.join(d, "table.csv")))}
        for x in csv.DictReader(open(os.path.join(d, "reduction.csv"))):
            if x["hpcc"] == "hpcc-paper" and x["dcqcn"] == "dcqcn-mlx5":
                key = (float(x["load"]), float(x["incast"]))
                if key in per:
                    cell = f"l{round(key[0] * 100)}-i{round(key[1] * 100)}"
                    per[key].append((float(x["red_fct_p99"]), float(x["red_fct_p999"]),
                                     float(t[(cell, "hpcc-paper")]["fct_p99"]), float(t[(cell, "dcqcn-mlx5")]["fct_p99"])))
    md = ["| load | incast | runs | reduction p99 per run | mean | p99.9: mean (min-max) | "
          "HPCC FCT p99 us, mean (min-max) | DCQCN FCT p99 us, mean (min-max) |", "|---|---|---|---|---|---|---|---|"]
    mean = lambda v: sum(v) / len(v)
    for (load, inc), v in sorted(per.items()):
        c = list(zip(*v))
        md.append(f"| {load:.0%} | {inc:.0%} | {len(v)} | " + " / ".join(f"{100 * x:.0f}%" for x in c[0]) +
                  f" | **{100 * mean(c[0]):.0f}%** | {100 * mean(c[1]):.0f}% ({100 * min(c[1]):.0f}-{100 * max(c[1]):.0f}%) | "
                  f"{mean(c[2]):.1f} ({min(c[2]):.1f}-{max(c[2]):.1f}) | {mean(c[3]):.1f} ({min(c[3]):.1f}-{max(c[3]):.1f}) |")
    with open(os.path.join(out, "replications.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    print("\n".join(md))
    return per


def heatmap(out, red_rows, rep=None, reps=()):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("claim-hpcc-table.py: no matplotlib, no heat map", file=sys.stderr)
        return
    loads = sorted({r[0] for r in red_rows})
    incs = sorted({r[1] for r in red_rows})
    bases = [b for b in ("dcqcn-mlx5", "dcqcn-mlx5-ecnlow") if any(r[4] == b and r[3] == "hpcc-paper" for r in red_rows)]
    if len(loads) < 2 or not bases:
        return
    titles = {"dcqcn-mlx5": "vs DCQCN mlx5, ECN 1.6 / 6.4 MB (HPCC sim.)" + (f"\nmean and min-max of {1 + len(reps)} runs" if rep else ""),
              "dcqcn-mlx5-ecnlow": "vs DCQCN mlx5, ECN 50 KB / 2 MB (DCQCN paper x10)" + ("\nrun 1" if rep else "")}
    fig, axes = plt.subplots(1, len(bases), figsize=(6.0 * len(bases), 4.6), squeeze=False)
    for ax, b in zip(axes[0], bases):
        grid = [[float("nan")] * len(loads) for _ in incs]
        span = {}
        for r in red_rows:
            if r[3] == "hpcc-paper" and r[4] == b:
                grid[incs.index(r[1])][loads.index(r[0])] = 100 * r[5]
        if rep and b == "dcqcn-mlx5":
            for (load, inc), v in rep.items():
                p = [100 * x[0] for x in v]
                grid[incs.index(inc)][loads.index(load)] = sum(p) / len(p)
                span[(incs.index(inc), loads.index(load))] = (min(p), max(p), len(p))
        im = ax.imshow(grid, origin="lower", cmap="RdYlGn", vmin=-50, vmax=100, aspect="auto")
        for yi in range(len(incs)):
            for xi in range(len(loads)):
                v = grid[yi][xi]
                txt = "-" if math.isnan(v) else f"{v:.0f}%"
                if (yi, xi) in span:
                    lo, hi, n = span[(yi, xi)]
                    txt += f"\n{lo:.0f}-{hi:.0f}%"
                ax.text(xi, yi, txt, ha="center", va="center", fontsize=9,
                        fontweight="bold" if v >= 80 else "normal")
        ax.set_xticks(range(len(loads)), [f"{l:.0%}" for l in loads])
        ax.set_yticks(range(len(incs)), [f"{i:.0%}" for i in incs])
        ax.set_xlabel("background load (FB_Hadoop)")
        ax.set_ylabel("incast share of host capacity")
        ax.set_title(titles.get(b, b), fontsize=9)
    fig.colorbar(im, ax=axes[0].tolist(), label="1 - HPCC/DCQCN, short-flow FCT p99 (%)")
    fig.suptitle("HPCC (hpcc-paper) vs DCQCN at 400G hosts: short-flow (<100 KB) p99 FCT reduction", fontsize=10, y=1.04)
    fig.savefig(os.path.join(out, "claim-hpcc-heatmap.png"), dpi=110, bbox_inches="tight")
    plt.close(fig)


if __name__ == "__main__":
    sys.exit(main())
