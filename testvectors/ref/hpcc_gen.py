"""HPCC and HPCC-PINT conformance vectors (imported by gen.py).

    python3 testvectors/ref/gen.py --only hpcc

Every scenario is a list of ACK events built from simulated switch counters
(Path below); the reference model (hpcc_ref.py) gives the expected outputs.
Where a discrete decision of the model (U against eta, the bottleneck hop
when two hops' u are nearly equal but their tau differ, the 64x plausibility
check) is within NEAR_TIE of going the other way, a fixed-point engine may
legitimately take the other branch: hand-written scenarios assert that they
stay clear, and the random ones perturb the switch counters until they do.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from hpcc_gen_base import (  # noqa: E402
    US, Flow, Path, _congest, hpcc_param_error, hpcc_random, hpcc_vector, pint_events)
# Re-exported for hpcc_spray_gen.py, which imports them from here.
from hpcc_gen_base import NEAR_TIE, RATE_TOL, U_TOL, WIN_TOL  # noqa: E402,F401
import hpcc_ref  # noqa: E402
from gen import write  # noqa: E402


def gen_hpcc(out_dir):
    vs = []

    # -- one hop, the basic measurements -----------------------------------
    f = Flow(Path([3]), step=13000, inflight=1)
    for _ in range(6):
        f.ack(13 * US, util=1.0, qlen=0)
    vs.append(hpcc_vector("one-hop-line-rate", "hpcc-paper", """
One 100 Gb/s hop sending at line rate with an empty queue, ACKs one base
RTT apart (d = T): from the second ACK on, U = u = 1 > eta, so every update
is multiplicative, W = Wc / (1/0.95) + 80. The first ACK only records history.""", f.events))

    f = Flow(Path([3]), inflight=5000)
    for _ in range(40):
        f.ack(1 * US, util=0.98, qlen=0)
    vs.append(hpcc_vector("one-hop-line-rate-ewma", "hpcc-paper", """
98% of line rate at 1 us ACK gaps (d = T/13): U climbs from 0 to 0.98 by the EWMA
U += (u - U) d/T; the window grows additively (stage 1..4) while U < eta,
then the 5th stage or U >= eta makes a multiplicative step.""", f.events))

    f = Flow(Path([3]), step=13000, inflight=1)
    for _ in range(8):
        f.ack(13 * US, util=1.0, qlen=162480)
    vs.append(hpcc_vector("one-hop-bdp-queue", "hpcc-paper", """
A standing queue of one BDP (162480 B = 2031 x 80 B) behind a hop at line
rate: u = q/(B T) + 1 ~ 2, so each full update halves the window (x 0.95/2).""",
                          f.events))

    f = Flow(Path([3]))
    for _ in range(30):
        f.ack(2 * US, util=0.98, qlen=81280)
    vs.append(hpcc_vector("one-hop-half-bdp-queue-fast", "hpcc-later", """
Half a BDP of queue at 2 us ACK gaps, maxStage 0: U converges to ~1.48;
every ACK reacts (fast reaction from Wc) and one in ~13 commits.""", f.events))

    # -- stages -------------------------------------------------------------
    def stage_flow():
        f = Flow(Path([3]), step=13000, inflight=1)       # every ACK is a full update
        _congest(f, 4, qlen=120000, gap=13 * US)           # W down to ~1/8 BDP
        for _ in range(14):
            f.ack(13 * US, util=0.4, qlen=0)               # U = 0.4 < eta
        return f
    vs.append(hpcc_vector("stage-count-paper", "hpcc-paper", """
maxStage 5: after congestion cut the window, a light load (U = 0.4 < eta)
gives five additive steps (stage 1..5), then the sixth update is
multiplicative because stage >= maxStage (W = Wc / (0.4/0.95) + 80), and
the count starts again.""", stage_flow().events))
    vs.append(hpcc_vector("stage-count-later", "hpcc-later", """
maxStage 0 (the authors' later setting): the same load makes every update
multiplicative; stage stays 0.""", stage_flow().events))
    vs.append(hpcc_vector("stage-max-2", "hpcc-paper", """
maxStage 2 by parameter: two additive steps between multiplicative ones.""",
                          stage_flow().events, max_stage=2))
    f = Flow(Path([3]), step=13000, inflight=1)
    _congest(f, 3, qlen=120000, gap=13 * US)
    for i in range(12):
        f.ack(13 * US, util=0.5 if i % 4 != 3 else 1.1, qlen=0)
    vs.append(hpcc_vector("stage-reset-by-load", "hpcc-paper", """
U >= eta resets the stage before maxStage: light ACKs count stages, every
fourth is over eta and makes a multiplicative step with stage -> 0.""", f.events))

    # -- full update and fast reaction --------------------------------------
    f = Flow(Path([3]), step=1000, inflight=20000)
    f.warm(qlen=60000)
    for i in range(45):
        f.ack(1 * US, util=1.0, qlen=60000 if i < 30 else 0)
    vs.append(hpcc_vector("fast-reaction", "hpcc-paper", """
ACKs before the update sequence (snd_nxt of the last commit, 20 ACKs ahead)
are fast reactions: W is computed from the committed Wc and the current U,
nothing is committed (stage and Wc stay); the ACK past it commits.""", f.events))

    f = Flow(Path([3]), step=1000, inflight=8000)
    f.warm(qlen=60000)
    for i in range(30):
        f.ack(1 * US, util=0.3, qlen=0)
    vs.append(hpcc_vector("fast-reaction-additive", "hpcc-paper", """
After a cut, a light load (U falls below eta) at 1 us gaps with the update
mark 8 ACKs ahead: the fast reactions in between all give Wc + W_AI (or
Wc / (U/eta) + W_AI once stage = maxStage) and leave stage and Wc alone;
stage counts commits only.""", f.events))

    f = Flow(Path([3]), step=1000, inflight=1)
    for i in range(30):
        f.ack(1 * US, util=1.0, qlen=60000 if i < 20 else 0)
    vs.append(hpcc_vector("full-update-every-ack", "hpcc-paper", """
snd_nxt = ack + 1: every ACK is past the last update and commits.""", f.events))

    f = Flow(Path([3]), step=1000, inflight=3000)
    for i in range(20):
        f.ack(1 * US, util=1.0, qlen=50000)
    vs.append(hpcc_vector("update-seq-equal", "hpcc-paper", """
Marks 3 ACKs ahead: every third ACK after a commit equals the mark exactly
and is not past it (strictly after: signed 32-bit difference > 0), so it is
a fast reaction; the next one commits.""", f.events))

    f = Flow(Path([3]), seq0=2 ** 32 - 15000, step=1000, inflight=4000)
    for i in range(30):
        f.ack(1 * US, util=1.0, qlen=40000)
    vs.append(hpcc_vector("seq-wrap", "hpcc-paper", """
Sequence numbers cross 2^32: the update mark compares by signed 32-bit
difference, so the full updates keep their one-per-window rhythm.""", f.events,
                          seed=2 ** 32 - 15000))

    # -- clamps --------------------------------------------------------------
    f = Flow(Path([3]), step=13000, inflight=1)
    for _ in range(12):
        f.ack(13 * US, util=1.0, qlen=2 ** 17 * 80 - 80)
    vs.append(hpcc_vector("window-floor", "hpcc-paper", """
A full 17-bit queue (10.5 MB, u ~ 65.5, capped at 64): the window falls to
the floor, min_window_bytes = 163, and stays there (rate 100 Mb/s).""", f.events))
    f = Flow(Path([3]), step=13000, inflight=1)
    for _ in range(6):
        f.ack(13 * US, util=1.0, qlen=1000000)
    for _ in range(6):
        f.ack(13 * US, util=0.1, qlen=0)
    vs.append(hpcc_vector("window-floor-param", "hpcc-later", """
min_window_bytes = 5000: the floor holds against U ~ 7, then a light load
lifts the window off it.""", f.events, min_window_bytes=5000))
    f = Flow(Path([3]), step=13000, inflight=1)
    _congest(f, 4, qlen=400000, gap=13 * US)
    for _ in range(16):
        f.ack(13 * US, util=0.7, qlen=0)
    vs.append(hpcc_vector("window-ceiling", "hpcc-later", """
After deep cuts, U = 0.7 lets every multiplicative update grow the window
by 0.95/0.7 until it is clamped at the BDP (162500 B, 100 Gb/s).""", f.events))
    f = Flow(Path([3]), step=13000, inflight=1)
    _congest(f, 3, qlen=100000, gap=13 * US)
    for _ in range(4):
        f.ack(13 * US, util=0.0, qlen=0)
    vs.append(hpcc_vector("idle-u-zero", "hpcc-later", """
maxStage 0 and an idle hop: U = 0 exactly means no load, the window goes to
the ceiling in one update.""", f.events))

    # -- wraps ---------------------------------------------------------------
    f = Flow(Path([3, 4], ts=[2 ** 24 - 7500, 2 ** 24 - 3000]), inflight=6000)
    for i in range(24):
        f.ack(1 * US, util=[0.9, 0.7], qlen=[30000 if i < 12 else 0, 0])
    vs.append(hpcc_vector("ts-wrap", "hpcc-paper", """
Both hops' 24-bit timestamps wrap a few ACKs in: d is taken mod 2^24.""", f.events))

    f = Flow(Path([3], tx=[2 ** 27 - 40000]), inflight=6000)
    for i in range(24):
        f.ack(1 * US, util=1.0, qlen=20000)
    vs.append(hpcc_vector("tx-wrap", "hpcc-paper", """
The 20-bit byte counter (128 B units: 128 MiB) wraps mid-flow: bytes are
taken mod 2^20 units.""", f.events))

    f = Flow(Path([5], mult=5, tx=[2 ** 32 - 150000]), inflight=6000)
    for i in range(24):
        f.ack(1 * US, util=0.9, qlen=[40960 * (i % 5)])
    vs.append(hpcc_vector("tx-wrap-mult5", "hpcc-paper", """
Multiplier 2^5 at 400 Gb/s: the counter's units are 4 KiB, and it wraps
exactly where the 32-bit byte count does.""", f.events))

    f = Flow(Path([3, 3, 3], ts=[2 ** 24 - 4000, 5000, 2 ** 24 - 12000], tx=[2 ** 27 - 30000, 5, 2 ** 27 - 60000]),
             inflight=8000)
    for i in range(40):
        f.ack(1 * US, util=[0.8, 1.0, 0.95], qlen=[0, 1600 * i, 0])
    vs.append(hpcc_vector("wraps-3hops", "hpcc-paper", """
Three hops wrapping their timestamps and byte counters at different ACKs.""", f.events))

    # -- multiplier ----------------------------------------------------------
    for mult, rate in ((1, 3), (3, 6), (7, 7)):
        f = Flow(Path([rate], mult=mult), inflight=4000)
        for i in range(20):
            f.ack(1 * US, util=1.0, qlen=(80 << mult) * (40 * i))
        vs.append(hpcc_vector(f"mult-{1 << mult}", "hpcc-paper", f"""
INT multiplier 2^{mult} at {hpcc_ref.RATE_GBPS[rate]} Gb/s: tx units are 128 x {1 << mult} B, queue units
80 x {1 << mult} B; a growing queue.""", f.events))

    # -- bottleneck among hops ----------------------------------------------
    f = Flow(Path([3, 5, 1]), inflight=5000)
    for i in range(30):
        f.ack(1 * US, d=[1000, 1200, 700], util=[0.5, 0.9, 0.6 + 0.02 * i], qlen=[0, 0, 400 * i])
    vs.append(hpcc_vector("bottleneck-3hops", "hpcc-paper", """
Three hops (100, 400, 25 Gb/s) with different d: the 400G hop leads at
first, then the 25G hop's growing load and queue make it the bottleneck; U
follows the largest u_i with that hop's tau.""", f.events))

    f = Flow(Path([3, 4, 2, 6, 3]), inflight=5000)
    for i in range(40):
        ph = i // 10
        util = [0.5, 0.5, 0.5, 0.5, 0.5]
        util[[1, 3, 0, 4][ph]] = 1.1
        q = [0] * 5
        q[[1, 3, 0, 4][ph]] = 8000 * (i % 10)
        f.ack(1 * US, d=[900, 1100, 1000, 1300, 800], util=util, qlen=q)
    vs.append(hpcc_vector("bottleneck-5hops", "hpcc-paper", """
Five hops (100, 200, 50, 800, 100 Gb/s); the bottleneck moves every 10
ACKs (hop 1, 3, 0, 4), each with its own d.""", f.events))

    f = Flow(Path([3, 3]), inflight=5000)
    for i in range(12):
        f.ack(1 * US, d=[1500, 900], util=1.0, qlen=2 ** 17 * 80 - 80)
    vs.append(hpcc_vector("tie-at-cap", "hpcc-paper", """
Both hops' u saturate at 64 (full queues) with different d: the tie goes
to the later hop, whose tau = 900 ns drives the EWMA.""", f.events))

    f = Flow(Path([3, 3, 3]), inflight=5000)
    for i in range(12):
        f.ack(1 * US, d=[1000, 600 if i % 2 else 1400, 1000], util=[0.5, 0.8, 0.6], qlen=0)
    vs.append(hpcc_vector("bottleneck-d-jitter", "hpcc-paper", """
The middle hop's clock jitters against the ACK clock (d alternates 600 and
1400 ns): its u and tau change every ACK and so does the bottleneck.""", f.events))

    f = Flow(Path([3, 4]), inflight=5000)
    for i in range(10):
        f.ack(20 * US, d=[20000, 15000], util=[0.6, 0.9], qlen=[0, 20000])
    vs.append(hpcc_vector("d-over-t", "hpcc-paper", """
ACK gaps of 20 us > T: tau = T, so U = u of the bottleneck at every ACK.""",
                          f.events))

    # -- history: path changes, expiry, duplicates ---------------------------
    f = Flow(Path([3, 3]), inflight=5000)
    f.warm()
    for _ in range(6):
        f.ack(1 * US, util=1.0, qlen=30000)
    f.path = Path([3, 3, 4], ts=[f.path.ts[0], f.path.ts[1], 77777], tx=f.path.tx + [123456])
    for _ in range(6):
        f.ack(1 * US, util=0.9, qlen=10000)
    f.path = Path([3], ts=[f.path.ts[0]], tx=[f.path.tx[0]])
    for _ in range(4):
        f.ack(1 * US, util=0.9, qlen=0)
    vs.append(hpcc_vector("path-change-hop-count", "hpcc-paper", """
The hop count changes (2 -> 3 -> 1): that ACK gives no measurement and
replaces the history; U, Wc and stage are kept; the next ACK measures.""", f.events))

    f = Flow(Path([3, 3]), inflight=5000)
    f.warm()
    for _ in range(6):
        f.ack(1 * US, util=1.0, qlen=30000)
    f.path.rates[1] = 4
    for _ in range(6):
        f.ack(1 * US, util=1.0, qlen=30000)
    vs.append(hpcc_vector("path-change-rate-code", "hpcc-paper", """
Hop 1's rate code changes (100 -> 200 Gb/s): another link, history reset.""",
                          f.events))

    f = Flow(Path([3, 3]), inflight=5000)
    f.warm()
    for _ in range(6):
        f.ack(1 * US, util=1.0, qlen=30000)
    f.ack(1 * US, d=[1000, -(2 ** 23)], util=[1.0, 0.0], qlen=30000)
    for _ in range(3):
        f.ack(1 * US, util=1.0, qlen=30000)
    f.ack(1 * US, d=[-1, 1000], util=[0.0, 1.0], qlen=30000)
    for _ in range(3):
        f.ack(1 * US, util=1.0, qlen=30000)
    f.ack(1 * US, d=[1000, 2 ** 23 - 1], util=[1.0, 0.0], qlen=30000)
    for _ in range(3):
        f.ack(1 * US, util=1.0, qlen=30000)
    vs.append(hpcc_vector("path-change-ts-back", "hpcc-paper", """
A hop's timestamp goes back (delta >= 2^23 mod 2^24: by 2^23 ns, then by
1 ns): history reset. A forward step of 2^23 - 1 ns resets it as well: it is
longer than the 671 us a hop's delta may span (history-hop-delta).""", f.events))

    f = Flow(Path([3]), inflight=5000)
    f.warm()
    for _ in range(5):
        f.ack(1 * US, util=1.0, qlen=30000)
    f.path.mult = 2
    for _ in range(5):
        f.ack(1 * US, util=1.0, qlen=30000)
    vs.append(hpcc_vector("path-change-mult", "hpcc-paper", """
The multiplier changes (1 -> 4): the counters' units changed, history reset.""",
                          f.events))

    f = Flow(Path([3, 3]), inflight=5000)
    f.warm()
    for _ in range(5):
        f.ack(1 * US, util=1.0, qlen=30000)
    f.ack(1 * US, util=[1.0, 64.2], qlen=30000)
    for _ in range(3):
        f.ack(1 * US, util=1.0, qlen=30000)
    f.ack(1 * US, util=[63.5, 1.0], qlen=30000)
    f.ack(1 * US, util=[1.0, 1.0], qlen=30000)
    vs.append(hpcc_vector("path-change-implausible", "hpcc-paper", """
A hop's byte counter advances 64.2 times its link rate (another switch on a
same-speed port): history reset. 63.5 times is believed (u capped at 64).""",
                          f.events))

    f = Flow(Path([3]), inflight=5000)
    f.warm()
    for _ in range(5):
        f.ack(1 * US, util=1.0, qlen=30000)
    f.ack(256 * US, util=1.0, qlen=30000)   # exactly the timeout: still history
    f.ack(1 * US, util=1.0, qlen=30000)
    f.ack(256 * US + 1, util=1.0, qlen=30000)   # 1 ns over: expired
    for _ in range(3):
        f.ack(1 * US, util=1.0, qlen=30000)
    f.ack(300 * US, util=0.0, qlen=0)
    f.ack(5 * US, util=0.0, qlen=0)
    vs.append(hpcc_vector("history-timeout", "hpcc-paper", """
history_timeout_us = 256: an ACK exactly 256 us after the previous one still
measures; 256 us + 1 ns resets the history (no action), as does 300 us.""",
                          f.events))
    f = Flow(Path([3]), inflight=5000)
    for _ in range(4):
        f.ack(1 * US, util=1.0, qlen=30000)
    f.ack(10 * US, util=1.0, qlen=30000)
    f.ack(10 * US + 1, util=1.0, qlen=30000)
    f.ack(1 * US, util=1.0, qlen=30000)
    vs.append(hpcc_vector("history-timeout-param", "hpcc-later", """
history_timeout_us = 10 by parameter.""", f.events, history_timeout_us=10))

    f = Flow(Path([7]), step=13000, inflight=1)            # every ACK a full update
    f.warm(qlen=0)
    f.ack(670 * US, d=671 * US, util=1.0, qlen=0)          # at the bound: a sample, U = 1
    f.ack(13 * US, util=1.0, qlen=0)
    f.ack(670 * US, d=680 * US, util=1.0, qlen=0)          # 680 us: the counter wrapped
    for _ in range(3):
        f.ack(13 * US, util=1.0, qlen=0)
    vs.append(hpcc_vector("history-hop-delta", "hpcc-paper", """
A 1.6 Tb/s hop at line rate, history_timeout_us = 671, ACKs 670 us apart
(inside the timeout). The hop's own stamps 671 us apart are still a sample
(134.2 MB < 2^27 B: U = 1). Stamps 680 us apart span more than one wrap of
its 20-bit tx counter (136 MB), which would read as U = 0.013 and lift W to
the BDP: the history expires instead (no action, U and W kept) and the
next ACK measures U = 1 again.""", f.events, line_rate_mbps=1600000, history_timeout_us=671))

    f = Flow(Path([3, 4]), t0=2 ** 32 - 20 * US, inflight=5000)
    for _ in range(30):
        f.ack(1 * US, util=1.0, qlen=20000)
    f.ack(200 * US, util=1.0, qlen=20000)
    f.ack(257 * US, util=1.0, qlen=20000)
    f.ack(1 * US, util=1.0, qlen=20000)
    vs.append(hpcc_vector("ack-time-wrap", "hpcc-paper", """
ACK times cross the 2^32 ns wrap of the NIC clock: elapsed time is taken on
the 32-bit clock, so the 256 us expiry is still judged right after it.""",
                          f.events))

    f = Flow(Path([3, 3]), inflight=5000)
    f.warm()
    for i in range(5):
        f.ack(1 * US, util=1.0, qlen=30000)
    f.ack(1 * US, d=0, util=0.0, qlen=30000)       # duplicate: no hop moved
    f.ack(1 * US, d=[0, 1000], util=[0.0, 1.0], qlen=[0, 80000])       # hop 0 kept
    f.ack(1 * US, d=[2000, 1000], util=[1.0, 0.2], qlen=[30000, 0])    # hop 0 spans both
    for i in range(3):
        f.ack(1 * US, util=1.0, qlen=30000)
    vs.append(hpcc_vector("duplicate-ack", "hpcc-paper", """
No hop's timestamp moved: no sample, no action, history kept. Then hop 0
alone did not move (its queue field changed to 0): it is skipped and keeps
its old record, so its next sample spans both intervals and filters its
queue against the old 30000 B, not against 0.""", f.events))

    f = Flow(Path([]), inflight=5000)
    for _ in range(4):
        f.ack(1 * US)
    vs.append(hpcc_vector("zero-hops", "hpcc-paper", """
A valid stack of 0 hops: nothing to measure, never an action.""", f.events))

    # -- malformed INT ------------------------------------------------------
    def malformed(data_list):
        f = Flow(Path([3, 4]), inflight=5000)
        f.warm(qlen=40000)
        for _ in range(6):
            f.ack(1 * US, util=1.0, qlen=40000)
        for data in data_list:
            f.raw(data(f.path))
        for _ in range(4):
            f.ack(1 * US, util=1.0, qlen=40000)
        return f.events

    def recs(path):
        return [hpcc_ref.hop_fields(*h, path.mult) for h in path.hops()]

    vs.append(hpcc_vector("malformed-truncated", "hpcc-paper", """
Truncated stacks (0 and 1 bytes: no header; a header declaring 2 hops with
17 bytes of records): status truncated, window and rate unchanged, history
untouched (the next ACK measures over both intervals).""", malformed([
        lambda p: b"",
        lambda p: bytes([2]),
        lambda p: hpcc_ref.encode_stack(0, recs(p))[:17],
        lambda p: hpcc_ref.encode_stack(0, recs(p))[:-1],
    ])))
    vs.append(hpcc_vector("malformed-too-many-hops", "hpcc-paper", """
Hop counts 6 and 255: too_many_hops (checked before the length), nothing
changes.""", malformed([
        lambda p: hpcc_ref.encode_stack(0, recs(p) * 3, hop_count=6),
        lambda p: bytes([255, 0]),
        lambda p: bytes([6, 0]),
    ])))
    vs.append(hpcc_vector("malformed-bad-rate-code", "hpcc-paper", """
A record with the reserved rate code 0 (in the first or the second hop, and
an all-zero record): bad_rate_code, nothing changes.""", malformed([
        lambda p: hpcc_ref.encode_stack(0, [(0,) + recs(p)[0][1:], recs(p)[1]]),
        lambda p: hpcc_ref.encode_stack(0, [recs(p)[0], (0,) + recs(p)[1][1:]]),
        lambda p: bytes([2, 0]) + bytes(16),
    ])))
    f = Flow(Path([3]), inflight=5000)
    f.warm()
    f.ack(1 * US, util=1.0, qlen=30000)
    f.raw(hpcc_ref.encode_stack(0, recs(f.path))[:9], gap=200 * US)
    f.ack(100 * US, util=1.0, qlen=30000)
    f.ack(1 * US, util=1.0, qlen=30000)
    vs.append(hpcc_vector("malformed-no-refresh", "hpcc-paper", """
A malformed stack never reaches the sender, so it does not refresh the
history's clock either: valid ACK, truncated stack 200 us later, valid ACK
100 us after that = 300 us of INT silence > 256 us: expired.""", f.events))
    f = Flow(Path([3]), inflight=5000)
    f.warm()
    for i in range(8):
        f.ack(1 * US, util=1.0, qlen=30000)
    # The same stacks again with reserved header bits set, and with trailing bytes.
    out = []
    for i, e in enumerate(f.events):
        recs_e = [hpcc_ref.hop_fields(*h, e[4]) for h in e[5]]
        data = hpcc_ref.encode_stack(e[4], recs_e, reserved_bits=0xF8 if i % 2 else 0x50)
        if i % 3 == 0:
            data += b"\xAA\xBB"
        out.append(("raw", e[1], e[2], e[3], data))
    vs.append(hpcc_vector("raw-reserved-bits", "hpcc-paper", """
Raw stacks with the header's reserved bits set (ignored) and trailing bytes
after the records (not read): decoded and measured as usual.""", out))

    # -- rates and parameters -----------------------------------------------
    f = Flow(Path([1, 2, 3, 4, 5]), inflight=5000)
    for i in range(16):
        f.ack(1 * US, d=[1000, 1100, 1200, 1300, 1400], util=[0.9, 0.8, 0.7, 1.0 - 0.03 * i, 0.3],
              qlen=[0, 0, 0, 0, 9000 * i])
    vs.append(hpcc_vector("rate-codes-1-5", "hpcc-paper", """
Rate codes 1..5 (25..400 Gb/s) on one path.""", f.events))
    f = Flow(Path([6, 7, 3]), inflight=5000)
    for i in range(16):
        f.ack(1 * US, d=[1000, 1200, 900], util=[0.95, 0.6 + 0.04 * i, 0.5], qlen=[40000, 0, 0])
    vs.append(hpcc_vector("rate-codes-6-7", "hpcc-paper", """
Rate codes 6 and 7 (800 Gb/s, 1.6 Tb/s).""", f.events))

    f = Flow(Path([7], mult=7), step=100000, inflight=1)
    for i in range(20):
        f.ack(500 * US, util=1.0 if i < 10 else 0.3, qlen=300000000 if i < 8 else 0)
    vs.append(hpcc_vector("line-1600g-t-1ms", "hpcc-later", """
1.6 Tb/s NIC with T = 1 ms: the largest BDP (2e8 B) and rate. Multiplier
2^7 (16 KiB tx units, 10 KiB queue units) for a 300 MB queue, ACKs 500 us
apart (history_timeout_us = 600): cuts, then growth back to the ceiling.""", f.events,
                          line_rate_mbps=1600000, base_rtt_ns=1000000, history_timeout_us=600))
    f = Flow(Path([1]), step=100, inflight=1)
    for i in range(20):
        f.ack(1 * US, util=1.0, qlen=2000 if i < 10 else 0)
    vs.append(hpcc_vector("line-25g-t-1us", "hpcc-paper", """
25 Gb/s NIC with T = 1 us: BDP 3125 B, every ACK d = T.""", f.events, line_rate_mbps=25000,
                          base_rtt_ns=1000, min_window_bytes=13, w_ai_bytes=10))
    f = Flow(Path([3]), step=13000, inflight=1)
    for i in range(12):
        f.ack(13 * US, util=1.0 if i < 6 else 0.5, qlen=50000 if i < 6 else 0)
    vs.append(hpcc_vector("eta-one-big-ai", "hpcc-paper", """
eta = 1.0 and W_AI = 8000 B.""", f.events, eta_ppm=1000000, w_ai_bytes=8000))

    # -- PINT ---------------------------------------------------------------
    vs.append(hpcc_vector("pint-codes", "hpcc-paper", """
PINT codes across the range, every ACK a full update: 0 (U = 0), 1
(0.0041), 127 (0.958 > eta), 126 (0.917), 128 (1.0), 144 (2.0), 200, 224
(64), 240 and 255 (capped at 64).""",
                          pint_events([0, 128, 144, 200, 224, 240, 255, 1, 126, 127, 128, 100, 64, 0, 160],
                                      inflight=1), algo="hpcc-pint"))
    vs.append(hpcc_vector("pint-stage-paper", "hpcc-paper", """
PINT with maxStage 5: a few heavy codes then light ones count stages.""",
                          pint_events([150, 150, 150] + [100] * 12, inflight=1), algo="hpcc-pint"))
    vs.append(hpcc_vector("pint-fast-reaction", "hpcc-later", """
PINT fast reaction: 40 codes, a full update once per 10 ACKs.""",
                          pint_events([128 + (i * 7) % 40 - 20 for i in range(40)], inflight=10000),
                          algo="hpcc-pint"))
    vs.append(hpcc_vector("pint-all-codes", "hpcc-later", """
Every code 0..255 in turn, each a full update.""", pint_events(list(range(256)), inflight=1),
                          algo="hpcc-pint"))

    # -- parameter errors ---------------------------------------------------
    errs = [
        ("err-line-rate-zero", "line_rate_mbps", "zero", dict(line_rate_mbps=0)),
        ("err-line-rate-range", "line_rate_mbps", "out_of_range", dict(line_rate_mbps=1600001)),
        ("err-rtt-zero", "base_rtt_ns", "zero", dict(base_rtt_ns=0)),
        ("err-rtt-low", "base_rtt_ns", "out_of_range", dict(base_rtt_ns=999)),
        ("err-rtt-high", "base_rtt_ns", "out_of_range", dict(base_rtt_ns=1000001)),
        ("err-eta-zero", "eta_ppm", "zero", dict(eta_ppm=0)),
        ("err-eta-range", "eta_ppm", "out_of_range", dict(eta_ppm=1000001)),
        ("err-max-stage", "max_stage", "out_of_range", dict(max_stage=256)),
        ("err-w-ai", "w_ai_bytes", "inconsistent", dict(w_ai_bytes=162501)),
        ("err-min-window-zero", "min_window_bytes", "zero", dict(min_window_bytes=0)),
        ("err-min-window-bdp", "min_window_bytes", "inconsistent", dict(min_window_bytes=162501)),
        ("err-history-zero", "history_timeout_us", "zero", dict(history_timeout_us=0)),
        ("err-history-range", "history_timeout_us", "out_of_range", dict(history_timeout_us=672)),
    ]
    for name, field, code, ov in errs:
        vs.append(hpcc_param_error(name, field, code, f"Invalid parameters: {field} {code}.", **ov))

    # -- long random runs ---------------------------------------------------
    vs.append(hpcc_random("random-paper", "hpcc-paper", 21, 10000))
    vs.append(hpcc_random("random-later-wrap", "hpcc-later", 22, 10000, start=2 ** 32 - 5 * 10 ** 6,
                          mults=(0, 1, 2, 3), seq0=2 ** 32 - 5 * 10 ** 6))
    vs.append(hpcc_random("random-tuned", "hpcc-paper", 23, 10000, mults=(0, 2, 5),
                          line_rate_mbps=200000, base_rtt_ns=8000, eta_ppm=900000, max_stage=3,
                          w_ai_bytes=200, min_window_bytes=500, history_timeout_us=100))
    return [write(out_dir, v) for v in vs]
