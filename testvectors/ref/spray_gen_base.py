"""What every spray vector generator shares: the instruction bounds per
policy, the Scenario builder (a model flow from spray_ref.py and the vector
text, built together) and small helpers. spray_gen.py writes the vectors."""
from gen import Vector, flags_text

import spray_ref

# Instructions per event (x86-64, -O2, GCC 12.2.0, Release build of this
# tree), promised by every spray vector of a policy and checked under
# callgrind: `nicc-vectors --icount` under valgrind, then `--check-icount`.
# As counted by the runner: the dispatching spray::Select()/OnFeedback()
# plus the runner's measured lambda (about 30 instructions even for ecmp,
# whose own work is a load and a XOR). Measured worst over this generator's
# vectors, per policy (2026-12-02), then about +30% headroom, rounded up:
#
#   policy   worst select  worst feedback  ->  bound select  bound feedback
#   ecmp           33             40               45             55
#   ops            80             40              105             55
#   bitmap       2947             71             3850             95
#   reps           74            291              100            380
#   plb            39            108               55            145
#   dlb            46            134               60            175
#
# Where the worst comes from: bitmap select, k = 6 with all 64 EVs penalised
# (64 candidates walked; bitmap-k6-all-penalised; a selection skipping a few
# costs up to 251); reps feedback, a timeout walking a full ring of 8
# (reps-timeout-full-ring); reps select, a frozen/thawing replay; plb
# feedback, a round close that repaths (after a suspension check); dlb
# feedback, both EWMAs with an RTT sample and a move; ops select, a round
# start (k = 8).
BOUNDS = {
    "ecmp": (45, 55),
    "ops": (105, 55),
    "bitmap": (3850, 95),
    "reps": (100, 380),
    "plb": (55, 145),
    "dlb": (60, 175),
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
