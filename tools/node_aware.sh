#!/usr/bin/env bash
# Node-aware collectives measured: experiments/node_aware_benchmark (built
# with -c opt) on simulated hosts (tools/hosts.sh: shared memory within a
# host, TCP over veth between hosts), ranks round-robin over the hosts
# (mpirun --map-by node: rank r on host r mod H). Writes
# RESULTS/run.txt (what ran where), RESULTS/raw.txt (the program's output)
# and RESULTS/table.txt: per operation, stencil and block size, Open MPI's
# time per call and every variant's ratio to it (time over Open MPI's: below
# 1 is faster), the selection against the fastest forced algorithm (blocking
# and persistent, each against its mode), and the
# most messages between hosts any process sends per call, direct against
# node_aware.
#
#   tools/node_aware.sh [--hosts=H] [--slots=S] [--results=DIR]
#                       [BENCHMARK FLAGS...]
#
# H hosts (default 4) x S slots (default 4). RESULTS defaults to
# docs/results/<YYYY-MM-DD>-node-aware-HxS-tcp. Needs root (tools/hosts.sh)
# and python3. With ORTHOCOMM_BUILD_LOCK set, the build runs under flock on
# that file. The measured binary is a copy, so builds during the run change
# nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/run_facts.sh

command_line="bash tools/node_aware.sh${*:+ $*}"
hosts=4
slots=4
results=""
flags=()
for argument in "$@"; do
  case "$argument" in
    --hosts=*) hosts="${argument#--hosts=}" ;;
    --slots=*) slots="${argument#--slots=}" ;;
    --results=*) results="${argument#--results=}" ;;
    --benchmark_*) flags+=("$argument") ;;
    *) echo "usage: tools/node_aware.sh [--hosts=H] [--slots=S]" \
         "[--results=DIR] [--benchmark_...]" >&2
       exit 2 ;;
  esac
done
for value in "$hosts" "$slots"; do
  [[ "$value" =~ ^[1-9][0-9]*$ ]] || {
    echo "node_aware.sh: --hosts and --slots take positive numbers" >&2
    exit 2; }
done
if [[ "$(id -u)" != 0 ]]; then
  echo "node_aware.sh: needs root (tools/hosts.sh: network namespaces)" >&2
  exit 2
fi
np=$((hosts * slots))
results="${results:-docs/results/$(date -u +%Y-%m-%d)-node-aware-${hosts}x$slots-tcp}"

build=(bazel build -c opt //experiments:node_aware_benchmark)
if [[ -n "${ORTHOCOMM_BUILD_LOCK:-}" ]]; then
  build=(flock -o "$ORTHOCOMM_BUILD_LOCK" "${build[@]}")
fi
work="$(mktemp -d /tmp/orthocomm-node-aware.XXXXXX)"
trap 'rm -rf "$work"' EXIT
"${build[@]}"
cp bazel-out/k8-opt/bin/experiments/node_aware_benchmark "$work/"
chmod 755 "$work"

mkdir -p "$results"
{
  run_facts "$command_line"
  echo "hosts: $hosts simulated hosts x $slots slots (tools/hosts.sh), $np processes round-robin over the hosts (--map-by node), btl self,vader,tcp"
  echo "program: node_aware_benchmark ${flags[*]}"
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)"
} >"$results/run.txt"

bash tools/hosts.sh "$hosts" --slots "$slots" --map-by node -- bash -c '
  source tests/harness/mpirun_flags.sh
  mpirun_flags "$1"
  shift
  mpirun "${MPIRUN_FLAGS[@]}" "$@"' _ "$np" "$work/node_aware_benchmark" \
  "${flags[@]}" | sed 's/\x1b\[[0-9;]*m//g' >"$results/raw.txt"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)" \
  >>"$results/run.txt"

python3 - "$results/raw.txt" >"$results/table.txt" <<'PYTHON'
import re
import sys

variants = ["openmpi_persistent", "direct", "direct_persistent", "combining",
            "combining_persistent", "node_aware", "node_aware_persistent",
            "mpi", "mpi_persistent", "selected", "selected_persistent", "raw"]


SUFFIXES = {"k": 1e3, "M": 1e6, "G": 1e9, "m": 1e-3, "u": 1e-6, "n": 1e-9}


def value(text):
    """A counter as Google Benchmark's console prints it (1.5k, 250m)."""
    if text[-1] in SUFFIXES:
        return float(text[:-1]) * SUFFIXES[text[-1]]
    return float(text)


# The forced algorithms, by their ratio counters (mpi: Open MPI's call
# behind ortho's dispatch, the `mpi` algorithm forced).
forced = {"direct": "direct", "combining": "combining",
          "node_aware": "node_aware", "mpi": "mpi"}
# The same, persistent.
forced_persistent = {"direct_persistent": "direct",
                     "combining_persistent": "combining",
                     "node_aware_persistent": "node_aware",
                     "mpi_persistent": "mpi"}

print("| operation | stencil | block | Open MPI µs | "
      + " | ".join(variants) + " | sel/best | best forced"
      + " | sel pers/best | selected runs | persistent runs"
      + " | choice/best | pers choice/best"
      + " | between hosts: direct / node_aware |")
print("| --- | --- | ---: | ---: | " + " | ".join("---:" for _ in variants)
      + " | ---: | --- | ---: | --- | --- | ---: | ---: | ---: |")


def choice_over_best(f, forced, algorithm, best):
    """The forced time of `algorithm` over the fastest forced time `best`,
    where ortho ran it forced in this run (forced: ratio counter -> name)."""
    counter = {name: v for v, name in forced.items()}.get(algorithm)
    if counter is None or counter + "_ratio" not in f:
        return "-"
    return f"{f[counter + '_ratio'] / best:.2f}"


def cell(f, variant):
    return f"{f[variant + '_ratio']:.2f}" if variant + "_ratio" in f else "-"


for line in open(sys.argv[1]):
    if not line.startswith("BM_NodeAware/"):
        continue
    name = line.split()[0].split("/")
    operation, stencil = name[1].split("_")
    block = int(name[2]) * 4
    f = {k: value(v)
         for k, v in re.findall(r"(\w+)=([\d.]+[kMGmun]?)", line)}
    best_ratio, best = min((f[v + "_ratio"], name)
                           for v, name in forced.items() if v + "_ratio" in f)
    persistent_best = min(f[v + "_ratio"] for v in forced_persistent
                          if v + "_ratio" in f)
    ran = re.search(r"selected=(\w+)", line)
    ran_persistent = re.search(r"selected_persistent=(\w+)", line)
    print(f"| {operation} | {stencil} Moore | {block} B "
          f"| {f['openmpi_us']:.0f} | "
          + " | ".join(cell(f, v) for v in variants)
          + f" | {f['selected_ratio'] / best_ratio:.2f} | {best}"
          + f" | {f['selected_persistent_ratio'] / persistent_best:.2f}"
          + f" | {ran.group(1) if ran else '-'}"
          + f" | {ran_persistent.group(1) if ran_persistent else '-'}"
          + " | " + (choice_over_best(f, forced, ran.group(1), best_ratio)
                     if ran else "-")
          + " | " + (choice_over_best(f, forced_persistent,
                                      ran_persistent.group(1),
                                      persistent_best)
                     if ran_persistent else "-")
          + f" | {f['direct_between']:.0f} / {f['node_aware_between']:.0f} |")
print()
print("Ratios: time over Open MPI's MPI_Neighbor_* (below 1 is faster); raw "
      "is the hand-posted floor of direct's messages; mpi is Open MPI's "
      "call behind ortho's dispatch (the mpi algorithm forced); sel/best is "
      "the selection's time over the fastest forced algorithm's (direct, "
      "combining, node_aware, mpi): 1.00 is the best, above 1 the selection "
      "lost; the goal <= 1.03; sel pers/best is the persistent selection's "
      "over the fastest forced persistent request (the same algorithms, "
      "persistent); selected runs, persistent runs: what the blocking and "
      "the persistent selection run at that size "
      "(ortho::selected_algorithm, after their tuning; the program's labels "
      "give ortho::explain's reasons); choice/best, pers choice/best: the "
      "forced time, in this run, of the algorithm the selection runs over "
      "the fastest forced time of its mode, which judges the choice alone "
      "(sel/best also holds the difference between two communicators "
      "running one algorithm).")
PYTHON
cat "$results/table.txt"
