"""nicc_results.py — a nicc-sim run's summary.json, read through its schema.

    import nicc_results
    s = nicc_results.load("out/run1")          # the directory or its summary.json
    s["fct_slowdown.p99"]                      # a declared field; KeyError if absent
    s.get("collectives.allreduce.total_us", -1)
    s.has("training")

Every field of summary.json is declared once, in
sim-adapter/scenario/core/summary-schema.txt (path, type, when it is
present). load() refuses a summary that has a field the schema does not
declare, a field of the wrong type, or lacks a field every run of its kind
has, naming the file and the field; a script asking for a path the schema
does not declare is refused too, so a renamed field cannot be read as
"absent" by mistake.

    python3 scripts/nicc_results.py check DIR_OR_FILE...   # exit 1 on a refused summary
    python3 scripts/nicc_results.py self-test              # the checks refuse what they should
"""
import json
import os
import sys

SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "sim-adapter", "scenario", "core",
                      "summary-schema.txt")
WHENS = ("always", "fabric", "one-switch", "optional")


class SummaryError(Exception):
    """A summary that does not match the schema, or a schema that is malformed."""


_schema = None


def schema():
    """{path: (type, when)} from summary-schema.txt, read once."""
    global _schema
    if _schema is None:
        rows = {}
        with open(SCHEMA, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                parts = line.split()
                if len(parts) != 3 or parts[2] not in WHENS or parts[0] in rows:
                    raise SummaryError(f"{SCHEMA}:{n}: expected 'FIELD TYPE WHEN' (WHEN one of "
                                       f"{', '.join(WHENS)}; each field once), got {line!r}")
                rows[parts[0]] = (parts[1], parts[2])
        # The objects that hold declared members are declared by them.
        for pattern in list(rows):
            segs = _segments(pattern)
            for k in range(1, len(segs)):
                if segs[k] == "[]":
                    continue
                parent = ".".join(segs[:k]).replace(".[]", "[]")
                rows.setdefault(parent, ("obj", "optional"))
        _schema = rows
    return _schema


def _segments(path):
    """'a.b[].c' -> ['a', 'b', '[]', 'c']."""
    out = []
    for part in path.split("."):
        while part.endswith("[]"):
            out.append(part[:-2])
            out.append("[]")
            part = ""
        if part:
            out.append(part)
    return [s for s in out if s != ""]


def declared(path):
    """The schema row pattern a concrete path ('collectives.allreduce.total_us',
    'faults[].kind') falls under, or None. A literal member wins over <...>."""
    return _declared(_split_path(path))


def _split_path(path):
    """A dotted path's segments; config keys keep their dots ('config.dcqcn.rp_time_reset')."""
    if path.startswith("config."):
        return ["config", path[len("config."):]]
    return _segments(path)


def _declared(want):
    best = None
    for pattern in schema():
        pat = _segments(pattern)
        if len(pat) != len(want):
            continue
        score = 0
        for p, w in zip(pat, want):
            if p == w:
                score += 1
            elif not (p.startswith("<") and p.endswith(">") and w != "[]"):
                break
        else:
            if best is None or score > best[0]:
                best = (score, pattern)
    return best[1] if best else None


def _type_ok(value, ty):
    if ty.endswith("?"):
        return value is None or _type_ok(value, ty[:-1])
    if ty.startswith("[") and ty.endswith("]"):
        inner = ty[1:-1]
        return isinstance(value, list) and all(_type_ok(v, inner) for v in value)
    return {
        "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "num": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
        "bool": lambda v: isinstance(v, bool),
        "str": lambda v: isinstance(v, str),
        "obj": lambda v: isinstance(v, dict),
    }.get(ty, lambda v: False)(value)


def _walk(value, segs, out):
    """Every (segments, value) of the summary, objects and lists of objects included."""
    if segs:
        out.append((segs, value))
    if isinstance(value, dict):
        for k, v in value.items():
            _walk(v, segs + [k], out)
    elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        for v in value:
            _walk(v, segs + ["[]"], out)


def _text(segs):
    return ".".join(segs).replace(".[]", "[]")


def check(data, source="summary.json"):
    """Problems of one summary against the schema (empty: it conforms)."""
    problems = []
    if not isinstance(data, dict):
        return [f"{source}: not a JSON object"]
    seen = set()
    fields = []
    _walk(data, [], fields)
    for segs, value in fields:
        path = _text(segs)
        pattern = _declared(segs)
        if pattern is None:
            problems.append(f"{source}: field '{path}' is not declared in {os.path.basename(SCHEMA)}")
            continue
        seen.add(pattern)
        ty = schema()[pattern][0]
        if ty == "[obj]" and isinstance(value, list) and not value:
            continue
        if not _type_ok(value, ty):
            problems.append(f"{source}: field '{path}': expected {ty}, got {json.dumps(value)[:60]}")
    kind = "fabric" if "topology" in data else "one-switch"
    for pattern, (_, when) in schema().items():
        if pattern in seen or when not in ("always", kind):
            continue
        if "<" in pattern or "[]" in pattern:
            continue  # members of maps and lists: only where the map / list has any
        problems.append(f"{source}: field '{pattern}' is missing (every {kind if when != 'always' else ''}"
                        f"{' ' if when != 'always' else ''}run has it)")
    return problems


class Summary:
    """One summary.json, checked; fields by dotted path."""

    def __init__(self, data, source):
        self.data = data
        self.source = source

    def _lookup(self, path):
        if declared(path) is None:
            raise KeyError(f"'{path}' is not a summary.json field ({os.path.basename(SCHEMA)} declares them)")
        v = self.data
        for part in _split_path(path):
            if not isinstance(v, dict) or part not in v:
                raise KeyError(f"{self.source}: no field '{path}' in this run")
            v = v[part]
        return v

    def __getitem__(self, path):
        return self._lookup(path)

    def get(self, path, default=None):
        try:
            return self._lookup(path)
        except KeyError:
            if declared(path) is None:
                raise
            return default

    def has(self, path):
        return self.get(path, None) is not None


def load(path, check_schema=True):
    """The summary.json of a run directory (or the file itself), checked.
    check_schema=False: a summary of an older binary (bench/events.sh
    --before), read as it is; paths asked for must still be declared."""
    file = os.path.join(path, "summary.json") if os.path.isdir(path) else path
    try:
        with open(file, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        raise SummaryError(f"{file}: cannot read a summary: {e}") from e
    problems = check(data, file) if check_schema else []
    if problems:
        raise SummaryError("\n".join(problems))
    return Summary(data, file)


def _self_test():
    """The checks refuse a doctored summary: an undeclared field, a wrong type,
    a missing field, a bad list element; and accept the undoctored one."""
    good = _minimal_summary()
    cases = []
    bad = json.loads(json.dumps(good))
    bad["flows"]["totl"] = 1
    cases.append(("undeclared field", bad, "'flows.totl' is not declared"))
    bad = json.loads(json.dumps(good))
    bad["flows"]["total"] = "3"
    cases.append(("wrong type", bad, "'flows.total': expected int"))
    bad = json.loads(json.dumps(good))
    del bad["sim"]["events"]
    cases.append(("missing field", bad, "'sim.events' is missing"))
    bad = json.loads(json.dumps(good))
    bad["fairness"]["mean_goodput_gbps"] = [1.0, "x"]
    cases.append(("bad list element", bad, "'fairness.mean_goodput_gbps': expected [num]"))
    failed = 0
    if check(good):
        print("self-test: the minimal summary was refused:", *check(good), sep="\n  ")
        failed += 1
    for name, data, expect in cases:
        got = check(data)
        ok = any(expect in p for p in got)
        print(f"self-test: {name:18s} {'refused' if ok else 'NOT refused'}")
        failed += 0 if ok else 1
    try:
        Summary(good, "x").get("flows.totl")
        print("self-test: an undeclared path was read")
        failed += 1
    except KeyError:
        pass
    return failed


def _minimal_summary():
    """A one-switch summary with every field its runs always have, built from the schema."""
    data = {}
    defaults = {"int": 0, "num": 0.5, "bool": False, "str": "x", "obj": {}}
    for pattern, (ty, when) in schema().items():
        if when not in ("always", "one-switch") or "<" in pattern or "[]" in pattern:
            continue
        node = data
        parts = pattern.split(".")
        for p in parts[:-1]:
            node = node.setdefault(p, {})
        if ty == "obj":
            node.setdefault(parts[-1], {})
        elif ty.startswith("["):
            node[parts[-1]] = []
        else:
            node[parts[-1]] = defaults[ty.rstrip("?")]
    return data


def main(argv):
    if len(argv) >= 1 and argv[0] == "self-test":
        failed = _self_test()
        print(f"nicc_results self-test: {'ok' if failed == 0 else f'{failed} failed'}")
        return 1 if failed else 0
    if len(argv) < 2 or argv[0] != "check":
        print(__doc__.strip(), file=sys.stderr)
        return 2
    bad = 0
    for p in argv[1:]:
        try:
            load(p)
        except SummaryError as e:
            print(e, file=sys.stderr)
            bad += 1
    print(f"nicc_results: {len(argv) - 1 - bad} conform, {bad} refused")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
