#!/usr/bin/env bash
# The main job: builds the demo and runs it under mpirun.
# Usage: tools/run.sh [NPROCS]   (default 4; oversubscribed if needed)
# The mpirun flags are the test harness's (tests/harness/mpirun_flags.sh);
# under tools/hosts.sh the processes are spread over the simulated hosts.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install_deps.sh
np="${1:-4}"
bazel build //experiments:group_algebra_demo
source tests/harness/mpirun_flags.sh
mpirun_flags "$np"
exec mpirun "${MPIRUN_FLAGS[@]}" bazel-bin/experiments/group_algebra_demo
