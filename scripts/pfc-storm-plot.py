#!/usr/bin/python3
"""Plot the spread of a PFC storm from nicc-sim output directories.

    /usr/bin/python3 scripts/pfc-storm-plot.py OUT.png DIR[=LABEL] [DIR[=LABEL]...]

Each DIR is a nicc-sim --out directory of a run with pfc_storm set; its
pfc_spread.csv (time_us, paused_switch_ports, paused_hosts, stormed_queues,
rx_gbps) and summary.json ("pfc_storm": storm start / end, watchdog
actions) are read. Three panels over time, one line per run: switch ports
held by a PAUSE, hosts held by a PAUSE, and the receive throughput of all
hosts; the storm's interval is shaded and the watchdog's actions marked.
Needs Debian's python3-matplotlib; without it the script says so and exits 0.
"""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nicc_results  # noqa: E402  (scripts/nicc_results.py)


def load(arg):
    path, _, label = arg.partition("=")
    label = label or os.path.basename(os.path.normpath(path))
    rows = list(csv.DictReader(open(os.path.join(path, "pfc_spread.csv"))))
    summary = nicc_results.load(os.path.join(path, "summary.json"))
    cols = {k: [float(r[k]) for r in rows] for k in rows[0]} if rows else {}
    return label, cols, summary


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    out, runs = argv[1], [load(a) for a in argv[2:]]
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("pfc-storm-plot.py: matplotlib is not installed for " + sys.executable)
        return 0
    fig, axes = plt.subplots(3, 1, figsize=(8, 8), sharex=True)
    panels = [("paused_switch_ports", "switch ports paused"),
              ("paused_hosts", "hosts paused"),
              ("rx_gbps", "host receive Gb/s")]
    for label, cols, summary in runs:
        if not cols:
            continue
        for ax, (key, _) in zip(axes, panels):
            ax.plot(cols["time_us"], cols[key], label=label, drawstyle="steps-post")
        for a in summary.get("pfc_storm.watchdog.actions", []):
            for ax in axes:
                ax.axvline(a["at_us"], color="red" if a["action"] == "storm" else "green",
                           linestyle=":", linewidth=0.8)
    for s in runs[0][2].get("pfc_storm.storms", []):
        end = s["end_us"] if s["end_us"] is not None else max(runs[0][1]["time_us"])
        for ax in axes:
            ax.axvspan(s["start_us"], end, color="grey", alpha=0.12)
    for ax, (_, title) in zip(axes, panels):
        ax.set_ylabel(title)
        ax.grid(alpha=0.3)
    axes[0].legend(loc="upper right")
    axes[0].set_title("PFC storm (shaded); watchdog: detected (red), restored (green)")
    axes[-1].set_xlabel("time (us)")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print("pfc-storm-plot.py: wrote " + out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
