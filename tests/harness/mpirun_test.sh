#!/usr/bin/env bash
# Runs an MPI GoogleTest binary under mpirun: mpirun_test.sh N MPIRUN BINARY [ARGS...]
set -euo pipefail
np="$1"; mpirun="$2"; binary="$3"; shift 3

flags=(--oversubscribe -np "$np")
# Open MPI refuses to run as root unless told; only say so when it applies.
if [[ "$(id -u)" == "0" ]]; then flags+=(--allow-run-as-root); fi
# Small shared-memory machines: no network interfaces to probe, and give the
# core away when waiting (the processes outnumber the cores).
flags+=(--mca btl self,vader --mca mpi_yield_when_idle 1)
# Stop a hung job before Bazel's own timeout so its report says why.
flags+=(--timeout "${MPI_TEST_TIMEOUT:-240}")
# PMIx's shared-memory store fails when several jobs start at once in
# sandboxes ("PMIX ERROR: OUT-OF-RESOURCE ... dstore"); its hash store is fine.
export PMIX_MCA_gds=hash
# Sandboxed jobs each live in their own PID namespace, so two mpiruns at once
# can get the same PID, hence the same job id, and would share shared-memory
# files and session directories (vader segfaults, "shared memory open(2)"
# failures). Give every job private ones.
job_dir="${TEST_TMPDIR:-$(mktemp -d)}/mpi"
mkdir -p "$job_dir"
flags+=(--mca btl_vader_backing_directory "$job_dir" --mca orte_tmpdir_base "$job_dir")

exec "$mpirun" "${flags[@]}" "$binary" "$@"
