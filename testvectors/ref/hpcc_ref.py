"""HPCC reference model: the equations of docs/hpcc.md in floating point.

Independent of the engine: it shares no code with engine/nicc/hpcc.h or
int_codec.h. Windows are real numbers of bytes, U a real, rates real kb/s,
time unbounded integers (ns). Only the wire fields are integers, because
they are integers on the wire: the 24-bit timestamp, the 20-bit byte counter
in 128 B x 2^m units and the 17-bit queue length in 80 B x 2^m units.
The vector generator (hpcc_gen.py) runs it to produce the expected values of
the HPCC and HPCC-PINT conformance vectors.

Sources: Li et al., "HPCC: High Precision Congestion Control", SIGCOMM 2019
(Algorithm 1: per-hop utilisation, EWMA over tau = min(d, T), the window
law with maxStage additive steps, full update once per RTT and fast reaction
in between); Ben Basat et al., "PINT", SIGCOMM 2020 (one utilisation value
per packet). The wire layout, the rate-code table, the PINT code and the
history rules (path change, expiry, plausibility) are this project's, as
documented in docs/hpcc.md.

Besides the outputs, every event records in `margin` how close its discrete
decisions came to going the other way (relative distance; inf when there was
no such decision), so that the generator can steer clear of near-ties that
a fixed-point implementation may legitimately resolve either way.
"""

import math

PAPER = dict(line_rate_mbps=100000, base_rtt_ns=13000, eta_ppm=950000, max_stage=5,
             w_ai_bytes=80, min_window_bytes=163, history_timeout_us=256)
LATER = dict(PAPER, max_stage=0)
PROFILES = {"hpcc-paper": PAPER, "hpcc-later": LATER}

RATE_GBPS = {1: 25, 2: 50, 3: 100, 4: 200, 5: 400, 6: 800, 7: 1600}  # code 0 reserved
MAX_HOPS = 5
TS_BITS, TX_BITS, QLEN_BITS = 24, 20, 17
TX_UNIT, QLEN_UNIT = 128, 80
U_CAP = 64.0          # U and each u_i saturate here
TX_PLAUSIBLE = 64.0   # a hop's bytes faster than 64x its link: another switch
MAX_LINE_MBPS = 1600000
MIN_RTT_NS, MAX_RTT_NS = 1000, 1000000
MAX_STAGE_LIMIT = 255
# History expires before a 1.6 Tb/s hop wraps its 20-bit tx-byte counter
# (128 B units at the x1 multiplier): 2^27 B / 200 B/ns = 671088 ns.
MAX_HISTORY_US = (1 << 27) // 200 // 1000  # 671
# The same limit on a hop's own clock (docs/hpcc.md): a hop whose time stamps
# are further apart expires the history, whatever the ACK gap was.
MAX_HOP_DELTA_NS = 1000 * MAX_HISTORY_US


def params(profile, **overrides):
    p = dict(PROFILES[profile])
    p.update(overrides)
    return p


def bdp_bytes(p):
    """B_line * T in bytes (Mb/s * ns / 8000)."""
    return p["line_rate_mbps"] * p["base_rtt_ns"] / 8000.0


def validate(p):
    """(field, code) of the first invalid field, or None: the ranges listed in
    docs/hpcc.md, in the order listed there."""
    if p["line_rate_mbps"] == 0:
        return ("line_rate_mbps", "zero")
    if p["line_rate_mbps"] > MAX_LINE_MBPS:
        return ("line_rate_mbps", "out_of_range")
    if p["base_rtt_ns"] == 0:
        return ("base_rtt_ns", "zero")
    if not MIN_RTT_NS <= p["base_rtt_ns"] <= MAX_RTT_NS:
        return ("base_rtt_ns", "out_of_range")
    if p["eta_ppm"] == 0:
        return ("eta_ppm", "zero")
    if p["eta_ppm"] > 1000000:
        return ("eta_ppm", "out_of_range")
    if p["max_stage"] > MAX_STAGE_LIMIT:
        return ("max_stage", "out_of_range")
    bdp = bdp_bytes(p)
    if p["w_ai_bytes"] > bdp:
        return ("w_ai_bytes", "inconsistent")
    if p["min_window_bytes"] == 0:
        return ("min_window_bytes", "zero")
    if p["min_window_bytes"] > bdp:
        return ("min_window_bytes", "inconsistent")
    if p["history_timeout_us"] == 0:
        return ("history_timeout_us", "zero")
    if p["history_timeout_us"] > MAX_HISTORY_US:
        return ("history_timeout_us", "out_of_range")
    return None


# ---------------------------------------------------------------------------
# Wire format.
# ---------------------------------------------------------------------------

def hop_fields(rate_code, ts_ns, tx_bytes, qlen_bytes, mult_log2):
    """The record a switch stamps from its counters in bytes: the timestamp
    mod 2^24, the byte counter in 128 B x 2^m units mod 2^20, the queue in
    80 B x 2^m units mod 2^17 (whole units: the remainder is dropped)."""
    unit = 1 << mult_log2
    return (rate_code, ts_ns % (1 << TS_BITS),
            (tx_bytes // unit // TX_UNIT) % (1 << TX_BITS),
            (qlen_bytes // unit // QLEN_UNIT) % (1 << QLEN_BITS))


def pack_record(rate_code, ts, tx_units, qlen_units):
    """64-bit record: rate(3) | ts(24) | tx(20) | qlen(17), most significant first."""
    return ((rate_code & 7) << 61 | (ts % (1 << TS_BITS)) << 37 | (tx_units % (1 << TX_BITS)) << 17
            | qlen_units % (1 << QLEN_BITS))


def encode_stack(mult_log2, records, hop_count=None, reserved_bits=0):
    """Bytes of a stack: header (hop count, multiplier | reserved bits) and
    8-byte big-endian records. hop_count may differ from len(records) to make
    malformed stacks."""
    n = len(records) if hop_count is None else hop_count
    out = bytes([n & 0xFF, (mult_log2 & 7) | (reserved_bits & 0xF8)])
    for r in records:
        out += pack_record(*r).to_bytes(8, "big")
    return out


def decode_stack(buf):
    """(status, mult_log2, records): the checks of docs/hpcc.md in order."""
    if len(buf) < 2:
        return "truncated", 0, []
    n = buf[0]
    if n > MAX_HOPS:
        return "too_many_hops", 0, []
    if len(buf) < 2 + 8 * n:
        return "truncated", 0, []
    recs = []
    for i in range(n):
        w = int.from_bytes(buf[2 + 8 * i:10 + 8 * i], "big")
        rate = w >> 61
        if rate == 0:
            return "bad_rate_code", 0, []
        recs.append((rate, (w >> 37) & 0xFFFFFF, (w >> 17) & 0xFFFFF, w & 0x1FFFF))
    return "ok", buf[1] & 7, recs


def pint_value(code):
    """U of a PINT code: 0 -> 0, c -> 2^((c - 128) / 16)."""
    return 0.0 if code == 0 else 2.0 ** ((code - 128) / 16.0)


# ---------------------------------------------------------------------------
# The sender.
# ---------------------------------------------------------------------------

def seq_after(a, b):
    """a is past b in 32-bit sequence space (signed difference > 0)."""
    d = (a - b) % (1 << 32)
    return 0 < d < (1 << 31)


def elapsed_ns(now, since):
    """NIC-clock elapsed time on the 32-bit clock; an apparent step back is 0."""
    d = (now - since) % (1 << 32)
    return d if d < (1 << 31) else 0


class Sender:
    """One HPCC flow. Methods return (flags, status) with flags a set of
    action names; window_bytes() and rate_kbps() give the state after."""

    def __init__(self, p, start_seq=0):
        self.p = p
        self.t = float(p["base_rtt_ns"])
        self.eta = p["eta_ppm"] / 1e6
        self.w_max = bdp_bytes(p)
        self.w_min = float(p["min_window_bytes"])
        self.w_ai = float(p["w_ai_bytes"])
        self.timeout_ns = 1000 * p["history_timeout_us"]
        self.w = self.wc = self.w_max
        self.u = 0.0
        self.stage = 0
        self.last_update_seq = start_seq % (1 << 32)
        self.hist = None         # (mult_log2, [records]) or None
        self.last_ack = 0
        self.margin = math.inf
        self.margin_what = None
        self.bottleneck = None   # index of the hop picked on the last measurement

    def clone(self):
        c = Sender.__new__(Sender)
        c.__dict__.update(self.__dict__)
        if self.hist is not None:
            c.hist = (self.hist[0], list(self.hist[1]))
        return c

    def window_bytes(self):
        return math.floor(self.w + 0.5)

    def rate_kbps(self):
        # W bytes per T ns = 8 W / T Gb/s = 8e6 W / T kb/s.
        return self.w * 8e6 / self.t

    def _note(self, gap, what):
        if abs(gap) < self.margin:
            self.margin, self.margin_what = abs(gap), what

    # -- the window law ------------------------------------------------------
    def _window_law(self, ack_seq, snd_nxt):
        p = self.p
        if self.stage < p["max_stage"]:
            self._note((self.u - self.eta) / self.eta, "U vs eta")
        if self.u >= self.eta or self.stage >= p["max_stage"]:
            w = self.wc / (self.u / self.eta) + self.w_ai if self.u > 0 else self.w_max
            stage = 0
        else:
            w = self.wc + self.w_ai
            stage = self.stage + 1
        w = min(max(w, self.w_min), self.w_max)
        if seq_after(ack_seq, self.last_update_seq):   # full update: commit
            self.wc = w
            self.stage = stage
            self.last_update_seq = snd_nxt % (1 << 32)
        self.w = w                                      # fast reaction: W only
        return {"set_window", "set_rate"}

    # -- INT -----------------------------------------------------------------
    def on_stack(self, now, ack_seq, snd_nxt, buf):
        """An ACK carrying the INT stack `buf` (bytes)."""
        self.margin = math.inf
        status, mult, recs = decode_stack(buf)
        if status != "ok":
            return set(), status       # nothing reaches the sender
        return self.on_ack(now, ack_seq, snd_nxt, mult, recs), "ok"

    def _reset(self, now, mult, recs):
        self.hist = (mult, list(recs))
        self.last_ack = now
        return set()

    def on_ack(self, now, ack_seq, snd_nxt, mult, recs):
        """recs: the wire fields (rate, ts, tx_units, qlen_units) per hop."""
        self.margin = math.inf
        self.bottleneck = None
        n = len(recs)
        if (self.hist is None or len(self.hist[1]) != n or self.hist[0] != mult
                or elapsed_ns(now, self.last_ack) > self.timeout_ns):
            return self._reset(now, mult, recs)
        self.last_ack = now
        scale = 1 << mult
        old = self.hist[1]
        new = list(old)
        samples = []   # (u_i, d_i, i)
        for i, (r, o) in enumerate(zip(recs, old)):
            if r[0] != o[0]:
                return self._reset(now, mult, recs)         # another link
            d = (r[1] - o[1]) % (1 << TS_BITS)
            if d >= 1 << (TS_BITS - 1):
                return self._reset(now, mult, recs)         # timestamp went back
            if d > MAX_HOP_DELTA_NS:
                return self._reset(now, mult, recs)         # expired at this hop
            if d == 0:
                continue                                    # no sample: keep the old record
            b = RATE_GBPS[r[0]] / 8.0                       # bytes per ns
            nbytes = ((r[2] - o[2]) % (1 << TX_BITS)) * TX_UNIT * scale
            tx_u = nbytes / (d * b)
            self._note(tx_u / TX_PLAUSIBLE - 1.0, "plausibility")
            if tx_u > TX_PLAUSIBLE:
                return self._reset(now, mult, recs)         # another switch
            q = min(r[3], o[3]) * QLEN_UNIT * scale
            u = min(q / (b * self.t) + tx_u, U_CAP)
            samples.append((u, d, i))
            new[i] = r
        self.hist = (mult, new)
        if not samples:
            return set()                                    # no hop's clock advanced
        u, d, i = samples[0]
        for s in samples[1:]:
            if s[0] >= u:                                   # ties: the later hop
                u, d, i = s
        # Near-ties between hops matter only when their tau differ.
        tau = min(d, self.t)
        for s in samples:
            if s[2] == i or min(s[1], self.t) == tau:
                continue
            if s[0] == u and (u == 0.0 or u == U_CAP):
                continue                                    # exact in any arithmetic
            self._note((u - s[0]) / u, "bottleneck hop")
        self.bottleneck = i
        self.u = min(self.u * (1.0 - tau / self.t) + u * tau / self.t, U_CAP)
        return self._window_law(ack_seq, snd_nxt)

    # -- PINT ----------------------------------------------------------------
    def on_pint(self, now, ack_seq, snd_nxt, code):
        self.margin = math.inf
        self.u = min(pint_value(code), U_CAP)
        return self._window_law(ack_seq, snd_nxt), "ok"
