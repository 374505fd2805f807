#!/usr/bin/env bash
# The main job: builds the demo and runs it under mpirun.
# Usage: tools/run.sh [NPROCS]   (default 4; oversubscribed if needed)
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install_deps.sh
np="${1:-4}"
bazel build //experiments:group_algebra_demo
mpirun_flags=(--oversubscribe -np "$np")
[[ "$(id -u)" == "0" ]] && mpirun_flags+=(--allow-run-as-root)
export PMIX_MCA_gds=hash  # see tests/harness/mpirun_test.sh
exec mpirun "${mpirun_flags[@]}" bazel-bin/experiments/group_algebra_demo
