#!/usr/bin/env bash
# The main job: installs what is missing, builds (Release), and runs the
# default ns-3 experiment — an AI-cluster slice (leaf-spine, ring all-reduce
# plus background and incast traffic) with DCQCN, HPCC and HPCC + NIC
# spraying — printing one comparison table and writing data and plots to
# out/ (scripts/experiment.sh; docs/experiments.md).
#
#   scripts/run.sh [key=value ...]     extra scenario keys for every run
#                                      (nicc-sim --help lists them)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
bash scripts/setup.sh
echo "run.sh: building (Release) ..." >&2
bash scripts/build.sh release >/dev/null
exec bash scripts/experiment.sh "$@"
