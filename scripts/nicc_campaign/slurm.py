"""slurm.py — the Slurm runner: one sbatch job array, one array task per point.

    script = sbatch_script(plan, out, settings, tasks_file, count)
    rc = run_slurm(plan, out, settings, dry_run=False, wait=True)

Only points not yet finished become tasks. Task i runs the point named on
line i+1 of OUT/slurm/tasks-<stamp>.txt (`nicc-campaign run-point`), so the
array is always 0..N-1 whatever the points' indices. Each point writes its
own directory (a shared file system is assumed, as on any cluster). Waiting
polls squeue for the job and the point directories for progress. With
plan["ntasks"] = N > 1 every array task is an N-task job (#SBATCH
--ntasks=N) whose point runs as `mpirun -np N nicc-sim ... mpi_ranks=N`.
"""
import json
import os
import shlex
import subprocess
import sys
import time

from . import CampaignError, points
from .local import fmt_s

CAMPAIGN_SCRIPT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "nicc-campaign")


def settings_from(camp_slurm, args):
    """[slurm] table, then the command line's --partition / --account / --throttle."""
    s = {"cpus_per_task": 1, "mem": "1G", "time": "01:00:00", "partition": "", "account": "",
         "throttle": 0, "job_name": "", "sbatch_args": [], "prologue": [], "poll_s": 2}
    s.update(camp_slurm)
    for k in ("partition", "account", "throttle"):
        v = getattr(args, k, None)
        if v not in (None, ""):
            s[k] = v
    for k in ("sbatch_args", "prologue"):
        if not isinstance(s[k], list) or not all(isinstance(x, str) for x in s[k]):
            raise CampaignError("[slurm] %s: a list of strings" % k)
    if not isinstance(s["throttle"], int) or s["throttle"] < 0:
        raise CampaignError("[slurm] throttle: an integer >= 0 (0 = no limit)")
    if not isinstance(s["cpus_per_task"], int) or s["cpus_per_task"] < 1:
        raise CampaignError("[slurm] cpus_per_task: an integer >= 1")
    return s


def sbatch_script(plan, out, s, tasks_file, count):
    """The job array's script: `count` array tasks, each one point of plan["ntasks"] MPI tasks."""
    logs = os.path.join(out, "slurm")
    ntasks = plan.get("ntasks", 1)
    array = "0-%d" % (count - 1) + ("%%%d" % s["throttle"] if s["throttle"] else "")
    lines = ["#!/bin/bash",
             "#SBATCH --job-name=%s" % (s["job_name"] or "nicc-" + plan["name"]),
             "#SBATCH --array=%s" % array,
             "#SBATCH --ntasks=%d" % ntasks,
             "#SBATCH --cpus-per-task=%d" % s["cpus_per_task"]]
    if s["mem"]:
        lines.append("#SBATCH --mem=%s" % s["mem"])
    if s["time"]:
        lines.append("#SBATCH --time=%s" % s["time"])
    if s["partition"]:
        lines.append("#SBATCH --partition=%s" % s["partition"])
    if s["account"]:
        lines.append("#SBATCH --account=%s" % s["account"])
    lines.append("#SBATCH --output=%s" % os.path.join(logs, "%A_%a.out"))
    lines += ["#SBATCH %s" % a for a in s["sbatch_args"]]
    lines += ["# nicc-campaign %s: %d points of %s, one per task;" % (plan["name"], count, plan["campaign"]),
              "# task i runs the point on line i+1 of the tasks file (directory %s/points/<id>)." % out]
    if ntasks > 1:
        lines.append("# Each point is one simulation across %d MPI ranks: mpirun -np %d nicc-sim ... mpi_ranks=%d."
                     % (ntasks, ntasks, ntasks))
    lines.append("set -euo pipefail")
    lines += s["prologue"]
    lines.append("exec %s %s run-point %s --tasks %s --task \"$SLURM_ARRAY_TASK_ID\""
                 % (shlex.quote(sys.executable), shlex.quote(CAMPAIGN_SCRIPT), shlex.quote(out),
                    shlex.quote(tasks_file)))
    return "\n".join(lines) + "\n"


def squeue_count(job):
    """Tasks of the job still known to squeue (pending or running); None if squeue fails."""
    try:
        r = subprocess.run(["squeue", "-h", "-r", "-j", job, "-o", "%T"], capture_output=True, text=True)
    except OSError:
        return None
    if r.returncode != 0:
        if "Invalid job id" in r.stderr:
            return 0
        return None
    return len([l for l in r.stdout.splitlines() if l.strip()])


def active_jobs(out):
    """Jobs of OUT/slurm/jobs.txt that squeue still lists (pending or running)."""
    try:
        jobs = [l.split()[0] for l in open(os.path.join(out, "slurm", "jobs.txt")) if l.strip()]
    except OSError:
        return []
    return [j for j in jobs if squeue_count(j)]


def run_slurm(plan, out, s, dry_run=False, wait=True, stream=sys.stderr):
    todo = [pt for pt in plan["points"] if points.state(out, pt) != "done"]
    total = len(plan["points"])
    stamp = time.strftime("%Y%m%d-%H%M%S")
    sdir = os.path.join(out, "slurm")
    tasks_file = os.path.join(sdir, "tasks-%s.txt" % stamp)
    script_file = os.path.join(sdir, "campaign-%s.sbatch" % stamp)
    if not todo:
        stream.write("nicc-campaign: %s: all %d points finished; nothing to submit\n" % (plan["name"], total))
        return 0
    script = sbatch_script(plan, out, s, tasks_file, len(todo))
    if dry_run:
        sys.stdout.write(script)
        stream.write("nicc-campaign: dry run: %d of %d points would be tasks 0-%d (listed in %s); "
                     "nothing written or submitted\n" % (len(todo), total, len(todo) - 1, tasks_file))
        return 0
    busy = active_jobs(out)
    if busy:
        raise CampaignError("job %s of this campaign is still in squeue: wait for it (`nicc-campaign status`) "
                            "or scancel it before submitting again" % ", ".join(busy))
    os.makedirs(sdir, exist_ok=True)
    for pt in todo:
        points.prepare(out, pt, plan["cwd"])
    with open(tasks_file, "w") as f:
        f.write("".join(pt["id"] + "\n" for pt in todo))
    with open(script_file, "w") as f:
        f.write(script)
    r = subprocess.run(["sbatch", "--parsable", script_file], capture_output=True, text=True)
    if r.returncode != 0:
        raise CampaignError("sbatch %s failed (exit %d): %s" % (script_file, r.returncode, r.stderr.strip()))
    job = r.stdout.strip().split(";")[0]
    with open(os.path.join(sdir, "jobs.txt"), "a") as f:
        f.write("%s %s %s\n" % (job, script_file, tasks_file))
    stream.write("nicc-campaign: %s: submitted job %s: %d tasks (%d of %d points; %d finished before)%s; "
                 "script %s\n" % (plan["name"], job, len(todo), len(todo), total, total - len(todo),
                                   ", %d MPI ranks each" % plan["ntasks"] if plan.get("ntasks", 1) > 1 else "",
                                   script_file))
    if not wait:
        stream.write("nicc-campaign: not waiting; `nicc-campaign status` shows progress\n")
        return 0
    t0 = time.time()
    last = 0.0
    tty = stream.isatty()
    misses = 0
    while True:
        left = squeue_count(job)
        st = [points.state(out, pt) for pt in todo]
        done, failed = st.count("done"), st.count("failed")
        now = time.time()
        line = ("job %s: %d/%d done, %d failed, %d in squeue, %s elapsed"
                % (job, done, len(todo), failed, left if left is not None else -1, fmt_s(now - t0)))
        if tty:
            stream.write("\r\x1b[K" + line)
            stream.flush()
        elif now - last >= 10:
            stream.write("nicc-campaign: " + line + "\n")
            last = now
        if left == 0:
            break
        misses = misses + 1 if left is None else 0
        if misses >= 5:
            raise CampaignError("squeue keeps failing for job %s; `nicc-campaign status` later" % job)
        time.sleep(s["poll_s"])
    if tty:
        stream.write("\r\x1b[K")
    stream.write("nicc-campaign: " + line + "\n")
    bad = 0
    for i, pt in enumerate(todo):
        stt = points.state(out, pt)
        if stt == "done":
            continue
        bad += 1
        why = points.error_of(out, pt) if stt == "failed" else \
            "no exit status (task %d never ran or was killed; see %s)" % (i, os.path.join(sdir, "%s_%d.out" % (job, i)))
        stream.write("nicc-campaign: FAILED point %d %s (%s): %s\n" % (pt["index"], pt["id"], points.label(pt), why))
    return 1 if bad else 0


def run_point_task(out, tasks_file, task):
    """The job array task: run the point on line task+1 of the tasks file."""
    ids = [l.strip() for l in open(tasks_file) if l.strip()]
    if not 0 <= task < len(ids):
        raise CampaignError("%s: task %d out of range 0..%d" % (tasks_file, task, len(ids) - 1))
    pt = json.load(open(os.path.join(points.point_dir(out, ids[task]), "point.json")))
    return points.run_one(out, pt, pt["cwd"], "slurm", pt.get("timeout_s", 0))
