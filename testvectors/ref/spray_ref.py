"""Spray path selection reference model: the rules of docs/spray.md.

Independent of the engine: it shares no code with engine/nicc/spray.h or
prng.h. Every rule of the spray policies is integer and discrete (EV
indices, penalties, counters, the xorshift32 generator), so the model uses
Python integers, keeps time as unbounded integers (ns) and reduces it to the
engine's wrapping 32-bit clock only where the document says the engine
compares wrapping timestamps (`TimeReached`, `ElapsedNs`). The vector
generator (spray_gen.py) runs it to produce the expected EV of every
selection.

State is kept in the most direct form the document suggests (a Python list
for the REPS FIFO, a list of penalties for bitmap, dicts of EWMAs for dlb),
not in the engine's packed layouts.

Sources: docs/spray.md (bit-exact generator, ports, policies, parameter
ranges); Marsaglia, "Xorshift RNGs", J. Stat. Software 8(14), 2003;
IBTA RoCEv2 annex A17 (flow label -> UDP source port).
"""

M32 = 0xFFFFFFFF
HORIZON_NS = 0x7FFFFFFF            # the wrapping clock's unambiguous span
MAX_PERIOD_US = HORIZON_NS // 1000  # 2 147 483 us

POLICIES = ["ecmp", "ops", "bitmap", "reps", "plb", "dlb"]

# Params defaults (docs/spray.md, "Parameters"); policy / ev_bits /
# flow_label are the caller's (the runner uses ev_bits 3, flow label 0).
DEFAULTS = dict(
    base_port=0,
    bitmap_ecn_penalty=1,
    bitmap_nack_penalty=4,
    reps_max_reuse=1,
    reps_freeze_us=100,
    plb_rehash_rounds=12,
    plb_idle_rehash_rounds=3,
    plb_cong_thresh_pct=50,
    plb_suspend_us=1000000,
    dlb_gain_shift=4,
    dlb_rtt_shift=8,
    dlb_hysteresis=64,
    dlb_probe_shift=4,
    dlb_min_dwell=64,
)

FEEDBACK_KINDS = ("good", "ecn", "nack", "timeout")


def params(policy, ev_bits=3, flow_label=0, **overrides):
    p = dict(DEFAULTS)
    p["policy"] = policy
    p["ev_bits"] = ev_bits
    p["flow_label"] = flow_label
    for k, v in overrides.items():
        if k not in p:
            raise KeyError(k)
        p[k] = v
    return p


def validate(p):
    """(field, code) of the first invalid field in the order of the
    document's parameter table, or None. Codes: zero, out_of_range,
    inconsistent (misaligned base_port, idle rounds above rounds),
    unsupported (k too large for bitmap or dlb)."""
    if p["policy"] not in POLICIES:
        return ("policy", "out_of_range")
    k = p["ev_bits"]
    if not 0 <= k <= 8:
        return ("ev_bits", "out_of_range")
    if p["policy"] == "bitmap" and k > 6:
        return ("ev_bits", "unsupported")
    if p["policy"] == "dlb" and k > 4:
        return ("ev_bits", "unsupported")
    if p["flow_label"] > 0xFFFFF:
        return ("flow_label", "out_of_range")
    bp = p["base_port"]
    if bp != 0:
        if not 0xC000 <= bp <= 0xFFFF:
            return ("base_port", "out_of_range")
        if bp % (2 ** k) != 0:
            return ("base_port", "inconsistent")
    if p["bitmap_ecn_penalty"] > 15:
        return ("bitmap_ecn_penalty", "out_of_range")
    if p["bitmap_nack_penalty"] > 15:
        return ("bitmap_nack_penalty", "out_of_range")
    if p["reps_max_reuse"] == 0:
        return ("reps_max_reuse", "zero")
    if p["reps_max_reuse"] > 3:
        return ("reps_max_reuse", "out_of_range")
    if p["reps_freeze_us"] > MAX_PERIOD_US:
        return ("reps_freeze_us", "out_of_range")
    if p["plb_rehash_rounds"] == 0:
        return ("plb_rehash_rounds", "zero")
    if p["plb_rehash_rounds"] > 255:
        return ("plb_rehash_rounds", "out_of_range")
    if p["plb_idle_rehash_rounds"] > p["plb_rehash_rounds"]:
        return ("plb_idle_rehash_rounds", "inconsistent")
    if p["plb_cong_thresh_pct"] == 0:
        return ("plb_cong_thresh_pct", "zero")
    if p["plb_cong_thresh_pct"] > 100:
        return ("plb_cong_thresh_pct", "out_of_range")
    if p["plb_suspend_us"] > MAX_PERIOD_US:
        return ("plb_suspend_us", "out_of_range")
    if p["dlb_gain_shift"] == 0:
        return ("dlb_gain_shift", "zero")
    if p["dlb_gain_shift"] > 7:
        return ("dlb_gain_shift", "out_of_range")
    if p["dlb_rtt_shift"] > 16:
        return ("dlb_rtt_shift", "out_of_range")
    if p["dlb_hysteresis"] > 65535:
        return ("dlb_hysteresis", "out_of_range")
    if p["dlb_probe_shift"] > 7:
        return ("dlb_probe_shift", "out_of_range")
    if p["dlb_min_dwell"] > 255:
        return ("dlb_min_dwell", "out_of_range")
    return None


# ---------------------------------------------------------------------------
# The generator (docs/spray.md, "The generator").
# ---------------------------------------------------------------------------

class Xorshift32:
    def __init__(self, seed):
        x = (seed * 0x9E3779B9) % 2 ** 32
        self.x = x if x != 0 else 0x6E696363

    def step(self):
        x = self.x
        x ^= (x << 13) & M32
        x ^= x >> 17
        x ^= (x << 5) & M32
        self.x = x
        return x

    def byte(self):
        return self.step() >> 24


# ---------------------------------------------------------------------------
# Ports (docs/spray.md, "EVs and ports").
# ---------------------------------------------------------------------------

def flow_label_port(fl):
    """RoCEv2: 0xC000 | (fl[13:0] XOR fl[19:14])."""
    return 0xC000 | ((fl % 2 ** 14) ^ (fl // 2 ** 14 % 2 ** 6))


def ev_ports(p):
    """List of the flow's 2^k ports, EV i at position i."""
    n = 2 ** p["ev_bits"]
    if p["base_port"]:
        return [p["base_port"] + i for i in range(n)]
    # EV i uses flow label fl XOR i.
    return [flow_label_port(p["flow_label"] ^ i) for i in range(n)]


# ---------------------------------------------------------------------------
# Clock helpers: the engine compares 32-bit wrapping timestamps.
# ---------------------------------------------------------------------------

def time_diff(a, b):
    """Signed a - b of two wrapping 32-bit timestamps."""
    d = (a - b) % 2 ** 32
    return d if d <= HORIZON_NS else d - 2 ** 32


def time_reached(now, deadline):
    return time_diff(now % 2 ** 32, deadline % 2 ** 32) >= 0


def elapsed(now, since):
    return max(time_diff(now % 2 ** 32, since % 2 ** 32), 0)


# ---------------------------------------------------------------------------
# Policies. Each has select(now) -> EV index and feedback(idx, kind, rtt, now)
# with idx already mapped from the port (out-of-range ports never arrive).
# ---------------------------------------------------------------------------

class Ecmp:
    def __init__(self, p, seed):
        pass

    def select(self, now):
        return 0

    def feedback(self, idx, kind, rtt, now):
        pass


class Ops:
    """Each round: (mul, add) drawn at its start, index = t ^ (t >> s)."""

    def __init__(self, p, seed):
        self.k = p["ev_bits"]
        self.n = 2 ** self.k
        self.s = max(1, (self.k + 1) // 2)
        self.rng = Xorshift32(seed)
        self.prev = (0, 0)
        self.pos = 0
        self.mul = self.add = 0

    def next_index(self):
        if self.pos == 0:
            r = self.rng.step()
            mul = ((r >> 24) % self.n) | 1
            add = (r >> 16) % self.n
            if (mul, add) == self.prev:
                add = (add + 1) % self.n
            self.mul, self.add = mul, add
            self.prev = (mul, add)
        t = (self.mul * self.pos + self.add) % self.n
        idx = t ^ (t >> self.s)
        self.pos = (self.pos + 1) % self.n
        return idx

    def select(self, now):
        return self.next_index()

    def feedback(self, idx, kind, rtt, now):
        pass

    def round(self):
        return [self.next_index() for _ in range(self.n)]


class Bitmap:
    MAX = 15

    def __init__(self, p, seed):
        self.ops = Ops(p, seed)
        self.n = self.ops.n
        self.pen = [0] * self.n
        self.ecn_pen = p["bitmap_ecn_penalty"]
        self.nack_pen = p["bitmap_nack_penalty"]

    def select(self, now):
        # The OPS candidate (one position per selection). Without a penalty
        # it is used. With one, its penalty drops by one and the packet
        # goes to the first EV without a penalty after it in index order,
        # wrapping at n; if every other EV carries a penalty too, to the
        # candidate itself.
        idx = self.ops.next_index()
        if self.pen[idx] == 0:
            return idx
        self.pen[idx] -= 1
        for j in range(1, self.n):
            e = (idx + j) % self.n
            if self.pen[e] == 0:
                return e
        return idx

    def feedback(self, idx, kind, rtt, now):
        if kind == "ecn":
            self.pen[idx] = min(self.pen[idx] + self.ecn_pen, self.MAX)
        elif kind == "nack":
            self.pen[idx] = min(self.pen[idx] + self.nack_pen, self.MAX)
        elif kind == "timeout":
            self.pen[idx] = self.MAX


class Reps:
    RING = 8

    def __init__(self, p, seed):
        self.n = 2 ** p["ev_bits"]
        self.rng = Xorshift32(seed)
        self.max_reuse = p["reps_max_reuse"]
        self.freeze_ns = p["reps_freeze_us"] * 1000
        self.ring = []          # [idx, credit], oldest first
        self.frozen = False
        self.freeze_end = 0     # unbounded ns; compared on the 32-bit clock

    def select(self, now):
        if self.frozen and time_reached(now, self.freeze_end):
            self.frozen = False
        if not self.ring:
            return self.rng.byte() % self.n
        idx, credit = self.ring.pop(0)
        if self.frozen:
            self.ring.append([idx, credit])
        elif credit - 1 > 0:
            self.ring.append([idx, credit - 1])
        return idx

    def feedback(self, idx, kind, rtt, now):
        if kind == "good":
            self.ring.append([idx, self.max_reuse])
            if len(self.ring) > self.RING:
                self.ring.pop(0)
        elif kind == "timeout":
            self.ring = [e for e in self.ring if e[0] != idx]
            if self.freeze_ns:
                self.frozen = True
                self.freeze_end = now + self.freeze_ns


class Plb:
    def __init__(self, p, seed):
        self.n = 2 ** p["ev_bits"]
        self.rng = Xorshift32(seed)
        self.rehash = p["plb_rehash_rounds"]
        self.idle = p["plb_idle_rehash_rounds"]
        self.pct = p["plb_cong_thresh_pct"]
        self.suspend_ns = p["plb_suspend_us"] * 1000
        self.ev = 0
        self.inflight = 0
        self.round_left = 0      # 0: no round open
        self.acks = self.marked = 0
        self.cong = 0
        self.suspended = False
        self.suspend_t = 0
        self.repaths = 0

    def select(self, now):
        self.inflight = min(self.inflight + 1, 0xFFFF)
        return self.ev

    def feedback(self, idx, kind, rtt, now):
        if kind == "timeout":
            if self.suspend_ns:
                self.suspended = True
                self.suspend_t = now
            self.inflight = 0
            self.round_left = 0
            self.cong = 0
            return
        if self.round_left == 0:
            self.round_left = max(self.inflight, 1)
            self.acks = self.marked = 0
        self.inflight = max(self.inflight - 1, 0)
        self.acks += 1
        if kind in ("ecn", "nack"):
            self.marked += 1
        self.round_left -= 1
        if self.round_left:
            return
        if self.marked * 100 < self.pct * self.acks:
            self.cong = 0
            return
        self.cong = min(self.cong + 1, 255)
        due = self.cong >= self.rehash or (
            self.idle != 0 and self.inflight == 0 and self.cong >= self.idle)
        if not due:
            return
        if self.suspended:
            if elapsed(now, self.suspend_t) < self.suspend_ns:
                return
            self.suspended = False
        # Uniform over the n - 1 other EVs.
        step = (self.rng.byte() * (self.n - 1)) // 256
        self.ev = (self.ev + 1 + step) % self.n
        self.cong = 0
        self.repaths += 1


class Dlb:
    NONE = None

    def __init__(self, p, seed):
        self.n = 2 ** p["ev_bits"]
        self.g = p["dlb_gain_shift"]
        self.rtt_shift = p["dlb_rtt_shift"]
        self.hyst = p["dlb_hysteresis"]
        self.probe_every = 2 ** p["dlb_probe_shift"] if p["dlb_probe_shift"] else 0
        self.dwell = p["dlb_min_dwell"]
        self.ecn = [0] * self.n
        self.rtt = [0] * self.n
        self.cur = Xorshift32(seed).byte() % self.n
        self.alt = self.NONE
        # Probes go round the EVs starting after the current one (not stated
        # in docs/spray.md; the engine's choice, see the report).
        self.probe_next = (self.cur + 1) % self.n
        self.pkts = 0
        self.hold = 0
        self.moves = 0

    def cost(self, i):
        return self.ecn[i] + self.rtt[i]

    def ewma(self, avg, sample):
        step = -(-abs(sample - avg) // 2 ** self.g)  # ceil
        return avg + step if sample >= avg else avg - step

    def select(self, now):
        self.pkts = (self.pkts + 1) % 256
        if self.probe_every and self.pkts % self.probe_every == 0:
            idx = self.probe_next
            self.probe_next = (idx + 1) % self.n
            return idx
        return self.cur

    def feedback(self, i, kind, rtt, now):
        if kind == "timeout":
            self.ecn[i] = 255
            self.rtt[i] = 65535
        else:
            self.ecn[i] = self.ewma(self.ecn[i], 0 if kind == "good" else 255)
            if rtt:
                u = max(min(rtt // 2 ** self.rtt_shift, 65535), 1)
                self.rtt[i] = u if self.rtt[i] == 0 else self.ewma(self.rtt[i], u)
        if i != self.cur:
            if self.alt is self.NONE or i == self.alt or self.cost(i) < self.cost(self.alt):
                self.alt = i
        else:
            if self.hold > 0 and kind != "timeout":
                self.hold -= 1
                return
            self.hold = 0  # a timeout on cur ends the dwell
        if self.alt is self.NONE or self.hold:
            return
        if self.cost(self.alt) + self.hyst < self.cost(self.cur):
            self.cur, self.alt = self.alt, self.cur
            self.hold = self.dwell
            self.moves += 1


CLASSES = dict(ecmp=Ecmp, ops=Ops, bitmap=Bitmap, reps=Reps, plb=Plb, dlb=Dlb)


class Flow:
    """One flow: ports in and out, like the engine's Select/OnFeedback."""

    def __init__(self, p, seed):
        err = validate(p)
        if err:
            raise ValueError(err)
        self.p = p
        self.ports = ev_ports(p)
        self.index_of = {port: i for i, port in enumerate(self.ports)}
        self.policy = CLASSES[p["policy"]](p, seed)

    def select(self, now):
        """The UDP source port of the next packet."""
        return self.ports[self.policy.select(now)]

    def feedback(self, port, kind, rtt, now):
        """Feedback for a packet sent on `port`; a port that is not one of
        the flow's EVs is ignored."""
        assert kind in FEEDBACK_KINDS
        i = self.index_of.get(port)
        if i is None:
            return False
        self.policy.feedback(i, kind, rtt, now)
        return True


def self_test():
    """Known answers of docs/spray.md."""
    g = Xorshift32(0)
    g.x = 1
    assert [g.step() for _ in range(4)] == [270369, 67634689, 2647435461, 307599695]
    g = Xorshift32(1)
    assert g.x == 0x9E3779B9
    assert [g.step() for _ in range(4)] == [0x510C4619, 0xE02E553E, 0x7BB98F3A, 0x0183A8B5]
    g = Xorshift32(0)
    assert g.x == 0x6E696363 and [g.step() for _ in range(2)] == [0x02A16E41, 0xC2426755]
    g = Xorshift32(0x12345678)
    assert g.x == 0x887934B8 and [g.step() for _ in range(2)] == [0x73221A2F, 0x3C9BA19C]
    for fl, port in ((0, 0xC000), (0xFFFFF, 0xFFC0), (0x12345, 0xE341), (0x03FFF, 0xFFFF),
                     (0xFC000, 0xC03F), (0xABCDE, 0xFCF4)):
        assert flow_label_port(fl) == port, hex(fl)
    o = Ops(params("ops", 3), 1)
    assert [o.round() for _ in range(3)] == [[5, 4, 7, 6, 0, 1, 2, 3], [7, 6, 0, 1, 2, 3, 5, 4],
                                             [1, 5, 6, 2, 4, 0, 3, 7]]
    o = Ops(params("ops", 4), 0xC0FFEE)
    assert [o.round() for _ in range(2)] == [
        [4, 0, 9, 7, 1, 15, 6, 2, 14, 10, 3, 13, 11, 5, 12, 8],
        [14, 7, 12, 10, 1, 8, 3, 15, 4, 13, 6, 0, 11, 2, 9, 5]]


if __name__ == "__main__":
    self_test()
    print("spray_ref: known answers ok")
