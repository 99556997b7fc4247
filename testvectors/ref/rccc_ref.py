"""Reference model of UEC RCCC (receiver credit congestion control) and of
the combined NSCC + RCCC sender, written from the rules in docs/rccc.md (the
UEC 1.0 overview's receiver credit working with NSCC; htsim's receiver-driven
model for the sender's initial, speculative credit), not from the engine.

Sequence numbers here are unbounded integers (absolute byte positions of
one flow); the vector writer takes them modulo 2^32, so a scenario that
starts near 2^32 crosses the engine's wrap while the model never wraps.

Receiving port: pool = BDP x pool_pct / 100 in whole bytes, BDP = line rate
x base RTT (bytes, rounded down), shared by the N active senders:
  share = max(floor(pool / N), mss)   (N > 0),   pool (N = 0)
Receiving flow, per data packet (end = the sequence after its payload,
backlog = the sender's backlog end):
  backlog > end and not active: join  (N + 1, share recomputed)
  backlog <= end and active:    leave (N - 1, share recomputed)
  grant = min(end + share, backlog)        (backlog when backlog <= end)
  limit = max(limit, grant)                (the first packet: limit = end)
  the ACK of the packet carries limit (grant_credit)
A closed flow leaves when it was active.

Combined sender (nscc+rccc), started at `start`:
  credit = start + initial_credit_bytes; snd_una = start
  per ACK: NSCC's own update (nscc_ref.Flow), then credit = max(credit,
  ack credit), snd_una = max(snd_una, ack seq);
  window = min(W_nscc, max(credit - snd_una, 0)), set on every ACK.
  per NACK: NSCC's own update; a window it sets is bounded the same way.
"""

import nscc_ref

PROFILES = {
    "uec-default": {
        "line_rate_mbps": 100000, "base_rtt_ns": 12000, "pool_pct": 100, "initial_credit_bytes": 150000,
        "mss_bytes": 4096,
    },
}

# Table order: the first bad field is the one named.
RANGES = [
    ("line_rate_mbps", 1, 1600000),
    ("base_rtt_ns", 1000, 1000000),
    ("pool_pct", 1, 400),
    ("initial_credit_bytes", 0, 2 ** 30),
    ("mss_bytes", 256, 9216),
]


def params(profile, **overrides):
    p = dict(PROFILES[profile])
    for k, v in overrides.items():
        if k not in p:
            raise KeyError(k)
        p[k] = v
    return p


def pool_bytes(p):
    bdp = p["line_rate_mbps"] * p["base_rtt_ns"] // 8000   # Mb/s x ns / 8000 = bytes
    return bdp * p["pool_pct"] // 100


def validate(p):
    """(field, code) of the first bad field, or None."""
    for name, lo, hi in RANGES:
        v = p[name]
        if v < lo:
            return (name, "zero" if v == 0 else "out_of_range")
        if v > hi:
            return (name, "out_of_range")
    if pool_bytes(p) < p["mss_bytes"]:
        return ("mss_bytes", "inconsistent")
    return None


class Port:
    """One receiving port and its flows (by any hashable id)."""

    def __init__(self, p):
        assert validate(p) is None
        self.pool = pool_bytes(p)
        self.mss = p["mss_bytes"]
        self.n = 0
        self.flows = {}   # id -> {"limit": int or None, "active": bool}

    def share(self):
        if self.n == 0:
            return self.pool
        return max(self.pool // self.n, self.mss)

    def flow(self, fid):
        return self.flows.setdefault(fid, {"limit": None, "active": False})

    def rx(self, fid, end, backlog):
        """A data packet of flow fid ending at `end`; returns the credit limit."""
        f = self.flow(fid)
        has_backlog = backlog > end
        if has_backlog and not f["active"]:
            self.n += 1
            f["active"] = True
        elif not has_backlog and f["active"]:
            self.n -= 1
            f["active"] = False
        grant = min(end + self.share(), backlog) if has_backlog else backlog
        old = end if f["limit"] is None else f["limit"]
        f["limit"] = max(old, grant)
        return f["limit"]

    def close(self, fid):
        f = self.flow(fid)
        if f["active"]:
            self.n -= 1
        self.flows[fid] = {"limit": None, "active": False}


def nscc_params(p, **nscc_overrides):
    """NSCC's uec-default on RCCC's port speed (the vectors' sender)."""
    return nscc_ref.params("uec-default", line_rate_mbps=p["line_rate_mbps"], **nscc_overrides)


class Sender:
    def __init__(self, p, start, **nscc_overrides):
        self.nscc = nscc_ref.Flow(nscc_params(p, **nscc_overrides))
        self.credit = start + p["initial_credit_bytes"]
        self.snd_una = start

    def window(self):
        return min(self.nscc.w, max(self.credit - self.snd_una, 0))

    def ack(self, now, seq, snd_nxt, nbytes, ecn, rtt, credit):
        """seq, snd_nxt, credit: absolute (unbounded). Returns NSCC's changes."""
        ch = self.nscc.ack(now, seq, snd_nxt, nbytes, ecn, rtt)
        self.credit = max(self.credit, credit)
        self.snd_una = max(self.snd_una, seq)
        return ch

    def nack(self, now, nbytes, snd_nxt):
        return self.nscc.nack(now, nbytes, snd_nxt)
