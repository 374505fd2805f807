#!/usr/bin/env bash
# Process mapping's traffic between hosts against its bound, over simulated
# hosts: experiments/mapping_traffic (2-d and 3-d Moore and von Neumann
# tori over all processes, made with Reorder::yes) on 2, 4 and 8 hosts x 2,
# 4 and 8 slots (tools/hosts.sh), each started by slot (blocks of ranks per
# host) and by node (round-robin). Writes RESULTS/run.txt (what ran where),
# RESULTS/raw/HOSTSxSLOTS-PLACEMENT.txt (each launch's output) and
# RESULTS/table.txt: per grid, stencil and start, the directed edges between
# hosts before mapping (identity), at the best axis-aligned block partition
# (best: the bound) and after mapping, and whether the bound is met. Exit
# status 1 where a launch fails or a bound is missed.
#
#   tools/mapping_traffic.sh [--results=DIR]
#
# RESULTS defaults to docs/results/<YYYY-MM-DD>-mapping-traffic. Needs root
# (tools/hosts.sh). With ORTHOCOMM_BUILD_LOCK set, the build runs under
# flock on that file.
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/run_facts.sh
host_counts=(2 4 8)
slot_counts=(2 4 8)
placements=(slot node)

# Inside tools/hosts.sh: one launch per placement.
if [[ -n "${ORTHOCOMM_TRAFFIC_RUN:-}" ]]; then
  read -r binary output_prefix np <<<"$ORTHOCOMM_TRAFFIC_RUN"
  source tests/harness/mpirun_flags.sh
  for placement in "${placements[@]}"; do
    output="$output_prefix-$placement.txt"
    ORTHOCOMM_MAP_BY="$placement" mpirun_flags "$np"
    if ! ORTHOCOMM_MAP_BY="$placement" mpirun "${MPIRUN_FLAGS[@]}" \
        "$binary" >"$output" 2>&1; then
      echo "mapping_traffic.sh: FAILED by $placement (see $output)" >&2
      exit 1
    fi
  done
  exit 0
fi

command_line="bash tools/mapping_traffic.sh${*:+ $*}"
results=""
for argument in "$@"; do
  case "$argument" in
    --results=*) results="${argument#--results=}" ;;
    *) echo "usage: tools/mapping_traffic.sh [--results=DIR]" >&2; exit 2 ;;
  esac
done
if [[ "$(id -u)" != 0 ]]; then
  echo "mapping_traffic.sh: needs root (tools/hosts.sh: network namespaces)" >&2
  exit 2
fi
results="${results:-docs/results/$(date -u +%Y-%m-%d)-mapping-traffic}"

build=(bazel build //experiments:mapping_traffic)
if [[ -n "${ORTHOCOMM_BUILD_LOCK:-}" ]]; then
  build=(flock -o "$ORTHOCOMM_BUILD_LOCK" "${build[@]}")
fi
work="$(mktemp -d /tmp/orthocomm-traffic.XXXXXX)"
trap 'rm -rf "$work"' EXIT
"${build[@]}"
cp bazel-out/k8-fastbuild/bin/experiments/mapping_traffic "$work/"
chmod 755 "$work"

mkdir -p "$results/raw"
rm -f "$results"/raw/*.txt
{
  run_facts "$command_line"
  echo "hosts: ${host_counts[*]} simulated hosts x ${slot_counts[*]} slots (tools/hosts.sh), placed by ${placements[*]}"
  echo "program: experiments/mapping_traffic (creation only: nothing timed)"
} >"$results/run.txt"

for hosts in "${host_counts[@]}"; do
  for slots in "${slot_counts[@]}"; do
    np=$((hosts * slots))
    echo "mapping_traffic.sh: $hosts hosts x $slots slots"
    ORTHOCOMM_TRAFFIC_RUN="$work/mapping_traffic $results/raw/${hosts}x$slots $np" \
      bash tools/hosts.sh "$hosts" --slots "$slots" -- \
      bash tools/mapping_traffic.sh >/dev/null
  done
done

python3 - "$results" "${host_counts[*]}" "${slot_counts[*]}" \
  "${placements[*]}" >"$results/table.txt" <<'PYTHON'
import re
import sys

results, hosts, slots, placements = sys.argv[1:5]
missed = 0
print("| hosts x slots | grid | stencil | start | identity | best (bound) "
      "| mapped | bound met |")
print("| --- | --- | --- | --- | --- | --- | --- | --- |")
for h in hosts.split():
    for s in slots.split():
        for p in placements.split():
            path = f"{results}/raw/{h}x{s}-{p}.txt"
            for line in open(path):
                if not line.startswith("grid="):
                    continue
                f = dict(re.findall(r"([a-z_]+)=([^ \n]*)", line))
                missed += f["meets_bound"] == "NO"
                print(f"| {h} x {s} | {f['grid']} | {f['stencil']} | {p} "
                      f"| {f.get('identity_edges', '-')} "
                      f"| {f.get('best_edges', '-')} | {f['mapped_edges']} "
                      f"| {f['meets_bound']} |")
print()
print("Directed edges between hosts (unweighted: one per edge).")
print(f"Bounds missed: {missed}")
sys.exit(1 if missed else 0)
PYTHON
cat "$results/table.txt"
