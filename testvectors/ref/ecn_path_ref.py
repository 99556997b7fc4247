"""Reference model of the ECN path rule (UEC NSCC's "ECN with low delay ->
change path"), written from docs/spray.md ("The ECN path rule") and the UEC
1.0 NSCC description, not from the engine.

A flow remembers the port of its last packet and its newest RTT sample. A
congestion mark (a CNP) is classified by the queueing delay that sample
shows, q = max(rtt - base_rtt, 0):

  rule off, or no RTT sample yet          -> the CC reacts to the mark
  q <= low_delay                          -> change path: report the last
                                             port as marked, keep the rate
                                             (no packet sent yet: nothing to
                                             blame, the CC reacts)
  q >  low_delay                          -> the CC reacts

Parameters (docs/params.md, table ecn_rule): change_path_on_low_delay
(bool), low_delay_ns and base_rtt_ns (0 .. 2^31 - 1 ns each).
"""

PROFILES = {
    "ecn-nscc": {"change_path_on_low_delay": 1, "low_delay_ns": 4000, "base_rtt_ns": 13000},
    "ecn-off": {"change_path_on_low_delay": 0, "low_delay_ns": 4000, "base_rtt_ns": 13000},
}

# Field order of the parameter table: the first bad field is the one named.
RANGES = [
    ("change_path_on_low_delay", 0, 1),
    ("low_delay_ns", 0, 2 ** 31 - 1),
    ("base_rtt_ns", 0, 2 ** 31 - 1),
]


def params(profile, **overrides):
    p = dict(PROFILES[profile])
    for k, v in overrides.items():
        if k not in p:
            raise KeyError(k)
        p[k] = v
    return p


def validate(p):
    """(field, code) of the first field outside its range, or None."""
    for name, lo, hi in RANGES:
        v = p[name]
        if v < lo:
            return (name, "zero" if v == 0 else "out_of_range")
        if v > hi:
            return (name, "out_of_range")
    return None


class Flow:
    """One flow's memory of its last port and newest RTT."""

    def __init__(self, p):
        self.p = p
        self.last_port = None  # no packet sent yet
        self.rtt_ns = None     # no sample yet

    def send(self, port):
        self.last_port = port

    def ack(self, rtt_ns):
        """An RTT sample; 0 stands for "no sample" and changes nothing."""
        if rtt_ns > 0:
            self.rtt_ns = rtt_ns

    def mark(self):
        """("change_path", port) or ("to_cc", None)."""
        p = self.p
        if not p["change_path_on_low_delay"] or self.rtt_ns is None:
            return ("to_cc", None)
        queueing = max(self.rtt_ns - p["base_rtt_ns"], 0)
        if queueing <= p["low_delay_ns"] and self.last_port is not None and self.last_port != 0:
            return ("change_path", self.last_port)
        return ("to_cc", None)
