#include "experiments/life/board.h"

namespace life {

double step(const Board& current, Board& next) {
  const Eigen::Index rows = current.rows() - 2;
  const Eigen::Index columns = current.cols() - 2;
  const auto at = [&](Eigen::Index row, Eigen::Index column) {
    return current.block(row, column, rows, columns);
  };
  // At most 8: the sum fits the cells' type.
  const Board live = at(0, 0) + at(0, 1) + at(0, 2) + at(1, 0) + at(1, 2) +
                     at(2, 0) + at(2, 1) + at(2, 2);
  const auto alive = at(1, 1);
  const std::uint8_t two = 2;
  const std::uint8_t three = 3;
  const std::uint8_t one = 1;
  next.block(1, 1, rows, columns) =
      ((live == three) || (live == two && alive == one))
          .template cast<std::uint8_t>();
  return static_cast<double>(
      next.block(1, 1, rows, columns).template cast<std::int64_t>().sum());
}

std::uint8_t next_state(std::uint8_t state, int live) {
  if (live < 2 || live > 3) return 0;
  if (live == 3) return 1;
  return state;
}

std::uint8_t initial_cell(std::uint64_t seed, int percent_alive, int rows,
                          int columns, int row, int column) {
  if (row < 0 || row >= rows || column < 0 || column >= columns) return 0;
  const auto percent = static_cast<int>(halo::cell_hash(seed, row, column) % 100);
  return percent < percent_alive ? 1 : 0;
}

halo::Model<std::uint8_t> model(std::uint64_t seed, int rows, int columns) {
  halo::Model<std::uint8_t> life;
  life.initial = [=](int row, int column) {
    return initial_cell(seed, kPercentAlive, rows, columns, row, column);
  };
  life.step = step;
  life.reduction = halo::Reduction::sum;
  life.done = [](double population) { return population == 0; };
  return life;
}

}  // namespace life
