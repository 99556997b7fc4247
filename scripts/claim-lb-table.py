#!/usr/bin/python3
"""claim-lb-table.py — the table and plots of claim 3 (docs/claims.md) from
the runs of scripts/claim-lb.sh.

    /usr/bin/python3 scripts/claim-lb-table.py OUT [--no-plots] [--check]

OUT holds runs.csv (variant, run, dir) and one nicc-sim output folder per
run. Prints the table (Markdown; also OUT/table.md, OUT/table.csv): per
variant the mean over the replications (min-max in brackets when more than
one) of

  AR ms        all-reduce time (summary.json link_util.allreduce.total_us)
  ideal ms     rank bytes * 8 / per-rank bisection share (link_util.allreduce)
  ratio        AR / ideal
  max/mean     fabric link utilization over the all-reduce (link_util.fabric)
  Jain         Jain's index over the fabric links, same window
  idle         share of fabric links below 5% over the window
  bin max/mean, bin Jain, bin idle   the same per 20 us interval, averaged
               over the intervals (link_util.per_bin)
  p99 queue KB p99 over every switch egress port's samples (queue_bytes.p99)
  retx %       resent DATA packets / DATA packets sent (retransmission_rate)

--check (scripts/claim-lb.sh --check, ctest): exit 1 unless every
all-reduce time is at or above its ideal, ECMP's per-interval idle share is
above 0.3 and above twice every other variant's, and every other variant's
all-reduce is faster than ECMP's.

With matplotlib OUT/claim-lb-ratio.png (AR / ideal per variant, every
replication) and OUT/claim-lb-heatmaps.png (link x time utilization of run 1
of each variant on one colour scale).
"""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nicc_results  # noqa: E402  (scripts/nicc_results.py)
from plot import link_util_grid, read_csv  # noqa: E402  (the one reader of link_util.csv)

COLS = [
    ("AR ms", lambda s: s["link_util.allreduce.total_us"] / 1e3, "{:.2f}"),
    ("ideal ms", lambda s: s["link_util.allreduce.ideal_us"] / 1e3, "{:.2f}"),
    ("ratio", lambda s: s["link_util.allreduce.ratio"], "{:.2f}"),
    ("max/mean", lambda s: s["link_util.fabric.max_over_mean"], "{:.2f}"),
    ("Jain", lambda s: s["link_util.fabric.jain"], "{:.3f}"),
    ("idle", lambda s: s["link_util.fabric.idle_share"], "{:.2f}"),
    ("bin max/mean", lambda s: s["link_util.per_bin.max_over_mean"], "{:.2f}"),
    ("bin Jain", lambda s: s["link_util.per_bin.jain"], "{:.3f}"),
    ("bin idle", lambda s: s["link_util.per_bin.idle_share"], "{:.2f}"),
    ("p99 queue KB", lambda s: s["queue_bytes.p99"] / 1e3, "{:.0f}"),
    ("retx %", lambda s: 100.0 * s["retransmission_rate"], "{:.2f}"),
]


def load(out):
    path = os.path.join(out, "runs.csv")
    if not os.path.exists(path):
        sys.exit(f"claim-lb-table.py: {path}: missing (run scripts/claim-lb.sh)")
    runs = {}
    order = []
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            s = nicc_results.load(os.path.join(r["dir"], "summary.json"))
            if not s.has("link_util.allreduce"):
                sys.exit(f"claim-lb-table.py: {r['dir']}: no link_util.allreduce (link_util_interval_us off?)")
            if r["variant"] not in runs:
                order.append(r["variant"])
                runs[r["variant"]] = []
            runs[r["variant"]].append((r, s))
    return order, runs


def cell(values, fmt):
    mean = sum(values) / len(values)
    s = fmt.format(mean)
    if len(values) > 1:
        s += " (" + fmt.format(min(values)) + "-" + fmt.format(max(values)) + ")"
    return s


def table(order, runs):
    head = "| variant | runs | " + " | ".join(c[0] for c in COLS) + " |"
    lines = [head, "|" + "---|" * (len(COLS) + 2)]
    rows = []
    for v in order:
        vals = [[c[1](s) for _, s in runs[v]] for c in COLS]
        lines.append(f"| {v} | {len(runs[v])} | " + " | ".join(cell(x, c[2]) for x, c in zip(vals, COLS)) + " |")
        rows.append([v, len(runs[v])] + [sum(x) / len(x) for x in vals])
    return "\n".join(lines), rows


def heat(plt, out, order, runs):
    panels = []
    for v in order:
        d = runs[v][0][0]["dir"]
        times, links, grid = link_util_grid(read_csv(os.path.join(d, "link_util.csv")))
        panels.append((v, times, links, grid, runs[v][0][1]))
    tmax = max(p[1][-1] for p in panels) / 1e3
    fig, axes = plt.subplots(len(panels), 1, figsize=(9, 1.9 * len(panels) + 0.6), sharex=True)
    if len(panels) == 1:
        axes = [axes]
    im = None
    for ax, (v, times, links, grid, s) in zip(axes, panels):
        step = times[1] - times[0] if len(times) > 1 else 1.0
        im = ax.imshow(grid, aspect="auto", interpolation="nearest", cmap="viridis", vmin=0, vmax=1,
                       extent=(times[0] / 1e3, (times[-1] + step) / 1e3, len(links) - 0.5, -0.5))
        ax.set_yticks([])
        ax.set_ylabel(f"{len(links)} links", fontsize=7)
        ax.set_title(f"{v}: all-reduce {s['link_util.allreduce.total_us'] / 1e3:.2f} ms "
                     f"({s['link_util.allreduce.ratio']:.2f} x ideal), per-interval "
                     f"Jain {s['link_util.per_bin.jain']:.3f}, idle {100 * s['link_util.per_bin.idle_share']:.0f}%",
                     fontsize=8)
        ax.set_xlim(0, tmax)
    axes[-1].set_xlabel("time (ms)")
    fig.colorbar(im, ax=list(axes), label="link utilization (20 us bins)", shrink=0.6)
    path = os.path.join(out, "claim-lb-heatmaps.png")
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def ratio_plot(plt, out, order, runs):
    fig, ax = plt.subplots(figsize=(7, 3.4))
    for i, v in enumerate(order):
        ys = [s["link_util.allreduce.ratio"] for _, s in runs[v]]
        ax.bar(i, sum(ys) / len(ys), color="tab:blue", alpha=0.6)
        ax.plot([i] * len(ys), ys, "k.", markersize=5)
    ax.axhline(1.0, color="grey", linewidth=0.8, linestyle="--")
    ax.set_xticks(range(len(order)))
    ax.set_xticklabels(order, fontsize=8)
    ax.set_ylabel("all-reduce time / ideal")
    ax.set_title("ring all-reduce across leaves: time over the bisection ideal (bars: mean, dots: runs)",
                 fontsize=9)
    ax.grid(True, axis="y", alpha=0.3)
    fig.tight_layout()
    path = os.path.join(out, "claim-lb-ratio.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def check(order, runs):
    """The expected shape (--check); returns the failures."""
    bad = []
    mean = {}
    for v in order:
        for r, s in runs[v]:
            if s["link_util.allreduce.ratio"] < 1.0:
                bad.append(f"{v} run {r['run']}: all-reduce {s['link_util.allreduce.total_us']} us below its ideal "
                           f"{s['link_util.allreduce.ideal_us']} us")
        mean[v] = (sum(s["link_util.allreduce.ratio"] for _, s in runs[v]) / len(runs[v]),
                   sum(s["link_util.per_bin.idle_share"] for _, s in runs[v]) / len(runs[v]))
    if "ecmp" not in mean:
        return bad + ["no ecmp run"]
    ratio, idle = mean["ecmp"]
    if idle <= 0.3:
        bad.append(f"ecmp: per-interval idle share {idle:.3f}, expected > 0.3")
    for v in order:
        if v == "ecmp":
            continue
        if mean[v][0] >= ratio:
            bad.append(f"{v}: ratio {mean[v][0]:.3f} not below ecmp's {ratio:.3f}")
        if 2 * mean[v][1] >= idle:
            bad.append(f"{v}: per-interval idle share {mean[v][1]:.3f} not below half of ecmp's {idle:.3f}")
    return bad


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    if len(args) != 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    out = args[0]
    order, runs = load(out)
    md, rows = table(order, runs)
    print(md)
    with open(os.path.join(out, "table.md"), "w") as f:
        f.write(md + "\n")
    with open(os.path.join(out, "table.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["variant", "runs"] + [c[0] for c in COLS])
        w.writerows(rows)
    if "--check" in argv:
        bad = check(order, runs)
        for b in bad:
            print("claim-lb-table.py: check failed: " + b, file=sys.stderr)
        if bad:
            return 1
        print("claim-lb-table.py: check passed (" + ", ".join(order) + ")")
    if "--no-plots" in argv:
        return 0
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("claim-lb-table.py: no matplotlib for " + sys.executable + "; table only", file=sys.stderr)
        return 0
    print("claim-lb-table.py: " + ratio_plot(plt, out, order, runs) + ", " + heat(plt, out, order, runs))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
