#!/usr/bin/env bash
# Runs experiments/spmv under mpirun on a square and a rectangular matrix
# (experiments/spmv/data): every forward implementation's y must equal the
# serial run's bit for bit and every accumulate's z (A^T w, along the halo
# reversed: ortho::reverse among them) the serial one's to rounding
# (result=correct, exit 0); with one implementation's exchange spoiled on
# purpose (--corrupt), a forward one and an accumulate, the program must
# report that one as result=MISMATCH and exit 1. Placed on two simulated
# hosts (ORTHO_HOSTS=2, --placement=bytes), every implementation must be
# correct on both distributions, and the bytes between hosts of the placed
# one must not exceed those by slot; an unknown placement exits 2. With
# --seconds every implementation runs the same whole batches, at least
# --iterations, checked against a serial run of that many, each with its
# batches over Open MPI's in the same round (paired_p10/p90) where Open
# MPI's ran; a --seconds that is not a positive number exits 2. The
# refusals of bad options and the spoiled runs do not depend on the number
# of processes: they run at 4 only, the results at every NP.
#   spmv_test.sh NP MPIRUN_TEST MPIRUN SPMV SQUARE.mtx RECTANGULAR.mtx
set -uo pipefail
np="$1"; mpirun_test="$2"; mpirun="$3"; spmv="$4"; square="$5"; rectangular="$6"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
output="$dir/spmv.txt"
fail() {
  echo "FAIL: $*"
  sed 's/^/  | /' "$output"
  exit 1
}
variants="openmpi openmpi-persistent raw ortho-direct ortho-node-aware
  ortho-common-neighbours ortho-spread-relays ortho-mpi ortho-selected
  ortho-selected-persistent
  accumulate-openmpi accumulate-raw accumulate-reverse
  accumulate-persistent accumulate-direct"
# Forced, the algorithms that serve a reverse across hosts only.
across_hosts="accumulate-node-aware accumulate-common-neighbours
  accumulate-spread-relays"
for matrix in "$square" "$rectangular"; do
  bash "$mpirun_test" "$np" "$mpirun" "$spmv" --matrix="$matrix" \
    --iterations=40 >"$output" 2>&1 || fail "exit status $? on $matrix"
  for variant in $variants; do
    grep -q "^spmv variant=$variant matrix=$(basename "$matrix") .* result=correct$" \
      "$output" || fail "no correct result of $variant on $matrix"
  done
  # On one host they run nowhere and print no line (node_aware is direct's
  # messages there; the others relay along its graph).
  for variant in $across_hosts; do
    ! grep -q "^spmv variant=$variant " "$output" ||
      fail "$variant ran on one host"
  done
done
bash "$mpirun_test" "$np" "$mpirun" "$spmv" --matrix="$square" \
  --iterations=10 --seconds=0.05 --variant=openmpi,ortho-selected,accumulate-reverse \
  >"$output" 2>&1 || fail "exit status $? with --seconds"
timed=$(sed -n 's/^spmv variant=.* iterations=\([0-9]*\) .* batches=\([0-9]*\) .* result=correct$/\1 \2/p' \
  "$output" | sort -u)
[[ $(grep -c "^spmv variant=.* result=correct$" "$output") -eq 3 ]] ||
  fail "not three correct results with --seconds"
read -r iterations batches <<<"$timed"
[[ $(wc -l <<<"$timed") -eq 1 && "$iterations" -ge 10 &&
   "$batches" -eq $((iterations / 10)) && $((iterations % 10)) -eq 0 ]] ||
  fail "with --seconds the implementations ran (iterations batches) '$timed'"
# The paired spread: Open MPI's batches over themselves are 1; another
# implementation's lie in order; none without its reference.
grep -q "^spmv variant=openmpi .* paired_p10=1 paired_p90=1 batches=" "$output" ||
  fail "Open MPI's paired spread over itself is not 1"
read -r p10 p90 <<<"$(sed -n 's/^spmv variant=ortho-selected .* paired_p10=\([^ ]*\) paired_p90=\([^ ]*\) .*/\1 \2/p' "$output")"
awk -v a="$p10" -v b="$p90" 'BEGIN { exit !(a > 0 && a <= b) }' ||
  fail "ortho-selected's paired spread '$p10' '$p90'"
grep -q "^spmv variant=accumulate-reverse .* paired_p10=" "$output" &&
  fail "a paired spread without accumulate-openmpi"
if [[ "$np" -gt 1 ]]; then
  bash "$mpirun_test" "$np" "$mpirun" "$spmv" --matrix="$square" \
    --partition=metis --iterations=20 >"$output" 2>&1 ||
    fail "exit status $? on $square partitioned by METIS"
  for variant in $variants; do
    grep -q "^spmv variant=$variant matrix=.* partition=metis .* result=correct$" \
      "$output" || fail "no correct result of $variant under METIS"
  done
  ORTHO_HOSTS=2 bash "$mpirun_test" "$np" "$mpirun" "$spmv" \
    --matrix="$square" --partition=metis --placement=bytes --iterations=20 \
    >"$output" 2>&1 || fail "exit status $? placed on two hosts"
  for variant in $variants $across_hosts; do
    for placement in identity bytes; do
      grep -q "^spmv variant=$variant .* placement=$placement .* result=correct$" \
        "$output" || fail "no correct result of $variant, placement=$placement"
    done
  done
  # What each algorithm sends: node_aware at most one message per ordered
  # pair of the two hosts, never more between them than direct.
  direct_between=$(sed -n 's/^spmv traffic .* placement=identity algorithm=direct .* messages_between_hosts_total=\([0-9]*\)$/\1/p' "$output")
  aware_between=$(sed -n 's/^spmv traffic .* placement=identity algorithm=node_aware .* messages_between_hosts_total=\([0-9]*\)$/\1/p' "$output")
  [[ "$direct_between" =~ ^[0-9]+$ && "$aware_between" =~ ^[0-9]+$ ]] ||
    fail "no traffic lines for direct and node_aware"
  [[ "$aware_between" -le 2 && "$aware_between" -le "$direct_between" ]] ||
    fail "node_aware sends $aware_between messages between 2 hosts (direct $direct_between)"
  mapping=$(grep "^spmv mapping .* weights=bytes placement=" "$output") ||
    fail "no mapping line"
  identity_bytes=$(sed 's/.* identity_bytes_between_hosts=\([0-9]*\) .*/\1/' <<<"$mapping")
  placed_bytes=$(sed 's/.* bytes_between_hosts=\([0-9]*\)$/\1/' <<<"$mapping")
  [[ "$identity_bytes" =~ ^[0-9]+$ && "$placed_bytes" =~ ^[0-9]+$ ]] ||
    fail "unreadable bytes in: $mapping"
  [[ "$placed_bytes" -le "$identity_bytes" ]] ||
    fail "placed bytes $placed_bytes exceed by-slot bytes $identity_bytes"
fi
if [[ "$np" -eq 4 ]]; then
  for bad in 0 -1 soon; do
    bash "$mpirun_test" "$np" "$mpirun" "$spmv" --matrix="$square" \
      --seconds="$bad" >"$output" 2>&1
    status=$?
    [[ $status -eq 2 ]] || fail "--seconds=$bad exited $status, not 2"
    grep -q "seconds: a positive number of seconds, not '$bad'" "$output" ||
      fail "--seconds=$bad says nothing"
  done
  bash "$mpirun_test" "$np" "$mpirun" "$spmv" --matrix="$rectangular" \
    --partition=metis --iterations=2 >"$output" 2>&1
  status=$?
  [[ $status -eq 2 ]] || fail "METIS on a rectangular matrix exited $status"
  grep -q "METIS partitions a square matrix" "$output" ||
    fail "METIS on a rectangular matrix says nothing"
  bash "$mpirun_test" "$np" "$mpirun" "$spmv" --matrix="$square" \
    --placement=anywhere >"$output" 2>&1
  status=$?
  [[ $status -eq 2 ]] || fail "--placement=anywhere exited $status, not 2"
  grep -q "placement: identity, bytes or messages, not 'anywhere'" "$output" ||
    fail "--placement=anywhere says nothing"
  for spoiled in ortho-selected accumulate-reverse; do
    bash "$mpirun_test" "$np" "$mpirun" "$spmv" --matrix="$square" \
      --iterations=20 --corrupt="$spoiled" >"$output" 2>&1
    status=$?
    [[ $status -eq 1 ]] || fail "spoiled $spoiled exited $status, not 1"
    grep -q "^spmv variant=$spoiled matrix=.* result=MISMATCH$" "$output" ||
      fail "the spoiled $spoiled is not reported as MISMATCH"
    for other in openmpi accumulate-openmpi; do
      grep -q "^spmv variant=$other matrix=.* result=correct$" "$output" ||
        fail "the unspoiled $other is not reported correct"
    done
  done
fi
echo "PASS"
