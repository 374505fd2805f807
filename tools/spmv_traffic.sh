#!/usr/bin/env bash
# What each of ortho's algorithms sends in the SpMV experiment's halo
# exchange (blocking alltoallv, 8 bytes an entry of x), per matrix of
# experiments/spmv/data, partitioned as the experiment partitions it
# (METIS where square, contiguous blocks otherwise): exact counts of every
# process's messages and bytes from each algorithm's real routes, built by
# the MPI-free simulator (experiments/simulate, sized_flows.h: a relayed
# block keeps the size of the block that brought it). MPI-free, seconds.
# Per job shape one table: per matrix and algorithm, the rounds, the
# busiest process's messages and bytes, the messages and bytes between
# hosts of all processes together and those over direct's; then, per
# algorithm, the medians over the matrices of those ratios. Open MPI's
# own algorithm (ortho's `mpi`) sends direct's messages.
#
#   tools/spmv_traffic.sh [--shapes=HxS,...] [--results=DIR]
#
# Shapes: hosts x processes a host, by slot (default 4x4,1x8: the shapes
# tools/sparse.sh measures). RESULTS defaults to
# docs/results/<YYYY-MM-DD>-spmv-traffic; it gets run.txt, raw.txt (the
# simulator's tables) and table.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/run_facts.sh

shapes=4x4,1x8
results=""
for argument in "$@"; do
  case "$argument" in
    --shapes=*) shapes="${argument#--shapes=}" ;;
    --results=*) results="${argument#--results=}" ;;
    *) echo "usage: tools/spmv_traffic.sh [--shapes=HxS,...]" \
         "[--results=DIR]" >&2
       exit 2 ;;
  esac
done
IFS=, read -r -a shape_list <<<"$shapes"
for shape in "${shape_list[@]}"; do
  [[ "$shape" =~ ^[1-9][0-9]*x[1-9][0-9]*$ ]] || {
    echo "spmv_traffic.sh: --shapes takes HOSTSxSLOTS,..., not '$shape'" >&2
    exit 2; }
done
results="${results:-docs/results/$(date -u +%Y-%m-%d)-spmv-traffic}"
mkdir -p "$results"

bazel build -c opt //experiments/simulate:simulate >/dev/null 2>&1
simulate=bazel-out/k8-opt/bin/experiments/simulate/simulate
# Counts do not depend on the machine file; it prices the predicted time,
# which this table leaves out.
machine=experiments/simulate/machines/simulated_hosts.machine
run_facts "bash tools/spmv_traffic.sh${*:+ $*}" >"$results/run.txt"
echo "simulated: shapes $shapes (hosts x processes a host, by slot)," \
  "the matrices of experiments/spmv/data; counts only" >>"$results/run.txt"

: >"$results/raw.txt"
for shape in "${shape_list[@]}"; do
  for matrix in experiments/spmv/data/*.mtx; do
    "$simulate" --machine="$machine" --matrix="$matrix" \
      --nodes="${shape%x*}" --ppn="${shape#*x}" --blocks=8 \
      >>"$results/raw.txt" 2>>"$results/run.txt"
  done
done

python3 - "$results/raw.txt" >"$results/table.txt" <<'PYTHON'
import re
import statistics
import sys

# The simulator's tables: a "## MATRIX (PARTS), alltoallv, H nodes x S
# processes (by slot)" heading, then one row per algorithm.
HEADING = re.compile(
    r"^## (\S+) \((.+)\), alltoallv, (\d+) nodes x (\d+) processes")
shapes = {}
current = None
columns = None
for line in open(sys.argv[1]):
    heading = HEADING.match(line)
    if heading:
        matrix, parts, hosts, slots = heading.groups()
        current = shapes.setdefault((int(hosts), int(slots)), [])
        current.append({"matrix": matrix, "parts": parts, "rows": {}})
        continue
    if not line.startswith("|") or current is None:
        continue
    cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
    if cells[0] == "block B":
        columns = cells
    elif cells[0].isdigit():
        row = dict(zip(columns, cells))
        current[-1]["rows"][row["algorithm"]] = row


def ratio(value, reference):
    return value / reference if reference else None


def shown(value):
    return "-" if value is None else f"{value:.2f}"


# Counts per algorithm: the busiest process's messages and bytes, then
# (several hosts) those between hosts of all processes together.
BUSIEST = ["messages (busiest)", "bytes (busiest)"]
BETWEEN = ["messages between nodes", "bytes between nodes"]

for (hosts, slots), matrices in shapes.items():
    counted = BUSIEST + (BETWEEN if hosts > 1 else [])
    names = [name.replace("nodes", "hosts") for name in counted]
    print(f"## {hosts} host{'s' if hosts > 1 else ''} x {slots} processes "
          "(by slot): one halo exchange (blocking alltoallv, 8 B an entry)\n")
    print("| matrix | parts | algorithm | rounds | " + " | ".join(names) +
          " | " + " | ".join(f"{name} / direct's" for name in names) + " |")
    print("| --- | --- | --- | ---: |" + " ---: |" * (2 * len(names)))
    ratios = {}
    for entry in matrices:
        direct = entry["rows"]["direct"]
        for algorithm, row in entry["rows"].items():
            values = [int(row[name]) for name in counted]
            versus = [ratio(value, int(direct[name]))
                      for value, name in zip(values, counted)]
            ratios.setdefault(algorithm, []).append(versus)
            print(f"| {entry['matrix']} | {entry['parts']} | {algorithm} | "
                  f"{row['rounds']} | " +
                  " | ".join(str(value) for value in values) + " | " +
                  " | ".join(shown(value) for value in versus) + " |")
    print("\nMedians over the matrices of each count over direct's (where "
          "direct's is not 0):\n")
    print("| algorithm | " + " | ".join(names) + " |")
    print("| --- |" + " ---: |" * len(names))
    for algorithm, values in ratios.items():
        medians = []
        for column in range(len(names)):
            known = [value[column] for value in values
                     if value[column] is not None]
            medians.append(statistics.median(known) if known else None)
        print(f"| {algorithm} | " +
              " | ".join(shown(median) for median in medians) + " |")
    print()
PYTHON
cat "$results/table.txt"
