#!/usr/bin/env bash
# Runs every orthocomm test and ends with "N passed, N failed", counting Bazel
# test targets (one target per test program and process count).
# Extra arguments go to `bazel test`, e.g. tools/test.sh --config=asan.
set -uo pipefail
cd "$(dirname "$0")/.."
bash tools/install_deps.sh || { echo "0 passed, 1 failed"; exit 1; }

log=$(mktemp)
bazel test --keep_going --test_summary=short "$@" //... 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

# Summary lines look like "//pkg:target   PASSED in 1.2s" (or FAILED, TIMEOUT,
# NO STATUS, FAILED TO BUILD, ...): everything that did not pass failed.
passed=$(grep -cE '^//[^ ]+ +(\(cached\) )?PASSED' "$log")
failed=$(grep -E '^//[^ ]+ +' "$log" | grep -vcE '^//[^ ]+ +(\(cached\) )?PASSED')
rm -f "$log"
if [[ $status -ne 0 && $failed -eq 0 ]]; then
  failed=1  # the build itself failed before any test could report
fi
if [[ $passed -eq 0 && $failed -eq 0 ]]; then
  failed=1  # no test ran at all: that is not a pass
fi
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
