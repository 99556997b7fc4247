"""What every spray vector generator shares: the instruction bounds per
policy, the Scenario builder (a model flow from spray_ref.py and the vector
text, built together) and small helpers. spray_gen.py writes the vectors."""
from gen import Vector, flags_text

import spray_ref

# Instructions per event (x86-64, the release build's flags, GCC 12.2.0),
# promised by every spray vector of a policy and checked under callgrind:
# `nicc-vectors --icount` under valgrind, then `--check-icount`. As counted
# by the runner: the dispatching spray::Select()/OnFeedback() plus the
# runner's measured call (about 15 instructions around the call; ecmp's
# select, a table jump, a load and a XOR, is 29 in all). Measured worst over
# this generator's vectors, per policy (2026-12-03, after the cost work of
# issue 17), then about +10%, rounded up to 5:
#
#   policy   worst select  worst feedback  ->  bound select  bound feedback
#   ecmp           29             42               35             50
#   ops            64             42               75             50
#   bitmap        145            106              160            120
#   reps           69            222               80            245
#   plb            34            113               40            125
#   dlb            42            119               50            135
#
# Where the worst comes from: bitmap select, a round start (PRNG draw) whose
# candidate is penalised: the skip (the candidate's penalty -1, the next
# clean EV in index order by masks and LowestBit) is constant work, 1313
# before the rule change (a walk over up to 64 candidates); bitmap feedback
# reads and writes four bit planes; reps feedback, a timeout purging a full
# ring of 8 (still a walk over the ring, 268 before); reps select, a
# frozen/thawing replay that moves the entry to the back; plb feedback, a
# round close that repaths (after a suspension check); dlb feedback, both
# EWMAs with an RTT sample and a move; ops select, a round start whose draw
# repeats the previous round's pair (k = 1). Feedback of ecmp/ops is the
# runner's call and the dispatch alone (the callee-saved registers the
# inlined dlb path needs are saved on every path).
BOUNDS = {
    "ecmp": (35, 50),
    "ops": (75, 50),
    "bitmap": (160, 120),
    "reps": (80, 245),
    "plb": (40, 125),
    "dlb": (50, 135),
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
