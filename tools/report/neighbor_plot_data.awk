# From the neighbour benchmark's CSV, for its first stencil, one data file
# per operation in `dir`, neighbor_OP.dat (a block per series: block bytes,
# µs per call, fastest and slowest batch), and neighbor_OP_selected.dat
# (block bytes, ortho-selected's µs per call, the algorithm it chose: the
# labels); prints "stencil NAME DIMS", then per panel "panel OP FILE
# VARIANT=LABEL..." (the variant with - for _, and the series' name in the
# neighbour table), then "blocks B,B,...", "xrange A:B" and "times LOW HIGH"
# (tools/report/plots.sh). The series are median.awk's neighbor_series, the
# table's (neighbor_table.awk); other variants in the CSV are left out.
# Needs median.awk.
#   awk -F, -v dir=DIR -f median.awk -f neighbor_plot_data.awk CSV
NR == 1 {
  for (i = 1; i <= NF; ++i) column[$i] = i
  series = neighbor_series(series_name, series_label)
  for (v = 1; v <= series; ++v) shown[series_name[v]] = v
  next
}
stencil == "" { stencil = $column["stencil"]; dims = $column["dims"] }
$column["stencil"] != stencil || !($column["variant"] in shown) { next }
{
  op = $column["operation"]; block = $column["block_bytes"] + 0
  variant = $column["variant"]; gsub(/_/, "-", variant)
  if (!(op in has_op)) { has_op[op] = 1; ops[++op_count] = op }
  has_variant[op, shown[$column["variant"]]] = 1
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
    for (s = 1; s <= series; ++s) {
      if (!((op, s) in has_variant)) continue
      name = series_name[s]; gsub(/_/, "-", name)
      printf "# %s\n", name >>file
      for (b = 1; b <= block_count; ++b) {
        key = op SUBSEP name SUBSEP block_list[b]
        if (!(key in time)) continue
        us = median(time[key])
        printf "%d %s %s %s\n", block_list[b], us, low[key], high[key] >>file
        if (name == "ortho-selected" && ((op, block_list[b]) in chosen)) {
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
      line = line " " name "=" series_label[s]
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
}
