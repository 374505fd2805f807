#!/usr/bin/env bash
# The simulator's programs end to end: tools/simulation_points.py on four
# hand-made result folders (one of each kind it reads; every row worked out
# below by hand), experiments/simulate:validate on those points, and
# experiments/simulate:simulate on a 3-d Moore torus and an SpMV's halo,
# with their errors.
#   programs_test.sh POINTS_PY VALIDATE SIMULATE MACHINE
set -uo pipefail
points_py="$1" validate="$2" simulate="$3" machine="$4"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
fail() { echo "FAIL: $*"; sed 's/^/  | /' "$dir/out.txt"; exit 1; }

mkdir -p "$dir/floor/raw" "$dir/node" "$dir/sparse"
{
  echo "operation,stencil,dims,processes,btl,block_bytes,repetition,variant,algorithm,time_us,ratio_to_openmpi,messages,bytes,rounds,time_min_us,time_max_us,batches,modelled_us"
  echo "allgather,moore_2d_d1,2x2,4,self+vader,4,1,openmpi,MPI_Neighbor_allgather,6,1,8,32,1,5,7,1,"
  echo "allgather,moore_2d_d1,2x2,4,self+vader,4,1,ortho_direct,direct,5,0.8,8,32,1,4,6,1,10"
  echo "allgather,moore_2d_d1,2x2,4,self+vader,4,1,ortho_combining,combining,8,1.3,4,64,2,7,9,1,20"
} >"$dir/floor/raw/launch-1.csv"
echo "hosts: 4 simulated hosts x 4 slots, 16 processes round-robin over the hosts" \
  >"$dir/node/run.txt"
{
  echo "node_aware_benchmark: 16 processes on 4 hosts"
  echo "BM_NodeAware/alltoall_3d/10/iterations:30/manual_time 183 us 4164 us 30 combining_us=1.2k direct_us=400 hosts=4 node_aware_us=150 openmpi_us=410"
} >"$dir/node/raw.txt"
{
  echo "sparse_graph_benchmark: 8 processes on 1 hosts, 10 iterations of 10 calls"
  echo 'name,iterations,real_time,label,"direct_us","node_aware_us"'
  echo '"allgather/er_0.1_s1/4/iterations:10/manual_time",10,3.1,"selected=direct",3,9'
} >"$dir/sparse/raw.csv"

mkdir -p "$dir/spmv"
echo "hosts: 2 simulated hosts x 2 slots (tools/hosts.sh), 4 processes by slot" \
  >"$dir/spmv/run.txt"
{
  echo "spmv traffic matrix=dwt_162.mtx placement=identity algorithm=direct messages=3"
  echo "spmv variant=openmpi matrix=dwt_162.mtx processes=4 partition=metis placement=identity seconds_per_iteration=0.0002 result=correct"
  echo "spmv variant=ortho-direct matrix=dwt_162.mtx processes=4 partition=metis placement=identity seconds_per_iteration=0.00025 result=correct"
  echo "spmv variant=ortho-node-aware matrix=dwt_162.mtx processes=4 partition=metis placement=scotch seconds_per_iteration=0.0001 result=correct"
  echo "spmv variant=ortho-spread-relays matrix=dwt_162.mtx processes=4 partition=metis placement=identity seconds_per_iteration=0.0003 result=correct"
} >"$dir/spmv/raw.txt"
python3 "$points_py" "$dir/spmv" >"$dir/spmv.csv" 2>"$dir/out.txt" ||
  fail "simulation_points.py on spmv: exit status $?"
tr -d '\r' <"$dir/spmv.csv" >"$dir/out.txt"
expected="nodes,ppn,placement,workload,operation,block_bytes,algorithm,measured_us,source
2,2,slot,matrix:metis:experiments/spmv/data/dwt_162.mtx,alltoallv,8,direct,250.0,spmv
2,2,slot,matrix:metis:experiments/spmv/data/dwt_162.mtx,alltoallv,8,spread_relays,300.0,spmv"
[[ "$(cat "$dir/out.txt")" == "$expected" ]] || fail "spmv points differ from:
$expected"
"$validate" --machine="$machine" --points="$dir/spmv.csv" >"$dir/out.txt" \
  2>&1 || fail "validate on an SpMV's points: exit $?"
grep -q "^| 2 x 2, slot | spread_relays | 1 |" "$dir/out.txt" ||
  fail "no row for the SpMV's spread_relays point"

python3 "$points_py" "$dir/floor" "$dir/node" "$dir/sparse" >"$dir/points.csv" \
  2>"$dir/out.txt" || fail "simulation_points.py: exit status $?"
tr -d '\r' <"$dir/points.csv" >"$dir/out.txt"
expected="nodes,ppn,placement,workload,operation,block_bytes,algorithm,measured_us,source
1,4,slot,stencil:moore2d_1,allgather,4,direct,5.0,floor
1,4,slot,stencil:moore2d_1,allgather,4,combining,8.0,floor
4,4,round_robin,stencil:moore3d_1,alltoall,40,direct,400.0,node
4,4,round_robin,stencil:moore3d_1,alltoall,40,combining,1200.0,node
4,4,round_robin,stencil:moore3d_1,alltoall,40,node_aware,150.0,node
1,8,slot,graph:er_0.1_s1,allgather,4,direct,3.0,sparse
1,8,slot,graph:er_0.1_s1,allgather,4,node_aware,9.0,sparse"
[[ "$(cat "$dir/out.txt")" == "$expected" ]] || fail "points differ from:
$expected"

"$validate" --machine="$machine" --points="$dir/points.csv" \
  --fit="$dir/fitted.machine" >"$dir/out.txt" 2>&1 || fail "validate: exit $?"
grep -q "^| all | all | 7 |" "$dir/out.txt" || fail "no summary of 7 points"
grep -q "^| 4 x 4, round robin | node_aware | 1 |" "$dir/out.txt" ||
  fail "no row per job and algorithm"
grep -q "^| job | points with a choice |" "$dir/out.txt" || fail "no choices"
grep -q "^\[between\]" "$dir/fitted.machine" || fail "no fitted machine file"
"$validate" --machine="$dir/fitted.machine" --points="$dir/points.csv" \
  >"$dir/out.txt" 2>&1 || fail "the fitted machine file does not load"
"$validate" --machine="$machine" --points="$dir/points.csv" --loop=10 \
  >"$dir/out.txt" 2>&1 || fail "validate --loop: exit $?"
grep -q "^| all | all | 7 |" "$dir/out.txt" || fail "no summary with --loop"
"$validate" --machine="$machine" --points="$dir/points.csv" --loop=0 \
  >"$dir/out.txt" 2>&1 && fail "validate took --loop=0"
grep -q -- "--loop=0: '0' is not a whole number >= 1" "$dir/out.txt" ||
  fail "no message for --loop=0"
"$validate" --machine="$machine" --points="$dir/points.csv" --holdout \
  >"$dir/out.txt" 2>&1 && fail "validate took --holdout without --fit"
grep -q -- "--holdout needs --fit=OUT" "$dir/out.txt" ||
  fail "no message for --holdout without --fit"
echo "nodes,ppn" >"$dir/bad.csv"
"$validate" --machine="$machine" --points="$dir/bad.csv" >"$dir/out.txt" 2>&1 &&
  fail "validate took a points file without its header"
grep -q "bad.csv:1: the header is not" "$dir/out.txt" || fail "no message"

"$simulate" --machine="$machine" --stencil=moore3d --nodes=2 --ppn=8 \
  --blocks=64 >"$dir/out.txt" 2>&1 || fail "simulate: exit status $?"
# 16 processes: a 4 x 2 x 2 torus, 26 neighbours (repeated) of 64 B each.
grep -q "^| 64 | direct | 1 | 26 | 1664 |" "$dir/out.txt" || fail "direct's row"
for algorithm in combining node_aware common_neighbours spread_relays; do
  grep -q "^| 64 | $algorithm |" "$dir/out.txt" || fail "no $algorithm row"
done
"$simulate" --machine="$machine" --stencil=moore3d --nodes=2 --ppn=8 \
  --blocks=64 --loop=10 >"$dir/out.txt" 2>&1 || fail "simulate --loop: exit $?"
# One more column: a call in a loop of 10, direct's ratio to itself 1.00.
grep -q "^| 64 | direct | 1 | 26 | 1664 | [0-9]* | [0-9]* | [0-9]* | [0-9.]* | [a-z ]* | [0-9.]* | 1.00 |$" \
  "$dir/out.txt" || fail "direct's row with --loop"
"$simulate" --machine="$machine" --stencil=moore3d --nodes=2 --ppn=8 \
  --format=summary >"$dir/out.txt" 2>&1 || fail "summary: exit status $?"
[[ "$(grep -c '^| 2 | 16 |' "$dir/out.txt")" == 4 ]] ||
  fail "not one summary row per default block size"
"$simulate" --machine="$machine" --stencil=moore3d --nodes=2 --ppn=8 \
  --blocks=0 >"$dir/out.txt" 2>&1
[[ $? == 2 ]] || fail "a bad option did not exit 2"
grep -q -- "--blocks=0: '0' is not a whole number" "$dir/out.txt" ||
  fail "no message for a bad option"
"$simulate" --machine="$machine" --matrix=experiments/spmv/data/dwt_162.mtx \
  --nodes=2 --ppn=2 >"$dir/out.txt" 2>&1 || fail "simulate --matrix: exit $?"
grep -q "^## dwt_162 (METIS parts), alltoallv, 2 nodes x 2 processes" \
  "$dir/out.txt" || fail "no halo's title"
for algorithm in direct node_aware common_neighbours spread_relays; do
  grep -q "^| 8 | $algorithm |" "$dir/out.txt" || fail "no halo $algorithm row"
done
"$simulate" --machine="$machine" --matrix=/nonexistent.mtx --nodes=2 \
  --ppn=2 >"$dir/out.txt" 2>&1 && fail "a missing matrix was taken"
grep -q "/nonexistent.mtx" "$dir/out.txt" || fail "no message for the matrix"
"$simulate" --machine=/nonexistent --graph=er_0.1_s1 --nodes=2 --ppn=2 \
  >"$dir/out.txt" 2>&1 && fail "a missing machine file was taken"
grep -q "/nonexistent: cannot be read" "$dir/out.txt" || fail "no message"
echo "PASS"
