# Sourced by the measuring scripts (tools/run.sh, floor.sh, mapping.sh,
# mapping_traffic.sh, neighbor_reorder.sh, node_aware.sh): run_facts
# COMMAND_LINE prints the lines every results folder's run.txt opens with
# (command, date, machine, MPI, commit), so that a measured table carries
# where and how it was made.
run_facts() {
  echo "command: $1"
  echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
  echo "machine: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1), $(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME")"
  echo "mpi: $(mpirun --version 2>/dev/null | head -1)"
  echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' (modified)')"
}
