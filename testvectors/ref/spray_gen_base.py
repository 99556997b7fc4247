"""What every spray vector generator shares: the instruction bounds per
policy, the Scenario builder (a model flow from spray_ref.py and the vector
text, built together) and small helpers. spray_gen.py writes the vectors."""
from gen import Vector, flags_text

import spray_ref

# Instructions per event (x86-64, the release build's flags, GCC 12.2.0),
# promised by every spray vector of a policy and checked under callgrind:
# `nicc-vectors --icount` under valgrind, then `--check-icount`. As counted
# by the runner: the dispatching spray::Select()/OnFeedback() plus the
# runner's measured call (about 25 instructions even for ecmp, whose own
# work is a load and a XOR). Measured worst over this generator's vectors,
# per policy (2026-12-03, bit-sliced bitmap penalties), then about +10%:
#
#   policy   worst select  worst feedback  ->  bound select  bound feedback
#   ecmp           33             40               40             45
#   ops            80             40               90             45
#   bitmap       1313            104             1445            115
#   reps           74            268               85            295
#   plb            39            111               45            125
#   dlb            46            134               55            150
#
# Where the worst comes from: bitmap select, k = 6 with all 64 EVs penalised
# (64 candidates walked at ~17 instructions each, 32-bit words so that
# 32-bit cores need no libgcc shift; bitmap-k6-all-penalised; it was 2947
# with nibble penalties; a selection skipping a few costs up to 293);
# bitmap feedback reads and writes four bit planes (71 with nibbles);
# reps feedback, a timeout walking a full ring of 8
# (reps-timeout-full-ring; 291 before the purge kept the credits in a
# register); reps select, a frozen/thawing replay; plb
# feedback, a round close that repaths (after a suspension check); dlb
# feedback, both EWMAs with an RTT sample and a move; ops select, a round
# start (k = 8).
BOUNDS = {
    "ecmp": (40, 45),
    "ops": (90, 45),
    "bitmap": (1445, 115),
    "reps": (85, 295),
    "plb": (45, 125),
    "dlb": (55, 150),
}

US = 1000
WRAP = 2 ** 32


class Scenario:
    """One spray vector: a model flow and the vector text, built together.
    Times are relative to `start`; `self.t` is the running clock."""

    def __init__(self, name, policy, comment, seed=1, start=0, **overrides):
        self.p = spray_ref.params(policy, **overrides)
        self.flow = spray_ref.Flow(self.p, seed)
        self.vec = Vector("spray", "spray/" + name, policy, comment)
        for k, v in overrides.items():
            self.vec.add(f"param {k} {v}")
        self.vec.add(f"seed {seed}")
        sel, fb = BOUNDS[policy]
        self.vec.add(f"bound select {sel}")
        self.vec.add(f"bound feedback {fb}")
        self.start = start
        self.t = 0
        self.ports = self.flow.ports
        self.selected = []

    def port(self, i):
        return self.ports[i]

    def index(self, port):
        return self.ports.index(port)

    def _advance(self, at, dt):
        if at is not None:
            assert at >= self.t, (at, self.t)
            self.t = at
        else:
            self.t += dt

    def select(self, at=None, dt=100):
        """A selection; returns the port the model expects."""
        self._advance(at, dt)
        port = self.flow.select(self.start + self.t)
        self.vec.add(f"at {self.start + self.t} select")
        self.vec.add(f"expect ev {port}")
        self.vec.add(f"expect flags {flags_text({'use_ev'})}")
        self.selected.append(port)
        return port

    def selects(self, n, **kw):
        return [self.select(**kw) for _ in range(n)]

    def feedback(self, port, kind, rtt=0, at=None, dt=100):
        self._advance(at, dt)
        self.flow.feedback(port, kind, rtt, self.start + self.t)
        self.vec.add(f"at {self.start + self.t} feedback ev={port} kind={kind} rtt={rtt}")
        self.vec.add(f"expect flags {flags_text(set())}")

    def note(self, text):
        self.vec.add("# " + text)


def param_error(name, policy, field, code, comment, **overrides):
    p = spray_ref.params(policy, **overrides)
    got = spray_ref.validate(p)
    assert got == (field, code), (name, got)
    vec = Vector("spray", "spray/" + name, policy, comment)
    for k, v in overrides.items():
        vec.add(f"param {k} {v}")
    vec.add(f"expect-status {field} {code}")
    return vec


def is_perm(xs, n):
    return sorted(xs) == list(range(n))


# ---------------------------------------------------------------------------
# ecmp
# ---------------------------------------------------------------------------
