"""What the HPCC vector generators share (hpcc_gen.py, hpcc_spray_gen.py):
instruction bounds per hop count, tolerances, the tie margin, the simulated
switch path (Path) and flow (Flow), and the builders of event, parameter-error
and random vectors on top of the reference model (hpcc_ref.py)."""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import hpcc_ref  # noqa: E402
from gen import Vector, flags_text, write  # noqa: E402

# Instructions per `ack` event (x86-64, inside DecodeIntStack + OnAck, or
# OnPintAck), promised by each vector for the largest hop count it uses and
# checked under callgrind. Measured worst event over all the vectors below
# (Release build of nicc-vectors, GCC 12.2, callgrind, 2026-12-03, after
# the issue 17 cost work; before it: 240 / 306 / 381 / 519), bound about
# +10%:
#   class                      worst   bound
#   0 hops (valid, empty)         98     260  (shares the 1-hop class)
#   1 hop                        231     260
#   2 hops                       293     330
#   3 hops                       365     410
#   4 hops                         -     480  (no vector; between 3 and 5)
#   5 hops                       494     550
#   malformed stacks (any)        86          (within every class's bound)
#   PINT                          66      75
# (2026-12-06, with the per-hop delta bound, kMaxHopDeltaNs, in place of the
# "went back" test: 233 / 296 / 369 / 498 before it.)
ACK_BOUND = {0: 260, 1: 260, 2: 330, 3: 410, 4: 480, 5: 550}
PINT_BOUND = 75

WIN_TOL = "tolerance window_bytes rel 0.005 abs 1"
RATE_TOL = "tolerance rate_kbps rel 0.005 abs 1000"
U_TOL = "tolerance u_q20 rel 0.002 abs 64"
NEAR_TIE = 2e-3  # relative distance from a decision boundary a vector must keep

US = 1000


# ---------------------------------------------------------------------------
# Building events.
# ---------------------------------------------------------------------------

class Path:
    """The switch-side counters of the hops of one path: each hop's clock
    (ns), cumulative transmitted bytes, and queue length (bytes)."""

    def __init__(self, rates, mult=0, ts=None, tx=None):
        n = len(rates)
        self.rates = list(rates)
        self.mult = mult
        self.ts = list(ts) if ts is not None else [1000 * (i + 1) for i in range(n)]
        self.tx = list(tx) if tx is not None else [0] * n
        self.q = [0] * n

    def unit(self):
        return hpcc_ref.TX_UNIT << self.mult

    def advance(self, d, util=1.0, qlen=None):
        """Every hop's clock moves d ns (int or per-hop list) while it sends
        util (float or list) of its link rate; qlen (bytes, int or list)
        replaces the queue lengths. Byte counts are whole units."""
        n = len(self.rates)
        d = d if isinstance(d, list) else [d] * n
        util = util if isinstance(util, list) else [util] * n
        for i in range(n):
            self.ts[i] += d[i]
            b = hpcc_ref.RATE_GBPS[self.rates[i]] / 8.0
            self.tx[i] += round(util[i] * b * d[i] / self.unit()) * self.unit()
        if qlen is not None:
            qlen = qlen if isinstance(qlen, list) else [qlen] * n
            qu = hpcc_ref.QLEN_UNIT << self.mult
            self.q = [(x // qu) * qu for x in qlen]

    def hops(self):
        """(rate, ts, tx, qlen) as written on `hop` lines: ts mod 2^24 and tx
        mod 2^32 (the runner's fields are 32-bit; with multipliers up to 2^5
        the 20-bit counter wraps at a divisor of 2^32, so this is exact)."""
        return [(r, t % (1 << 24), x % (1 << 32), q) for r, t, x, q in zip(self.rates, self.ts, self.tx, self.q)]


class Flow:
    """A flow's ACK stream: time, sequence numbers and its path."""

    def __init__(self, path, t0=10 * US, seq0=0, step=1000, inflight=13000):
        self.path = path
        self.t = t0
        self.seq = seq0
        self.step = step
        self.inflight = inflight
        self.events = []

    def ack(self, gap=1 * US, d=None, util=1.0, qlen=None, step=None, inflight=None):
        """The next ACK `gap` ns later, acknowledging `step` more bytes, with
        the path advanced by d (default: the gap)."""
        self.t += gap
        self.seq += self.step if step is None else step
        self.path.advance(gap if d is None else d, util, qlen)
        nxt = self.seq + (self.inflight if inflight is None else inflight)
        self.events.append(("ack", self.t, self.seq % 2 ** 32, nxt % 2 ** 32, self.path.mult, self.path.hops()))

    def warm(self, util=1.0, qlen=30000, n=3):
        """n ACKs a base RTT apart (tau = T: U = u at once), so that a test
        starts from a loaded flow with its window off the ceiling."""
        for _ in range(n):
            self.ack(13 * US, util=util, qlen=qlen)

    def raw(self, data, gap=1 * US):
        self.t += gap
        self.events.append(("raw", self.t, self.seq % 2 ** 32, (self.seq + self.inflight) % 2 ** 32, bytes(data)))


# ---------------------------------------------------------------------------
# Writing vectors.
# ---------------------------------------------------------------------------

def _bound(events, algo):
    if algo == "hpcc-pint":
        return PINT_BOUND
    n = 0
    for e in events:
        if e[0] == "ack":
            n = max(n, len(e[5]))
        elif e[0] == "raw" and len(e[4]) >= 1:
            n = max(n, min(e[4][0], hpcc_ref.MAX_HOPS, (len(e[4]) - 2) // 8))
    return ACK_BOUND[n]


def hpcc_vector(name, profile, comment, events, seed=0, algo="hpcc", check_u=True, allow_ties=False,
                brief=False, **overrides):
    """events: ("ack", t, seq, nxt, mult, [(rate, ts, tx, qlen), ...]),
    ("raw", t, seq, nxt, bytes) or ("pint", t, seq, nxt, code). Returns the
    Vector with the model's expectations after each event. brief: pin the
    status only where it is not ok (long vectors)."""
    p = hpcc_ref.params(profile, **overrides)
    assert hpcc_ref.validate(p) is None, (name, hpcc_ref.validate(p))
    vec = Vector(algo, "hpcc/" + name, profile, comment)
    for k, v in overrides.items():
        vec.add(f"param {k} {v}")
    if seed:
        vec.add(f"seed {seed}")
    vec.add(f"bound ack {_bound(events, algo)}")
    vec.add(WIN_TOL)
    vec.add(RATE_TOL)
    vec.add(U_TOL)
    m = hpcc_ref.Sender(p, seed)
    for idx, e in enumerate(events):
        kind, t, seq, nxt = e[:4]
        if kind == "ack":
            mult, hops = e[4], e[5]
            vec.add(f"at {t} ack seq={seq} nxt={nxt}" + (f" mult={mult}" if mult else ""))
            for r, ts, tx, q in hops:
                vec.add(f"hop rate={r} ts={ts} tx={tx} qlen={q}")
            recs = [hpcc_ref.hop_fields(r, ts, tx, q, mult) for r, ts, tx, q in hops]
            flags, status = m.on_stack(t, seq, nxt, hpcc_ref.encode_stack(mult, recs))
        elif kind == "raw":
            vec.add(f"at {t} ack seq={seq} nxt={nxt} raw={e[4].hex().upper()}")
            flags, status = m.on_stack(t, seq, nxt, e[4])
        elif kind == "pint":
            vec.add(f"at {t} ack seq={seq} nxt={nxt} u={e[4]}")
            flags, status = m.on_pint(t, seq, nxt, e[4])
        else:
            raise ValueError(kind)
        if not allow_ties:
            assert m.margin >= NEAR_TIE, (name, idx, m.margin, m.margin_what)
        vec.add(f"expect flags {flags_text(flags)}")
        vec.add(f"expect window_bytes {m.window_bytes()}")
        vec.add(f"expect rate_kbps {round(m.rate_kbps())}")
        vec.add(f"expect stage {m.stage} exact")
        if check_u:
            vec.add(f"expect u_q20 {round(m.u * 2 ** 20)}")
        if not brief or status != "ok":
            vec.add(f"expect status {status}")
    return vec


def hpcc_param_error(name, field, code, comment, profile="hpcc-paper", **overrides):
    vec = Vector("hpcc", "hpcc/" + name, profile, comment)
    got = hpcc_ref.validate(hpcc_ref.params(profile, **overrides))
    assert got == (field, code), (name, got)
    for k, v in overrides.items():
        vec.add(f"param {k} {v}")
    vec.add(f"expect-status {field} {code}")
    return vec


def pint_events(codes, t0=10 * US, gap=1 * US, seq0=0, step=1000, inflight=13000):
    ev, t, seq = [], t0, seq0
    for c in codes:
        t += gap
        seq += step
        ev.append(("pint", t, seq % 2 ** 32, (seq + inflight) % 2 ** 32, c))
    return ev


# ---------------------------------------------------------------------------
# Long random runs.
# ---------------------------------------------------------------------------

def hpcc_random(name, profile, seed, n, start=0, mults=(0,), seq0=None, **overrides):
    """n ACKs over 1-5 hops of any rate: congestion episodes (utilisation
    and queues per hop drift), ACK gaps of 0.1-30 us with jitter per hop,
    counters and timestamps starting anywhere (so 24-bit and 20-bit wraps
    occur), sequence numbers (seq0) and ACK time (start) crossing 2^32 when
    asked, and rare path changes (hop count, rate code, multiplier, a
    timestamp going back, a counter jump), duplicate ACKs, history expiry and
    malformed stacks. The in-flight distance (snd_nxt - ack) follows the
    model's window, so full updates come once per window as in a real
    sender. Multipliers are at most 2^5 (see Path.hops)."""
    rng = random.Random(seed)
    p = hpcc_ref.params(profile, **overrides)
    t_rtt = p["base_rtt_ns"]
    model = hpcc_ref.Sender(p, 0)
    seq0 = rng.randrange(2 ** 32) if seq0 is None else seq0
    model.last_update_seq = seq0

    def new_path():
        k = rng.randint(1, 5)
        rates = [rng.choice([1, 2, 3, 3, 3, 4, 5, 6, 7]) for _ in range(k)]
        path = Path(rates, rng.choice(mults), ts=[rng.randrange(2 ** 24) for _ in range(k)],
                    tx=[rng.randrange(2 ** 32) for _ in range(k)])
        path.q = [0] * k
        return path

    path = new_path()
    util = [rng.uniform(0.3, 1.2) for _ in path.rates]
    qtarget = [0.0 for _ in path.rates]
    events = []
    t = start + 10 * US
    seq = seq0
    congested = True
    while len(events) < n:
        r = rng.random()
        gap = min(int(rng.expovariate(1.0 / 1500)) + 100, 30 * US)
        if r < 0.001:
            gap = (p["history_timeout_us"] + rng.randint(1, 100)) * US    # history expires
        step = rng.choice([1000, 1024, 4096])
        inflight = max(model.window_bytes(), step)
        if r > 0.999:    # malformed stack: nothing changes
            recs = [hpcc_ref.hop_fields(*h, path.mult) for h in path.hops()]
            kind = rng.randrange(4)
            if kind == 0:
                data = hpcc_ref.encode_stack(path.mult, recs)[:rng.randrange(2 + 8 * len(recs))]
            elif kind == 1:
                data = hpcc_ref.encode_stack(path.mult, recs * 6, hop_count=6 + rng.randrange(250))
                data = data[:rng.randrange(2, 65)]   # the runner's raw= holds 64 bytes
            elif kind == 2:
                j = rng.randrange(len(recs))
                recs[j] = (0,) + recs[j][1:]
                data = hpcc_ref.encode_stack(path.mult, recs)
            else:
                data = bytes([0])[:rng.randrange(2)]
            t += gap
            seq_now = (seq + step) % 2 ** 32
            events.append(("raw", t, seq_now, (seq_now + inflight) % 2 ** 32, data))
            continue
        if r < 0.003:    # re-route: new hop count / rates / multiplier
            path = new_path()
            util = [rng.uniform(0.3, 1.2) for _ in path.rates]
            qtarget = [0.0 for _ in path.rates]
        if rng.random() < 0.01:
            congested = not congested
        k = len(path.rates)
        for i in range(k):
            util[i] = min(max(util[i] + rng.gauss(0, 0.05), 0.0), 1.3 if congested else 0.9)
            bdp = hpcc_ref.RATE_GBPS[path.rates[i]] / 8.0 * t_rtt
            qtarget[i] = max(0.0, qtarget[i] + rng.gauss(0.02 if congested else -0.05, 0.1) * bdp)
            qtarget[i] = min(qtarget[i], 3 * bdp, 8e6)
        d = [max(0, gap + int(rng.gauss(0, gap / 8))) for _ in range(k)]
        if rng.random() < 0.005:
            d = [0] * k                                   # duplicate ACK: no hop moved
        elif rng.random() < 0.01:
            d[rng.randrange(k)] = 0                        # one hop's clock did not move
        special = rng.random()
        # Candidate: perturb until the model is clear of near-ties.
        for attempt in range(100):
            cand = Path(path.rates, path.mult, path.ts, path.tx)
            cand.q = list(path.q)
            # Small nudges first; then larger ones and a longer interval (a
            # short d moves U too little to leave a tie with eta).
            spread = 0.0 if attempt == 0 else (0.05 if attempt < 20 else 0.3)
            if attempt >= 20:
                d = [x + rng.randint(0, 4 * US) if x else 0 for x in d]
            f = [u * (1.0 + rng.uniform(-spread, spread)) for u in util]
            cand.advance(d, f, [int(q * (1.0 + rng.uniform(-spread, spread))) for q in qtarget])
            if special < 0.001:
                j = rng.randrange(k)
                cand.ts[j] -= rng.randint(1, 2 ** 22)      # a timestamp went back
            elif special < 0.002:
                j = rng.randrange(k)
                cand.tx[j] += rng.randrange(2 ** 32)       # a different switch's counter
            t_now = t + gap
            seq_now = (seq + step) % 2 ** 32
            nxt = (seq_now + inflight) % 2 ** 32
            m2 = model.clone()
            m2.on_ack(t_now, seq_now, nxt, cand.mult,
                      [hpcc_ref.hop_fields(*h, cand.mult) for h in cand.hops()])
            if m2.margin >= NEAR_TIE:
                break
        else:
            raise RuntimeError(f"{name}: no clear candidate at event {len(events)}: {m2.margin_what}")
        path, model, t, seq = cand, m2, t_now, seq_now
        events.append(("ack", t, seq, nxt, path.mult, path.hops()))
    return hpcc_vector(name, profile, f"Random run, seed {seed}, {n} ACKs over 1-5 hops.", events, seed=seq0,
                       brief=True, **overrides)


# ---------------------------------------------------------------------------
# The scenarios.
# ---------------------------------------------------------------------------

def _congest(flow, n, qlen=100000, util=1.0, gap=1 * US):
    for _ in range(n):
        flow.ack(gap, util=util, qlen=qlen)
