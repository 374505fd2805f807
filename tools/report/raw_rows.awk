# tools/report.sh, step 1: the timed lines of the life and jacobi runs
# (RESULTS/raw/*.txt) as tab-separated rows with sort keys in front: life
# before jacobi, Listing 7's cells before the blocked board, then N, then the
# line's place. Lines of the serial reference runs are skipped.
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
        field["note"], field["seconds_min"], field["seconds_max"], field["batches"]
}
