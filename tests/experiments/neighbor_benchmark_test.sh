#!/usr/bin/env bash
# Runs experiments/neighbor_benchmark under mpirun on one block size of the
# Moore torus, blocking and persistent: it must finish and report, beside
# classic's and Open MPI's times, the floor (raw_us, the same messages
# posted by hand) and classic's ratio to it (floor_ratio, classic's time
# over the floor's) and to Open MPI (ratio), each positive.
#   neighbor_benchmark_test.sh NP MPIRUN_TEST MPIRUN BENCHMARK
set -uo pipefail
np="$1"; mpirun_test="$2"; mpirun="$3"; benchmark="$4"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
output="$dir/benchmark.csv"
bash "$mpirun_test" "$np" "$mpirun" "$benchmark" --benchmark_format=csv \
  --benchmark_filter='BM_NeighborAlltoall/moore(_persistent)?/1/' \
  >"$output" 2>"$dir/stderr.txt"
status=$?
fail() {
  echo "FAIL: $*"
  sed 's/^/  | /' "$output" "$dir/stderr.txt"
  exit 1
}
[[ $status -eq 0 ]] || fail "exit status $status"
# The median rows, their counters by column name. (A median row's ratios
# are medians over the repetitions, not the ratio of the median times, and
# on a loaded machine the two can differ by any amount: their arithmetic is
# not checked here, only that each is there and positive.)
awk -F, '/^name,/ { gsub(/"/, ""); for (i = 1; i <= NF; ++i) column[$i] = i; next }
         $1 ~ /_median"?$/ {
           ++rows
           if (!(column["raw_us"] && $column["raw_us"] > 0 &&
                 column["floor_ratio"] && $column["floor_ratio"] > 0 &&
                 column["ratio"] && $column["ratio"] > 0 &&
                 $column["classic_us"] > 0 && $column["openmpi_us"] > 0)) {
             bad = $1
           }
         }
         END { if (rows != 2 || bad != "") { print rows, bad; exit 1 } }' \
  "$output" || fail "expected two median rows with positive raw_us and floor_ratio (classic / raw)"
echo "neighbor_benchmark_test: ok"
