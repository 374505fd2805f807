#!/usr/bin/env bash
# The plots of tools/report.sh (its step 4), from RESULTS/results.csv and
# RESULTS/raw/neighbor.csv: jacobi_time.png, jacobi_ratio.png, life_time.png,
# the life boards redrawn with a title, and neighbor_time.png, with their
# gnuplot scripts and data under RESULTS/plot/. Skipped, with a note, when
# gnuplot is missing.
#   tools/report/plots.sh RESULTS PROCESSES TRANSPORT_TEXT ITERATIONS RUN_DATE
set -euo pipefail
cd "$(dirname "$0")/../.."

if [[ $# -ne 5 ]]; then
  echo "usage: tools/report/plots.sh RESULTS PROCESSES TRANSPORT_TEXT ITERATIONS RUN_DATE" >&2
  exit 2
fi
results="$1" np="$2" transport_text="$3" iterations="$4" run_date="$5"
neighbor_csv="$results/raw/neighbor.csv"

# 4. The plots, from the CSV: one data block per variant (gnuplot's index),
#    rows N, us_per_iteration, ratio_to_openmpi, us_min, us_max, ratio_min,
#    ratio_max (a median where the CSV has no spread); the error bars span
#    the fastest and the slowest batch. A ratio is a time over Open MPI's
#    (below 1 is faster), on a logarithmic axis centred on 1.
if ! command -v gnuplot >/dev/null; then
  echo "report: gnuplot is not installed, no plots written" \
    "(bash tools/install_deps.sh --plots installs it)"
  exit 0
fi
mkdir -p "$results/plot"
# time_tics: the time axis's "timerange A:B" and "timetics T,T,..." in
# place of a line "times LOW HIGH" (time_tics.awk), and the ratio axis's
# "ratiorange A:B" and "ratiotics T,T,..." in place of "ratios LOW HIGH"
# (ratio_tics.awk).
time_tics() {
  awk -f tools/report/time_tics.awk | awk -f tools/report/ratio_tics.awk
}
# plot_data PROGRAM VARIANT_REGEX EXCLUDED FILE: writes FILE (the variants
# that match VARIANT_REGEX, but not the one named EXCLUDED) and prints the
# variants, one a line, in the order of their blocks, then "sizes N,N,...",
# "xrange A:B", "timerange A:B", "timetics T,T,...", "ratiorange A:B" and
# "ratiotics T,T,...".
plot_data() {
  awk -F, -v program="$1" -v pattern="$2" -v excluded="$3" -v out="$4" \
    -f tools/report/plot_data.awk "$results/results.csv" | time_tics
}
terminal="pngcairo noenhanced font 'Sans,10' size 960,600"
micro="µs"
if ! gnuplot -e 'set terminal pngcairo' >/dev/null 2>&1; then
  terminal="png noenhanced size 960,600"
  micro="us"
fi
# plot_command FILE USING VARIANT[=TITLE]...: the plot list, one colour per
# implementation; persistent variants dashed with open points; each titled
# TITLE, or its name. USING names x, y, low and high (error bars); each
# variant's x is shifted by a few per cent so that the bars of one size
# stand side by side.
plot_command() {
  local file="$1" using="$2"; shift 2
  local index=0 parts=() item variant title base colour point dash shift x rest
  # The same colour for an implementation in every plot.
  declare -A colours=([openmpi]=1 [ortho-direct]=2 [ortho-combining]=3
                      [ortho-selected]=4 [ortho-per-peer]=5)
  local next_colour=6
  for item in "$@"; do
    variant="${item%%=*}" title="${item#*=}"
    base="${variant%-persistent}"
    [[ -n "${colours[$base]:-}" ]] || colours[$base]=$((next_colour++))
    colour="${colours[$base]}" point=7 dash=1
    [[ "$variant" == *-persistent ]] && point=6 dash=2
    shift=$(awk -v i="$index" -v n="$#" 'BEGIN { printf "%.4f", 2 ^ ((i - (n - 1) / 2) * 0.025) }')
    x="${using%%:*}" rest="${using#*:}"
    parts+=("'$file' index $index using (\$$x*$shift):$rest with yerrorlines lc $colour dt $dash pt $point ps 1.2 lw 2 title '$title'")
    index=$((index + 1))
  done
  local IFS=,
  echo "${parts[*]}"
}
# plot TITLE YLABEL OUTPUT Y_AXIS EXTRA_SETTINGS EXTRA_PLOT DATA USING
# LISTING (LISTING: plot_data's output; Y_AXIS: time, a logarithmic time
# axis, or ratio, a logarithmic ratio axis centred on 1).
plot() {
  local title="$1" ylabel="$2" output="$3" axis="$4" extra="$5" extra_plot="$6"
  local file="$7" using="$8" listing="$9"
  local sizes xrange range tics variants=()
  sizes="$(sed -n 's/^sizes //p' <<<"$listing")"
  xrange="$(sed -n 's/^xrange //p' <<<"$listing")"
  range="$(sed -n "s/^${axis}range //p" <<<"$listing")"
  tics="$(sed -n "s/^${axis}tics //p" <<<"$listing")"
  if [[ "$axis" == ratio && -z "$range" ]]; then  # no ratio at all
    range="0.5:2" tics='"0.5" 0.5,"1" 1,"2" 2'
  fi
  mapfile -t variants < <(grep -Ev '^(sizes|xrange|timerange|timetics|ratiorange|ratiotics) ' <<<"$listing" || true)
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
set logscale y
$([[ -n "$range" ]] && echo "set yrange [$range]")
$([[ -n "$tics" ]] && echo "set ytics ($tics)")
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
  "time per iteration ($micro, log scale)" jacobi_time.png time "" "" \
  "$results/plot/jacobi_time.dat" 1:2:4:5 \
  "$(plot_data jacobi . "" "$results/plot/jacobi_time.dat")"
# Open MPI's blocking variant is the reference, the line at 1, in the
# middle of a logarithmic axis: 0.5 (twice as fast) as far below it as 2
# (twice as slow) above.
plot "9-point Jacobi: time relative to Open MPI\\n$subtitle" \
  "ratio: time / Open MPI's time (log scale; below 1: faster)" \
  jacobi_ratio.png ratio "" \
  ", 1 with lines lc rgb 'black' dt 3 lw 2 title 'openmpi (reference, 1)'" \
  "$results/plot/jacobi_ratio.dat" 1:3:6:7 \
  "$(plot_data jacobi . openmpi "$results/plot/jacobi_ratio.dat")"
plot "Game of Life, blocked board: time per generation\\n$subtitle" \
  "time per generation ($micro, log scale)" life_time.png time "" "" \
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
# common time axis, for the first stencil in the CSV; the series of the
# neighbour table (median.awk's neighbor_series), named as its columns, in
# the colours of the other plots (ortho_selected -> ortho-selected).
if [[ ! -f "$neighbor_csv" || $(wc -l <"$neighbor_csv") -le 1 ]]; then
  echo "report: no neighbour benchmark results ($neighbor_csv), neighbor_time.png not plotted"
  exit 0
fi
# One data file per operation in RESULTS/plot/ (neighbor_plot_data.awk);
# the listing names the stencil, the panels, the blocks and the axes.
neighbor_listing="$(awk -F, -v dir="$results/plot" -f tools/report/median.awk \
  -f tools/report/neighbor_plot_data.awk "$neighbor_csv" | time_tics)"
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
