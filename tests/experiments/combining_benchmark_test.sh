#!/usr/bin/env bash
# Runs experiments/combining_benchmark at a small size under mpirun
# (allgather, alltoall, alltoallw, allreduce on one stencil, two block
# sizes given with --blocks, one batch of two calls): every variant's result
# is checked against Open MPI's before timing, so exit 0 and a row per
# benchmark mean they all agreed; the CSV has a row per variant, ortho's
# with the cost model's price. A malformed
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
# Eight benchmarks, each with Open MPI's two variants, the floor's two and
# ortho's eight (the two combining ones where the table has it, the two
# mpi ones but for allreduce): at least 8 x 8 rows.
rows=$(($(wc -l <"$csv") - 1))
((rows >= 64)) || fail "$rows CSV rows, expected at least 64"
for variant in ortho_selected_persistent ortho_direct_persistent \
    ortho_combining_persistent ortho_mpi ortho_mpi_persistent; do
  grep -q ",$variant," "$csv" || fail "no $variant row"
done
# Forced mpi runs Open MPI's own call, which has no neighbourhood
# reduction: no allreduce row.
grep -q "^allreduce,.*,ortho_mpi" "$csv" && fail "an allreduce row for mpi"
# The forced persistent requests are priced like the blocking calls.
awk -F, 'NR > 1 && $1 == "alltoall" && $8 == "ortho_direct_persistent" {
           rows++; if (!($18 > 0)) bad = $0 }
         END { if (bad != "") print bad; exit bad != "" || rows < 2 }' \
  "$csv" >"$dir/bad_persistent.txt" ||
  fail "ortho_direct_persistent without a price: $(cat "$dir/bad_persistent.txt")"
grep -q "^alltoallw,.*,MPIX_Neighbor_alltoallw_init," "$csv" ||
  fail "no alltoallw row"
# Each row with its spread: fastest <= median <= slowest batch, and the
# number of batches (--iterations=1: one).
awk -F, 'NR > 1 && !($15 <= $10 && $10 <= $16 && $17 == 1) { bad = $0; exit 1 }
         END { if (bad != "") print bad }' "$csv" >"$dir/bad_rows.txt" ||
  fail "a row without a consistent spread: $(cat "$dir/bad_rows.txt")"
head -1 "$csv" | grep -q ",time_min_us,time_max_us,batches,modelled_us$" ||
  fail "CSV header: $(head -1 "$csv")"
# The cost model's price beside ortho's forced direct (priced for allgather
# and alltoall at every size), positive; none beside Open MPI's rows.
awk -F, 'NR > 1 && ($1 == "allgather" || $1 == "alltoall") &&
         $8 == "ortho_direct" { rows++; if (!($18 > 0)) bad = $0 }
         NR > 1 && $8 == "openmpi" && $18 != "" { bad = $0 }
         END { if (bad != "") print bad; exit bad != "" || rows < 4 }' \
  "$csv" >"$dir/bad_prices.txt" ||
  fail "modelled_us missing or misplaced: $(cat "$dir/bad_prices.txt")"
# The ratios to Open MPI (time over Open MPI's) and their ranges, as
# counters; the floor's ratio (ortho over its own messages by hand); no
# counter in the old speedup form (<name>_x).
for counter in selected_ratio selected_ratio_min selected_ratio_max \
    persistent_ratio persistent_ratio_min persistent_ratio_max \
    direct_ratio direct_floor_ratio direct_floor_ratio_min; do
  grep -Eq " $counter=[0-9]" "$output" || fail "no $counter counter"
done
grep -Eq "[a-z]_x(_min|_max)?=" "$output" && fail "a counter named <name>_x"
# One point's arithmetic: selected_ratio is selected_us / openmpi_us (the
# console rounds each to a few digits, so within 2 %), and its range holds
# it.
awk 'function number(text) {  # the console prints 1.5k, 250m
       if (text ~ /k$/) return substr(text, 1, length(text) - 1) * 1e3
       if (text ~ /m$/) return substr(text, 1, length(text) - 1) * 1e-3
       return text + 0
     }
     /alltoall\/moore_2d_d1\/4\// {
       # The counters come first, the label (which may hold "=") after.
       for (i = 1; i <= NF; ++i)
         if (split($i, pair, "=") == 2 && !(pair[1] in value))
           value[pair[1]] = number(pair[2])
       mine = value["selected_us"] / value["openmpi_us"]
       ratio = value["selected_ratio"]
       if (!(ratio > 0 && mine / ratio > 0.98 && mine / ratio < 1.02 &&
             value["selected_ratio_min"] <= ratio * 1.001 &&
             ratio <= value["selected_ratio_max"] * 1.001)) exit 1
       found = 1
     }
     END { exit !found }' "$output" ||
  fail "selected_ratio is not selected_us / openmpi_us within its range"
# The CSV's ratio column: each row's time over Open MPI's at its point (1
# for Open MPI's own row).
head -1 "$csv" | grep -q ",time_us,ratio_to_openmpi," ||
  fail "CSV header without ratio_to_openmpi: $(head -1 "$csv")"
awk -F, 'NR > 1 && $8 == "openmpi" { reference[$1, $2, $6, $7] = $10 }
         NR > 1 { time[NR] = $10; ratio[NR] = $11; point[NR] = $1 SUBSEP $2 SUBSEP $6 SUBSEP $7 }
         END {
           for (r in time) {
             expected = time[r] / reference[point[r]]
             if (!(ratio[r] > 0 && ratio[r] / expected > 0.999 &&
                   ratio[r] / expected < 1.001)) { print r; exit 1 }
           }
         }' "$csv" >"$dir/bad_ratios.txt" ||
  fail "a CSV ratio_to_openmpi is not time_us / openmpi's (row $(cat "$dir/bad_ratios.txt"))"
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
