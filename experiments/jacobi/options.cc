#include "experiments/jacobi/options.h"

#include "experiments/halo/flags.h"

namespace jacobi {
namespace {

std::string set_variants(std::string_view list, Options& options) {
  options.variants.clear();
  for (const std::string_view item : halo::split_list(list)) {
    if (item == "all") {
      const auto all = halo::all_implementations();
      options.variants.insert(options.variants.end(), all.begin(), all.end());
    } else if (const auto implementation = halo::implementation_named(item)) {
      options.variants.push_back(*implementation);
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
  } else if (name == "tolerance") {
    const auto tolerance = halo::parse_double(value, 0.0);
    if (!tolerance) return flag + ": must be a number >= 0";
    options.tolerance = *tolerance;
  } else if (name == "seed") {
    const auto seed = halo::parse_uint64(value);
    if (!seed) return flag + ": must be a non-negative integer";
    options.seed = *seed;
  } else if (name == "variant") {
    return set_variants(value, options);
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
         " [--n=N] [--iterations=K] [--tolerance=T]\n"
         "           [--variant=LIST] [--seed=S] [--batch=B] "
         "[--reorder] [--inject-error]\n"
         "The 9-point Jacobi iteration with a convergence check (the paper, "
         "Figure 1) on Open MPI\n"
         "and on orthocomm, every result checked bit for bit against a "
         "serial run.\n"
         "  --n=N           order of the matrix, N >= the process grid's "
         "sides (default 96)\n"
         "  --iterations=K  at most K iterations (default 100)\n"
         "  --tolerance=T   stop once no value changes by more than T "
         "(default 1e-6)\n"
         "  --variant=LIST  comma-separated (default all):\n"
         "                  openmpi, openmpi-persistent      Figure 1a: "
         "MPI_Neighbor_alltoallw\n"
         "                  ortho-direct, ortho-combining, ortho-selected\n"
         "                  (each also -persistent)          Figure 1b: "
         "ortho::alltoallw, algorithm\n"
         "                                                   forced or "
         "selected\n"
         "  --seed=S        seed of the initial values (default 1)\n"
         "  --batch=B       iterations per timed batch (default 10)\n"
         "  --reorder       make ortho's graph with Reorder::yes: on several "
         "hosts the processes\n"
         "                  may be mapped onto the grid anew (Open MPI's "
         "variants keep their order)\n"
         "  --inject-error  change the last bit of one value of each result "
         "before the check\n"
         "Prints one line per variant on rank 0, and one with the traffic "
         "between hosts of\n"
         "ortho's graph (mapping); exits 1 if a result differs from the "
         "serial run's, 2 on a bad flag.\n";
}

}  // namespace jacobi
