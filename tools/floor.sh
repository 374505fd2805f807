#!/usr/bin/env bash
# The floor of ortho's neighbourhood collectives: experiments/
# combining_benchmark (built with -c opt) on the 2-d and 3-d Moore stencils,
# allgather and alltoall, every block size, several launches; writes
# RESULTS/run.txt (what ran where), RESULTS/raw/launch-N.csv and
# RESULTS/table.txt (tools/floor_table.py: ortho's time over that of the
# same messages posted by hand and over Open MPI's, with the spread over
# launches).
#
#   tools/floor.sh [--np=P] [--launches=N] [--transport=shm|tcp]
#                  [--results=DIR] [-- BENCHMARK FLAGS...]
#
# P defaults to 4, N to 3; shm is shared memory (btl self,vader), tcp TCP
# over loopback (btl tcp,self). Flags after -- go to combining_benchmark
# (e.g. --started_bytes=0). Add the folder to docs/results/ and run
# tools/performance_doc.sh to publish it. Needs python3 for the table.
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/run_facts.sh
command_line="bash tools/floor.sh $*"
np=4
launches=3
transport=shm
results=""
extra=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --np=*) np="${1#--np=}" ;;
    --launches=*) launches="${1#--launches=}" ;;
    --transport=shm|--transport=tcp) transport="${1#--transport=}" ;;
    --results=*) results="${1#--results=}" ;;
    --) shift; extra=("$@"); break ;;
    *) echo "usage: tools/floor.sh [--np=P] [--launches=N]" \
         "[--transport=shm|tcp] [--results=DIR] [-- BENCHMARK FLAGS...]" >&2
       exit 2 ;;
  esac
  shift
done
[[ "$np" =~ ^[1-9][0-9]*$ && "$launches" =~ ^[1-9][0-9]*$ ]] || {
  echo "floor.sh: --np and --launches take positive numbers" >&2; exit 2; }
results="${results:-results/floor-$(date +%Y%m%d-%H%M%S)}"
# Other work on the machine, before the build and this script's processes.
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
bazel build -c opt //experiments:combining_benchmark
binary=bazel-out/k8-opt/bin/experiments/combining_benchmark
mkdir -p "$results/raw"
{
  run_facts "$command_line"
  echo "load before: $load_before (1, 5, 15 min)"
} > "$results/run.txt"
source tests/harness/mpirun_flags.sh
mpirun_flags "$np"
if [[ "$transport" == tcp && -z "${ORTHOCOMM_HOSTFILE:-}" ]]; then
  for i in "${!MPIRUN_FLAGS[@]}"; do
    [[ "${MPIRUN_FLAGS[$i]}" == "self,vader" ]] && MPIRUN_FLAGS[i]="tcp,self"
  done
  MPIRUN_FLAGS+=(--mca btl_tcp_if_include lo)
fi
for ((launch = 1; launch <= launches; ++launch)); do
  mpirun "${MPIRUN_FLAGS[@]}" "$binary" \
    --benchmark_filter='^(allgather|alltoall)/moore_(2d|3d)_d1/' \
    --iterations=24 --calls=20 --csv="$results/raw/launch-$launch.csv" \
    "${extra[@]}" > "$results/raw/launch-$launch.txt"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)" >>"$results/run.txt"
python3 tools/floor_table.py "$results"/raw/launch-*.csv > "$results/table.txt"
cat "$results/table.txt"
