#!/usr/bin/python3
"""fault-plot.py — goodput around link faults, from nicc-sim output folders.

    /usr/bin/python3 scripts/fault-plot.py [-o out.png] [--from US] [--to US] DIR [DIR...]

Each DIR is a nicc-sim fabric run with a fault key (fault_throughput.csv,
summary.json). One panel per DIR: goodput delivered in order per bin (a
tenth of fault_window_us), averaged over fault_window_us, of every flow and of the flows that lost data on a
failed link, with the failure (red), its detection (orange) and the link's
return (green) marked, and the fault's recovery p50 / max in the title.
Without -o each DIR gets fault.png. Needs python3-matplotlib (run with
/usr/bin/python3); without it the script says so and exits 0.
"""
import argparse
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nicc_results  # noqa: E402  (scripts/nicc_results.py)


def load(d):
    with open(os.path.join(d, "fault_throughput.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    summary = nicc_results.load(os.path.join(d, "summary.json"))
    t = [float(r["time_us"]) for r in rows]
    total = [float(r["total_gbps"]) for r in rows]
    affected = [float(r["affected_gbps"]) for r in rows]
    return t, total, affected, summary


def smooth(v, n):
    """Mean over the last n bins (the goodput window of the recovery rule)."""
    out = []
    acc = 0.0
    for i, x in enumerate(v):
        acc += x
        if i >= n:
            acc -= v[i - n]
        out.append(acc / min(i + 1, n))
    return out


def panel(ax, d, lo, hi):
    t, total, affected, s = load(d)
    # Bins are a tenth of fault_window_us: plot the window's mean.
    total = smooth(total, 10)
    affected = smooth(affected, 10)
    keep = [i for i, x in enumerate(t) if (lo is None or x >= lo) and (hi is None or x <= hi)]
    ax.plot([t[i] for i in keep], [total[i] for i in keep], label="all flows", lw=1.2)
    ax.plot([t[i] for i in keep], [affected[i] for i in keep], label="flows that lost data on the link",
            lw=1.2)
    title = [os.path.basename(os.path.normpath(d))]
    for f in s.get("faults", []):
        ax.axvline(f["down_us"], color="red", ls="--", lw=1)
        ax.axvline(f["down_us"] + f["detect_us"], color="orange", ls=":", lw=1)
        if f["up_us"] >= 0:
            ax.axvline(f["up_us"], color="green", ls="--", lw=1)
        rec = f["recovery_us"]
        title.append("%s %s: %d/%d flows recovered, p50 %.0f us, max %.0f us" %
                     (f["kind"], f["link"], f["recovered_flows"], f["measured_flows"], rec["p50"], rec["max"]))
    ax.set_xlim(lo if lo is not None else t[0], hi if hi is not None else t[-1])
    ax.set_title("\n".join(title), fontsize=8)
    ax.set_xlabel("time (us)")
    ax.set_ylabel("goodput (Gb/s)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, loc="lower right")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("-o", "--output")
    ap.add_argument("--from", dest="lo", type=float)
    ap.add_argument("--to", dest="hi", type=float)
    a = ap.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("fault-plot.py: matplotlib not found (apt-get install python3-matplotlib); no plot")
        return 0
    for d in a.dirs:
        if not os.path.exists(os.path.join(d, "fault_throughput.csv")):
            print("fault-plot.py: %s has no fault_throughput.csv (a run with a fault key?)" % d,
                  file=sys.stderr)
            return 2
    if a.output:
        fig, axes = plt.subplots(len(a.dirs), 1, figsize=(8, 3.2 * len(a.dirs)), squeeze=False)
        for ax, d in zip(axes[:, 0], a.dirs):
            panel(ax, d, a.lo, a.hi)
        fig.tight_layout()
        fig.savefig(a.output, dpi=110)
        print(a.output)
        return 0
    for d in a.dirs:
        fig, ax = plt.subplots(figsize=(8, 3.2))
        panel(ax, d, a.lo, a.hi)
        fig.tight_layout()
        fig.savefig(os.path.join(d, "fault.png"), dpi=110)
        print(os.path.join(d, "fault.png"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
