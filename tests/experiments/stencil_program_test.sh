#!/usr/bin/env bash
# Runs the stencil programs (experiments/life, experiments/jacobi) under
# mpirun, through the harness's mpirun_test.sh, and checks their exit
# status and output:
#   stencil_program_test.sh life NP MPIRUN_TEST MPIRUN LIFE JACOBI
#       every Game of Life variant, fixed and periodic borders, and the PNG
#   stencil_program_test.sh jacobi NP MPIRUN_TEST MPIRUN LIFE JACOBI
#       every Jacobi variant, a fixed number of iterations and a run that
#       converges
#   stencil_program_test.sh refusals MPIRUN_TEST MPIRUN LIFE JACOBI
#       bad flags, a grid smaller than the process grid, an injected error
#       (exit 1, one MISMATCH line per variant), --help
set -uo pipefail

mode="$1"; shift
np=""
if [[ "$mode" != "refusals" ]]; then np="$1"; shift; fi
mpirun_test="$1"; mpirun="$2"; life="$3"; jacobi="$4"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
output="$dir/stencil_output.txt"
failures=0

fail() {
  echo "FAIL: $*"
  sed 's/^/  | /' "$output"
  failures=$((failures + 1))
}

# expect STATUS NP PROGRAM ARGS... -- PATTERN...: exit STATUS, every
# PATTERN in the output.
expect() {
  local status="$1" processes="$2" program="$3"; shift 3
  local args=()
  while [[ "$1" != "--" ]]; do args+=("$1"); shift; done
  shift
  bash "$mpirun_test" "$processes" "$mpirun" "$program" "${args[@]}" \
    >"$output" 2>&1
  local actual=$?
  local what="np $processes, $(basename "$program") ${args[*]}"
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

# The checksums of the last output's lines that match PATTERN (default:
# every line) are all equal: every variant equals the serial run.
expect_same_checksums() {
  local distinct
  distinct="$(grep -F -- "${1:-checksum=}" "$output" |
    grep -o 'checksum=[0-9a-f]*' | sort -u | wc -l)"
  if [[ "$distinct" != "1" ]]; then fail "$distinct different checksums"; fi
}

case "$mode" in
  life)
    for borders in fixed periodic; do
      expect 0 "$np" "$life" --n=9 --iterations=12 --batch=5 --variant=all \
        --borders="$borders" --png="$dir/board_$borders.png" -- \
        "life variant=serial grid=9x9 iterations=12" \
        "life variant=openmpi grid=9x9 processes=$np" \
        "life variant=ortho-combining-persistent grid=9x9" \
        "borders=$borders" \
        "life variant=cells grid="
      expect_lines 10 "result=correct"
      expect_lines 8 "life variant=o"
      # The blocked board's variants (Listing 7's board is the process grid).
      expect_same_checksums "grid=9x9"
      if [[ "$(head -c 8 "$dir/board_$borders.png" | od -An -tx1 | tr -d ' ')" \
          != "89504e470d0a1a0a" ]]; then
        fail "no PNG at $dir/board_$borders.png"
      fi
    done
    ;;
  jacobi)
    expect 0 "$np" "$jacobi" --n=10 --iterations=30 --batch=7 -- \
      "jacobi variant=serial grid=10x10 iterations=30" \
      "jacobi variant=openmpi grid=10x10 processes=$np" \
      "jacobi variant=openmpi-persistent" \
      "jacobi variant=ortho-direct " "jacobi variant=ortho-direct-persistent" \
      "jacobi variant=ortho-combining " "jacobi variant=ortho-selected " \
      "jacobi variant=ortho-selected-persistent" "algorithm=direct"
    expect_lines 8 "iterations=30 seconds_per_iteration="
    expect_lines 8 "result=correct"
    expect_same_checksums
    # Converges long before the limit, at the same iteration everywhere.
    expect 0 "$np" "$jacobi" --n=6 --iterations=5000 --tolerance=1e-4 \
      --variant=openmpi,ortho-selected-persistent -- "result=correct"
    if grep -q "iterations=5000" "$output"; then fail "did not converge"; fi
    if [[ "$(grep -o 'iterations=[0-9]*' "$output" | sort -u | wc -l)" != 1 ]]; then
      fail "variants stopped at different iterations"
    fi
    ;;
  refusals)
    expect 2 1 "$life" --bogus=1 -- "life: unknown flag --bogus" "usage:"
    expect 2 1 "$life" --borders=torus -- "must be fixed or periodic" "usage:"
    expect 2 1 "$jacobi" --variant=cells -- "unknown variant 'cells'" "usage:"
    expect 2 1 "$jacobi" 96 -- "unexpected argument '96'" "usage:"
    expect 2 4 "$jacobi" --n=1 -- "--n=1 is smaller than the 2 x 2 process grid"
    expect 2 4 "$life" --n=1 -- "--n=1 is smaller than the 2 x 2 process grid"
    expect 0 1 "$life" --help -- "usage: mpirun -np P"
    expect 0 1 "$jacobi" --help -- "usage: mpirun -np P"
    expect 1 4 "$jacobi" --n=8 --iterations=5 --inject-error -- \
      "result=MISMATCH cell (7, 7) = "
    expect_lines 8 "result=MISMATCH"
    expect 1 4 "$life" --n=8 --iterations=5 --variant=all --inject-error -- \
      "result=MISMATCH cell ("
    expect_lines 10 "result=MISMATCH"
    ;;
  *)
    echo "stencil_program_test.sh: unknown mode '$mode'" >&2
    exit 2
    ;;
esac

if ((failures > 0)); then
  echo "$failures check(s) failed"
  exit 1
fi
