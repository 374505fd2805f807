// Game of Life experiment: the command-line flags of the life program
// (MPI-free).
#ifndef ORTHOCOMM_EXPERIMENTS_LIFE_OPTIONS_H_
#define ORTHOCOMM_EXPERIMENTS_LIFE_OPTIONS_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "experiments/halo/decomposition.h"
#include "experiments/halo/implementation.h"

namespace life {

struct Options {
  int n = 96;            // the blocked board is n x n
  int iterations = 100;  // generations (fewer if everything dies)
  // Listing 7, one cell per process: ortho (cells) and/or Open MPI
  // (cells-openmpi); the board is the process grid.
  std::vector<halo::Library> cells{halo::Library::ortho};
  // The blocked board's halo exchange implementations.
  std::vector<halo::Implementation> blocked{
      {halo::Library::openmpi, halo::Mode::blocking, halo::Algorithm::selected},
      {halo::Library::ortho, halo::Mode::blocking, halo::Algorithm::selected}};
  halo::Borders borders = halo::Borders::fixed;
  std::uint64_t seed = 1;
  int batch = 10;   // generations per timed batch
  std::string png;  // where to write the final board ("": nowhere)
  bool inject_error = false;
  // ortho's graphs made with Reorder::yes (ortho/mapping.h).
  bool reorder = false;
};

// Run with `options`, print the usage (help), or refuse (error says why).
struct ParsedOptions {
  Options options;
  bool help = false;
  std::string error;
};

ParsedOptions parse_options(std::span<const std::string_view> args);

std::string usage(std::string_view program);

}  // namespace life

#endif  // ORTHOCOMM_EXPERIMENTS_LIFE_OPTIONS_H_
