# Passes its input through but for a line "ratios LOW HIGH" (the least and
# greatest ratio, each positive), which becomes "ratiorange A:B" and
# "ratiotics T,T,...": a logarithmic ratio axis centred on 1, from 1/k to k
# with k the largest of HIGH and 1/LOW rounded up to the next of 1.1, 1.2,
# ..., 1.9, 2, 2.5, 3, 4, 5, 7, 10, 20, 30, 50, 100, 200, ..., and tics at 1,
# k, 1/k and at most three values between, each with its reciprocal
# (tools/report/plots.sh). gnuplot's tic list: "label" value, the labels
# with two or three significant digits.
$1 != "ratios" { print; next }
# The values k is rounded up to, ascending.
function nice_values(list,   count, p, m, mantissa) {
  count = split("1.1 1.2 1.3 1.4 1.5 1.6 1.7 1.8 1.9 2 2.5 3 4 5 7", list, " ")
  split("1 2 3 5", mantissa, " ")
  for (p = 1; p <= 6; ++p)
    for (m = 1; m <= 4; ++m) list[++count] = mantissa[m] * 10 ^ p
  return count
}
function tic(value, digits) { return sprintf("\"%." digits "g\" %.6g", value, value) }
{
  k = $3 + 0
  if ($2 > 0 && 1 / $2 > k) k = 1 / $2
  count = nice_values(nice)
  limit = nice[count]
  for (i = 1; i <= count; ++i)
    if (nice[i] >= k * (1 - 1e-9)) { limit = nice[i]; break }
  printf "ratiorange %.6g:%.6g\n", 1 / limit, limit
  # The tics between 1 and the limit: from the finest of these sets that
  # leaves at most three.
  sets[1] = ""
  for (i = 1; i <= count; ++i) sets[1] = sets[1] " " nice[i]
  sets[2] = "1.2 1.5 2 3 5 10 20 30 50 100 200 300 500 1000 10000 100000 1000000"
  sets[3] = "1.5 2 5 10 20 50 100 200 500 1000 10000 100000 1000000"
  sets[4] = "2 10 100 1000 10000 100000 1000000"
  sets[5] = "10 1000 100000"
  for (s = 1; s <= 5; ++s) {
    inner = 0; delete between
    candidates = split(sets[s], candidate, " ")
    for (i = 1; i <= candidates; ++i)
      if (candidate[i] + 0 > 1 && candidate[i] + 0 < limit) between[++inner] = candidate[i] + 0
    if (inner <= 3) break
  }
  tics = tic(1 / limit, 2)
  for (i = inner; i >= 1; --i) tics = tics "," tic(1 / between[i], 2)
  tics = tics "," tic(1, 2)
  for (i = 1; i <= inner; ++i) tics = tics "," tic(between[i], 3)
  tics = tics "," tic(limit, 3)
  print "ratiotics " tics
}
