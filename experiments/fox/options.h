// Fox experiment: the command-line flags of the fox program (MPI-free).
#ifndef ORTHOCOMM_EXPERIMENTS_FOX_OPTIONS_H_
#define ORTHOCOMM_EXPERIMENTS_FOX_OPTIONS_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "experiments/fox/grid.h"

namespace fox {

struct Options {
  int n = 240;  // divisible by q = 1, 2, 3, 4, 5, 6, 8
  int repetitions = 3;
  std::vector<Variant> variants{Variant::cartesian, Variant::named};
  std::uint64_t seed = 1;
  // Adds 1 to one entry of the last process's C block before the check, to
  // show that the check fails (and the program exits non-zero).
  bool inject_error = false;
};

// What the command line asked for: run with `options`, print the usage
// (help), or refuse (error says why).
struct ParsedOptions {
  Options options;
  bool help = false;
  std::string error;
};

// Parses the flags (argv without the program name). Divisibility of n by q
// is checked later, when q is known (block_order).
ParsedOptions parse_options(std::span<const std::string_view> args);

// The usage message, for --help and after an error.
std::string usage(std::string_view program);

}  // namespace fox

#endif  // ORTHOCOMM_EXPERIMENTS_FOX_OPTIONS_H_
