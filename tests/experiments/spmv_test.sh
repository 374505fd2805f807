#!/usr/bin/env bash
# Runs experiments/spmv under mpirun on a square and a rectangular matrix
# (experiments/spmv/data): every implementation's y must equal the serial
# run's bit for bit (result=correct, exit 0); with one implementation's
# exchange spoiled on purpose (--corrupt) the program must report that one
# as result=MISMATCH and exit 1.
#   spmv_test.sh NP MPIRUN_TEST MPIRUN SPMV SQUARE.mtx RECTANGULAR.mtx
set -uo pipefail
np="$1"; mpirun_test="$2"; mpirun="$3"; spmv="$4"; square="$5"; rectangular="$6"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
output="$dir/spmv.txt"
fail() {
  echo "FAIL: $*"
  sed 's/^/  | /' "$output"
  exit 1
}
variants="openmpi raw ortho-direct ortho-selected ortho-selected-persistent"
for matrix in "$square" "$rectangular"; do
  bash "$mpirun_test" "$np" "$mpirun" "$spmv" --matrix="$matrix" \
    --iterations=40 >"$output" 2>&1 || fail "exit status $? on $matrix"
  for variant in $variants; do
    grep -q "^spmv variant=$variant matrix=$(basename "$matrix") .* result=correct$" \
      "$output" || fail "no correct result of $variant on $matrix"
  done
done
if [[ "$np" -gt 1 ]]; then
  bash "$mpirun_test" "$np" "$mpirun" "$spmv" --matrix="$square" \
    --iterations=20 --corrupt=ortho-selected >"$output" 2>&1
  status=$?
  [[ $status -eq 1 ]] || fail "a spoiled exchange exited $status, not 1"
  grep -q "^spmv variant=ortho-selected matrix=.* result=MISMATCH$" "$output" ||
    fail "the spoiled implementation is not reported as MISMATCH"
  grep -q "^spmv variant=openmpi matrix=.* result=correct$" "$output" ||
    fail "the unspoiled implementations are not reported correct"
fi
echo "PASS"
