#!/usr/bin/env bash
# Process mapping measured: experiments/jacobi (built with -c opt) on 4
# simulated hosts x 4 slots (tools/hosts.sh: 16 processes, a 4 x 4 process
# grid, shared memory within a host, TCP over veth between hosts), placed
# by slot (Open MPI's default: each host a row of the grid) and by node
# (round-robin: each host a column), each without and with --reorder
# (ortho's graph made with Reorder::yes, ortho/mapping.h), the four in
# rotated order in each of several launches. Writes RESULTS/run.txt (what
# ran where), RESULTS/raw/PLACEMENT-REORDER-L.txt (each program output) and
# RESULTS/table.txt: time per iteration and per halo exchange of ortho's
# alltoallw (median over launches, min-max), the traffic between hosts from
# ortho::mapping_report (edges, bytes), the ratios mapped / default and
# mapped / round-robin (the mapped run's time over the unmapped one's: below
# 1 the mapping is faster), paired launch by launch; Open MPI's
# MPI_Neighbor_alltoallw (never reordered) runs beside it as the control.
#
#   tools/mapping.sh [--launches=N] [--n=N] [--iterations=K]
#                    [--results=DIR]
#
# N launches (default 5), an N x N matrix (default 256, a multiple of 4:
# equal blocks), K iterations (default 500). RESULTS defaults to
# docs/results/<YYYY-MM-DD>-mapping-4x4-tcp. Needs root (tools/hosts.sh)
# and python3. With ORTHOCOMM_BUILD_LOCK set, the build runs under
# flock on that file. The measured binary is a copy, so builds during the
# run change nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/run_facts.sh
hosts=4
slots=4
np=$((hosts * slots))
placements=(slot node)
reorders=(no yes)
variants=openmpi,ortho-selected

# Inside tools/hosts.sh: the launches, into the raw folder.
if [[ -n "${ORTHOCOMM_MAPPING_RUN:-}" ]]; then
  read -r binary results launches n iterations <<<"$ORTHOCOMM_MAPPING_RUN"
  source tests/harness/mpirun_flags.sh
  job_dir="$(mktemp -d)"
  trap 'rm -rf "$job_dir"' EXIT
  configs=()
  for placement in "${placements[@]}"; do
    for reorder in "${reorders[@]}"; do configs+=("$placement-$reorder"); done
  done
  for ((launch = 1; launch <= launches; ++launch)); do
    for ((k = 0; k < ${#configs[@]}; ++k)); do
      config="${configs[$(((k + launch - 1) % ${#configs[@]}))]}"
      placement="${config%-*}"
      flags=()
      [[ "${config#*-}" == yes ]] && flags=(--reorder)
      output="$results/raw/$config-$launch.txt"
      printf 'launch %d/%d: by %s, reorder %s ...' "$launch" "$launches" \
        "$placement" "${config#*-}"
      ORTHOCOMM_MAP_BY="$placement" mpirun_flags "$np" "$job_dir" \
        "$(load_scaled_seconds 600)"
      status=0
      ORTHOCOMM_MAP_BY="$placement" mpirun "${MPIRUN_FLAGS[@]}" "$binary" \
        --n="$n" --iterations="$iterations" --tolerance=0 --batch=10 \
        --variant="$variants" "${flags[@]}" >"$output" 2>&1 || status=$?
      if [[ $status -ne 0 ]] || grep -q "result=MISMATCH" "$output" ||
          ! grep -q "^jacobi mapping " "$output"; then
        echo " FAILED (exit $status; see $output)"
        # Where each rank waited (the programs' no-progress watchdog).
        grep -h "^watchdog: " "$output" | sed 's/^/  /' || true
        exit 1
      fi
      echo " done"
    done
  done
  exit 0
fi

command_line="bash tools/mapping.sh${*:+ $*}"
launches=5
n=256
iterations=500
results=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --launches=*) launches="${1#--launches=}" ;;
    --n=*) n="${1#--n=}" ;;
    --iterations=*) iterations="${1#--iterations=}" ;;
    --results=*) results="${1#--results=}" ;;
    *) echo "usage: tools/mapping.sh [--launches=N] [--n=N]" \
         "[--iterations=K] [--results=DIR]" >&2
       exit 2 ;;
  esac
  shift
done
for value in "$launches" "$n" "$iterations"; do
  [[ "$value" =~ ^[1-9][0-9]*$ ]] || {
    echo "mapping.sh: --launches, --n and --iterations take positive numbers" >&2
    exit 2; }
done
if [[ "$(id -u)" != 0 ]]; then
  echo "mapping.sh: needs root (tools/hosts.sh: network namespaces)" >&2
  exit 2
fi
results="${results:-docs/results/$(date -u +%Y-%m-%d)-mapping-4x4-tcp}"

build=(bazel build -c opt //experiments/jacobi)
if [[ -n "${ORTHOCOMM_BUILD_LOCK:-}" ]]; then
  build=(flock -o "$ORTHOCOMM_BUILD_LOCK" "${build[@]}")
fi
# The copy is taken under the lock too: the binary that was built.
work="$(mktemp -d /tmp/orthocomm-mapping.XXXXXX)"
trap 'rm -rf "$work"' EXIT
"${build[@]}"
cp bazel-out/k8-opt/bin/experiments/jacobi/jacobi "$work/jacobi"
chmod 755 "$work"

mkdir -p "$results/raw"
rm -f "$results"/raw/*.txt
{
  run_facts "$command_line"
  echo "hosts: $hosts simulated hosts x $slots slots (tools/hosts.sh), $np processes, btl self,vader,tcp"
  echo "program: jacobi --n=$n --iterations=$iterations --tolerance=0 --batch=10 --variant=$variants [--reorder]"
  echo "launches: $launches, each running the four placements in rotated order"
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)"
} >"$results/run.txt"

ORTHOCOMM_MAPPING_RUN="$work/jacobi $results $launches $n $iterations" \
  bash tools/hosts.sh "$hosts" --slots "$slots" -- bash tools/mapping.sh
# "before" shows other work on the machine; "after" includes the runs'
# own 16 processes, which yield their core rather than sleep.
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)" \
  >>"$results/run.txt"

python3 - "$results" "$launches" >"$results/table.txt" <<'EOF'
import re
import statistics
import sys

results, launches = sys.argv[1], int(sys.argv[2])
placements = ["slot", "node"]
names = {"slot": "by slot (default)", "node": "by node (round-robin)"}


def fields(line):
    return dict(re.findall(r'([A-Za-z_]+)=("[^"]*"|[^ ]*)', line))


runs = {}  # (placement, reorder) -> list over launches
for placement in placements:
    for reorder in ["no", "yes"]:
        runs[placement, reorder] = []
        for launch in range(1, launches + 1):
            path = f"{results}/raw/{placement}-{reorder}-{launch}.txt"
            run = {}
            with open(path) as text:
                for line in text.read().splitlines():
                    if line.startswith("jacobi mapping "):
                        run["mapping"] = fields(line)
                    elif line.startswith("jacobi variant="):
                        f = fields(line)
                        if f["variant"] != "serial":
                            run[f["variant"]] = f
            runs[placement, reorder].append(run)


def us(values):
    values = [1e6 * v for v in values]
    return (f"{statistics.median(values):8.1f} "
            f"({min(values):.1f}-{max(values):.1f})")


def times(placement, reorder, variant, key="seconds_per_iteration"):
    return [float(run[variant][key]) for run in runs[placement, reorder]]


mapping = {key: value[0]["mapping"] for key, value in runs.items()}
for key, value in runs.items():
    for run in value:
        assert run["mapping"] == mapping[key], f"mapping differs in {key}"

print("Traffic between hosts of ortho's graph, one halo exchange "
      "(ortho::mapping_report;")
print("edge weights = bytes; identity = the placement's own order, "
      "best = best axis-aligned blocks)")
print()
print(f"{'placement':<22} {'reorder':<8} {'mapped':<7} {'edges':>6} "
      f"{'bytes':>7} {'max/host':>9} {'identity':>15} {'best':>15}")
for (placement, reorder), m in mapping.items():
    identity = (f"{m['identity_edges']} e {m['identity_weight']} B"
                if "identity_edges" in m else "-")
    best = (f"{m['best_edges']} e {m['best_weight']} B"
            if "best_edges" in m else "-")
    print(f"{names[placement]:<22} {reorder:<8} {m['mapped']:<7} "
          f"{m['edges']:>6} {m['weight']:>7} {m['max_host_weight']:>9} "
          f"{identity:>15} {best:>15}")
print()
print("Time per iteration in microseconds: median over launches "
      "(min-max); each launch's")
print("figure is the median over its batches of the slowest process")
print()
print(f"{'placement':<22} {'reorder':<8} {'ortho-selected':>24} "
      f"{'its exchange':>24} {'openmpi (control)':>24}")
for placement, reorder in runs:
    print(f"{names[placement]:<22} {reorder:<8} "
          f"{us(times(placement, reorder, 'ortho-selected')):>24} "
          f"{us(times(placement, reorder, 'ortho-selected', 'exchange_seconds')):>24} "
          f"{us(times(placement, reorder, 'openmpi')):>24}")
print()
print("Ratio of the mapping (ortho-selected): the mapped run's time over the "
      "unmapped one's,")
print("below 1 the mapping is faster; launch by launch: median (min-max)")
print()


def ratio(base, mapped, key="seconds_per_iteration", variant="ortho-selected"):
    pairs = [m / b for b, m in zip(times(*base, variant, key),
                                   times(*mapped, variant, key))]
    return (f"{statistics.median(pairs):.2f} "
            f"({min(pairs):.2f}-{max(pairs):.2f})")


rows = [
    ("mapped / default", ("slot", "no"), ("slot", "yes"), "goal <= 0.77"),
    ("mapped / round-robin", ("node", "no"), ("node", "yes"), "goal <= 0.50"),
]
def normalised(base, mapped):
    def against_control(config):
        return [o / c for o, c in zip(times(*config, "ortho-selected"),
                                      times(*config, "openmpi"))]
    pairs = [m / b for b, m in zip(against_control(base),
                                   against_control(mapped))]
    return (f"{statistics.median(pairs):.2f} "
            f"({min(pairs):.2f}-{max(pairs):.2f})")


print(f"{'ratio':<22} {'per iteration':>18} {'per exchange':>18} "
      f"{'openmpi (control)':>18} {'normalised':>18}  goal")
for name, base, mapped, goal in rows:
    print(f"{name:<22} {ratio(base, mapped):>18} "
          f"{ratio(base, mapped, 'exchange_seconds'):>18} "
          f"{ratio(base, mapped, variant='openmpi'):>18} "
          f"{normalised(base, mapped):>18}  {goal}")
print()
print("openmpi (control): the same pairs of runs for Open MPI's variant, "
      "which is never")
print("reordered (its placement is the same in both): what the noise alone "
      "gives.")
print("normalised: per iteration, each run's ortho time over its own "
      "openmpi time first")
print("(they ran interleaved in one launch), so that launch-to-launch noise "
      "cancels.")
EOF
cat "$results/run.txt" "$results/table.txt"
