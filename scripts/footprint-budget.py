#!/usr/bin/env python3
"""Checks scripts/cross-check.sh's footprint report against the budgets.

Usage: footprint-budget.py REPORT BUDGETS [--propose]

REPORT is the footprint report (build/cross/footprint.txt): per target a
"## <target> (...)" line, per unit "<unit>: text <N> bytes" and its entry
points' "stack <fn> own <N> worst <N>" lines. BUDGETS is the one table of
budgets (bench/footprint/budgets.txt): per unit and target the text bytes
and the largest stack (worst along a call chain inside the unit) of any
event-path entry point; which entry points are not event paths (set-up and
size queries) is a regular expression in the same file.

Prints each unit's figures against its budget and exits 1 naming the unit,
target and figure of every budget exceeded, or a budgeted unit/target the
report lacks, or a unit the report has on a budgeted target without a
budget. --propose prints budget rows at the measured figures + 15% (text
rounded up to 16 B, stack to 8 B) instead of checking, to refresh the table.
A malformed budget file or a missing file: a message naming it, exit 2.
"""
import math
import re
import sys

TARGET = re.compile(r"^## (\S+)")
UNIT = re.compile(r"^(\S+): text (\d+) bytes")
STACK = re.compile(r"^\s+stack (\S+)\s+own\s+(\d+)\s+worst\s+(\d+)")


def load_report(path):
    """{(unit, target): {"text": n, "stack": {fn: worst}}}"""
    figures, target, unit = {}, None, None
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = TARGET.match(line)
            if m:
                target, unit = m.group(1), None
                continue
            m = UNIT.match(line)
            if m and target:
                unit = m.group(1)
                figures[(unit, target)] = {"text": int(m.group(2)), "stack": {}}
                continue
            m = STACK.match(line)
            if m and unit:
                figures[(unit, target)]["stack"][m.group(1)] = int(m.group(3))
    return figures


def bad(msg):
    print(f"footprint-budget: {msg}", file=sys.stderr)
    sys.exit(2)


def load_budgets(path):
    """(not-event-path regex, {(unit, target): (text, stack)}, order)"""
    setup, rows, order = None, {}, []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            if line.startswith("not-event-path:"):
                try:
                    setup = re.compile(line.split(":", 1)[1].strip())
                except re.error as e:
                    bad(f"{path}:{n}: not-event-path: {e}")
                continue
            cols = line.split()
            if len(cols) != 4 or not cols[2].isdigit() or not cols[3].isdigit():
                bad(f"{path}:{n}: expected 'unit target text_bytes stack_bytes', got '{line}'")
            key = (cols[0], cols[1])
            if key in rows:
                bad(f"{path}:{n}: a second budget for {cols[0]} on {cols[1]}")
            rows[key] = (int(cols[2]), int(cols[3]))
            order.append(key)
    if setup is None:
        bad(f"{path}: no 'not-event-path:' line")
    return setup, rows, order


def event_stack(fig, setup):
    """(largest worst stack over event-path entry points, its function)"""
    best, who = 0, "-"
    for fn, worst in sorted(fig["stack"].items()):
        if setup.search(fn):
            continue
        if worst > best:
            best, who = worst, fn
    return best, who


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    report, budgets = args
    for path in args:
        try:
            open(path, encoding="utf-8").close()
        except OSError as e:
            bad(f"{path}: {e.strerror}")
    figures = load_report(report)
    setup, rows, order = load_budgets(budgets)
    targets = sorted({t for _, t in rows})
    if "--propose" in argv:
        targets = targets or sorted({t for _, t in figures})
        for (unit, target), fig in sorted(figures.items(), key=lambda kv: (kv[0][0], kv[0][1])):
            if target not in targets or not fig["stack"]:
                continue
            stack, _ = event_stack(fig, setup)
            text = int(math.ceil(fig["text"] * 1.15 / 16.0)) * 16
            stack_b = int(math.ceil(stack * 1.15 / 8.0)) * 8
            print(f"{unit:<18} {target:<10} {text:>6} {stack_b:>5}   # measured {fig['text']} / {stack}")
        return 0
    fails = []
    print(f"footprint budgets ({budgets}):")
    print(f"  {'unit':<18} {'target':<10} {'text':>13} {'event stack':>11}  largest event path")
    for key in order:
        unit, target = key
        text_budget, stack_budget = rows[key]
        fig = figures.get(key)
        if fig is None:
            fails.append(f"{unit} on {target}: no figures in the report (unit or target renamed?)")
            continue
        stack, who = event_stack(fig, setup)
        print(f"  {unit:<18} {target:<10} {fig['text']:>6}/{text_budget:<6} {stack:>5}/{stack_budget:<5}  {who}")
        if fig["text"] > text_budget:
            fails.append(f"{unit} on {target}: text {fig['text']} B over its budget of {text_budget} B")
        if stack > stack_budget:
            fails.append(f"{unit} on {target}: stack of {who} {stack} B over its budget of {stack_budget} B")
    for (unit, target), fig in sorted(figures.items()):
        if target in targets and fig["stack"] and (unit, target) not in rows:
            fails.append(f"{unit} on {target}: no budget in {budgets}")
    for f in fails:
        print(f"FOOTPRINT OVER BUDGET: {f}")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
