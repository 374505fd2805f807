#!/usr/bin/env python3
"""The measured points a simulation is checked against: every forced
algorithm's time per call in the benchmark runs' results folders, with
what the simulator needs to rebuild the run (the job's shape, the
workload, the operation and block size).

  python3 tools/simulation_points.py RESULTS_DIR... > POINTS.csv

RESULTS_DIR: folders written by tools/floor.sh (raw/launch-*.csv),
tools/node_aware.sh (raw.txt), tools/sparse_graphs.sh (raw.csv), as
tools/model_error.py reads them, and tools/sparse.sh (raw.txt of spmv
lines: the forced algorithms' blocking alltoallv, an iteration's time, on
the identity placement). Columns: nodes, ppn, placement (slot or
round_robin, from the folder's run.txt), workload (stencil:NAME,
graph:NAME or matrix:PARTITION:experiments/spmv/data/FILE in
experiments/simulate's names), operation, block_bytes (an SpMV's: 8, one
entry of x), algorithm, measured_us, source (the folder).
"""
import csv
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import model_error  # noqa: E402  (the results' parsers)

FIELDS = ("nodes ppn placement workload operation block_bytes algorithm "
          "measured_us source").split()


def placement_of(folder):
    """round_robin where run.txt says --map-by node, slot otherwise."""
    path = os.path.join(folder, "run.txt")
    text = open(path).read() if os.path.exists(path) else ""
    return "round_robin" if "round-robin" in text else "slot"


def floor_rows(folder):
    """combining_benchmark CSVs: 1 node, stencil moore_2d_d1 -> moore2d_1."""
    rows = []
    for path in sorted(glob.glob(os.path.join(folder, "raw", "launch-*.csv"))):
        for row in csv.DictReader(open(path)):
            if row["variant"] not in ("ortho_direct", "ortho_combining"):
                continue
            match = re.fullmatch(r"(moore|vonneumann)_(\d)d_d(\d+)",
                                 row["stencil"])
            if not match:
                continue
            rows.append({
                "nodes": 1, "ppn": int(row["processes"]),
                "placement": "slot",
                "workload": f"stencil:{match[1]}{match[2]}d_{match[3]}",
                "operation": row["operation"],
                "block_bytes": int(row["block_bytes"]),
                "algorithm": row["algorithm"],
                "measured_us": float(row["time_us"])})
    return rows


def shape_of(setting):
    """'4 hosts x 4, tcp' -> (4, 4)."""
    match = re.match(r"(\d+) hosts? x (\d+)", setting)
    return int(match[1]), int(match[2])


def node_aware_rows(folder):
    """BM_NodeAware/<operation>_<2d|3d>/<ints>: Moore depth 1, 4-byte ints."""
    rows = []
    for setting, name, counters in model_error.node_aware_lines(folder):
        match = re.match(r"BM_NodeAware/(\w+)_(\dd)/(\d+)/", name)
        if not match:
            continue
        nodes, ppn = shape_of(setting)
        for algorithm in model_error.ALGORITHMS:
            if algorithm + "_us" not in counters:
                continue
            rows.append({
                "nodes": nodes, "ppn": ppn,
                "placement": placement_of(folder),
                "workload": f"stencil:moore{match[2]}_1",
                "operation": match[1],
                "block_bytes": 4 * int(match[3]),
                "algorithm": algorithm,
                "measured_us": counters[algorithm + "_us"]})
    return rows


def sparse_rows(folder):
    """sparse_graph_benchmark: <operation>/<graph>/<block bytes>."""
    rows = []
    for setting, name, counters in model_error.sparse_lines(folder):
        nodes, ppn = shape_of(setting)
        operation, graph, block = name.split("/")[:3]
        for algorithm in model_error.ALGORITHMS:
            if algorithm + "_us" not in counters:
                continue
            rows.append({
                "nodes": nodes, "ppn": ppn,
                "placement": placement_of(folder),
                "workload": f"graph:{graph}", "operation": operation,
                "block_bytes": int(block), "algorithm": algorithm,
                "measured_us": counters[algorithm + "_us"]})
    return rows


SPMV_ALGORITHMS = {"ortho-direct": "direct", "ortho-node-aware": "node_aware",
                   "ortho-common-neighbours": "common_neighbours",
                   "ortho-spread-relays": "spread_relays"}


def spmv_shape(folder):
    """run.txt's hosts line: '4 simulated hosts x 4 slots' or 'this
    machine alone, 8 processes'."""
    text = open(os.path.join(folder, "run.txt")).read()
    match = re.search(r"hosts: (\d+) simulated hosts x (\d+) slots", text)
    if match:
        return int(match[1]), int(match[2])
    match = re.search(r"hosts: this machine alone, (\d+) processes", text)
    if match:
        return 1, int(match[1])
    sys.exit(f"simulation_points: {folder}/run.txt names no hosts")


def spmv_rows(folder):
    """spmv variant=ortho-ALGORITHM lines on placement=identity."""
    nodes, ppn = spmv_shape(folder)
    rows = []
    for line in open(os.path.join(folder, "raw.txt")):
        fields = dict(re.findall(r"(\w+)=(\S+)", line))
        algorithm = SPMV_ALGORITHMS.get(fields.get("variant"))
        if (not line.startswith("spmv variant=") or algorithm is None
                or fields.get("placement") != "identity"):
            continue
        rows.append({
            "nodes": nodes, "ppn": ppn, "placement": placement_of(folder),
            "workload": (f"matrix:{fields['partition']}:"
                         f"experiments/spmv/data/{fields['matrix']}"),
            "operation": "alltoallv", "block_bytes": 8,
            "algorithm": algorithm,
            "measured_us": 1e6 * float(fields["seconds_per_iteration"])})
    return rows


def is_spmv(folder):
    path = os.path.join(folder, "raw.txt")
    return os.path.exists(path) and "spmv variant=" in open(path).read()


def rows_of(folder):
    if glob.glob(os.path.join(folder, "raw", "launch-*.csv")):
        return floor_rows(folder)
    if is_spmv(folder):
        return spmv_rows(folder)
    if os.path.exists(os.path.join(folder, "raw.txt")):
        return node_aware_rows(folder)
    if os.path.exists(os.path.join(folder, "raw.csv")):
        return sparse_rows(folder)
    return []


def main(folders):
    writer = csv.DictWriter(sys.stdout, fieldnames=FIELDS)
    writer.writeheader()
    for folder in folders:
        rows = rows_of(folder)
        if not rows:
            sys.exit(f"simulation_points: no measured points in {folder}")
        for row in rows:
            writer.writerow(dict(row, source=os.path.basename(folder)))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: python3 tools/simulation_points.py RESULTS_DIR...")
    main(sys.argv[1:])
