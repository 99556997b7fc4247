#!/usr/bin/env python3
"""hpcc-compare.py — compares DCQCN and HPCC runs of HPCC-simulator inputs
(scripts/hpcc-reproduce.sh) the way the HPCC paper's FCT figure does: per
flow-size bucket, the p50 / p95 / p99 FCT slowdown, from each run's fct.txt
(the HPCC simulator's format: slowdown = fct / standalone_fct, clamped at
1; buckets of 5% of the flows by size; percentile a[int(n * p)], as its
analysis/fct_analysis.py), plus the short-flow tail and the fabric queue.

  scripts/hpcc-compare.py OUT/seed1 [OUT/seed2 ...] [--plot FIG.png] [--check]

Each directory holds nicc-dcqcn/ and nicc-hpcc/ (nicc-sim --out). --check
exits 1 unless, in every directory, HPCC's p95 and p99 slowdown of short
flows (< --short bytes) are below DCQCN's and HPCC's p99 fabric queue
(summary.json queue_bytes.p99) is at most half of DCQCN's.
Standard library; the plot needs Debian's python3-matplotlib.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nicc_results  # noqa: E402  (scripts/nicc_results.py)


def read_fct(path):
    """(size, slowdown) per line of an HPCC-format fct.txt."""
    flows = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            t = line.split()
            if len(t) != 8:
                sys.exit("%s:%d: expected 8 fields (sip dip sport dport size start fct standalone)" % (path, n))
            size, fct, alone = int(t[4]), int(t[6]), int(t[7])
            flows.append((size, max(1.0, fct / alone) if alone > 0 else 1.0))
    return flows


def pct(sorted_vals, p):
    return sorted_vals[min(len(sorted_vals) - 1, int(len(sorted_vals) * p))] if sorted_vals else float("nan")


def buckets(flows, step=5):
    """HPCC convention: equal-count buckets of step% of the flows by size."""
    flows = sorted(flows)
    n = len(flows)
    out = []
    for i in range(0, 100, step):
        part = flows[i * n // 100:(i + step) * n // 100]
        if not part:
            continue
        sd = sorted(s for _, s in part)
        out.append((part[-1][0], pct(sd, 0.5), pct(sd, 0.95), pct(sd, 0.99)))
    return out


def short_tail(flows, limit):
    sd = sorted(s for size, s in flows if size < limit)
    return len(sd), pct(sd, 0.95), pct(sd, 0.99)


def run_figures(d, cc, short):
    base = os.path.join(d, "nicc-" + cc)
    flows = read_fct(os.path.join(base, "fct.txt"))
    summary = nicc_results.load(os.path.join(base, "summary.json"))
    return {
        "flows": flows,
        "buckets": buckets(flows),
        "short": short_tail(flows, short),
        "q99": summary.get("queue_bytes.p99", 0),
        "done": summary.get("flows.completed", len(flows)),
        "total": summary.get("flows.total", len(flows)),
        "pauses": summary.get("pfc.pause_frames", summary.get("pfc.frames_received", 0)),
    }


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("dirs", nargs="+")
    p.add_argument("--short", type=int, default=100000, help="short flows: size below this (bytes)")
    p.add_argument("--plot", help="write the per-bucket slowdown figure (PNG)")
    p.add_argument("--check", action="store_true", help="exit 1 unless HPCC beats DCQCN as the paper says")
    a = p.parse_args()
    ok = True
    per_dir = []
    print("| run | cc | flows done | short flows | p95 sd short | p99 sd short | p99 queue | pause frames |")
    print("|---|---|---|---|---|---|---|---|")
    for d in a.dirs:
        figs = {cc: run_figures(d, cc, a.short) for cc in ("dcqcn", "hpcc")}
        per_dir.append((d, figs))
        for cc in ("dcqcn", "hpcc"):
            f = figs[cc]
            n, p95, p99 = f["short"]
            print("| %s | %s | %d/%d | %d | %.2f | %.2f | %.0f KB | %d |" %
                  (os.path.basename(d.rstrip("/")), cc.upper(), f["done"], f["total"], n, p95, p99,
                   f["q99"] / 1000.0, f["pauses"]))
        dq, hq = figs["dcqcn"], figs["hpcc"]
        good = (hq["short"][1] < dq["short"][1] and hq["short"][2] < dq["short"][2] and hq["q99"] <= 0.5 * dq["q99"])
        if not good:
            ok = False
            print("%s: HPCC does not beat DCQCN here (short p95 %.2f vs %.2f, p99 %.2f vs %.2f, p99 queue %d vs %d B)" %
                  (d, hq["short"][1], dq["short"][1], hq["short"][2], dq["short"][2], hq["q99"], dq["q99"]),
                  file=sys.stderr)
    # Per-bucket table of the first directory, as the paper's figure.
    d, figs = per_dir[0]
    print("\nFCT slowdown per size bucket (5%% of flows each), %s:\n" % d)
    print("| bucket | size <= | DCQCN p50 | p95 | p99 | HPCC p50 | p95 | p99 |")
    print("|---|---|---|---|---|---|---|---|")
    for i, (db, hb) in enumerate(zip(figs["dcqcn"]["buckets"], figs["hpcc"]["buckets"])):
        print("| %d%% | %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |" %
              ((i + 1) * 5, human(db[0]), db[1], db[2], db[3], hb[1], hb[2], hb[3]))
    if a.plot:
        plot(per_dir[0][1], a.plot)
    if a.check and not ok:
        return 1
    return 0


def human(b):
    for unit, scale in (("MB", 1e6), ("KB", 1e3)):
        if b >= scale:
            return "%.3g %s" % (b / scale, unit)
    return "%d B" % b


def plot(figs, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("hpcc-compare.py: no matplotlib (apt install python3-matplotlib); no plot", file=sys.stderr)
        return
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.6), sharex=True)
    for ax, k, name in zip(axes, (1, 2, 3), ("p50", "p95", "p99")):
        for cc, style in (("dcqcn", "s-"), ("hpcc", "o-")):
            b = figs[cc]["buckets"]
            ax.plot(range(len(b)), [x[k] for x in b], style, label=cc.upper(), markersize=3)
        b = figs["hpcc"]["buckets"]
        ticks = list(range(0, len(b), 3))
        ax.set_xticks(ticks)
        ax.set_xticklabels([human(b[i][0]) for i in ticks], rotation=45, fontsize=7)
        ax.set_title("%s FCT slowdown" % name)
        ax.set_yscale("log")
        ax.grid(True, alpha=0.3)
    axes[0].set_ylabel("slowdown")
    axes[1].set_xlabel("flow size (bucket upper edge, 5% of flows each)")
    axes[0].legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print("hpcc-compare.py: wrote %s" % path, file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
