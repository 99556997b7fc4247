#!/usr/bin/env bash
# contrib-check.sh — the nicc module built inside ns-3's own source tree, the
# way an ns-3 user adds a module, gives the same results as the out-of-tree
# build (docs/sim-fabric.md, "Inside an ns-3 source tree").
#
#   bash scripts/contrib-check.sh [--release DIR]
#
# 1. The ns-3 tree and build of scripts/build-ns3-mpi.sh (Debian's ns-3
#    source, unpacked and built once; that script is run first and does
#    nothing when its build is current): one ns-3 build serves both checks.
# 2. sim-adapter/ goes into the tree as contrib/nicc (a symbolic link), then
#    in the tree:  ./ns3 configure --enable-examples --enable-modules=...nicc
#                  cmake --build cmake-cache --target EXAMPLES (what ./ns3
#                    build EXAMPLES runs, on every core: libns3-nicc,
#                    libns3-nicc-scenario and those examples)
#                  ./ns3 run "EXAMPLE ARGS"
#    Only the modules nicc needs are enabled; only the examples below are
#    built. The next build-ns3-mpi.sh run configures the tree back.
# 3. Each example's output equals the same example of the out-of-tree build
#    (--release DIR, default build/release, as scripts/build.sh release
#    makes it) run with the same arguments, byte for byte.
# Prints one line per check and "contrib-check: N passed, M failed".
set -uo pipefail
top="$(cd "$(dirname "$0")/.." && pwd)"
cd "$top"
release="$top/build/release"
while [ $# -gt 0 ]; do
  case "$1" in
    --release) release="$(realpath -m "$2")"; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "contrib-check.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done

# The examples compared, with their arguments: one on the model library
# only, one through the scenario layer (a TOML file).
cases=(
  "nicc-leaf-spine-cc|--size=200000 --long=1000000"
  "nicc-toml-scenario|--set=stop_ms=0.5"
)

passed=0; failed=0
ok() { echo "contrib-check: ok   $*"; passed=$((passed + 1)); }
bad() { echo "contrib-check: FAIL $*"; failed=$((failed + 1)); }
finish() { echo "contrib-check: $passed passed, $failed failed ($(( $(date +%s) - t0 )) s)"; [ "$failed" -eq 0 ]; exit $?; }
t0=$(date +%s)

bash scripts/build-ns3-mpi.sh >"$top/build/contrib-ns3.log" 2>&1 ||
  { cat "$top/build/contrib-ns3.log"; bad "ns-3 tree (scripts/build-ns3-mpi.sh)"; finish; }
tree="$(ls -d "$top"/build/ns3-mpi/src/ns-*/ 2>/dev/null | head -1)"
tree="${tree%/}"
[ -x "$tree/ns3" ] || { bad "no ns-3 tree with ./ns3 under build/ns3-mpi/src"; finish; }
ln -sfn "$top/sim-adapter" "$tree/contrib/nicc"

names=()
for c in "${cases[@]}"; do names+=("${c%%|*}"); done
log="$top/build/contrib-build.log"
# Built with ns-3's CMake directly: ./ns3 build runs at most nproc - 1 jobs
# (one on two cores); the targets are the ones ./ns3 build NAME makes.
if (cd "$tree" && ./ns3 configure --enable-examples --enable-modules="core;network;stats;mpi;nicc") >"$log" 2>&1 &&
   cmake --build "$tree/cmake-cache" -j "$(nproc)" --target "${names[@]}" >>"$log" 2>&1; then
  ok "./ns3 configure, ns-3's CMake builds ${names[*]} (contrib/nicc)"
else
  tail -40 "$log"; bad "./ns3 configure / build (log: $log)"; finish
fi

out="$top/build/contrib-check"
rm -rf "$out"; mkdir -p "$out"
for c in "${cases[@]}"; do
  name="${c%%|*}"; args="${c#*|}"
  # ./ns3 run prints the program's output only (--no-build: built above).
  (cd "$tree" && ./ns3 run --no-build "$name $args") >"$out/$name.contrib" 2>"$out/$name.contrib.err" ||
    { cat "$out/$name.contrib.err"; bad "./ns3 run $name $args"; continue; }
  # shellcheck disable=SC2086  # the arguments split as the shell splits them
  "$release/sim-adapter/$name" $args >"$out/$name.tree" 2>"$out/$name.tree.err" ||
    { cat "$out/$name.tree.err"; bad "$release/sim-adapter/$name $args"; continue; }
  if cmp -s "$out/$name.contrib" "$out/$name.tree"; then
    ok "$name $args: ./ns3 run output equals the out-of-tree build's ($(wc -l <"$out/$name.tree") lines)"
  else
    diff "$out/$name.tree" "$out/$name.contrib" | head -20
    bad "$name $args: outputs differ ($out)"
  fi
done
finish
