"""Sprayed-HPCC conformance vectors (imported by gen.py).

    python3 testvectors/ref/gen.py --only hpcc-spray

Each scenario is a stream of ACKs, each on one entropy value (EV) whose
path has its own switch counters (hpcc_gen.Path); the reference model
(hpcc_spray_ref.py) gives the expected outputs. As for HPCC, events stay
NEAR_TIE away from the model's discrete decisions.
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import hpcc_ref  # noqa: E402
import hpcc_spray_ref  # noqa: E402
from gen import Vector, flags_text  # noqa: E402
from hpcc_gen import NEAR_TIE, RATE_TOL, U_TOL, WIN_TOL, Path  # noqa: E402

US = 1000
# Instructions per `ack` event (x86-64, DecodeIntStack + hpcc_spray::OnAck),
# by the largest hop count a vector uses. Measured worst event per class of
# vector (Release nicc-vectors, GCC 12, callgrind, 2026-12-03, after the
# issue 17 cost work; before it 426 / 505 / 602): 2 hops (wrap) 414, 3 hops
# (max-combination) 489, 5 hops (the random runs, 1-5 hops, up to 6 EVs)
# 586; 1-hop events inside them cost up to 366. Bounds about +10%; 0-1 and
# 4 hops (no vector of their own) from the 1-hop events and between 3 and 5.
# With the per-hop delta bound (hpcc::kMaxHopDeltaNs, 2026-12-06): 416 / 492
# / 591, the 5-hop bound then 9% above.
ACK_BOUND = {0: 405, 1: 405, 2: 460, 3: 540, 4: 595, 5: 645}


class SprayFlow:
    """ACKs of one flow over several EVs, each EV with its own Path whose
    clocks and counters move by the time since that EV's last ACK."""

    def __init__(self, paths, t0=10 * US, seq0=0, step=1000, inflight=13000):
        self.paths = dict(paths)      # ev -> Path
        self.last = {ev: t0 for ev in self.paths}
        self.t, self.seq, self.step, self.inflight = t0, seq0, step, inflight
        self.events = []

    def ack(self, ev, gap=1 * US, util=1.0, qlen=None, step=None):
        self.t += gap
        self.seq += self.step if step is None else step
        path = self.paths[ev]
        path.advance(self.t - self.last[ev], util, qlen)
        self.last[ev] = self.t
        nxt = self.seq + self.inflight
        self.events.append(("ack", self.t, self.seq % 2 ** 32, nxt % 2 ** 32, ev, path.mult, path.hops()))


def spray_vector(name, profile, comment, events, seed=0, brief=False, **overrides):
    p = hpcc_ref.params(profile, **overrides)
    assert hpcc_ref.validate(p) is None
    vec = Vector("hpcc-spray", "hpcc-spray/" + name, profile, comment)
    for k, v in overrides.items():
        vec.add(f"param {k} {v}")
    if seed:
        vec.add(f"seed {seed}")
    vec.add(f"bound ack {ACK_BOUND[max(len(e[6]) for e in events)]}")
    vec.add(WIN_TOL)
    vec.add(RATE_TOL)
    vec.add(U_TOL)
    m = hpcc_spray_ref.SpraySender(p, seed)
    for idx, (kind, t, seq, nxt, ev, mult, hops) in enumerate(events):
        vec.add(f"at {t} ack seq={seq} nxt={nxt} ev={ev}" + (f" mult={mult}" if mult else ""))
        for r, ts, tx, q in hops:
            vec.add(f"hop rate={r} ts={ts} tx={tx} qlen={q}")
        recs = [hpcc_ref.hop_fields(r, ts, tx, q, mult) for r, ts, tx, q in hops]
        flags, status = m.on_stack(t, seq, nxt, ev, hpcc_ref.encode_stack(mult, recs))
        assert m.margin >= NEAR_TIE, (name, idx, m.margin, m.margin_what)
        vec.add(f"expect flags {flags_text(flags)}")
        if "change_ev" in flags:
            vec.add(f"expect ev {m.ev_out}")
        vec.add(f"expect window_bytes {m.window_bytes()}")
        vec.add(f"expect rate_kbps {round(m.rate_kbps())}")
        vec.add(f"expect stage {m.stage} exact")
        vec.add(f"expect u_q20 {round(m.u * 2 ** 20)}")
        if not brief or status != "ok":
            vec.add(f"expect status {status}")
    return vec


def param_error(name, field, code, **overrides):
    vec = Vector("hpcc-spray", "hpcc-spray/" + name, "hpcc-paper",
                 f"Invalid parameters (HPCC's table): {field} {code}.")
    assert hpcc_ref.validate(hpcc_ref.params("hpcc-paper", **overrides)) == (field, code)
    for k, v in overrides.items():
        vec.add(f"param {k} {v}")
    vec.add(f"expect-status {field} {code}")
    return vec


def _paths(evs, rates, **kw):
    return {ev: Path(rates, ts=[1000 * (i + 1) + 7 * ev for i in range(len(rates))], **kw) for ev in evs}


def random_run(name, seed, n, evs, start=0, seq0=0):
    """n ACKs over a changing set of EVs (more than the slots, so eviction
    and returns happen), 1-5 hops, each path with its own load; rare path
    changes, hop-count changes and silences past the history timeout."""
    rng = random.Random(seed)
    p = hpcc_ref.params("hpcc-paper")
    model = hpcc_spray_ref.SpraySender(p, seq0)

    def new_paths(k):
        rates = [rng.choice([2, 3, 3, 3, 4]) for _ in range(k)]
        return {ev: Path(rates, ts=[rng.randrange(2 ** 24) for _ in range(k)],
                         tx=[rng.randrange(2 ** 32) for _ in range(k)]) for ev in evs}

    k = rng.randint(1, 5)
    paths = new_paths(k)
    load = {ev: (rng.uniform(0.3, 1.1), rng.uniform(0, 60000)) for ev in evs}
    last = {ev: start for ev in evs}
    events = []
    t, seq = start + 10 * US, seq0
    active = list(evs[:4])
    while len(events) < n:
        r = rng.random()
        if r < 0.003:
            k = rng.randint(1, 5)
            paths = new_paths(k)                      # the fabric changed: new hop count
        elif r < 0.02:
            active = rng.sample(evs, min(len(evs), rng.randint(1, 5)))
        gap = min(int(rng.expovariate(1.0 / 800)) + 100, 20 * US)
        if r > 0.998:
            gap = (p["history_timeout_us"] + rng.randint(1, 50)) * US
        ev = rng.choice(active)
        util, q = load[ev]
        load[ev] = (min(max(util + rng.gauss(0, 0.05), 0.0), 1.2), max(0.0, q + rng.gauss(0, 5000)))
        for attempt in range(100):
            cand = Path(paths[ev].rates, paths[ev].mult, paths[ev].ts, paths[ev].tx)
            cand.q = list(paths[ev].q)
            spread = 0.0 if attempt == 0 else (0.05 if attempt < 20 else 0.3)
            dt = t + gap - last[ev] + (rng.randint(0, 4 * US) if attempt >= 20 else 0)
            cand.advance(dt, util * (1 + rng.uniform(-spread, spread)),
                         int(q * (1 + rng.uniform(-spread, spread))))
            if rng.random() < 0.002:
                cand.rates = list(cand.rates)
                j = rng.randrange(len(cand.rates))
                cand.rates[j] = 4 if cand.rates[j] != 4 else 3   # another link on this path
            t_now = t + gap
            seq_now = (seq + 1000) % 2 ** 32
            nxt = (seq_now + max(model.window_bytes(), 1000)) % 2 ** 32
            m2 = model.clone()
            m2.on_ack_ev(t_now, seq_now, nxt, ev, cand.mult,
                         [hpcc_ref.hop_fields(*h, cand.mult) for h in cand.hops()])
            if m2.margin >= NEAR_TIE:
                break
        else:
            raise RuntimeError(f"{name}: no clear candidate at event {len(events)}")
        paths[ev], model, t, seq, last[ev] = cand, m2, t_now, seq_now, t_now
        events.append(("ack", t, seq, nxt, ev, cand.mult, cand.hops()))
    return spray_vector(name, "hpcc-paper", f"Random run, seed {seed}, {n} ACKs over EVs {evs}, 1-5 hops.",
                        events, seed=seq0, brief=True)


def gen_hpcc_spray(out_dir):
    vs = []

    # -- max combination: one loaded path of four --------------------------
    f = SprayFlow(_paths([11, 12, 13, 14], [3, 3, 3]))
    for _ in range(12):
        for ev in (11, 12, 13, 14):
            f.ack(ev, 3 * US, util=1.0 if ev == 13 else 0.5, qlen=40000 if ev == 13 else 0)
    vs.append(spray_vector("max-combination", "hpcc-paper", """\
Four EVs over 3 hops in turn; only EV 13's path is loaded (queue 40 kB,
line rate), the others run at half rate with no queue. U follows EV 13's
path (the maximum), not the mean.""", f.events))

    # -- same with a single EV: HPCC's outputs -----------------------------
    f = SprayFlow(_paths([5], [3, 4]))
    for i in range(20):
        f.ack(5, 2 * US, util=0.7 + 0.02 * i, qlen=2000 * i)
    v = spray_vector("one-ev", "hpcc-paper", """\
One EV: the sprayed model gives single-path HPCC's outputs (the generator
checks this against hpcc_ref.Sender).""", f.events)
    single = hpcc_ref.Sender(hpcc_ref.params("hpcc-paper"))
    spray = hpcc_spray_ref.SpraySender(hpcc_ref.params("hpcc-paper"))
    for (_, t, seq, nxt, ev, mult, hops) in f.events:
        recs = [hpcc_ref.hop_fields(*h, mult) for h in hops]
        a = single.on_ack(t, seq, nxt, mult, recs)
        b = spray.on_ack_ev(t, seq, nxt, ev, mult, recs)
        assert a == b and single.w == spray.w and single.u == spray.u
    vs.append(v)

    # -- eviction: the fifth EV takes the least recently seen slot ---------
    f = SprayFlow(_paths([1, 2, 3, 4, 5], [3, 3, 3]))
    for ev in (1, 2, 3, 4, 1, 2, 3, 4, 1):   # EV 2 is now the least recently seen
        f.ack(ev, 2 * US, util=0.9, qlen=10000)
    f.ack(5, 2 * US, util=0.9, qlen=10000)     # evicts EV 2: no measurement
    f.ack(1, 2 * US, util=0.9, qlen=10000)     # still kept: measures
    f.ack(2, 2 * US, util=0.9, qlen=10000)     # evicted: a new path (evicts EV 3)
    f.ack(3, 2 * US, util=0.9, qlen=10000)     # evicted by EV 2: new again (evicts EV 4)
    f.ack(5, 2 * US, util=0.9, qlen=10000)     # kept: measures
    vs.append(spray_vector("evict-lru", "hpcc-paper", """\
Five EVs over 3 hops (4 slots). After 1,2,3,4,1,2,3,4,1 the fifth EV
evicts EV 2 (least recently seen); EV 1 still measures; EV 2 then comes
back as a new path (no measurement) and evicts EV 3, and so on.""", f.events))

    # -- eviction with 5-hop stacks: two slots -----------------------------
    f = SprayFlow(_paths([1, 2, 3], [3, 3, 4, 3, 3]))
    for ev in (1, 2, 1, 2, 3, 1, 3, 2):
        f.ack(ev, 2 * US, util=1.0, qlen=20000)
    vs.append(spray_vector("evict-5hops", "hpcc-paper", """\
Three EVs over 5 hops: the 12-record pool holds two 5-hop paths, so the
third EV evicts the least recently seen one.""", f.events))

    # -- path change on one EV: only its history resets --------------------
    f = SprayFlow(_paths([1, 2], [3, 3, 3]))
    for _ in range(5):
        f.ack(1, 2 * US, util=1.0, qlen=30000)
        f.ack(2, 2 * US, util=0.6, qlen=0)
    f.paths[2].rates = [3, 4, 3]               # EV 2 re-routed over a 200G link
    f.ack(2, 2 * US, util=0.6, qlen=0)         # reset: no measurement
    f.ack(1, 2 * US, util=1.0, qlen=30000)     # EV 1 unaffected
    f.ack(2, 2 * US, util=0.6, qlen=0)         # measures from the new records
    f.paths[1].ts[0] -= 50000                  # EV 1's first switch clock went back
    f.ack(1, 2 * US, util=1.0, qlen=30000)
    f.ack(1, 2 * US, util=1.0, qlen=30000)
    vs.append(spray_vector("path-change", "hpcc-paper", """\
Two EVs; EV 2's path changes a link rate, later EV 1's first timestamp goes
back: each resets only that EV's history (no measurement on that ACK), the
other EV keeps measuring, and the reset path's U is kept.""", f.events))

    # -- hop count change: every path dropped ------------------------------
    f = SprayFlow(dict(list(_paths([1, 2, 3], [3, 3, 3]).items()) + [(4, Path([3], ts=[99]))]))
    for _ in range(3):
        for ev in (1, 2, 3):
            f.ack(ev, 2 * US, util=1.0, qlen=20000)
    f.ack(4, 2 * US)                            # one hop: every 3-hop path dropped
    for ev in (1, 2, 3, 1):
        f.ack(ev, 2 * US, util=1.0, qlen=20000)
    vs.append(spray_vector("hop-count-change", "hpcc-paper", """\
Three EVs over 3 hops, then an ACK with a 1-hop stack: the flow's hop count
changes and every path is dropped, so each 3-hop EV starts again.""", f.events))

    # -- expiry: a silent path leaves the max ------------------------------
    f = SprayFlow(_paths([1, 2], [3, 3]))
    for _ in range(6):
        f.ack(1, 2 * US, util=1.0, qlen=60000)
        f.ack(2, 2 * US, util=0.5, qlen=0)
    for _ in range(140):
        f.ack(2, 2 * US, util=0.5, qlen=0)      # EV 1 silent for 280 us > 256 us
    f.ack(1, 2 * US, util=1.0, qlen=60000)      # expired: reset, U_1 kept
    f.ack(1, 2 * US, util=1.0, qlen=60000)
    vs.append(spray_vector("expiry", "hpcc-paper", """\
EV 1 (loaded) falls silent for longer than history_timeout: after T
without an ACK its U no longer counts in the max and the flow follows
EV 2; once expired, EV 1's next ACK resets its history and keeps its U.
While both are heard, EV 1's ACKs carry the path signal (change_ev).""", f.events))

    # -- expiry by a hop's own clock ----------------------------------------
    f = SprayFlow(_paths([1, 2], [3, 7]), step=13000, inflight=1)
    for _ in range(4):
        f.ack(2, 13 * US, util=0.5, qlen=0)
        f.ack(1, 13 * US, util=1.0, qlen=0)
    f.paths[1].advance([0, 10 * US], util=1.0)  # hop 1 (1.6 Tb/s) stamps 10 us more
    f.ack(1, 670 * US, util=1.0, qlen=0)        # ACK gap 670 us, hop 1 delta 680 us
    f.ack(1, 13 * US, util=1.0, qlen=0)
    f.ack(2, 13 * US, util=0.5, qlen=0)         # EV 2 silent for 709 us: expired
    f.ack(2, 13 * US, util=0.5, qlen=0)
    vs.append(spray_vector("expiry-hop-delta", "hpcc-paper", """\
Two EVs over 100 Gb/s + 1.6 Tb/s hops (history_timeout_us = 671). EV 1's
next ACK comes 670 us after its last (inside the timeout) but its 1.6 Tb/s
hop stamped 680 us: the hop's 20-bit counter wrapped, so the path's history
expires (no action, U_1 kept) instead of reading U = 0.013; its next ACK
measures. EV 2, silent for 709 us, expires by the ACK gap.""", f.events,
                           line_rate_mbps=1600000, history_timeout_us=671))

    # -- the path signal: change_ev on a path above eta ---------------------
    f = SprayFlow(_paths([1, 2, 3], [3, 3, 3]))
    for _ in range(8):                          # EV 1 loaded, EVs 2 and 3 light
        for ev in (1, 2, 3):
            f.ack(ev, 3 * US, util=1.0 if ev == 1 else 0.5, qlen=40000 if ev == 1 else 0)
    for _ in range(8):                          # every path loaded: nowhere better
        for ev in (1, 2, 3):
            f.ack(ev, 3 * US, util=1.0, qlen=40000)
    for _ in range(4):                          # EV 3 light again
        for ev in (1, 2, 3):
            f.ack(ev, 3 * US, util=1.0 if ev != 3 else 0.3, qlen=40000 if ev != 3 else 0)
    for _ in range(8):                          # EV 3 only: the others leave the max
        f.ack(3, 3 * US, util=0.3, qlen=0)
    f.ack(1, 3 * US, util=1.0, qlen=40000)      # EV 1 back: above eta, EV 3 below
    vs.append(spray_vector("path-signal", "hpcc-paper", """\
Three EVs over 3 hops. While EV 1's path is above eta and EVs 2 and 3 are
below, EV 1's ACKs carry change_ev with ev 1 (the spray policy moves off
it); when every path is loaded none does; when EV 3 gets light again EVs 1
and 2 signal. EV 3 alone for more than T: EVs 1 and 2 leave the max and
U follows EV 3; EV 1's next ACK measures above eta with EV 3 below: the
signal.""", f.events))

    # -- wraps: 24-bit ts, 20-bit tx, NIC clock and sequence numbers -------
    paths = {ev: Path([3, 4], ts=[2 ** 24 - 9000 + ev, 2 ** 24 - 4000 - ev],
                      tx=[2 ** 32 - 300000 * (ev + 1), 2 ** 32 - 90000 * ev]) for ev in (7, 8, 9)}
    f = SprayFlow(paths, t0=2 ** 32 - 20 * US, seq0=2 ** 32 - 20000)
    for _ in range(8):
        for ev in (7, 8, 9):
            f.ack(ev, 1 * US, util=0.95 if ev != 8 else 1.1, qlen=5000 * ev)
    vs.append(spray_vector("wrap", "hpcc-paper", """\
Three EVs whose switch timestamps cross 2^24 ns and byte counters the
20-bit wrap, while the NIC clock and the sequence numbers cross 2^32.""", f.events, seed=2 ** 32 - 20000))

    # -- parameter errors (HPCC's table) -----------------------------------
    vs.append(param_error("err-eta-zero", "eta_ppm", "zero", eta_ppm=0))
    vs.append(param_error("err-history-range", "history_timeout_us", "out_of_range", history_timeout_us=672))
    vs.append(param_error("err-w-ai", "w_ai_bytes", "inconsistent", w_ai_bytes=162501))

    # -- long random runs ---------------------------------------------------
    vs.append(random_run("random-4ev", 31, 4000, [100, 101, 102, 103]))
    vs.append(random_run("random-6ev-wrap", 32, 4000, [200, 201, 202, 203, 204, 205],
                         start=2 ** 32 - 3 * 10 ** 6, seq0=2 ** 32 - 3 * 10 ** 6))

    out = []
    for v in vs:
        path = os.path.join(out_dir, "hpcc-spray", v.name.split("/")[-1] + ".vec")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(v.text())
        out.append(path)
    return out
