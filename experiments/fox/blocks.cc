#include "experiments/fox/blocks.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iomanip>
#include <sstream>
#include <string>

#include "classic/base/error.h"

namespace fox {
namespace {

// SplitMix64's finaliser: a well-mixed 64-bit hash of `x`.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::string text(double value) {
  std::ostringstream out;
  out << std::setprecision(17) << value;
  return out.str();
}

void check_index(BlockIndex index, int q) {
  if (index.row < 0 || index.row >= q || index.column < 0 ||
      index.column >= q) {
    throw classic::Error(classic::ErrorClass::arg, "fox::assemble",
                         "block index (" + std::to_string(index.row) + ", " +
                             std::to_string(index.column) +
                             ") is outside the " + std::to_string(q) + " x " +
                             std::to_string(q) + " block grid");
  }
}

}  // namespace

int grid_order(int processes) {
  const std::int64_t q = std::llround(
      std::sqrt(static_cast<double>(processes > 0 ? processes : 0)));
  if (processes < 1 || q * q != processes) {
    throw classic::Error(
        classic::ErrorClass::dims, "fox::grid_order",
        std::to_string(processes) +
            " processes is not a perfect square; Fox's algorithm needs q * q "
            "processes for a q x q grid (1, 4, 9, 16, ...)");
  }
  return static_cast<int>(q);
}

int block_order(int n, int q) {
  if (n < 1 || q < 1 || n % q != 0) {
    throw classic::Error(
        classic::ErrorClass::dims, "fox::block_order",
        "n = " + std::to_string(n) +
            " is not a positive multiple of q = " + std::to_string(q));
  }
  return n / q;
}

double input_entry(std::uint64_t seed, Operand operand, int row, int column) {
  const std::uint64_t position =
      (static_cast<std::uint64_t>(static_cast<std::uint32_t>(row)) << 32) |
      static_cast<std::uint32_t>(column);
  const std::uint64_t which = operand == Operand::a ? 0 : 1;
  const std::uint64_t hash = mix(mix(mix(seed) ^ which) ^ position);
  return static_cast<double>(static_cast<int>(hash % 9) - 4);
}

Eigen::MatrixXd input_matrix(const Problem& problem, Operand operand) {
  return input_block(problem, operand, problem.n, BlockIndex{0, 0});
}

Eigen::MatrixXd input_block(const Problem& problem, Operand operand, int nb,
                            BlockIndex index) {
  Eigen::MatrixXd block(nb, nb);
  for (int j = 0; j < nb; ++j) {
    for (int i = 0; i < nb; ++i) {
      block(i, j) = input_entry(problem.seed, operand, index.row * nb + i,
                                index.column * nb + j);
    }
  }
  return block;
}

Eigen::MatrixXd assemble(std::span<const double> blocks,
                         std::span<const BlockIndex> where, int nb, int q) {
  const std::size_t block_size = static_cast<std::size_t>(nb) * nb;
  if (blocks.size() != where.size() * block_size) {
    throw classic::Error(classic::ErrorClass::count, "fox::assemble",
                         std::to_string(blocks.size()) + " values are not " +
                             std::to_string(where.size()) + " blocks of " +
                             std::to_string(block_size));
  }
  const Eigen::Index order = Eigen::Index{q} * nb;
  Eigen::MatrixXd matrix = Eigen::MatrixXd::Zero(order, order);
  for (std::size_t k = 0; k < where.size(); ++k) {
    check_index(where[k], q);
    matrix.block(Eigen::Index{where[k].row} * nb,
                 Eigen::Index{where[k].column} * nb, nb, nb) =
        Eigen::Map<const Eigen::MatrixXd>(blocks.data() + k * block_size, nb,
                                          nb);
  }
  return matrix;
}

std::optional<Mismatch> first_mismatch(const Eigen::MatrixXd& expected,
                                       const Eigen::MatrixXd& actual) {
  if (expected.rows() != actual.rows() || expected.cols() != actual.cols()) {
    throw classic::Error(classic::ErrorClass::arg, "fox::first_mismatch",
                         "actual is " + std::to_string(actual.rows()) + " x " +
                             std::to_string(actual.cols()) + ", expected " +
                             std::to_string(expected.rows()) + " x " +
                             std::to_string(expected.cols()));
  }
  for (Eigen::Index j = 0; j < expected.cols(); ++j) {
    for (Eigen::Index i = 0; i < expected.rows(); ++i) {
      if (expected(i, j) != actual(i, j)) {
        return Mismatch{static_cast<int>(i), static_cast<int>(j),
                        expected(i, j), actual(i, j)};
      }
    }
  }
  return std::nullopt;
}

std::string describe(const Mismatch& mismatch, int nb) {
  return "C(" + std::to_string(mismatch.row) + ", " +
         std::to_string(mismatch.column) + ") = " + text(mismatch.actual) +
         " where Eigen's product has " + text(mismatch.expected) +
         ", in block (" + std::to_string(mismatch.row / nb) + ", " +
         std::to_string(mismatch.column / nb) + ")";
}

}  // namespace fox
