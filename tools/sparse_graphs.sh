#!/usr/bin/env bash
# Neighbourhood allgather and alltoall on general sparse graphs measured:
# experiments/sparse_graph_benchmark (built with -c opt) on simulated hosts
# (tools/hosts.sh: shared memory within a host, TCP over veth between
# hosts), ranks placed by slot, or on this machine alone with --hosts=1
# (shared memory). Writes RESULTS/run.txt (what ran where), RESULTS/raw.csv
# (the program's rows) and RESULTS/table.txt: per graph, operation and
# block size, Open MPI's time per call, every variant's ratio to it (time
# over Open MPI's: below 1 is faster) with the spread over iterations, the
# algorithm ortho selects, the selection against the fastest forced
# algorithm (blocking and persistent, each against its mode), messages
# per process and the most messages between hosts from one process
# (direct / node_aware / common_neighbours / spread_relays); then a
# summary over the graphs.
#
#   tools/sparse_graphs.sh [--hosts=H] [--slots=S] [--results=DIR]
#                          [--graphs=NAME,...] [--blocks=B,...]
#                          [--iterations=N] [--calls=C] [BENCHMARK FLAGS...]
#
# C calls a batch (default 10: a loop's time per call; 1: one call's
# latency after a barrier). H hosts (default 4) x S slots (default 4).
# RESULTS defaults to docs/results/<YYYY-MM-DD>-sparse-graphs-HxS-tcp (HxS-shm for one host).
# Several hosts need root (tools/hosts.sh); python3 always. With
# ORTHOCOMM_BUILD_LOCK set, the build runs under flock on that file, and
# with ORTHOCOMM_MEASURE_LOCK the measured run on that one. The measured
# binary is a copy, so builds during the run change nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/run_facts.sh

command_line="bash tools/sparse_graphs.sh${*:+ $*}"
hosts=4
slots=4
results=""
flags=()
for argument in "$@"; do
  case "$argument" in
    --hosts=*) hosts="${argument#--hosts=}" ;;
    --slots=*) slots="${argument#--slots=}" ;;
    --results=*) results="${argument#--results=}" ;;
    --graphs=* | --blocks=* | --iterations=* | --calls=* | --benchmark_*)
      flags+=("$argument") ;;
    *) echo "usage: tools/sparse_graphs.sh [--hosts=H] [--slots=S]" \
         "[--results=DIR] [--graphs=...] [--blocks=...] [--iterations=N]" \
         "[--calls=C]" \
         "[--benchmark_...]" >&2
       exit 2 ;;
  esac
done
host_layout sparse_graphs.sh "$hosts" "$slots"  # sets np and transport
results="${results:-docs/results/$(date -u +%Y-%m-%d)-sparse-graphs-${hosts}x$slots-$transport}"

build=(bazel build -c opt //experiments:sparse_graph_benchmark)
if [[ -n "${ORTHOCOMM_BUILD_LOCK:-}" ]]; then
  build=(flock -o "$ORTHOCOMM_BUILD_LOCK" "${build[@]}")
fi
measure=()
if [[ -n "${ORTHOCOMM_MEASURE_LOCK:-}" ]]; then
  measure=(flock -o "$ORTHOCOMM_MEASURE_LOCK")
fi
work="$(mktemp -d /tmp/orthocomm-sparse-graphs.XXXXXX)"
trap 'rm -rf "$work"' EXIT
"${build[@]}"
cp bazel-out/k8-opt/bin/experiments/sparse_graph_benchmark "$work/"
chmod 755 "$work"

mkdir -p "$results"
{
  run_facts "$command_line"
  if [[ "$hosts" == 1 ]]; then
    echo "hosts: this machine alone, $np processes, btl self,vader"
  else
    echo "hosts: $hosts simulated hosts x $slots slots (tools/hosts.sh), $np processes by slot, btl self,vader,tcp"
  fi
  echo "program: sparse_graph_benchmark --benchmark_format=csv ${flags[*]}"
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)"
} >"$results/run.txt"

launch='source tests/harness/mpirun_flags.sh
  mpirun_flags "$1"
  shift
  mpirun "${MPIRUN_FLAGS[@]}" "$@"'
program=("$work/sparse_graph_benchmark" --benchmark_format=csv "${flags[@]}")
if [[ "$hosts" == 1 ]]; then
  "${measure[@]}" bash -c "$launch" _ "$np" "${program[@]}" >"$results/raw.csv"
else
  "${measure[@]}" bash tools/hosts.sh "$hosts" --slots "$slots" \
    --map-by slot -- bash -c "$launch" _ "$np" "${program[@]}" \
    >"$results/raw.csv"
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)" \
  >>"$results/run.txt"

python3 - "$results/raw.csv" >"$results/table.txt" <<'PYTHON'
import csv
import re
import statistics
import sys

rows = []
with open(sys.argv[1]) as f:
    lines = [line for line in f if not line.startswith("sparse_graph_benchmark:")]
for row in csv.DictReader(lines):
    operation, graph, block = row["name"].split("/")[:3]
    row.update(operation=operation, graph=graph, block=int(block))
    rows.append(row)


def ratio(row, variant):
    return float(row[variant + "_ratio"])


def spread(row, variant):
    if not row.get(variant + "_ratio"):
        return "-"
    return (f"{ratio(row, variant):.2f} "
            f"({float(row[variant + '_ratio_min']):.2f}"
            f"-{float(row[variant + '_ratio_max']):.2f})")


FORCED = ("direct", "node_aware", "common_neighbours", "spread_relays", "mpi")


def best_forced(row):
    """The fastest forced algorithm's ratio and name (mpi: Open MPI's call
    behind ortho's dispatch, the `mpi` algorithm forced)."""
    return min((ratio(row, v), v) for v in FORCED if row.get(v + "_ratio"))


def best_forced_persistent(row):
    """The fastest forced persistent request's ratio and name, or None where
    none ran."""
    present = [(ratio(row, v + "_persistent"), v) for v in FORCED
               if row.get(v + "_persistent_ratio")]
    return min(present) if present else None


def chosen(row, mode=""):
    """What the selection of `mode` ("" blocking, "_persistent") runs, from
    the label (selected=A selected_persistent=B)."""
    found = re.search(rf"\bselected{mode}=(\w+)", row["label"])
    return found.group(1) if found else "-"


def choice_over_best(row, mode=""):
    """The forced time of the algorithm the selection of `mode` runs over
    the fastest forced time of that mode, both from this run: the choice
    alone."""
    ran = chosen(row, mode)
    best = best_forced_persistent(row) if mode else best_forced(row)
    if best is None or not row.get(ran + mode + "_ratio"):
        return "-"
    return f"{ratio(row, ran + mode) / best[0]:.2f}"


def persistent_over_best(row):
    best = best_forced_persistent(row)
    if best is None:
        return "- | -"
    return f"{ratio(row, 'selected_persistent') / best[0]:.2f} | {best[1]}"


def count(row, name, digits):
    return f"{float(row[name]):.{digits}f}" if row.get(name) else "-"


print("| graph | edges | most out-edges |")
print("| --- | ---: | ---: |")
seen = set()
for row in rows:
    if row["graph"] not in seen:
        seen.add(row["graph"])
        print(f"| {row['graph']} | {float(row['edges']):.0f} "
              f"| {float(row['degree_max']):.0f} |")
print()
print("| operation | graph | block | Open MPI µs | openmpi_persistent | raw "
      "| direct | node_aware | common_neighbours | spread_relays | mpi "
      "| selected "
      "| selected_persistent | selected runs | persistent runs | sel/best "
      "| choice/best | best forced "
      "| sel pers/best | best forced persistent | pers choice/best "
      "| messages per process: direct / node_aware / common_neighbours "
      "/ spread_relays "
      "| between hosts: direct / node_aware / common_neighbours "
      "/ spread_relays |")
print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
      "| ---: | ---: | ---: | --- | --- | ---: | ---: | --- | ---: | --- "
      "| ---: | ---: | ---: |")
for row in rows:
    persistent = (f"{ratio(row, 'openmpi_persistent'):.2f}"
                  if row.get("openmpi_persistent_ratio") else "-")
    print(f"| {row['operation']} | {row['graph']} | {row['block']} B "
          f"| {float(row['openmpi_us']):.0f} | {persistent} "
          f"| {ratio(row, 'raw'):.2f} | {spread(row, 'direct')} "
          f"| {spread(row, 'node_aware')} "
          f"| {spread(row, 'common_neighbours')} "
          f"| {spread(row, 'spread_relays')} | {spread(row, 'mpi')} "
          f"| {spread(row, 'selected')} "
          f"| {ratio(row, 'selected_persistent'):.2f} "
          f"| {chosen(row)} | {chosen(row, '_persistent')} "
          f"| {ratio(row, 'selected') / best_forced(row)[0]:.2f} "
          f"| {choice_over_best(row)} "
          f"| {best_forced(row)[1]} | {persistent_over_best(row)} "
          f"| {choice_over_best(row, '_persistent')} "
          f"| {float(row['direct_msgs']):.1f} / {float(row['node_aware_msgs']):.1f} "
          f"/ {count(row, 'common_neighbours_msgs', 1)} "
          f"/ {count(row, 'spread_relays_msgs', 1)} "
          f"| {float(row['direct_between']):.0f} / "
          f"{float(row['node_aware_between']):.0f} / "
          f"{count(row, 'common_neighbours_between', 0)} / "
          f"{count(row, 'spread_relays_between', 0)} |")
print()
print("Ratios: time over Open MPI's MPI_Neighbor_* (below 1 is faster), "
      "the ratio of median times, in brackets the least and greatest ratio "
      "within one iteration; raw is the hand-posted floor of direct's "
      "messages; mpi is Open MPI's call behind ortho's dispatch (the mpi "
      "algorithm forced); sel/best is the selection's time over the "
      "fastest forced algorithm's (direct, node_aware, common_neighbours, "
      "spread_relays, mpi): 1.00 is the best, above 1 the selection lost; "
      "the goal <= 1.03; choice/best is the forced time of the algorithm "
      "the selection runs over the fastest forced time, which judges the "
      "choice alone (sel/best also holds the difference between two "
      "communicators running one algorithm); sel pers/best is the "
      "persistent selection's time over the fastest forced persistent "
      "request's, pers choice/best its choice alone.")
print()
variants = ["raw", "direct", "node_aware", "common_neighbours",
            "spread_relays", "mpi", "selected", "direct_persistent",
            "node_aware_persistent", "common_neighbours_persistent",
            "spread_relays_persistent", "mpi_persistent",
            "selected_persistent"]
variants = [v for v in variants if all(r.get(v + "_ratio") for r in rows)]
print("Over the graphs, per operation and block: the median ratio "
      "(least-greatest over graphs).")
print()
print("| operation | block | " + " | ".join(variants) + " |")
print("| --- | ---: | " + " | ".join("---:" for _ in variants) + " |")
keys = sorted({(r["operation"], r["block"]) for r in rows})
for operation, block in keys:
    group = [r for r in rows if (r["operation"], r["block"]) == (operation, block)]
    cells = []
    for v in variants:
        values = [ratio(r, v) for r in group]
        cells.append(f"{statistics.median(values):.2f} "
                     f"({min(values):.2f}-{max(values):.2f})")
    print(f"| {operation} | {block} B | " + " | ".join(cells) + " |")
PYTHON
cat "$results/table.txt"
