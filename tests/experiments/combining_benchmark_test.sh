#!/usr/bin/env bash
# Runs experiments/combining_benchmark at a small size under mpirun
# (allgather, alltoall, alltoallw, allreduce on one stencil, two block
# sizes given with --blocks, one batch of two calls): every variant's result
# is checked against Open MPI's before timing, so exit 0 and a row per
# benchmark mean they all agreed; the CSV has a row per variant. A malformed
# --blocks is refused with a message naming the flag and the value.
#   combining_benchmark_test.sh NP MPIRUN_TEST MPIRUN BENCHMARK
set -uo pipefail
np="$1"; mpirun_test="$2"; mpirun="$3"; benchmark="$4"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
output="$dir/benchmark_output.txt"
csv="$dir/benchmark.csv"
bash "$mpirun_test" "$np" "$mpirun" "$benchmark" --iterations=1 --calls=2 \
  --csv="$csv" --benchmark_color=false --blocks=4,4000 \
  --benchmark_filter='^(alltoall|alltoallw|allgather|allreduce)/moore_2d_d1/' \
  >"$output" 2>&1
status=$?
fail() {
  echo "FAIL: $*"
  sed 's/^/  | /' "$output"
  exit 1
}
[[ $status -eq 0 ]] || fail "exit status $status"
grep -q "ERROR OCCURRED" "$output" && fail "a result differed from Open MPI's"
for name in alltoall/moore_2d_d1/4/ allgather/moore_2d_d1/4000/ \
    allreduce/moore_2d_d1/4/ alltoallw/moore_2d_d1/4/ \
    alltoallw/moore_2d_d1/4000/; do
  grep -qF "$name" "$output" || fail "no benchmark $name"
done
# Eight benchmarks, each with Open MPI's two variants and ortho's four (the
# combining one where the table has it): at least 8 x 5 rows.
rows=$(($(wc -l <"$csv") - 1))
((rows >= 40)) || fail "$rows CSV rows, expected at least 40"
grep -q ",ortho_selected_persistent," "$csv" || fail "no selected persistent row"
grep -q "^alltoallw,.*,MPIX_Neighbor_alltoallw_init," "$csv" ||
  fail "no alltoallw row"
# Each row with its spread: fastest <= median <= slowest batch, and the
# number of batches (--iterations=1: one).
awk -F, 'NR > 1 && !($15 <= $10 && $10 <= $16 && $17 == 1) { bad = $0; exit 1 }
         END { if (bad != "") print bad }' "$csv" >"$dir/bad_rows.txt" ||
  fail "a row without a consistent spread: $(cat "$dir/bad_rows.txt")"
head -1 "$csv" | grep -q ",time_min_us,time_max_us,batches$" ||
  fail "CSV header: $(head -1 "$csv")"
# The speedups' ranges, as counters.
grep -q "selected_x_min=" "$output" || fail "no selected_x_min counter"
grep -q "persistent_x_max=" "$output" || fail "no persistent_x_max counter"
# Only the sizes asked for.
grep -q "/40/" "$output" && fail "a block size that --blocks did not list"
refusal="$dir/refusal.txt"
for bad in 6 4,x 0 ""; do
  if bash "$mpirun_test" "$np" "$mpirun" "$benchmark" --blocks="$bad" \
      >"$refusal" 2>&1; then
    fail "--blocks='$bad' was accepted"
  fi
  grep -qF -- "--blocks=: '$bad' must list block sizes" "$refusal" ||
    { cat "$refusal"; fail "--blocks='$bad' refused without naming it"; }
done
echo "ok: $np processes, $rows rows"
