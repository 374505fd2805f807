# The main job's verdict: one line per experiment saying how ortho's
# selected implementation compares with Open MPI's, how often that is beyond
# the noise, and which implementation was fastest where.
#
#   awk -F, -f tools/report/verdict.awk RESULTS/results.csv [neighbor.csv]
#
# results.csv (tools/report.sh): one row per program, grid and variant with
# the median time and its fastest and slowest batch. neighbor.csv
# (combining_benchmark --csv): one row per operation, block size,
# repetition and variant; repetitions are merged (median of the medians,
# the extreme batches). Columns are found by their header names.
#
# A ratio is a time over Open MPI's (below 1 is faster). It is beyond the
# noise where every ratio of a batch to one of Open MPI's batches lies on
# one side of 1: the slowest batch ours over the fastest of Open MPI's
# below 1 (faster), or the fastest over the slowest above 1 (slower).

FNR == 1 {
  file++
  for (i = 1; i <= NF; i++) column[file, $i] = i
  next
}

function field(name) { return $(column[file, name]) }

# Blocks of the main programs: program and grid.
file == 1 {
  program = field("program"); variant = field("variant")
  group = program
  if (variant ~ /^cells/) group = program ", Listing 7"
  if (variant ~ /^accumulate/) group = program ", accumulate of A^T w"
  block = group SUBSEP field("grid")
  add(group, block, field("grid"), variant, field("us_per_iteration"),
      field("us_min"), field("us_max"))
}

# The benchmark: per operation, block size and variant, over repetitions.
file == 2 {
  variant = field("variant"); gsub(/_/, "-", variant)
  if (variant ~ /^raw/) next  # the floor: the same messages, by hand
  group = "benchmark " field("operation") ", " field("stencil")
  size = field("block_bytes") " B"
  block = group SUBSEP size
  key = block SUBSEP variant
  if (!(key in reps)) {
    add(group, block, size, variant, 0, field("time_min_us"),
        field("time_max_us"))
  }
  reps[key]++
  rep_time[key, reps[key]] = field("time_us")
  if (field("time_min_us") + 0 < low[key]) low[key] = field("time_min_us") + 0
  if (field("time_max_us") + 0 > high[key]) high[key] = field("time_max_us") + 0
}

function add(group, block, label, variant, median, lo, hi,    key) {
  if (!(group in seen_group)) { seen_group[group] = 1; groups[++n_groups] = group }
  if (!(block in seen_block)) {
    seen_block[block] = 1
    blocks[group, ++n_blocks[group]] = block
    block_label[block] = label
  }
  key = block SUBSEP variant
  if (!(key in seen_variant)) {
    seen_variant[key] = 1
    variants[block, ++n_variants[block]] = variant
  }
  time[key] = median + 0; low[key] = lo + 0; high[key] = hi + 0
}

function median_of(key,    n, i, j, v, sorted) {
  n = reps[key]
  for (i = 1; i <= n; i++) sorted[i] = rep_time[key, i] + 0
  for (i = 2; i <= n; i++) {
    v = sorted[i]
    for (j = i - 1; j >= 1 && sorted[j] > v; j--) sorted[j + 1] = sorted[j]
    sorted[j + 1] = v
  }
  return n % 2 ? sorted[(n + 1) / 2] : (sorted[n / 2] + sorted[n / 2 + 1]) / 2
}

function reference_of(block,    i, v) {
  for (i = 1; i <= n_variants[block]; i++) {
    v = variants[block, i]
    if (v == "openmpi" || v == "cells-openmpi" || v == "accumulate-openmpi")
      return v
  }
  return ""
}

function judged_of(block,    i, v) {
  for (i = 1; i <= n_variants[block]; i++) {
    v = variants[block, i]
    if (v == "ortho-selected" || v == "cells" || v == "accumulate-reverse")
      return v
  }
  return ""
}

function fmt(x) { return sprintf("%.2f", x) }

END {
  for (k in reps) time[k] = median_of(k)
  printf "verdict (ratio: time over Open MPI's, below 1 is faster; beyond the\n"
  printf "  noise where every batch of one is faster than every batch of the other):\n"
  for (g = 1; g <= n_groups; g++) {
    group = groups[g]
    faster = slower = noise = 0; lo_ratio = hi_ratio = ""
    fastest_text = ""; delete fastest_count; n_fastest = 0
    judged_name = ""
    for (b = 1; b <= n_blocks[group]; b++) {
      block = blocks[group, b]
      ref = reference_of(block); judged = judged_of(block)
      if (ref == "" || judged == "") continue
      judged_name = judged
      r = block SUBSEP ref; j = block SUBSEP judged
      ratio = time[j] / time[r]
      if (lo_ratio == "" || ratio < lo_ratio) lo_ratio = ratio
      if (hi_ratio == "" || ratio > hi_ratio) hi_ratio = ratio
      if (low[r] > 0 && high[j] / low[r] < 1) faster++
      else if (high[r] > 0 && low[j] / high[r] > 1) slower++
      else noise++
      best = ""
      for (i = 1; i <= n_variants[block]; i++) {
        v = variants[block, i]
        if (best == "" || time[block, v] < time[block, best]) best = v
      }
      if (!(best in fastest_count)) fastest_order[++n_fastest] = best
      fastest_count[best]++
    }
    if (judged_name == "") continue
    blocks_text = faster + slower + noise
    range = fmt(lo_ratio) (lo_ratio == hi_ratio ? "" : "-" fmt(hi_ratio))
    for (i = 1; i <= n_fastest; i++) {
      fastest_text = fastest_text (i > 1 ? ", " : "") fastest_order[i] " at " \
                     fastest_count[fastest_order[i]]
    }
    printf "  %s (%d %s): %s at %s of Open MPI's time\n", group,
           blocks_text, blocks_text == 1 ? "point" : "points", judged_name,
           range
    printf "      faster beyond the noise at %d, slower at %d, within it at %d;" \
           " fastest: %s\n", faster, slower, noise, fastest_text
  }
}
