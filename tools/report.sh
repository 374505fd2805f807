#!/usr/bin/env bash
# The report of tools/run.sh: reads the raw output of the life and jacobi
# runs (RESULTS/raw/*.txt, one line per variant on rank 0) and, when there,
# the neighbour benchmark's CSV (RESULTS/raw/neighbor.csv, written by
# experiments/combining_benchmark --csv) and writes
#   RESULTS/results.csv   one row per program, grid and variant: the median
#                         time, its fastest and slowest batch, the ratio to
#                         Open MPI and its range, the number of batches, and
#                         the transport, hosts, commit and date of the run;
#   RESULTS/table.txt     the same as a table, one block per program and grid,
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
  awk -v OFS='\t' '
    $1 !~ /^(life|jacobi)$/ || $2 !~ /^variant=/ { next }
    {
      delete field
      rest = $0
      while (match(rest, /[A-Za-z_]+=("[^"]*"|[^ ]*)/)) {
        pair = substr(rest, RSTART, RLENGTH)
        rest = substr(rest, RSTART + RLENGTH)
        eq = index(pair, "=")
        value = substr(pair, eq + 1)
        gsub(/^"|"$/, "", value)
        field[substr(pair, 1, eq - 1)] = value
      }
      if (field["variant"] == "serial" || !("seconds_per_iteration" in field)) next
      family = field["variant"] ~ /^cells/ ? "cells" : "board"
      n = field["grid"]; sub(/x.*/, "", n)
      print ($1 == "life" ? 0 : 1), (family == "cells" ? 0 : 1), n + 0, NR,
            $1, family, field["grid"], field["processes"], field["variant"],
            field["algorithm"], field["iterations"], field["seconds_per_iteration"],
            field["messages"], field["bytes"], field["traffic"], field["result"],
            field["note"], field["seconds_min"], field["seconds_max"], field["batches"]
    }' "${raw_files[@]}" |
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
    -v where="$transport_name,$hosts,$run_commit,$run_date" '
  function block_of() { return $1 SUBSEP $2 SUBSEP $3 }
  function reference_of() { return $2 == "cells" ? "cells-openmpi" : "openmpi" }
  # "low-high", each with `digits` decimals; "-" when either is missing.
  function range(low, high, digits) {
    if (low == "" || high == "") return "-"
    return sprintf("%." digits "f-%." digits "f", low, high)
  }
  function flush_notes() {
    if (noisy != "") {
      # Wrapped at 80 columns.
      line = "  ~ within noise (the ratio range contains 1.00):"
      count = split(noisy, noisy_list, " ")
      for (i = 1; i <= count; ++i) {
        word = noisy_list[i] (i < count ? "," : "")
        if (length(line) + 1 + length(word) > 80) { print line; line = "     " }
        line = line " " word
      }
      print line
    }
    for (i = 1; i <= notes; ++i) print "  note: " note_text[i]
    notes = 0; noisy = ""
  }
  NR == FNR {
    if ($5 == reference_of()) {
      reference[block_of()] = $8
      reference_min[block_of()] = $14; reference_max[block_of()] = $15
    }
    b = block_of()
    if ($16 != "") {
      if (!(b in fewest) || $16 + 0 < fewest[b]) fewest[b] = $16 + 0
      if (!(b in most) || $16 + 0 > most[b]) most[b] = $16 + 0
    }
    next
  }
  FNR == 1 {
    print header >csv
    printf "orthocomm against Open MPI: %s processes, %s, %s iterations per run\n",
           np, transport, iterations
  }
  {
    b = block_of()
    us = $8 * 1e6
    us_min = $14 == "" ? "" : $14 * 1e6
    us_max = $15 == "" ? "" : $15 * 1e6
    ratio = ""; ratio_min = ""; ratio_max = ""
    if ((b in reference) && reference[b] > 0) {
      ratio = $8 / reference[b]
      if ($5 != reference_of() && $14 != "" && reference_min[b] > 0 &&
          reference_max[b] > 0) {
        ratio_min = $14 / reference_max[b]
        ratio_max = $15 / reference_min[b]
      }
    }
    printf "%s,%s,%s,%s,%s,%s,%.3f,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", $1, $3, $4, $5, $6, $7, us,
           ratio == "" ? "" : sprintf("%.4f", ratio),
           us_min == "" ? "" : sprintf("%.3f", us_min),
           us_max == "" ? "" : sprintf("%.3f", us_max),
           ratio_min == "" ? "" : sprintf("%.4f", ratio_min),
           ratio_max == "" ? "" : sprintf("%.4f", ratio_max),
           $16, $9, $10, $12, where >>csv
    if (b != current) {
      flush_notes()
      current = b
      reference_name = reference_of()
      if ($2 == "cells")
        title = sprintf("life, Listing 7 (one cell per process): %s cells", $3)
      else if ($1 == "life")
        title = sprintf("life, blocked board %s", $3)
      else
        title = sprintf("jacobi, 9-point stencil, %s matrix", $3)
      batches = ""
      if (b in fewest)
        batches = sprintf(", %s batch%s per implementation",
                          fewest[b] == most[b] ? fewest[b] : fewest[b] "-" most[b],
                          most[b] == 1 ? "" : "es")
      printf "\n%s, %s %s%s%s\n", title, $7, $1 == "life" ? "generation" : "iteration",
             $7 == 1 ? "" : "s", batches
      print "  implementation              algorithm    µs/iter       min-max    ratio    min-max  messages     bytes  traffic  result"
    }
    mark = " "
    if (ratio_min != "" && ratio_min <= 1 && ratio_max >= 1) {
      mark = "~"; noisy = noisy " " $5
    }
    printf "  %-27s %-10s %9.1f %13s %8s%s %9s %9s %9s  %-7s  %s\n", $5, $6, us,
           range(us_min, us_max, 1), ratio == "" ? "-" : sprintf("%.2f", ratio), mark,
           range(ratio_min, ratio_max, 2), $9, $10, $11, $12
    if ($13 != "") {
      note = $13
      gsub(/^\(|\)$/, "", note)
      note_text[++notes] = $5 ": " note
    }
  }
  END {
    flush_notes()
    if (NR > 0) {
      print ""
      print "µs/iter: the median over the batches (each implementation in rotated order"
      print "  after a barrier; a batch'"'"'s time is the maximum over processes); min-max:"
      print "  the fastest and the slowest batch."
      print "ratio: time per iteration / Open MPI'"'"'s (openmpi; for cells, cells-openmpi) on the"
      print "  same program and grid; below 1 is faster than Open MPI, above 1 slower. Its"
      print "  min-max: every ratio of a batch to one of Open MPI'"'"'s; ~ where that range"
      print "  contains 1.00 (the difference is within the noise)."
      print "messages, bytes: per process and iteration, the maximum over the processes."
      print "traffic: counted = ortho'"'"'s messages as sent; model = Open MPI'"'"'s, modelled as"
      print "  one message per neighbour (Open MPI does not report them)."
    }
  }' "$work/rows.tsv" "$work/rows.tsv" >"$results/table.txt"
if [[ ! -s "$work/rows.tsv" ]]; then
  echo "$csv_header" >"$results/results.csv"
  echo "no timed results in $results/raw/*.txt" >"$results/table.txt"
fi

# 3. The neighbour benchmark's table, appended: per operation and stencil,
#    the median over repetitions (--benchmark_repetitions; one without) of
#    each variant's time per call, by block size, and under it the fastest
#    and slowest batch of all repetitions (min-max) and the range of each
#    speedup (~ where it contains 1: within the noise).
neighbor_csv="$results/raw/neighbor.csv"
neighbor_rows=0
if [[ -f "$neighbor_csv" ]]; then
  neighbor_rows=$(($(wc -l <"$neighbor_csv") - 1))
fi
if [[ $neighbor_rows -gt 0 ]]; then
  batches="$(sed -n 's/^combining_benchmark: .*, \([0-9]* iterations of [0-9]* calls\)$/\1/p' \
    "$results/raw/neighbor.txt" 2>/dev/null | sed 's/iterations/batches/' || true)"
  awk -F, -v transport="$transport_text" -v batches="$batches" '
    # The median of the values in list (space-separated).
    function median(list,   count, value, i, j, swap) {
      count = split(list, value, " ")
      for (i = 2; i <= count; ++i)
        for (j = i; j > 1 && value[j - 1] + 0 > value[j] + 0; --j) {
          swap = value[j]; value[j] = value[j - 1]; value[j - 1] = swap
        }
      return count % 2 ? value[(count + 1) / 2] : (value[count / 2] + value[count / 2 + 1]) / 2
    }
    function cell(key) { return (key in time) ? sprintf("%.1f", median(time[key])) : "-" }
    # "low-high" with one decimal below 100, none from 100 on; "-" if unknown.
    function range(low, high,   digits) {
      if (low == "" || high == "") return "-"
      digits = high < 100 ? 1 : 0
      return sprintf("%." digits "f-%." digits "f", low, high)
    }
    function time_range(key) {
      return (key in low) ? range(low[key], high[key]) : "-"
    }
    # The speedup a / b as "median[~]" and its range (every ratio of a batch
    # of a to one of b); ~ when that range contains 1.
    function speedup(a, b) {
      speedup_text = "-"; speedup_range = "-"; speedup_noisy = 0
      if (!(a in time) || !(b in time) || median(time[b]) <= 0) return
      speedup_text = sprintf("%.2f", median(time[a]) / median(time[b]))
      if (!(a in low) || !(b in low) || low[b] <= 0 || high[b] <= 0) {
        speedup_text = speedup_text " "; return
      }
      lo = low[a] / high[b]; hi = high[a] / low[b]
      speedup_range = sprintf("%.2f-%.2f", lo, hi)
      speedup_noisy = lo <= 1 && hi >= 1
      speedup_text = speedup_text (speedup_noisy ? "~" : " ")
    }
    NR == 1 { for (i = 1; i <= NF; ++i) column[$i] = i; next }
    {
      op = $column["operation"]; stencil = $column["stencil"]
      block = $column["block_bytes"] + 0; variant = $column["variant"]
      if (!((op, stencil) in seen)) {
        seen[op, stencil] = 1; tables[++table_count] = op SUBSEP stencil
        dims[op, stencil] = $column["dims"]; processes = $column["processes"]
      }
      if (!((op, stencil, block) in has_block)) {
        has_block[op, stencil, block] = 1
        blocks[op, stencil] = blocks[op, stencil] " " block
      }
      key = op SUBSEP stencil SUBSEP block SUBSEP variant
      time[key] = time[key] " " $column["time_us"]
      # The spread, where the CSV has it: over every repetition.
      if (("time_min_us" in column) && $column["time_min_us"] != "") {
        if (!(key in low) || $column["time_min_us"] + 0 < low[key]) low[key] = $column["time_min_us"] + 0
        if (!(key in high) || $column["time_max_us"] + 0 > high[key]) high[key] = $column["time_max_us"] + 0
        batch_count[key] += $column["batches"]
        if (!((op, stencil) in fewest) || batch_count[key] < fewest[op, stencil]) fewest[op, stencil] = batch_count[key]
        if (batch_count[key] > most[op, stencil]) most[op, stencil] = batch_count[key]
      }
      if (variant == "ortho_selected") {
        algorithm[op, stencil, block] = $column["algorithm"]
        messages[op, stencil, block] = $column["messages"]
      }
    }
    END {
      printf "\nneighbour benchmark (experiments/combining_benchmark): %s processes, %s%s\n",
             processes, transport, batches == "" ? "" : ", " batches " per variant"
      split("openmpi openmpi_persistent ortho_direct ortho_combining ortho_selected ortho_selected_persistent",
            variant_list, " ")
      # alltoall first (the exchange stencil codes use most), then allgather,
      # allreduce, then others.
      for (t = 1; t <= table_count; ++t) {
        split(tables[t], part, SUBSEP)
        rank = part[1] == "alltoall" ? 1 : part[1] == "allgather" ? 2 : part[1] == "allreduce" ? 3 : 4
        ordered[rank] = ordered[rank] " " t
      }
      table_order = ordered[1] ordered[2] ordered[3] ordered[4]
      ordered_count = split(table_order, order, " ")
      for (o = 1; o <= ordered_count; ++o) {
        split(tables[order[o]], part, SUBSEP); op = part[1]; stencil = part[2]
        counted = ""
        if ((op, stencil) in fewest)
          counted = sprintf(", %s batches per variant",
                            fewest[op, stencil] == most[op, stencil] ? most[op, stencil] : fewest[op, stencil] "-" most[op, stencil])
        printf "\n%s, %s on a %s torus, µs per call%s\n", op, stencil, dims[op, stencil], counted
        print "    block B      openmpi    openmpi-p       direct    combining     selected   selected-p  algorithm  msgs    speedup  speedup-p"
        noisy = ""; noisy_p = ""
        count = split(blocks[op, stencil], block_list, " ")
        for (i = 2; i <= count; ++i)  # ascending block sizes
          for (j = i; j > 1 && block_list[j - 1] + 0 > block_list[j] + 0; --j) {
            swap = block_list[j]; block_list[j] = block_list[j - 1]; block_list[j - 1] = swap
          }
        for (b = 1; b <= count; ++b) {
          block = block_list[b]
          line = sprintf("  %9d", block)
          spread_line = sprintf("  %9s", "min-max")
          for (v = 1; v <= 6; ++v) {
            keys[v] = op SUBSEP stencil SUBSEP block SUBSEP variant_list[v]
            line = line sprintf(" %12s", cell(keys[v]))
            spread_line = spread_line sprintf(" %12s", time_range(keys[v]))
          }
          chosen = "-"; sent = "-"
          if ((op, stencil, block) in algorithm) {
            chosen = algorithm[op, stencil, block]; sent = messages[op, stencil, block]
          }
          line = line sprintf("  %-9s %5s", chosen, sent)
          spread_line = spread_line sprintf("  %-9s %5s", "", "")
          speedup(keys[1], keys[5])
          line = line sprintf(" %10s", speedup_text)
          spread_line = spread_line sprintf(" %10s", speedup_range)
          if (speedup_noisy) noisy = noisy (noisy == "" ? "" : ", ") block
          speedup(keys[2], keys[6])
          line = line sprintf(" %10s", speedup_text)
          spread_line = spread_line sprintf(" %10s", speedup_range)
          if (speedup_noisy) noisy_p = noisy_p (noisy_p == "" ? "" : ", ") block
          sub(/ +$/, "", line)
          print line
          if (spread_line ~ /[0-9]/) print spread_line
        }
        if (noisy != "") printf "  ~ within noise: speedup at %s B\n", noisy
        if (noisy_p != "") printf "  ~ within noise: speedup-p at %s B\n", noisy_p
      }
      print ""
      print "µs per call: the median over batches (each variant in rotated order after a"
      print "  barrier; a batch'"'"'s time is the maximum over processes); the line under it,"
      print "  min-max: the fastest and the slowest batch. openmpi, openmpi-p:"
      print "  MPI_Neighbor_<op> and MPIX_Neighbor_<op>_init; direct, combining: ortho with the"
      print "  algorithm forced; selected, selected-p: ortho'"'"'s choice, blocking and persistent"
      print "  (ortho_* in raw/neighbor.csv). algorithm, msgs: what ortho selected, and its"
      print "  messages per process per call. speedup: openmpi / selected; speedup-p:"
      print "  openmpi-p / selected-p (above 1: orthocomm is faster); under each, every"
      print "  ratio of a batch to a batch; ~ where that range contains 1.00 (the"
      print "  difference is within the noise)."
    }' "$neighbor_csv" >>"$results/table.txt"
fi
cat "$results/table.txt"

# 4. The plots, from the CSV: one data block per variant (gnuplot's index),
#    rows N, us_per_iteration, ratio_to_openmpi, us_min, us_max, ratio_min,
#    ratio_max (a median where the CSV has no spread); the error bars span
#    the fastest and the slowest batch.
if ! command -v gnuplot >/dev/null; then
  echo "report: gnuplot is not installed, no plots written" \
    "(bash tools/install_deps.sh --plots installs it)"
  exit 0
fi
mkdir -p "$results/plot"
# time_tics: passes its input through but for a line "times LOW HIGH" (the
# lowest and highest time), which becomes "timerange A:B", those times with
# a margin of a fifth, and "timetics T,T,...", tics at 1, 2, 3 and 5 times
# the powers of ten in that range, finer where that gives fewer than 4.
time_tics() {
  awk '
    $1 != "times" { print; next }
    {
      low = $2 / 1.2; high = $3 * 1.2
      printf "timerange %g:%g\n", low, high
      steps[1] = "1 2 3 5"
      steps[2] = "1 1.5 2 2.5 3 4 5 6 7 8 9"
      steps[3] = "1 1.1 1.2 1.3 1.4 1.5 1.6 1.8 2 2.2 2.4 2.6 2.8 3 3.5 4 4.5 5 5.5 6 7 8 9"
      for (s = 1; s <= 3; ++s) {
        tics = ""; count = 0
        mantissas = split(steps[s], mantissa, " ")
        for (p = int(log(low) / log(10)) - 1; p <= int(log(high) / log(10)) + 1; ++p)
          for (m = 1; m <= mantissas; ++m) {
            t = mantissa[m] * 10 ^ p
            if (t >= low && t <= high) { tics = tics (count++ ? "," : "") t }
          }
        if (count >= 4) break
      }
      print "timetics " tics
    }'
}
# plot_data PROGRAM VARIANT_REGEX EXCLUDED FILE: writes FILE (the variants
# that match VARIANT_REGEX, but not the one named EXCLUDED) and prints the
# variants, one a line, in the order of their blocks, then "sizes N,N,...".
plot_data() {
  awk -F, -v program="$1" -v pattern="$2" -v excluded="$3" -v out="$4" '
    NR > 1 && $1 == program && $4 ~ pattern && $4 != excluded {
      if (!($4 in seen)) { seen[$4] = ++variants; name[variants] = $4 }
      n = $2; sub(/x.*/, "", n)
      ratio = $8 == "" ? "NaN" : $8
      us_min = $9 == "" ? $7 : $9; us_max = $10 == "" ? $7 : $10
      row[$4] = row[$4] sprintf("%d %s %s %s %s %s %s\n", n, $7, ratio, us_min, us_max,
                                $11 == "" ? ratio : $11, $12 == "" ? ratio : $12)
      if (!(n in sizes)) { sizes[n] = 1; size_list = size_list (size_list == "" ? "" : ",") n }
      if (low_n == "" || n + 0 < low_n) low_n = n + 0
      if (n + 0 > high_n) high_n = n + 0
      if (us_min > 0 && (low_time == "" || us_min + 0 < low_time)) low_time = us_min + 0
      if (us_max + 0 > high_time) high_time = us_max + 0
    }
    END {
      printf "" >out
      for (i = 1; i <= variants; ++i) {
        printf "# %s\n%s\n\n", name[i], row[name[i]] >>out
        print name[i]
      }
      print "sizes " size_list
      # A margin of a fifth either side on the log scale.
      if (variants > 0) printf "xrange %g:%g\n", low_n / 1.2, high_n * 1.2
      if (low_time > 0) printf "times %g %g\n", low_time, high_time
    }' "$results/results.csv" | time_tics
}
terminal="pngcairo noenhanced font 'Sans,10' size 960,600"
micro="µs"
if ! gnuplot -e 'set terminal pngcairo' >/dev/null 2>&1; then
  terminal="png noenhanced size 960,600"
  micro="us"
fi
# plot_command FILE USING VARIANT...: the plot list, one colour per
# implementation; persistent variants dashed with open points. USING names
# x, y, low and high (error bars); each variant's x is shifted by a few
# per cent so that the bars of one size stand side by side.
plot_command() {
  local file="$1" using="$2"; shift 2
  local index=0 parts=() variant base colour point dash shift x rest
  # The same colour for an implementation in every plot.
  declare -A colours=([openmpi]=1 [ortho-direct]=2 [ortho-combining]=3
                      [ortho-selected]=4 [ortho-per-peer]=5)
  local next_colour=6
  for variant in "$@"; do
    base="${variant%-persistent}"
    [[ -n "${colours[$base]:-}" ]] || colours[$base]=$((next_colour++))
    colour="${colours[$base]}" point=7 dash=1
    [[ "$variant" == *-persistent ]] && point=6 dash=2
    shift=$(awk -v i="$index" -v n="$#" 'BEGIN { printf "%.4f", 2 ^ ((i - (n - 1) / 2) * 0.025) }')
    x="${using%%:*}" rest="${using#*:}"
    parts+=("'$file' index $index using (\$$x*$shift):$rest with yerrorlines lc $colour dt $dash pt $point ps 1.2 lw 2 title '$variant'")
    index=$((index + 1))
  done
  local IFS=,
  echo "${parts[*]}"
}
# plot TITLE YLABEL OUTPUT LOG_Y EXTRA_SETTINGS EXTRA_PLOT DATA USING LISTING
# (LISTING: plot_data's output).
plot() {
  local title="$1" ylabel="$2" output="$3" logy="$4" extra="$5" extra_plot="$6"
  local file="$7" using="$8" listing="$9"
  local sizes xrange timerange timetics variants=()
  sizes="$(sed -n 's/^sizes //p' <<<"$listing")"
  xrange="$(sed -n 's/^xrange //p' <<<"$listing")"
  timetics="$(sed -n 's/^timetics //p' <<<"$listing")"
  timerange="$(sed -n 's/^timerange //p' <<<"$listing")"
  mapfile -t variants < <(grep -Ev '^(sizes|xrange|timerange|timetics) ' <<<"$listing" || true)
  if [[ ${#variants[@]} -eq 0 ]]; then
    echo "report: no data for $output, not plotted"
    return
  fi
  local script="$results/plot/${output%.png}.gp"
  cat >"$script" <<GNUPLOT
set terminal $terminal
set output '$results/$output'
set title "$title"
set xlabel "grid order N (N x N points)"
set ylabel "$ylabel"
set logscale x 2
$([[ "$logy" == yes ]] && echo "set logscale y")
$([[ "$logy" == yes && -n "$timerange" ]] && echo "set yrange [$timerange]")
$([[ "$logy" == yes && -n "$timetics" ]] && echo "set ytics ($timetics)")
set xrange [$xrange]
set xtics ($sizes)
set grid xtics ytics mytics
set key outside right top box
set datafile missing "NaN"
$extra
plot $(plot_command "$file" "$using" "${variants[@]}")$extra_plot
GNUPLOT
  if gnuplot "$script" 2>"$results/plot/gnuplot.err"; then
    echo "report: wrote $results/$output"
    rm -f "$results/plot/gnuplot.err"
  else
    echo "report: gnuplot failed on $script (see $results/plot/gnuplot.err)"
  fi
}
subtitle="$np processes, $transport_text, $run_date; bars: fastest to slowest batch"
plot "9-point Jacobi: time per iteration\\n$subtitle" \
  "time per iteration ($micro, log scale)" jacobi_time.png yes "" "" \
  "$results/plot/jacobi_time.dat" 1:2:4:5 \
  "$(plot_data jacobi . "" "$results/plot/jacobi_time.dat")"
# Open MPI's blocking variant is the reference, the line at 1.
plot "9-point Jacobi: time relative to Open MPI\\n$subtitle" \
  "time / Open MPI's time (below 1: faster)" jacobi_ratio.png no \
  "set yrange [0:*]" \
  ", 1 with lines lc rgb 'black' dt 3 lw 2 title 'openmpi (reference, 1)'" \
  "$results/plot/jacobi_ratio.dat" 1:3:6:7 \
  "$(plot_data jacobi . openmpi "$results/plot/jacobi_ratio.dat")"
plot "Game of Life, blocked board: time per generation\\n$subtitle" \
  "time per generation ($micro, log scale)" life_time.png yes "" "" \
  "$results/plot/life_time.dat" 1:2:4:5 \
  "$(plot_data life '^[^c]' "" "$results/plot/life_time.dat")"

# The boards the life program wrote (life_board_N.png, the first
# implementation's final board, one pixel square per cell), redrawn with a
# title; the untitled image moves to RESULTS/plot/.
shopt -s nullglob
for board in "$results"/life_board_*.png; do
  n="${board##*/life_board_}"; n="${n%.png}"
  generations="$(grep -m1 -o 'variant=[^s][^ ]* .* iterations=[0-9]*' \
    "$results/raw/life_$n.txt" 2>/dev/null | sed 's/.*iterations=//' || true)"
  untitled="$results/plot/life_board_${n}_cells.png"
  # Already moved when the report is written again.
  [[ -f "$untitled" ]] || mv "$board" "$untitled"
  if gnuplot 2>"$results/plot/gnuplot.err" <<GNUPLOT; then
set terminal ${terminal/size 960,600/size 640,700}
set output '$board'
set title "Game of Life: the ${n} x ${n} board after ${generations:-$iterations} generations\\n$np processes, $transport_text, $run_date"
unset tics
unset key
set size ratio -1
plot '$untitled' binary filetype=png with rgbimage
GNUPLOT
    echo "report: wrote $board"
    rm -f "$results/plot/gnuplot.err"
  else
    cp "$untitled" "$board"
    echo "report: could not title $board (see $results/plot/gnuplot.err)"
  fi
done
shopt -u nullglob

# The neighbour benchmark: time per call against the block size, log-log,
# one panel per operation (alltoall, allgather, allreduce, as measured) on a
# common time axis, for the first stencil in the CSV; the variants named as
# in the other plots (ortho_selected -> ortho-selected), in the same colours.
if [[ $neighbor_rows -le 0 ]]; then
  echo "report: no neighbour benchmark results ($neighbor_csv), neighbor_time.png not plotted"
  exit 0
fi
# One data file per operation, RESULTS/plot/neighbor_OP.dat (a block per
# variant: block bytes, µs per call, fastest and slowest batch), and
# RESULTS/plot/neighbor_OP_selected.dat (block bytes, ortho-selected'"'"'s µs
# per call, the algorithm it chose: the labels); prints "stencil NAME DIMS",
# then per panel "panel OP FILE VARIANT...", then "blocks B,B,...",
# "xrange A:B", "timerange A:B" and "timetics T,T,...".
neighbor_listing="$(awk -F, -v dir="$results/plot" '
  function median(list,   count, value, i, j, swap) {
    count = split(list, value, " ")
    for (i = 2; i <= count; ++i)
      for (j = i; j > 1 && value[j - 1] + 0 > value[j] + 0; --j) {
        swap = value[j]; value[j] = value[j - 1]; value[j - 1] = swap
      }
    return count % 2 ? value[(count + 1) / 2] : (value[count / 2] + value[count / 2 + 1]) / 2
  }
  NR == 1 { for (i = 1; i <= NF; ++i) column[$i] = i; next }
  stencil == "" { stencil = $column["stencil"]; dims = $column["dims"] }
  $column["stencil"] != stencil { next }
  {
    op = $column["operation"]; block = $column["block_bytes"] + 0
    variant = $column["variant"]; gsub(/_/, "-", variant)
    if (!(op in has_op)) { has_op[op] = 1; ops[++op_count] = op }
    if (!((op, variant) in has_variant)) {
      has_variant[op, variant] = 1; variants[op] = variants[op] " " variant
    }
    if (!(block in has_block)) { has_block[block] = 1; block_list[++block_count] = block }
    key = op SUBSEP variant SUBSEP block
    time[key] = time[key] " " $column["time_us"]
    us_min = ("time_min_us" in column) ? $column["time_min_us"] : ""
    us_max = ("time_max_us" in column) ? $column["time_max_us"] : ""
    if (us_min == "") us_min = us_max = $column["time_us"]
    if (!(key in low) || us_min + 0 < low[key]) low[key] = us_min + 0
    if (!(key in high) || us_max + 0 > high[key]) high[key] = us_max + 0
    if (variant == "ortho-selected") chosen[op, block] = $column["algorithm"]
    if (variant == "ortho-selected-persistent") chosen_p[op, block] = $column["algorithm"]
  }
  END {
    print "stencil " stencil " " dims
    for (i = 2; i <= block_count; ++i)
      for (j = i; j > 1 && block_list[j - 1] > block_list[j]; --j) {
        swap = block_list[j]; block_list[j] = block_list[j - 1]; block_list[j - 1] = swap
      }
    # alltoall first (the exchange stencil codes use most), then allgather
    # and allreduce, then others.
    order_count = split("alltoall allgather allreduce", order, " ")
    for (i = 1; i <= op_count; ++i)
      if (ops[i] != "alltoall" && ops[i] != "allgather" && ops[i] != "allreduce")
        order[++order_count] = ops[i]
    for (o = 1; o <= order_count; ++o) {
      op = order[o]
      if (!(op in has_op)) continue
      file = dir "/neighbor_" op ".dat"
      labels = dir "/neighbor_" op "_selected.dat"
      printf "" >file
      printf "" >labels
      line = "panel " op " " file
      variant_count = split(variants[op], variant_name, " ")
      for (v = 1; v <= variant_count; ++v) {
        printf "# %s\n", variant_name[v] >>file
        for (b = 1; b <= block_count; ++b) {
          key = op SUBSEP variant_name[v] SUBSEP block_list[b]
          if (!(key in time)) continue
          us = median(time[key])
          printf "%d %s %s %s\n", block_list[b], us, low[key], high[key] >>file
          if (variant_name[v] == "ortho-selected" && ((op, block_list[b]) in chosen)) {
            # The persistent selection too, where it differs.
            label = chosen[op, block_list[b]]
            if (((op, block_list[b]) in chosen_p) && chosen_p[op, block_list[b]] != label)
              label = "\"" label ", p: " chosen_p[op, block_list[b]] "\""
            printf "%d %s %s\n", block_list[b], us, label >>labels
          }
          if (lowest == "" || low[key] < lowest) lowest = low[key]
          if (high[key] > highest) highest = high[key]
        }
        printf "\n\n" >>file
        line = line " " variant_name[v]
      }
      close(file)
      close(labels)
      print line
    }
    blocks = ""
    for (b = 1; b <= block_count; ++b) blocks = blocks (b > 1 ? "," : "") block_list[b]
    print "blocks " blocks
    # A factor of two either side on the log scale.
    printf "xrange %g:%g\n", block_list[1] / 2, block_list[block_count] * 2
    if (lowest > 0) printf "times %g %g\n", lowest, highest
  }' "$neighbor_csv" | time_tics)"
read -r _ stencil dims < <(grep '^stencil ' <<<"$neighbor_listing")
stencil_text="$stencil"
if [[ "$stencil" =~ ^(moore|von_neumann)_([0-9])d_d([0-9]+)$ ]]; then
  stencil_text="${BASH_REMATCH[2]}-d ${BASH_REMATCH[1]^} stencil of depth ${BASH_REMATCH[3]}"
  stencil_text="${stencil_text/Von_neumann/von Neumann}"
fi
mapfile -t panels < <(sed -n 's/^panel //p' <<<"$neighbor_listing")
blocks="$(sed -n 's/^blocks //p' <<<"$neighbor_listing")"
xrange="$(sed -n 's/^xrange //p' <<<"$neighbor_listing")"
timerange="$(sed -n 's/^timerange //p' <<<"$neighbor_listing")"
timetics="$(sed -n 's/^timetics //p' <<<"$neighbor_listing")"
neighbor_processes="$(awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) if ($i == "processes") c = i; next }
                               { print $c; exit }' "$neighbor_csv")"
script="$results/plot/neighbor_time.gp"
{
  # Panels side by side, 720 x 600 each.
  echo "set terminal ${terminal/size 960,600/size $((720 * ${#panels[@]})),600}"
  echo "set output '$results/neighbor_time.png'"
  # \n: gnuplot's line break in the title.
  printf '%s\n' "set multiplot layout 1,${#panels[@]} title \"Neighbour benchmark (combining_benchmark): time per call, $stencil_text on a $dims torus\\n$neighbor_processes processes, $transport_text, $run_date; bars: fastest to slowest batch\" font ',12'"
  echo "set xlabel \"block size per neighbour (bytes, log scale)\""
  echo "set ylabel \"time per call ($micro, log scale)\""
  echo "set logscale xy"
  echo "set xrange [$xrange]"
  echo "set xtics ($blocks)"
  # The time axis reaches a band below the lowest bar, where the labels of
  # the selected algorithm go.
  if [[ -n "$timerange" ]]; then
    echo "set yrange [${timerange%%:*} / 1.6:${timerange#*:}]"
    echo "label_y = ${timerange%%:*} / 1.3"
  else
    echo "label_y = 1"
  fi
  if [[ -n "$timetics" ]]; then echo "set ytics ($timetics)"; fi
  echo "set grid xtics ytics mytics"
  echo "set key top left box opaque"
  for panel in "${panels[@]}"; do
    read -r op file variants <<<"$panel"
    read -r -a variant_list <<<"$variants"
    echo "set title \"$op (at the bottom: selected's algorithm; p: persistent's where it differs)\""
    # Along the bottom, under each block size, the algorithm ortho-selected
    # chose there.
    echo "plot $(plot_command "$file" 1:2:3:4 "${variant_list[@]}"),'${file%.dat}_selected.dat' using 1:(label_y):3 with labels font ',9' tc lt 4 notitle"
  done
  echo "unset multiplot"
} >"$script"
if [[ ${#panels[@]} -eq 0 ]]; then
  echo "report: no data for neighbor_time.png, not plotted"
elif gnuplot "$script" 2>"$results/plot/gnuplot.err"; then
  echo "report: wrote $results/neighbor_time.png"
  rm -f "$results/plot/gnuplot.err"
else
  echo "report: gnuplot failed on $script (see $results/plot/gnuplot.err)"
fi
