#!/usr/bin/env bash
# Shows that a failure on one rank fails the whole run, that rank 0 reports it
# with the failing rank's message, and that only rank 0 prints.
# Usage: harness_selftest.sh MPIRUN_TEST_SH MPIRUN BINARY
set -uo pipefail
runner="$1"; mpirun="$2"; binary="$3"
fail() { echo "harness_selftest: $*"; echo "--- output ---"; echo "$output"; exit 1; }

output=$(HARNESS_SELFTEST_FAIL_RANK=1 "$runner" 3 "$mpirun" "$binary" 2>&1)
status=$?
[[ $status -ne 0 ]] || fail "a failure on rank 1 did not fail the run"
grep -q '^\[rank 1\] .*Failure' <<<"$output" || fail "rank 1's message missing"
grep -q 'deliberate failure' <<<"$output" || fail "failure text missing"
grep -q 'FailsOnChosenRank on rank(s) 1 ' <<<"$output" ||
  fail "failing rank not named"
grep -q '^\[rank [02]\]' <<<"$output" && fail "passing ranks reported failure"
[[ $(grep -c '^\[==========\] Running' <<<"$output") -eq 1 ]] ||
  fail "more than one process printed"

output=$("$runner" 3 "$mpirun" "$binary" 2>&1)
status=$?
[[ $status -eq 0 ]] || fail "a clean run failed"
grep -q 'SKIPPED \] HarnessSelfTest.FailsOnChosenRank' <<<"$output" ||
  fail "skip not reported"
echo "harness_selftest: ok"
