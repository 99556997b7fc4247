"""local.py — the local runner: N nicc-sim processes at once on this machine.

    rc = run_local(plan, out, jobs=0, timeout_s=0, stream=sys.stderr)

Finished points are skipped; failed ones are run again. Progress: one line
rewritten in place on a terminal, a line every `every_s` seconds otherwise;
a failed point is reported with its error as it ends and does not stop the
others. Returns 0 when every point is done, 1 when some failed. With
plan["ntasks"] = N > 1 each point is `mpirun -np N nicc-sim ...` and jobs
defaults to the number of cores / N.
"""
import os
import shutil
import sys
import time

from . import CampaignError, points
from .plan import MPIRUN


def fmt_s(s):
    s = int(s + 0.5)
    return "%d:%02d:%02d" % (s // 3600, s % 3600 // 60, s % 60) if s >= 3600 else "%d:%02d" % (s // 60, s % 60)


class Progress:
    def __init__(self, total, skipped, stream, every_s):
        self.total, self.skipped, self.stream, self.every_s = total, skipped, stream, every_s
        self.tty = stream.isatty()
        self.t0 = time.time()
        self.last = 0.0
        self.done = self.failed = self.running = 0

    def line(self):
        todo = self.total - self.skipped
        ended = self.done + self.failed
        el = time.time() - self.t0
        eta = "ETA %s" % fmt_s(el / ended * (todo - ended)) if ended else "ETA -"
        width = 24
        fill = int(width * (self.skipped + ended) / max(1, self.total))
        bar = "[" + "#" * fill + "." * (width - fill) + "]"
        return ("%s %d/%d done, %d failed, %d running, %d skipped, %s elapsed, %s"
                % (bar, self.skipped + self.done, self.total, self.failed, self.running, self.skipped,
                   fmt_s(el), eta))

    def show(self, force=False):
        now = time.time()
        if self.tty:
            if force or now - self.last >= 0.2:
                self.stream.write("\r\x1b[K" + self.line())
                self.stream.flush()
                self.last = now
        elif force or now - self.last >= self.every_s:
            self.stream.write("nicc-campaign: " + self.line() + "\n")
            self.stream.flush()
            self.last = now

    def say(self, text):
        if self.tty:
            self.stream.write("\r\x1b[K")
        self.stream.write("nicc-campaign: " + text + "\n")
        self.show(force=True)

    def end(self):
        if self.tty:
            self.stream.write("\r\x1b[K")
        self.stream.write("nicc-campaign: " + self.line() + "\n")
        self.stream.flush()


def run_local(plan, out, jobs=0, timeout_s=0, stream=sys.stderr, every_s=10.0):
    ntasks = plan.get("ntasks", 1)
    if ntasks > 1 and not shutil.which(MPIRUN[0]):
        raise CampaignError("ntasks = %d: %s not found on PATH (Debian: apt-get install openmpi-bin)"
                            % (ntasks, MPIRUN[0]))
    jobs = jobs or max(1, (os.cpu_count() or 1) // ntasks)     # default: one rank per core
    cwd = plan["cwd"]
    todo = [pt for pt in plan["points"] if points.state(out, pt) != "done"]
    prog = Progress(len(plan["points"]), len(plan["points"]) - len(todo), stream, every_s)
    stream.write("nicc-campaign: %s: %d points, %d finished before, %d to run, %d at once%s -> %s\n"
                 % (plan["name"], prog.total, prog.skipped, len(todo), jobs,
                    " (each mpirun -np %d)" % ntasks if ntasks > 1 else "", out))
    running = {}       # pid -> (point, proc, start time)
    failed = []
    queue = list(todo)
    try:
        while queue or running:
            while queue and len(running) < jobs:
                pt = queue.pop(0)
                points.prepare(out, pt, cwd)
                t0 = time.time()
                proc = points.start(out, pt, cwd, "local")
                if proc is None:
                    points.finish(out, pt, 127, t0)
                    prog.failed += 1
                    failed.append(pt)
                    prog.say("point %d (%s) failed: %s" % (pt["index"], points.label(pt), points.error_of(out, pt)))
                    continue
                running[proc.pid] = (pt, proc, t0)
            prog.running = len(running)
            prog.show()
            time.sleep(0.05)
            for pid in list(running):
                pt, proc, t0 = running[pid]
                rc = proc.poll()
                note = ""
                if rc is None:
                    if not timeout_s or time.time() - t0 < timeout_s:
                        continue
                    points.stop(proc)
                    rc, note = 124, "timed out after %g s ([run] timeout_s)" % timeout_s
                elif rc < 0:
                    note = "killed by signal %d" % -rc
                del running[pid]
                prog.running = len(running)
                points.finish(out, pt, rc, t0, note)
                if points.state(out, pt) == "done":
                    prog.done += 1
                else:
                    prog.failed += 1
                    failed.append(pt)
                    prog.say("point %d (%s) failed: %s" % (pt["index"], points.label(pt), points.error_of(out, pt)))
            prog.running = len(running)
    except KeyboardInterrupt:
        for pt, proc, t0 in running.values():
            points.stop(proc)
            points.finish(out, pt, 130, t0, "interrupted (Ctrl-C); run again to retry")
        prog.end()
        stream.write("nicc-campaign: interrupted; %d running points stopped (run again to resume)\n" % len(running))
        return 130
    prog.end()
    for pt in failed:
        stream.write("nicc-campaign: FAILED point %d %s (%s): %s\n"
                     % (pt["index"], pt["id"], points.label(pt), points.error_of(out, pt)))
    return 1 if failed else 0
