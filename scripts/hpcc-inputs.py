#!/usr/bin/env python3
"""hpcc-inputs.py — writes an HPCC-simulator experiment directory: a fat-tree
topology file, a flow file (Poisson background from a flow-size CDF plus
incast bursts) and one config.txt per congestion control, in the formats of
the HPCC simulator (alibaba-edu/High-Precision-Congestion-Control:
mix/topology.txt, mix/flow.txt, run.py's config template), so the same
directory runs in that simulator and in `nicc-sim --hpcc-config`.

  scripts/hpcc-inputs.py OUT_DIR                      # the HPCC paper's fat-tree, FB_Hadoop 30% + incast
  scripts/hpcc-inputs.py OUT_DIR --small --seed 2     # 32 hosts, for tests
  scripts/hpcc-inputs.py OUT_DIR --pattern burst      # long flows into host 0, then a burst from all
  nicc-sim --hpcc-config OUT_DIR/config_hpcc.txt --out OUT_DIR/nicc-hpcc

Fat-tree (the HPCC paper's evaluation network, its mix/fat.txt): `pods`
pods of `tors` ToRs and `aggs` aggregation switches, every ToR linked to
every agg of its pod, agg j of each pod linked to cores j*c/a .. (j+1)*c/a-1,
`hosts` hosts per ToR. Node ids: hosts first, then ToRs, aggs, cores. Host
links `host_gbps`, switch links `fabric_gbps`, every link `delay_us`.

Flows (the simulator's traffic generator's conventions): start times in
absolute seconds from 2 s (the simulator's warm-up), sorted; background
flows per host as a Poisson process at `load` x host rate / mean size,
sizes from the CDF (linear interpolation), destinations uniform among the
other hosts, dport 100; incast bursts as one Poisson process carrying
`incast_load` x total host capacity, each `fanin` distinct senders sending
`incast_bytes` to one random receiver, dport 200 (the analysis script tells
the two apart by dport). Priority group 3, as the generator writes.

Pattern `burst` instead: `long_flows` flows of `long_bytes` from hosts in
other pods into host 0 at 2 s, then at 2 s + `burst_at_us` every other host
sends `burst_bytes` to host 0 (dport 200); trace.txt names host 0's ToR, so
its ports are monitored (queues.csv, per-port statistics) and
ENABLE_TRACE is 1.

Configs: run.py's settings for its "dcqcn" and "hp" runs at the host rate
(`config_dcqcn.txt`, `config_hpcc.txt`): DCQCN mode 1 with alpha period
1 us, rate-decrease period 4 us, increase timer 300 us, g = 1/256, AI 5 and
HAI 50 Mb/s per 25 Gb/s, ACKs prioritised; HPCC mode 3 with eta 0.95,
maxStage 0, AI 10 Mb/s per 25 Gb/s; ECN Kmin/Kmax 100/400 KB per 25 Gb/s
(Pmax 0.2) at the host and fabric rates; buffer 16 MB per 50 Gb/s.
Standard library only; deterministic for a given seed.
"""
import argparse
import bisect
import os
import random
import sys


def read_cdf(path):
    pts = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            t = line.split()
            if not t:
                continue
            if len(t) != 2:
                sys.exit("%s:%d: expected 'size percent'" % (path, n))
            pts.append((float(t[0]), float(t[1])))
    if not pts or pts[-1][1] != 100:
        sys.exit("%s: the CDF must end at 100" % path)
    return pts


def cdf_mean(pts):
    m = 0.0
    for (s0, p0), (s1, p1) in zip(pts, pts[1:]):
        m += (p1 - p0) / 100.0 * (s0 + s1) / 2.0
    return m


def cdf_sample(pts, rng):
    u = rng.uniform(0, 100)
    ps = [p for _, p in pts]
    i = max(1, bisect.bisect_left(ps, u))
    (s0, p0), (s1, p1) = pts[i - 1], pts[i]
    size = s0 if p1 == p0 else s0 + (s1 - s0) * (u - p0) / (p1 - p0)
    return max(1, int(round(size)))


def fat_tree(a):
    n_hosts = a.pods * a.tors * a.hosts
    n_tors = a.pods * a.tors
    n_aggs = a.pods * a.aggs
    tor0 = n_hosts
    agg0 = tor0 + n_tors
    core0 = agg0 + n_aggs
    nodes = core0 + a.cores
    links = []
    for h in range(n_hosts):
        links.append((h, tor0 + h // a.hosts, a.host_gbps))
    for p in range(a.pods):
        for t in range(a.tors):
            for g in range(a.aggs):
                links.append((tor0 + p * a.tors + t, agg0 + p * a.aggs + g, a.fabric_gbps))
    per = a.cores // a.aggs
    for p in range(a.pods):
        for g in range(a.aggs):
            for c in range(g * per, (g + 1) * per):
                links.append((agg0 + p * a.aggs + g, core0 + c, a.fabric_gbps))
    switches = list(range(tor0, nodes))
    lines = ["%d %d %d" % (nodes, len(switches), len(links)), " ".join(str(s) for s in switches)]
    for x, y, gbps in links:
        lines.append("%d %d %dGbps %gus 0" % (x, y, gbps, a.delay_us))
    return n_hosts, "\n".join(lines) + "\n"


def burst_flows(a, n_hosts):
    per_pod = a.tors * a.hosts
    others = [h for h in range(n_hosts) if h // per_pod != 0] or list(range(1, n_hosts))
    out = []
    for i in range(min(a.long_flows, len(others))):
        out.append((2.0, others[i * len(others) // max(1, a.long_flows)], 0, 100, a.long_bytes))
    t = 2.0 + a.burst_at_us * 1e-6
    for src in range(1, n_hosts):
        out.append((t, src, 0, 200, a.burst_bytes))
    out.sort()
    lines = ["%d" % len(out)]
    lines += ["%d %d 3 %d %d %.9f" % (s, d, port, size, t) for t, s, d, port, size in out]
    return len(out), "\n".join(lines) + "\n"


def flows(a, n_hosts, cdf):
    rng = random.Random(a.seed)
    host_bps = a.host_gbps * 1e9
    t0, t1 = 2.0, 2.0 + a.duration_ms / 1000.0
    out = []
    mean = cdf_mean(cdf)
    lam = a.load * host_bps / (8.0 * mean)  # flows per second per host
    if a.load > 0:
        for src in range(n_hosts):
            t = t0 + rng.expovariate(lam)
            while t < t1:
                dst = rng.randrange(n_hosts - 1)
                dst += dst >= src
                out.append((t, src, dst, 100, cdf_sample(cdf, rng)))
                t += rng.expovariate(lam)
    if a.incast_load > 0:
        fanin = min(a.fanin, n_hosts - 1)  # the paper's 60 senders where the fabric has them
        rate = a.incast_load * n_hosts * host_bps / (8.0 * fanin * a.incast_bytes)
        t = t0 + rng.expovariate(rate)
        while t < t1:
            dst = rng.randrange(n_hosts)
            senders = rng.sample([h for h in range(n_hosts) if h != dst], fanin)
            for src in senders:
                out.append((t, src, dst, 200, a.incast_bytes))
            t += rng.expovariate(rate)
    out.sort()
    lines = ["%d" % len(out)]
    lines += ["%d %d 3 %d %d %.9f" % (s, d, port, size, t) for t, s, d, port, size in out]
    return len(out), "\n".join(lines) + "\n"


CONFIG = """ENABLE_QCN 1
USE_DYNAMIC_PFC_THRESHOLD 1

PACKET_PAYLOAD_SIZE 1000

TOPOLOGY_FILE topology.txt
FLOW_FILE flow.txt
TRACE_FILE trace.txt
TRACE_OUTPUT_FILE mix_{cc}.tr
FCT_OUTPUT_FILE fct_{cc}.txt
PFC_OUTPUT_FILE pfc_{cc}.txt

SIMULATOR_STOP_TIME {stop}

CC_MODE {mode}
ALPHA_RESUME_INTERVAL 1
RATE_DECREASE_INTERVAL 4
CLAMP_TARGET_RATE 0
RP_TIMER 300
EWMA_GAIN 0.00390625
FAST_RECOVERY_TIMES 1
RATE_AI {ai}Mb/s
RATE_HAI {hai}Mb/s
MIN_RATE 1000Mb/s
DCTCP_RATE_AI 1000Mb/s

ERROR_RATE_PER_LINK 0.0000
L2_CHUNK_SIZE 4000
L2_ACK_INTERVAL 1
L2_BACK_TO_ZERO 0

HAS_WIN {has_win}
GLOBAL_T 1
VAR_WIN {has_win}
FAST_REACT {has_win}
U_TARGET 0.95
MI_THRESH 0
INT_MULTI 1
MULTI_RATE 0
SAMPLE_FEEDBACK 0
PINT_LOG_BASE 1.01
PINT_PROB 1.0

RATE_BOUND 1

ACK_HIGH_PRIO {ack_prio}

LINK_DOWN 0 0 0

ENABLE_TRACE {trace}

KMAX_MAP {kmax}
KMIN_MAP {kmin}
PMAX_MAP {pmax}
BUFFER_SIZE {buffer_mib}
"""


def config(a, cc):
    bw = a.host_gbps
    fb = a.fabric_gbps
    rates = sorted({bw, fb})
    kmax = "%d " % len(rates) + " ".join("%d %d" % (r * 10**9, 400 * r // 25) for r in rates)
    kmin = "%d " % len(rates) + " ".join("%d %d" % (r * 10**9, 100 * r // 25) for r in rates)
    pmax = "%d " % len(rates) + " ".join("%d 0.2" % (r * 10**9) for r in rates)
    dcqcn = cc == "dcqcn"
    return CONFIG.format(cc=cc, stop="%.6f" % (2.0 + a.stop_ms / 1000.0), mode=1 if dcqcn else 3,
                         ai=(5 * bw // 25) if dcqcn else (10 * bw // 25), hai=50 * bw // 25 if dcqcn else 10 * bw // 25,
                         has_win=0 if dcqcn else 1, ack_prio=1 if dcqcn else 0, kmax=kmax, kmin=kmin, pmax=pmax,
                         buffer_mib=16 * bw // 50, trace=1 if a.pattern == "burst" else 0)


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("out", help="directory to write (created)")
    p.add_argument("--small", action="store_true",
                   help="2 pods x 2 ToRs x 2 aggs, 2 cores, 8 hosts per ToR (32 hosts) for tests")
    p.add_argument("--pods", type=int, default=5)
    p.add_argument("--tors", type=int, default=4, help="ToRs per pod")
    p.add_argument("--aggs", type=int, default=4, help="aggregation switches per pod")
    p.add_argument("--cores", type=int, default=16)
    p.add_argument("--hosts", type=int, default=16, help="hosts per ToR")
    p.add_argument("--host-gbps", type=int, default=100)
    p.add_argument("--fabric-gbps", type=int, default=400)
    p.add_argument("--delay-us", type=float, default=1.0)
    p.add_argument("--cdf", default=os.path.join(root, "sim-adapter", "data", "FbHdp_distribution.txt"))
    p.add_argument("--load", type=float, default=0.3, help="background load per host link")
    p.add_argument("--incast-load", type=float, default=0.02, help="incast share of total host capacity")
    p.add_argument("--fanin", type=int, default=60, help="senders per incast burst")
    p.add_argument("--incast-bytes", type=int, default=500000, help="bytes per incast sender")
    p.add_argument("--duration-ms", type=float, default=10.0, help="flows start in [2 s, 2 s + this]")
    p.add_argument("--stop-ms", type=float, default=100.0, help="SIMULATOR_STOP_TIME - 2 s")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--pattern", choices=("mix", "burst"), default="mix",
                   help="mix: Poisson background + incast bursts; burst: long flows into host 0, then a burst")
    p.add_argument("--long-flows", type=int, default=4, help="burst: long flows into host 0")
    p.add_argument("--long-bytes", type=int, default=10000000, help="burst: bytes per long flow")
    p.add_argument("--burst-at-us", type=float, default=200.0, help="burst: start after the long flows")
    p.add_argument("--burst-bytes", type=int, default=64000, help="burst: bytes from every other host")
    a = p.parse_args()
    if a.small:
        a.pods, a.tors, a.aggs, a.cores, a.hosts = 2, 2, 2, 2, 8
    if a.cores % a.aggs:
        sys.exit("hpcc-inputs.py: --cores must be a multiple of --aggs")
    os.makedirs(a.out, exist_ok=True)
    n_hosts, topo = fat_tree(a)
    if a.pattern == "burst":
        n_flows, flow_text = burst_flows(a, n_hosts)
    else:
        n_flows, flow_text = flows(a, n_hosts, read_cdf(a.cdf))
    with open(os.path.join(a.out, "topology.txt"), "w") as f:
        f.write(topo)
    with open(os.path.join(a.out, "flow.txt"), "w") as f:
        f.write(flow_text)
    with open(os.path.join(a.out, "trace.txt"), "w") as f:
        f.write("1\n%d\n" % n_hosts if a.pattern == "burst" else "0\n")  # host 0's ToR
    for cc in ("dcqcn", "hpcc"):
        with open(os.path.join(a.out, "config_%s.txt" % cc), "w") as f:
            f.write(config(a, cc))
    print("hpcc-inputs.py: %s: %d hosts, %d flows, config_dcqcn.txt and config_hpcc.txt" % (a.out, n_hosts, n_flows))


if __name__ == "__main__":
    main()
