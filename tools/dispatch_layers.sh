#!/usr/bin/env bash
# What each layer above Open MPI's neighbour collective costs on one host:
# experiments/dispatch_benchmark's layers_over_open_mpi (built with -c opt;
# MPI_Neighbor_alltoall of 4 B blocks on a 2-d Moore torus, against the same
# call on a second graph, classic's transport wrapper, ortho with mpi forced
# and ortho's direct, and the three persistent forms: Open MPI's, classic's
# wrapper's, ortho's mpi), at several process counts on this machine's
# cores.
# Writes RESULTS/run.txt, RESULTS/raw.txt (the program's output per process
# count) and RESULTS/table.txt: per process count, Open MPI's time per call
# and each layer's time over Open MPI's (the median of the paired ratios of
# one iteration's batches, then the median over the repetitions, with their
# least and greatest).
#
#   tools/dispatch_layers.sh [--np=P,P,...] [--launches=N] [--results=DIR]
#
# P defaults to 2,4,8 (oversubscribed where above the cores), N to 2.
# RESULTS defaults to docs/results/<YYYY-MM-DD>-dispatch-layers-shm.
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/run_facts.sh

command_line="bash tools/dispatch_layers.sh${*:+ $*}"
counts="2,4,8"
launches=2
results=""
for argument in "$@"; do
  case "$argument" in
    --np=*) counts="${argument#--np=}" ;;
    --launches=*) launches="${argument#--launches=}" ;;
    --results=*) results="${argument#--results=}" ;;
    *) echo "usage: tools/dispatch_layers.sh [--np=P,P,...] [--launches=N]" \
         "[--results=DIR]" >&2
       exit 2 ;;
  esac
done
[[ "$counts" =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ &&
   "$launches" =~ ^[1-9][0-9]*$ ]] || {
  echo "dispatch_layers.sh: --np takes positive numbers separated by" \
    "commas, --launches a positive number" >&2
  exit 2; }
results="${results:-docs/results/$(date -u +%Y-%m-%d)-dispatch-layers-shm}"

bazel build -c opt //experiments:dispatch_benchmark
work="$(mktemp -d /tmp/orthocomm-dispatch-layers.XXXXXX)"
trap 'rm -rf "$work"' EXIT
cp bazel-out/k8-opt/bin/experiments/dispatch_benchmark "$work/"
chmod 755 "$work"

mkdir -p "$results"
{
  run_facts "$command_line"
  echo "hosts: this machine alone, btl self,vader; process counts $counts, $launches launches each, alternating"
  echo "program: dispatch_benchmark --benchmark_filter=LayersOverOpenMpi --benchmark_format=csv"
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)"
} >"$results/run.txt"

: >"$results/raw.txt"
for ((launch = 1; launch <= launches; ++launch)); do
  for np in ${counts//,/ }; do
    echo "# np=$np launch=$launch" >>"$results/raw.txt"
    bash -c 'source tests/harness/mpirun_flags.sh
      mpirun_flags "$1"
      shift
      mpirun "${MPIRUN_FLAGS[@]}" "$@"' _ "$np" "$work/dispatch_benchmark" \
      --benchmark_filter=LayersOverOpenMpi --benchmark_format=csv \
      2>/dev/null |
      grep -v '^dispatch_benchmark:' >>"$results/raw.txt"
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)" \
  >>"$results/run.txt"

python3 - "$results/raw.txt" >"$results/table.txt" <<'PYTHON'
import collections
import csv
import io
import statistics
import sys

layers = ["openmpi_again", "classic_transport", "ortho_mpi", "ortho_direct",
          "openmpi_persistent", "classic_transport_persistent",
          "ortho_mpi_persistent"]
ratios = collections.defaultdict(list)  # (np, layer) -> ratios
openmpi = collections.defaultdict(list)  # np -> µs
np = None
block = []


def flush():
    if not block:
        return
    for row in csv.DictReader(io.StringIO("".join(block))):
        if not row["name"].endswith("manual_time"):
            continue  # a repetition's own row, not an aggregate
        openmpi[np].append(float(row["openmpi_us"]))
        for layer in layers:
            ratios[(np, layer)].append(float(row[layer + "_ratio"]))
    block.clear()


for line in open(sys.argv[1]):
    if line.startswith("# np="):
        flush()
        np = int(line.split()[1].removeprefix("np="))
    elif line.strip():
        block.append(line)
flush()

print("| processes | Open MPI µs | " + " | ".join(layers) + " |")
print("| ---: | ---: | " + " | ".join("---:" for _ in layers) + " |")
for n in sorted(openmpi):
    cells = []
    for layer in layers:
        values = ratios[(n, layer)]
        cells.append(f"{statistics.median(values):.2f} "
                     f"({min(values):.2f}-{max(values):.2f})")
    print(f"| {n} | {statistics.median(openmpi[n]):.2f} | "
          + " | ".join(cells) + " |")
print()
print("Ratios: a layer's time per call over Open MPI's MPI_Neighbor_alltoall "
      "on its own graph (below 1 is faster), 4 B blocks on the 2-d Moore "
      "torus; each the median over the iterations of a repetition of the "
      "paired ratio of one iteration's batches, then the median (least-"
      "greatest) over every repetition of every launch. openmpi_again: the "
      "same call on a second graph of the same lists (what two graphs "
      "differ by); classic_transport: classic::transport_neighbor_alltoall; "
      "ortho_mpi: ortho::alltoall with mpi forced (ortho's dispatch in front "
      "of the transport wrapper); ortho_direct: ortho::alltoall with direct "
      "forced (ortho's own messages); the _persistent ones the same call as "
      "a persistent request, each start + wait: Open MPI's "
      "MPIX_Neighbor_alltoall_init, classic's transport wrapper's request "
      "and ortho::alltoall_init with mpi forced.")
PYTHON
cat "$results/table.txt"
