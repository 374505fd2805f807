#!/usr/bin/env bash
# The report of tools/run.sh: reads the raw output of the life, jacobi and
# spmv runs (RESULTS/raw/*.txt, one line per variant on rank 0) and, when
# there,
# the neighbour benchmark's CSV (RESULTS/raw/neighbor.csv, written by
# experiments/combining_benchmark --csv) and writes
#   RESULTS/results.csv   one row per program, grid and variant: the median
#                         time, its fastest and slowest batch, the ratio to
#                         Open MPI and its range, the number of batches, and
#                         the transport, hosts, commit and date of the run;
#   RESULTS/table.txt     a verdict of one line per experiment (verdict.awk)
#                         and the load, then the same as a table, one block
#                         per program and grid,
#                         then the benchmark's time per call per operation and
#                         block size, each with its spread, and a line where a
#                         difference is within the noise (also printed);
#   RESULTS/jacobi_time.png, jacobi_ratio.png, life_time.png
#                         gnuplot plots against the grid order N, error bars
#                         from the fastest to the slowest batch;
#   RESULTS/neighbor_time.png
#                         the benchmark's time per call against the block
#                         size, one panel per operation, with the algorithm
#                         ortho-selected chose at each size;
#   RESULTS/life_board_N.png
#                         the life program's board, redrawn with a title;
#   the plots from the data files in RESULTS/plot/ (skipped, with a note,
#   when gnuplot is missing: tools/install_deps.sh --plots installs it).
#
#   tools/report.sh RESULTS PROCESSES TRANSPORT_TEXT ITERATIONS
#
# The ratio is the time per iteration over that of Open MPI's blocking
# variant (openmpi; cells-openmpi for Listing 7's cells) on the same program
# and grid. Lines of the serial reference runs (variant=serial) are skipped.
#
# The awk programs live in tools/report/, the plots in tools/report/plots.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ $# -ne 4 ]]; then
  echo "usage: tools/report.sh RESULTS PROCESSES TRANSPORT_TEXT ITERATIONS" >&2
  exit 2
fi
results="$1" np="$2" transport_text="$3" iterations="$4"
[[ -d "$results/raw" ]] || { echo "report.sh: no $results/raw" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# 1. The timed lines as tab-separated rows, sorted: life before jacobi,
#    Listing 7's cells before the blocked board, then by N, then as printed.
#    Fields: program family grid processes variant algorithm iterations
#    seconds messages bytes traffic result note seconds_min seconds_max
#    batches (the last three empty in output that has no spread).
shopt -s nullglob
raw_files=("$results"/raw/*.txt)
shopt -u nullglob
if [[ ${#raw_files[@]} -gt 0 ]]; then
  awk -v OFS='\t' -f tools/report/raw_rows.awk "${raw_files[@]}" |
    sort -t$'\t' -k1,1n -k2,2n -k3,3n -k4,4n | cut -f5- >"$work/rows.tsv"
else
  : >"$work/rows.tsv"
fi

# Where and when the run was, for every CSV row, so that merged results can
# be told apart: transport, hosts, commit and date (from run.txt when
# tools/run.sh wrote one).
transport_name=shm
[[ "$transport_text" == *TCP* ]] && transport_name=tcp
hosts=1
if [[ -n "${ORTHOCOMM_HOSTFILE:-}" && -r "$ORTHOCOMM_HOSTFILE" ]]; then
  hosts=$(grep -cvE '^[[:space:]]*(#|$)' "$ORTHOCOMM_HOSTFILE" || true)
fi
run_commit=$(sed -n 's/^commit: //p' "$results/run.txt" 2>/dev/null || true)
run_date=$(sed -n 's/^date: //p' "$results/run.txt" 2>/dev/null || true)
run_commit="${run_commit:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}"
run_date="${run_date:-$(date -u +%Y-%m-%dT%H:%MZ)}"
csv_header="program,grid,processes,variant,algorithm,iterations,us_per_iteration,ratio_to_openmpi,us_min,us_max,ratio_min,ratio_max,batches,messages,bytes,result,transport,hosts,commit,date"

# 2. The CSV and the table. The first pass finds each block's reference
#    time and its spread (min-max over the batches). A ratio's range is
#    every ratio of a batch of the variant to one of the reference:
#    min / reference max to max / reference min; where it contains 1 the
#    difference from the reference is within the noise (marked ~).
awk -F'\t' -v csv="$results/results.csv" -v np="$np" \
    -v transport="$transport_text" -v iterations="$iterations" \
    -v header="$csv_header" \
    -v where="$transport_name,$hosts,$run_commit,$run_date" \
    -f tools/report/table.awk "$work/rows.tsv" "$work/rows.tsv" >"$results/table.txt"
if [[ ! -s "$work/rows.tsv" ]]; then
  echo "$csv_header" >"$results/results.csv"
  echo "no timed results in $results/raw/*.txt" >"$results/table.txt"
fi

# 3. The neighbour benchmark's table, appended: per operation and stencil,
#    the median over repetitions (--benchmark_repetitions; one without) of
#    each variant's time per call, by block size, and under it the fastest
#    and slowest batch of all repetitions (min-max) and the range of each
#    ratio (~ where it contains 1: within the noise).
neighbor_csv="$results/raw/neighbor.csv"
neighbor_rows=0
if [[ -f "$neighbor_csv" ]]; then
  neighbor_rows=$(($(wc -l <"$neighbor_csv") - 1))
fi
if [[ $neighbor_rows -gt 0 ]]; then
  batches="$(sed -n 's/^combining_benchmark: .*, \([0-9]* iterations of [0-9]* calls\)$/\1/p' \
    "$results/raw/neighbor.txt" 2>/dev/null | sed 's/iterations/batches/' || true)"
  awk -F, -v transport="$transport_text" -v batches="$batches" \
    -f tools/report/median.awk -f tools/report/neighbor_table.awk \
    "$neighbor_csv" >>"$results/table.txt"
fi
# 4. The verdict opens the table: one line per experiment (ortho's selected
#    implementation against Open MPI's, how often beyond the noise, the
#    fastest), and the load the machine had (run.txt), which says whether
#    the noise can be trusted.
verdict_inputs=("$results/results.csv")
[[ $neighbor_rows -gt 0 ]] && verdict_inputs+=("$neighbor_csv")
{
  awk -F, -f tools/report/verdict.awk "${verdict_inputs[@]}"
  cores=$(nproc)
  # "load before: 1.20 0.80 0.50 (1, 5, 15 min)": the 1-minute average.
  load_before=$(sed -n 's/^load before: \([^ ]*\).*/\1/p' "$results/run.txt" 2>/dev/null || true)
  load_after=$(sed -n 's/^load after: \([^ ]*\).*/\1/p' "$results/run.txt" 2>/dev/null || true)
  if [[ -n "$load_before" ]]; then
    echo "  load (1 min): ${load_before} before, ${load_after:-?} after, on $cores cores"
    # The load before the job (tools/run.sh records it before the build) is
    # other work that competed with every measurement; the load after
    # includes the job's own processes.
    if awk -v a="$load_before" -v c="$cores" 'BEGIN { exit !(a > c / 2) }'; then
      echo "  the machine was too loaded to decide (other work at load $load_before):"
      echo "  differences within the noise say nothing; rerun on an idle machine"
    fi
  fi
  echo
  cat "$results/table.txt"
} >"$work/table.txt"
mv "$work/table.txt" "$results/table.txt"
cat "$results/table.txt"

# 5. The plots (tools/report/plots.sh).
bash tools/report/plots.sh "$results" "$np" "$transport_text" "$iterations" "$run_date"
