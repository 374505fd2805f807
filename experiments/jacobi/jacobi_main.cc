// The iterated 9-point stencil with a convergence check of the paper's
// Figure 1, as (a) Open MPI as it is (MPI_Cart_create,
// MPI_Dist_graph_create_adjacent, MPI_Neighbor_alltoallw, MPI_Allreduce)
// and (b) orthocomm's single interface set (cart_name,
// ortho::dist_graph_create_adjacent, ortho::alltoallw on the graph, blocking
// and persistent, with the algorithm forced to direct or combining or as
// selected; classic::allreduce on the base communicator). Every variant's
// final matrix is compared bit for bit with a serial Jacobi of the whole
// matrix.
//
//   mpirun -np 9 bazel-bin/experiments/jacobi/jacobi --n=192
//
// Prints on rank 0 a line for the serial run, one per variant and one with
// the traffic between hosts of ortho's graph (experiments/halo/report.h;
// --reorder makes it with Reorder::yes, ortho/mapping.h). Exit status: 0
// when every result equals the serial run's, 1 on a mismatch, 2 on a bad
// flag or a matrix smaller than the process grid.
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "classic/base/environment.h"
#include "classic/base/error.h"
#include "classic/topology/dims_create.h"
#include "experiments/halo/grid.h"
#include "experiments/halo/report.h"
#include "experiments/halo/run.h"
#include "experiments/jacobi/options.h"
#include "experiments/jacobi/stencil.h"
#include "experiments/progress.h"

namespace {

constexpr int kMismatch = 1;
constexpr int kUsage = 2;

int world_rank() { return classic::Environment::world_rank(); }

void print(const std::string& line) {
  if (world_rank() == 0) {
    std::printf("%s\n", line.c_str());
    std::fflush(stdout);
  }
}

int refuse(std::string_view program, const std::string& reason) {
  if (world_rank() == 0) {
    std::fprintf(stderr, "jacobi: %s\n%s", reason.c_str(),
                 jacobi::usage(program).c_str());
  }
  return kUsage;
}

// The serial Jacobi of the whole matrix, on rank 0 only.
std::unique_ptr<halo::SerialResult<double>> serial(
    const jacobi::Options& options, const halo::Setting& setting) {
  if (world_rank() != 0) return nullptr;
  auto result = std::make_unique<halo::SerialResult<double>>(halo::serial_run(
      jacobi::model(options.seed, options.n, options.tolerance), options.n,
      options.n, halo::Borders::fixed, options.iterations));
  print(halo::serial_line(setting, result->iterations, result->value,
                          halo::checksum(result->interior)));
  return result;
}

int run(std::span<const std::string_view> args, std::string_view program) {
  const jacobi::ParsedOptions parsed = jacobi::parse_options(args);
  if (parsed.help) {
    if (world_rank() == 0) std::printf("%s", jacobi::usage(program).c_str());
    return 0;
  }
  if (!parsed.error.empty()) return refuse(program, parsed.error);
  const jacobi::Options& options = parsed.options;
  const int processes = classic::Environment::world_size();
  const std::vector<int> dims =
      classic::dims_create(processes, std::array{0, 0});
  if (options.n < dims[0] || options.n < dims[1]) {
    return refuse(program, "--n=" + std::to_string(options.n) +
                               " is smaller than the " +
                               std::to_string(dims[0]) + " x " +
                               std::to_string(dims[1]) + " process grid");
  }
  const halo::Setting setting{.program = "jacobi",
                              .rows = options.n,
                              .columns = options.n,
                              .processes = processes,
                              .dims = {dims[0], dims[1]},
                              .borders = halo::Borders::fixed,
                              .value_name = "residual"};
  const auto reference = serial(options, setting);
  const halo::GridSpec spec{options.n, setting.dims, halo::Borders::fixed,
                            options.reorder};
  const halo::RunOptions run{options.iterations, options.batch,
                             options.inject_error};
  const std::vector<halo::Report> reports = halo::run_and_verify<double>(
      options.variants, spec,
      jacobi::model(options.seed, options.n, options.tolerance), MPI_DOUBLE,
      run, reference.get(), nullptr);
  bool correct = true;
  for (const halo::Report& report : reports) {
    print(halo::report_line(setting, report));
    correct = correct && report.correct;
  }
  // Every ortho variant makes the same graph: its mapping once.
  const auto ortho = std::find_if(
      reports.begin(), reports.end(),
      [](const halo::Report& report) { return !report.mapping.empty(); });
  if (ortho != reports.end()) {
    print(halo::mapping_line(setting, "blocked", options.reorder,
                             ortho->mapping));
  }
  return correct ? 0 : kMismatch;
}

}  // namespace

int main(int argc, char** argv) {
  classic::Environment environment(argc, argv,
                                   classic::UncaughtErrors::report_and_abort);
  progress::start(classic::Environment::world_rank(),
                  classic::Environment::world_size());
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  try {
    return run(args, argv[0]);
  } catch (const classic::Error& error) {
    std::fprintf(stderr, "jacobi: %s\n", error.what());
    return kMismatch;
  }
}
