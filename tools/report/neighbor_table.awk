# tools/report.sh, step 3: the neighbour benchmark's table from its CSV
# (RESULTS/raw/neighbor.csv), on stdout: the series of median.awk's
# neighbor_series, the ones the neighbour plot shows. Needs median.awk.
#   awk -F, -v transport=TEXT -v batches=TEXT -f median.awk
#       -f neighbor_table.awk CSV
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
# The ratio a / b (a's time over the reference b's: below 1 a is faster)
# as "median[~]" and its range (every ratio of a batch of a to one of b);
# ~ when that range contains 1.
function ratio(a, b) {
  ratio_text = "-"; ratio_range = "-"; ratio_noisy = 0
  if (!(a in time) || !(b in time) || median(time[b]) <= 0) return
  ratio_text = sprintf("%.2f", median(time[a]) / median(time[b]))
  if (!(a in low) || !(b in low) || low[b] <= 0 || high[b] <= 0) {
    ratio_text = ratio_text " "; return
  }
  lo = low[a] / high[b]; hi = high[a] / low[b]
  ratio_range = sprintf("%.2f-%.2f", lo, hi)
  ratio_noisy = lo <= 1 && hi >= 1
  ratio_text = ratio_text (ratio_noisy ? "~" : " ")
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
  series = neighbor_series(variant_list, label)
  header = "    block B"
  for (v = 1; v <= series; ++v) {
    header = header sprintf(" %12s", label[v])
    where[variant_list[v]] = v
  }
  header = header sprintf("  %-9s %5s %10s %10s", "algorithm", "msgs", "ratio", "ratio-p")
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
    print header
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
      for (v = 1; v <= series; ++v) {
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
      ratio(keys[where["ortho_selected"]], keys[where["openmpi"]])
      line = line sprintf(" %10s", ratio_text)
      spread_line = spread_line sprintf(" %10s", ratio_range)
      if (ratio_noisy) noisy = noisy (noisy == "" ? "" : ", ") block
      ratio(keys[where["ortho_selected_persistent"]], keys[where["openmpi_persistent"]])
      line = line sprintf(" %10s", ratio_text)
      spread_line = spread_line sprintf(" %10s", ratio_range)
      if (ratio_noisy) noisy_p = noisy_p (noisy_p == "" ? "" : ", ") block
      sub(/ +$/, "", line)
      print line
      if (spread_line ~ /[0-9]/) print spread_line
    }
    if (noisy != "") printf "  ~ within noise: ratio at %s B\n", noisy
    if (noisy_p != "") printf "  ~ within noise: ratio-p at %s B\n", noisy_p
  }
  print ""
  print "µs per call: the median over batches (each variant in rotated order after a"
  print "  barrier; a batch's time is the maximum over processes); the line under it,"
  print "  min-max: the fastest and the slowest batch. openmpi, openmpi-p:"
  print "  MPI_Neighbor_<op> and MPIX_Neighbor_<op>_init; direct, combining: ortho with the"
  print "  algorithm forced; selected, selected-p: ortho's choice, blocking and persistent"
  print "  (ortho_* in raw/neighbor.csv). algorithm, msgs: what ortho selected, and its"
  print "  messages per process per call. ratio: selected / openmpi; ratio-p:"
  print "  selected-p / openmpi-p (time over Open MPI's: below 1 orthocomm is"
  print "  faster); under each, every ratio of a batch to a batch; ~ where that"
  print "  range contains 1.00 (the difference is within the noise)."
}
