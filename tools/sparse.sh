#!/usr/bin/env bash
# The SpMV experiment (experiments/spmv, built with -c opt) on every matrix
# of experiments/spmv/data: on simulated hosts (tools/hosts.sh: shared
# memory within a host, TCP over veth between hosts), ranks placed by slot,
# or on this machine alone with --hosts=1. Square matrices are split by
# METIS (--partition=metis), rectangular ones in contiguous blocks. Writes
# RESULTS/run.txt (what ran where), RESULTS/raw.txt (the program's lines)
# and RESULTS/table.txt: per matrix, the halo exchange of y = A x (Open
# MPI's time per iteration, every implementation's ratio to it, the
# selection against the fastest forced one) and the accumulate of A^T w
# along the halo reversed (Open MPI on a transposed communicator, the
# floor, ortho::reverse blocking and persistent, each algorithm forced, the
# selection against the fastest of them), and the reverse's time over the
# forward selection's on the same graph; then medians over the
# matrices. With --placement=bytes (or messages) every implementation also
# runs, interleaved in the same launch, with the parts placed on the hosts
# by ortho's Reorder::yes (spmv --placement: Scotch, the edges weighing
# their bytes, or 1 each), and a third table compares the placed runs
# with the by-slot ones:
# messages and bytes between hosts, and each implementation's time placed
# over by slot. Every result is checked (result=correct) or the script
# fails.
#
#   tools/sparse.sh [--hosts=H] [--slots=S] [--iterations=N] [--seconds=T]
#                   [--results=DIR] [--matrices=NAME,...]
#                   [--placement=bytes|messages]
#
# H hosts (default 4) x S slots (default 4); N iterations per
# implementation (default 300, interleaved in batches of 10), more where
# that takes less than T seconds per implementation (spmv --seconds;
# default 1: a short exchange gets the batches its median needs). RESULTS
# defaults to docs/results/<YYYY-MM-DD>-spmv-HxS-tcp (HxS-shm for one
# host). Several hosts need root (tools/hosts.sh); python3 always.
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/run_facts.sh

command_line="bash tools/sparse.sh${*:+ $*}"
hosts=4
slots=4
iterations=300
seconds=1
results=""
matrices=""
placement=""
for argument in "$@"; do
  case "$argument" in
    --hosts=*) hosts="${argument#--hosts=}" ;;
    --slots=*) slots="${argument#--slots=}" ;;
    --iterations=*) iterations="${argument#--iterations=}" ;;
    --seconds=*) seconds="${argument#--seconds=}" ;;
    --results=*) results="${argument#--results=}" ;;
    --matrices=*) matrices="${argument#--matrices=}" ;;
    --placement=bytes|--placement=messages) placement="${argument#--placement=}" ;;
    *) echo "usage: tools/sparse.sh [--hosts=H] [--slots=S] [--iterations=N]" \
         "[--seconds=T] [--results=DIR] [--matrices=NAME,...]" \
         "[--placement=bytes|messages]" >&2
       exit 2 ;;
  esac
done
[[ "$iterations" =~ ^[1-9][0-9]*$ ]] || {
  echo "sparse.sh: --iterations takes a positive number" >&2
  exit 2; }
[[ "$seconds" =~ ^[0-9]*\.?[0-9]+$ ]] || {
  echo "sparse.sh: --seconds takes a number of seconds" >&2
  exit 2; }
host_layout sparse.sh "$hosts" "$slots"  # sets np and transport
results="${results:-docs/results/$(date -u +%Y-%m-%d)-spmv-${hosts}x$slots-$transport}"
if [[ -z "$matrices" ]]; then
  matrices=$(cd experiments/spmv/data && ls *.mtx | sed 's/\.mtx$//' | paste -sd,)
fi

bazel build -c opt //experiments/spmv:spmv
work="$(mktemp -d /tmp/orthocomm-sparse.XXXXXX)"
trap 'rm -rf "$work"' EXIT
cp bazel-out/k8-opt/bin/experiments/spmv/spmv "$work/"
chmod 755 "$work"

mkdir -p "$results"
{
  run_facts "$command_line"
  if [[ "$hosts" == 1 ]]; then
    echo "hosts: this machine alone, $np processes, btl self,vader"
  else
    echo "hosts: $hosts simulated hosts x $slots slots (tools/hosts.sh), $np processes by slot, btl self,vader,tcp"
  fi
  echo "program: spmv --iterations=$iterations --seconds=$seconds --placement=${placement:-identity}, square matrices --partition=metis"
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)"
} >"$results/run.txt"

# One launch per matrix, inside one set of hosts.
launches="$work/launches.sh"
{
  echo 'source tests/harness/mpirun_flags.sh'
  echo "mpirun_flags $np"
  IFS=, read -ra names <<<"$matrices"
  for name in "${names[@]}"; do
    file="experiments/spmv/data/$name.mtx"
    [[ -f "$file" ]] || { echo "sparse.sh: no $file" >&2; exit 2; }
    rows_columns=$(awk '!/^%/ { print $1, $2; exit }' "$file")
    partition=blocks
    [[ "${rows_columns% *}" == "${rows_columns#* }" ]] && partition=metis
    echo "mpirun \"\${MPIRUN_FLAGS[@]}\" $work/spmv --matrix=$file" \
      "--partition=$partition --placement=${placement:-identity}" \
      "--iterations=$iterations --seconds=$seconds || exit 1"
  done
} >"$launches"
if [[ "$hosts" == 1 ]]; then
  bash "$launches" >"$results/raw.txt"
else
  bash tools/hosts.sh "$hosts" --slots "$slots" --map-by slot -- \
    bash "$launches" >"$results/raw.txt"
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)" \
  >>"$results/run.txt"
if grep -q "result=MISMATCH" "$results/raw.txt"; then
  echo "sparse.sh: a result differs from the serial one (see $results/raw.txt)" >&2
  exit 1
fi

python3 - "$results/raw.txt" >"$results/table.txt" <<'PYTHON'
import shlex
import statistics
import sys

runs = {}      # the by-slot runs: matrix -> variant -> fields
placed = {}    # the placed runs, the same
mappings = {}  # matrix -> the placed run's mapping line
traffic = {}   # matrix -> algorithm -> the by-slot traffic line
for line in open(sys.argv[1]):
    if not line.startswith("spmv "):
        continue
    fields = dict(word.split("=", 1) for word in shlex.split(line)
                  if "=" in word)
    matrix = fields["matrix"].removesuffix(".mtx")
    if line.startswith("spmv mapping "):
        mappings[matrix] = fields
    elif line.startswith("spmv traffic ") and fields["placement"] == "identity":
        traffic.setdefault(matrix, {})[fields["algorithm"]] = fields
    elif line.startswith("spmv variant="):
        into = runs if fields["placement"] == "identity" else placed
        into.setdefault(matrix, {})[fields["variant"]] = fields


def us(run):
    return 1e6 * float(run["seconds_per_iteration"])


def ratio(variants, name, reference):
    """Median over median, with the 10th and 90th percentile of the ratio
    of batches run in the same round (spmv's paired_p10/p90: against Open
    MPI's, `reference` here)."""
    v, r = variants[name], variants[reference]
    return (us(v) / us(r), float(v["paired_p10"]), float(v["paired_p90"]))


def median_ratio(variants, name, reference):
    return us(variants[name]) / us(variants[reference])


def cell(value):
    return f"{value[0]:.2f} ({value[1]:.2f}-{value[2]:.2f})"


forward = ["openmpi-persistent", "raw", "ortho-direct", "ortho-node-aware",
           "ortho-common-neighbours", "ortho-spread-relays", "ortho-mpi",
           "ortho-selected", "ortho-selected-persistent"]
# The forced algorithms the selection is held against (Open MPI's own is 1).
forced = ["ortho-direct", "ortho-node-aware", "ortho-common-neighbours",
          "ortho-spread-relays", "ortho-mpi"]
backward = ["accumulate-raw", "accumulate-direct", "accumulate-node-aware",
            "accumulate-common-neighbours", "accumulate-spread-relays",
            "accumulate-reverse", "accumulate-persistent"]
# The forced algorithms the reverse's selection is held against.
backward_forced = ["accumulate-direct", "accumulate-node-aware",
                   "accumulate-common-neighbours", "accumulate-spread-relays"]
print("| matrix | rows x cols | partition | messages / bytes per process "
      "| Open MPI µs | batches | " + " | ".join(forward)
      + " | sel/best | best forced | selected runs | persistent runs |")
print("| --- | --- | --- | ---: | ---: | ---: | " + " | ".join("---:" for _ in forward)
      + " | ---: | --- | --- | --- |")
summary = {name: [] for name in forward + backward
           + ["sel/best", "reverse sel/best", "reverse/forward"]}
for matrix, v in runs.items():
    o = v["openmpi"]
    ratios = {name: ratio(v, name, "openmpi") for name in forward if name in v}
    best, best_name = min([(1.0, "openmpi")] + [(ratios[n][0], n)
                                                for n in forced if n in ratios])
    sel_best = ratios["ortho-selected"][0] / best
    for name in ratios:
        summary[name].append(ratios[name][0])
    summary["sel/best"].append(sel_best)
    print(f"| {matrix} | {o['rows']} x {o['columns']} | {o['partition']} "
          f"| {o['messages']} / {o['bytes']} | {us(o):.1f} | {o['batches']} | "
          + " | ".join(cell(ratios[n]) if n in ratios else "-"
                       for n in forward)
          + f" | {sel_best:.2f} | {best_name} "
          + f"| {v['ortho-selected'].get('ran', '-')} "
          + f"| {v['ortho-selected-persistent'].get('ran', '-')} |")
print()
print("| matrix | Open MPI transposed µs | " + " | ".join(backward)
      + " | sel/best | best forced | reverse / forward | selected "
      "| selected persistent | reverse runs |")
print("| --- | ---: | " + " | ".join("---:" for _ in backward)
      + " | ---: | --- | ---: | ---: | ---: | --- |")
for name in ["reverse/forward selected", "reverse/forward persistent"]:
    summary[name] = []
for matrix, v in runs.items():
    ratios = {name: ratio(v, name, "accumulate-openmpi") for name in backward
              if name in v}
    for name in ratios:
        summary[name].append(ratios[name][0])
    best, best_name = min([(1.0, "accumulate-openmpi")]
                          + [(ratios[n][0], n) for n in backward_forced
                             if n in ratios])
    reverse_sel_best = ratios["accumulate-reverse"][0] / best
    summary["reverse sel/best"].append(reverse_sel_best)
    # Each direction over its own floor (the local work of an iteration
    # differs between the directions): the reverse's selection (blocking)
    # against ortho-direct forward, against the forward selection, and
    # persistent against persistent.
    reverse = median_ratio(v, "accumulate-reverse", "accumulate-raw")
    persistent = median_ratio(v, "accumulate-persistent", "accumulate-raw")
    turned = reverse / median_ratio(v, "ortho-direct", "raw")
    selected = reverse / median_ratio(v, "ortho-selected", "raw")
    both_persistent = persistent / median_ratio(
        v, "ortho-selected-persistent", "raw")
    summary["reverse/forward"].append(turned)
    summary["reverse/forward selected"].append(selected)
    summary["reverse/forward persistent"].append(both_persistent)
    print(f"| {matrix} | {us(v['accumulate-openmpi']):.1f} | "
          + " | ".join(cell(ratios[n]) if n in ratios else "-"
                       for n in backward)
          + f" | {reverse_sel_best:.2f} | {best_name} "
          + f"| {turned:.2f} | {selected:.2f} | {both_persistent:.2f} "
          + f"| {v['accumulate-reverse'].get('ran', '-')} |")
print()
print("Ratios: time per iteration over Open MPI's (MPI_Neighbor_alltoallv; "
      "for the accumulate, on a second communicator with the lists swapped), "
      "below 1 is faster; the median over batches of 10 iterations (batches: "
      "how many each implementation ran, interleaved), in brackets the 10th "
      "and 90th percentile of the ratio of two batches run in the same "
      "round. raw: the same "
      "messages posted by hand (the floor). sel/best: ortho-selected over "
      "the fastest of Open MPI and ortho's forced algorithms (direct, "
      "node-aware, common-neighbours, spread-relays, mpi: Open MPI's call "
      "through ortho), named in best forced; for the accumulate, "
      "accumulate-reverse over the fastest of accumulate-openmpi and the "
      "reverse with each algorithm forced (accumulate-direct, ...); "
      "selected runs: what the blocking selection runs and why "
      "(ortho::explain after its first calls, which tune it); persistent "
      "runs: the same for the persistent request, at the largest block any "
      "process sends (the size its processes agree on). "
      "reverse / forward: "
      "ortho::reverse's accumulate against the forward exchange on the same "
      "graph, each over its own floor (accumulate-reverse / "
      "accumulate-raw over ortho-direct / raw: an iteration's local work "
      "differs between the directions); selected: the same against the "
      "forward selection (over ortho-selected / raw), selected persistent: "
      "accumulate-persistent against ortho-selected-persistent, likewise; "
      "the goal, >= 0.97 of the forward speed, is <= 1.03 here; reverse "
      "runs: what the blocking reverse runs and why. An iteration is the exchange and the local "
      "product; ortho-selected's tuning runs in untimed first iterations.")
if traffic:
    print()
    algorithms = ["direct", "node_aware", "common_neighbours", "spread_relays"]
    print("| matrix | " + " | ".join(algorithms) + " |")
    print("| --- | " + " | ".join("---:" for _ in algorithms) + " |")
    for matrix, t in traffic.items():
        print(f"| {matrix} | " + " | ".join(
            f"{t[a]['messages']} / {t[a]['rounds']} / "
            f"{t[a]['messages_between_hosts']} / "
            f"{t[a]['messages_between_hosts_total']}" if a in t else "-"
            for a in algorithms) + " |")
    print()
    print("What each of ortho's algorithms sends per blocking alltoallv "
          "(ortho::traffic, by slot): the busiest process's messages / its "
          "rounds / its messages to other hosts / the messages between "
          "hosts of all processes together, each with how the "
          "algorithm learns the blocks' sizes (node_aware, spread_relays and "
          "common_neighbours: inside the messages to and between the "
          "relays, 8 bytes a block).")

if placed:
    print()
    names = ["openmpi", "raw", "ortho-selected-persistent",
             "accumulate-openmpi", "accumulate-persistent"]
    print("| matrix | placement | messages between hosts | bytes between hosts "
          "| " + " | ".join(names) + " |")
    print("| --- | --- | ---: | ---: | " + " | ".join("---:" for _ in names)
          + " |")
    for name in names:
        summary["placed " + name] = []
    summary["placed bytes between hosts"] = []
    for matrix, v in placed.items():
        m = mappings[matrix]
        cells = []
        for name in names:
            r = (us(v[name]) / us(runs[matrix][name]),
                 float(v[name]["paired_p10"]), float(v[name]["paired_p90"]))
            summary["placed " + name].append(r[0])
            cells.append(cell(r))
        bytes_ratio = (int(m["bytes_between_hosts"])
                       / max(1, int(m["identity_bytes_between_hosts"])))
        summary["placed bytes between hosts"].append(bytes_ratio)
        print(f"| {matrix} | {m['placement']} ({m['kept_because']}) "
              f"| {m['identity_messages_between_hosts']} -> "
              f"{m['messages_between_hosts']} "
              f"| {m['identity_bytes_between_hosts']} -> "
              f"{m['bytes_between_hosts']} | " + " | ".join(cells) + " |")
    print()
    print("Placement: the parts placed on the hosts by Reorder::yes "
          f"(spmv --placement={next(iter(placed.values()))['openmpi']['placement']}) "
          "against the same program by slot (part q on rank q). Messages and "
          "bytes: one forward exchange, all processes together, by slot -> "
          "placed. Times: each implementation placed over the same one by "
          "slot in the same launch, interleaved, below 1 is faster; in "
          "brackets the 10th and 90th percentile of the ratio of two "
          "batches run in the same round.")

print()
print("Medians over the matrices (least-greatest):")
print()
for name, values in summary.items():
    if values:
        print(f"- {name}: {statistics.median(values):.2f} "
              f"({min(values):.2f}-{max(values):.2f})")
PYTHON
cat "$results/table.txt"
