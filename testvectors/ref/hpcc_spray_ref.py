"""Sprayed-HPCC reference model: HPCC's equations per path, combined by max.

Independent of the engine (engine/nicc/hpcc_spray.h): written from the
HPCC paper (Li et al., SIGCOMM 2019, Algorithm 1) applied to each path's own
INT history, and from the combination rule of docs/hpcc.md ("Sprayed
HPCC"): U = the maximum of the measured path's U and the U of the other
paths heard from within the base RTT T (the paths the flow sends on). The
window law, the parameters and the wire format are those of the
single-path model (hpcc_ref.py), which this one extends.

The path signal (docs/hpcc.md, "The path signal"): when the measured path's
U is above eta while some other path heard from within T is at or below
eta, the ACK also asks the spray policy to move off this EV: the flag
change_ev with the ACK's EV (self.ev_out).

A path is an entropy value (EV, the UDP source port the ACK reports). At
most 4 paths, and at most 12 // n with n-hop stacks; a new EV beyond that
takes the slot of the least recently seen path (NIC time; ties: the first
slot). A change of hop count or multiplier drops every path.
"""

import math

import hpcc_ref
from hpcc_ref import (MAX_HOP_DELTA_NS, QLEN_UNIT, RATE_GBPS, TS_BITS, TX_BITS, TX_PLAUSIBLE, TX_UNIT,
                      U_CAP, decode_stack, elapsed_ns)

MAX_PATHS = 4
HOP_RECORDS = 12


def path_cap(n):
    return MAX_PATHS if n == 0 else min(MAX_PATHS, HOP_RECORDS // n)


class Path:
    def __init__(self, ev, u, now, recs):
        self.ev, self.u, self.last, self.recs = ev, u, now, list(recs)


class SpraySender(hpcc_ref.Sender):
    """One sprayed-HPCC flow; on_stack() takes the ACK's EV."""

    def __init__(self, p, start_seq=0):
        super().__init__(p, start_seq)
        self.paths = []        # slot order
        self.n = None
        self.mult = None
        self.ev_out = None     # the EV of the last change_ev

    def clone(self):
        c = SpraySender.__new__(SpraySender)
        c.__dict__.update(self.__dict__)
        c.paths = [Path(q.ev, q.u, q.last, q.recs) for q in self.paths]
        return c

    def on_stack(self, now, ack_seq, snd_nxt, ev, buf):
        self.margin = math.inf
        status, mult, recs = decode_stack(buf)
        if status != "ok":
            return set(), status
        return self.on_ack_ev(now, ack_seq, snd_nxt, ev, mult, recs), "ok"

    def _sample(self, path, recs, mult):
        """HPCC's per-hop utilisation on one path's history: (u, d) of the
        bottleneck hop, None when no hop's clock advanced, "change" when the
        records say another path or a hop's time stamps are too far apart
        (expired). Updates the records that advanced."""
        scale = 1 << mult
        samples = []
        new = list(path.recs)
        for i, (r, o) in enumerate(zip(recs, path.recs)):
            if r[0] != o[0]:
                return "change"
            d = (r[1] - o[1]) % (1 << TS_BITS)
            if d >= 1 << (TS_BITS - 1):
                return "change"
            if d > MAX_HOP_DELTA_NS:
                return "change"                            # expired at this hop: as an old history
            if d == 0:
                continue
            b = RATE_GBPS[r[0]] / 8.0
            tx_u = ((r[2] - o[2]) % (1 << TX_BITS)) * TX_UNIT * scale / (d * b)
            self._note(tx_u / TX_PLAUSIBLE - 1.0, "plausibility")
            if tx_u > TX_PLAUSIBLE:
                return "change"
            q = min(r[3], o[3]) * QLEN_UNIT * scale
            samples.append((min(q / (b * self.t) + tx_u, U_CAP), d, i))
            new[i] = r
        path.recs = new
        if not samples:
            return None
        u, d, i = samples[0]
        for s in samples[1:]:
            if s[0] >= u:
                u, d, i = s
        tau = min(d, self.t)
        for s in samples:
            if s[2] == i or min(s[1], self.t) == tau:
                continue
            if s[0] == u and (u == 0.0 or u == U_CAP):
                continue
            self._note((u - s[0]) / u, "bottleneck hop")
        return u, d

    def on_ack_ev(self, now, ack_seq, snd_nxt, ev, mult, recs):
        self.margin = math.inf
        n = len(recs)
        if n != self.n or mult != self.mult:
            self.paths, self.n, self.mult = [], n, mult
        path = next((q for q in self.paths if q.ev == ev), None)
        if path is None:
            if len(self.paths) < path_cap(n):
                self.paths.append(Path(ev, self.u, now, recs))
            else:
                ages = [elapsed_ns(now, q.last) for q in self.paths]
                k = ages.index(max(ages))                  # the first of the oldest
                self.paths[k] = Path(ev, self.u, now, recs)
            return set()
        last, path.last = path.last, now
        if elapsed_ns(now, last) > self.timeout_ns:
            path.recs = list(recs)                         # expired: U kept
            return set()
        got = self._sample(path, recs, mult)
        if got == "change":
            path.recs = list(recs)
            return set()
        if got is None:
            return set()
        u, d = got
        tau = min(d, self.t)
        path.u = min(path.u * (1.0 - tau / self.t) + u * tau / self.t, U_CAP)
        # The other paths in use: an ACK within the last T (integer ns).
        others = [q.u for q in self.paths if q is not path and elapsed_ns(now, q.last) <= self.t]
        self.u = max([path.u] + others)
        flags = self._window_law(ack_seq, snd_nxt)
        if others:
            self._note((path.u - self.eta) / self.eta, "path U vs eta")
            if path.u > self.eta:
                self._note((min(others) - self.eta) / self.eta, "other path U vs eta")
                if min(others) <= self.eta:
                    flags = flags | {"change_ev"}
                    self.ev_out = ev
        return flags
