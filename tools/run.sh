#!/usr/bin/env bash
# The main job: builds the experiments (bazel build -c opt) and runs
# a compact comparison of orthocomm against Open MPI on this machine, each
# run verified against a serial run:
#   - Game of Life, Listing 7 (one cell per process: cells, cells-openmpi)
#     and on a blocked N x N board (Figure 1's halo exchange);
#   - the 9-point Jacobi of Figure 1 with every implementation: Open MPI
#     (MPI_Neighbor_alltoallw, blocking and persistent) and ortho's
#     alltoallw forced direct, forced combining and as selected, blocking
#     and persistent;
#   - the neighbour benchmark (experiments/combining_benchmark), short:
#     neighbourhood alltoall and allgather on the 2-d Moore stencil of depth
#     1, blocks of 4 B to 40 KB, every variant (Open MPI blocking and
#     persistent, ortho direct, combining, selected, selected persistent),
#     each checked against Open MPI's result;
#   - a sparse matrix-vector product (experiments/spmv) on msc01050 split by
#     METIS: y = A x with every halo-exchange implementation, and the
#     accumulate of A^T w along the halo reversed (ortho::reverse against
#     Open MPI on a second, transposed communicator), each checked against
#     a serial Eigen run.
# Prints a table (time per iteration with its spread over the batches,
# ratio to Open MPI with its range, marked where that range says the
# difference is noise, messages and bytes per process per iteration; for the
# benchmark, time per call and ratios the same way) and writes it, a CSV,
# the raw output and PNG plots to results/<timestamp>/. The table opens with
# a verdict (one entry per experiment: ortho's selection against Open MPI,
# how often beyond the noise, the fastest implementation) and the load
# before and after; the job ends with it and its duration. With --hosts=yes,
# as root where simulated hosts can be made, a multi-host section
# (tools/mapping.sh).
#
#   tools/run.sh [--np=P] [--sizes=N,N,...] [--iterations=K]
#                [--transport=shm|tcp] [--results=DIR] [--hosts=yes|no] [--help]
#
# The mpirun flags are the test harness's (tests/harness/mpirun_flags.sh);
# under tools/hosts.sh the processes are spread over the simulated hosts.
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/run_facts.sh
job_started=$(date +%s)

usage() {
  cat <<'USAGE'
usage: tools/run.sh [--np=P] [--sizes=N,N,...] [--iterations=K]
                    [--transport=shm|tcp] [--results=DIR] [--hosts=yes|no] [--help]
Builds the experiments (bazel build -c opt) and compares orthocomm with
Open MPI on this machine: Game of Life (Listing 7, one cell per process,
and a blocked board) and the 9-point Jacobi of Figure 1 with every
implementation, each verified against a serial run; then the neighbour
benchmark (combining_benchmark: alltoall and allgather on the 2-d Moore
stencil, blocks of 4 B to 40 KB, every variant, checked against Open MPI);
then, with --hosts=yes (as root where simulated hosts can be made), the
multi-host section: Jacobi on 4 hosts x 4 processes placed by slot,
round-robin, and mapped (tools/mapping.sh, 2 launches, into
RESULTS/mapping/; a few minutes more).
  --np=P            MPI processes (default 9, a 3 x 3 grid; oversubscribed
                    when P exceeds the cores)
  --sizes=LIST      grid orders N of the N x N boards and matrices
                    (default 48,96,192,384; each at least the process grid)
  --iterations=K    generations / Jacobi iterations per run (default 1000:
                    tuning's first calls weigh little in the medians)
  --transport=T     shm: shared memory (btl self,vader, the default);
                    tcp: TCP over loopback (btl tcp,self)
  --results=DIR     where to write (default results/<timestamp>)
  --hosts=yes|no    the multi-host section (default no; yes runs it where
                    root, ip and unshare are there)
Writes table.txt (the verdict and the load, then medians with the fastest
and slowest batch), results.csv,
raw/*.txt, raw/neighbor.csv, the plots jacobi_time.png, jacobi_ratio.png,
life_time.png and neighbor_time.png, and life_board_N.png (the final boards);
exits 1 if any result differs from its serial run (or, in the benchmark,
from Open MPI's), 2 on a bad flag.
USAGE
}

refuse() {
  echo "run.sh: $1" >&2
  usage >&2
  exit 2
}

np=9
sizes="48,96,192,384"
iterations=1000
transport=shm
results=""
hosts_section=no
command_line="bash tools/run.sh${*:+ $*}"
while [[ $# -gt 0 ]]; do
  arg="$1"; shift
  case "$arg" in
    --help|-h) usage; exit 0 ;;
    --np=*|--sizes=*|--iterations=*|--transport=*|--results=*|--hosts=*)
      value="${arg#*=}"; name="${arg%%=*}" ;;
    --np|--sizes|--iterations|--transport|--results|--hosts)
      [[ $# -gt 0 ]] || refuse "$arg needs a value"
      value="$1"; name="$arg"; shift ;;
    *) refuse "unknown argument '$arg'" ;;
  esac
  case "$name" in
    --np) np="$value" ;;
    --sizes) sizes="$value" ;;
    --iterations) iterations="$value" ;;
    --transport) transport="$value" ;;
    --results) results="$value" ;;
    --hosts) hosts_section="$value" ;;
  esac
done
[[ "$np" =~ ^[1-9][0-9]*$ ]] || refuse "--np=$np: must be a positive integer"
[[ "$sizes" =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] ||
  refuse "--sizes=$sizes: must be positive integers separated by commas"
[[ "$iterations" =~ ^[1-9][0-9]*$ ]] ||
  refuse "--iterations=$iterations: must be a positive integer"
[[ "$transport" == shm || "$transport" == tcp ]] ||
  refuse "--transport=$transport: must be shm or tcp"
[[ "$hosts_section" == yes || "$hosts_section" == no ]] ||
  refuse "--hosts=$hosts_section: must be yes or no"
IFS=, read -r -a size_list <<<"$sizes"

# The load before anything of the job ran: other work on the machine,
# which competes with every measurement (after the build and during the
# runs the job's own processes count too).
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
bash tools/install_deps.sh
bash tools/install_deps.sh --plots ||
  echo "run: could not install gnuplot; the table and CSV come without plots"
# ORTHOCOMM_RUN_MODE=fastbuild (for tools/checks/main_job.sh only) reuses
# the tests' unoptimised build: the steps and tables are the same, the
# times are not the library's.
mode="${ORTHOCOMM_RUN_MODE:-opt}"
if [[ "$mode" != opt && "$mode" != fastbuild ]]; then
  echo "run: ORTHOCOMM_RUN_MODE is opt or fastbuild, not '$mode'" >&2
  exit 2
fi
echo "run: building the experiments (bazel build -c $mode) ..."
build_started=$(date +%s)
bazel build -c "$mode" //experiments/life //experiments/jacobi \
  //experiments:combining_benchmark //experiments/spmv:spmv
build_seconds=$(($(date +%s) - build_started))
# bazel-bin follows the last build's configuration; these binaries stay here.
bin="bazel-out/k8-$mode/bin/experiments"

results="${results:-results/$(date +%Y%m%d-%H%M%S)}"
mkdir -p "$results/raw"
# What was run where, for the report and for docs/performance.md.
{
  run_facts "$command_line"
  echo "load before: $load_before (1, 5, 15 min)"
} > "$results/run.txt"
job_dir="$(mktemp -d)"
trap 'rm -rf "$job_dir"' EXIT
source tests/harness/mpirun_flags.sh
# No fixed time limit here: each step gets one scaled to the load as it
# starts (run_step), behind the programs' own no-progress watchdog.
mpirun_flags "$np" "$job_dir"
if [[ "$transport" == tcp && -z "${ORTHOCOMM_HOSTFILE:-}" ]]; then
  # TCP over the loopback interface instead of shared memory.
  for i in "${!MPIRUN_FLAGS[@]}"; do
    [[ "${MPIRUN_FLAGS[$i]}" == "self,vader" ]] && MPIRUN_FLAGS[i]="tcp,self"
  done
  MPIRUN_FLAGS+=(--mca btl_tcp_if_include lo)
fi
transport_text="shared memory (btl self,vader)"
[[ "$transport" == tcp ]] && transport_text="TCP loopback (btl tcp,self)"
[[ -n "${ORTHOCOMM_HOSTFILE:-}" ]] && transport_text="simulated hosts (shared memory within a host, TCP between hosts)"

started=$(date +%s)
steps=$((2 * ${#size_list[@]} + 3))
step=0
failed=0

# run_step LABEL OUTPUT PROGRAM ARGS...: one mpirun, its output kept.
run_step() {
  local label="$1" output="$2"; shift 2
  step=$((step + 1))
  printf '[%*d/%d] %-44s' "${#steps}" "$step" "$steps" "$label ..."
  local begin status=0 limit
  begin=$(date +%s)
  limit=$(load_scaled_seconds 300)
  mpirun "${MPIRUN_FLAGS[@]}" --timeout "$limit" "$@" >"$output" 2>&1 ||
    status=$?
  local verdict="all correct"
  if [[ $status -eq 2 ]]; then
    echo " refused"
    sed 's/^/  | /' "$output" >&2
    exit 2
  elif [[ $status -ne 0 ]] ||
    grep -Eq "result=MISMATCH|ERROR OCCURRED" "$output"; then
    verdict="FAILED (exit $status; see $output)"
    grep -q "time limit for job execution has been reached" "$output" &&
      verdict="FAILED (still running at the limit of ${limit}s; see $output)"
    failed=1
  fi
  printf ' %3ds, %s\n' "$(($(date +%s) - begin))" "$verdict"
}

echo "run: $np processes, $transport_text, sizes $sizes, $iterations iterations;" \
  "results in $results"
# Listing 7's board is the process grid (3 x 3 at 9 processes): a torus
# and a seed on which it lives for the whole run at 4 and 9 processes (most
# small boards die within a few generations, which would time nothing).
run_step "life: Listing 7, one cell per process" "$results/raw/life_cells.txt" \
  "$bin/life/life" --variant=cells,cells-openmpi --iterations="$iterations" \
  --borders=periodic --seed=2
for n in "${size_list[@]}"; do
  run_step "life: blocked board N=$n" "$results/raw/life_$n.txt" \
    "$bin/life/life" --n="$n" --iterations="$iterations" \
    --variant=openmpi,openmpi-persistent,ortho-direct,ortho-selected,ortho-selected-persistent \
    --png="$results/life_board_$n.png"
  run_step "jacobi: N=$n, every implementation" "$results/raw/jacobi_$n.txt" \
    "$bin/jacobi/jacobi" --n="$n" --iterations="$iterations" --tolerance=0
done
# The neighbour benchmark, kept short: one stencil, two operations, five
# block sizes, 6 batches of 50 calls per variant (6: each of the six
# variants runs in each place of the rotated order once). A result that
# differs from Open MPI's is reported as "ERROR OCCURRED" (SkipWithError).
run_step "benchmark: alltoall, allgather, 2-d Moore" "$results/raw/neighbor.txt" \
  "$bin/combining_benchmark" --csv="$results/raw/neighbor.csv" \
  --iterations=6 --calls=50 --benchmark_color=false \
  --benchmark_filter='^(alltoall|allgather)/moore_2d_d1/'
run_step "spmv: msc01050 (METIS), A x and A^T w" "$results/raw/spmv.txt" \
  "$bin/spmv/spmv" --matrix=experiments/spmv/data/msc01050.mtx \
  --partition=metis --iterations="$iterations"
# Several hosts, where they can be simulated (not inside tools/hosts.sh
# already): the placement section, with its own table.
if [[ "$hosts_section" == yes && -z "${ORTHOCOMM_HOSTFILE:-}" &&
      "$(id -u)" == 0 ]] && command -v ip >/dev/null &&
    command -v unshare >/dev/null; then
  echo "run: mapping: jacobi on 4 simulated hosts x 4 processes, by slot," \
    "by node, each without and with --reorder ..."
  if bash tools/mapping.sh --launches=2 --results="$results/mapping" \
      >"$results/raw/mapping.txt" 2>&1 &&
      ! grep -rq "result=MISMATCH" "$results/mapping/raw"; then
    sed 's/^/  /' "$results/mapping/table.txt"
  else
    echo "run: mapping FAILED (see $results/raw/mapping.txt)"
    failed=1
  fi
elif [[ "$hosts_section" == yes ]]; then
  echo "run: multi-host section skipped: it needs root, ip and unshare"
else
  echo "run: multi-host section off (--hosts=yes adds Jacobi on 4 simulated" \
    "hosts x 4 processes, as root; a few minutes)"
fi
measured=$(($(date +%s) - started))
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)" >>"$results/run.txt"

bash tools/report.sh "$results" "$np" "$transport_text" "$iterations"
echo
sed '/^$/q' "$results/table.txt"
total=$(($(date +%s) - job_started))
echo "run: ${total}s in all (build ${build_seconds}s, measuring ${measured}s);" \
  "results in $results"
echo "run: duration ${total}s" >>"$results/run.txt"
if [[ $failed -ne 0 ]]; then
  echo "run: FAILED: see the steps marked FAILED above and their output files"
fi
exit "$failed"
