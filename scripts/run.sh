#!/usr/bin/env bash
# The main job: installs what is missing, builds, and runs the DCQCN demo —
# the rate trajectory of one 100 Gb/s flow hit by a burst of CNPs, with the
# mlx5 (ConnectX) defaults and with the DCQCN paper's settings.
#
#   scripts/run.sh [extra flags for nicc-dcqcn-demo]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
bash scripts/setup.sh
bash scripts/build.sh release >/dev/null
demo=build/release/ports/demo/nicc-dcqcn-demo
"$demo" --profile=mlx5 "$@"
echo
"$demo" --profile=dcqcn-paper "$@"
