# From RESULTS/results.csv, the gnuplot data of one program's plot (a block
# per variant: N, us_per_iteration, ratio_to_openmpi, us_min, us_max,
# ratio_min, ratio_max; a ratio is the time over Open MPI's) into the file
# `out`; prints the variants, one a line, then "sizes N,N,...", "xrange
# A:B", "times LOW HIGH" and "ratios LOW HIGH" (the least and greatest
# positive ratio, its range included; tools/report/plots.sh's plot_data).
#   awk -F, -v program=NAME -v pattern=REGEX -v excluded=VARIANT -v out=FILE
#       -f plot_data.awk RESULTS/results.csv
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
  # ratio_to_openmpi, ratio_min, ratio_max.
  for (c = split("8 11 12", ratio_column, " "); c >= 1; --c) {
    value = $(ratio_column[c])
    if (value == "" || value + 0 <= 0) continue
    if (low_ratio == "" || value + 0 < low_ratio) low_ratio = value + 0
    if (high_ratio == "" || value + 0 > high_ratio) high_ratio = value + 0
  }
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
  if (low_ratio != "") printf "ratios %g %g\n", low_ratio, high_ratio
}
