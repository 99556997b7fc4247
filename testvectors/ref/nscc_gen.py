"""NSCC conformance vectors: the four ACK cases, quick adapt on NACK/trim and
on delay, the batching rule, clamps, time and sequence wraps, parameter
errors; expected values from nscc_ref.py.

    python3 testvectors/ref/gen.py --only nscc

The runner (testvectors/runner/executor.cc, RunNscc) starts one flow from
Init() and applies `ack seq=N nxt=N bytes=N ecn=0|1 rtt=NS ev=PORT` (OnAck)
and `nack bytes=N nxt=N` (OnNack); after every event it reports the flags,
window_bytes, rate_kbps, avg_delay_ns and, with change_ev, the ev.

The model's window is real, the engine's whole bytes: where the model moves
the window by less than two bytes the vector states no flags for that event
(the engine may or may not step one byte); every other event pins them.
"""
import random

import nscc_ref
from gen import Vector, flags_text, write

# Instructions per event (x86-64, -O2, GCC 12, Release build), promised by
# every vector and checked under callgrind (scripts/vectors-check.sh), the
# runner's lambda included. Measured worst over these vectors (2026-12-03):
# ack 211, nack 52; bounds about +10%, rounded up to 5.
BOUNDS = {"ack": 235, "nack": 60}

WIN_TOL = "tolerance window_bytes rel 0.002 abs 8"
RATE_TOL = "tolerance rate_kbps rel 0.002 abs 100"
AVG_TOL = "tolerance avg_delay_ns rel 0.01 abs 128"

BASE = 12000  # uec-default base RTT, ns


class Scenario:
    def __init__(self, name, comment, start=0, seq=0, profile="uec-default", **overrides):
        self.p = nscc_ref.params(profile, **overrides)
        assert nscc_ref.validate(self.p) is None, (name, nscc_ref.validate(self.p))
        self.flow = nscc_ref.Flow(self.p)
        self.vec = Vector("nscc", "nscc/" + name, profile, comment)
        for k, v in overrides.items():
            self.vec.add(f"param {k} {v}")
        for kind, bound in BOUNDS.items():
            self.vec.add(f"bound {kind} {bound}")
        for tol in (WIN_TOL, RATE_TOL, AVG_TOL):
            self.vec.add(tol)
        self.t = start
        self.seq = seq % 2 ** 32      # highest ACKed sequence
        self.nxt = (seq + 16 * 4096) % 2 ** 32  # the sender keeps 16 packets ahead

    def _expect(self, w0, changes, ev=None):
        f = self.flow
        dw = abs(f.w - w0)
        flags = set()
        if "window" in changes:
            flags |= {"set_window", "set_rate"}
        if "change_ev" in changes:
            flags.add("change_ev")
        if dw == 0 or dw >= 2:
            self.vec.add(f"expect flags {flags_text(flags)}")
        if "change_ev" in changes:
            self.vec.add(f"expect ev {ev}")
        self.vec.add(f"expect window_bytes {round(f.w)}")
        self.vec.add(f"expect rate_kbps {round(f.rate_kbps())}")
        self.vec.add(f"expect avg_delay_ns {round(f.avg)}")

    def ack(self, dt, rtt, ecn=0, nbytes=4096, ev=0xC001):
        self.t += dt
        self.seq = (self.seq + nbytes) % 2 ** 32
        self.nxt = (self.nxt + nbytes) % 2 ** 32
        w0 = self.flow.w
        ch = self.flow.ack(self.t, self.seq, self.nxt, nbytes, bool(ecn), rtt)
        self.vec.add(f"at {self.t} ack seq={self.seq} nxt={self.nxt} bytes={nbytes} ecn={ecn} rtt={rtt} ev={ev}")
        self._expect(w0, ch, ev)
        return ch

    def nack(self, dt, nbytes=4160):
        self.t += dt
        w0 = self.flow.w
        ch = self.flow.nack(self.t, nbytes, self.nxt)
        self.vec.add(f"at {self.t} nack bytes={nbytes} nxt={self.nxt}")
        self._expect(w0, ch)
        return ch

    def cut_to(self, delay):
        """One marked ACK at `delay` (with no smoothing: delay_ewma 1024) to
        start below the ceiling."""
        return self.ack(100, BASE + delay, ecn=1)


def param_error(name, field, code, comment, **overrides):
    p = nscc_ref.params("uec-default", **overrides)
    got = nscc_ref.validate(p)
    assert got == (field, code), (name, got)
    vec = Vector("nscc", "nscc/" + name, "uec-default", comment)
    for k, v in overrides.items():
        vec.add(f"param {k} {v}")
    vec.add(f"expect-status {field} {code}")
    return vec


def gen_nscc(out_dir):
    vs = []

    s = Scenario("prop-increase", """
No ECN, delay far below target (1 us against 9 us): proportional increase,
accumulated per ACK and applied when more than adjust_bytes (8 MTU) were
ACKed. A first marked ACK at 20 us of queueing cuts the window below the
ceiling (delay EWMA gain 1: the average is the sample).""", delay_ewma_x1024=1024)
    s.cut_to(20000)
    for _ in range(30):
        s.ack(250, BASE + 1000)
    assert s.flow.w > 126000
    vs.append(s.vec)

    s = Scenario("prop-increase-near-target", """
As prop-increase, 8.5 us of queueing (0.5 us below target): the same ACKs
add 1/16 of what 1 us of queueing adds.""", delay_ewma_x1024=1024)
    s.cut_to(20000)
    for _ in range(30):
        s.ack(250, BASE + 8500)
    vs.append(s.vec)

    s = Scenario("fair-increase", """
No ECN, delay at or above target (9 us and 15 us): fair increase, fi = 5 MSS
per window of ACKed bytes, whatever the delay.""", delay_ewma_x1024=1024)
    s.cut_to(20000)
    for i in range(30):
        s.ack(250, BASE + (9000 if i % 2 else 15000))
    vs.append(s.vec)

    s = Scenario("md-scaled", """
ECN and delay >= target: W x max(1 - 0.8 (avg - target) / avg, 0.5), at
most once per base RTT: a mark 5 us after a cut does not cut again, one
13 us after does, and a larger delay cuts deeper.""", delay_ewma_x1024=1024)
    s.cut_to(12000)          # keep 1 - 0.8 x 3/12 = 0.8
    s.ack(5000, BASE + 12000, ecn=1)    # within a base RTT: no cut
    s.ack(8000, BASE + 30000, ecn=1)    # 13 us after: keep 1 - 0.8 x 21/30 = 0.44 -> 0.5 floor
    s.ack(13000, BASE + 9000, ecn=1)    # delay == target, avg == target: no cut (avg must exceed)
    s.ack(13000, BASE + 10000, ecn=1)   # keep 1 - 0.8 / 10
    vs.append(s.vec)

    s = Scenario("md-floor-and-min", """
Repeated deep cuts (queueing 100 us: the 0.5 floor) once per base RTT until
the window floor (one MTU, 4160 B) holds it; each ACK, a base RTT after the
last, also adds eta (616 B) after the cut. The quick-adapt delay threshold
is raised to 16 x target (144 us) so that only the decrease acts.""",
                 delay_ewma_x1024=1024, qa_threshold_mult=16)
    for _ in range(8):
        s.ack(12001, BASE + 100000, ecn=1)
    assert s.flow.w == s.flow.wmin + s.flow.eta
    vs.append(s.vec)

    s = Scenario("md-average-below-target", """
Default delay EWMA (gain 13/1024): a marked ACK at high delay cuts only when
the average exceeds the target; the first marks see an average far below it
and change nothing.""")
    for _ in range(6):
        s.ack(2000, BASE + 40000, ecn=1)
    vs.append(s.vec)

    s = Scenario("ecn-low-delay", """
ECN with delay below target: no window change; the action asks path
selection to move off the ACK's entropy value (change_ev, ev).""", delay_ewma_x1024=1024)
    s.cut_to(20000)
    for ev in (0xC003, 0xC007, 0xFFFF):
        s.ack(300, BASE + 2000, ecn=1, ev=ev)
    s.ack(300, BASE, ecn=1, ev=0xC000)
    vs.append(s.vec)

    s = Scenario("quick-adapt-nack", """
A NACK (or trim) sets the trigger; the first event after the quick-adapt
period (base RTT + target = 21 us) with little ACKed in it (below
ceiling / 8) sets W to the bytes ACKed in the period. Marked ACKs and NACKs
of packets sent before that are then ignored until the ACKs reach snd_nxt of
the adapt.""")
    s.ack(100, BASE + 500)       # arms the period
    s.ack(5000, BASE + 500)
    s.nack(1000)                 # not due: W -= 4160, trigger set
    s.ack(16000, BASE + 500)     # 22.1 us after arming: adapt to the 2 x 4096 B ACKed since arming
    assert s.flow.w == 2 * 4096
    s.ack(200, BASE + 20000, ecn=1)  # ignored
    s.nack(200)                      # ignored
    for _ in range(17):
        s.ack(200, BASE + 500)   # passes snd_nxt of the adapt
    s.ack(200, BASE + 2000, ecn=1)
    vs.append(s.vec)

    s = Scenario("nack-no-quick-adapt", """
NACKs with plenty ACKed in the period (above ceiling / 8): no quick adapt,
each NACK takes its bytes off the window, down to the floor.""")
    s.ack(100, BASE + 500)
    for _ in range(10):
        s.ack(100, BASE + 500, nbytes=4096)
    s.ack(21000, BASE + 500, nbytes=40000)
    for _ in range(4):
        s.nack(100, nbytes=60000)
    vs.append(s.vec)

    s = Scenario("quick-adapt-on-delay", """
No NACK: a delay above 4 x target (36 us) at a due check adapts as well;
36 us exactly does not.""")
    s.ack(100, BASE + 500)
    s.ack(21001, BASE + 36000)   # due, delay == threshold: no adapt, re-armed
    s.ack(21001, BASE + 36001)   # due, above: adapt
    vs.append(s.vec)

    s = Scenario("batching-bytes-and-period", """
Batching: the increase waits until more than adjust_bytes (here 20000) were
ACKed; eta (0.15 MSS) is added only when a base RTT passed since the period
start. Then sparse ACKs (13 us apart) apply at every ACK with eta.""",
                 delay_ewma_x1024=1024, adjust_bytes=20000)
    s.cut_to(20000)
    for _ in range(6):
        s.ack(100, BASE + 3000)
    for _ in range(4):
        s.ack(13000, BASE + 3000)
    vs.append(s.vec)

    s = Scenario("no-rtt-sample", """
ACKs without an RTT sample (rtt=0) count their bytes (batching, quick adapt)
but pick no case and leave the delay average alone.""", delay_ewma_x1024=1024)
    s.cut_to(20000)
    for _ in range(12):
        s.ack(200, 0)
    s.ack(200, 0, ecn=1)
    vs.append(s.vec)

    s = Scenario("max-clamp", """
At the ceiling (1.5 BDP = 225000 B) increases change nothing; the rate is the
line rate (W / base RTT would be 1.5 x it).""")
    for _ in range(20):
        s.ack(700, BASE + 100)
    assert s.flow.w == s.flow.wmax
    vs.append(s.vec)

    s = Scenario("time-wrap", """
The 32-bit ns clock wraps in the middle: period checks, the decrease guard
and the quick-adapt deadline use wrap-safe differences.""",
                 start=2 ** 32 - 30000, delay_ewma_x1024=1024)
    s.cut_to(20000)
    for _ in range(5):
        s.ack(6000, BASE + 2000)
    s.ack(100, BASE + 20000, ecn=1)
    s.nack(100)
    s.ack(22000, BASE + 500)
    vs.append(s.vec)

    s = Scenario("seq-wrap", """
Sequence numbers wrap across 2^32 while marked ACKs are being ignored after
a quick adapt: the ignore window ends when the ACKs reach snd_nxt of the
adapt, modulo 2^32.""", seq=2 ** 32 - 20 * 4096)
    s.ack(100, BASE + 500)
    s.nack(100)
    s.ack(21500, BASE + 500)
    for _ in range(18):
        s.ack(300, BASE + 1000, ecn=1)
    vs.append(s.vec)

    s = Scenario("scaled-400g", """
400 Gb/s, base RTT 6 us, target 4 us: BDP 300000 B, scale 2 (gains double,
the ceiling is 450000 B).""", line_rate_mbps=400000, base_rtt_ns=6000, target_qdelay_ns=4000,
                 delay_ewma_x1024=1024)
    s.ack(100, 6000 + 12000, ecn=1)
    for _ in range(20):
        s.ack(150, 6000 + 1000)
    for _ in range(10):
        s.ack(150, 6000 + 5000)
    vs.append(s.vec)

    rng = random.Random(15)
    s = Scenario("random-mix", """
A seeded random mix of ACKs (ECN, delays around the target, no sample) and
NACKs over 300 events, delay EWMA gain 1.""", delay_ewma_x1024=1024)
    for _ in range(300):
        if rng.random() < 0.05:
            s.nack(rng.randrange(50, 3000), nbytes=rng.choice((4160, 64)))
        else:
            delay = rng.choice((0, 1000, 5000, 8999, 9000, 12000, 30000, 40000))
            rtt = 0 if rng.random() < 0.05 else BASE + delay
            s.ack(rng.randrange(50, 3000), rtt, ecn=int(rng.random() < 0.3),
                  nbytes=rng.choice((4096, 8192, 512)), ev=rng.randrange(0xC000, 0xC008))
    vs.append(s.vec)

    vs.append(param_error("err-base-rtt-range", "base_rtt_ns", "out_of_range",
                          "base_rtt_ns below 1 us.", base_rtt_ns=999))
    vs.append(param_error("err-target-zero", "target_qdelay_ns", "zero",
                          "target_qdelay_ns 0.", target_qdelay_ns=0))
    vs.append(param_error("err-gamma-range", "gamma_x1024", "out_of_range",
                          "gamma above 1.0 (1024/1024).", gamma_x1024=1025))
    vs.append(param_error("err-ewma-zero", "delay_ewma_x1024", "zero",
                          "A delay EWMA gain of 0 never moves.", delay_ewma_x1024=0))
    vs.append(param_error("err-min-window", "min_window_bytes", "inconsistent",
                          "min_window_bytes above the ceiling (1.5 x 150000 B).", min_window_bytes=225001))
    vs.append(param_error("err-first-field-wins", "target_qdelay_ns", "out_of_range",
                          "Two bad fields: the first in table order is named.",
                          target_qdelay_ns=1000001, qa_gate=32))
    return [write(out_dir, v) for v in vs]
