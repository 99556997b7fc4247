#!/usr/bin/env python3
"""hpcc-burst.py — the incast-burst reproduction (scripts/hpcc-reproduce.sh
--burst): long flows into host 0, then a burst from every other host, run
with DCQCN and HPCC from HPCC-simulator inputs. For the queue of host 0's
ToR port towards host 0 (port 0 of the traced ToR, monitored through
TRACE_FILE) it prints the peak, the time of the peak, the drain time and the
PFC frames, and plots the queue over time for both.

  scripts/hpcc-burst.py OUT/seed1 [--plot queues.png]

Reads nicc-{dcqcn,hpcc}/summary.json (queue_monitor.ports) and queues.csv.
Standard library; the plot needs Debian's python3-matplotlib.
"""
import argparse
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nicc_results  # noqa: E402  (scripts/nicc_results.py)


def host0_port(summary):
    """The first monitored port 0 ('SWITCH:0') and its path in summary.json."""
    for name in sorted(summary.get("queue_monitor.ports", {})):
        if name.endswith(":0"):
            return name, "queue_monitor.ports." + name
    sys.exit("hpcc-burst.py: no monitored port 0 in summary.json (was TRACE_FILE set?)")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("dir")
    p.add_argument("--plot")
    a = p.parse_args()
    series = {}
    print("| cc | port | peak | at | drain time | p99 | PFC frames | flows done |")
    print("|---|---|---|---|---|---|---|---|")
    for cc in ("dcqcn", "hpcc"):
        base = os.path.join(a.dir, "nicc-" + cc)
        s = nicc_results.load(os.path.join(base, "summary.json"))
        name, st = host0_port(s)
        sw, port = name.rsplit(":", 1)
        drain = s.get(st + ".drain_time_ns")
        print("| %s | %s | %.0f KB | %.1f us | %s | %.0f KB | %d | %d/%d |" % (
            cc.upper(), name, s[st + ".max"] / 1e3, s[st + ".max_time_ns"] / 1e3,
            "%.1f us" % (drain / 1e3) if drain is not None else "not drained",
            s[st + ".p99"] / 1e3, s.get("pfc.frames_received", 0),
            s.get("flows.completed", 0), s.get("flows.total", 0)))
        t, q = [], []
        with open(os.path.join(base, "queues.csv")) as f:
            for row in csv.DictReader(f):
                if row["switch"] == sw and row["port"] == port:
                    t.append(int(row["time_ns"]) / 1e3)
                    q.append(int(row["queue_bytes"]) / 1e3)
        series[cc] = (t, q, name)
    if a.plot:
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            print("hpcc-burst.py: no matplotlib (apt install python3-matplotlib); no plot", file=sys.stderr)
            return 0
        fig, ax = plt.subplots(figsize=(8, 3.6))
        for cc, (t, q, name) in series.items():
            t0 = t[0] if t else 0
            ax.plot([x - t0 for x in t], q, label="%s (%s)" % (cc.upper(), name))
        ax.set_xlabel("time since the first sample (us)")
        ax.set_ylabel("queue (KB)")
        ax.set_title("host 0's ToR port: long flows, then a burst from every host")
        ax.grid(True, alpha=0.3)
        ax.legend()
        fig.tight_layout()
        fig.savefig(a.plot, dpi=110)
        print("hpcc-burst.py: wrote %s" % a.plot, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
