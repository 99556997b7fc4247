"""Spray vectors of the load-balancing policies that repath on congestion
rounds: PLB (protective load balancing) and DLB (dynamic load balancing).
Collected by spray_gen.py (gen_spray)."""
import random

from spray_gen_base import Scenario, US, WRAP

# ---------------------------------------------------------------------------
# plb
# ---------------------------------------------------------------------------

class PlbDriver:
    """ACK-clocked sender over a PLB scenario: `window` packets in flight;
    each feedback is followed by a selection (keeps the window full)."""

    def __init__(self, s, window):
        self.s = s
        self.window = window
        self.out = list(s.selects(window, dt=10))

    def rounds(self, marked_per_round, dt=100):
        """One round per entry: `window` feedbacks, the first m marked."""
        for m in marked_per_round:
            for j in range(self.window):
                port = self.out.pop(0)
                kind = "ecn" if j < m else "good"
                self.s.feedback(port, kind, 5000, dt=dt)
                self.out.append(self.s.select(dt=1))


def gen_plb():
    vs = []
    for w in (2, 8):
        s = Scenario(f"plb-repath-12-w{w}", "plb", f"""
plb, window {w} (ACK-clocked, never idle): 12 fully marked rounds of {w}
feedbacks; the repath happens at the close of the 12th exactly (to an EV
uniform over the other 7, from the generator), then 12 more.""", seed=w)
        d = PlbDriver(s, w)
        d.rounds([w] * 11)
        assert s.flow.policy.repaths == 0
        d.rounds([w])
        assert s.flow.policy.repaths == 1
        d.rounds([w] * 12)
        assert s.flow.policy.repaths == 2
        vs.append(s.vec)

    s = Scenario("plb-11-then-clean", "plb", """
11 congested rounds, then a clean one: cong_rounds back to 0, no repath;
then 11 more congested rounds: still none. The 12th repaths.""", seed=3)
    d = PlbDriver(s, 4)
    d.rounds([4] * 11 + [0] + [3] * 11)
    assert s.flow.policy.repaths == 0
    d.rounds([2])
    assert s.flow.policy.repaths == 1
    vs.append(s.vec)

    s = Scenario("plb-threshold-edge", "plb", """
50% threshold at window 8: 4 of 8 marked is congested, 3 of 8 is not (a
3/8 round breaks the run); NACK-free ECN marking.""", seed=4)
    d = PlbDriver(s, 8)
    d.rounds([4] * 6 + [3] + [4] * 11)
    assert s.flow.policy.repaths == 0
    d.rounds([4])
    assert s.flow.policy.repaths == 1
    vs.append(s.vec)

    s = Scenario("plb-thresh-pct-100", "plb", """
plb_cong_thresh_pct 100 and plb_rehash_rounds 2: only fully marked rounds
count; 3 of 4 marked is clean.""", seed=5, plb_rehash_rounds=2,
                 plb_idle_rehash_rounds=0, plb_cong_thresh_pct=100)
    d = PlbDriver(s, 4)
    d.rounds([4, 3, 4, 4, 4, 3, 4, 4])
    assert s.flow.policy.repaths == 2
    vs.append(s.vec)

    s = Scenario("plb-nack-marked", "plb", """
NACKs count as marked: rounds of NACKs (and a mix of NACK + ECN) are
congested; plb_rehash_rounds 3, k = 8, flow label 0xFFFFF (EV 0 = 0xFFC0).""",
                 seed=6, ev_bits=8, flow_label=0xFFFFF, plb_rehash_rounds=3,
                 plb_idle_rehash_rounds=0)
    out = list(s.selects(4))
    for r in range(9):
        for j in range(4):
            s.feedback(out.pop(0), ("nack", "ecn", "good", "nack")[j] if r % 2 else "nack", 3000)
            out.append(s.select())
    assert s.flow.policy.repaths == 3
    vs.append(s.vec)

    s = Scenario("plb-idle-3", "plb", """
Idle rule: a flow that sends 4 packets, gets 4 marked ACKs and goes idle
(nothing in flight when the round closes) repaths after 3 congested rounds,
not 2.""", seed=7)
    for r in range(5):
        ps = s.selects(4)
        for p in ps:
            s.feedback(p, "ecn", 2000)
        assert s.flow.policy.repaths == (1 if r >= 2 else 0)
    vs.append(s.vec)

    s = Scenario("plb-idle-off", "plb", """
plb_idle_rehash_rounds 0 turns the idle rule off: an idle flow needs the
full 12 congested rounds.""", seed=8, plb_idle_rehash_rounds=0)
    for r in range(13):
        ps = s.selects(2)
        for p in ps:
            s.feedback(p, "ecn", 2000)
        assert s.flow.policy.repaths == (1 if r >= 11 else 0)
    s.selects(2)
    vs.append(s.vec)

    s = Scenario("plb-idle-1-single", "plb", """
plb_idle_rehash_rounds 1, plb_rehash_rounds 1, k = 1: one-packet rounds
(a round is at least 1 feedback, even with nothing in flight); every
marked ACK repaths to the other EV, a good one does not; feedback with no
packet in flight still opens a round of 1.""", seed=9, ev_bits=1,
                 plb_rehash_rounds=1, plb_idle_rehash_rounds=1)
    for kind in ("ecn", "good", "nack", "ecn", "good", "good", "ecn"):
        p = s.select()
        s.feedback(p, kind)
    s.feedback(s.port(0), "ecn")
    s.feedback(s.port(1), "ecn")
    s.selects(2)
    vs.append(s.vec)

    s = Scenario("plb-round-window", "plb", """
A round lasts as many feedbacks as were in flight when it opened: 6 sent,
a round of 6 (3 marked, congested) with sends in between that do not
stretch it; the next round opens with the new in-flight count.
plb_rehash_rounds 2, idle off.""", seed=10, plb_rehash_rounds=2, plb_idle_rehash_rounds=0)
    ps = s.selects(6)
    for i in range(3):
        s.feedback(ps[i], "ecn")
        s.select()
    s.selects(2)
    for i in range(3, 6):
        s.feedback(ps[i], "good")
    # 5 in flight now: next round is 5 long.
    for i in range(5):
        s.feedback(s.port(0), "ecn" if i < 2 else "good")
        s.select()
    s.feedback(s.port(0), "ecn")
    for i in range(4):
        s.feedback(s.port(0), "good" if i < 2 else "ecn")
        s.select()
    s.selects(2)
    vs.append(s.vec)

    s = Scenario("plb-suspend", "plb", """
A timeout suspends repaths for plb_suspend_us (500 us here), resets the
count of congested rounds and empties the pipe. Congested rounds inside the
suspension repath nothing; the first qualifying close at or after the end
(1 ns before: not yet) clears it and repaths.""", seed=11, plb_suspend_us=500,
                 plb_rehash_rounds=3, plb_idle_rehash_rounds=0)
    d = PlbDriver(s, 4)
    d.rounds([4] * 2)
    s.feedback(d.out[0], "timeout", at=10 * US)
    d.out = list(s.selects(4, dt=1))
    d.rounds([4] * 2, dt=1000)
    assert s.flow.policy.repaths == 0
    # Third round closes at 10 us + 500 us - 1 ns: still suspended.
    d.rounds([4] * 1, dt=1000)
    assert s.flow.policy.repaths == 0
    # Close the next round exactly at the end.
    for j in range(4):
        port = d.out.pop(0)
        s.feedback(port, "ecn", at=(510 * US if j == 3 else s.t + 1))
        d.out.append(s.select(dt=1))
    assert s.flow.policy.repaths == 1, s.flow.policy.repaths
    d.rounds([4] * 3)
    vs.append(s.vec)

    s = Scenario("plb-suspend-wrap", "plb", """
Suspension (default 1 s) across the 2^32 ns wrap: the timeout comes 0.5 s
before the wrap; congested rounds 1 ns before its end repath nothing; the
round closing exactly 1 s after the timeout repaths. plb_rehash_rounds 2.""",
                 seed=12, start=WRAP - 500 * 1000 * US, plb_rehash_rounds=2,
                 plb_idle_rehash_rounds=0)
    d = PlbDriver(s, 2)
    s.feedback(d.out[0], "timeout", at=1000)
    d.out = list(s.selects(2, dt=1))
    d.rounds([2] * 4, dt=1000)
    # Rounds close up to 1 ns before 1 s after the timeout.
    for j in range(2):
        s.feedback(d.out.pop(0), "ecn", at=1000 + 10 ** 9 - 1)
        d.out.append(s.select(dt=0))
    for j in range(2):
        s.feedback(d.out.pop(0), "ecn", at=1000 + 10 ** 9 - 1)
        d.out.append(s.select(dt=0))
    assert s.flow.policy.repaths == 0
    for j in range(2):
        s.feedback(d.out.pop(0), "ecn", at=1000 + 10 ** 9)
        d.out.append(s.select(dt=0))
    for j in range(2):
        s.feedback(d.out.pop(0), "ecn", at=1000 + 10 ** 9)
        d.out.append(s.select(dt=0))
    assert s.flow.policy.repaths == 1, s.flow.policy.repaths
    vs.append(s.vec)

    s = Scenario("plb-suspend-off", "plb", """
plb_suspend_us 0: a timeout resets the round count but does not suspend;
three more congested rounds (rehash 3) repath at once.""", seed=13,
                 plb_suspend_us=0, plb_rehash_rounds=3, plb_idle_rehash_rounds=0)
    d = PlbDriver(s, 3)
    d.rounds([3] * 2)
    s.feedback(d.out[0], "timeout")
    d.out = list(s.selects(3))
    d.rounds([3] * 3)
    assert s.flow.policy.repaths == 1
    vs.append(s.vec)

    s = Scenario("plb-base-port-k4", "plb", """
plb with explicit base port 0xFFF0 (k = 4): repath targets over 16 EVs
from the generator; feedback on any of the flow's EVs (also a previous one)
counts. plb_rehash_rounds 1, idle off.""", seed=14, ev_bits=4, base_port=0xFFF0,
                 plb_rehash_rounds=1, plb_idle_rehash_rounds=0)
    first = s.select()
    for _ in range(12):
        p = s.select()
        s.feedback(first, "ecn")
        s.feedback(p, "ecn")
    s.selects(2)
    assert s.flow.policy.repaths >= 10
    vs.append(s.vec)
    return vs


def gen_plb_out_of_range():
    """docs/spray.md ("EVs and ports"): "Feedback naming a port outside the
    flow's 2^k ports is ignored." Marked ACKs on 0xC008 / 0xBFFF must neither
    close PLB rounds nor cause a repath."""
    s = Scenario("plb-out-of-range", "plb", """
Feedback on ports outside the flow's 8 EVs is ignored (docs/spray.md, "EVs
and ports"): marked ACKs on 0xC008 and 0xBFFF neither count nor close
rounds; a timeout on 0xC010 does not suspend. plb_rehash_rounds 1, idle off.""",
                 seed=15, plb_rehash_rounds=1, plb_idle_rehash_rounds=0)
    s.selects(2)
    for port in (0xC008, 0xBFFF, 0xC008, 0xBFFF):
        s.feedback(port, "ecn")
        s.select()
    assert s.flow.policy.repaths == 0
    s.feedback(0xC010, "timeout")
    s.feedback(s.port(0), "ecn")
    s.selects(2)
    return s.vec


# ---------------------------------------------------------------------------
# dlb
# ---------------------------------------------------------------------------

def dlb_run(s, n_pkts, mark, rtt_of, rng, dt=200):
    """ACK-clocked: each packet's feedback comes back right after its
    selection. mark(idx) -> probability of ECN; rtt_of(idx) -> ns."""
    for _ in range(n_pkts):
        p = s.select(dt=dt)
        i = s.index(p)
        kind = "ecn" if rng.random() < mark(i) else "good"
        s.feedback(p, kind, rtt_of(i), dt=dt)


def gen_dlb():
    vs = []
    rng = random.Random(501)
    s = Scenario("dlb-converge", "dlb", """
dlb k = 3: the starting EV (from the seed's first output) is fully marked,
one other EV is clean, the rest half marked. Probes (every 16th packet)
measure the others; the flow moves to a cheaper EV as soon as it wins by
the hysteresis, then settles on the clean one and stays.""", seed=1)
    cur0 = s.flow.policy.cur
    clean = (cur0 + 5) % 8
    dlb_run(s, 400, lambda i: 1.0 if i == cur0 else (0.0 if i == clean else 0.5),
            lambda i: 8000, rng)
    assert s.flow.policy.cur == clean, (s.flow.policy.cur, clean)
    vs.append(s.vec)

    s = Scenario("dlb-no-flap", "dlb", """
Equal clean paths with RTT jitter (10 us +- 1 us, in 256-ns points: well
inside the 64-point hysteresis): the flow never moves.""", seed=2)
    cur0 = s.flow.policy.cur
    dlb_run(s, 300, lambda i: 0.0, lambda i: 10000 + rng.randint(-1000, 1000), rng)
    assert s.flow.policy.moves == 0 and s.flow.policy.cur == cur0
    vs.append(s.vec)

    s = Scenario("dlb-hysteresis-edge", "dlb", """
dlb_hysteresis 10, dlb_gain_shift 1, no probes: feedback on another EV
sets it as alt; the move needs cost(alt) + 10 < cost(cur) strictly. RTT
points 100 vs 111 (move) after 100 vs 110 (no move).""", seed=3,
                 dlb_hysteresis=10, dlb_gain_shift=1, dlb_probe_shift=0, dlb_rtt_shift=0)
    cur0 = s.flow.policy.cur
    other = (cur0 + 3) % 8
    s.select()
    s.feedback(s.port(cur0), "good", 110)
    s.feedback(s.port(other), "good", 100)
    s.selects(2)
    assert s.flow.policy.moves == 0
    s.feedback(s.port(cur0), "good", 112)  # EWMA 110 -> 111
    s.selects(2)
    assert s.flow.policy.moves == 1
    vs.append(s.vec)

    s = Scenario("dlb-dwell", "dlb", """
After a move the flow stays on the new EV for dlb_min_dwell (64) feedbacks
on it even when it turns bad, then moves back to the now cheaper EV.
No probes; gain 1/2.""", seed=4, dlb_probe_shift=0, dlb_gain_shift=1)
    a = s.flow.policy.cur
    b = (a + 1) % 8
    s.feedback(s.port(b), "good", 5000)
    for _ in range(3):
        s.feedback(s.port(a), "ecn", 5000)
        s.select()
    assert s.flow.policy.cur == b
    for _ in range(8):
        s.feedback(s.port(a), "good", 5000)
    for i in range(70):
        s.feedback(s.port(b), "ecn", 5000)
        s.select()
    assert s.flow.policy.cur == a, s.flow.policy.moves
    s.selects(2)
    vs.append(s.vec)

    s = Scenario("dlb-timeout-cur", "dlb", """
A timeout on the current EV sets its EWMAs to the maximum and bypasses the
dwell: the flow moves at once to the measured alternative.""", seed=5,
                 dlb_probe_shift=0)
    a = s.flow.policy.cur
    b = (a + 2) % 8
    c = (a + 4) % 8
    s.feedback(s.port(b), "good", 4000)
    for _ in range(20):
        s.feedback(s.port(a), "ecn", 4000)
    s.select()
    assert s.flow.policy.cur == b
    s.feedback(s.port(c), "good", 3000)
    s.feedback(s.port(b), "timeout")
    s.selects(2)
    assert s.flow.policy.cur in (a, c)
    s.feedback(s.port(c), "timeout")
    s.feedback(s.port(s.flow.policy.cur), "timeout")
    s.selects(3)
    vs.append(s.vec)

    s = Scenario("dlb-probes-shift2", "dlb", """
dlb_probe_shift 2: every 4th packet probes the EVs in turn (all 8,
including the current one), starting after the current one; the probe
clock wraps at 256 packets.""", seed=6, dlb_probe_shift=2)
    s.selects(300, dt=10)
    vs.append(s.vec)

    s = Scenario("dlb-probes-shift7", "dlb", """
dlb_probe_shift 7: a probe every 128th packet; k = 4, flow label 0x12345.""",
                 seed=7, dlb_probe_shift=7, ev_bits=4, flow_label=0x12345)
    s.selects(600, dt=10)
    vs.append(s.vec)

    s = Scenario("dlb-rtt-cost", "dlb", """
RTT alone drives the choice: no marks, the current EV's RTT is 60 us, the
others' 20 us; dlb_rtt_shift 10 (1 point per 1024 ns), hysteresis 16,
probes every 8th packet. The flow moves to the first EV that wins by 16
points and stays among the 20 us EVs.""", seed=8, dlb_rtt_shift=10,
                 dlb_hysteresis=16, dlb_probe_shift=3)
    cur0 = s.flow.policy.cur
    dlb_run(s, 200, lambda i: 0.0, lambda i: 60000 if i == cur0 else 20000, rng)
    assert s.flow.policy.cur != cur0 and s.flow.policy.moves == 1
    vs.append(s.vec)

    s = Scenario("dlb-rtt-clamp", "dlb", """
RTT samples clamp at 65535 points (rtt_shift 0, RTT 100 ms) and at least
1 point (rtt_shift 16, RTT 1 us); rtt 0 is no sample. NACKs weigh as ECN.""",
                 seed=9, dlb_probe_shift=1, dlb_hysteresis=0)
    for rtt, kind in ((0, "good"), (1000, "nack"), (100000000, "good"), (0, "nack"),
                      (3000, "good"), (1, "ecn")) * 6:
        p = s.select()
        s.feedback(p, kind, rtt)
    vs.append(s.vec)

    s = Scenario("dlb-rtt-min-point", "dlb", """
An RTT sample below one point still counts 1 point (rtt_shift 16: 1 us ->
0 -> 1): with hysteresis 0 the current EV (cost 1) loses to an EV measured
without an RTT sample (cost 0), and the flow moves.""", seed=12,
                 dlb_rtt_shift=16, dlb_hysteresis=0, dlb_probe_shift=0)
    a = s.flow.policy.cur
    b = (a + 1) % 8
    s.select()
    s.feedback(s.port(a), "good", 1000)
    s.select()
    s.feedback(s.port(b), "good", 0)
    s.selects(2)
    assert s.flow.policy.cur == b
    vs.append(s.vec)

    s = Scenario("dlb-k0", "dlb", """
dlb k = 0: one EV; probes and moves have nowhere to go.""", seed=10, ev_bits=0)
    for kind in ("ecn", "timeout", "good", "nack") * 5:
        p = s.select()
        s.feedback(p, kind, 9000)
    vs.append(s.vec)

    s = Scenario("dlb-out-of-range", "dlb", """
dlb k = 2 at base port 0xC004 (EVs 0xC004..0xC007): feedback on 0xC003,
0xC008 and 0xC000 is ignored (it cannot make an EV the alternative nor
move the flow); in-range feedback does.""", seed=11, ev_bits=2, base_port=0xC004,
                 dlb_probe_shift=0, dlb_hysteresis=0)
    a = s.flow.policy.cur
    for port in (0xC003, 0xC008, 0xC000):
        s.feedback(port, "good", 1000)
    for _ in range(4):
        s.feedback(s.port(a), "ecn", 1000)
        s.select()
    assert s.flow.policy.moves == 0
    s.feedback(s.port((a + 1) % 4), "good", 1000)
    s.selects(2)
    assert s.flow.policy.moves == 1
    vs.append(s.vec)
    return vs


# ---------------------------------------------------------------------------
# Parameter errors
# ---------------------------------------------------------------------------
