#!/usr/bin/env bash
# One convention for ratios in the benchmarks' output, their CSVs, the
# tables and the plots: ratio = our time / the reference's time (below 1 is
# faster; over a floor, 1 is no overhead), never a speedup (the reference's
# time over ours). Fails where
#   - a program under experiments/ emits a counter in the old speedup form,
#     a name ending in _x (or _x_min, _x_max);
#   - the word "speedup" appears in experiments/, tools/ (this script
#     aside) or docs/experiments.md;
#   - the neighbour plot (tools/report/neighbor_plot_data.awk) and the
#     neighbour table (tools/report/neighbor_table.awk) show different
#     series: both run on a made-up CSV that holds every variant
#     combining_benchmark writes, the hand-posted floors included, and each
#     panel's series (their legend names) must be the table's columns, in
#     the same order.
set -euo pipefail
cd "$(dirname "$0")/../.."

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failed=0
fail() { echo "ratio_convention: $*" >&2; failed=1; }

# 1. Counters named <name>_x: a string literal ending so, or a name built
#    with "_x" appended.
if grep -rnE --include='*.cc' --include='*.h' \
    '"[A-Za-z0-9_]*_x(_min|_max)?"' experiments >"$work/x_counters"; then
  fail "counters in the speedup form (<name>_x; use <name>_ratio, our time over the reference's):"
  sed 's/^/  /' "$work/x_counters" >&2
fi

# 2. The word "speedup", in any case.
if grep -rniI speedup experiments tools docs/experiments.md |
    grep -v '^tools/checks/ratio_convention\.sh:' >"$work/speedups"; then
  fail "\"speedup\" (write a ratio, our time over the reference's: below 1 is faster):"
  sed 's/^/  /' "$work/speedups" >&2
fi

# 3. The neighbour plot's series are the neighbour table's.
csv="$work/neighbor.csv"
{
  echo "operation,stencil,dims,processes,btl,block_bytes,repetition,variant,algorithm,time_us,ratio_to_openmpi,messages,bytes,rounds,time_min_us,time_max_us,batches"
  for op in alltoall allgather; do
    for variant in openmpi openmpi_persistent raw raw_persistent ortho_direct \
        ortho_combining raw_combining raw_combining_persistent ortho_selected \
        ortho_selected_persistent; do
      for block in 4 400; do
        echo "$op,moore_2d_d1,2x2,4,self+vader,$block,0,$variant,direct,10,1,8,32,1,9,11,6"
      done
    done
  done
} >"$csv"
awk -F, -v dir="$work" -f tools/report/median.awk \
  -f tools/report/neighbor_plot_data.awk "$csv" >"$work/plot_listing"
awk -F, -v transport=test -v batches= -f tools/report/median.awk \
  -f tools/report/neighbor_table.awk "$csv" >"$work/table"
# The table's series: the columns between "block B" and "algorithm".
table_series="$(awk '/^    block B / {
                       line = ""
                       for (i = 3; i <= NF && $i != "algorithm"; ++i) line = line " " $i
                       print substr(line, 2)
                     }' "$work/table" | sort -u)"
[[ -n "$table_series" ]] || fail "neighbor_table.awk printed no table header"
[[ $(wc -l <<<"$table_series") -eq 1 ]] ||
  fail "neighbor_table.awk's tables differ in their columns: $table_series"
panels=0
while read -r _ op _ items; do
  panels=$((panels + 1))
  plot_series=""
  for item in $items; do
    [[ "$item" == *=* ]] || fail "neighbour plot: series $item has no name (VARIANT=NAME)"
    plot_series="$plot_series ${item#*=}"
  done
  plot_series="${plot_series# }"
  [[ "$plot_series" == "$table_series" ]] ||
    fail "neighbour plot ($op) shows '$plot_series', the table '$table_series'"
done < <(grep '^panel ' "$work/plot_listing")
[[ $panels -eq 2 ]] || fail "neighbor_plot_data.awk made $panels panels, not 2"

if [[ $failed -ne 0 ]]; then exit 1; fi
echo "ratio_convention: ratios only (our time over the reference's); the neighbour plot shows the table's series ($table_series)"
