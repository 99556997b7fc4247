#!/usr/bin/env bash
# campaign-test.sh — nicc-campaign's local runner, resume, collect and its
# errors: a 13-point campaign (2 CCs x 3 Poisson loads x 2 seeds on a small
# leaf-spine, plus one [[point]] with a bad value) runs on 2 processes; the
# bad point fails with nicc-sim's message and the other 12 finish; a second
# run skips the 12 and retries only the failed one; collect gives 12 rows
# with the axes as columns; a bad campaign file exits 2 naming file:line.
#
#   scripts/campaign-test.sh [WORKDIR]     # ctest: nicc-campaign-local (label campaign)
#
# Environment: NICC_SIM (default build/release/sim-adapter/nicc-sim).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export NICC_SIM="${NICC_SIM:-$root/build/release/sim-adapter/nicc-sim}"
campaign="$root/scripts/nicc-campaign"
fail() { echo "campaign-test: FAIL: $*" >&2; exit 1; }
[[ -x "$NICC_SIM" ]] || fail "nicc-sim not found at $NICC_SIM (build it, or set NICC_SIM=path)"
base="${1:-${TMPDIR:-/tmp}}"
mkdir -p "$base"
tmp=$(mktemp -d "$base/nicc-campaign.XXXXXX") || fail "mktemp in $base"
trap '[[ $? -eq 0 ]] && rm -rf "$tmp"' EXIT

cat > "$tmp/c.toml" <<EOF
name = "local-test"
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
[[point]]               # deliberately bad: incast_fanin is a number
cc = "hpcc"
poisson_load = 0.5
seed = 1
incast_fanin = "lots"
[run]
jobs = 2
EOF

# plan: 13 points, ids stable across two plans.
"$campaign" plan "$tmp/c.toml" > "$tmp/plan1.txt" || fail "plan exit $?"
grep -q "^13 points (13 pending)" "$tmp/plan1.txt" || fail "plan: $(tail -1 "$tmp/plan1.txt")"
"$campaign" plan "$tmp/c.toml" > "$tmp/plan2.txt"
cmp -s "$tmp/plan1.txt" "$tmp/plan2.txt" || fail "point ids changed between two plans"
"$campaign" plan "$tmp/c.toml" --check > "$tmp/check.txt"; rc=$?
[[ $rc -eq 1 ]] || fail "plan --check exit $rc (want 1: one point refused)"
grep -q "REFUSED: .*incast_fanin" "$tmp/check.txt" || fail "plan --check did not name the bad key"

# The Slurm script without Slurm: --dry-run prints it, submits nothing.
"$campaign" run "$tmp/c.toml" --runner slurm --dry-run --partition p1 --account a1 --throttle 3 \
  > "$tmp/sbatch.txt" 2>/dev/null || fail "slurm --dry-run exit $?"
for want in "#SBATCH --array=0-12%3" "#SBATCH --partition=p1" "#SBATCH --account=a1" "run-point $tmp/out"; do
  grep -qF -- "$want" "$tmp/sbatch.txt" || fail "dry-run script lacks '$want'"
done

# First run: 12 done, the bad point failed with its error, exit 1.
t0=$(date +%s)
"$campaign" run "$tmp/c.toml" > "$tmp/run1.txt" 2>&1; rc=$?
t1=$(date +%s)
[[ $rc -eq 1 ]] || fail "run exit $rc (want 1: one point failed)"
grep -q "FAILED point 12 .*bad value 'lots' for key 'incast_fanin'" "$tmp/run1.txt" || fail "failure not reported: $(cat "$tmp/run1.txt")"
grep -q "12/13 done, 1 failed" "$tmp/run1.txt" || fail "progress lines: $(cat "$tmp/run1.txt")"
echo "campaign-test: 13 points on 2 processes in $((t1 - t0)) s" >&2
"$campaign" status "$tmp/c.toml" > "$tmp/status.txt"; rc=$?
[[ $rc -eq 1 ]] || fail "status exit $rc (want 1)"
grep -q "13 points: 12 done, 1 failed" "$tmp/status.txt" || fail "status: $(cat "$tmp/status.txt")"
n=$(ls "$tmp"/out/points/*/summary.json | wc -l)
[[ $n -eq 12 ]] || fail "$n summary.json files (want 12)"
for f in cmd.txt point.json stdout.txt stderr.txt status.json; do
  n=$(ls "$tmp"/out/points/*/$f | wc -l)
  [[ $n -eq 13 ]] || fail "$n point dirs have $f (want 13)"
done

# Resume: finished points are skipped (their files untouched), the failed one retried.
stamps() { for d in "$tmp"/out/points/*/; do [[ -f $d/summary.json ]] && stat -c "%n %.9Y" "$d/status.json"; done; }
before=$(stamps)
sleep 1
"$campaign" run "$tmp/c.toml" > "$tmp/run2.txt" 2>&1; rc=$?
[[ $rc -eq 1 ]] || fail "second run exit $rc (want 1)"
grep -q "13 points, 12 finished before, 1 to run" "$tmp/run2.txt" || fail "second run: $(head -1 "$tmp/run2.txt")"
grep -q "FAILED point 12 " "$tmp/run2.txt" || fail "second run did not retry the failed point"
[[ "$before" == "$(stamps)" ]] || fail "second run rewrote finished points"
[[ $(wc -l <<<"$before") -eq 12 ]] || fail "stamps of $(wc -l <<<"$before") finished points (want 12)"

# collect: 12 rows, axes as columns, the failure in the SQLite table `failed`.
"$campaign" collect "$tmp/c.toml" > "$tmp/collect.txt" || fail "collect exit $?"
grep -q "12 rows (13 points: 12 done, 1 failed, 0 not run)" "$tmp/collect.txt" || fail "collect: $(cat "$tmp/collect.txt")"
python3 - "$tmp/out" <<'PYEOF' || fail "merged table"
import csv, sqlite3, sys
out = sys.argv[1]
rows = list(csv.DictReader(open(out + "/results.csv")))
assert len(rows) == 12, "results.csv: %d rows" % len(rows)
cols = list(rows[0])
assert cols[:6] == ["point", "id", "cc", "poisson_load", "seed", "incast_fanin"], cols[:6]
assert len({(r["cc"], r["poisson_load"], r["seed"]) for r in rows}) == 12
by = {}
for r in rows:
    by.setdefault(r["cc"], []).append(float(r["queue_bytes.p99"]))
# HPCC keeps queues shorter than DCQCN (docs/experiments.md): the mean p99
# queue over the 6 points of each is lower for HPCC.
assert sum(by["hpcc"]) < sum(by["dcqcn"]), by
db = sqlite3.connect(out + "/results.sqlite")
assert db.execute("SELECT count(*) FROM runs").fetchone()[0] == 12
assert db.execute('SELECT typeof(poisson_load), typeof("fct_slowdown.p99") FROM runs').fetchone() == ("real", "real")
f = db.execute("SELECT point, incast_fanin, error FROM failed").fetchall()
assert len(f) == 1 and f[0][0] == 12 and "incast_fanin" in f[0][2], f
print("campaign-test: 12 rows, failed table names point 12")
PYEOF
for p in overview-poisson_load fct_slowdown.p99-vs-poisson_load queue_bytes.p99-vs-poisson_load; do
  [[ -s "$tmp/out/plots/$p.png" ]] || fail "no plot $p.png"
done

# Bad campaign files: exit 2, file and line named.
printf 'scenario = "leaf-spine"\n[axes]\ncc = ["dcqcn"]\nload = [0.3]\n' > "$tmp/bad1.toml"
msg=$("$campaign" plan "$tmp/bad1.toml" 2>&1); rc=$?
[[ $rc -eq 2 ]] || fail "unknown key: exit $rc (want 2)"
grep -qF "bad1.toml:4: [axes] unknown scenario key 'load'" <<<"$msg" || fail "unknown key message: $msg"
grep -q "poisson_load" <<<"$msg" || fail "no suggestion for 'load': $msg"
printf 'scenario = "leaf-spine"\n[axes]\nseed = "5..1"\n' > "$tmp/bad2.toml"
msg=$("$campaign" plan "$tmp/bad2.toml" 2>&1); rc=$?
[[ $rc -eq 2 ]] && grep -qF "bad2.toml:3:" <<<"$msg" || fail "empty range: exit $rc: $msg"
printf 'scenario = "leaf-spine"\n[axes]\ncc = ["dcqcn"]\n[slurn]\nmem = "1G"\n' > "$tmp/bad3.toml"
msg=$("$campaign" plan "$tmp/bad3.toml" 2>&1); rc=$?
[[ $rc -eq 2 ]] && grep -qF "bad3.toml:4: unknown field 'slurn'" <<<"$msg" || fail "unknown table: exit $rc: $msg"
echo "campaign-test: passed" >&2
