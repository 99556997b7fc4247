#!/usr/bin/python3
"""plot.py — PNG plots of nicc-sim fabric runs, written next to the data.

    /usr/bin/python3 scripts/plot.py out/dcqcn out/hpcc out/hpcc-spray

Each argument is a nicc-sim output folder (fct.csv, summary.json,
queue_cdf.csv, links.csv, timeseries.csv). Per folder:
  slowdown.png     FCT slowdown p50 / p95 / p99 per flow-size bucket
  queue_cdf.png    tail of the switch egress queue length: fraction of samples
                   (every port, every sample) above x, log scale
  links.png        utilization of every link direction (fabric links first)
  throughput.png   goodput over time per traffic kind
  queues.png       queue over time of each monitored port (queues.csv, key
                   `monitor`; the 12 ports with the highest peak when more)
  fct_hpcc.png     FCT slowdown p50 / p95 / p99 per 5% size bucket in the HPCC
                   analysis convention (fct_hpcc.csv), per flow type
  training.png     training job timeline (training.csv, training_buckets.csv,
                   training_tp.csv, key `training`): per iteration the compute
                   bars (forward, backward, optimizer), one all-reduce bar per
                   bucket and, with training_tp > 1, one per TP all-reduce
  link_util.png    heat map of fabric link utilization, links x time
                   (link_util.csv, key `link_util_interval_us`)
With two or more folders also compare.png (p99 slowdown vs size and queue
CDFs of all runs) in the parent folder of the first one.

Needs Debian's python3-matplotlib (apt-get install python3-matplotlib); run it
with /usr/bin/python3. Without matplotlib it says so and exits 0: the data
files are written by nicc-sim either way.
"""
import csv
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nicc_results  # noqa: E402  (scripts/nicc_results.py)

# Flow-size bucket edges (bytes) of the slowdown plot: log-spaced.
EDGES = [0, 1e3, 3e3, 1e4, 3e4, 1e5, 3e5, 1e6, 3e6, 1e7, 1e12]


def read_csv(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def queue_tail(rows):
    """(KB, P(queue > KB)) from queue_cdf.csv rows; zero tails dropped (log axis)."""
    xs, ys = [], []
    for r in rows:
        above = 1.0 - float(r["cdf"])
        if above > 0:
            xs.append(float(r["queue_bytes"]) / 1e3)
            ys.append(above)
    return xs, ys


def percentile(values, q):
    """Nearest rank, as nicc-sim computes it."""
    if not values:
        return float("nan")
    v = sorted(values)
    rank = max(1, math.ceil(q * len(v)))
    return v[min(rank, len(v)) - 1]


def slowdown_by_size(folder):
    rows = [r for r in read_csv(os.path.join(folder, "fct.csv")) if r.get("slowdown")]
    out = []
    for lo, hi in zip(EDGES[:-1], EDGES[1:]):
        s = [float(r["slowdown"]) for r in rows if lo <= int(r["size_bytes"]) < hi]
        if s:
            mid = math.sqrt(max(lo, 100) * min(hi, 3e7))
            out.append((mid, percentile(s, 0.5), percentile(s, 0.95), percentile(s, 0.99), len(s)))
    return out


# At most this many monitored ports in queues.png (the highest peaks).
MAX_QUEUE_LINES = 12


def queue_series(rows):
    """{"switch:port": ([time_us], [KB])} from queues.csv rows."""
    series = {}
    for r in rows:
        t, q = series.setdefault(f"{r['switch']}:{r['port']}", ([], []))
        t.append(int(r["time_ns"]) / 1e3)
        q.append(int(r["queue_bytes"]) / 1e3)
    return series


def plot_queues(plt, folder, name):
    series = queue_series(read_csv(os.path.join(folder, "queues.csv")))
    if not series:
        return None
    ports = sorted(series, key=lambda k: -max(series[k][1]))[:MAX_QUEUE_LINES]
    fig, ax = plt.subplots(figsize=(7, 4))
    for k in ports:
        ax.plot(series[k][0], series[k][1], label=k, linewidth=0.9)
    ax.set_xlabel("time (us)")
    ax.set_ylabel("egress queue (KB)")
    shown = "" if len(ports) == len(series) else f" ({len(ports)} of {len(series)} ports, highest peaks)"
    ax.set_title(f"{name}: monitored queues{shown}")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(os.path.join(folder, "queues.png"), dpi=110)
    plt.close(fig)
    return "queues.png"


def plot_fct_hpcc(plt, folder, name):
    rows = read_csv(os.path.join(folder, "fct_hpcc.csv"))
    types = [t for t in ("background", "incast") if any(r["type"] == t for r in rows)]
    if not types:
        return None
    fig, axes = plt.subplots(1, len(types), figsize=(6 * len(types), 4), squeeze=False)
    for ax, t in zip(axes[0], types):
        rs = [r for r in rows if r["type"] == t]
        x = [int(r["bucket_percent"]) for r in rs]
        for col in ("p50", "p95", "p99"):
            ax.plot(x, [float(r[col]) for r in rs], marker="o", label=col)
        ax.set_xticks(x)
        ax.set_xticklabels([r["size_bytes"] for r in rs], rotation=60, fontsize=7)
        ax.set_yscale("log")
        ax.set_xlabel("flow size (largest of each 5% bucket, bytes)")
        ax.set_ylabel("FCT slowdown (fct / standalone fct)")
        ax.set_title(f"{name}: {t} flows, HPCC convention")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(folder, "fct_hpcc.png"), dpi=110)
    plt.close(fig)
    return "fct_hpcc.png"


def plot_training(plt, folder, name):
    its = read_csv(os.path.join(folder, "training.csv"))
    bks = [r for r in read_csv(os.path.join(folder, "training_buckets.csv")) if r.get("end_ns")]
    summary_path = os.path.join(folder, "summary.json")
    if not its or not os.path.exists(summary_path):
        return None
    s = nicc_results.load(summary_path)
    fwd = float(s.get("training.forward_us", 0)) * 1e3
    bwd = float(s.get("training.backward_us", 0)) * 1e3
    micro = int(s.get("training.microbatches", 1) or 1)
    tps = [r for r in read_csv(os.path.join(folder, "training_tp.csv")) if r.get("end_ns")]
    ms = 1e-6  # ns -> ms
    top = 3.1 if tps else 2.1  # the compute row; with TP a TP row below it
    fig, ax = plt.subplots(figsize=(9, 3.6 if tps else 3.2))
    for r in its:
        s0 = float(r["start_ns"])
        ce = float(r["compute_end_ns"])
        le = float(r["last_allreduce_end_ns"])
        end = float(r["end_ns"])
        if tps:
            # Compute runs between the TP all-reduces (which block it).
            prev = s0
            for t in tps:
                if t["iteration"] != r["iteration"]:
                    continue
                st = float(t["start_ns"])
                colour = "tab:orange" if t["pass"] == "backward" else "tab:blue"
                ax.broken_barh([(prev * ms, (st - prev) * ms)], (top, 0.8), color=colour)
                prev = float(t["end_ns"])
        else:
            for u in range(micro):
                m0 = s0 + u * (fwd + bwd)
                ax.broken_barh([(m0 * ms, fwd * ms)], (top, 0.8), color="tab:blue")
                ax.broken_barh([((m0 + fwd) * ms, bwd * ms)], (top, 0.8), color="tab:orange")
        opt = max(le, ce)
        ax.broken_barh([(opt * ms, (end - opt) * ms)], (top, 0.8), color="tab:green")
        if le > ce:
            ax.broken_barh([(ce * ms, (le - ce) * ms)], (top, 0.8), color="lightgrey")
    for t in tps:
        st = float(t["start_ns"])
        en = float(t["end_ns"])
        ax.broken_barh([(st * ms, (en - st) * ms)], (2.1, 0.8), color="black" if t["pass"] == "backward"
                       else "tab:gray", edgecolor="black", linewidth=0.3)
    colours = ["tab:purple", "tab:red", "tab:brown", "tab:pink", "tab:olive", "tab:cyan"]
    for r in bks:
        b = int(r["bucket"])
        st = float(r["start_ns"])
        en = float(r["end_ns"])
        rd = float(r["ready_ns"])
        ax.broken_barh([(st * ms, (en - st) * ms)], (1.1, 0.8), color=colours[b % len(colours)],
                       edgecolor="black", linewidth=0.3)
        ax.plot([rd * ms], [1.0], marker="^", color=colours[b % len(colours)], markersize=4)
    if tps:
        ax.set_yticks([1.5, 2.5, 3.5])
        ax.set_yticklabels(["DP all-reduce\n(per bucket)", "TP all-reduce\n(per layer)", "compute"])
        ax.set_ylim(0.8, 4.1)
        ax.set_xlabel("time (ms)   blue forward, orange backward, light grey exposed DP communication, "
                      "green optimizer; TP: grey forward, black backward (blocking); ^ bucket ready")
    else:
        ax.set_yticks([1.5, 2.5])
        ax.set_yticklabels(["all-reduce\n(per bucket)", "compute"])
        ax.set_ylim(0.8, 3.1)
        ax.set_xlabel("time (ms)   blue forward, orange backward, grey exposed communication, "
                      "green optimizer; ^ bucket ready")
    ax.xaxis.label.set_size(7)
    share = float(s.get("training.exposed_comm_share", 0))
    tp_note = (f", TP {s.get('training.tp')} ({float(s.get('training.mean_tp_comm_us', 0)) / 1e3:.2f} ms TP)"
               if tps else "")
    ax.set_title(f"{name}: training, {s.get('training.preset', '')}, {s.get('training.ranks', '')} ranks{tp_note}, "
                 f"{float(s.get('training.mean_iteration_us', 0)) / 1e3:.2f} ms per iteration, "
                 f"{100 * share:.1f}% exposed comm", fontsize=9)
    ax.grid(True, axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(folder, "training.png"), dpi=110)
    plt.close(fig)
    return "training.png"


def link_util_grid(rows):
    """link_util.csv rows -> (sorted times, sorted links, grid[link][time] of util)."""
    times = sorted({float(r["time_us"]) for r in rows})
    links = sorted({r["link"] for r in rows})
    col = {t: i for i, t in enumerate(times)}
    row = {l: i for i, l in enumerate(links)}
    grid = [[0.0] * len(times) for _ in links]
    for r in rows:
        grid[row[r["link"]]][col[float(r["time_us"])]] = float(r["util"])
    return times, links, grid


def plot_link_util(plt, folder, name):
    rows = read_csv(os.path.join(folder, "link_util.csv"))
    if not rows:
        return None
    times, links, grid = link_util_grid(rows)
    fig, ax = plt.subplots(figsize=(9, max(3.0, 0.16 * len(links) + 1.2)))
    step = times[1] - times[0] if len(times) > 1 else 1.0
    im = ax.imshow(grid, aspect="auto", interpolation="nearest", cmap="viridis", vmin=0, vmax=1,
                   extent=(times[0] / 1e3, (times[-1] + step) / 1e3, len(links) - 0.5, -0.5))
    ax.set_yticks(range(len(links)))
    ax.set_yticklabels(links, fontsize=max(4, min(8, int(300 / max(1, len(links))))))
    ax.set_xlabel("time (ms)")
    title = f"{name}: fabric link utilization"
    summary_path = os.path.join(folder, "summary.json")
    if os.path.exists(summary_path):
        s = nicc_results.load(summary_path)
        if s.get("link_util.fabric"):
            title += (f" (max/mean {s.get('link_util.fabric.max_over_mean', 0):.2f}, "
                      f"Jain {s.get('link_util.fabric.jain', 0):.3f}, "
                      f"idle {100 * s.get('link_util.fabric.idle_share', 0):.0f}%)")
    ax.set_title(title, fontsize=9)
    fig.colorbar(im, ax=ax, label="utilization")
    fig.tight_layout()
    fig.savefig(os.path.join(folder, "link_util.png"), dpi=110)
    plt.close(fig)
    return "link_util.png"


def plot_folder(plt, folder):
    name = os.path.basename(os.path.normpath(folder))
    made = []
    sd = slowdown_by_size(folder)
    if sd:
        fig, ax = plt.subplots(figsize=(6, 4))
        x = [p[0] for p in sd]
        for idx, label in ((1, "p50"), (2, "p95"), (3, "p99")):
            ax.plot(x, [p[idx] for p in sd], marker="o", label=label)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("flow size (bytes, bucket centre)")
        ax.set_ylabel("FCT slowdown")
        ax.set_title(f"{name}: FCT slowdown vs flow size")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
        fig.tight_layout()
        fig.savefig(os.path.join(folder, "slowdown.png"), dpi=110)
        plt.close(fig)
        made.append("slowdown.png")
    q = read_csv(os.path.join(folder, "queue_cdf.csv"))
    if q:
        fig, ax = plt.subplots(figsize=(6, 4))
        xs, ys = queue_tail(q)
        ax.step(xs, ys, where="post")
        ax.set_yscale("log")
        ax.set_xlabel("egress queue (KB)")
        ax.set_ylabel("fraction of samples above")
        ax.set_title(f"{name}: switch egress queue length (tail)")
        ax.grid(True, which="both", alpha=0.3)
        fig.tight_layout()
        fig.savefig(os.path.join(folder, "queue_cdf.png"), dpi=110)
        plt.close(fig)
        made.append("queue_cdf.png")
    links = read_csv(os.path.join(folder, "links.csv"))
    if links:
        order = {"fabric": 0, "down": 1, "up": 2}
        links.sort(key=lambda r: (order.get(r["kind"], 3), r["from"], r["to"]))
        colours = {"fabric": "tab:blue", "down": "tab:orange", "up": "tab:green"}
        fig, ax = plt.subplots(figsize=(max(6, len(links) * 0.08), 4))
        ax.bar(range(len(links)), [float(r["utilization"]) for r in links],
               color=[colours.get(r["kind"], "grey") for r in links])
        ax.set_xlabel("link direction (blue: leaf-spine, orange: to hosts, green: from hosts)")
        ax.set_ylabel("utilization")
        ax.set_ylim(0, 1.05)
        ax.set_title(f"{name}: per-link utilization")
        fig.tight_layout()
        fig.savefig(os.path.join(folder, "links.png"), dpi=110)
        plt.close(fig)
        made.append("links.png")
    ts = read_csv(os.path.join(folder, "timeseries.csv"))
    if ts:
        fig, ax = plt.subplots(figsize=(7, 4))
        t = [float(r["time_us"]) / 1e3 for r in ts]
        for col in ts[0].keys():
            if col.startswith("gbps_"):
                vals = [float(r[col]) for r in ts]
                if any(v > 0 for v in vals):
                    ax.plot(t, vals, label=col[5:], linewidth=1.2 if col == "gbps_total" else 0.8)
        ax.set_xlabel("time (ms)")
        ax.set_ylabel("goodput (Gb/s)")
        ax.set_title(f"{name}: throughput over time")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(os.path.join(folder, "throughput.png"), dpi=110)
        plt.close(fig)
        made.append("throughput.png")
    for extra in (plot_queues(plt, folder, name), plot_fct_hpcc(plt, folder, name),
                  plot_training(plt, folder, name), plot_link_util(plt, folder, name)):
        if extra:
            made.append(extra)
    return made


def plot_compare(plt, folders):
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4))
    for folder in folders:
        name = os.path.basename(os.path.normpath(folder))
        sd = slowdown_by_size(folder)
        if sd:
            a1.plot([p[0] for p in sd], [p[3] for p in sd], marker="o", label=name)
        q = read_csv(os.path.join(folder, "queue_cdf.csv"))
        if q:
            xs, ys = queue_tail(q)
            a2.step(xs, ys, where="post", label=name)
    a1.set_xscale("log")
    a1.set_yscale("log")
    a1.set_xlabel("flow size (bytes)")
    a1.set_ylabel("p99 FCT slowdown")
    a1.grid(True, which="both", alpha=0.3)
    a1.legend()
    a2.set_yscale("log")
    a2.set_xlabel("egress queue (KB)")
    a2.set_ylabel("fraction of samples above")
    a2.grid(True, which="both", alpha=0.3)
    a2.legend()
    fig.tight_layout()
    path = os.path.join(os.path.dirname(os.path.abspath(os.path.normpath(folders[0]))), "compare.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    folders = argv[1:]
    for f in folders:
        if not os.path.isdir(f):
            print(f"plot.py: {f}: not a folder (expected nicc-sim --out output)", file=sys.stderr)
            return 2
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot.py: matplotlib is not installed for " + sys.executable +
              "; no plots drawn. The data (fct.csv, summary.json, *.csv) is written in: " +
              ", ".join(folders) + ". Install Debian's python3-matplotlib and run "
              "/usr/bin/python3 scripts/plot.py again.", file=sys.stderr)
        return 0
    for f in folders:
        made = plot_folder(plt, f)
        print(f"plot.py: {f}: {', '.join(made) if made else 'nothing to plot'}")
    if len(folders) > 1:
        print(f"plot.py: {plot_compare(plt, folders)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
