#!/usr/bin/env bash
# Runs the MPI test targets (tag mpi) on one host and on each of the given
# numbers of simulated hosts (tools/test.sh --hosts N), never from Bazel's
# cache, and compares the time per target with one host.
#
#   tools/hosts_test_times.sh [N ...]      (default: 2 3)
#
# Prints per run: targets run and passed, the sum and median of the targets'
# times, and the median of the per-target ratios to one host; the same for
# the differential (*_vs_openmpi_*) and seed-example (*seed_examples*)
# targets. Exits non-zero if any run had a failure.
set -uo pipefail
cd "$(dirname "$0")/.."
counts=("$@")
[[ ${#counts[@]} -gt 0 ]] || counts=(2 3)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

status=0
echo "hosts_test_times: one host" >&2
bazel test --keep_going --test_summary=short --test_tag_filters=mpi \
  --nocache_test_results //... >"$dir/1.log" 2>&1 || status=1
for n in "${counts[@]}"; do
  echo "hosts_test_times: $n hosts" >&2
  # Each multi-host run uses fresh hosts (a new hostfile), so Bazel runs it.
  bash tools/test.sh --hosts "$n" >"$dir/$n.log" 2>&1 || status=1
done

# "//pkg:target   PASSED in 1.2s" -> "//pkg:target PASSED 1.2"
times() {
  grep -E '^//[^ ]+ +' "$1" |
    awk '{ t = ($NF ~ /s$/) ? $NF : "0s"; sub(/s$/, "", t); print $1, $2, t }' |
    sort
}
# Lines "target status t_one t_n": figures for those whose name matches $1.
summary() {
  awk -v pattern="$1" -v label="$2" '
    $1 ~ pattern {
      ++run; if ($4 == "PASSED") ++passed
      one[run] = $3; many[run] = $5; ratio[run] = ($3 > 0) ? $5 / $3 : 0
      sum_one += $3; sum_many += $5 }
    function median(a, n,   i, j, t) {
      for (i = 2; i <= n; ++i) for (j = i; j > 1 && a[j - 1] > a[j]; --j) {
        t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
      return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
    END {
      if (run == 0) { printf "  %-28s none\n", label; exit }
      printf "  %-28s %3d run, %3d passed; sum %6.1fs (one host %6.1fs, x%.2f); median %.2fs (one host %.2fs); median ratio x%.2f\n",
        label, run, passed + 0, sum_many, sum_one, sum_many / sum_one,
        median(many, run), median(one, run), median(ratio, run) }'
}
elapsed() { grep -o 'Elapsed time: [0-9.]*s' "$1" | tail -1; }
ones=$(times "$dir/1.log")
echo "one host: $(grep -cE '^//[^ ]+ +PASSED' "$dir/1.log") of" \
  "$(grep -cE '^//[^ ]+ +' "$dir/1.log") MPI targets passed" \
  "($(elapsed "$dir/1.log"))"
for n in "${counts[@]}"; do
  echo "$n hosts: $(tail -1 "$dir/$n.log") ($(elapsed "$dir/$n.log"))"
  # target status_n t_n joined to target status_1 t_1 -> target status_n t_1 t_n
  joined=$(join <(times "$dir/$n.log") <(echo "$ones") |
           awk '{ print $1, $2, $5, $2, $3 }')
  echo "$joined" | summary '.' "all MPI targets"
  echo "$joined" | summary '_vs_openmpi_|seed_examples' "differential + seed examples"
done
exit "$status"
