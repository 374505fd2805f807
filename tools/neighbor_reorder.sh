#!/usr/bin/env bash
# Process mapping and the neighbour alltoall: experiments/neighbor_benchmark
# (-c opt) on 4 simulated hosts x 4 slots (a 4 x 4 torus; shared memory
# within a host, TCP between hosts), placed by slot and by node, each
# without and with --reorder (classic's grid made with Reorder::yes: each
# host a 2 x 2 block). Writes RESULTS/run.txt, RESULTS/raw/PLACEMENT-REORDER.csv
# (Google Benchmark's CSV) and RESULTS/table.txt: per stencil, form and
# block, classic's median time per call in each of the four runs, and the
# ratios mapped / default and mapped / round-robin (the mapped grid's time
# over the unmapped one's: below 1 the mapping is faster); Open MPI's time
# (its communicators made with reorder = 1, which its topology component
# does not act on) is the control.
#
#   tools/neighbor_reorder.sh [--results=DIR] [BENCHMARK FLAGS...]
#
# RESULTS defaults to docs/results/<YYYY-MM-DD>-neighbor-reorder-4x4-tcp.
# Needs root (tools/hosts.sh) and python3; ORTHOCOMM_BUILD_LOCK as in
# tools/mapping.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/run_facts.sh
hosts=4
slots=4
np=$((hosts * slots))

if [[ -n "${ORTHOCOMM_NEIGHBOR_RUN:-}" ]]; then
  read -r binary results <<<"$ORTHOCOMM_NEIGHBOR_RUN"
  source tests/harness/mpirun_flags.sh
  for placement in slot node; do
    for reorder in no yes; do
      flags=()
      [[ "$reorder" == yes ]] && flags=(--reorder)
      echo "neighbor_reorder.sh: by $placement, reorder $reorder" >&2
      ORTHOCOMM_MAP_BY="$placement" mpirun_flags "$np"
      ORTHOCOMM_MAP_BY="$placement" mpirun "${MPIRUN_FLAGS[@]}" "$binary" \
        "${flags[@]}" --benchmark_format=csv "$@" \
        >"$results/raw/$placement-$reorder.csv"
    done
  done
  exit 0
fi

command_line="bash tools/neighbor_reorder.sh${*:+ $*}"
results=""
flags=()
for argument in "$@"; do
  case "$argument" in
    --results=*) results="${argument#--results=}" ;;
    --benchmark_*) flags+=("$argument") ;;
    *) echo "usage: tools/neighbor_reorder.sh [--results=DIR] [--benchmark_...]" >&2
       exit 2 ;;
  esac
done
if [[ "$(id -u)" != 0 ]]; then
  echo "neighbor_reorder.sh: needs root (tools/hosts.sh)" >&2
  exit 2
fi
results="${results:-docs/results/$(date -u +%Y-%m-%d)-neighbor-reorder-4x4-tcp}"
build=(bazel build -c opt //experiments:neighbor_benchmark)
if [[ -n "${ORTHOCOMM_BUILD_LOCK:-}" ]]; then
  build=(flock -o "$ORTHOCOMM_BUILD_LOCK" "${build[@]}")
fi
work="$(mktemp -d /tmp/orthocomm-neighbor.XXXXXX)"
trap 'rm -rf "$work"' EXIT
"${build[@]}"
cp bazel-out/k8-opt/bin/experiments/neighbor_benchmark "$work/"
chmod 755 "$work"
mkdir -p "$results/raw"
rm -f "$results"/raw/*.csv
{
  run_facts "$command_line"
  echo "hosts: $hosts simulated hosts x $slots slots (tools/hosts.sh), $np processes, btl self,vader,tcp"
  echo "program: neighbor_benchmark [--reorder] ${flags[*]}"
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)"
} >"$results/run.txt"
ORTHOCOMM_NEIGHBOR_RUN="$work/neighbor_benchmark $results" \
  bash tools/hosts.sh "$hosts" --slots "$slots" -- \
  bash tools/neighbor_reorder.sh "${flags[@]}"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)" \
  >>"$results/run.txt"

python3 - "$results" >"$results/table.txt" <<'PYTHON'
import csv
import sys

results = sys.argv[1]
runs = {}
for placement in ("slot", "node"):
    for reorder in ("no", "yes"):
        rows = {}
        with open(f"{results}/raw/{placement}-{reorder}.csv") as f:
            lines = [l for l in f if l.startswith("name,") or l.startswith('"BM_')]
        for row in csv.DictReader(lines):
            if not row["name"].endswith("_median"):
                continue
            parts = row["name"].split("/")
            key = (parts[1], int(parts[2]) * 8)
            rows[key] = (float(row["classic_us"]), float(row["openmpi_us"]))
        runs[(placement, reorder)] = rows
print("| stencil | block | by slot | by slot, mapped | by node | by node, mapped "
      "| mapped / default | mapped / round-robin | Open MPI (control): slot, node |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
for key in sorted(runs[("slot", "no")]):
    t = {k: runs[k][key] for k in runs}
    print(f"| {key[0]} | {key[1]} B | {t[('slot','no')][0]:.0f} "
          f"| {t[('slot','yes')][0]:.0f} | {t[('node','no')][0]:.0f} "
          f"| {t[('node','yes')][0]:.0f} "
          f"| {t[('slot','yes')][0] / t[('slot','no')][0]:.2f} "
          f"| {t[('node','yes')][0] / t[('node','no')][0]:.2f} "
          f"| {t[('slot','no')][1]:.0f}, {t[('node','no')][1]:.0f} |")
print()
print("classic's median µs per call (5 repetitions of 50 batches); "
      "ratios: the mapped grid's time over the unmapped one's, below 1 the "
      "mapped grid is faster.")
PYTHON
cat "$results/table.txt"
