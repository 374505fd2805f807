#!/usr/bin/env bash
# Runs experiments/sparse_graph_benchmark under mpirun on two small graphs
# (Erdős–Rényi and a partitioned mesh), planned as if on 2 hosts
# (ORTHO_HOSTS=2) so that node_aware relays, and with pairs of any overlap
# (ORTHO_LEAST_COMMON=1) so that common_neighbours pairs processes even on
# 4 (never more messages than direct then): it must finish with a CSV row
# per operation, graph and block whose times are positive (the program
# aborts where a result differs from Open MPI's), with each variant's ratio
# to Open MPI (<variant>_ratio = <variant>_us / openmpi_us, inside its range
# <variant>_ratio_min - _max); --calls=1 likewise, --calls=0 refused with
# a message. Then with node_aware's, common_neighbours'
# and spread_relays' result spoiled on purpose (--corrupt) it must fail
# and say which.
#   sparse_graph_benchmark_test.sh NP MPIRUN_TEST MPIRUN BENCHMARK
set -uo pipefail
np="$1"; mpirun_test="$2"; mpirun="$3"; benchmark="$4"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
output="$dir/benchmark.csv"
fail() {
  echo "FAIL: $*"
  sed 's/^/  | /' "$output" "$dir/stderr.txt"
  exit 1
}
run() {
  ORTHO_HOSTS=2 ORTHO_LEAST_COMMON=1 bash "$mpirun_test" "$np" "$mpirun" "$benchmark" \
    --graphs=er_0.3_s1,mesh2d_12_sfc --blocks=4,400 --iterations=1 \
    --benchmark_format=csv "$@" >"$output" 2>"$dir/stderr.txt"
}

run
status=$?
[[ $status -eq 0 ]] || fail "exit status $status"
# The rows, their counters by column name.
awk -F, '/^name,/ { gsub(/"/, ""); for (i = 1; i <= NF; ++i) column[$i] = i; next }
         /^"(allgather|alltoall)\// {
           ++rows
           for (v in want) if (!($column[v] > 0)) bad = $1 " " v
           if ($column["node_aware_between"] > $column["direct_between"]) {
             bad = $1 " node_aware_between"
           }
           if ($column["spread_relays_between"] > $column["direct_between"]) {
             bad = $1 " spread_relays_between"
           }
           if ($column["common_neighbours_msgs"] > $column["direct_msgs"]) {
             bad = $1 " common_neighbours_msgs"
           }
           for (v in ratio_of) {
             if (!($column[v "_us"] > 0 && $column["openmpi_us"] > 0)) continue
             expected = $column[v "_us"] / $column["openmpi_us"]
             ratio = $column[v "_ratio"]
             if (!(ratio / expected > 0.999 && ratio / expected < 1.001 &&
                   $column[v "_ratio_min"] <= ratio * 1.001 &&
                   ratio <= $column[v "_ratio_max"] * 1.001)) {
               bad = $1 " " v "_ratio"
             }
           }
         }
         BEGIN { split("openmpi_us raw_us direct_us node_aware_us " \
                       "common_neighbours_us spread_relays_us selected_us " \
                       "selected_persistent_us direct_persistent_us " \
                       "node_aware_persistent_us " \
                       "common_neighbours_persistent_us " \
                       "spread_relays_persistent_us direct_ratio " \
                       "direct_ratio_min direct_ratio_max direct_msgs edges " \
                       "direct_model_us",
                       names, " ")
                 for (i in names) want[names[i]] = 1
                 split("raw direct node_aware common_neighbours " \
                       "spread_relays selected direct_persistent " \
                       "node_aware_persistent common_neighbours_persistent " \
                       "spread_relays_persistent selected_persistent", \
                       variants, " ")
                 for (i in variants) ratio_of[variants[i]] = 1 }
         END { if (rows != 8 || bad != "") { print rows, bad; exit 1 } }' \
  "$output" || fail "expected 8 rows with positive times and counters, ratios = time / Open MPI's"
grep -q '_x"' "$output" && fail "a counter named <name>_x"
grep -q "1 iterations of 10 calls" "$output" || fail "not 10 calls a batch by default"

# One call a batch (its latency after the barrier) where asked; a count
# out of range is refused with a message.
run --calls=1
status=$?
[[ $status -eq 0 ]] || fail "--calls=1: exit status $status"
grep -q "1 iterations of 1 calls" "$output" || fail "--calls=1 not taken"
[[ $(grep -c '^"all' "$output") -eq 8 ]] || fail "--calls=1: not 8 rows"
run --calls=0
status=$?
[[ $status -ne 0 ]] || fail "--calls=0 accepted"
grep -q -- "--calls=: must be 1 to 1000" "$dir/stderr.txt" ||
  fail "no message for --calls=0"

run --corrupt=node_aware
status=$?
[[ $status -ne 0 ]] || fail "a spoiled node_aware result went unnoticed"
grep -q "MISMATCH on er_0.3_s1, allgather, 4 B blocks: node_aware's result" \
  "$dir/stderr.txt" || fail "no MISMATCH line naming node_aware"
run --corrupt=common_neighbours
status=$?
[[ $status -ne 0 ]] || fail "a spoiled common_neighbours result went unnoticed"
grep -q "MISMATCH on er_0.3_s1, allgather, 4 B blocks: common_neighbours's result" \
  "$dir/stderr.txt" || fail "no MISMATCH line naming common_neighbours"
run --corrupt=spread_relays
status=$?
[[ $status -ne 0 ]] || fail "a spoiled spread_relays result went unnoticed"
grep -q "MISMATCH on er_0.3_s1, allgather, 4 B blocks: spread_relays's result" \
  "$dir/stderr.txt" || fail "no MISMATCH line naming spread_relays"
echo "sparse_graph_benchmark_test: ok"
