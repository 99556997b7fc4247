"""Reference model of UEC NSCC (network-signal-based congestion control),
written from the UEC 1.0 NSCC description as htsim's UEC model states it
(uet-htsim, htsim/sim/src/protocols/uec.cpp: initNsccParams,
updateCwndOnAck_NSCC, quick_adapt, fulfill_adjustment,
multiplicative_decrease, updateCwndOnNack_NSCC) and docs/nscc.md, not from
the engine. Real arithmetic (floats) throughout; windows are not rounded.

Scale of the gains (initNsccParams): BDP = line rate x base RTT,
  a = BDP / (100 Gb/s x 12 us)          b = target / 12 us
  alpha = 4.0 MSS a b / target  (per ACKed byte, per ns below target)
  fi    = 5.0 MSS a             (per ACKed byte)
  eta   = 0.15 MSS a            (bytes, once per base RTT)
with the multipliers 4.0 / 5.0 / 0.15 / gamma 0.8 / md floor 0.5 / EWMA gain
0.0125 taken as parameters in 1/1024 units (alpha_x1024 ...), and
maxwnd = max_window_pct % of BDP, min window one MTU.

Per ACK (bytes, ECN echo, RTT sample; delay = max(rtt - base, 0)):
  achieved += bytes; received += bytes
  ignore ends when the ACK's sequence reaches snd_nxt of the last quick adapt
  avg += g (delay - avg)                          (when there is a sample)
  quick adapt (below); if it adapted or ignored: inc = received = 0, stop
  no sample: no case
  no ECN, delay <  target: inc += alpha bytes (target - delay)
  no ECN, delay >= target: inc += fi bytes
  ECN,    delay >= target: if avg > target and (no decrease yet or more than
                           a base RTT since it): W *= max(1 - gamma (avg -
                           target)/avg, md_floor)
  ECN,    delay <  target: no change, move path (change_ev)
  W = clamp(W)
  period starts at the first ACK; if received > adjust_bytes or more than a
  base RTT since the period start: W += inc / W, plus eta and a new period
  when a base RTT passed; inc = received = 0; W = clamp(W)
Quick adapt (is_loss, marked, delay):
  marked and ignoring             -> ignored (done)
  not yet armed, or now > qa_end  -> if armed and (trigger or is_loss or
      delay > qa_threshold_mult x target) and achieved < maxwnd / 2^qa_gate:
      W = max(achieved, min); ignore marks until snd_nxt; trigger off; done.
      Then achieved = 0, qa_end = now + base + target, armed.
Per NACK/trim (bytes): trigger on; quick adapt(loss, marked); if not done,
  W = clamp(W - bytes).

Time: 64-bit ns here (vectors start near 2^32 to cross the engine's wrap);
sequence numbers compared modulo 2^32.
"""

REF_BDP = 150000.0   # 100 Gb/s x 12 us, bytes
REF_RTT = 12000.0    # ns

PROFILES = {
    "uec-default": {
        "line_rate_mbps": 100000, "base_rtt_ns": 12000, "target_qdelay_ns": 9000, "mss_bytes": 4096,
        "min_window_bytes": 4160, "max_window_pct": 150, "alpha_x1024": 4096, "fi_x1024": 5120,
        "eta_x1024": 154, "gamma_x1024": 819, "md_floor_x1024": 512, "delay_ewma_x1024": 13,
        "qa_gate": 3, "qa_threshold_mult": 4, "adjust_bytes": 33280,
    },
}

# Table order: the first bad field is the one named.
RANGES = [
    ("line_rate_mbps", 1, 1600000),
    ("base_rtt_ns", 1000, 1000000),
    ("target_qdelay_ns", 1, 1000000),
    ("mss_bytes", 256, 9216),
    ("min_window_bytes", 1, 2 ** 32 - 1),
    ("max_window_pct", 100, 400),
    ("alpha_x1024", 0, 65535),
    ("fi_x1024", 0, 65535),
    ("eta_x1024", 0, 65535),
    ("gamma_x1024", 0, 1024),
    ("md_floor_x1024", 0, 1024),
    ("delay_ewma_x1024", 1, 1024),
    ("qa_gate", 0, 31),
    ("qa_threshold_mult", 1, 16),
    ("adjust_bytes", 1, 2 ** 31 - 1),
]


def params(profile, **overrides):
    p = dict(PROFILES[profile])
    for k, v in overrides.items():
        if k not in p:
            raise KeyError(k)
        p[k] = v
    return p


def bdp(p):
    return p["line_rate_mbps"] * 1e6 / 8 * p["base_rtt_ns"] * 1e-9


def max_window(p):
    return bdp(p) * p["max_window_pct"] / 100.0


def validate(p):
    """(field, code) of the first bad field, or None."""
    for name, lo, hi in RANGES:
        v = p[name]
        if v < lo:
            return (name, "zero" if v == 0 else "out_of_range")
        if v > hi:
            return (name, "out_of_range")
    if p["min_window_bytes"] > max_window(p):
        return ("min_window_bytes", "inconsistent")
    return None


class Flow:
    def __init__(self, p):
        assert validate(p) is None
        self.p = p
        a = bdp(p) / REF_BDP
        b = p["target_qdelay_ns"] / REF_RTT
        mss = p["mss_bytes"]
        self.alpha = p["alpha_x1024"] / 1024 * mss * a * b / p["target_qdelay_ns"]
        self.fi = p["fi_x1024"] / 1024 * mss * a
        self.eta = p["eta_x1024"] / 1024 * mss * a
        self.gamma = p["gamma_x1024"] / 1024
        self.md_floor = p["md_floor_x1024"] / 1024
        self.g = p["delay_ewma_x1024"] / 1024
        self.wmax = max_window(p)
        self.wmin = p["min_window_bytes"]
        self.base = p["base_rtt_ns"]
        self.target = p["target_qdelay_ns"]
        self.w = self.wmax
        self.inc = 0.0
        self.avg = 0.0
        self.achieved = 0
        self.received = 0
        self.qa_end = None        # not armed
        self.trigger = False
        self.ignore_seq = None    # not ignoring
        self.last_adjust = None
        self.last_dec = None

    # -- outputs -------------------------------------------------------------
    def rate_kbps(self):
        return min(self.w * 8e6 / self.base, self.p["line_rate_mbps"] * 1000.0)

    def clamp(self):
        self.w = min(max(self.w, self.wmin), self.wmax)

    # -- quick adapt -----------------------------------------------------------
    def quick_adapt(self, now, is_loss, marked, delay, snd_nxt):
        done = False
        if marked and self.ignore_seq is not None:
            done = True
        elif self.qa_end is None or now > self.qa_end:
            if (self.qa_end is not None
                    and (self.trigger or is_loss or delay > self.p["qa_threshold_mult"] * self.target)
                    and self.achieved < int(self.wmax) >> self.p["qa_gate"]):
                self.w = max(self.achieved, self.wmin)
                self.ignore_seq = snd_nxt % 2 ** 32
                self.trigger = False
                done = True
            self.achieved = 0
            self.qa_end = now + self.base + self.target
        if done:
            self.inc = 0.0
            self.received = 0
        return done

    # -- events ----------------------------------------------------------------
    def ack(self, now, seq, snd_nxt, nbytes, ecn, rtt):
        """Returns the set of changes: 'window' when W changed, 'change_ev'."""
        w0 = self.w
        out = set()
        self.achieved += nbytes
        self.received += nbytes
        if self.ignore_seq is not None:
            d = (seq - self.ignore_seq) % 2 ** 32
            if d < 2 ** 31:  # seq at or past ignore_seq
                self.ignore_seq = None
        sample = rtt != 0
        delay = max(rtt - self.base, 0)
        if sample:
            self.avg += self.g * (delay - self.avg)
        if self.quick_adapt(now, False, ecn, delay if sample else 0, snd_nxt):
            if self.w != w0:
                out.add("window")
            return out
        if sample:
            acked = min(nbytes, 2 ** 20)
            if not ecn and delay < self.target:
                self.inc += self.alpha * acked * (self.target - delay)
            elif not ecn:
                self.inc += self.fi * acked
            elif delay >= self.target:
                if self.avg > self.target and (self.last_dec is None or now - self.last_dec > self.base):
                    keep = max(1 - self.gamma * (self.avg - self.target) / self.avg, self.md_floor)
                    self.w = max(self.w * keep, self.wmin)
                    self.last_dec = now
            else:
                out.add("change_ev")
        self.clamp()
        if self.last_adjust is None:
            self.last_adjust = now
        since = now - self.last_adjust
        if self.received > self.p["adjust_bytes"] or since > self.base:
            self.w += self.inc / self.w
            if since >= self.base:
                self.w += self.eta
                self.last_adjust = now
            self.inc = 0.0
            self.received = 0
            self.clamp()
        if self.w != w0:
            out.add("window")
        return out

    def nack(self, now, nbytes, snd_nxt):
        w0 = self.w
        self.trigger = True
        if not self.quick_adapt(now, True, True, 0, snd_nxt):
            self.w = min(max(self.w - nbytes, self.wmin), self.wmax)
        return {"window"} if self.w != w0 else set()
