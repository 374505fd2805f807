#!/usr/bin/env bash
# Simulated hosts with several processes each: tools/hosts.sh 2 --slots 2
# with each placement of tests/harness/mpirun_flags.sh. A small MPI program
# prints each rank's host (MPI_Get_processor_name) and the size of its
# shared-memory communicator (MPI_Comm_split_type, MPI_COMM_TYPE_SHARED), and
# Open MPI says which btl reaches each peer (btl_base_verbose). Expected:
#   --map-by slot            ranks 0,1 on oc-host1 and 2,3 on oc-host2
#   --map-by node            ranks 0,2 on oc-host1 and 1,3 on oc-host2
#   --map-by rankfile:FILE   ranks 1,2 on oc-host1 and 0,3 on oc-host2
# and in each, every rank shares memory with its host's other rank, reaches
# it through vader and the other host's ranks through tcp. Then a run killed
# with SIGKILL, cleared by tools/hosts.sh --clean. After every run nothing
# may be left: namespaces, links, the bridge, processes, run directories,
# shared-memory segments, session directories, mounts.
# Exits 77 (skipped) without root, ip, unshare or network namespaces.
set -uo pipefail
cd "$(dirname "$0")/../.."

prefix="${ORTHOCOMM_HOSTS_PREFIX:-oc-host}"
bridge="${ORTHOCOMM_HOSTS_BRIDGE:-oc-br0}"
lock_file=/run/lock/orthocomm-hosts.lock

skip() { echo "hosts_placement: skipped: $*" >&2; exit 77; }
[[ "$(id -u)" == "0" ]] || skip "needs root"
command -v ip >/dev/null && command -v unshare >/dev/null ||
  skip "needs ip (iproute2) and unshare (util-linux)"
unshare --net true 2>/dev/null || skip "cannot create network namespaces here"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "hosts_placement: $*" >&2; failures=$((failures + 1)); }

mpicxx="${ORTHOCOMM_MPICXX:-mpicxx}"
cat >"$work/where.cc" <<'EOF'
// Exchanges a message with every other rank, so that every pair connects,
// prints "rank R host H shared S" and, given a number, sleeps that long.
#include <mpi.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int length = 0;
  int shared_size = 0;
  char name[MPI_MAX_PROCESSOR_NAME];
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int step = 1; step < size; ++step) {
    const int to = (rank + step) % size;
    const int from = (rank - step + size) % size;
    int got = -1;
    MPI_Sendrecv(&rank, 1, MPI_INT, to, 0, &got, 1, MPI_INT, from, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (got != from) MPI_Abort(MPI_COMM_WORLD, 3);
  }
  MPI_Get_processor_name(name, &length);
  MPI_Comm shared;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
                      &shared);
  MPI_Comm_size(shared, &shared_size);
  std::printf("rank %d host %s shared %d\n", rank, name, shared_size);
  std::fflush(stdout);
  if (argc > 1) sleep(static_cast<unsigned>(std::atoi(argv[1])));
  MPI_Comm_free(&shared);
  MPI_Finalize();
  return 0;
}
EOF
if ! "$mpicxx" -std=c++20 -O1 -DOMPI_SKIP_MPICXX -o "$work/where" \
    "$work/where.cc"; then
  echo "hosts_placement: cannot build the test program with $mpicxx" >&2
  exit 1
fi
mpirun="$(dirname "$(command -v "$mpicxx")")/mpirun"
[[ -x "$mpirun" ]] || mpirun=mpirun

# What tools/hosts.sh runs: 4 processes with the project's flags, verbose
# about the btl chosen for each peer.
cat >"$work/run.sh" <<EOF
set -euo pipefail
source "$PWD/tests/harness/mpirun_flags.sh"
mpirun_flags 4 "" 60
exec "$mpirun" "\${MPIRUN_FLAGS[@]}" --mca btl_base_verbose 100 "$work/where" "\$@"
EOF

# One set of simulated hosts at a time: wait for another tools/hosts.sh.
wait_for_hosts() {
  mkdir -p "$(dirname "$lock_file")"
  flock -w 900 "$lock_file" true || fail "another tools/hosts.sh ran for 15 minutes"
}

# Anything of ours still there? Prints what, one line each.
left_behind() {
  ip netns list 2>/dev/null | awk '{print $1}' | grep -E "^${prefix}[0-9]+$" |
    sed 's/^/namespace /'
  ip -o link show 2>/dev/null | awk -F': ' '{print $2}' | sed 's/@.*//' |
    grep -E "^(${prefix}[0-9]+-v|${bridge})$" | sed 's/^/link /'
  compgen -G "/tmp/orthocomm-hosts.*" | sed 's/^/run directory /'
  compgen -G "${TMPDIR:-/tmp}/ompi.${prefix}[0-9]*" | sed 's/^/session directory /'
  compgen -G "/dev/shm/*${prefix}[0-9]*" | sed 's/^/shared memory /'
  grep -E " ${prefix}[0-9]+-shm " /proc/self/mountinfo | sed 's/^/mount /'
  # Zombies are not counted: they go as soon as their parent waits.
  local processes line
  processes="$(ps -eo pid=,stat=,args=)"
  while read -r line; do
    [[ "$line" =~ ^[0-9]+\ +Z ]] && continue
    [[ "$line" == *"$work/where"* || "$line" == *orthocomm-hosts.* ]] &&
      echo "process $line"
  done <<<"$processes"
  return 0
}
# Processes of a finished run may take a moment to go.
assert_clean() {  # assert_clean LABEL
  local left="" i
  for i in $(seq 1 20); do
    left="$(left_behind)"
    [[ -z "$left" ]] && return 0
    sleep 0.25
  done
  fail "$1: left behind: $(echo "$left" | paste -sd ';')"
}

# check_run LABEL OUTPUT HOST_OF_RANK_0 .. HOST_OF_RANK_3 (host numbers)
check_run() {
  local label="$1" output="$2"; shift 2
  local expected="" rank
  for rank in 0 1 2 3; do
    expected+="rank $rank host ${prefix}${1} shared 2"$'\n'; shift
  done
  local got
  got="$(grep -E '^rank [0-9]+ host ' "$output" | sort -n -k2)"$'\n'
  if [[ "$got" != "$expected" ]]; then
    fail "$label: placement: expected"$'\n'"$expected""got"$'\n'"$got"
    return
  fi
  # "[oc-host1:123] mca: bml: Using vader btl for send to [[5,1],2] on node
  # oc-host1": from a process of one host to rank 2, on its host. Peers on
  # the same host go through vader (self for oneself), others through tcp,
  # and the node named is where the placement put that rank.
  local verdict
  verdict="$(awk -v expected="$expected" '
    BEGIN {
      n = split(expected, lines, "\n")
      for (i = 1; i <= n; ++i) if (split(lines[i], f, " ") >= 4) host[f[2]] = f[4]
    }
    / mca: bml: Using [a-z]+ btl for send to / {
      from = $1; sub(/^\[/, "", from); sub(/:.*/, "", from)
      btl = $5; node = $NF
      peer = $(NF - 3); sub(/.*,/, "", peer); sub(/\]+$/, "", peer)
      ++lines_seen; ++count[btl]
      if (host[peer] != node) { print "rank " peer " reported on " node; bad = 1 }
      if (from == node && btl != "vader" && btl != "self") {
        print from " reaches rank " peer " on its own host by " btl; bad = 1 }
      if (from != node && btl != "tcp") {
        print from " reaches rank " peer " on " node " by " btl; bad = 1 }
    }
    END {
      # 4 ranks, each talks to all: itself (self), one peer (vader), two (tcp).
      if (count["self"] != 4 || count["vader"] != 4 || count["tcp"] != 8) {
        printf "btl lines: self %d, vader %d, tcp %d (expected 4, 4, 8)\n",
          count["self"], count["vader"], count["tcp"]; bad = 1 }
      exit bad
    }' "$output")" || fail "$label: btl: $(echo "$verdict" | paste -sd ';')"
}

run_placement() {  # run_placement LABEL MAP_BY HOSTS_OF_RANKS...
  local label="$1" map_by="$2"; shift 2
  local output="$work/$label.out" status=0
  wait_for_hosts
  bash tools/hosts.sh 2 --slots 2 --map-by "$map_by" -- bash "$work/run.sh" \
    >"$output" 2>&1 || status=$?
  if [[ $status -ne 0 ]]; then
    fail "$label: exit status $status"; sed 's/^/  /' "$output" >&2
  else
    check_run "$label" "$output" "$@"
  fi
  assert_clean "$label"
}

cat >"$work/rankfile" <<EOF
rank 0=${prefix}2 slot=0
rank 1=${prefix}1 slot=0
rank 2=${prefix}1 slot=1
rank 3=${prefix}2 slot=1
EOF
run_placement slot slot 1 1 2 2
run_placement node node 1 2 1 2
run_placement rankfile "rankfile:$work/rankfile" 2 1 1 2

# A run killed with SIGKILL (no teardown of its own), then --clean.
wait_for_hosts
setsid bash tools/hosts.sh 2 --slots 2 --map-by slot -- bash "$work/run.sh" 60 \
  >"$work/killed.out" 2>&1 &
killed=$!
for i in $(seq 1 80); do
  [[ "$(grep -cE '^rank [0-9]+ host ' "$work/killed.out")" -ge 4 ]] && break
  sleep 0.25
done
[[ "$(grep -cE '^rank [0-9]+ host ' "$work/killed.out")" -ge 4 ]] ||
  fail "killed: the 4 processes did not start"
{ kill -KILL "$killed"; wait "$killed"; } 2>/dev/null  # no "Killed" notice
[[ -n "$(left_behind)" ]] || fail "killed: nothing was left to clean (killed too late?)"
bash tools/hosts.sh --clean || fail "killed: tools/hosts.sh --clean failed"
assert_clean "killed"

if [[ $failures -ne 0 ]]; then
  echo "hosts_placement: $failures failure(s)" >&2
  exit 1
fi
echo "hosts_placement: slot, node and rankfile placements on 2 hosts x 2 slots" \
  "(vader within a host, tcp between hosts), clean teardown and --clean"
