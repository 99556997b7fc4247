"""ECN path rule conformance vectors: the rule on and off, the threshold
edges, no RTT sample, RTT below the base, no packet sent yet, parameter
errors; expected verdicts from ecn_path_ref.py.

    python3 testvectors/ref/gen.py --only ecn_path

The runner (testvectors/runner/executor.cc, RunEcnPath) starts one flow's
ecn_path::State from Init(), applies `send ev=PORT` (OnSend), `ack rtt=NS`
(OnRtt) and `mark` (OnMark), and after a mark checks change_path, to_cc and
ev (the port blamed, 0 when the CC reacts); after every event last_rtt_ns
(the newest sample, 0 = none).
"""
from gen import Vector, write

import ecn_path_ref

# Instructions per event (x86-64, -O2, GCC 12.2.0, Release build), promised
# by every vector and checked under callgrind (scripts/vectors-check.sh).
# As counted by the runner: the engine call plus the runner's measured
# lambda. Measured worst over these vectors (2026-12-03): send 11, ack 11,
# mark 31 (a change-path verdict with the delay compare); bounds about +10%
# (at least +4), rounded up to 5.
BOUNDS = {"send": 15, "ack": 15, "mark": 35}


class Scenario:
    def __init__(self, name, profile, comment, **overrides):
        self.p = ecn_path_ref.params(profile, **overrides)
        assert ecn_path_ref.validate(self.p) is None
        self.flow = ecn_path_ref.Flow(self.p)
        self.vec = Vector("ecn_path", "ecn_path/" + name, profile, comment)
        for k, v in overrides.items():
            self.vec.add(f"param {k} {v}")
        for kind, bound in BOUNDS.items():
            self.vec.add(f"bound {kind} {bound}")
        self.t = 0

    def _state(self):
        self.vec.add(f"expect last_rtt_ns {self.flow.rtt_ns or 0}")

    def send(self, port):
        self.t += 100
        self.flow.send(port)
        self.vec.add(f"at {self.t} send ev={port}")
        self.vec.add("expect flags none")
        self._state()

    def ack(self, rtt):
        self.t += 100
        self.flow.ack(rtt)
        self.vec.add(f"at {self.t} ack rtt={rtt}")
        self.vec.add("expect flags none")
        self._state()

    def mark(self):
        self.t += 100
        verdict, port = self.flow.mark()
        self.vec.add(f"at {self.t} mark")
        self.vec.add("expect flags none")
        self.vec.add(f"expect change_path {1 if verdict == 'change_path' else 0}")
        self.vec.add(f"expect to_cc {1 if verdict == 'to_cc' else 0}")
        self.vec.add(f"expect ev {port or 0}")
        self._state()
        return verdict


def param_error(name, profile, field, code, comment, **overrides):
    p = ecn_path_ref.params(profile, **overrides)
    got = ecn_path_ref.validate(p)
    assert got == (field, code), (name, got)
    vec = Vector("ecn_path", "ecn_path/" + name, profile, comment)
    for k, v in overrides.items():
        vec.add(f"param {k} {v}")
    vec.add(f"expect-status {field} {code}")
    return vec


def gen_ecn_path(out_dir):
    vs = []

    s = Scenario("on-low-delay", "ecn-nscc", """
Rule on (ecn-nscc: low delay 4 us over a 13 us base). A packet on 0xC005,
an RTT of 15 us (2 us of queueing): a mark blames port 0xC005 and keeps the
rate. A later packet on 0xC002 is blamed by the next mark.""")
    s.send(0xC005)
    s.ack(15000)
    assert s.mark() == "change_path"
    s.send(0xC002)
    assert s.mark() == "change_path"
    vs.append(s.vec)

    s = Scenario("on-high-delay", "ecn-nscc", """
Rule on, 30 us RTT (17 us of queueing): the mark goes to the CC. A newer
sample of 14 us brings the delay low again and the next mark changes path.""")
    s.send(0xC001)
    s.ack(30000)
    assert s.mark() == "to_cc"
    s.ack(14000)
    assert s.mark() == "change_path"
    vs.append(s.vec)

    s = Scenario("off", "ecn-off", """
Rule off (ecn-off): every mark goes to the CC, however low the delay.""")
    s.send(0xC001)
    s.ack(13000)
    assert s.mark() == "to_cc"
    s.ack(1)
    assert s.mark() == "to_cc"
    vs.append(s.vec)

    s = Scenario("threshold-edges", "ecn-nscc", """
The edge is inclusive: queueing delay == low_delay_ns (17000 - 13000 = 4000)
changes path, one ns more goes to the CC, one ns less changes path.""")
    s.send(0xC003)
    for rtt in (17000, 17001, 16999, 17000, 2 ** 32 - 1):
        s.ack(rtt)
        s.mark()
    vs.append(s.vec)

    s = Scenario("low-delay-zero", "ecn-nscc", """
low_delay_ns 0: only an RTT at or below the base counts as low.""", low_delay_ns=0)
    s.send(0xC007)
    for rtt in (13000, 13001, 12999, 1):
        s.ack(rtt)
        s.mark()
    vs.append(s.vec)

    s = Scenario("low-delay-max", "ecn-nscc", """
low_delay_ns at its maximum (2^31 - 1) and base 0: every RTT up to 2^31 - 1
is low; 2^31 and the 32-bit maximum are not.""", low_delay_ns=2 ** 31 - 1, base_rtt_ns=0)
    s.send(0xFFFF)
    for rtt in (2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 1):
        s.ack(rtt)
        s.mark()
    vs.append(s.vec)

    s = Scenario("no-rtt-sample", "ecn-nscc", """
Rule on but no RTT sample yet: an unknown delay never counts as low, the
mark goes to the CC. An ack with rtt=0 carries no sample and changes
nothing; the first real sample makes the next mark change path.""")
    s.send(0xC004)
    assert s.mark() == "to_cc"
    s.ack(0)
    assert s.mark() == "to_cc"
    s.ack(14000)
    assert s.mark() == "change_path"
    s.ack(0)
    assert s.mark() == "change_path"
    vs.append(s.vec)

    s = Scenario("rtt-below-base", "ecn-nscc", """
RTT below the base RTT counts as zero queueing delay (low): 5 us and 1 ns
against a 13 us base both change path, also with low_delay_ns 0 ...""")
    s.send(0xC006)
    for rtt in (5000, 1, 12999):
        s.ack(rtt)
        s.mark()
    vs.append(s.vec)

    s = Scenario("rtt-below-base-zero-threshold", "ecn-nscc", """
... here with low_delay_ns 0 and a 100 us base.""", low_delay_ns=0, base_rtt_ns=100000)
    s.send(0xC006)
    for rtt in (99999, 100000, 100001):
        s.ack(rtt)
        s.mark()
    vs.append(s.vec)

    s = Scenario("nothing-sent", "ecn-nscc", """
Low delay but no packet sent yet: no path to blame, the mark goes to the CC.
A send on port 0 (0 = unknown port) leaves nothing to blame either.""")
    s.ack(14000)
    assert s.mark() == "to_cc"
    s.send(0)
    assert s.mark() == "to_cc"
    s.send(0xC000)
    assert s.mark() == "change_path"
    vs.append(s.vec)

    vs.append(param_error("err-change-path-range", "ecn-nscc", "change_path_on_low_delay",
                          "out_of_range", "change_path_on_low_delay is a bool: 2 is out of range.",
                          change_path_on_low_delay=2))
    vs.append(param_error("err-low-delay-range", "ecn-nscc", "low_delay_ns", "out_of_range",
                          "low_delay_ns above the wrap-safe horizon 2^31 - 1.",
                          low_delay_ns=2 ** 31))
    vs.append(param_error("err-base-rtt-range", "ecn-off", "base_rtt_ns", "out_of_range",
                          "base_rtt_ns above 2^31 - 1 (also with the rule off: a config is complete).",
                          base_rtt_ns=2 ** 32 - 1))
    vs.append(param_error("err-first-field-wins", "ecn-nscc", "change_path_on_low_delay",
                          "out_of_range", "Two bad fields: the first in table order is named.",
                          change_path_on_low_delay=7, base_rtt_ns=2 ** 31))
    return [write(out_dir, v) for v in vs]
