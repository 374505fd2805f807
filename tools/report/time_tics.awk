# Passes its input through but for a line "times LOW HIGH" (the lowest and
# highest time), which becomes "timerange A:B", those times with a margin of
# a fifth, and "timetics T,T,...", tics at 1, 2, 3 and 5 times the powers of
# ten in that range, finer where that gives fewer than 4
# (tools/report/plots.sh).
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
}
