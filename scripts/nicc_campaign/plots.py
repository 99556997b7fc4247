"""plots.py — the campaign's standard plots (PNG, matplotlib's Agg backend).

    files = draw(rows, axes, metrics, outdir)

For each numeric axis x (two or more values; `seed` and `run` are
replications, never x) and each metric: the metric against x, one line per
combination of the other axes (per cc when cc is the only other axis), the
mean over the replications with a band from their min to max. Also
overview-<x>.png with every metric in one figure.
"""
import math
import os

# Plotted unless the campaign's [collect] metrics names others.
STANDARD_METRICS = ["fct_slowdown.p50", "fct_slowdown.p99", "queue_bytes.p99", "pfc.pause_frames",
                    "link_utilization.fabric_mean", "retransmission_rate", "collective.total_us"]
REPLICATION_AXES = ("seed", "run")


def numeric_axes(rows, axes):
    out = []
    for a in axes:
        vals = {r[a] for r in rows if r.get(a, "") != ""}
        if a in REPLICATION_AXES or len(vals) < 2:
            continue
        if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in vals):
            out.append(a)
    return out


def series(rows, axes, x, metric):
    """{line label: [(x, mean, min, max)]} over the rows that have the metric."""
    others = [a for a in axes if a != x and a not in REPLICATION_AXES]
    groups = {}
    for r in rows:
        v = r.get(metric)
        if r.get(x, "") == "" or not isinstance(v, (int, float)) or (isinstance(v, float) and math.isnan(v)):
            continue
        key = tuple((a, r.get(a, "")) for a in others)
        groups.setdefault(key, {}).setdefault(r[x], []).append(v)
    out = {}
    for key, byx in groups.items():
        lab = ", ".join("%s" % v if a == "cc" else "%s=%s" % (a, v) for a, v in key if v != "") or metric
        out[lab] = [(xv, sum(vs) / len(vs), min(vs), max(vs)) for xv, vs in sorted(byx.items())]
    return out


def _draw(ax, data, x, metric, reps):
    for lab, pts in sorted(data.items()):
        xs = [p[0] for p in pts]
        line, = ax.plot(xs, [p[1] for p in pts], marker="o", label=lab)
        if reps:
            ax.fill_between(xs, [p[2] for p in pts], [p[3] for p in pts], color=line.get_color(), alpha=0.2)
    ax.set_xlabel(x)
    ax.set_ylabel(metric)
    ax.grid(True, alpha=0.3)


def draw(rows, axes, metrics, outdir):
    """Writes the PNGs; returns their paths ([] without matplotlib or a numeric axis)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    os.makedirs(outdir, exist_ok=True)
    for f in os.listdir(outdir):          # an earlier collect's plots
        if f.endswith(".png"):
            os.remove(os.path.join(outdir, f))
    reps = [a for a in REPLICATION_AXES if a in axes]
    files = []
    for x in numeric_axes(rows, axes):
        # metrics the rows have and that vary (a constant says nothing)
        have = [m for m in metrics
                if len({r.get(m) for r in rows if isinstance(r.get(m), (int, float))}) > 1]
        if not have:
            continue
        note = " (mean of %s; band min-max)" % "/".join(reps) if reps else ""
        for m in have:
            fig, ax = plt.subplots(figsize=(6, 4))
            _draw(ax, series(rows, axes, x, m), x, m, reps)
            ax.set_title("%s vs %s%s" % (m, x, note), fontsize=9)
            ax.legend(fontsize=8)
            f = os.path.join(outdir, "%s-vs-%s.png" % (m.replace("/", "_"), x))
            fig.tight_layout()
            fig.savefig(f, dpi=100)
            plt.close(fig)
            files.append(f)
        n = len(have)
        cols = 2 if n <= 4 else 3
        nrows = (n + cols - 1) // cols
        fig, axs = plt.subplots(nrows, cols, figsize=(4.5 * cols, 3.4 * nrows), squeeze=False)
        for i, m in enumerate(have):
            _draw(axs[i // cols][i % cols], series(rows, axes, x, m), x, m, reps)
        for j in range(n, nrows * cols):
            axs[j // cols][j % cols].axis("off")
        axs[0][0].legend(fontsize=8)
        fig.suptitle("campaign metrics vs %s%s" % (x, note), fontsize=10)
        fig.tight_layout()
        f = os.path.join(outdir, "overview-%s.png" % x)
        fig.savefig(f, dpi=100)
        plt.close(fig)
        files.append(f)
    return files
