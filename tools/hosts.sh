#!/usr/bin/env bash
# Simulated hosts on this machine: network namespaces on a private bridge, so
# that MPI processes on different "hosts" talk TCP as on a cluster, and
# processes on the same host share memory.
#
#   tools/hosts.sh N [--slots S] [--map-by PLACEMENT] -- COMMAND [ARGS...]
#       creates hosts oc-host1 .. oc-hostN (network namespaces, loopback up,
#       10.213.0.I/24 on a veth link to the bridge oc-br0; this machine's
#       side of the bridge is 10.213.0.254, where mpirun runs), a hostfile
#       that gives each host S slots (default 1), and a launch agent for
#       Open MPI (plm_rsh_agent) that starts the remote daemons inside the
#       right namespace, each with its own hostname and its own /dev/shm
#       (a private tmpfs: the processes of one host share memory through it,
#       those of different hosts cannot). Runs COMMAND with these exported:
#         ORTHOCOMM_HOSTFILE      the hostfile ("oc-hostI slots=S" a line)
#         ORTHOCOMM_LAUNCH_AGENT  the launch agent
#         ORTHOCOMM_HOSTS_NET     10.213.0.0/24 (oob_tcp / btl_tcp_if_include)
#         ORTHOCOMM_HOSTS         N
#         ORTHOCOMM_HOSTS_SLOTS   S
#         ORTHOCOMM_MAP_BY        PLACEMENT, only with --map-by (otherwise
#                                 as the caller set it; unset means node)
#       which tests/harness/mpirun_flags.sh turns into mpirun flags.
#       PLACEMENT says where consecutive ranks go:
#         slot           fill a host's S slots, then the next host (ranks
#                        0..S-1 on oc-host1), Open MPI's own default
#         node           round-robin over the hosts (rank I on host
#                        I mod N + 1), the project's default
#         rankfile:FILE  as an Open MPI rankfile says, e.g. lines
#                        "rank 0=oc-host2 slot=0" (slot: a core to bind to)
#       Tears everything down when COMMAND ends, fails, or on Ctrl-C /
#       SIGTERM (COMMAND gets SIGINT first), and exits with COMMAND's status.
#   tools/hosts.sh --clean
#       removes what a run killed with SIGKILL left behind (namespaces, the
#       bridge, processes inside the namespaces, the run directory).
#
# Needs root (CAP_SYS_ADMIN, CAP_NET_ADMIN: namespaces, links, mounts),
# iproute2 (`ip`) and util-linux (`unshare`, `flock`, `mount`); all are in
# Debian's base system. Traffic stays on the bridge: no route out of the
# namespaces, no forwarding. One set of simulated hosts at a time per machine.
set -euo pipefail

prefix="${ORTHOCOMM_HOSTS_PREFIX:-oc-host}"   # namespace = host name
bridge="${ORTHOCOMM_HOSTS_BRIDGE:-oc-br0}"
net="${ORTHOCOMM_HOSTS_SUBNET:-10.213.0}"      # a /24
lock_file=/run/lock/orthocomm-hosts.lock
run_dir_glob="/tmp/orthocomm-hosts.*"

say() { echo "hosts.sh: $*" >&2; }
die() { say "$*"; exit 2; }
usage() {
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
  exit 2
}

# PIDs of every process inside our namespaces, and in this machine's own
# namespace those whose command line names one of our run directories
# (mpirun and the launch agents of a killed run).
our_pids() {
  local ns pid
  for ns in $(our_namespaces); do ip netns pids "$ns" 2>/dev/null || true; done
  for pid in $(ls /proc | grep -E '^[0-9]+$'); do
    [[ "$pid" == "$$" ]] && continue
    tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline" |
      grep -q '/tmp/orthocomm-hosts\.' && echo "$pid"
  done
  return 0
}

our_namespaces() {
  ip netns list 2>/dev/null | awk '{print $1}' | grep -E "^${prefix}[0-9]+$" || true
}

# Removes every trace: processes (TERM, then KILL), namespaces, links, bridge,
# run directories. Safe to call when nothing is there.
teardown() {
  local pids tries ns link
  pids=$(our_pids | sort -u | tr '\n' ' ')
  if [[ -n "${pids// }" ]]; then
    kill -TERM $pids 2>/dev/null || true
    for tries in 1 2 3 4 5 6 7 8 9 10; do
      pids=$(our_pids | sort -u | tr '\n' ' ')
      [[ -z "${pids// }" ]] && break
      sleep 0.3
    done
    pids=$(our_pids | sort -u | tr '\n' ' ')
    [[ -n "${pids// }" ]] && kill -KILL $pids 2>/dev/null || true
  fi
  for ns in $(our_namespaces); do ip netns delete "$ns" 2>/dev/null || true; done
  for link in $(ip -o link show 2>/dev/null | awk -F': ' '{print $2}' |
                sed 's/@.*//' | grep -E "^${prefix}[0-9]+-v$" || true); do
    ip link delete "$link" 2>/dev/null || true
  done
  ip link delete "$bridge" 2>/dev/null || true
  rm -rf $run_dir_glob
}

leftovers() {
  [[ -n "$(our_namespaces)" ]] && return 0
  ip link show "$bridge" >/dev/null 2>&1 && return 0
  compgen -G "$run_dir_glob" >/dev/null && return 0
  return 1
}

[[ $# -ge 1 ]] || usage
[[ "$(id -u)" == "0" ]] || die "needs root (network namespaces, links, mounts)"
command -v ip >/dev/null || die "needs iproute2 (ip): apt-get install iproute2"
command -v unshare >/dev/null || die "needs util-linux (unshare)"

mkdir -p "$(dirname "$lock_file")"
exec 9>"$lock_file"
if [[ "$1" == "--clean" ]]; then
  flock -w 30 9 || die "another tools/hosts.sh still runs"
  teardown
  leftovers && die "could not remove everything"
  say "clean"
  exit 0
fi

hosts="$1"; shift
[[ "$hosts" =~ ^[1-9][0-9]?$ && "$hosts" -le 250 ]] || usage
slots=1
map_by=""
while [[ $# -gt 0 && "$1" != "--" ]]; do
  case "$1" in
    --slots) [[ $# -ge 2 ]] || usage; slots="$2"; shift 2 ;;
    --slots=*) slots="${1#--slots=}"; shift ;;
    --map-by) [[ $# -ge 2 ]] || usage; map_by="$2"; shift 2 ;;
    --map-by=*) map_by="${1#--map-by=}"; shift ;;
    -*) say "unknown option $1"; usage ;;
    *) break ;;
  esac
done
[[ "${1:-}" == "--" ]] && shift
[[ $# -ge 1 ]] || usage
[[ "$slots" =~ ^[1-9][0-9]{0,2}$ ]] || die "--slots needs a number of slots per host, got '$slots'"
case "$map_by" in
  ""|slot|node) ;;
  rankfile:?*)
    rankfile="${map_by#rankfile:}"
    [[ -f "$rankfile" && -r "$rankfile" ]] || die "no readable rankfile '$rankfile'"
    map_by="rankfile:$(realpath "$rankfile")" ;;  # COMMAND may change directory
  *) die "--map-by takes slot, node or rankfile:FILE, got '$map_by'" ;;
esac
flock -n 9 || die "another tools/hosts.sh runs on this machine"
if leftovers; then
  say "removing what an earlier, killed run left behind"
  teardown
fi

run_dir=$(mktemp -d /tmp/orthocomm-hosts.XXXXXX)
child=""
on_exit() {
  local status=$?
  trap - EXIT INT TERM HUP
  if [[ -n "$child" ]] && kill -0 "$child" 2>/dev/null; then
    kill -TERM -- "-$child" 2>/dev/null || true
  fi
  teardown
  exit "$status"
}
trap on_exit EXIT
# Ctrl-C or kill: let COMMAND stop (Bazel cancels its tests and prints its
# report), but not for ever; then tear down.
on_signal() {
  local signal="$1" i
  trap '' INT TERM HUP
  say "caught SIG$signal: stopping the command, then removing the hosts"
  if [[ -n "$child" ]]; then
    kill -INT -- "-$child" 2>/dev/null || true
    for i in $(seq 1 60); do kill -0 "$child" 2>/dev/null || break; sleep 0.5; done
  fi
  exit 130
}
trap 'on_signal INT' INT
trap 'on_signal TERM' TERM
trap 'on_signal HUP' HUP

# The hosts.
ip link add "$bridge" type bridge
ip addr add "${net}.254/24" dev "$bridge"
ip link set "$bridge" up
hostfile="$run_dir/hostfile"
: >"$hostfile"
for i in $(seq 1 "$hosts"); do
  host="${prefix}${i}"
  ip netns add "$host"
  ip link add "${host}-v" type veth peer name eth0 netns "$host"
  ip link set "${host}-v" master "$bridge" up
  ip -n "$host" link set lo up
  ip -n "$host" addr add "${net}.${i}/24" dev eth0
  ip -n "$host" link set eth0 up
  echo "$host slots=$slots" >>"$hostfile"
done

# Hands over only once the simulated network forwards: every host's link
# is up at both ends and its bridge port forwards (a port that still
# learns drops the first connections of MPI_Init). At most 10 s.
host_ready() {
  local host="$1"
  [[ "$(cat "/sys/class/net/$bridge/brif/${host}-v/state" 2>/dev/null)" == 3 ]] &&
    [[ "$(cat "/sys/class/net/${host}-v/operstate" 2>/dev/null)" == up ]] &&
    [[ "$(ip netns exec "$host" cat /sys/class/net/eth0/operstate 2>/dev/null)" == up ]]
}
for i in $(seq 1 "$hosts"); do
  host="${prefix}${i}"
  for try in $(seq 1 100); do
    host_ready "$host" && break
    [[ $try -eq 100 ]] && die "the network of $host does not forward after 10 s"
    sleep 0.1
  done
done

# The launch agent: Open MPI calls it like ssh, `agent [options] HOST
# COMMAND...`, and the remote side runs COMMAND's words joined by spaces
# under a shell (Open MPI quotes them for that). Here the "remote side" is
# the host's network namespace, with its own hostname (UTS namespace) so that
# the daemons' session directories differ as on real hosts, and its own
# /dev/shm: `ip netns exec` gives every daemon a mount namespace of its own
# (mounts do not propagate back), where a fresh tmpfs holds the shared-memory
# segments of the host's processes (Open MPI's vader btl) and goes away with
# them, also when they are killed. The session directories go to the run
# directory (unless mpirun names one), so teardown removes them too.
agent="$run_dir/launch_agent.sh"
ip_path=$(command -v ip)   # mpirun may run with a PATH without /usr/sbin
unshare_path=$(command -v unshare)
mount_path=$(command -v mount)
cat >"$agent" <<AGENT
#!/usr/bin/env bash
# Open MPI launch agent (plm_rsh_agent) for the hosts of tools/hosts.sh.
while [[ "\${1:-}" == -* ]]; do shift; done
host="\${1:-}"; shift || true
if [[ ! "\$host" =~ ^${prefix}[0-9]+\$ ]] || ! ${ip_path} netns pids "\$host" >/dev/null 2>&1; then
  echo "launch_agent: no simulated host '\$host'" >&2
  exit 255
fi
export OMPI_MCA_orte_tmpdir_base="\${OMPI_MCA_orte_tmpdir_base:-$run_dir/\$host}"
mkdir -p "\$OMPI_MCA_orte_tmpdir_base"
exec ${ip_path} netns exec "\$host" ${unshare_path} --uts /bin/sh -c "echo \$host >/proc/sys/kernel/hostname && ${mount_path} -t tmpfs -o mode=1777 \$host-shm /dev/shm && \$*"
AGENT
chmod +x "$agent"

export ORTHOCOMM_HOSTFILE="$hostfile"
export ORTHOCOMM_LAUNCH_AGENT="$agent"
export ORTHOCOMM_HOSTS_NET="${net}.0/24"
export ORTHOCOMM_HOSTS="$hosts"
export ORTHOCOMM_HOSTS_SLOTS="$slots"
if [[ -n "$map_by" ]]; then export ORTHOCOMM_MAP_BY="$map_by"; fi
say "$hosts hosts up (${prefix}1..${prefix}${hosts}, $slots slot(s) each," \
  "${net}.0/24 on $bridge)${map_by:+, placement $map_by}"

# COMMAND in its own process group (job control), so that a signal reaches
# all of it; the lock's descriptor stays here (a Bazel server started by
# COMMAND would otherwise hold it for as long as it lives). Its input is
# /dev/null: a background process group that reads the terminal is stopped.
set -m
"$@" 9>&- </dev/null &
child=$!
set +m
status=0
wait "$child" || status=$?
child=""
exit "$status"
