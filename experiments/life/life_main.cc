// Conway's Game of Life on orthocomm (the paper, Listing 7 and section 3.4)
// and on Open MPI, every result checked against a serial run of the same
// board:
//   cells      Listing 7: one cell per process, the sparse allreduce over
//              the generated Moore neighbourhood, the global check on the
//              base communicator (cells-openmpi: the same on Open MPI);
//   blocked    an N x N board in Eigen arrays over a Cartesian-named
//              process grid, the halo (Figure 1's ROW, COL and corner
//              datatypes) exchanged by the unified alltoallw on the
//              8-neighbourhood (openmpi: MPI_Neighbor_alltoallw).
//
//   mpirun -np 9 bazel-bin/experiments/life/life --n=96 --iterations=100
//
// Prints on rank 0 a line for the serial run and one per variant, and for
// each of ortho's graphs (the blocked board's, Listing 7's) one with its
// traffic between hosts (experiments/halo/report.h; --reorder makes them
// with Reorder::yes, ortho/mapping.h). Exit status: 0 when every board
// equals the serial run's, 1 on a mismatch, 2 on a bad flag or a board
// smaller than the process grid.
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
#include "experiments/halo/spread.h"
#include "experiments/life/board.h"
#include "experiments/life/cells.h"
#include "experiments/life/options.h"
#include "experiments/life/png.h"
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
    std::fprintf(stderr, "life: %s\n%s", reason.c_str(),
                 life::usage(program).c_str());
  }
  return kUsage;
}

// The serial run of a rows x columns board, on rank 0 only.
std::unique_ptr<halo::SerialResult<std::uint8_t>> serial(
    const life::Options& options, const halo::Setting& setting) {
  if (world_rank() != 0) return nullptr;
  auto result =
      std::make_unique<halo::SerialResult<std::uint8_t>>(halo::serial_run(
          life::model(options.seed, setting.rows, setting.columns),
          setting.rows, setting.columns, options.borders, options.iterations));
  print(halo::serial_line(setting, result->iterations, result->value,
                          halo::checksum(result->interior)));
  return result;
}

void write_board(const std::string& path, const life::Board& board) {
  if (path.empty() || board.size() == 0) return;
  const auto rows = static_cast<int>(board.rows());
  const auto columns = static_cast<int>(board.cols());
  const int scale = std::max(1, 512 / std::max(rows, columns));
  const std::vector<std::uint8_t> pixels =
      life::board_pixels({board.data(), static_cast<std::size_t>(board.size())},
                         rows, columns, scale);
  life::write_png(path, columns * scale, rows * scale, pixels);
  std::fprintf(stderr, "life: wrote the final board to %s\n", path.c_str());
}

// The blocked board on every implementation asked for.
bool run_blocked(const life::Options& options, halo::Setting setting,
                 life::Board& first) {
  setting.rows = setting.columns = options.n;
  const auto reference = serial(options, setting);
  const halo::GridSpec spec{options.n, setting.dims, options.borders,
                            options.reorder};
  const halo::RunOptions run{options.iterations, options.batch,
                             options.inject_error};
  const std::vector<halo::Report> reports = halo::run_and_verify(
      options.blocked, spec, life::model(options.seed, options.n, options.n),
      MPI_UINT8_T, run, reference.get(), &first);
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
  return correct;
}

// Listing 7: the board is the process grid.
bool run_cells(const life::Options& options, halo::Setting setting,
               life::Board& first) {
  setting.rows = setting.dims[0];
  setting.columns = setting.dims[1];
  const auto reference = serial(options, setting);
  std::vector<std::unique_ptr<life::Cells>> cells;
  std::vector<halo::Stepper*> steppers;
  std::vector<halo::Traffic> traffic;
  std::string mapping;  // the first ortho graph's
  for (const halo::Library library : options.cells) {
    cells.push_back(life::make_cells(library, setting.dims, options.borders,
                                     options.seed, options.reorder));
    steppers.push_back(cells.back().get());
    traffic.push_back(halo::max_over_world(cells.back()->traffic()));
    if (mapping.empty()) mapping = cells.back()->mapping();
  }
  const auto times =
      halo::run_interleaved(steppers, options.iterations, options.batch);
  bool correct = true;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    life::Cells& cell = *cells[i];
    if (options.inject_error &&
        world_rank() == classic::Environment::world_size() - 1) {
      cell.flip();
    }
    halo::Report report;
    report.implementation = life::cells_name(options.cells[i]);
    report.algorithm = cell.algorithm();
    report.iterations = cell.iterations();
    report.seconds = halo::spread_of(times[i]);
    report.traffic = traffic[i];
    report.value = cell.population();
    const life::Board state = life::Board::Constant(1, 1, cell.state());
    const life::Board board =
        halo::gather_grid(cell.block(), state, setting.rows, setting.columns);
    halo::verify(board, cell.iterations(), reference.get(), report);
    if (i == 0 && first.size() == 0) first = board;
    print(halo::report_line(setting, report));
    correct = correct && report.correct;
  }
  if (!mapping.empty()) {
    print(halo::mapping_line(setting, "cells", options.reorder, mapping));
  }
  return correct;
}

int run(std::span<const std::string_view> args, std::string_view program) {
  const life::ParsedOptions parsed = life::parse_options(args);
  if (parsed.help) {
    if (world_rank() == 0) std::printf("%s", life::usage(program).c_str());
    return 0;
  }
  if (!parsed.error.empty()) return refuse(program, parsed.error);
  const life::Options& options = parsed.options;
  const int processes = classic::Environment::world_size();
  const std::vector<int> dims =
      classic::dims_create(processes, std::array{0, 0});
  if (!options.blocked.empty() &&
      (options.n < dims[0] || options.n < dims[1])) {
    return refuse(program, "--n=" + std::to_string(options.n) +
                               " is smaller than the " +
                               std::to_string(dims[0]) + " x " +
                               std::to_string(dims[1]) + " process grid");
  }
  halo::Setting setting;
  setting.program = "life";
  setting.processes = processes;
  setting.dims = {dims[0], dims[1]};
  setting.borders = options.borders;
  setting.value_name = "population";
  life::Board first;
  bool correct = true;
  if (!options.blocked.empty()) {
    correct = run_blocked(options, setting, first) && correct;
  }
  if (!options.cells.empty()) {
    correct = run_cells(options, setting, first) && correct;
  }
  if (world_rank() == 0) write_board(options.png, first);
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
    std::fprintf(stderr, "life: %s\n", error.what());
    return kMismatch;
  }
}
