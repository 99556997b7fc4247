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

from gen import write

import spray_ref
from spray_gen_base import US, WRAP, Scenario, param_error, is_perm
from spray_gen_lb import gen_plb, gen_plb_out_of_range, gen_dlb

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
    rounds: the EV loses exactly its penalty's worth of turns, each going
    to the next EV in index order (the only one penalised is `first`)."""
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
    stream = [s.ports[plain.next_index()] for _ in range(rounds * n)]
    # The first `want_skips` turns of `first` in the plain stream go to the
    # EV after it (index + 1 mod n); the stream is otherwise unchanged.
    i_first = s.index(first)
    left = want_skips
    expect = []
    for p in stream:
        if p == first and left:
            left -= 1
            expect.append(s.ports[(i_first + 1) % n] if n > 1 else first)
            continue
        expect.append(p)
    assert expect == got, name
    return s


def gen_bitmap():
    vs = []
    vs.append(bitmap_penalty("bitmap-ecn-plus1", """
bitmap k = 3: one ECN-marked ACK adds 1 to the EV's penalty: it loses
exactly one turn (to the EV after it), then is used again.""", "ecn").vec)
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
bitmap k = 2: every EV timed out (penalty 15). Each selection's candidate
finds no EV without a penalty, so it is used anyway and its penalty drops
by one; after 15 rounds the penalties run out and the plain order
returns. Penalties then differ per EV (ECN on two of them): a penalised
candidate's turn goes to the next clean EV in index order.""",
                 seed=9, ev_bits=2)
    s.selects(4)
    for i in range(4):
        s.feedback(s.port(i), "timeout")
    s.selects(64)
    s.feedback(s.port(1), "ecn")
    s.feedback(s.port(2), "ecn")
    s.feedback(s.port(2), "ecn")
    s.selects(12)
    vs.append(s.vec)

    s = Scenario("bitmap-k6-all-penalised", "bitmap", """
bitmap k = 6 with all 64 EVs timed out: no EV is clean, so each candidate
is used and decays by one; then NACK penalties of 4 on the even EVs, so
that a penalised candidate's turn goes to the odd EV after it, across the
32-EV word boundary (31 -> 32) and around the end (63 -> 0).""", seed=0xC0FFEE, ev_bits=6)
    s.selects(3)
    for i in range(64):
        s.feedback(s.port(i), "timeout")
    s.selects(20)
    for i in range(64):
        s.feedback(s.port(i), "good")  # good ACKs change no penalty
    s.selects(64 * 15)
    for i in range(0, 64, 2):
        s.feedback(s.port(i), "nack")
    for i in (31, 63):
        s.feedback(s.port(i), "ecn")
    s.selects(64 * 3)
    vs.append(s.vec)

    s = Scenario("bitmap-k6-wrap", "bitmap", """
bitmap k = 6: every EV but 5 penalised (NACK, 4), then 40 and 5: a
penalised candidate's turn goes to the next clean EV after it in index
order, wrapping from 63 to 0 and across the word boundary at 32.""",
                 seed=0x5EED, ev_bits=6)
    s.selects(2)
    for i in range(64):
        if i != 5:
            s.feedback(s.port(i), "nack")
    s.selects(64)
    s.feedback(s.port(40), "timeout")
    s.selects(64 * 2)
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
