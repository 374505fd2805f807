// Fox's matrix multiplication (lecture notes, "Communicators and Topologies:
// Matrix Multiplication Example") on orthocomm: a q x q process grid built
// with classic's Cartesian topology and with naming's Cartesian naming,
// local blocks multiplied by Eigen, the result gathered and compared with
// Eigen's product of the whole matrices.
//
//   mpirun -np 9 bazel-bin/experiments/fox/fox --n=360 --repetitions=5
//
// Prints, on rank 0, one line per variant:
//   fox variant=cartesian n=360 q=3 nb=120 repetitions=5
//       seconds_per_multiplication=0.0123 result=correct
// Exit status: 0 when every product is correct, 1 on a mismatch (the line
// then says which entry), 2 on a bad flag or a process count that is not a
// perfect square.
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "classic/base/environment.h"
#include "classic/base/error.h"
#include "classic/collectives/collectives.h"
#include "classic/comm/comm.h"
#include "experiments/fox/blocks.h"
#include "experiments/fox/grid.h"
#include "experiments/fox/multiply.h"
#include "experiments/fox/options.h"
#include "experiments/fox/verify.h"

namespace {

constexpr int kMismatch = 1;
constexpr int kUsage = 2;

bool is_root() { return classic::Comm::world().rank() == 0; }

// A refusal: the reason and the usage on rank 0, the usage exit status.
int refuse(std::string_view program, const std::string& reason) {
  if (is_root()) {
    std::fprintf(stderr, "fox: %s\n%s", reason.c_str(),
                 fox::usage(program).c_str());
  }
  return kUsage;
}

// Seconds per call of fox_multiply over `repetitions` calls, the maximum
// over processes; `c` gets the last product.
double time_multiplications(const fox::FoxGrid& grid, const Eigen::MatrixXd& a,
                            const Eigen::MatrixXd& b, int repetitions,
                            Eigen::MatrixXd& c) {
  classic::barrier(grid.grid);
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < repetitions; ++i) c = fox::fox_multiply(grid, a, b);
  const std::chrono::duration<double> elapsed =
      std::chrono::steady_clock::now() - start;
  const double mine = elapsed.count() / repetitions;
  double slowest = 0;
  classic::allreduce(grid.grid, std::span<const double>(&mine, 1),
                     std::span<double>(&slowest, 1), MPI_MAX);
  return slowest;
}

// One variant: build the grid, multiply, check; prints the summary line.
bool run_variant(fox::Variant variant, const fox::Options& options, int nb) {
  const fox::FoxGrid grid = fox::make_grid(variant, classic::Comm::world());
  const fox::Problem problem{options.n, options.seed};
  const Eigen::MatrixXd a =
      fox::input_block(problem, fox::Operand::a, nb, grid.position);
  const Eigen::MatrixXd b =
      fox::input_block(problem, fox::Operand::b, nb, grid.position);
  Eigen::MatrixXd c;
  const double seconds =
      time_multiplications(grid, a, b, options.repetitions, c);
  if (options.inject_error && grid.grid.rank() == grid.grid.size() - 1) {
    c(nb - 1, nb - 1) += 1;
  }
  const fox::Verdict verdict = fox::verify_product(grid, c, problem);
  if (grid.grid.rank() == 0) {
    const std::string result =
        verdict.correct ? "correct" : "MISMATCH " + verdict.detail;
    std::printf(
        "fox variant=%s n=%d q=%d nb=%d repetitions=%d "
        "seconds_per_multiplication=%.6g result=%s\n",
        std::string(fox::to_string(variant)).c_str(), options.n, grid.q, nb,
        options.repetitions, seconds, result.c_str());
    std::fflush(stdout);
  }
  return verdict.correct;
}

int run(std::span<const std::string_view> args, std::string_view program) {
  const fox::ParsedOptions parsed = fox::parse_options(args);
  if (parsed.help) {
    if (is_root()) std::printf("%s", fox::usage(program).c_str());
    return 0;
  }
  if (!parsed.error.empty()) return refuse(program, parsed.error);
  int nb = 0;
  try {
    const int q = fox::grid_order(classic::Comm::world().size());
    nb = fox::block_order(parsed.options.n, q);
  } catch (const classic::Error& error) {
    return refuse(program, error.what());
  }
  bool correct = true;
  for (const fox::Variant variant : parsed.options.variants) {
    correct = run_variant(variant, parsed.options, nb) && correct;
  }
  return correct ? 0 : kMismatch;
}

}  // namespace

int main(int argc, char** argv) {
  classic::Environment environment(argc, argv,
                                   classic::UncaughtErrors::report_and_abort);
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  return run(args, argv[0]);
}
