#!/usr/bin/env python3
"""The floor table: ortho's neighbourhood collectives over the very messages
they post, from combining_benchmark CSVs (one file per launch).

  python3 tools/floor_table.py RESULTS/raw/launch-*.csv > RESULTS/table.txt

Per operation, stencil and block size, the median over launches of each
launch's median time per call, as ratios (ortho's time over the
reference's: below 1 ortho is faster; over a floor, 1 is no overhead), with
their min-max over launches:
  direct/raw       ortho_direct_us / raw_us: blocking ortho "direct" against
                   MPI_Irecv + MPI_Isend + MPI_Waitall of the same messages;
  sel/openmpi      ortho_selected_us / openmpi_us (MPI_Neighbor_*);
  pers/floor       ortho_selected_persistent_us / the faster of raw and
                   raw_persistent (MPI_Startall over MPI_Recv_init/
                   MPI_Send_init), where the persistent selection is direct;
  pers/openmpi     ortho_selected_persistent_us / openmpi_persistent_us
                   (MPIX_Neighbor_*_init);
  comb/floor       ortho_combining_us / raw_combining_us: ortho's forced
                   combining against the same rounds posted by hand, zero
                   copy (experiments/hand_combined.h), where combining runs;
  comb pers/floor  ortho_selected_persistent_us / the faster of
                   raw_combining and raw_combining_persistent (persistent
                   requests), where the persistent selection is combining;
  sel/best         ortho_selected_us / the fastest forced algorithm's time:
                   forced direct, forced combining and forced mpi (Open
                   MPI's MPI_Neighbor_* behind ortho's dispatch; in older
                   launches without it, Open MPI's own call); 1.00 is
                   the best, above 1 the selection lost; the goal is
                   <= 1.03. `best forced` names the one fastest in most
                   launches;
  pers/best        ortho_selected_persistent_us / the fastest forced
                   persistent request's time: direct's, combining's and
                   mpi's (ortho::<op>_init on a forced communicator);
                   `best persistent` names it likewise;
  choice/best      the forced time, in the same launch, of the algorithm
                   the blocking selection runs over the fastest forced
                   time (of those above): the choice alone, where sel/best
                   also holds the difference between two communicators
                   running one algorithm; none where it runs mpi and the
                   launch did not force mpi through ortho;
  pers choice/best the same for the persistent selection and the forced
                   persistent requests.
A '!' marks a cell whose min-max spans 1 (the difference is within noise).
"""
import collections
import csv
import statistics
import sys

times = collections.defaultdict(dict)  # (launch, op, stencil, block) -> variant
ran = {}  # (launch, op, stencil, block, variant) -> the algorithm it ran
processes = btl = None
for launch, path in enumerate(sys.argv[1:]):
    with open(path) as f:
        for row in csv.DictReader(f):
            key = (launch, row["operation"], row["stencil"],
                   int(row["block_bytes"]))
            times[key][row["variant"]] = float(row["time_us"])
            ran[key + (row["variant"],)] = row["algorithm"]
            processes, btl = row["processes"], row["btl"]


def floor_persistent(t, key):
    if ran.get(key + ("ortho_selected_persistent",)) != "direct":
        return None
    return t["ortho_selected_persistent"] / min(t["raw"], t["raw_persistent"])


def combining_floor(t, key):
    if "raw_combining" not in t or "ortho_combining" not in t:
        return None
    return t["ortho_combining"] / t["raw_combining"]


def combining_floor_persistent(t, key):
    if (ran.get(key + ("ortho_selected_persistent",)) != "combining"
            or "raw_combining_persistent" not in t):
        return None
    return (t["ortho_selected_persistent"] /
            min(t["raw_combining"], t["raw_combining_persistent"]))


FORCED = {"ortho_direct": "direct", "ortho_combining": "combining",
          "ortho_mpi": "mpi"}


FORCED_PERSISTENT = {"ortho_direct_persistent": "direct",
                     "ortho_combining_persistent": "combining",
                     "ortho_mpi_persistent": "mpi"}


def forced_times(t, forced):
    """Each forced algorithm's time by name; where the launch forced no mpi
    (older CSVs), Open MPI's own call stands in for it."""
    by_name = {name: t[v] for v, name in forced.items() if v in t}
    if "mpi" not in by_name:
        own = "openmpi_persistent" if forced is FORCED_PERSISTENT else "openmpi"
        if own in t:
            by_name["mpi"] = t[own]
    return by_name


def best_forced(t, forced=None):
    forced = FORCED if forced is None else forced
    present = [(time, name) for name, time in forced_times(t, forced).items()]
    return min(present) if present else None


def selected_over_best(t, key):
    best = best_forced(t)
    if best is None or "ortho_selected" not in t:
        return None
    return t["ortho_selected"] / best[0]


def persistent_over_best(t, key):
    # Only where the forced persistent requests ran (older runs lack them).
    if "ortho_direct_persistent" not in t:
        return None
    best = best_forced(t, FORCED_PERSISTENT)
    return t["ortho_selected_persistent"] / best[0]


def choice_over_best(t, key, variant, forced):
    chosen = ran.get(key + (variant,))
    by_name = forced_times(t, forced)
    if chosen not in by_name or (chosen == "mpi"
                                 and not any(v in t for v in forced
                                             if forced[v] == "mpi")):
        return None
    return by_name[chosen] / min(by_name.values())


metrics = {
    "direct/raw": lambda t, p: t["ortho_direct"] / t["raw"],
    "sel/openmpi": lambda t, p: t["ortho_selected"] / t["openmpi"],
    "pers/floor": floor_persistent,
    "pers/openmpi": lambda t, p: t["ortho_selected_persistent"] /
    t["openmpi_persistent"],
    "comb/floor": combining_floor,
    "comb pers/floor": combining_floor_persistent,
    "sel/best": selected_over_best,
    "pers/best": persistent_over_best,
    "choice/best": lambda t, k: choice_over_best(t, k, "ortho_selected",
                                                 FORCED),
    "pers choice/best": lambda t, k: choice_over_best(
        t, k, "ortho_selected_persistent", FORCED_PERSISTENT),
}
values = collections.defaultdict(list)
best_names = collections.defaultdict(collections.Counter)
best_persistent_names = collections.defaultdict(collections.Counter)
for (launch, op, stencil, block), t in times.items():
    best = best_forced(t)
    if best is not None:
        best_names[(op, stencil, block)][best[1]] += 1
    if "ortho_direct_persistent" in t:
        best = best_forced(t, FORCED_PERSISTENT)
        best_persistent_names[(op, stencil, block)][best[1]] += 1
    for name, metric in metrics.items():
        ratio = metric(t, (launch, op, stencil, block))
        if ratio is not None:
            values[(op, stencil, block, name)].append(ratio)

launches = len(sys.argv) - 1
print(f"ortho over its own messages: {processes} processes, btl {btl}, "
      f"{launches} launches (median [min-max] over launches; ratios: "
      f"ortho's time over the reference's, below 1 is faster)")
print(f"{'operation':10} {'stencil':12} {'block B':>8} " +
      " ".join(f"{m:>19}" for m in metrics) + f" {'best forced':>12}"
      f" {'best persistent':>15}")
for op, stencil, block in sorted({k[1:] for k in times}):
    cells = []
    for name in metrics:
        ratios = values.get((op, stencil, block, name))
        if not ratios:
            cells.append("-")
            continue
        noisy = "!" if min(ratios) < 1 < max(ratios) else " "
        cells.append(f"{statistics.median(ratios):.2f} "
                     f"[{min(ratios):.2f}-{max(ratios):.2f}]{noisy}")
    names = best_names.get((op, stencil, block))
    best = names.most_common(1)[0][0] if names else "-"
    names = best_persistent_names.get((op, stencil, block))
    best_persistent = names.most_common(1)[0][0] if names else "-"
    print(f"{op:10} {stencil:12} {block:>8} " +
          " ".join(f"{c:>19}" for c in cells) + f" {best:>12}"
          f" {best_persistent:>15}")
