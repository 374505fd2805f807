#!/usr/bin/env bash
# Which algorithm wins at scale, by the simulator (experiments/simulate):
# 2-d and 3-d Moore stencils and a partitioned 3-d mesh, allgather and
# alltoall, blocks of 8 B, 512 B and 8 KiB, on 1 to 1,024 nodes of
# --ppn processes (by slot), priced by a machine file. Per operation and
# workload one summary table (direct's time, each algorithm's time over
# it: below 1 is faster; the fastest); with gnuplot, a plot of 3-d Moore's
# ratios against the number of nodes. Writes RESULTS/run.txt,
# RESULTS/table.txt (every summary), RESULTS/<operation>-<workload>.md and
# RESULTS/ratio-<operation>-moore3d.svg.
#
#   tools/simulate_scale.sh [--machine=FILE] [--ppn=P] [--results=DIR]
#
# Defaults: experiments/simulate/machines/infiniband_hdr.machine, 64
# processes a node, docs/results/<YYYY-MM-DD>-simulation-scale.
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/run_facts.sh

machine=experiments/simulate/machines/infiniband_hdr.machine
ppn=64
results=""
for argument in "$@"; do
  case "$argument" in
    --machine=*) machine="${argument#--machine=}" ;;
    --ppn=*) ppn="${argument#--ppn=}" ;;
    --results=*) results="${argument#--results=}" ;;
    *) echo "usage: tools/simulate_scale.sh [--machine=FILE] [--ppn=P]" \
         "[--results=DIR]" >&2
       exit 2 ;;
  esac
done
[[ "$ppn" =~ ^[1-9][0-9]*$ ]] || {
  echo "simulate_scale.sh: --ppn takes a positive number" >&2; exit 2; }
[[ -r "$machine" ]] || {
  echo "simulate_scale.sh: cannot read $machine" >&2; exit 2; }
results="${results:-docs/results/$(date -u +%Y-%m-%d)-simulation-scale}"
mkdir -p "$results"
rm -f "$results/table.txt"

bazel build -c opt //experiments/simulate:simulate >/dev/null 2>&1
simulate=bazel-out/k8-opt/bin/experiments/simulate/simulate
nodes=1,2,4,8,16,32,64,128,256,512,1024
run_facts "tools/simulate_scale.sh $*" >"$results/run.txt"
echo "simulated: $nodes nodes x $ppn processes (by slot), machine $machine" \
  >>"$results/run.txt"

for operation in allgather alltoall; do
  for workload in stencil=moore2d stencil=moore3d graph=mesh3d_96_rcb; do
    name="${workload#*=}"
    "$simulate" --machine="$machine" --"$workload" --operation="$operation" \
      --nodes="$nodes" --ppn="$ppn" --blocks=8,512,8192 --format=summary \
      >"$results/$operation-$name.md" 2>>"$results/run.txt"
    { echo "## $operation, $name: time over direct's (below 1 is faster)"
      grep -v '^# machine' "$results/$operation-$name.md"
      echo; } >>"$results/table.txt"
  done
done

command -v gnuplot >/dev/null || {
  echo "simulate_scale.sh: no gnuplot, no plots" >&2; exit 0; }
for operation in allgather alltoall; do
  table="$results/$operation-moore3d.md"
  data="$(mktemp -d)"
  # Per block: nodes and the ratios of combining, node_aware,
  # common_neighbours and spread_relays to direct.
  for block in 8 8192; do
    awk -F'|' -v block="$block" \
      '$2 ~ /^ *[0-9]+ *$/ && $4 + 0 == block { print $2, $6, $7, $8, $9 }' \
      "$table" >"$data/$block"
  done
  gnuplot <<PLOT
set terminal svg size 900,420 font "sans,12" noenhanced
set output "$results/ratio-$operation-moore3d.svg"
set multiplot layout 1,2 title "3-d Moore $operation: predicted time over direct's (Open MPI's linear algorithm; below 1 is faster), $ppn processes a node"
set logscale x 2
set xlabel "nodes"
set ylabel "time over direct"
set key below horizontal
set yrange [0:*]
# direct, the reference: 1.
set arrow from graph 0, first 1 to graph 1, first 1 nohead dashtype 2
do for [block in "8 8192"] {
  set title sprintf("blocks of %s B", block)
  plot "$data/".block using 1:2 with linespoints title "combining", \
       "$data/".block using 1:3 with linespoints title "node_aware", \
       "$data/".block using 1:4 with linespoints title "common_neighbours", \
       "$data/".block using 1:5 with linespoints title "spread_relays"
}
unset multiplot
PLOT
  rm -rf "$data"
done
