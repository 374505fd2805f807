#!/usr/bin/env bash
# Runs every orthocomm test and ends with "N passed, N failed", counting Bazel
# test targets (one target per test program and process count) and then the
# checks that cannot run inside Bazel, one count each (tools/checks/: the
# installation and the examples built against it, the README's code blocks,
# a Bazel workspace that uses orthocomm from outside, set-up without sudo,
# placement on simulated hosts with several slots, the node-aware algorithm
# on simulated hosts, the licence and version, the compile errors of wrong
# typed buffers, the API reference, one convention for ratios, a short main
# job with its verdict and duration). A check
# that cannot run
# on this machine (exit 77: simulated hosts without root) is reported as
# skipped and not counted.
# Extra arguments go to `bazel test`, e.g. tools/test.sh --config=asan.
# ORTHOCOMM_SKIP_CHECKS=1 runs the Bazel tests only.
#
# tools/test.sh --hosts N [ARGS...] runs the MPI test targets only (tag mpi:
# the mpi_test targets and the harness self-test) with their processes spread
# over N simulated hosts (tools/hosts.sh: network namespaces on a bridge;
# btl self,vader,tcp, placement ORTHOCOMM_MAP_BY), unsandboxed; the hosts are
# removed afterwards, also after a failure or Ctrl-C.
set -uo pipefail
cd "$(dirname "$0")/.."

hosts=""
args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --hosts) hosts="${2:-}"; shift; [[ $# -gt 0 ]] && shift ;;
    --hosts=*) hosts="${1#--hosts=}"; shift ;;
    *) args+=("$1"); shift ;;
  esac
done

bash tools/install_deps.sh || { echo "0 passed, 1 failed"; exit 1; }

bazel_flags=(--keep_going --test_summary=short)
tee_flags=()
if [[ -n "$hosts" ]]; then
  if [[ ! "$hosts" =~ ^[1-9][0-9]*$ ]]; then
    echo "test.sh: --hosts needs a number of hosts, got '$hosts'" >&2
    echo "0 passed, 1 failed"; exit 1
  fi
  if [[ "${ORTHOCOMM_HOSTS:-}" != "$hosts" ]]; then
    # Not inside tools/hosts.sh yet: create the hosts and come back here.
    if [[ "$(id -u)" != "0" ]] || ! command -v ip >/dev/null ||
        ! command -v unshare >/dev/null; then
      echo "test.sh: --hosts needs root, ip (iproute2) and unshare (util-linux)" >&2
      echo "0 passed, 1 failed"; exit 1
    fi
    exec bash tools/hosts.sh "$hosts" -- bash tools/test.sh --hosts "$hosts" "${args[@]}"
  fi
  # Only MPI targets are spread; they run unsandboxed (the launch agent enters
  # the hosts' namespaces) and find the hosts through these variables.
  bazel_flags+=(--test_tag_filters=mpi --strategy=TestRunner=standalone
    --test_env=ORTHOCOMM_HOSTFILE --test_env=ORTHOCOMM_LAUNCH_AGENT
    --test_env=ORTHOCOMM_HOSTS_NET --test_env=ORTHOCOMM_MAP_BY)
  tee_flags=(-i)  # after Ctrl-C, still show Bazel's report of the cancelled
fi

log=$(mktemp)
bazel test "${bazel_flags[@]}" "${args[@]}" //... 2>&1 | tee "${tee_flags[@]}" "$log"
status=${PIPESTATUS[0]}

# Summary lines look like "//pkg:target   PASSED in 1.2s" (or FAILED, TIMEOUT,
# NO STATUS, FAILED TO BUILD, ...): everything that did not pass failed.
passed=$(grep -cE '^//[^ ]+ +(\(cached\) )?PASSED' "$log")
failed=$(grep -E '^//[^ ]+ +' "$log" | grep -vcE '^//[^ ]+ +(\(cached\) )?PASSED')
rm -f "$log"
if [[ $status -ne 0 && $failed -eq 0 ]]; then
  failed=1  # the build itself failed before any test could report
fi

# The checks outside Bazel (a Bazel test cannot run Bazel itself); not with
# --hosts, which only spreads the MPI targets.
if [[ -z "$hosts" && "${ORTHOCOMM_SKIP_CHECKS:-}" != "1" ]]; then
  for check in install_examples readme_blocks performance_doc bazel_workspace \
      deps_without_sudo hosts_placement node_aware_hosts licence_version \
      typed_buffers api_reference ratio_convention main_job; do
    echo "== check $check"
    check_status=0
    bash "tools/checks/$check.sh" || check_status=$?
    if [[ $check_status -eq 0 ]]; then
      echo "check $check PASSED"; passed=$((passed + 1))
    elif [[ $check_status -eq 77 ]]; then
      echo "check $check SKIPPED"
    else
      echo "check $check FAILED"; failed=$((failed + 1))
    fi
  done
fi
if [[ $passed -eq 0 && $failed -eq 0 ]]; then
  failed=1  # no test ran at all: that is not a pass
fi
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
