#!/usr/bin/env bash
# Installs every Debian package nicc needs; skips what is already present.
# Idempotent: safe to run before every build (the README's commands do).
#
#   scripts/setup.sh            install what is missing (needs root or sudo)
#   scripts/setup.sh --check    only list what is missing; exit 1 if anything is
set -euo pipefail

packages=(
  # build
  build-essential cmake ninja-build ccache pkg-config python3
  # host libraries
  libabsl-dev libgtest-dev libgmock-dev libbenchmark-dev
  libtomlplusplus-dev nlohmann-json3-dev
  # backends: ns-3 (its CMake config needs both packages) and rdma-core
  libns3-dev ns3 libgsl-dev libibverbs-dev librdmacm-dev rdma-core
  # plots
  python3-matplotlib
  # measurement
  valgrind
  # campaigns on Slurm: the test starts its own munged, slurmctld and slurmd
  slurm-wlm munge
  # one simulation across MPI ranks: Open MPI, and dpkg-dev to unpack ns-3's
  # source package (scripts/build-ns3-mpi.sh adds the deb-src entry it needs)
  libopenmpi-dev openmpi-bin dpkg-dev
  # coverage-guided fuzzing (scripts/fuzz.sh): clang and its libFuzzer runtime
  clang libclang-rt-14-dev
  # firmware cross checks
  gcc-riscv64-unknown-elf gcc-arm-none-eabi
  g++-riscv64-linux-gnu g++-arm-linux-gnueabihf qemu-user
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ "${1:-}" = "--check" ]; then
  if [ ${#missing[@]} -eq 0 ]; then echo "setup: all packages present"; exit 0; fi
  echo "setup: missing: ${missing[*]}"; exit 1
fi

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

echo "setup: installing ${#missing[@]} package(s): ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then sudo="sudo"; else
    echo "setup: need root (or sudo) to install: ${missing[*]}" >&2; exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
echo "setup: done"
