#!/usr/bin/env bash
# The main job as a user runs it, kept short: tools/run.sh on 2 processes,
# one small grid, 100 iterations, no multi-host section. It must finish
# with exit 0, every run correct, a table that opens with the verdict, the
# load recorded, and the duration printed; the duration (build and
# measuring) is reported here, not asserted (a loaded machine is slower).
# It runs the tests' unoptimised build (ORTHOCOMM_RUN_MODE=fastbuild, which
# bazel test has built), so that CI does not compile the library a third
# time: the steps and tables are the user's, the times are not the
# library's.
# Run by tools/test.sh after `bazel test`; exits non-zero on a failure.
set -euo pipefail
cd "$(dirname "$0")/../.."

fail() { echo "main_job: $*" >&2; exit 1; }

results="$(mktemp -d)/results"
trap 'rm -rf "$(dirname "$results")"' EXIT
log="$(dirname "$results")/run.log"
if ! ORTHOCOMM_RUN_MODE=fastbuild bash tools/run.sh --np=2 --sizes=24 \
    --iterations=100 --hosts=no --results="$results" >"$log" 2>&1; then
  tail -40 "$log" >&2
  fail "tools/run.sh failed"
fi
grep -q "FAILED" "$log" && { tail -40 "$log" >&2; fail "a step failed"; }
[[ "$(head -1 "$results/table.txt")" == verdict* ]] ||
  fail "table.txt does not open with the verdict"
grep -q "^  jacobi (1 point): ortho-selected at " "$results/table.txt" ||
  fail "no verdict for jacobi"
grep -q "^  spmv, accumulate of A^T w (1 point): accumulate-reverse at " \
  "$results/table.txt" || fail "no verdict for spmv's accumulate"
grep -q "^load before: " "$results/run.txt" || fail "no load before in run.txt"
grep -q "^load after: " "$results/run.txt" || fail "no load after in run.txt"
duration="$(grep -o "^run: [0-9]*s in all (build [0-9]*s, measuring [0-9]*s)" "$log")" ||
  fail "no duration printed"
echo "main_job: ${duration#run: } (the tests' unoptimised build)"
