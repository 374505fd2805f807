#!/usr/bin/env bash
# tools/model_error.py on three hand-made result folders, one of each kind
# it reads, whose every figure is worked out below by hand:
#   floor (1 host x 4, shm), allgather 4 B: direct modelled 10 us, measured
#     5 (0.50); combining modelled 20, measured 8 (0.40). The model picks
#     direct, the fastest: pick / fastest 1.00. Open MPI's row carries no
#     price and is left out.
#   node-aware (4 hosts x 4, tcp): direct modelled 200, measured 400
#     (2.00); node_aware 300 and 150 (0.50); combining 1k and 1.2k (1.20).
#     The model picks direct (200), the fastest is node_aware (150):
#     400 / 150 = 2.67.
#   sparse graphs (1 host x 8, shm): direct modelled 4, measured 3 (0.75);
#     node_aware unpriced (0): left out, so no choice at that point.
# Factors: shm, the geometric mean of 0.50, 0.40, 0.75 = 0.53; tcp, of
# 2.00, 0.50, 1.20 = 1.06. A folder without prices is an error.
#   model_error_test.sh MODEL_ERROR_PY
set -uo pipefail
script="$1"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
fail() { echo "FAIL: $*"; sed 's/^/  | /' "$dir/out.md"; exit 1; }

mkdir -p "$dir/floor/raw" "$dir/node" "$dir/sparse"
{
  echo "operation,stencil,dims,processes,btl,block_bytes,repetition,variant,algorithm,time_us,ratio_to_openmpi,messages,bytes,rounds,time_min_us,time_max_us,batches,modelled_us"
  echo "allgather,moore_2d_d1,2x2,4,self+vader,4,1,openmpi,MPI_Neighbor_allgather,6,1,8,32,1,5,7,1,"
  echo "allgather,moore_2d_d1,2x2,4,self+vader,4,1,ortho_direct,direct,5,0.8,8,32,1,4,6,1,10"
  echo "allgather,moore_2d_d1,2x2,4,self+vader,4,1,ortho_combining,combining,8,1.3,4,64,2,7,9,1,20"
} >"$dir/floor/raw/launch-1.csv"
{
  echo "node_aware_benchmark: 16 processes on 4 hosts"
  echo "BM_NodeAware/allgather_2d/1/iterations:30/manual_time 183 us 4164 us 30 combining_model_us=1k combining_us=1.2k direct_model_us=200 direct_us=400 hosts=4 node_aware_model_us=300 node_aware_us=150 openmpi_us=410"
} >"$dir/node/raw.txt"
{
  echo "sparse_graph_benchmark: 8 processes on 1 hosts, 10 iterations of 10 calls"
  echo 'name,iterations,real_time,label,"direct_model_us","direct_us","node_aware_model_us","node_aware_us"'
  echo '"allgather/er_0.1_s1/4/iterations:10/manual_time",10,3.1,"selected=direct",4,3,0,9'
} >"$dir/sparse/raw.csv"

python3 "$script" "$dir/floor" "$dir/node" "$dir/sparse" >"$dir/out.md" ||
  fail "exit status $?"
for line in \
    "| 1 host x 4, shm | combining | 1 | 0.40 (0.40-0.40) | 60 % |" \
    "| 1 host x 4, shm | direct | 1 | 0.50 (0.50-0.50) | 50 % |" \
    "| 1 host x 8, shm | direct | 1 | 0.75 (0.75-0.75) | 25 % |" \
    "| 4 hosts x 4, tcp | combining | 1 | 1.20 (1.20-1.20) | 20 % |" \
    "| 4 hosts x 4, tcp | direct | 1 | 2.00 (2.00-2.00) | 100 % |" \
    "| 4 hosts x 4, tcp | node_aware | 1 | 0.50 (0.50-0.50) | 50 % |" \
    "| 1 host x 4, shm | 1 | 1 | 1.00 (1.00) |" \
    "| 4 hosts x 4, tcp | 1 | 0 | 2.67 (2.67) |" \
    "| shm | 0.53 |" \
    "| tcp | 1.06 |"; do
  grep -qF -- "$line" "$dir/out.md" || fail "no line: $line"
done
grep -q "node_aware | 0" "$dir/out.md" && fail "an unpriced algorithm counted"
grep -q "1 host x 8, shm | [0-9]* | [0-9]* |" "$dir/out.md" &&
  fail "a choice where one algorithm was priced"
mkdir -p "$dir/empty"
python3 "$script" "$dir/empty" >"$dir/out.md" 2>"$dir/err.txt" &&
  fail "a folder without prices was taken"
grep -q "no priced points" "$dir/err.txt" || fail "no message for no prices"
echo "PASS"
