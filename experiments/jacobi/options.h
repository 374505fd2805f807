// 9-point Jacobi experiment: the command-line flags of the jacobi program
// (MPI-free).
#ifndef ORTHOCOMM_EXPERIMENTS_JACOBI_OPTIONS_H_
#define ORTHOCOMM_EXPERIMENTS_JACOBI_OPTIONS_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "experiments/halo/implementation.h"

namespace jacobi {

struct Options {
  int n = 96;            // the matrix is n x n (plus its boundary)
  int iterations = 100;  // at most; fewer once converged
  double tolerance = 1e-6;
  std::vector<halo::Implementation> variants = halo::all_implementations();
  std::uint64_t seed = 1;
  int batch = 10;  // iterations per timed batch
  bool inject_error = false;
  // ortho's graph made with Reorder::yes (ortho/mapping.h).
  bool reorder = false;
};

struct ParsedOptions {
  Options options;
  bool help = false;
  std::string error;
};

ParsedOptions parse_options(std::span<const std::string_view> args);

std::string usage(std::string_view program);

}  // namespace jacobi

#endif  // ORTHOCOMM_EXPERIMENTS_JACOBI_OPTIONS_H_
