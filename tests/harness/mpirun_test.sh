#!/usr/bin/env bash
# Runs an MPI GoogleTest binary under mpirun: mpirun_test.sh N MPIRUN BINARY [ARGS...]
# The flags come from mpirun_flags.sh (shared with tools/run.sh); with
# ORTHOCOMM_HOSTFILE set (tools/test.sh --hosts N) the processes are spread
# over several hosts.
set -euo pipefail
np="$1"; mpirun="$2"; binary="$3"; shift 3

# mpirun_flags.sh is a data dependency of every MPI test: next to this script
# (harness_selftest), or in the runfiles of an mpi_test target.
flags_file=""
for candidate in "$(dirname "${BASH_SOURCE[0]}")/mpirun_flags.sh" \
    "${TEST_SRCDIR:-}/${TEST_WORKSPACE:-orthocomm}/tests/harness/mpirun_flags.sh" \
    "tests/harness/mpirun_flags.sh"; do
  if [[ -f "$candidate" ]]; then flags_file="$candidate"; break; fi
done
if [[ -z "$flags_file" ]]; then
  echo "mpirun_test.sh: mpirun_flags.sh not found" >&2
  exit 1
fi
# shellcheck source=tests/harness/mpirun_flags.sh
source "$flags_file"

job_dir="${TEST_TMPDIR:-$(mktemp -d)}/mpi"
mkdir -p "$job_dir"
# The backstop behind the per-test watchdog (hang_watchdog.h), whose limits
# grow with the load: below Bazel's 900 s for size "large".
mpirun_flags "$np" "$job_dir" "${MPI_TEST_TIMEOUT:-840}"
if [[ -n "${ORTHOCOMM_HOSTFILE:-}" ]]; then
  echo "mpirun_test.sh: $np processes over the hosts" \
    "$(awk '{print $1}' "$ORTHOCOMM_HOSTFILE" | paste -sd ' ')" >&2
fi
exec "$mpirun" "${MPIRUN_FLAGS[@]}" "$binary" "$@"
