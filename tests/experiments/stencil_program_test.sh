#!/usr/bin/env bash
# Runs the stencil programs (experiments/life, experiments/jacobi) under
# mpirun, through the harness's mpirun_test.sh, and checks their exit
# status and output:
#   stencil_program_test.sh life NP MPIRUN_TEST MPIRUN LIFE JACOBI
#       every Game of Life variant, fixed and periodic borders, and the PNG
#   stencil_program_test.sh jacobi NP MPIRUN_TEST MPIRUN LIFE JACOBI
#       every Jacobi variant, a fixed number of iterations and a run that
#       converges
# Both modes also run with and without --reorder (ortho's graphs made with
# Reorder::yes) and compare every variant's checksum across the two runs,
# and check the mapping line (on several hosts, tools/test.sh --hosts N:
# where the ranks were mapped, the traffic between hosts is the best
# blocks' and lower than in the world's order).
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

# checksums_of FILE: the variants' "name checksum" pairs, sorted.
checksums_of() {
  grep -o '^[a-z]* variant=[a-z-]* .*checksum=[0-9a-f]*' "$1" |
    sed 's/^[a-z]* variant=\([a-z-]*\) .*\(checksum=[0-9a-f]*\)$/\1 \2/' |
    sort
}

# field NAME LINE: the value of NAME=... in LINE ("" when absent).
field() { grep -o " $1=[^ ]*" <<<"$2" | head -1 | cut -d= -f2; }

# expect_mapping GRAPH REORDER: the last output has exactly one mapping
# line for GRAPH, made with REORDER, with the traffic between hosts; where
# the ranks were mapped, that traffic is the best blocks' (their edges, at
# most their weight), which weigh less than the order's own; where the
# hosts were one, there is none.
expect_mapping() {
  local program line
  program="$(grep -o -m1 '^[a-z]* variant=' "$output" | cut -d' ' -f1)"
  expect_lines 1 "$program mapping graph=$1 "
  line="$(grep -F "$program mapping graph=$1 " "$output")"
  if [[ "$(field reorder "$line")" != "$2" ||
        ! "$(field hosts "$line")" =~ ^[1-9][0-9]*$ ||
        ! "$(field weight "$line")" =~ ^[0-9]+$ ]]; then
    fail "mapping line '$line': expected reorder=$2, hosts and weight"
    return
  fi
  if [[ "$(field hosts "$line")" == 1 && "$(field edges "$line")" != 0 ]]; then
    fail "one host, yet edges between hosts: '$line'"
  fi
  # The best blocks' and the order's own weights are priced with each
  # stencil offset's largest weight (ortho/mapping.h); this grid's blocks
  # may differ by a row, so the traffic now may weigh a little less.
  if [[ "$(field mapped "$line")" == yes ]]; then
    if [[ "$2" != yes ]]; then fail "mapped without --reorder: '$line'"; fi
    if [[ "$(field edges "$line")" != "$(field best_edges "$line")" ||
          "$(field weight "$line")" -gt "$(field best_weight "$line")" ||
          "$(field best_weight "$line")" -ge \
            "$(field identity_weight "$line")" ]]; then
      fail "mapped, but not to the best blocks' lower weight: '$line'"
    fi
  fi
}

# expect_same_with_reorder NP PROGRAM ARGS...: PROGRAM without and with
# --reorder exits 0 both times (every variant equals the serial run), every
# variant's checksum is the same in both runs, and each prints its mapping
# line.
expect_same_with_reorder() {
  local processes="$1" program="$2"; shift 2
  local name
  name="$(basename "$program")"
  expect 0 "$processes" "$program" "$@" -- "result=correct" \
    "$name mapping graph="
  checksums_of "$output" >"$dir/without_reorder.txt"
  expect 0 "$processes" "$program" "$@" --reorder -- "result=correct" \
    "$name mapping graph="
  checksums_of "$output" >"$dir/with_reorder.txt"
  if [[ ! -s "$dir/with_reorder.txt" ]] ||
      ! cmp -s "$dir/without_reorder.txt" "$dir/with_reorder.txt"; then
    fail "checksums differ with --reorder:" \
      "$(diff "$dir/without_reorder.txt" "$dir/with_reorder.txt")"
  fi
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
    # --reorder: the same boards (Listing 7's and the blocked one), each
    # graph's mapping printed once.
    expect_same_with_reorder "$np" "$life" --n=9 --iterations=12 --batch=5 \
      --variant=cells,openmpi,ortho-selected,ortho-direct-persistent \
      --borders=periodic --seed=2
    expect_mapping blocked yes
    expect_mapping cells yes
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
    # --reorder: the same matrix from every variant; the mapping line of
    # ortho's graph once, without and with it.
    expect_same_with_reorder "$np" "$jacobi" --n=10 --iterations=30 --batch=7 \
      --variant=openmpi,ortho-selected,ortho-direct-persistent
    expect_mapping blocked yes
    expect_lines 3 "result=correct"
    expect 0 "$np" "$jacobi" --n=10 --iterations=5 -- "result=correct"
    expect_mapping blocked no
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
