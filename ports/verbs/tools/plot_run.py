#!/usr/bin/python3
"""plot_run.py — the PNG of `nicc-verbs run --plot FILE.png`.

    /usr/bin/python3 plot_run.py RUN.csv OUT.png

RUN.csv is written by nicc-verbs (one row per --report_ms interval: t_s, gbps,
msg_rate, rate_gbps, cnps, path<i>_gbps..., path<i>_rtt_us...). Two panels
sharing the time axis: the total throughput with the rate the host CC set,
and the throughput of each path. Needs python3-matplotlib; without it, says so
and exits 0 (the CSV is there either way).
"""
import csv
import sys


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    src, out = sys.argv[1], sys.argv[2]
    with open(src, newline="") as f:
        rows = list(csv.DictReader(f))
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot_run.py: matplotlib is not installed (apt-get install python3-matplotlib); "
              "data in " + src)
        return 0
    t = [float(r["t_s"]) for r in rows]
    fig, (a, b) = plt.subplots(2, 1, figsize=(8, 6), sharex=True)
    a.plot(t, [float(r["gbps"]) for r in rows], label="throughput", color="tab:blue")
    a.step(t, [float(r["rate_gbps"]) for r in rows], where="post", label="CC rate",
           color="tab:red", linestyle="--")
    a.set_ylabel("Gb/s")
    a.set_title("nicc-verbs run: total throughput and host CC rate")
    a.grid(alpha=0.3)
    a.legend(loc="best")
    paths = sorted(k for k in (rows[0].keys() if rows else []) if k.endswith("_gbps") and k.startswith("path"))
    for k in sorted(paths, key=lambda s: int(s[4:-5])):
        b.plot(t, [float(r[k]) for r in rows], label=k[:-5])
    a.set_ylim(bottom=0)
    b.set_ylim(bottom=0)
    b.set_xlabel("time (s)")
    b.set_ylabel("Gb/s")
    b.set_title("per path")
    b.grid(alpha=0.3)
    if paths:
        b.legend(loc="best", fontsize="small", ncol=4)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print("wrote " + out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
