#include "experiments/jacobi/stencil.h"

namespace jacobi {

double step(const Matrix& current, Matrix& next) {
  const Eigen::Index rows = current.rows() - 2;
  const Eigen::Index columns = current.cols() - 2;
  const auto at = [&](Eigen::Index row, Eigen::Index column) {
    return current.block(row, column, rows, columns);
  };
  auto interior = next.block(1, 1, rows, columns);
  interior = (4.0 * (((at(0, 1) + at(2, 1)) + at(1, 0)) + at(1, 2)) +
              (((at(0, 0) + at(0, 2)) + at(2, 0)) + at(2, 2))) /
             20.0;
  return (interior - at(1, 1)).abs().maxCoeff();
}

double initial_value(std::uint64_t seed, int n, int row, int column) {
  if (row < 0) return 1.0;
  if (row >= n || column < 0 || column >= n) return 0.0;
  return static_cast<double>(halo::cell_hash(seed, row, column) % 1024) /
         1024.0;
}

halo::Model<double> model(std::uint64_t seed, int n, double tolerance) {
  halo::Model<double> jacobi;
  jacobi.initial = [=](int row, int column) {
    return initial_value(seed, n, row, column);
  };
  jacobi.step = step;
  jacobi.reduction = halo::Reduction::max;
  jacobi.done = [=](double change) { return change <= tolerance; };
  return jacobi;
}

}  // namespace jacobi
