#include "experiments/spmv/problem.h"

#include <Eigen/SparseCore>
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numeric>

#include "experiments/spmv/accumulate.h"
#include "experiments/spmv/partition.h"

namespace spmv {

int Problem::first_column() const {
  return column_begins[static_cast<std::size_t>(rank)];
}

int Problem::own_columns() const {
  const auto p = static_cast<std::size_t>(rank);
  return column_begins[p + 1] - column_begins[p];
}

int Problem::own_rows() const {
  const auto p = static_cast<std::size_t>(rank);
  return row_begins[p + 1] - row_begins[p];
}

int Problem::halo_columns() const {
  return std::accumulate(recvcounts.begin(), recvcounts.end(), 0);
}

int Problem::sent_entries() const {
  return std::accumulate(sendcounts.begin(), sendcounts.end(), 0);
}

void Problem::next_x(std::vector<double>& x,
                     const std::vector<double>& y) const {
  if (square()) {
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = y[i] / scale;
  } else {
    for (double& value : x) value = value / 2 + 0.25;
  }
}

std::vector<double> Problem::first_x() const {
  std::vector<double> x(static_cast<std::size_t>(own_columns()));
  for (std::size_t i = 0; i < x.size(); ++i) {
    const int column = first_column() + static_cast<int>(i);
    x[i] = 1 + (column % 7) * 0.125;
  }
  return x;
}

std::vector<double> Problem::own_w() const {
  std::vector<double> w;
  const auto p = static_cast<std::size_t>(rank);
  for (int row = row_begins[p]; row < row_begins[p + 1]; ++row) {
    w.push_back(w_of_row(row));
  }
  return w;
}

namespace {

void layout(const std::vector<std::vector<int>>& lists, std::vector<int>& sizes,
            std::vector<int>& displs) {
  int at = 0;
  for (const std::vector<int>& list : lists) {
    sizes.push_back(static_cast<int>(list.size()));
    displs.push_back(at);
    at += static_cast<int>(list.size());
  }
}

}  // namespace

Problem make_problem(const std::string& matrix, Distribution distribution,
                     int rank, int size) {
  Problem problem;
  problem.a = read_matrix(matrix);
  problem.rank = rank;
  if (distribution == Distribution::metis) {
    const Partition parts = metis_parts(problem.a, size);
    problem.a = reordered(problem.a, parts.order);
    problem.row_begins = parts.begins;
    problem.column_begins = parts.begins;
  } else {
    problem.row_begins = blocks(static_cast<int>(problem.a.rows()), size);
    problem.column_begins = blocks(static_cast<int>(problem.a.cols()), size);
  }
  problem.plan =
      halo_plan(problem.a, problem.row_begins, problem.column_begins, rank);
  problem.slots = entry_slots(problem.a, problem.row_begins,
                              problem.column_begins, rank, problem.plan);
  for (int row = 0; row < problem.a.rows(); ++row) {
    double sum = 0;
    for (Matrix::InnerIterator it(problem.a, row); it; ++it) {
      sum += std::abs(it.value());
    }
    problem.scale = std::max(problem.scale, sum);
  }
  layout(problem.plan.send_columns, problem.sendcounts, problem.sdispls);
  layout(problem.plan.receive_columns, problem.recvcounts, problem.rdispls);
  return problem;
}

Reference serial(const Problem& problem, int iterations) {
  const auto p = static_cast<std::size_t>(problem.rank);
  Eigen::VectorXd x(problem.a.cols());
  for (int column = 0; column < problem.a.cols(); ++column) {
    x[column] = 1 + (column % 7) * 0.125;
  }
  Reference reference;
  Eigen::VectorXd y;
  for (int k = 0; k < iterations; ++k) {
    y = problem.a * x;
    for (int row = problem.row_begins[p]; row < problem.row_begins[p + 1];
         ++row) {
      reference.sum += y[row];
    }
    if (problem.square()) {
      x = y / problem.scale;
    } else {
      for (int column = 0; column < x.size(); ++column) {
        x[column] = x[column] / 2 + 0.25;
      }
    }
  }
  for (int row = problem.row_begins[p]; row < problem.row_begins[p + 1];
       ++row) {
    reference.y.push_back(y.size() > 0 ? y[row] : 0.0);
  }
  Eigen::VectorXd w(problem.a.rows());
  for (int row = 0; row < problem.a.rows(); ++row) w[row] = w_of_row(row);
  const Eigen::VectorXd z = problem.a.transpose() * w;
  const Eigen::VectorXd magnitude = problem.a.cwiseAbs().transpose() * w;
  for (int column = problem.column_begins[p];
       column < problem.column_begins[p + 1]; ++column) {
    reference.z.push_back(z[column]);
    reference.z_magnitude.push_back(magnitude[column]);
  }
  return reference;
}

}  // namespace spmv
