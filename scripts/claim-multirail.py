#!/usr/bin/env python3
"""claim-multirail.py — tables and plot of scripts/claim-multirail.sh.

    python3 scripts/claim-multirail.py OUT_DIR SCALE...

Reads OUT_DIR/<variant>-s<scale>/summary.json (training and collectives)
and writes OUT_DIR/claim-multirail.csv, claim-multirail.md and
claim-multirail.png (skipped without matplotlib).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nicc_results  # noqa: E402  (scripts/nicc_results.py)

VARIANTS = [
    ("rail", "rail-optimized, rail-local rings"),
    ("leafspine", "leaf-spine (leaf per server), same rings"),
    ("rail-x", "rail-optimized, rail-crossing rings"),
    ("rail-x-pxn", "rail-optimized, rail-crossing rings + PXN"),
    ("leafspine-spray", "leaf-spine, same rings, switch spraying"),
    ("rail-tree", "rail-optimized, double binary trees (8 chunks)"),
]


def load(out, name, scale):
    path = os.path.join(out, f"{name}-s{scale}", "summary.json")
    if not os.path.exists(path):
        return None
    s = nicc_results.load(path)
    r = {
        "iteration_us": s["training.mean_iteration_us"],
        "compute_us": s["training.compute_us"],
        "exposed_us": s["training.mean_exposed_comm_us"],
        "share": s["training.exposed_comm_share"],
        "ips": s["training.iterations_per_s"],
    }
    hops = []
    nvlink = 0
    ar = {}
    for cname in s.get("collectives", {}):
        c = "collectives." + cname
        for h, n in enumerate(s.get(c + ".flows_by_fabric_hops", [])):
            while len(hops) <= h:
                hops.append(0)
            hops[h] += n
        nvlink += s.get(c + ".nvlink_flows", 0)
        # train_i<iteration>_b<bucket>
        it, b = cname[len("train_i"):].split("_b")
        ar.setdefault(int(it), {})[int(b)] = s[c + ".total_us"]
    fabric = sum(hops[1:])
    mean_hops = sum(h * n for h, n in enumerate(hops) if h > 0) / fabric if fabric else 0.0
    per_iter = [sum(v.values()) for v in ar.values()]
    last = [v[max(v)] for v in ar.values()]
    r.update({
        "allreduce_us": sum(per_iter) / len(per_iter) if per_iter else 0.0,
        "last_bucket_us": sum(last) / len(last) if last else 0.0,
        "hops": hops,
        "mean_hops": mean_hops,
        "nvlink_flows": nvlink,
    })
    return r


def main():
    out = sys.argv[1]
    scales = sys.argv[2:] or ["1"]
    rows = []
    for s in scales:
        for name, desc in VARIANTS:
            r = load(out, name, s)
            if r:
                rows.append((name, desc, s, r))
    with open(os.path.join(out, "claim-multirail.csv"), "w") as f:
        f.write("variant,scale,compute_us,iteration_us,exposed_comm_us,exposed_share,iterations_per_s,"
                "allreduce_us_per_iteration,last_bucket_allreduce_us,mean_fabric_hops,flows_by_fabric_hops,"
                "nvlink_flows,speedup_vs_leafspine\n")
        base = {s: r for (n, _, s, r) in rows if n == "leafspine"}
        lines = []
        for n, desc, s, r in rows:
            sp = base[s]["iteration_us"] / r["iteration_us"] - 1 if s in base else float("nan")
            r["speedup"] = sp
            f.write(f"{n},{s},{r['compute_us']:.3f},{r['iteration_us']:.3f},{r['exposed_us']:.3f},"
                    f"{r['share']:.5f},{r['ips']:.4f},{r['allreduce_us']:.3f},{r['last_bucket_us']:.3f},"
                    f"{r['mean_hops']:.3f},{'/'.join(map(str, r['hops']))},{r['nvlink_flows']},{sp:.5f}\n")
    md = ["| variant | compute scale | compute (ms) | fabric hops per flow | all-reduce per iteration (ms) "
          "| last bucket (ms) | iteration (ms) | exposed comm | speed-up vs leaf-spine (ECMP) |",
          "|---|---|---|---|---|---|---|---|---|"]
    for n, desc, s, r in rows:
        md.append(f"| {desc} | {s} | {r['compute_us'] / 1e3:.3f} | {r['mean_hops']:.2f}"
                  f"{' (+NVLink)' if r['nvlink_flows'] else ''} | {r['allreduce_us'] / 1e3:.3f} "
                  f"| {r['last_bucket_us'] / 1e3:.3f} | {r['iteration_us'] / 1e3:.3f} "
                  f"| {r['exposed_us'] / 1e3:.3f} ms ({100 * r['share']:.1f}%) | {100 * r['speedup']:+.1f}% |")
    with open(os.path.join(out, "claim-multirail.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    print("\n".join(md))
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("claim-multirail.py: no matplotlib, no plot", file=sys.stderr)
        return
    spray = {s: r for (n, _, s, r) in rows if n == "leafspine-spray"}
    pts = sorted((r["compute_us"] / 1e3, 100 * r["speedup"], base[s]["share"] * 100,
                  100 * (spray[s]["iteration_us"] / r["iteration_us"] - 1) if s in spray else float("nan"))
                 for (n, _, s, r) in rows if n == "rail")
    fig, ax = plt.subplots(figsize=(6.4, 4))
    ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", label="rail-optimized vs leaf-spine (ECMP): speed-up")
    ax.plot([p[0] for p in pts], [p[3] for p in pts], "^-", label="rail-optimized vs leaf-spine with spraying")
    ax.plot([p[0] for p in pts], [p[2] for p in pts], "s--", label="leaf-spine (ECMP): exposed comm share")
    ax.axhline(23, color="grey", linestyle=":", label="23% (the claim)")
    ax.set_xscale("log")
    ax.set_xlabel("compute per iteration (ms), ResNet-50 preset x scale")
    ax.set_ylabel("%")
    ax.set_title("ResNet-50, 4 servers x 8 NICs at 100 Gb/s")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "claim-multirail.png"), dpi=120)


if __name__ == "__main__":
    main()
