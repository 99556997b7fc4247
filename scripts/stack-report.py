#!/usr/bin/env python3
"""Worst-case stack use per entry point from GCC's -fcallgraph-info=su output.

Usage: stack-report.py FILE.ci [FILE.ci ...]

For every function whose name starts with nicc_ (the extern "C" entry points
of the footprint probes) prints its own frame and the worst total along any
call chain inside the unit. Calls that leave the unit (libgcc helpers such as
__udivdi3, memcpy) are listed by name: their frames are not known here.
"""
import re
import sys

NODE = re.compile(r'node: \{ title: "([^"]+)" label: "([^"]*)"')
EDGE = re.compile(r'edge: \{ sourcename: "([^"]+)" targetname: "([^"]+)"')
BYTES = re.compile(r'(\d+) bytes \((static|dynamic[^)]*)\)')


def load(path):
    frames, edges, dynamic = {}, {}, set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = NODE.search(line)
            if m:
                b = BYTES.search(m.group(2))
                frames[m.group(1)] = int(b.group(1)) if b else None
                if b and b.group(2) != "static":
                    dynamic.add(m.group(1))
                continue
            m = EDGE.search(line)
            if m:
                edges.setdefault(m.group(1), set()).add(m.group(2))
    return frames, edges, dynamic


def worst(fn, frames, edges, seen):
    """Worst stack from fn down; cycles (recursion) are reported, not followed."""
    if fn in seen:
        return 0, {"<recursion>"}
    own = frames.get(fn)
    if own is None:
        return 0, {fn}
    best, external = 0, set()
    for callee in sorted(edges.get(fn, ())):
        depth, ext = worst(callee, frames, edges, seen | {fn})
        best = max(best, depth)
        external |= ext
    return own + best, external


def main(paths):
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    for path in paths:
        frames, edges, dynamic = load(path)
        for fn in sorted(f for f in frames if f.startswith("nicc_")):
            total, external = worst(fn, frames, edges, frozenset())
            note = ""
            if external:
                note = "  + external: " + ", ".join(sorted(external))
            if fn in dynamic:
                note += "  (dynamic frame)"
            print(f"  stack {fn:<28} own {frames[fn]:>4}  worst {total:>4}{note}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
