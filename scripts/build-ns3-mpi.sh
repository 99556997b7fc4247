#!/usr/bin/env bash
# build-ns3-mpi.sh — the MPI flavour of ns-3 (optional; docs/scale.md, "One
# simulation across ranks").
#
# Debian's ns-3 binary packages are built without MPI. This script builds the
# same ns-3 (Debian's source package of the installed version, with Debian's
# patches) with NS3_MPI=ON and only the modules nicc links (core, network,
# stats, mpi), and installs it into a prefix under build/. nicc is then
# configured against that prefix instead of /usr:
#
#   bash scripts/build-ns3-mpi.sh                 # -> build/ns3-mpi/prefix
#   cmake -S . -B build/mpi -G Ninja -DCMAKE_BUILD_TYPE=Release \
#         -DCMAKE_PREFIX_PATH=$PWD/build/ns3-mpi/prefix
#   ninja -C build/mpi nicc-sim
#   mpirun -np 2 build/mpi/sim-adapter/nicc-sim --scenario fat-tree --set mpi_ranks=2
#
# Steps: install Open MPI and dpkg-dev if missing; add a deb-src entry for the
# Debian suite the machine uses (Debian leaves it out) in its own file; `apt-get
# source ns3`; configure; build; install. Each step is skipped when its result
# is already there, so a second run only rebuilds what changed.
#
# Options: --prefix DIR (default build/ns3-mpi/prefix), --jobs N (default
# nproc), --help. Takes about 10-20 minutes on 2 cores (docs/scale.md).
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
work="$here/build/ns3-mpi"
prefix="$work/prefix"
jobs="$(nproc)"
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix="$(realpath -m "$2")"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    -h|--help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "build-ns3-mpi.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"

# The ns-3 version the system packages have: the source must be the same one,
# so that a scenario gives the same result with either build.
ver="$(dpkg-query -W -f='${Version}' libns3-dev 2>/dev/null || true)"
if [ -z "$ver" ]; then
  echo "build-ns3-mpi.sh: libns3-dev is not installed (run scripts/setup.sh first)" >&2
  exit 2
fi

need=()
for p in libopenmpi-dev openmpi-bin dpkg-dev cmake ninja-build; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || need+=("$p")
done

srcfile=/etc/apt/sources.list.d/nicc-deb-src.sources
have_src() { apt-get source --print-uris "ns3=$ver" >/dev/null 2>&1; }
if ! have_src; then
  suite="$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")"
  echo "build-ns3-mpi.sh: adding a deb-src entry for $suite ($srcfile)"
  printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    "$suite" | $sudo tee "$srcfile" >/dev/null
  $sudo apt-get update -q
fi
if [ ${#need[@]} -gt 0 ]; then
  echo "build-ns3-mpi.sh: installing ${need[*]}"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}"
fi

mkdir -p "$work"
upstream="${ver%%-*}"
tree="$work/src/ns-$upstream"
if [ ! -f "$tree/CMakeLists.txt" ]; then
  rm -rf "$work/src" "$work/dl"
  mkdir -p "$work/dl"
  (cd "$work/dl" && apt-get source --download-only "ns3=$ver")
  dpkg-source -x "$work"/dl/ns3_*.dsc "$work/src"
fi

# The CMake build directory is the tree's own cmake-cache/, where `./ns3`
# looks for it: scripts/contrib-check.sh builds nicc as contrib/nicc in this
# same build. Configured every time with the flags below (seconds), so a
# configuration the contrib check left (its module, examples) is undone here.
# CLICOLOR=1 as ./ns3 sets it (ns-3 then adds -fdiagnostics-color=always to
# every compile): with the same flags, a configure by ./ns3 does not rebuild.
build="$tree/cmake-cache"
CLICOLOR=1 cmake -S "$tree" -B "$build" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_INSTALL_PREFIX="$prefix" \
  -DCMAKE_INSTALL_RPATH="$prefix/lib" \
  -DNS3_MPI=ON \
  -DNS3_ENABLED_MODULES="core;network;stats;mpi" \
  -DNS3_EXAMPLES=OFF -DNS3_TESTS=OFF \
  -DNS3_PYTHON_BINDINGS=OFF -DNS3_GTK3=OFF -DNS3_SQLITE=OFF -DNS3_EIGEN=OFF \
  -DNS3_WARNINGS_AS_ERRORS=OFF >"$work/configure.log" || { cat "$work/configure.log"; exit 1; }
ninja -C "$build" -j "$jobs"
ninja -C "$build" install >/dev/null
# ns-3 does not install this header; nicc needs its BoundLookAhead (the
# lookahead one nanosecond below the shortest link crossing ranks, so that a
# frame with no serialization time still lands after the granted window).
install -m 644 "$tree/src/mpi/model/distributed-simulator-impl.h" "$prefix/include/ns3/"
test -f "$prefix/lib/cmake/ns3/ns3Config.cmake" || {
  echo "build-ns3-mpi.sh: install left no $prefix/lib/cmake/ns3/ns3Config.cmake" >&2; exit 1; }
echo "build-ns3-mpi.sh: ns-3 $upstream with MPI in $prefix"
echo "  configure nicc with -DCMAKE_PREFIX_PATH=$prefix"
