"""Spray conformance vectors: scenarios for every policy of docs/spray.md,
with the expected EV of every selection taken from spray_ref.py.

    python3 testvectors/ref/gen.py --only spray

The runner (testvectors/runner/executor.cc) starts each flow from
spray::Params::Defaults(profile, ev_bits = 3, flow_label = 0), applies the
`param` lines, seeds the flow with `seed`, and checks `ev` and `flags`
(use_ev) after every `select`, and `flags none` after every `feedback`.
Only selections are observable, so every scenario follows a state change
with the selections that reveal it.
"""
import random

from gen import Vector, write, flags_text

import spray_ref

# Instructions per event (x86-64, -O2, GCC 12.2.0, Release build of this
# tree), promised by every spray vector of a policy and checked under
# callgrind: `nicc-vectors --icount` under valgrind, then `--check-icount`.
# As counted by the runner: the dispatching spray::Select()/OnFeedback()
# plus the runner's measured lambda (about 30 instructions even for ecmp,
# whose own work is a load and a XOR). Measured worst over this generator's
# vectors, per policy (2026-12-02), then about +30% headroom, rounded up:
#
#   policy   worst select  worst feedback  ->  bound select  bound feedback
#   ecmp           33             40               45             55
#   ops            80             40              105             55
#   bitmap       2947             71             3850             95
#   reps           74            291              100            380
#   plb            39            108               55            145
#   dlb            46            134               60            175
#
# Where the worst comes from: bitmap select, k = 6 with all 64 EVs penalised
# (64 candidates walked; bitmap-k6-all-penalised; a selection skipping a few
# costs up to 251); reps feedback, a timeout walking a full ring of 8
# (reps-timeout-full-ring); reps select, a frozen/thawing replay; plb
# feedback, a round close that repaths (after a suspension check); dlb
# feedback, both EWMAs with an RTT sample and a move; ops select, a round
# start (k = 8).
BOUNDS = {
    "ecmp": (45, 55),
    "ops": (105, 55),
    "bitmap": (3850, 95),
    "reps": (100, 380),
    "plb": (55, 145),
    "dlb": (60, 175),
}

US = 1000
WRAP = 2 ** 32


class Scenario:
    """One spray vector: a model flow and the vector text, built together.
    Times are relative to `start`; `self.t` is the running clock."""

    def __init__(self, name, policy, comment, seed=1, start=0, **overrides):
        self.p = spray_ref.params(policy, **overrides)
        self.flow = spray_ref.Flow(self.p, seed)
        self.vec = Vector("spray", "spray/" + name, policy, comment)
        for k, v in overrides.items():
            self.vec.add(f"param {k} {v}")
        self.vec.add(f"seed {seed}")
        sel, fb = BOUNDS[policy]
        self.vec.add(f"bound select {sel}")
        self.vec.add(f"bound feedback {fb}")
        self.start = start
        self.t = 0
        self.ports = self.flow.ports
        self.selected = []

    def port(self, i):
        return self.ports[i]

    def index(self, port):
        return self.ports.index(port)

    def _advance(self, at, dt):
        if at is not None:
            assert at >= self.t, (at, self.t)
            self.t = at
        else:
            self.t += dt

    def select(self, at=None, dt=100):
        """A selection; returns the port the model expects."""
        self._advance(at, dt)
        port = self.flow.select(self.start + self.t)
        self.vec.add(f"at {self.start + self.t} select")
        self.vec.add(f"expect ev {port}")
        self.vec.add(f"expect flags {flags_text({'use_ev'})}")
        self.selected.append(port)
        return port

    def selects(self, n, **kw):
        return [self.select(**kw) for _ in range(n)]

    def feedback(self, port, kind, rtt=0, at=None, dt=100):
        self._advance(at, dt)
        self.flow.feedback(port, kind, rtt, self.start + self.t)
        self.vec.add(f"at {self.start + self.t} feedback ev={port} kind={kind} rtt={rtt}")
        self.vec.add(f"expect flags {flags_text(set())}")

    def note(self, text):
        self.vec.add("# " + text)


def param_error(name, policy, field, code, comment, **overrides):
    p = spray_ref.params(policy, **overrides)
    got = spray_ref.validate(p)
    assert got == (field, code), (name, got)
    vec = Vector("spray", "spray/" + name, policy, comment)
    for k, v in overrides.items():
        vec.add(f"param {k} {v}")
    vec.add(f"expect-status {field} {code}")
    return vec


def is_perm(xs, n):
    return sorted(xs) == list(range(n))


# ---------------------------------------------------------------------------
# ecmp
# ---------------------------------------------------------------------------

def gen_ecmp():
    vs = []
    s = Scenario("ecmp-fixed", "ecmp", """
ecmp, defaults (k = 3, flow label 0): every selection is EV 0, port 0xC000
(49152), whatever feedback comes back.""")
    s.selects(4)
    for kind in spray_ref.FEEDBACK_KINDS:
        s.feedback(0xC000, kind, 5000)
        s.select()
        s.feedback(0xC003, kind, 5000)
        s.select()
    s.feedback(0x1234, "timeout")
    s.selects(3)
    assert set(s.selected) == {0xC000}
    vs.append(s.vec)

    s = Scenario("ecmp-flow-label", "ecmp", """
ecmp with flow label 0xABCDE and k = 8: the flow's own RoCEv2 port,
0xC000 | (0x0BCDE ^ 0x2A) = 0xFCF4 (64756).""", ev_bits=8, flow_label=0xABCDE)
    s.selects(6)
    s.feedback(0xFCF4, "ecn")
    s.selects(2)
    assert set(s.selected) == {0xFCF4}
    vs.append(s.vec)

    s = Scenario("ecmp-base-port", "ecmp", """
ecmp with an explicit base port 0xD008 (k = 3, aligned): EV 0 is 0xD008.""",
                 base_port=0xD008)
    s.selects(3)
    s.feedback(0xD009, "nack")
    s.selects(2)
    assert set(s.selected) == {0xD008}
    vs.append(s.vec)

    s = Scenario("ecmp-k0-fl-fold", "ecmp", """
ecmp, k = 0, flow label 0xFC000: fl[19:14] = 0x3F folds into the port,
0xC03F.""", ev_bits=0, flow_label=0xFC000)
    s.selects(3)
    assert set(s.selected) == {0xC03F}
    vs.append(s.vec)
    return vs


# ---------------------------------------------------------------------------
# ops
# ---------------------------------------------------------------------------

def ops_rounds(name, comment, k, seed, rounds, **kw):
    s = Scenario(name, "ops", comment, seed=seed, ev_bits=k, **kw)
    n = 2 ** k
    prev = None
    for r in range(rounds):
        s.note(f"round {r + 1}")
        ports = s.selects(n)
        idx = [s.index(p) for p in ports]
        assert is_perm(idx, n), (name, idx)
        if prev is not None and k >= 1:
            assert idx != prev, (name, r)
        prev = idx
    return s


def gen_ops():
    vs = []
    vs.append(ops_rounds("ops-k3-seed1", """
ops k = 3, seed 1: the known-answer rounds of docs/spray.md,
5 4 7 6 0 1 2 3 / 7 6 0 1 2 3 5 4 / 1 5 6 2 4 0 3 7, then more rounds.
Each round is a permutation; consecutive rounds differ.""", 3, 1, 12).vec)
    s = ops_rounds("ops-k4-c0ffee", """
ops k = 4, seed 0xC0FFEE: the known-answer rounds of docs/spray.md.""", 4, 0xC0FFEE, 4)
    vs.append(s.vec)
    vs.append(ops_rounds("ops-k1", """
ops k = 1: rounds of two EVs; the (mul, add) nudge makes consecutive rounds
differ (0 1 / 1 0 alternation driven by the generator).""", 1, 7, 40).vec)
    vs.append(ops_rounds("ops-k8", """
ops k = 8, seed 99: three rounds of 256, each a permutation, all different;
flow label 0x12345 (EV 0 = 0xE341).""", 8, 99, 3, flow_label=0x12345).vec)
    vs.append(ops_rounds("ops-k0", """
ops k = 0: one EV; a round per packet.""", 0, 5, 6).vec)
    s = ops_rounds("ops-feedback-ignored", """
ops is oblivious: feedback of every kind (on its EVs and elsewhere) leaves
the sequence unchanged. k = 3, seed 0 (the generator's zero-seed state).""", 3, 0, 2)
    for i, kind in enumerate(spray_ref.FEEDBACK_KINDS * 2):
        s.feedback(s.selected[i], kind, 1000 * i)
        s.select()
        s.feedback(0xBFFF, kind)
    s.selects(8)
    vs.append(s.vec)
    s = ops_rounds("ops-base-port-k5", """
ops k = 5 with explicit base port 0xE020 (aligned to 32): EV i is
0xE020 + i.""", 5, 0x12345678, 3, base_port=0xE020)
    assert all(0xE020 <= p < 0xE040 for p in s.selected)
    vs.append(s.vec)
    return vs


# ---------------------------------------------------------------------------
# bitmap
# ---------------------------------------------------------------------------

def bitmap_penalty(name, comment, kind, times=1, seed=3, rounds=5, **kw):
    """Penalise the first EV of round 1 `times` times with `kind`, then run
    rounds: the EV loses exactly its penalty's worth of turns."""
    s = Scenario(name, "bitmap", comment, seed=seed, **kw)
    n = len(s.ports)
    first = s.select()
    s.selects(n - 1)
    for _ in range(times):
        s.feedback(first, kind, 3000)
    # Shadow: the same ops stream without penalties.
    plain = spray_ref.Ops(s.p, seed)
    [plain.next_index() for _ in range(n)]
    want_skips = min({"ecn": s.p["bitmap_ecn_penalty"], "nack": s.p["bitmap_nack_penalty"],
                      "timeout": 15, "good": 0}[kind] * (times if kind != "timeout" else 1), 15)
    got = s.selects(rounds * n)
    stream = [s.ports[plain.next_index()] for _ in range(rounds * n + want_skips)]
    # Removing the first `want_skips` occurrences of `first` from the plain
    # stream gives the bitmap stream.
    left = want_skips
    expect = []
    for p in stream:
        if p == first and left:
            left -= 1
            continue
        expect.append(p)
    assert expect[:len(got)] == got, name
    return s


def gen_bitmap():
    vs = []
    vs.append(bitmap_penalty("bitmap-ecn-plus1", """
bitmap k = 3: one ECN-marked ACK adds 1 to the EV's penalty: it skips
exactly one turn, then is used again.""", "ecn").vec)
    vs.append(bitmap_penalty("bitmap-ecn-x3", """
Three ECN marks: penalty 3, three skipped turns.""", "ecn", times=3).vec)
    vs.append(bitmap_penalty("bitmap-nack-plus4", """
A NACK adds 4: the EV sits out four turns (four rounds).""", "nack", rounds=6).vec)
    vs.append(bitmap_penalty("bitmap-timeout-max", """
A timeout sets the penalty to 15: fifteen skipped turns.""", "timeout", rounds=17).vec)
    vs.append(bitmap_penalty("bitmap-nack-saturate", """
Five NACKs (+4 each) saturate at 15, not 20.""", "nack", times=5, rounds=17).vec)
    vs.append(bitmap_penalty("bitmap-good-nothing", """
Good ACKs add nothing: the plain ops stream.""", "good", times=4, rounds=2).vec)
    vs.append(bitmap_penalty("bitmap-custom-penalties", """
bitmap_ecn_penalty 3 and bitmap_nack_penalty 0: an ECN costs three turns,
a NACK none.""", "ecn", rounds=4, bitmap_ecn_penalty=3, bitmap_nack_penalty=0).vec)

    s = Scenario("bitmap-nack-zero", "bitmap", """
bitmap_nack_penalty 0: NACKs never skip an EV.""", seed=4, bitmap_nack_penalty=0)
    for p in s.selects(8):
        s.feedback(p, "nack")
    s.selects(16)
    vs.append(s.vec)

    s = Scenario("bitmap-all-penalised", "bitmap", """
bitmap k = 2: every EV timed out (penalty 15). Each selection tries a whole
round of 4 penalised candidates, decays each by one and uses the last one
anyway; after 15 - 15/4 rounds' worth the penalties run out and the plain
order returns. Penalties then differ per EV (ECN on two of them).""",
                 seed=9, ev_bits=2)
    s.selects(4)
    for i in range(4):
        s.feedback(s.port(i), "timeout")
    s.selects(12)
    s.feedback(s.port(1), "ecn")
    s.feedback(s.port(2), "ecn")
    s.feedback(s.port(2), "ecn")
    s.selects(12)
    vs.append(s.vec)

    s = Scenario("bitmap-k6-all-penalised", "bitmap", """
bitmap's worst case (the instruction bound): k = 6 and all 64 EVs timed out,
so a selection walks 64 penalised candidates (every one decays by one) and
uses the last; then NACK penalties of 4 on half of them.""", seed=0xC0FFEE, ev_bits=6)
    s.selects(3)
    for i in range(64):
        s.feedback(s.port(i), "timeout")
    s.selects(20)
    for i in range(0, 64, 2):
        s.feedback(s.port(i), "nack")
    s.selects(64 * 3)
    vs.append(s.vec)

    s = Scenario("bitmap-k0-fallback", "bitmap", """
bitmap k = 0: the only EV, penalised, is used anyway (its penalty still
decays by one per selection).""", ev_bits=0, seed=2)
    s.select()
    s.feedback(s.port(0), "nack")
    s.selects(6)
    vs.append(s.vec)

    s = Scenario("bitmap-k6-mixed", "bitmap", """
bitmap k = 6 (its maximum, 64 EVs), flow label 0x03FFF (EV 0 = 0xFFFF, EV i
= 0xFFFF ^ i): penalties of every kind on several EVs, decaying while the
rounds go on; feedback on ports outside the flow's range is ignored.""",
                 seed=0xBEEF, ev_bits=6, flow_label=0x3FFF)
    first = s.selects(64)
    for j, kind in enumerate(["ecn", "nack", "timeout", "ecn", "ecn", "nack", "good"] * 3):
        s.feedback(first[j * 3], kind, 2000)
    for out in (0xFFBF, 0xC000, 0x0001):
        s.feedback(out, "timeout")
    s.selects(64 * 4)
    vs.append(s.vec)

    s = Scenario("bitmap-base-port-k4", "bitmap", """
bitmap k = 4, explicit base port 0xF000: penalties addressed by port
0xF000 + i; 0xF010 (one past the range) is ignored.""", seed=77, ev_bits=4,
                 base_port=0xF000)
    s.selects(16)
    s.feedback(0xF003, "nack")
    s.feedback(0xF00F, "timeout")
    s.feedback(0xF010, "timeout")
    s.feedback(0xEFFF, "timeout")
    s.selects(16 * 5)
    vs.append(s.vec)
    return vs


# ---------------------------------------------------------------------------
# reps
# ---------------------------------------------------------------------------

def gen_reps():
    vs = []
    s = Scenario("reps-explore", "reps", """
reps with an empty cache explores: index = (step(x) >> 24) & mask. Seed 1,
k = 3: the generator's top bytes 0x51, 0xE0, 0x7B, 0x01 give EVs 1, 0, 3,
1. ECN and NACK feedback caches nothing, so exploration goes on.""")
    got = s.selects(4)
    assert [s.index(p) for p in got] == [1, 0, 3, 1]
    s.feedback(got[0], "ecn")
    s.feedback(got[1], "nack")
    s.selects(4)
    vs.append(s.vec)

    s = Scenario("reps-recycle", "reps", """
Clean ACKs are recycled in FIFO order, one send each (reps_max_reuse 1);
marked ones are dropped; when the cache runs dry exploration resumes.""",
                 seed=21, ev_bits=4)
    ps = s.selects(6)
    s.feedback(ps[0], "good", 4000)
    s.feedback(ps[1], "ecn", 4000)
    s.feedback(ps[2], "good", 4000)
    s.feedback(ps[3], "nack", 4000)
    s.feedback(ps[4], "good", 4000)
    got = s.selects(3)
    assert got == [ps[0], ps[2], ps[4]]
    s.selects(3)
    vs.append(s.vec)

    s = Scenario("reps-ring-full", "reps", """
Eleven clean ACKs into the 8-entry ring: the three oldest are overwritten;
the eight newest come back in order, then exploration.""", seed=5, ev_bits=8,
                 flow_label=0x12345)
    ps = s.selects(11)
    for p in ps:
        s.feedback(p, "good")
    got = s.selects(10)
    assert got[:8] == ps[3:]
    vs.append(s.vec)

    s = Scenario("reps-max-reuse-3", "reps", """
reps_max_reuse 3: a clean EV is sent three times (round-robin with the
other cached EVs), interleaved with new clean ACKs that join at the back.""",
                 seed=8, reps_max_reuse=3)
    ps = s.selects(3)
    s.feedback(ps[0], "good")
    s.feedback(ps[1], "good")
    s.selects(3)
    s.feedback(ps[2], "good")
    s.selects(6)
    vs.append(s.vec)

    s = Scenario("reps-max-reuse-2-full", "reps", """
reps_max_reuse 2 with a full ring: entries carry their remaining credit
when moved to the back; a new clean ACK on a full ring drops the oldest.""",
                 seed=13, reps_max_reuse=2, ev_bits=5)
    ps = s.selects(8)
    for p in ps:
        s.feedback(p, "good")
    s.selects(3)
    s.feedback(ps[0], "good")
    s.selects(20)
    vs.append(s.vec)

    s = Scenario("reps-freeze", "reps", """
A timeout purges the EV (every copy) and freezes for reps_freeze_us = 100 us:
the cached EVs are replayed without spending credit; 1 ns before the exit
time still frozen, the first selection at the exit time thaws, then the ring
is spent and exploration resumes.""", seed=31)
    ps = s.selects(5, dt=10)
    for p in ps:
        s.feedback(p, "good", 3000, dt=10)
    t0 = s.t + 1000
    s.feedback(ps[1], "timeout", at=t0)
    for _ in range(12):
        s.select(dt=1000)
    s.select(at=t0 + 100 * US - 1)
    s.select(at=t0 + 100 * US)
    s.selects(8, dt=10)
    vs.append(s.vec)

    for name, t_to in (("reps-freeze-wrap", WRAP - 60 * US), ("reps-freeze-wrap-late", WRAP - 5)):
        s = Scenario(name, "reps", f"""
Freeze across the 2^32 ns wrap: the timeout at {t_to} ({WRAP - t_to} ns before
the wrap) sets the exit time {t_to + 100 * US} (low 32 bits
{(t_to + 100 * US) % WRAP}); still frozen 1 ns before it, thawed at it.""",
                     seed=44, start=t_to - 10 * US)
        ps = s.selects(4, dt=10)
        for p in ps:
            s.feedback(p, "good", dt=10)
        t0 = 10 * US
        s.feedback(ps[0], "timeout", at=t0)
        s.selects(3, dt=7 * US)
        s.select(at=t0 + 100 * US - 1)
        s.select(at=t0 + 100 * US)
        s.selects(5)
        vs.append(s.vec)

    s = Scenario("reps-freeze-extend", "reps", """
A second timeout during a freeze extends it to its own time + 100 us; the
original exit time passes still frozen.""", seed=55, ev_bits=4)
    ps = s.selects(6, dt=10)
    for p in ps:
        s.feedback(p, "good", dt=10)
    s.feedback(ps[0], "timeout", at=1000)
    s.feedback(ps[5], "timeout", at=51000)
    s.select(at=101000)
    s.select(at=150999)
    s.select(at=151000)
    s.selects(6)
    vs.append(s.vec)

    s = Scenario("reps-freeze-off", "reps", """
reps_freeze_us 0: a timeout purges the EV but never freezes; credits are
spent as usual.""", seed=66, reps_freeze_us=0)
    ps = s.selects(4)
    for p in ps + ps:
        s.feedback(p, "good")
    s.feedback(ps[2], "timeout")
    s.selects(10)
    vs.append(s.vec)

    s = Scenario("reps-freeze-empty", "reps", """
Frozen with an empty ring (the timeout purged the only cached EV): the
flow explores even while frozen; a clean ACK then is replayed until the
exit time (reps_freeze_us 2147483, the maximum).""", seed=77, reps_freeze_us=2147483)
    p = s.select()
    s.feedback(p, "good")
    s.feedback(p, "timeout", at=1000)
    s.selects(4)
    q = s.select()
    s.feedback(q, "good")
    s.selects(5)
    s.select(at=1000 + 2147483000 - 1)
    s.select(at=1000 + 2147483000)
    s.selects(3)
    vs.append(s.vec)

    s = Scenario("reps-purge-order", "reps", """
The timeout purges every copy of its EV (here cached three times, reuse 3)
and keeps the others in order with their credit.""", seed=88, reps_max_reuse=3,
                 reps_freeze_us=0, ev_bits=2)
    a, b = s.port(1), s.port(2)
    for p in (a, b, a, b, a, s.port(3), a):
        s.feedback(p, "good")
    s.select()
    s.feedback(a, "timeout")
    s.selects(12)
    vs.append(s.vec)

    s = Scenario("reps-timeout-full-ring", "reps", """
reps' worst feedback (the instruction bound): a timeout on an EV that is not
cached walks a full ring of 8 and keeps every entry, then freezes; the
replay goes round the 8 without spending credit; then a timeout that
purges two copies out of the middle.""", seed=3, ev_bits=4, reps_max_reuse=2)
    for i in (1, 2, 3, 4, 5, 6, 7, 3):
        s.feedback(s.port(i), "good", dt=10)
    s.feedback(s.port(9), "timeout", at=1000)
    s.selects(10)
    s.feedback(s.port(3), "timeout", at=2000)
    s.selects(8)
    s.select(at=102000)
    s.selects(14)
    vs.append(s.vec)

    s = Scenario("reps-out-of-range", "reps", """
Feedback naming ports outside the flow's 8 (base port 0xC008 + 0..7) is
ignored: no caching, no purge, no freeze.""", seed=99, base_port=0xC008)
    ps = s.selects(3)
    s.feedback(ps[0], "good")
    s.feedback(0xC007, "good")
    s.feedback(0xC010, "good")
    s.feedback(0xC010, "timeout", at=1000)
    s.selects(3)
    s.feedback(ps[1], "good")
    s.feedback(0x0000, "timeout")
    s.selects(3)
    vs.append(s.vec)
    return vs


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

def gen_errors():
    E = param_error
    return [
        E("err-ev-bits-range", "ops", "ev_bits", "out_of_range", "k = 9: more than 256 EVs.", ev_bits=9),
        E("err-bitmap-ev-bits", "bitmap", "ev_bits", "unsupported",
          "bitmap holds 4-bit penalties for at most 64 EVs (k <= 6).", ev_bits=7),
        E("err-dlb-ev-bits", "dlb", "ev_bits", "unsupported", "dlb keeps EWMAs for at most 16 EVs.",
          ev_bits=5),
        E("err-flow-label-range", "ecmp", "flow_label", "out_of_range", "A 21-bit flow label.",
          flow_label=0x100000),
        E("err-base-port-low", "ops", "base_port", "out_of_range", "Base port below 0xC000.",
          base_port=0xBFF8),
        E("err-base-port-high", "ops", "base_port", "out_of_range", "Base port above 0xFFFF.",
          base_port=0x10000),
        E("err-base-port-misaligned", "reps", "base_port", "inconsistent",
          "Base port 0xC004 not a multiple of 2^k = 8.", base_port=0xC004),
        E("err-bitmap-ecn-penalty", "bitmap", "bitmap_ecn_penalty", "out_of_range",
          "A 4-bit penalty holds at most 15.", bitmap_ecn_penalty=16),
        E("err-bitmap-nack-penalty", "bitmap", "bitmap_nack_penalty", "out_of_range",
          "A 4-bit penalty holds at most 15.", bitmap_nack_penalty=16),
        E("err-reps-reuse-zero", "reps", "reps_max_reuse", "zero", "No sends per clean ACK.",
          reps_max_reuse=0),
        E("err-reps-reuse-range", "reps", "reps_max_reuse", "out_of_range", "2-bit credit: at most 3.",
          reps_max_reuse=4),
        E("err-reps-freeze-range", "reps", "reps_freeze_us", "out_of_range",
          "Freeze longer than the 2^31 ns horizon.", reps_freeze_us=2147484),
        E("err-plb-rounds-zero", "plb", "plb_rehash_rounds", "zero", "No rounds.", plb_rehash_rounds=0,
          plb_idle_rehash_rounds=0),
        E("err-plb-rounds-range", "plb", "plb_rehash_rounds", "out_of_range", "256 rounds.",
          plb_rehash_rounds=256),
        E("err-plb-idle-over-rounds", "plb", "plb_idle_rehash_rounds", "inconsistent",
          "Idle rounds above rounds.", plb_rehash_rounds=4, plb_idle_rehash_rounds=5),
        E("err-plb-thresh-zero", "plb", "plb_cong_thresh_pct", "zero", "A 0% threshold.",
          plb_cong_thresh_pct=0),
        E("err-plb-thresh-range", "plb", "plb_cong_thresh_pct", "out_of_range", "101%.",
          plb_cong_thresh_pct=101),
        E("err-plb-suspend-range", "plb", "plb_suspend_us", "out_of_range",
          "Suspension beyond the 2^31 ns horizon.", plb_suspend_us=2147484),
        E("err-dlb-gain-zero", "dlb", "dlb_gain_shift", "zero", "EWMA gain 1.", dlb_gain_shift=0),
        E("err-dlb-gain-range", "dlb", "dlb_gain_shift", "out_of_range", "EWMA gain 1/256.",
          dlb_gain_shift=8),
        E("err-dlb-rtt-shift-range", "dlb", "dlb_rtt_shift", "out_of_range", "2^17 ns per point.",
          dlb_rtt_shift=17),
        E("err-dlb-hysteresis-range", "dlb", "dlb_hysteresis", "out_of_range", "Beyond 16 bits.",
          dlb_hysteresis=65536),
        E("err-dlb-probe-range", "dlb", "dlb_probe_shift", "out_of_range", "Probe every 256th.",
          dlb_probe_shift=8),
        E("err-first-field-wins", "ecmp", "flow_label", "out_of_range",
          "Several bad fields: the first in table order is named (flow_label before base_port "
          "and the plb fields).", flow_label=0x200000, base_port=0xC001, plb_rehash_rounds=0),
    ]


# ---------------------------------------------------------------------------
# Long random runs
# ---------------------------------------------------------------------------

def random_run(name, policy, seed, n_events, start=1000, bad_share=0.3, change=0.002, foreign=True,
               bad_loss=0.02, base_loss=0.0005, **overrides):
    """A sender with a window of packets in flight over 2^k paths whose
    quality changes over time: per path a marking probability, a NACK and a
    loss probability and a base RTT; lost packets time out later; some
    feedback names ports outside the flow's range. Seeded, so repeatable."""
    rng = random.Random(seed)
    s = Scenario(name, policy, f"""
Random run of {policy}, seed {seed}, {n_events} events: windowed sender,
paths whose marking / NACK / loss / RTT change now and then, timeouts for
lost packets, some feedback for foreign ports.""", seed=seed, start=start, **overrides)
    n = len(s.ports)
    lo, hi = min(s.ports), max(s.ports)

    def new_path():
        bad = rng.random() < bad_share
        return dict(mark=rng.uniform(0.3, 1.0) if bad else rng.uniform(0.0, 0.05),
                    nack=rng.uniform(0.0, 0.1) if bad else 0.0,
                    loss=rng.uniform(0.0, bad_loss) if bad else base_loss,
                    rtt=rng.randint(3000, 40000 if bad else 12000))
    paths = [new_path() for _ in range(n)]
    window = rng.choice([1, 2, 4, 8, 16])
    out = []   # (send time, port, lost)
    events = 0
    while events < n_events:
        if rng.random() < change:
            paths[rng.randrange(n)] = new_path()
        if rng.random() < 0.003:
            window = rng.choice([1, 2, 4, 8, 16, 32])
        if len(out) < window and rng.random() < 0.8:
            port = s.select(dt=rng.randint(1, 3000))
            i = s.index(port)
            out.append((s.t, port, rng.random() < paths[i]["loss"]))
            events += 1
            continue
        if not out:
            s.select(dt=rng.randint(1, 3000))
            events += 1
            continue
        r = rng.random()
        if r < 0.01 and foreign:
            fport = rng.choice([lo - 1 - rng.randrange(64), hi + 1 + rng.randrange(64)])
            if fport < 0 or fport > 0xFFFF or lo <= fport <= hi:
                fport = 0x1234
            s.feedback(fport, rng.choice(spray_ref.FEEDBACK_KINDS), rng.randint(0, 50000),
                       dt=rng.randint(0, 2000))
            events += 1
            continue
        j = 0 if r < 0.9 else rng.randrange(len(out))
        t_sent, port, lost = out.pop(j)
        i = s.index(port)
        path = paths[i]
        if lost:
            kind, rtt = "timeout", 0
            dt = rng.randint(1000, 120000)
        else:
            q = rng.random()
            kind = "nack" if q < path["nack"] else ("ecn" if q < path["nack"] + path["mark"] else "good")
            rtt = 0 if rng.random() < 0.05 else path["rtt"] + rng.randint(0, path["rtt"] // 4)
            dt = rng.randint(0, 2000)
        s.feedback(port, kind, rtt, dt=dt)
        events += 1
    return s


def gen_random():
    runs = [
        random_run("random-bitmap", "bitmap", 1001, 10000, ev_bits=4),
        random_run("random-bitmap-k2-lossy", "bitmap", 1007, 10000, ev_bits=2, bad_share=0.6,
                   bad_loss=0.1, bitmap_ecn_penalty=2),
        random_run("random-reps", "reps", 1002, 10000, ev_bits=5, reps_max_reuse=2,
                   reps_freeze_us=40, start=WRAP - 8 * 10 ** 6),
        random_run("random-reps-lossy", "reps", 1006, 10000, reps_max_reuse=3, reps_freeze_us=20,
                   bad_share=0.5, bad_loss=0.2, base_loss=0.01),
        random_run("random-plb", "plb", 1003, 10000, plb_suspend_us=300, plb_rehash_rounds=6,
                   plb_idle_rehash_rounds=2, start=WRAP - 8 * 10 ** 6,
                   bad_share=0.6, change=0.005),
        random_run("random-dlb", "dlb", 1004, 10000, ev_bits=4, dlb_hysteresis=32),
    ]
    return [s.vec for s in runs]


def gen_spray(out_dir):
    spray_ref.self_test()
    vs = gen_ecmp() + gen_ops() + gen_bitmap() + gen_reps() + gen_plb() + [gen_plb_out_of_range()]
    vs += gen_dlb() + gen_errors() + gen_random()
    names = [v.name for v in vs]
    assert len(names) == len(set(names)), "duplicate vector names"
    return [write(out_dir, v) for v in vs]
