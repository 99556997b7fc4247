#!/usr/bin/env bash
# slurm-test.sh — nicc-campaign's Slurm runner against a real one-node Slurm
# cluster started here: munged, slurmctld and slurmd from Debian's munge and
# slurm-wlm (scripts/setup.sh installs them), no systemd, no cgroups, every
# file in a temporary directory; a campaign of 12 points and a 13th that must
# fail submitted as a job array, the merged table checked, the failed point
# alone resubmitted; every daemon it started is stopped on exit, also
# on failure. Needs root (the daemons run as root: SlurmUser=root).
#
#   scripts/slurm-test.sh [WORKDIR]     # ctest: nicc-campaign-slurm (label campaign)
#   NICC_SIM=build/mpi/sim-adapter/nicc-sim scripts/slurm-test.sh --ntasks N [WORKDIR]
#
# --ntasks N (2 <= N <= the CPUs; scripts/mpi-check.sh runs it with N = 2):
# MPI points instead of the above: a 3-point campaign (8 x 4 x 8 leaf-spine,
# DCQCN, 0.2 ms) submitted with --ntasks N must run each point as one N-task
# job of the array (#SBATCH --ntasks=N; SLURM_NTASKS and mpi_ranks = N in its
# files) whose fct.csv, and figures in results.csv, equal the same point run
# here with `mpirun -np 1 ... mpi_ranks=1`. NICC_SIM must be a nicc-sim built
# against ns-3 with MPI.
#
# Environment: NICC_SIM (default build/release/sim-adapter/nicc-sim); KEEP=1
# keeps the temporary directory (config, logs, campaign output) after a pass.
# Exit 0 when every check passes; 1 otherwise (the failed check is named).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sim="${NICC_SIM:-$root/build/release/sim-adapter/nicc-sim}"
ntasks=""
if [[ "${1:-}" == "--ntasks" ]]; then
  ntasks="${2:-}"
  shift $(( $# >= 2 ? 2 : 1 ))
  [[ "$ntasks" =~ ^[0-9]+$ ]] && [[ "$ntasks" -ge 2 ]] || { echo "slurm-test: --ntasks wants an integer >= 2" >&2; exit 2; }
fi
campaign="$root/scripts/nicc-campaign"
t_start=$(date +%s)

fail() { echo "slurm-test: FAIL: $*" >&2; exit 1; }
for b in munged mungekey slurmctld slurmd sbatch squeue sinfo scancel; do
  command -v "$b" >/dev/null || fail "$b not found: install Debian's munge and slurm-wlm (bash scripts/setup.sh)"
done
[[ -x "$sim" ]] || fail "nicc-sim not found at $sim (build it, or set NICC_SIM=path)"
sim="$(cd "$(dirname "$sim")" && pwd)/$(basename "$sim")"   # absolute: also run from other directories
[[ "$(id -u)" -eq 0 ]] || fail "needs root: slurmd runs jobs as root here (SlurmUser=root)"

base="${1:-${TMPDIR:-/tmp}}"
mkdir -p "$base"
tmp=$(mktemp -d "$base/nicc-slurm.XXXXXX") || fail "mktemp in $base"
chmod 755 "$tmp"    # munged wants every directory above its socket searchable
mkdir -p "$tmp/munge" "$tmp/slurm/state" "$tmp/slurm/spool" "$tmp/log"
chmod 755 "$tmp/munge"

pids=()   # daemons started here, stopped in this order reversed
stop_all() {
  local rc=$?
  if [[ -n "${SLURM_CONF:-}" ]] && [[ -f "$tmp/slurm/slurmctld.pid" ]]; then
    scancel --quiet --user=root 2>/dev/null || true
  fi
  for pf in "$tmp/slurm/slurmd.pid" "$tmp/slurm/slurmctld.pid" "$tmp/munge/munged.pid"; do
    [[ -f "$pf" ]] || continue
    local pid; pid=$(cat "$pf" 2>/dev/null)
    [[ -n "$pid" ]] && kill "$pid" 2>/dev/null
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null
  done
  if [[ $rc -ne 0 ]]; then
    echo "slurm-test: logs of the failed run:" >&2
    for f in "$tmp"/log/*.log; do echo "== $f" >&2; tail -n 20 "$f" >&2; done
  fi
  if [[ $rc -eq 0 ]] && [[ -z "${KEEP:-}" ]]; then
    rm -rf "$tmp"
    echo "slurm-test: daemons stopped; $(( $(date +%s) - t_start )) s in all" >&2
  else
    echo "slurm-test: daemons stopped; $(( $(date +%s) - t_start )) s in all; files in $tmp" >&2
  fi
}
trap stop_all EXIT

# --ntasks N: 3 MPI points, each one N-task job of the array, against -np 1 run here.
mpi_points() {
  # Open MPI as root, and -np N on fewer cores outside Slurm.
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
  command -v mpirun >/dev/null || fail "mpirun not found (Debian: openmpi-bin)"
  [[ "$ntasks" -le "$cpus" ]] || fail "--ntasks $ntasks: the node has $cpus CPUs"
  cat > "$tmp/mpi.toml" <<EOF
name = "slurm-mpi-test"
scenario = "leaf-spine"
out = "$tmp/mpi-out"
[set]
leaves = 8
spines = 4
hosts_per_leaf = 8
cc = "dcqcn"
stop_ms = 0.2
[axes]
poisson_load = [0.3, 0.5, 0.7]
[slurm]
mem = "300M"
time = "00:05:00"
partition = "campaign"
poll_s = 1
EOF
  local script t0 rc job
  script=$("$campaign" run "$tmp/mpi.toml" --runner slurm --ntasks "$ntasks" --dry-run 2>&1) || fail "MPI dry run: $script"
  for want in "#SBATCH --array=0-2" "#SBATCH --ntasks=$ntasks" "run-point $tmp/mpi-out"; do
    grep -qF -- "$want" <<<"$script" || fail "MPI dry-run script lacks '$want'"
  done
  t0=$(date +%s)
  "$campaign" run "$tmp/mpi.toml" --runner slurm --ntasks "$ntasks" > "$tmp/mpi-run.txt" 2>&1; rc=$?
  cat "$tmp/mpi-run.txt" >&2
  [[ $rc -eq 0 ]] || fail "MPI slurm run exit $rc (want 0)"
  grep -q "3/3 done, 0 failed" "$tmp/mpi-run.txt" || fail "MPI progress: $(tail -3 "$tmp/mpi-run.txt")"
  echo "slurm-test: 3-task job array of $ntasks-rank points done in $(( $(date +%s) - t0 )) s" >&2
  job=$(awk '{print $1}' "$tmp/mpi-out/slurm/jobs.txt" | tail -1)
  [[ -n "$job" ]] || fail "no job id recorded"
  # Each point: a task of the job with N Slurm tasks, nicc-sim across N ranks,
  # and the fct.csv of one rank (mpirun -np 1 ... mpi_ranks=1) run here.
  python3 - "$tmp/mpi-out" "$job" "$ntasks" "$sim" <<'PYEOF' || fail "MPI points"
import json, os, subprocess, sys
out, job, n, sim = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
plan = json.load(open(out + "/plan.json"))
assert len(plan["points"]) == 3, "plan: %d points" % len(plan["points"])
for pt in plan["points"]:
    i, d = pt["index"], os.path.join(out, "points", pt["id"])
    st = json.load(open(d + "/started.json"))
    assert st["slurm_job"] == job, "point %d: job %s, want %s" % (i, st["slurm_job"], job)
    assert st["slurm_ntasks"] == str(n), "point %d: SLURM_NTASKS %r, want %d" % (i, st["slurm_ntasks"], n)
    ranks = json.load(open(d + "/summary.json"))["config"].get("mpi_ranks")
    assert str(ranks) == str(n), "point %d: summary.json mpi_ranks %r, want %d" % (i, ranks, n)
    err = open(d + "/stderr.txt").read()
    assert "nicc-sim: %d MPI ranks" % n in err, "point %d: stderr lacks '%d MPI ranks': %s" % (i, n, err)
    ref = os.path.join(out, "ref-np1", pt["id"])
    argv = ["mpirun", "-np", "1", sim, "--scenario", plan["scenario"], "--out", ref, "--plots=false",
            "--progress=false"] + ["--set=%s=%s" % kv for kv in pt["set"].items()] + ["--set=mpi_ranks=1"]
    r = subprocess.run(argv, capture_output=True, text=True, cwd=plan["cwd"])
    assert r.returncode == 0, "point %d: the -np 1 run failed: %s" % (i, r.stderr[-300:])
    a, b = open(d + "/fct.csv", "rb").read(), open(ref + "/fct.csv", "rb").read()
    assert a == b and len(a.splitlines()) > 1, "point %d: fct.csv differs from -np 1's (%d / %d lines)" % (
        i, len(a.splitlines()), len(b.splitlines()))
    print("slurm-test: point %d (%s): %d ranks, task of job %s; fct.csv = -np 1's (%d lines)"
          % (i, pt["id"], n, job, len(a.splitlines())))
PYEOF
  "$campaign" collect "$tmp/mpi.toml" --no-plots >/dev/null || fail "MPI collect"
  python3 - "$tmp/mpi-out" <<'PYEOF' || fail "MPI merged table"
import csv, json, os, sys
out = sys.argv[1]
rows = list(csv.DictReader(open(out + "/results.csv")))
assert len(rows) == 3, "results.csv: %d rows, want 3" % len(rows)
for r in rows:
    ref = json.load(open(os.path.join(out, "ref-np1", r["id"], "summary.json")))
    for k, want in (("flows.completed", ref["flows"]["completed"]), ("fct_slowdown.p99", ref["fct_slowdown"]["p99"]),
                    ("queue_bytes.p99", ref["queue_bytes"]["p99"])):
        assert float(r[k]) == float(want), "point %s: %s %s, -np 1 gives %s" % (r["point"], k, r[k], want)
print("slurm-test: results.csv: 3 rows; flows.completed, fct_slowdown.p99, queue_bytes.p99 those of -np 1")
PYEOF
  # The local runner: the same points as mpirun -np N here, the same files.
  "$campaign" run "$tmp/mpi.toml" --ntasks "$ntasks" --out "$tmp/mpi-local" > "$tmp/mpi-local.txt" 2>&1 \
    || fail "local --ntasks $ntasks: $(tail -3 "$tmp/mpi-local.txt")"
  grep -q "(each mpirun -np $ntasks)" "$tmp/mpi-local.txt" || fail "local --ntasks: $(head -1 "$tmp/mpi-local.txt")"
  for d in "$tmp"/mpi-out/points/*/; do
    id=$(basename "$d")
    cmp -s "$d/fct.csv" "$tmp/mpi-local/points/$id/fct.csv" || fail "local --ntasks $ntasks: point $id's fct.csv differs"
    grep -q "^cd .* && mpirun .* -np $ntasks .*--set=mpi_ranks=$ntasks\$" "$tmp/mpi-local/points/$id/cmd.txt" \
      || fail "local --ntasks: cmd.txt $(cat "$tmp/mpi-local/points/$id/cmd.txt")"
  done
  echo "slurm-test: local runner --ntasks $ntasks: the same 3 fct.csv" >&2
  # Refusals, exit 2: --ntasks 0, [run] ntasks = 0, mpi_ranks by hand, a nicc-sim without MPI.
  local msg
  msg=$("$campaign" run "$tmp/mpi.toml" --ntasks 0 --dry-run 2>&1); rc=$?
  [[ $rc -eq 2 ]] && grep -q "want an integer >= 1" <<<"$msg" || fail "--ntasks 0: rc $rc: $msg"
  sed 's/^\[slurm\]/[run]\nntasks = 0\n&/' "$tmp/mpi.toml" > "$tmp/mpi-bad.toml"
  msg=$("$campaign" run "$tmp/mpi-bad.toml" --dry-run 2>&1); rc=$?
  [[ $rc -eq 2 ]] && grep -q "mpi-bad.toml:[0-9]*: \[run\] ntasks = 0" <<<"$msg" || fail "[run] ntasks = 0: rc $rc: $msg"
  sed 's/^\[axes\]/mpi_ranks = 2\n&/' "$tmp/mpi.toml" > "$tmp/mpi-bad.toml"
  msg=$("$campaign" run "$tmp/mpi-bad.toml" --ntasks "$ntasks" --dry-run 2>&1); rc=$?
  [[ $rc -eq 2 ]] && grep -q "\[set\] mpi_ranks: set by ntasks" <<<"$msg" || fail "mpi_ranks in [set]: rc $rc: $msg"
  local plain="$root/build/release/sim-adapter/nicc-sim"
  if [[ -x "$plain" ]]; then
    msg=$("$campaign" run "$tmp/mpi.toml" --ntasks "$ntasks" --nicc-sim "$plain" --dry-run 2>&1); rc=$?
    [[ $rc -eq 2 ]] && grep -q "cannot run across MPI ranks (nicc-sim: key 'mpi_ranks'" <<<"$msg" \
      || fail "--ntasks with a nicc-sim without MPI: rc $rc: $msg"
    echo "slurm-test: refused: --ntasks 0, [run] ntasks = 0, mpi_ranks in [set], --ntasks $ntasks with $plain" >&2
  else
    echo "slurm-test: refused: --ntasks 0, [run] ntasks = 0, mpi_ranks in [set] ($plain not built: its refusal not checked)" >&2
  fi
  echo "slurm-test: passed (--ntasks $ntasks)" >&2
}

# munge: a fresh key and a socket of its own, so a system munged (if any) is untouched.
mungekey --create --keyfile="$tmp/munge/munge.key" || fail "mungekey"
munged --key-file="$tmp/munge/munge.key" --socket="$tmp/munge/munge.sock" \
       --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/log/munged.log" \
       --seed-file="$tmp/munge/munged.seed" || fail "munged did not start (see $tmp/log/munged.log)"
munge -S "$tmp/munge/munge.sock" -n | unmunge -S "$tmp/munge/munge.sock" >/dev/null || fail "munge round trip"

# Two free TCP ports on this machine for slurmctld and slurmd.
read -r p1 p2 < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
host=$(hostname -s)
cpus=$(nproc)
export SLURM_CONF="$tmp/slurm/slurm.conf"
cat > "$SLURM_CONF" <<EOF
# One node, no cgroups, no accounting: written by scripts/slurm-test.sh
ClusterName=nicc-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$p1
SlurmdPort=$p2
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge/munge.sock
StateSaveLocation=$tmp/slurm/state
SlurmdSpoolDir=$tmp/slurm/spool
SlurmctldPidFile=$tmp/slurm/slurmctld.pid
SlurmdPidFile=$tmp/slurm/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
MpiDefault=none
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=2000 State=UNKNOWN
PartitionName=campaign Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -c || fail "slurmctld did not start"
slurmd -N "$host" || fail "slurmd did not start"
idle=""
for _ in $(seq 60); do
  st=$(sinfo -h -N -o %T 2>/dev/null | head -1)
  if [[ "$st" == idle* ]]; then idle=1; break; fi
  sleep 0.5
done
[[ -n "$idle" ]] || fail "node not idle after 30 s (sinfo: ${st:-nothing})"
echo "slurm-test: one-node cluster up ($host, $cpus CPUs, ports $p1/$p2) in $(( $(date +%s) - t_start )) s" >&2
export NICC_SIM="$sim"
if [[ -n "$ntasks" ]]; then
  mpi_points
  exit 0
fi

# 12 points: 2 CCs x 3 Poisson loads x 2 seeds on a small leaf-spine, 1 ms
# each, and a 13th with a bad value that must fail alone.
cat > "$tmp/campaign.toml" <<EOF
name = "slurm-test"
scenario = "leaf-spine"
out = "$tmp/out"
[set]
leaves = 2
spines = 2
hosts_per_leaf = 4
stop_ms = 1
[axes]
cc = ["dcqcn", "hpcc"]
poisson_load = [0.2, 0.4, 0.6]
seed = "1..2"
[[point]]
cc = "hpcc"
poisson_load = 0.5
seed = 1
incast_fanin = "lots"
[slurm]
cpus_per_task = 1
mem = "200M"
time = "00:05:00"
partition = "campaign"
throttle = 4
poll_s = 1
EOF
script=$("$campaign" run "$tmp/campaign.toml" --runner slurm --dry-run 2>/dev/null) || fail "dry run"
for want in "#SBATCH --array=0-12%4" "#SBATCH --cpus-per-task=1" "#SBATCH --mem=200M" \
            "#SBATCH --time=00:05:00" "#SBATCH --partition=campaign" "run-point $tmp/out"; do
  grep -qF -- "$want" <<<"$script" || fail "dry-run script lacks '$want'"
done
[[ ! -d "$tmp/out/slurm" ]] || fail "dry run submitted or wrote the Slurm files"

t0=$(date +%s)
"$campaign" run "$tmp/campaign.toml" --runner slurm > "$tmp/run1.txt" 2>&1; rc=$?
t1=$(date +%s)
cat "$tmp/run1.txt" >&2
[[ $rc -eq 1 ]] || fail "slurm run exit $rc (want 1: one point failed)"
grep -q "FAILED point 12 .*bad value 'lots' for key 'incast_fanin'" "$tmp/run1.txt" || fail "failed point not reported"
grep -q "12/13 done, 1 failed" "$tmp/run1.txt" || fail "progress: $(tail -3 "$tmp/run1.txt")"
echo "slurm-test: 13-task job array done in $((t1 - t0)) s" >&2
job=$(awk '{print $1}' "$tmp/out/slurm/jobs.txt" | tail -1)
[[ -n "$job" ]] || fail "no job id recorded"
n=$(grep -l "\"slurm_job\": \"$job\"" "$tmp"/out/points/*/started.json | wc -l)
[[ "$n" -eq 13 ]] || fail "$n of 13 points ran as tasks of job $job"
n=$(ls "$tmp"/out/slurm/"${job}"_*.out 2>/dev/null | wc -l)
[[ "$n" -eq 13 ]] || fail "$n of 13 task logs ${job}_*.out"

"$campaign" collect "$tmp/campaign.toml" || fail "collect"
python3 - "$tmp/out" <<'PYEOF' || fail "merged table"
import csv, sqlite3, sys
out = sys.argv[1]
rows = list(csv.DictReader(open(out + "/results.csv")))
assert len(rows) == 12, "results.csv: %d rows, want 12" % len(rows)
for col in ("point", "id", "cc", "poisson_load", "seed", "fct_slowdown.p99", "queue_bytes.p99"):
    assert col in rows[0], "results.csv lacks column " + col
combos = {(r["cc"], r["poisson_load"], r["seed"]) for r in rows}
assert len(combos) == 12, "axes not distinct: %s" % sorted(combos)
assert {r["cc"] for r in rows} == {"dcqcn", "hpcc"}
assert {r["seed"] for r in rows} == {"1", "2"}
for r in rows:
    assert float(r["flows.completed"]) > 0, "point %s: no flow completed" % r["point"]
    assert float(r["fct_slowdown.p99"]) >= 1.0, "point %s: p99 slowdown %s < 1" % (r["point"], r["fct_slowdown.p99"])
db = sqlite3.connect(out + "/results.sqlite")
assert db.execute("SELECT count(*) FROM runs").fetchone()[0] == 12
assert db.execute("SELECT count(DISTINCT cc) FROM runs").fetchone()[0] == 2
assert db.execute("SELECT point FROM failed").fetchall() == [(12,)]
print("slurm-test: results.csv and results.sqlite: 12 rows, axes cc / poisson_load / seed as columns")
PYEOF
[[ -f "$tmp/out/plots/overview-poisson_load.png" ]] || fail "no overview plot"

# Resume: a second run submits only the failed point (a job of 1 task) and
# leaves the 12 finished ones alone.
stamps() { for d in "$tmp"/out/points/*/; do [[ -f $d/summary.json ]] && stat -c "%n %.9Y" "$d/status.json"; done; }
before=$(stamps)
again=$("$campaign" run "$tmp/campaign.toml" --runner slurm 2>&1); rc=$?
[[ $rc -eq 1 ]] || fail "second run exit $rc (want 1): $again"
grep -q "submitted job [0-9]*: 1 tasks (1 of 13 points; 12 finished before)" <<<"$again" || fail "second run: $again"
[[ $(wc -l < "$tmp/out/slurm/jobs.txt") -eq 2 ]] || fail "second run: jobs.txt"
[[ "$before" == "$(stamps)" ]] || fail "second run rewrote finished points"
[[ $(wc -l <<<"$before") -eq 12 ]] || fail "$(wc -l <<<"$before") finished points (want 12)"
echo "slurm-test: passed" >&2
