#include "experiments/life/options.h"

#include "experiments/halo/flags.h"

namespace life {
namespace {

// Fills the two variant lists from "a,b,c"; returns the error.
std::string set_variants(std::string_view list, Options& options) {
  options.cells.clear();
  options.blocked.clear();
  for (const std::string_view item : halo::split_list(list)) {
    if (item == "cells") {
      options.cells.push_back(halo::Library::ortho);
    } else if (item == "cells-openmpi") {
      options.cells.push_back(halo::Library::openmpi);
    } else if (item == "all") {
      options.cells = {halo::Library::ortho, halo::Library::openmpi};
      options.blocked = halo::all_implementations();
    } else if (const auto implementation = halo::implementation_named(item)) {
      options.blocked.push_back(*implementation);
    } else {
      return "--variant: unknown variant '" + std::string(item) + "'";
    }
  }
  return "";
}

std::string apply_value(std::string_view name, std::string_view value,
                        Options& options) {
  const std::string flag = "--" + std::string(name) + "=" + std::string(value);
  if (name == "n" || name == "iterations" || name == "batch") {
    const auto number = halo::parse_int(value, 1);
    if (!number) return flag + ": must be a positive integer";
    (name == "n"            ? options.n
     : name == "iterations" ? options.iterations
                            : options.batch) = *number;
  } else if (name == "seed") {
    const auto seed = halo::parse_uint64(value);
    if (!seed) return flag + ": must be a non-negative integer";
    options.seed = *seed;
  } else if (name == "borders") {
    if (value != "fixed" && value != "periodic") {
      return flag + ": must be fixed or periodic";
    }
    options.borders =
        value == "fixed" ? halo::Borders::fixed : halo::Borders::periodic;
  } else if (name == "variant") {
    return set_variants(value, options);
  } else if (name == "png") {
    if (value.empty()) return flag + ": needs a file name";
    options.png = value;
  } else {
    return "unknown flag --" + std::string(name);
  }
  return "";
}

}  // namespace

ParsedOptions parse_options(std::span<const std::string_view> args) {
  ParsedOptions parsed;
  parsed.error = halo::parse_flags(
      args, parsed.help,
      [&](std::string_view name) -> std::string {
        if (name == "inject-error") {
          parsed.options.inject_error = true;
          return "";
        }
        if (name == "reorder") {
          parsed.options.reorder = true;
          return "";
        }
        return "unknown flag --" + std::string(name);
      },
      [&](std::string_view name, std::string_view value) {
        return apply_value(name, value, parsed.options);
      });
  return parsed;
}

std::string usage(std::string_view program) {
  return "usage: mpirun -np P " + std::string(program) +
         " [--n=N] [--iterations=K] [--variant=LIST]\n"
         "           [--borders=fixed|periodic] [--seed=S] [--batch=B] "
         "[--png=FILE] [--reorder]\n"
         "           [--inject-error]\n"
         "Conway's Game of Life on orthocomm and on Open MPI, each run "
         "checked against a serial run.\n"
         "  --n=N           side of the blocked board, N >= the process "
         "grid's sides (default 96)\n"
         "  --iterations=K  generations (default 100; fewer if all die)\n"
         "  --variant=LIST  comma-separated (default "
         "cells,openmpi,ortho-selected):\n"
         "                  cells          Listing 7: one cell per process, "
         "sparse ortho::allreduce\n"
         "                  cells-openmpi  the same on Open MPI "
         "(MPI_Neighbor_allgather + sum)\n"
         "                  openmpi[-persistent]  blocked board, "
         "MPI_Neighbor_alltoallw (Figure 1a)\n"
         "                  ortho-direct|ortho-combining|ortho-selected"
         "[-persistent]\n"
         "                                 blocked board, ortho::alltoallw "
         "(Figure 1b), algorithm forced or selected\n"
         "                  all            every one of them\n"
         "  --borders=B     fixed (dead outside, default) or periodic (a "
         "torus)\n"
         "  --seed=S        seed of the initial board (default 1)\n"
         "  --batch=B       generations per timed batch (default 10)\n"
         "  --png=FILE      write the final board of the first variant as a "
         "PNG\n"
         "  --reorder       make ortho's graphs with Reorder::yes: on several "
         "hosts the processes\n"
         "                  may be mapped onto the grid anew (Open MPI's "
         "variants keep their order)\n"
         "  --inject-error  flip one cell of each result before the check "
         "(the run then fails)\n"
         "Prints one line per variant on rank 0, and one with the traffic "
         "between hosts of each\n"
         "of ortho's graphs (mapping); exits 1 if a board differs from the "
         "serial run's, 2 on a bad flag.\n";
}

}  // namespace life
