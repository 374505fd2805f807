# tools/report.sh, step 1: the timed lines of the life, jacobi and spmv
# runs (RESULTS/raw/*.txt) as tab-separated rows with sort keys in front:
# life, jacobi, spmv; Listing 7's cells before the blocked board, spmv's
# y = A x before its accumulate of A^T w; then N, then the line's place.
# spmv's grid is its matrix. Lines of the serial reference runs are skipped.
$1 !~ /^(life|jacobi|spmv)$/ || $2 !~ /^variant=/ { next }
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
  if ($1 == "spmv") {
    family = field["variant"] ~ /^accumulate/ ? "accumulate" : "forward"
    field["grid"] = field["matrix"]
  }
  n = field["grid"]; sub(/x.*/, "", n)
  print ($1 == "life" ? 0 : $1 == "jacobi" ? 1 : 2),
        (family == "cells" || family == "forward" ? 0 : 1), n + 0, NR,
        $1, family, field["grid"], field["processes"], field["variant"],
        field["algorithm"], field["iterations"], field["seconds_per_iteration"],
        field["messages"], field["bytes"], field["traffic"], field["result"],
        field["note"], field["seconds_min"], field["seconds_max"], field["batches"]
}
