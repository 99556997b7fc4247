"""plan.py — a campaign file read, checked and expanded into points.

    camp = load("sweep.toml", nicc_sim=None, out=None)   # CampaignError on bad input
    for p in camp.points: p.index, p.id, p.values, p.sets, p.argv

A point is one nicc-sim run: the fixed keys of [set] plus one value of each
axis (the product of [axes], last axis fastest), then the extra [[point]]
tables. Its id is a hash of the scenario, its keys and values, so it names
the same run whatever order or axes the file has later.
"""
import argparse
import difflib
import hashlib
import json
import os
import re
import subprocess
import tempfile
import tomllib
from itertools import product

from . import CampaignError

# Top-level fields and tables of a campaign file, and the fields of each table.
TOP_FIELDS = {"name", "scenario", "out", "set", "axes", "point", "run", "slurm", "collect"}
TABLE_FIELDS = {
    "run": {"jobs", "timeout_s", "nicc_sim", "ntasks"},
    "slurm": {"cpus_per_task", "mem", "time", "partition", "account", "throttle",
              "job_name", "sbatch_args", "prologue", "poll_s"},
    "collect": {"metrics"},
}
# ntasks: MPI ranks per point, the one setting behind --ntasks, [run] ntasks,
# `mpirun -np N`, nicc-sim's mpi_ranks=N and Slurm's --ntasks=N.
NTASKS_HELP = ("MPI ranks per point (default [run] ntasks, else 1): N > 1 runs each point as "
               "`mpirun -np N nicc-sim ... mpi_ranks=N` (one simulation across N ranks; needs a nicc-sim "
               "built against ns-3 with MPI, e.g. build/mpi/sim-adapter/nicc-sim of scripts/mpi-check.sh) "
               "and, on Slurm, each point is one N-task job (#SBATCH --ntasks=N); 1 = one process, no mpirun")
MPIRUN = ["mpirun", "--bind-to", "none", "-np"]   # ranks unbound: several points may share a node
RANGE = re.compile(r"^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*(?::\s*(\d+)\s*)?$")
SCRIPT_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Point:
    def __init__(self, index, values, sets, scenario):
        self.index = index
        self.values = values        # axis name -> value as in the file (int, float, str, bool)
        self.sets = sets            # every --set key -> string given to nicc-sim
        key = json.dumps({"scenario": scenario, "set": sets}, sort_keys=True)
        self.id = hashlib.sha1(key.encode()).hexdigest()[:12]
        self.argv = []


class Campaign:
    pass


def line_of(text, key):
    """Line number (1-based) of the first `key =` or `[key]` in the file text, or 0."""
    leaf = key.split(".")[-1]
    pat = re.compile(r'^\s*(\[\[?\s*%s\s*\]\]?|"?%s"?\s*=)' % (re.escape(key), re.escape(leaf)))
    for i, line in enumerate(text.splitlines(), 1):
        if pat.match(line):
            return i
    return 0


def where(path, text, key):
    n = line_of(text, key)
    return "%s:%d" % (path, n) if n else path


def flatten(table, prefix=""):
    """{"dcqcn": {"rp_time_reset": 3}} -> {"dcqcn.rp_time_reset": 3} (TOML dotted keys)."""
    out = {}
    for k, v in table.items():
        name = prefix + k
        if isinstance(v, dict):
            out.update(flatten(v, name + "."))
        else:
            out[name] = v
    return out


def to_arg(v):
    """A TOML value as nicc-sim's --set spells it."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v)
    return str(v)


def axis_values(path, text, name, v):
    """An axis: a list, a range string "a..b" or "a..b:step" (integers), or one value."""
    if isinstance(v, str):
        m = RANGE.match(v)
        if m:
            lo, hi, step = int(m.group(1)), int(m.group(2)), int(m.group(3) or 1)
            if hi < lo or step < 1:
                raise CampaignError("%s: [axes] %s = \"%s\": empty range (want low..high[:step], "
                                    "low <= high, step >= 1)" % (where(path, text, name), name, v))
            return list(range(lo, hi + 1, step))
        return [v]
    if isinstance(v, list):
        if not v:
            raise CampaignError("%s: [axes] %s: empty list" % (where(path, text, name), name))
        for x in v:
            if isinstance(x, (list, dict)):
                raise CampaignError("%s: [axes] %s: values must be numbers, strings or booleans"
                                    % (where(path, text, name), name))
        args = [to_arg(x) for x in v]
        dup = sorted({a for a in args if args.count(a) > 1})
        if dup:
            raise CampaignError("%s: [axes] %s: value %s given twice" % (where(path, text, name), name, dup[0]))
        return list(v)
    if isinstance(v, (int, float, bool)):
        return [v]
    raise CampaignError("%s: [axes] %s: want a list, a range \"1..5\" or a value" % (where(path, text, name), name))


def ntasks_arg(text):
    """--ntasks: an integer >= 1 (argparse type)."""
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError("'%s': want an integer >= 1 (MPI ranks per point)" % text)
    return n


def ntasks_of(path, text, cli, from_file):
    """--ntasks, then [run] ntasks, then 1."""
    if cli is not None:
        return cli
    if from_file is None:
        return 1
    if isinstance(from_file, bool) or not isinstance(from_file, int) or from_file < 1:
        raise CampaignError("%s: [run] ntasks = %s: want an integer >= 1 (MPI ranks per point)"
                            % (where(path, text, "ntasks"), json.dumps(from_file)))
    return from_file


def check_mpi(nicc_sim, ntasks):
    """ntasks > 1 needs nicc-sim built with MPI: a tiny run with mpi_ranks=1 (one process) says."""
    with tempfile.TemporaryDirectory(prefix="nicc-mpi-probe.") as d:
        r = subprocess.run([nicc_sim, "--scenario", "leaf-spine", "--set",
                            "leaves=1,spines=1,hosts_per_leaf=2,poisson_load=0,stop_ms=0.001,mpi_ranks=1",
                            "--out", d, "--plots=false", "--progress=false"],
                           capture_output=True, text=True, stdin=subprocess.DEVNULL)
    if r.returncode != 0:
        err = [l for l in r.stderr.splitlines() if l.strip()]
        raise CampaignError("ntasks = %d: %s cannot run across MPI ranks (%s); use a nicc-sim built against "
                            "ns-3 with MPI (bash scripts/mpi-check.sh builds build/mpi/sim-adapter/nicc-sim), "
                            "or ntasks = 1" % (ntasks, nicc_sim, err[-1] if err else "exit %d" % r.returncode))


def find_nicc_sim(explicit, camp_dir, from_file):
    """--nicc-sim, then $NICC_SIM, then [run] nicc_sim, then the release build tree."""
    for cand, base in ((explicit, os.getcwd()), (os.environ.get("NICC_SIM"), os.getcwd()),
                       (from_file, camp_dir)):
        if cand:
            return os.path.abspath(os.path.join(base, cand))
    return os.path.join(os.path.dirname(SCRIPT_DIR), "build", "release", "sim-adapter", "nicc-sim")


def key_list(nicc_sim):
    """Every key and alias nicc-sim accepts (nicc-sim --list-keys)."""
    if not os.access(nicc_sim, os.X_OK):
        raise CampaignError("nicc-sim not found at %s (build it, or pass --nicc-sim PATH / set NICC_SIM)"
                            % nicc_sim)
    r = subprocess.run([nicc_sim, "--list-keys"], capture_output=True, text=True)
    if r.returncode != 0:
        raise CampaignError("%s --list-keys failed (exit %d): %s" % (nicc_sim, r.returncode, r.stderr.strip()))
    return {line.split("\t")[0] for line in r.stdout.splitlines() if line.strip()}


def check_keys(path, text, section, keys, known):
    for k in keys:
        if k not in known:
            near = difflib.get_close_matches(k, sorted(known), n=3, cutoff=0.5)
            hint = " (did you mean %s?)" % " or ".join("'%s'" % n for n in near) if near else ""
            raise CampaignError("%s: [%s] unknown scenario key '%s'%s; nicc-sim --help lists every key"
                                % (where(path, text, k), section, k, hint))


def load(path, nicc_sim=None, out=None, check_keys_with_sim=True, ntasks=None):
    try:
        text = open(path, encoding="utf-8").read()
    except OSError as e:
        raise CampaignError("%s: cannot read: %s" % (path, e.strerror))
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise CampaignError("%s: %s" % (path, e))
    for k in doc:
        if k not in TOP_FIELDS:
            raise CampaignError("%s: unknown field '%s' (fields: %s)" % (where(path, text, k), k,
                                                                        ", ".join(sorted(TOP_FIELDS))))
    for t, fields in TABLE_FIELDS.items():
        tab = doc.get(t, {})
        if not isinstance(tab, dict):
            raise CampaignError("%s: '%s' must be a table [%s]" % (where(path, text, t), t, t))
        for k in tab:
            if k not in fields:
                raise CampaignError("%s: [%s] unknown field '%s' (fields: %s)"
                                    % (where(path, text, k), t, k, ", ".join(sorted(fields))))
    c = Campaign()
    c.path = os.path.abspath(path)
    c.dir = os.path.dirname(c.path)
    c.text = text
    c.name = str(doc.get("name") or os.path.splitext(os.path.basename(path))[0])
    if not re.match(r"^[A-Za-z0-9_.-]+$", c.name):
        raise CampaignError("%s: name '%s': letters, digits, '.', '_' and '-' only" % (where(path, text, "name"), c.name))
    scen = doc.get("scenario")
    if not isinstance(scen, str) or not scen:
        raise CampaignError("%s: 'scenario' missing: a built-in scenario (incast, fairness, leaf-spine, "
                            "ai-cluster) or a scenario file" % path)
    c.scenario_ref = scen                 # as written: the point ids do not depend on where the checkout is
    if scen.endswith(".toml") or "/" in scen:
        f = os.path.normpath(os.path.join(c.dir, scen))
        if not os.path.isfile(f):
            raise CampaignError("%s: scenario file %s not found" % (where(path, text, "scenario"), f))
        scen = f
    c.scenario = scen
    c.out = os.path.abspath(out or doc.get("out") or os.path.join("out", "campaign-" + c.name))
    c.run = doc.get("run", {})
    c.slurm = doc.get("slurm", {})
    c.collect = doc.get("collect", {})
    c.nicc_sim = find_nicc_sim(nicc_sim, c.dir, c.run.get("nicc_sim"))
    c.ntasks = ntasks_of(path, text, ntasks, c.run.get("ntasks"))

    fixed = flatten(doc.get("set", {}))
    axes = flatten(doc.get("axes", {}))
    extra = doc.get("point", [])
    if not isinstance(extra, list) or any(not isinstance(e, dict) for e in extra):
        raise CampaignError("%s: 'point' must be tables [[point]]" % where(path, text, "point"))
    extra = [flatten(e) for e in extra]
    for k, v in fixed.items():
        if isinstance(v, (list, dict)):
            raise CampaignError("%s: [set] %s: one value (a list is an axis: put it in [axes])"
                                % (where(path, text, k), k))
    for i, e in enumerate(extra):
        for k, v in e.items():
            if isinstance(v, (list, dict)):
                raise CampaignError("%s: [[point]] %d: %s: one value" % (where(path, text, k), i + 1, k))
    if not axes and not extra:
        raise CampaignError("%s: no [axes] and no [[point]]: nothing to run" % path)
    for section, keys in [("set", fixed), ("axes", axes)] + [("point", e) for e in extra]:
        if "mpi_ranks" in keys:
            raise CampaignError("%s: [%s] mpi_ranks: set by ntasks (--ntasks N or [run] ntasks = N: "
                                "mpirun -np N and mpi_ranks=N), not by hand"
                                % (where(path, text, "mpi_ranks"), section))
    if check_keys_with_sim:
        known = key_list(c.nicc_sim)
        if c.ntasks > 1:
            check_mpi(c.nicc_sim, c.ntasks)
        check_keys(path, text, "set", fixed, known)
        check_keys(path, text, "axes", axes, known)
        for e in extra:
            check_keys(path, text, "point", e, known)
    for k in axes:
        if k in fixed:
            raise CampaignError("%s: key '%s' is both in [set] and in [axes]" % (where(path, text, k), k))

    c.axes = list(axes)
    for e in extra:                       # keys of extra points are columns too
        c.axes += [k for k in e if k not in c.axes and k not in fixed]
    lists = [axis_values(path, text, k, v) for k, v in axes.items()]
    combos = [dict(zip(axes, vals)) for vals in product(*lists)] if axes else []
    combos += extra
    c.points = []
    seen = {}
    for i, vals in enumerate(combos):
        sets = {k: to_arg(v) for k, v in fixed.items()}
        sets.update({k: to_arg(v) for k, v in vals.items()})
        p = Point(i, vals, sets, c.scenario_ref)
        if p.id in seen:
            raise CampaignError("%s: point %d is the same run as point %d (%s)"
                                % (path, i, seen[p.id], ", ".join("%s=%s" % kv for kv in vals.items())))
        seen[p.id] = i
        p.argv = [c.nicc_sim, "--scenario", c.scenario, "--out", os.path.join(c.out, "points", p.id),
                  "--plots=false", "--progress=false"] + ["--set=%s=%s" % kv for kv in sets.items()]
        if c.ntasks > 1:                  # not in the id: any N gives the files of -np 1 (docs/scale.md)
            p.argv = MPIRUN + [str(c.ntasks)] + p.argv + ["--set=mpi_ranks=%d" % c.ntasks]
        c.points.append(p)
    return c


def plan_dict(c):
    """The campaign's points as planned now (plan.json's content)."""
    return {"campaign": c.path, "name": c.name, "scenario": c.scenario, "nicc_sim": c.nicc_sim,
            "cwd": c.dir, "axes": c.axes, "collect": c.collect, "ntasks": c.ntasks,
            "points": [{"index": p.index, "id": p.id, "values": p.values, "set": p.sets, "argv": p.argv,
                        "timeout_s": c.run.get("timeout_s", 0)} for p in c.points]}


def write_plan(c):
    """OUT/plan.json: the points as planned by the last plan or run."""
    plan = plan_dict(c)
    os.makedirs(c.out, exist_ok=True)
    tmp = os.path.join(c.out, "plan.json.tmp")
    with open(tmp, "w") as f:
        json.dump(plan, f, indent=1)
    os.replace(tmp, os.path.join(c.out, "plan.json"))
    return plan
