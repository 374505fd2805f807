#!/usr/bin/env bash
# Runs the fox program (experiments/fox) under mpirun, through the harness's
# mpirun_test.sh, and checks its exit status and output:
#   fox_program_test.sh run NP MPIRUN_TEST MPIRUN FOX
#       both variants at NP processes: exit 0, one "result=correct" line each
#   fox_program_test.sh refusals MPIRUN_TEST MPIRUN FOX
#       non-square process counts, bad flags and an injected error: the
#       documented exit status and a message that says why
set -uo pipefail

mode="$1"; shift
if [[ "$mode" == "run" ]]; then np="$1"; shift; fi
mpirun_test="$1"; mpirun="$2"; fox="$3"
output="${TEST_TMPDIR:-$(mktemp -d)}/fox_output.txt"
failures=0

# run_fox NP ARGS...: the program's output goes to $output; returns its status.
run_fox() {
  local processes="$1"; shift
  bash "$mpirun_test" "$processes" "$mpirun" "$fox" "$@" >"$output" 2>&1
}

fail() {
  echo "FAIL: $*"
  sed 's/^/  | /' "$output"
  failures=$((failures + 1))
}

# expect STATUS NP ARGS... -- PATTERN...: exit STATUS, every PATTERN in the output.
expect() {
  local status="$1" processes="$2"; shift 2
  local args=()
  while [[ "$1" != "--" ]]; do args+=("$1"); shift; done
  shift
  run_fox "$processes" "${args[@]}"
  local actual=$?
  local what="np $processes, args '${args[*]}'"
  if [[ "$actual" != "$status" ]]; then
    fail "$what: exit status $actual, expected $status"
    return
  fi
  local pattern
  for pattern in "$@"; do
    if ! grep -qF -- "$pattern" "$output"; then
      fail "$what: output lacks '$pattern'"
      return
    fi
  done
  echo "ok: $what (exit $status)"
}

# expect_lines COUNT PATTERN: exactly COUNT lines of the last output match.
expect_lines() {
  local count
  count="$(grep -cF -- "$2" "$output")"
  if [[ "$count" != "$1" ]]; then fail "$count lines with '$2', expected $1"; fi
}

if [[ "$mode" == "run" ]]; then
  q="$(awk -v p="$np" 'BEGIN { print int(sqrt(p) + 0.5) }')"
  n=$((6 * q))
  expect 0 "$np" --n="$n" --repetitions=2 -- \
    "fox variant=cartesian n=$n q=$q nb=6 repetitions=2" \
    "fox variant=named n=$n q=$q nb=6 repetitions=2"
  expect_lines 2 "result=correct"
  expect_lines 2 "seconds_per_multiplication="
elif [[ "$mode" == "refusals" ]]; then
  expect 2 2 -- "fox::grid_order: 2 processes is not a perfect square" "usage:"
  expect 2 3 -- "3 processes is not a perfect square"
  expect 2 4 --n=9 -- "n = 9 is not a positive multiple of q = 2" "usage:"
  expect 2 1 --bogus=1 -- "unknown flag --bogus" "usage:"
  expect 2 1 --n=abc -- "--n=abc: the matrix order must be a positive integer"
  expect 2 1 --variant=graph -- "must be cartesian, named or both"
  expect 1 4 --n=8 --inject-error -- "result=MISMATCH C("
  expect_lines 2 "result=MISMATCH"
  expect 0 1 --help -- "usage: mpirun -np P"
else
  echo "fox_program_test.sh: unknown mode '$mode'" >&2
  exit 2
fi

if ((failures > 0)); then
  echo "$failures check(s) failed"
  exit 1
fi
