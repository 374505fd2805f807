#include "experiments/fox/verify.h"

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "classic/base/error.h"
#include "classic/collectives/collectives.h"

namespace fox {
namespace {

constexpr int kRoot = 0;

void check_block(const Eigen::MatrixXd& c_block, int nb) {
  if (c_block.rows() != nb || c_block.cols() != nb) {
    throw classic::Error(classic::ErrorClass::count, "fox::verify_product",
                         "c_block is " + std::to_string(c_block.rows()) +
                             " x " + std::to_string(c_block.cols()) +
                             ", expected " + std::to_string(nb) + " x " +
                             std::to_string(nb));
  }
}

// Every process's block, in rank order, at the root; empty elsewhere.
std::vector<double> gather_blocks(const classic::Comm& grid,
                                  const Eigen::MatrixXd& c_block) {
  const std::span<const double> mine(c_block.data(),
                                     static_cast<std::size_t>(c_block.size()));
  std::vector<double> all;
  if (grid.rank() == kRoot) {
    all.resize(mine.size() * static_cast<std::size_t>(grid.size()));
  }
  classic::gather(grid, mine, std::span<double>(all), kRoot);
  return all;
}

// At the root: "" when the assembled product is Eigen's, else the first
// wrong entry.
std::string compare_at_root(const FoxGrid& grid, std::span<const double> blocks,
                            const Problem& problem, int nb) {
  const Eigen::MatrixXd expected =
      input_matrix(problem, Operand::a) * input_matrix(problem, Operand::b);
  const Eigen::MatrixXd actual = assemble(blocks, grid.positions, nb, grid.q);
  const std::optional<Mismatch> mismatch = first_mismatch(expected, actual);
  return mismatch ? describe(*mismatch, nb) : std::string();
}

}  // namespace

Verdict verify_product(const FoxGrid& grid, const Eigen::MatrixXd& c_block,
                       const Problem& problem) {
  const int nb = block_order(problem.n, grid.q);
  check_block(c_block, nb);
  const std::vector<double> blocks = gather_blocks(grid.grid, c_block);
  Verdict verdict{true, ""};
  if (grid.grid.rank() == kRoot) {
    verdict.detail = compare_at_root(grid, blocks, problem, nb);
  }
  int correct = verdict.detail.empty() ? 1 : 0;
  classic::bcast(grid.grid, std::span<int>(&correct, 1), kRoot);
  verdict.correct = correct == 1;
  return verdict;
}

}  // namespace fox
