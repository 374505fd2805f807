# tools/report.sh, step 2: RESULTS/results.csv (to the file named by `csv`)
# and the table (on stdout) from step 1's rows, read twice: the first pass
# finds each block's reference time and its spread.
#   awk -F'\t' -v csv=FILE -v np=N -v transport=TEXT -v iterations=N
#       -v header=CSV_HEADER -v where=TRANSPORT,HOSTS,COMMIT,DATE
#       -f table.awk ROWS ROWS
function block_of() { return $1 SUBSEP $2 SUBSEP $3 }
function reference_of() {
  if ($2 == "cells") return "cells-openmpi"
  return $2 == "accumulate" ? "accumulate-openmpi" : "openmpi"
}
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
    else if ($2 == "forward")
      title = sprintf("spmv, y = A x, %s (its halo exchange)", $3)
    else if ($2 == "accumulate")
      title = sprintf("spmv, accumulate of A^T w, %s (the halo reversed)", $3)
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
    print "  after a barrier; a batch's time is the maximum over processes); min-max:"
    print "  the fastest and the slowest batch."
    print "ratio: time per iteration / Open MPI's (openmpi; for cells, cells-openmpi; for"
    print "  an accumulate, accumulate-openmpi) on the same program and grid (spmv: matrix);"
    print "  below 1 is faster than Open MPI, above 1 slower. Its"
    print "  min-max: every ratio of a batch to one of Open MPI's; ~ where that range"
    print "  contains 1.00 (the difference is within the noise)."
    print "messages, bytes: per process and iteration, the maximum over the processes."
    print "traffic: counted = ortho's messages as sent; model = Open MPI's, modelled as"
    print "  one message per neighbour (Open MPI does not report them)."
  }
}
