#!/usr/bin/env bash
# Neighbourhood alltoall, classic next to Open MPI (experiments/
# neighbor_benchmark, built with -c opt), on one host and on N simulated
# hosts (tools/hosts.sh, TCP), side by side.
#
#   tools/neighbor_benchmark.sh [--hosts N] [--np P] [BENCHMARK ARGS...]
#       one host (shared memory), then, with --hosts N (N >= 2), the same on
#       N simulated hosts; prints per stencil and block size the median
#       classic and Open MPI time per call, their ratio (classic / Open MPI:
#       below 1 is faster), and the floor ratio: classic's time over that of
#       the same messages posted by hand (1 = no overhead).
#   tools/neighbor_benchmark.sh --csv FILE [--np P] [BENCHMARK ARGS...]
#       one run on the hosts that ORTHOCOMM_HOSTFILE names (one host when
#       unset), Google Benchmark's CSV into FILE.
#
# P defaults to 16 (a 4x4 torus). Every benchmark measures both
# implementations (interleaved batches) and reports both: blocking
# (von_neumann, moore) and persistent (*_persistent).
set -euo pipefail
cd "$(dirname "$0")/.."
hosts=1
np=16
csv=""
args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --hosts) hosts="$2"; shift 2 ;;
    --np) np="$2"; shift 2 ;;
    --csv) csv="$2"; shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
binary=bazel-bin/experiments/neighbor_benchmark

if [[ -n "$csv" ]]; then
  source tests/harness/mpirun_flags.sh
  mpirun_flags "$np"
  mpirun "${MPIRUN_FLAGS[@]}" "$binary" --benchmark_filter=BM_NeighborAlltoall \
    --benchmark_format=csv "${args[@]}" >"$csv"
  exit 0
fi

bash tools/install_deps.sh
bazel build -c opt //experiments:neighbor_benchmark

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo "neighbor_benchmark: $np processes on one host (btl self,vader)" >&2
env -u ORTHOCOMM_HOSTFILE bash "$0" --csv "$dir/1.csv" --np "$np" "${args[@]}"
if [[ "$hosts" -gt 1 ]]; then
  echo "neighbor_benchmark: $np processes on $hosts simulated hosts (btl self,vader,tcp: shared memory within a host, TCP between hosts)" >&2
  bash tools/hosts.sh "$hosts" -- \
    bash "$0" --csv "$dir/$hosts.csv" --np "$np" "${args[@]}"
fi

# The median rows, by column name: name, classic_us, openmpi_us, ratio,
# floor_ratio.
medians() {
  awk -F, '/^name,/ { gsub(/"/, ""); for (i = 1; i <= NF; ++i) column[$i] = i; next }
           $1 ~ /_median"?$/ {
             gsub(/"/, ""); split($1, part, "/")
             printf "%s/%s %.1f %.1f %.3f %.3f\n", part[2], part[3],
                    $column["classic_us"], $column["openmpi_us"], $column["ratio"],
                    $column["floor_ratio"] }' "$1"
}
if [[ "$hosts" -gt 1 ]]; then
  printf '%-24s %36s   %36s   %s\n' "" "one host" "$hosts hosts (TCP)" ""
  printf '%-24s %9s %9s %8s %7s   %9s %9s %8s %7s   %s\n' "stencil/block" \
    "classic" "Open MPI" "ratio" "floor" "classic" "Open MPI" "ratio" \
    "floor" "hosts/1"
  join <(medians "$dir/1.csv" | sort) <(medians "$dir/$hosts.csv" | sort) |
    sort -t/ -k1,1 -k2n |
    awk '{ printf "%-24s %7.1fus %7.1fus %8.3f %7.3f   %7.1fus %7.1fus %8.3f %7.3f   %6.1f\n",
           $1, $2, $3, $4, $5, $6, $7, $8, $9, $6 / $2 }'
else
  printf '%-24s %9s %9s %8s %7s\n' "stencil/block" "classic" "Open MPI" \
    "ratio" "floor"
  medians "$dir/1.csv" | sort -t/ -k1,1 -k2n |
    awk '{ printf "%-24s %7.1fus %7.1fus %8.3f %7.3f\n", $1, $2, $3, $4, $5 }'
fi
echo "(medians of 5 repetitions; ratio = classic / Open MPI, below 1 is faster; floor = classic / the same messages posted by hand, 1 = no overhead; hosts/1 = classic's time on $hosts hosts / on one)"
