"""points.py — one point's directory OUT/points/<id>/: run it, read its state.

    prepare(out, pt)            point.json + cmd.txt, stale results removed
    proc = start(out, pt, cwd)  nicc-sim (or mpirun) started, stdout/stderr to files
    stop(proc)                  the point's process group ended (mpirun and its ranks too)
    finish(out, pt, rc, t0)     status.json (exit status, wall time, host)
    state(out, pt)              "done" | "failed" | "running" | "pending"

A point is finished when status.json says exit 0 and summary.json exists;
a runner skips finished points, so a campaign resumes where it stopped.
"""
import json
import os
import shlex
import signal
import socket
import subprocess
import time

STDERR_LINES = 3    # lines of a failed run's stderr shown as its error
STOP_GRACE_S = 3    # SIGTERM, then SIGKILL this much later


def point_dir(out, pid):
    return os.path.join(out, "points", pid)


def _write_json(path, obj):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(obj, f, indent=1)
    os.replace(tmp, path)


def prepare(out, pt, cwd):
    """Point dir with its command line; results of an earlier try removed."""
    d = point_dir(out, pt["id"])
    os.makedirs(d, exist_ok=True)
    for f in ("status.json", "started.json", "summary.json"):
        try:
            os.remove(os.path.join(d, f))
        except FileNotFoundError:
            pass
    _write_json(os.path.join(d, "point.json"), dict(pt, cwd=cwd))
    with open(os.path.join(d, "cmd.txt"), "w") as f:
        f.write("cd %s && %s\n" % (shlex.quote(cwd), " ".join(shlex.quote(a) for a in pt["argv"])))
    return d


def start(out, pt, cwd, runner):
    d = point_dir(out, pt["id"])
    _write_json(os.path.join(d, "started.json"),
                {"host": socket.gethostname(), "runner": runner, "time": time.time(),
                 "slurm_job": os.environ.get("SLURM_ARRAY_JOB_ID", ""),
                 "slurm_task": os.environ.get("SLURM_ARRAY_TASK_ID", ""),
                 "slurm_ntasks": os.environ.get("SLURM_NTASKS", "")})
    so = open(os.path.join(d, "stdout.txt"), "w")
    se = open(os.path.join(d, "stderr.txt"), "w")
    try:
        # A process group of its own: a timeout or Ctrl-C stops mpirun's ranks with it.
        proc = subprocess.Popen(pt["argv"], cwd=cwd, stdout=so, stderr=se, stdin=subprocess.DEVNULL,
                                start_new_session=True)
    except OSError as e:
        se.write("nicc-campaign: cannot start %s: %s\n" % (pt["argv"][0], e.strerror))
        so.close()
        se.close()
        return None
    finally:
        so.close()
        se.close()
    return proc


def stop(proc):
    """Ends a started point: SIGTERM to its process group, then SIGKILL to what is left of it
    (ranks an mpirun left behind) after a grace of STOP_GRACE_S seconds."""
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=STOP_GRACE_S)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def finish(out, pt, rc, t0, note=""):
    d = point_dir(out, pt["id"])
    if note:
        with open(os.path.join(d, "stderr.txt"), "a") as f:
            f.write("nicc-campaign: %s\n" % note)
    _write_json(os.path.join(d, "status.json"),
                {"exit": rc, "wall_s": round(time.time() - t0, 3), "host": socket.gethostname(),
                 "end": time.time()})


def run_one(out, pt, cwd, runner, timeout_s=0):
    """Runs a point to its end (the Slurm task's path); returns the exit status."""
    prepare(out, pt, cwd)
    t0 = time.time()
    proc = start(out, pt, cwd, runner)
    if proc is None:
        finish(out, pt, 127, t0)
        return 127
    try:
        rc = proc.wait(timeout=timeout_s or None)
        note = ""
    except subprocess.TimeoutExpired:
        stop(proc)
        rc, note = 124, "timed out after %g s ([run] timeout_s)" % timeout_s
    if rc < 0:
        note = "killed by signal %d" % -rc
    finish(out, pt, rc, t0, note)
    return rc


def read_status(out, pid):
    try:
        return json.load(open(os.path.join(point_dir(out, pid), "status.json")))
    except (OSError, ValueError):
        return None


def state(out, pt):
    d = point_dir(out, pt["id"])
    st = read_status(out, pt["id"])
    if st is not None:
        ok = st.get("exit") == 0 and os.path.isfile(os.path.join(d, "summary.json"))
        return "done" if ok else "failed"
    if os.path.exists(os.path.join(d, "started.json")):
        return "running"
    return "pending"


def error_of(out, pt):
    """A failed point's error: exit status and the last lines of its stderr."""
    d = point_dir(out, pt["id"])
    st = read_status(out, pt["id"]) or {}
    try:
        lines = [l.rstrip() for l in open(os.path.join(d, "stderr.txt"), errors="replace") if l.strip()]
    except OSError:
        lines = []
    rc = st.get("exit")
    why = "exit %s" % rc if rc != 0 else "exit 0 but no summary.json"
    return why + (": " + " | ".join(lines[-STDERR_LINES:]) if lines else "")


def label(pt):
    return ", ".join("%s=%s" % (k, v) for k, v in pt["values"].items())
