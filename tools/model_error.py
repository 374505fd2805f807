#!/usr/bin/env python3
"""The cost model against the clock: every algorithm's modelled time per
call (its price, ortho::explain's, which the benchmarks record beside what
they measure) over its measured time in the same run.

  python3 tools/model_error.py RESULTS_DIR... > TABLE.md

RESULTS_DIR: folders written by tools/floor.sh (raw/launch-*.csv, the
modelled_us column), tools/node_aware.sh (raw.txt, <algorithm>_model_us
counters) and tools/sparse_graphs.sh (raw.csv, the same counters). Per
setting (hosts x processes, transport) and algorithm: the number of points,
measured / modelled (median and least-greatest: 1 is exact, above 1 the
model is optimistic), and the median error |measured / modelled - 1|.
Then the choice: at how many points the cheapest priced algorithm is also
the fastest of them as measured, and what the model's pick costs over
that fastest one (median and greatest). Last, a refit: one factor per
transport (shared memory; TCP), fitted on all its settings together (4 and
8 processes; 2 and 4 hosts), the geometric mean of measured / modelled;
the error left after it shows what a calibration cannot fix (the model's
shape) against what it can (its scale).
"""
import collections
import csv
import glob
import math
import os
import re
import statistics
import sys

SUFFIXES = {"k": 1e3, "M": 1e6, "G": 1e9, "m": 1e-3, "u": 1e-6, "n": 1e-9}
ALGORITHMS = ("direct", "combining", "node_aware", "common_neighbours",
              "spread_relays")


def value(text):
    """A counter as Google Benchmark's console prints it (1.5k, 250m)."""
    if text and text[-1] in SUFFIXES:
        return float(text[:-1]) * SUFFIXES[text[-1]]
    return float(text)


# One point: setting, transport, point name, algorithm, modelled, measured.
Point = collections.namedtuple(
    "Point", "setting transport point algorithm modelled measured")


def floor_points(folder):
    """combining_benchmark CSVs: the forced algorithms' rows, blocking."""
    points = []
    for path in sorted(glob.glob(os.path.join(folder, "raw", "launch-*.csv"))):
        with open(path) as f:
            for row in csv.DictReader(f):
                if not row.get("modelled_us"):
                    continue
                if row["variant"] not in ("ortho_direct", "ortho_combining"):
                    continue
                transport = "shm" if "vader" in row["btl"] else "tcp"
                setting = f"1 host x {row['processes']}, {transport}"
                name = (f"{row['operation']} {row['stencil']} "
                        f"{row['block_bytes']} B #{row['repetition']} "
                        f"{os.path.basename(path)}")
                points.append(Point(setting, transport, name, row["algorithm"],
                                    float(row["modelled_us"]),
                                    float(row["time_us"])))
    return points


def counter_points(setting, name, counters):
    """The forced algorithms of one benchmark line with a price."""
    return [Point(setting, "tcp" if "hosts" in setting else "shm", name,
                  algorithm, counters[algorithm + "_model_us"],
                  counters[algorithm + "_us"])
            for algorithm in ALGORITHMS
            if counters.get(algorithm + "_model_us", 0) > 0
            and algorithm + "_us" in counters]


def header_setting(line):
    """'... 16 processes on 4 hosts' -> '4 hosts x 4, tcp'."""
    match = re.search(r"(\d+) processes on (\d+) hosts?", line)
    if not match:
        return None
    processes, hosts = int(match.group(1)), int(match.group(2))
    if hosts == 1:
        return f"1 host x {processes}, shm"
    return f"{hosts} hosts x {processes // hosts}, tcp"


def node_aware_lines(folder):
    """node_aware_benchmark's raw.txt: per benchmark line its setting, its
    name and its counters."""
    setting = None
    for line in open(os.path.join(folder, "raw.txt")):
        setting = setting or header_setting(line)
        if not line.startswith("BM_NodeAware/") or setting is None:
            continue
        counters = {k: value(v)
                    for k, v in re.findall(r"(\w+)=([\d.]+[kMGmun]?)", line)}
        yield setting, line.split()[0], counters


def sparse_lines(folder):
    """sparse_graph_benchmark's raw.csv: per row its setting, its name and
    its numeric columns."""
    setting = None
    lines = open(os.path.join(folder, "raw.csv")).read().splitlines()
    for i, line in enumerate(lines):
        setting = setting or header_setting(line)
        if line.startswith("name,"):
            for row in csv.DictReader(lines[i:]):
                counters = {}
                for key, text in row.items():
                    try:
                        counters[key] = float(text)
                    except (TypeError, ValueError):
                        pass
                yield setting, row["name"], counters
            return


def node_aware_points(folder):
    return [p for setting, name, counters in node_aware_lines(folder)
            for p in counter_points(setting, name, counters)]


def sparse_points(folder):
    return [p for setting, name, counters in sparse_lines(folder)
            for p in counter_points(setting, name, counters)]


def points_of(folder):
    if glob.glob(os.path.join(folder, "raw", "launch-*.csv")):
        return floor_points(folder)
    if os.path.exists(os.path.join(folder, "raw.txt")):
        return node_aware_points(folder)
    if os.path.exists(os.path.join(folder, "raw.csv")):
        return sparse_points(folder)
    return []


def spread(values):
    return (f"{statistics.median(values):.2f} "
            f"({min(values):.2f}-{max(values):.2f})")


def main(folders):
    points = [p for folder in folders for p in points_of(folder)]
    if not points:
        sys.exit("model_error: no priced points in " + ", ".join(folders))
    by = collections.defaultdict(list)
    for p in points:
        by[(p.setting, p.algorithm)].append(p)
    print("| setting | algorithm | points | measured / modelled | "
          "median error |")
    print("| --- | --- | ---: | ---: | ---: |")
    for (setting, algorithm), ps in sorted(by.items()):
        ratios = [p.measured / p.modelled for p in ps]
        error = statistics.median(abs(r - 1) for r in ratios)
        print(f"| {setting} | {algorithm} | {len(ps)} | {spread(ratios)} "
              f"| {100 * error:.0f} % |")
    print()
    # The choice among the priced forced algorithms, per point.
    at = collections.defaultdict(dict)
    for p in points:
        at[(p.setting, p.point)][p.algorithm] = p
    choice = collections.defaultdict(list)
    for (setting, _), algorithms in at.items():
        if len(algorithms) < 2:
            continue
        pick = min(algorithms.values(), key=lambda p: p.modelled)
        fastest = min(algorithms.values(), key=lambda p: p.measured)
        choice[setting].append(pick.measured / fastest.measured)
    print("| setting | points with a choice | model's pick is the fastest "
          "| pick / fastest, median (greatest) |")
    print("| --- | ---: | ---: | ---: |")
    for setting, losses in sorted(choice.items()):
        right = sum(1 for loss in losses if loss == 1.0)
        print(f"| {setting} | {len(losses)} | {right} "
              f"| {statistics.median(losses):.2f} ({max(losses):.2f}) |")
    print()
    # One factor per transport, all its settings together.
    print("| transport | factor (measured / modelled) | median error before "
          "| after |")
    print("| --- | ---: | ---: | ---: |")
    for transport in sorted({p.transport for p in points}):
        ps = [p for p in points if p.transport == transport]
        logs = [math.log(p.measured / p.modelled) for p in ps]
        factor = math.exp(statistics.mean(logs))
        before = statistics.median(abs(p.measured / p.modelled - 1) for p in ps)
        after = statistics.median(
            abs(p.measured / (factor * p.modelled) - 1) for p in ps)
        print(f"| {transport} | {factor:.2f} | {100 * before:.0f} % "
              f"| {100 * after:.0f} % |")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: python3 tools/model_error.py RESULTS_DIR...")
    main(sys.argv[1:])
