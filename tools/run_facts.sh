# Sourced by the measuring scripts (tools/run.sh, floor.sh, mapping.sh,
# mapping_traffic.sh, neighbor_reorder.sh, node_aware.sh): run_facts
# COMMAND_LINE prints the lines every results folder's run.txt opens with
# (command, date, machine, MPI, commit, ortho's environment settings), so that a measured table carries
# where and how it was made; host_layout checks the --hosts and --slots of
# those that run on simulated hosts.
run_facts() {
  echo "command: $1"
  echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
  echo "machine: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1), $(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME")"
  echo "mpi: $(mpirun --version 2>/dev/null | head -1)"
  echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' (modified)')"
  # ortho's settings change what runs (ORTHO_MACHINE, ORTHO_ALGORITHM, ...).
  local settings
  settings=$({ env | grep '^ORTHO_' || true; } | sort | paste -sd' ')
  echo "environment: ${settings:-no ORTHO_ settings}"
}

# host_layout NAME HOSTS SLOTS: exits 2, naming script NAME, unless both are
# positive numbers and, for several hosts, the user is root (tools/hosts.sh
# makes network namespaces); then sets np (HOSTS x SLOTS) and transport
# (shm on one host, tcp between several).
host_layout() {
  local value
  for value in "$2" "$3"; do
    [[ "$value" =~ ^[1-9][0-9]*$ ]] || {
      echo "$1: --hosts and --slots take positive numbers" >&2
      exit 2; }
  done
  if [[ "$2" != 1 && "$(id -u)" != 0 ]]; then
    echo "$1: several hosts need root (tools/hosts.sh)" >&2
    exit 2
  fi
  np=$(($2 * $3))
  transport=$([[ "$2" == 1 ]] && echo shm || echo tcp)
}
