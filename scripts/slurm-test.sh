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
#
# Environment: NICC_SIM (default build/release/sim-adapter/nicc-sim); KEEP=1
# keeps the temporary directory (config, logs, campaign output) after a pass.
# Exit 0 when every check passes; 1 otherwise (the failed check is named).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sim="${NICC_SIM:-$root/build/release/sim-adapter/nicc-sim}"
campaign="$root/scripts/nicc-campaign"
t_start=$(date +%s)

fail() { echo "slurm-test: FAIL: $*" >&2; exit 1; }
for b in munged mungekey slurmctld slurmd sbatch squeue sinfo scancel; do
  command -v "$b" >/dev/null || fail "$b not found: install Debian's munge and slurm-wlm (bash scripts/setup.sh)"
done
[[ -x "$sim" ]] || fail "nicc-sim not found at $sim (build it, or set NICC_SIM=path)"
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
export NICC_SIM="$sim"
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
