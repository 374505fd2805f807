#!/usr/bin/env bash
# The report of tools/run.sh: reads the raw output of the life and jacobi
# runs (RESULTS/raw/*.txt, one line per variant on rank 0) and writes
#   RESULTS/results.csv   one row per program, grid and variant;
#   RESULTS/table.txt     the same as a table, one block per program and grid
#                         (also printed);
#   RESULTS/jacobi_time.png, jacobi_ratio.png, life_time.png
#                         gnuplot plots against the grid order N, from the
#                         data files in RESULTS/plot/ (skipped, with a note,
#                         when gnuplot is missing: tools/install_deps.sh
#                         --plots installs it).
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
#    seconds messages bytes traffic result note.
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
            field["note"]
    }' "${raw_files[@]}" |
    sort -t$'\t' -k1,1n -k2,2n -k3,3n -k4,4n | cut -f5- >"$work/rows.tsv"
else
  : >"$work/rows.tsv"
fi

# 2. The CSV and the table. The first pass finds each block's reference time.
awk -F'\t' -v csv="$results/results.csv" -v np="$np" \
    -v transport="$transport_text" -v iterations="$iterations" '
  function block_of() { return $1 SUBSEP $2 SUBSEP $3 }
  function reference_of() { return $2 == "cells" ? "cells-openmpi" : "openmpi" }
  function flush_notes() {
    for (i = 1; i <= notes; ++i) print "  note: " note_text[i]
    notes = 0
  }
  NR == FNR {
    if ($5 == reference_of()) reference[block_of()] = $8
    next
  }
  FNR == 1 {
    print "program,grid,processes,variant,algorithm,iterations,us_per_iteration," \
          "ratio_to_openmpi,messages,bytes,result" >csv
    printf "orthocomm against Open MPI: %s processes, %s, %s iterations per run\n",
           np, transport, iterations
  }
  {
    us = $8 * 1e6
    ratio = ""
    if ((block_of() in reference) && reference[block_of()] > 0)
      ratio = $8 / reference[block_of()]
    printf "%s,%s,%s,%s,%s,%s,%.3f,%s,%s,%s,%s\n", $1, $3, $4, $5, $6, $7, us,
           ratio == "" ? "" : sprintf("%.4f", ratio), $9, $10, $12 >>csv
    if (block_of() != current) {
      flush_notes()
      current = block_of()
      if ($2 == "cells")
        title = sprintf("life, Listing 7 (one cell per process): %s cells", $3)
      else if ($1 == "life")
        title = sprintf("life, blocked board %s", $3)
      else
        title = sprintf("jacobi, 9-point stencil, %s matrix", $3)
      printf "\n%s, %s %s%s\n", title, $7, $1 == "life" ? "generation" : "iteration",
             $7 == 1 ? "" : "s"
      print "  implementation              algorithm    µs/iter    ratio  messages     bytes  traffic  result"
    }
    printf "  %-27s %-10s %9.1f %8s %9s %9s  %-7s  %s\n", $5, $6, us,
           ratio == "" ? "-" : sprintf("%.2f", ratio), $9, $10, $11, $12
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
      print "ratio: time per iteration / Open MPI'"'"'s (openmpi; for cells, cells-openmpi) on the"
      print "  same program and grid; below 1 is faster than Open MPI, above 1 slower."
      print "messages, bytes: per process and iteration, the maximum over the processes."
      print "traffic: counted = ortho'"'"'s messages as sent; model = Open MPI'"'"'s, modelled as"
      print "  one message per neighbour (Open MPI does not report them)."
    }
  }' "$work/rows.tsv" "$work/rows.tsv" >"$results/table.txt"
if [[ ! -s "$work/rows.tsv" ]]; then
  echo "program,grid,processes,variant,algorithm,iterations,us_per_iteration,ratio_to_openmpi,messages,bytes,result" \
    >"$results/results.csv"
  echo "no timed results in $results/raw/*.txt" >"$results/table.txt"
fi
cat "$results/table.txt"

# 3. The plots, from the CSV: one data block per variant (gnuplot's index),
#    rows N, us_per_iteration, ratio_to_openmpi.
if ! command -v gnuplot >/dev/null; then
  echo "report: gnuplot is not installed, no plots written" \
    "(bash tools/install_deps.sh --plots installs it)"
  exit 0
fi
mkdir -p "$results/plot"
# plot_data PROGRAM VARIANT_REGEX EXCLUDED FILE: writes FILE (the variants
# that match VARIANT_REGEX, but not the one named EXCLUDED) and prints the
# variants, one a line, in the order of their blocks, then "sizes N,N,...".
plot_data() {
  awk -F, -v program="$1" -v pattern="$2" -v excluded="$3" -v out="$4" '
    NR > 1 && $1 == program && $4 ~ pattern && $4 != excluded {
      if (!($4 in seen)) { seen[$4] = ++variants; name[variants] = $4 }
      n = $2; sub(/x.*/, "", n)
      row[$4] = row[$4] sprintf("%d %s %s\n", n, $7, $8 == "" ? "NaN" : $8)
      if (!(n in sizes)) { sizes[n] = 1; size_list = size_list (size_list == "" ? "" : ",") n }
      if (low_n == "" || n + 0 < low_n) low_n = n + 0
      if (n + 0 > high_n) high_n = n + 0
      if ($7 > 0 && (low_time == "" || $7 + 0 < low_time)) low_time = $7 + 0
      if ($7 + 0 > high_time) high_time = $7 + 0
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
      # The times with a margin of a fifth; tics at 1, 2, 3 and 5 times the
      # powers of ten in that range, finer where that gives fewer than 4.
      tics = ""
      if (low_time > 0) {
        low = low_time / 1.2; high = high_time * 1.2
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
      }
      print "timetics " tics
    }' "$results/results.csv"
}
terminal="pngcairo noenhanced font 'Sans,10' size 960,600"
micro="µs"
if ! gnuplot -e 'set terminal pngcairo' >/dev/null 2>&1; then
  terminal="png noenhanced size 960,600"
  micro="us"
fi
# plot_command FILE USING VARIANT...: the plot list, one colour per
# implementation; persistent variants dashed with open points.
plot_command() {
  local file="$1" using="$2"; shift 2
  local index=0 parts=() variant base colour point dash
  # The same colour for an implementation in every plot.
  declare -A colours=([openmpi]=1 [ortho-direct]=2 [ortho-combining]=3
                      [ortho-selected]=4 [ortho-per-peer]=5)
  local next_colour=6
  for variant in "$@"; do
    base="${variant%-persistent}"
    [[ -n "${colours[$base]:-}" ]] || colours[$base]=$((next_colour++))
    colour="${colours[$base]}" point=7 dash=1
    [[ "$variant" == *-persistent ]] && point=6 dash=2
    parts+=("'$file' index $index using $using with linespoints lc $colour dt $dash pt $point ps 1.2 lw 2 title '$variant'")
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
subtitle="$np processes, $transport_text"
plot "9-point Jacobi: time per iteration\\n$subtitle" \
  "time per iteration ($micro, log scale)" jacobi_time.png yes "" "" \
  "$results/plot/jacobi_time.dat" 1:2 \
  "$(plot_data jacobi . "" "$results/plot/jacobi_time.dat")"
# Open MPI's blocking variant is the reference, the line at 1.
plot "9-point Jacobi: time relative to Open MPI\\n$subtitle" \
  "time / Open MPI's time (below 1: faster)" jacobi_ratio.png no \
  "set yrange [0:*]" \
  ", 1 with lines lc rgb 'black' dt 3 lw 2 title 'openmpi (reference, 1)'" \
  "$results/plot/jacobi_ratio.dat" 1:3 \
  "$(plot_data jacobi . openmpi "$results/plot/jacobi_ratio.dat")"
plot "Game of Life, blocked board: time per generation\\n$subtitle" \
  "time per generation ($micro, log scale)" life_time.png yes "" "" \
  "$results/plot/life_time.dat" 1:2 \
  "$(plot_data life '^[^c]' "" "$results/plot/life_time.dat")"
