# The mpirun flags of every orthocomm MPI run, in one place. Sourced by the
# test harness (tests/harness/mpirun_test.sh), tools/run.sh and
# tools/neighbor_benchmark.sh:
#
#   source tests/harness/mpirun_flags.sh
#   mpirun_flags NP [JOB_DIR [TIMEOUT_S]]   # fills the array MPIRUN_FLAGS
#   mpirun "${MPIRUN_FLAGS[@]}" program ...
#   load_scaled_seconds SECONDS             # prints SECONDS scaled to the load
#
# One host (the default): shared memory (btl self,vader).
# Several hosts: when ORTHOCOMM_HOSTFILE names an Open MPI hostfile, the
# processes are placed on its hosts as ORTHOCOMM_MAP_BY says and talk shared
# memory within a host, TCP between hosts (btl self,vader,tcp):
#   node (or unset)  round-robin over the hosts (--map-by node)
#   slot             fill each host's slots in turn (--map-by slot)
#   rankfile:FILE    as the Open MPI rankfile FILE says (--rankfile FILE)
# tools/hosts.sh sets the hostfile for simulated hosts (and ORTHOCOMM_MAP_BY
# with its --map-by), together with ORTHOCOMM_LAUNCH_AGENT (Open MPI's
# plm_rsh_agent; unset: ssh) and ORTHOCOMM_HOSTS_NET (the subnet that Open
# MPI's out-of-band and TCP messages use, e.g. 10.213.0.0/24; unset: every
# interface). mpirun_flags fails, saying why, on any other ORTHOCOMM_MAP_BY.
# This file is a Bazel data dependency of every MPI test (tests/harness/BUILD,
# mpi_test.bzl).

mpirun_flags() {
  local np="$1" job_dir="${2:-}" timeout_s="${3:-}"
  MPIRUN_FLAGS=(--oversubscribe -np "$np")
  # Open MPI refuses to run as root unless told; only say so when it applies.
  if [[ "$(id -u)" == "0" ]]; then MPIRUN_FLAGS+=(--allow-run-as-root); fi
  # The processes outnumber the cores on small machines: give the core away
  # when waiting instead of busy-polling against each other.
  MPIRUN_FLAGS+=(--mca mpi_yield_when_idle 1)
  if [[ -n "${ORTHOCOMM_HOSTFILE:-}" ]]; then
    MPIRUN_FLAGS+=(--hostfile "$ORTHOCOMM_HOSTFILE")
    local map_by="${ORTHOCOMM_MAP_BY:-node}"
    case "$map_by" in
      node|slot) MPIRUN_FLAGS+=(--map-by "$map_by") ;;
      rankfile:?*)
        if [[ ! -r "${map_by#rankfile:}" ]]; then
          echo "mpirun_flags: no readable rankfile '${map_by#rankfile:}'" \
            "(ORTHOCOMM_MAP_BY=$map_by)" >&2
          return 1
        fi
        MPIRUN_FLAGS+=(--rankfile "${map_by#rankfile:}") ;;
      *)
        echo "mpirun_flags: ORTHOCOMM_MAP_BY is node, slot or rankfile:FILE," \
          "not '$map_by'" >&2
        return 1 ;;
    esac
    # Processes on the same host share memory, as on a cluster's nodes.
    MPIRUN_FLAGS+=(--mca btl self,vader,tcp)
    if [[ -n "${ORTHOCOMM_LAUNCH_AGENT:-}" ]]; then
      MPIRUN_FLAGS+=(--mca plm_rsh_agent "$ORTHOCOMM_LAUNCH_AGENT")
    fi
    if [[ -n "${ORTHOCOMM_HOSTS_NET:-}" ]]; then
      MPIRUN_FLAGS+=(--mca oob_tcp_if_include "$ORTHOCOMM_HOSTS_NET")
      MPIRUN_FLAGS+=(--mca btl_tcp_if_include "$ORTHOCOMM_HOSTS_NET")
    fi
  else
    # One machine: no network interfaces to probe, and the point-to-point
    # layer that drives those transports (ob1) named, so that MPI_Init
    # does not open the others to find that out: 0.2 s less a launch here,
    # out of 0.4-0.9 s (Debian's Open MPI already leaves out UCX and OFI).
    MPIRUN_FLAGS+=(--mca btl self,vader --mca pml ob1)
  fi
  # Private shared-memory files and session directories: sandboxed jobs each
  # live in their own PID namespace, so two mpiruns at once can get the same
  # PID, hence the same job id, and would share them (vader segfaults,
  # "shared memory open(2)" failures).
  if [[ -n "$job_dir" ]]; then
    MPIRUN_FLAGS+=(--mca orte_tmpdir_base "$job_dir")
    if [[ -z "${ORTHOCOMM_HOSTFILE:-}" ]]; then
      MPIRUN_FLAGS+=(--mca btl_vader_backing_directory "$job_dir")
    fi
  fi
  # Stop a hung job (e.g. before Bazel's own timeout, so its report says why).
  if [[ -n "$timeout_s" ]]; then MPIRUN_FLAGS+=(--timeout "$timeout_s"); fi
  # PMIx's shared-memory store fails when several jobs start at once in
  # sandboxes ("PMIX ERROR: OUT-OF-RESOURCE ... dstore"); its hash store is
  # fine there. Not on several hosts: there the hash store fails MPI_Init
  # ("num local peers failed") when the hosts hold different numbers of
  # processes (5 on 2 hosts), and the runs are not sandboxed.
  if [[ -z "${ORTHOCOMM_HOSTFILE:-}" ]]; then export PMIX_MCA_gds=hash; fi
}

# SECONDS times the machine's load per core (1-minute average, rounded up),
# at least once and at most 10 times: the backstop of a run whose programs
# watch their own progress (experiments/progress.h), so that a loaded
# machine, slow but not hung, is not stopped as if it were.
load_scaled_seconds() {
  local seconds="$1" load cores
  load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo 0)
  cores=$(nproc 2>/dev/null || echo 1)
  awk -v s="$seconds" -v l="$load" -v c="$cores" 'BEGIN {
    f = l / c; if (f > int(f)) f = int(f) + 1; if (f < 1) f = 1; if (f > 10) f = 10
    printf "%d\n", s * f }'
}
