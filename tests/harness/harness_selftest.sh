#!/usr/bin/env bash
# Shows that a failure on one rank fails the whole run, that rank 0 reports it
# with the failing rank's message, that only rank 0 prints, and that a test
# hanging on one rank ends the run soon after its time limit with a report
# naming the test, the rank, its case label and its stack.
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
start=$(date +%s)
output=$(ORTHOCOMM_TEST_TIMEOUT_S=3 HARNESS_SELFTEST_HANG_RANK=1 \
  "$runner" 3 "$mpirun" "$binary" --gtest_filter='*HangsOnChosenRank' 2>&1)
status=$?
elapsed=$(( $(date +%s) - start ))
[[ $status -ne 0 ]] || fail "a hanging test did not fail the run"
# The 3 s limit grows with the load, at most tenfold: well within a minute.
(( elapsed < 60 )) || fail "the hang ended the run after ${elapsed} s"
grep -qE 'HANG    \] HarnessSelfTest.HangsOnChosenRank on rank 1 of 3: still running after [0-9]+ s' <<<"$output" ||
  fail "the hanging rank's report is missing"
grep -q 'HANG    \] rank 1, last case: deliberate hang, case 7' <<<"$output" ||
  fail "the case label is missing"
grep -q 'wait_forever' <<<"$output" || fail "the stack is missing"
echo "harness_selftest: ok"
