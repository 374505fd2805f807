#!/usr/bin/env bash
# The node-aware algorithm on real simulated hosts (tools/hosts.sh: shared
# memory within a host, TCP between hosts), where the hosts come from the
# transport (classic::locality), not from ORTHO_HOSTS: the Open MPI
# differential test of ortho's neighbourhood collectives (random graphs,
# three modes) with node_aware forced on 2 hosts x 4 processes, and with the
# default choice (node_aware where its cost model prefers it) and with
# node_aware forced on 4 hosts x 2; the brute-force allreduce and
# allgatherw test with node_aware forced on 4 hosts x 2; the differential
# test with common_neighbours forced on 2 hosts x 4, with its threshold and
# with pairs of any overlap (ORTHO_LEAST_COMMON=1); then
# node_aware_selection_test on 4 hosts x 1. Each must pass.
# Exits 77 (skipped) without root, ip, unshare or network namespaces.
set -uo pipefail
cd "$(dirname "$0")/../.."

skip() { echo "node_aware_hosts: skipped: $*" >&2; exit 77; }
[[ "$(id -u)" == "0" ]] || skip "needs root"
command -v ip >/dev/null && command -v unshare >/dev/null ||
  skip "needs ip (iproute2) and unshare (util-linux)"
unshare --net true 2>/dev/null || skip "cannot create network namespaces here"

differential=//tests/ortho/graph:neighborhood_vs_openmpi_test_bin
reductions=//tests/ortho/graph:allreduce_allgatherw_test_bin
selection=//tests/ortho/node_aware:node_aware_selection_test_bin
bazel build "$differential" "$reductions" "$selection" || exit 1
bin="$(bazel info bazel-bin 2>/dev/null)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Copies: a build elsewhere during the runs changes nothing.
cp "$bin/tests/ortho/graph/neighborhood_vs_openmpi_test_bin" \
  "$bin/tests/ortho/graph/allreduce_allgatherw_test_bin" \
  "$bin/tests/ortho/node_aware/node_aware_selection_test_bin" "$work/"
chmod 755 "$work"

failures=0
# run HOSTS SLOTS ALGORITHM BINARY [LEAST_COMMON]: the binary on HOSTS x
# SLOTS processes (LEAST_COMMON: common_neighbours' pairing threshold).
run() {
  local hosts=$1 slots=$2 algorithm=$3 binary=$4 least_common=${5:-}
  local label="$binary on $hosts hosts x $slots, algorithm ${algorithm:-default}"
  [[ -n "$least_common" ]] && label+=", ORTHO_LEAST_COMMON=$least_common"
  if bash tools/hosts.sh "$hosts" --slots "$slots" -- bash -c '
      source tests/harness/mpirun_flags.sh
      mpirun_flags "$1"
      export ORTHO_ALGORITHM="$2"
      env=(-x ORTHO_ALGORITHM)
      if [[ -n "$4" ]]; then
        export ORTHO_LEAST_COMMON="$4"
        env+=(-x ORTHO_LEAST_COMMON)
      fi
      mpirun "${MPIRUN_FLAGS[@]}" "${env[@]}" "$3"' \
      _ "$((hosts * slots))" "$algorithm" "$work/$binary" "$least_common" \
      >"$work/out" 2>&1 &&
      grep -q "^\[  PASSED  \]" "$work/out"; then
    echo "node_aware_hosts: $label: passed"
  else
    echo "node_aware_hosts: $label: FAILED" >&2
    tail -30 "$work/out" >&2
    failures=$((failures + 1))
  fi
}
run 2 4 node_aware neighborhood_vs_openmpi_test_bin
run 4 2 "" neighborhood_vs_openmpi_test_bin
run 4 2 node_aware neighborhood_vs_openmpi_test_bin
run 4 2 node_aware allreduce_allgatherw_test_bin
run 2 4 common_neighbours neighborhood_vs_openmpi_test_bin
run 2 4 common_neighbours neighborhood_vs_openmpi_test_bin 1
run 4 1 "" node_aware_selection_test_bin
[[ $failures -eq 0 ]]
