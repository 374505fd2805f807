#include "experiments/fox/multiply.h"

#include <cstddef>
#include <span>
#include <string>

#include "classic/base/error.h"
#include "classic/collectives/collectives.h"
#include "classic/p2p/point_to_point.h"

namespace fox {
namespace {

constexpr int kShiftTag = 0;

std::span<double> values(Eigen::MatrixXd& block) {
  return {block.data(), static_cast<std::size_t>(block.size())};
}

std::string shape(const Eigen::MatrixXd& block) {
  return std::to_string(block.rows()) + " x " + std::to_string(block.cols());
}

void check_blocks(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  if (a.rows() != a.cols() || b.rows() != a.rows() || b.cols() != a.cols()) {
    throw classic::Error(classic::ErrorClass::arg, "fox::fox_multiply",
                         "blocks a (" + shape(a) + ") and b (" + shape(b) +
                             ") are not square blocks of one order");
  }
}

// Stage `stage`'s A block of this grid row, A(i, (i + stage) mod q), from
// the process that holds it to the whole row.
void broadcast_a(const FoxGrid& grid, int stage, const Eigen::MatrixXd& a,
                 Eigen::MatrixXd& stage_a) {
  const int root_column = (grid.position.row + stage) % grid.q;
  if (root_column == grid.position.column) stage_a = a;
  classic::bcast(grid.row, values(stage_a),
                 grid.row_rank_of_column[root_column]);
}

// Every B block of this grid column one row up, row 0's to row q - 1.
void shift_b_up(const FoxGrid& grid, Eigen::MatrixXd& stage_b) {
  classic::sendrecv_replace(grid.column, values(stage_b), grid.b_destination,
                            kShiftTag, grid.b_source, kShiftTag);
}

}  // namespace

Eigen::MatrixXd fox_multiply(const FoxGrid& grid, const Eigen::MatrixXd& a,
                             const Eigen::MatrixXd& b) {
  check_blocks(a, b);
  const Eigen::Index nb = a.rows();
  Eigen::MatrixXd c = Eigen::MatrixXd::Zero(nb, nb);
  Eigen::MatrixXd stage_a(nb, nb);
  Eigen::MatrixXd stage_b = b;
  for (int stage = 0; stage < grid.q; ++stage) {
    broadcast_a(grid, stage, a, stage_a);
    c.noalias() += stage_a * stage_b;
    if (stage + 1 < grid.q) shift_b_up(grid, stage_b);
  }
  return c;
}

}  // namespace fox
