// Blocked stencil grids, MPI-free part: the local array with its halo (an
// Eigen array), the model of a stencil code (initial values, the update of
// one step, the global check), the serial reference run of a whole grid,
// and the exact comparison and checksum of results.
#ifndef ORTHOCOMM_EXPERIMENTS_HALO_GRID_H_
#define ORTHOCOMM_EXPERIMENTS_HALO_GRID_H_

#include <Eigen/Dense>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <string>

#include "experiments/halo/decomposition.h"

namespace halo {

// Row-major, as Figure 1's `double matrix[n+2][n+2]`: a ROW is contiguous.
template <typename T>
using Grid = Eigen::Array<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// How the blocks' contributions to the global check combine.
enum class Reduction { sum, max };

template <typename T>
struct Model {
  // Global cell (row, column), each in [-1, n]: the initial state inside the
  // grid, the fixed boundary on the ring around it.
  std::function<T(int row, int column)> initial;
  // Updates the interior of `next` from `current` (both with halo) and
  // returns this block's contribution to the global check.
  std::function<double(const Grid<T>& current, Grid<T>& next)> step;
  Reduction reduction = Reduction::sum;
  // Whether the run ends after a step whose global check gave `value`.
  std::function<bool(double value)> done;
};

// The local array (rows + 2) x (columns + 2) of `block`, every cell
// (the halo too) from model.initial at its global position.
template <typename T>
Grid<T> initial_array(const Model<T>& model, const Block& block) {
  Grid<T> array(block.rows + 2, block.columns + 2);
  for (int r = 0; r < block.rows + 2; ++r) {
    for (int c = 0; c < block.columns + 2; ++c) {
      array(r, c) = model.initial(block.row0 + r - 1, block.column0 + c - 1);
    }
  }
  return array;
}

// A torus: the halo of a whole grid is its opposite edges and corners.
template <typename T>
void fill_periodic_halo(Grid<T>& array) {
  const Eigen::Index rows = array.rows() - 2;
  const Eigen::Index columns = array.cols() - 2;
  array.row(0).segment(1, columns) = array.row(rows).segment(1, columns);
  array.row(rows + 1).segment(1, columns) = array.row(1).segment(1, columns);
  array.col(0) = array.col(columns);
  array.col(columns + 1) = array.col(1);
}

template <typename T>
struct SerialResult {
  Grid<T> interior;
  int iterations = 0;
  double value = 0;
};

// The reference: the model on the whole rows x columns grid in one array,
// with the same step function, up to `max_iterations` steps.
template <typename T>
SerialResult<T> serial_run(const Model<T>& model, int rows, int columns,
                           Borders borders, int max_iterations) {
  const Block whole{0, 0, rows, columns};
  Grid<T> current = initial_array(model, whole);
  Grid<T> next = current;
  SerialResult<T> result;
  while (result.iterations < max_iterations) {
    if (borders == Borders::periodic) fill_periodic_halo(current);
    result.value = model.step(current, next);
    std::swap(current, next);
    ++result.iterations;
    if (model.done(result.value)) break;
  }
  result.interior = current.block(1, 1, rows, columns);
  return result;
}

// The first cell, row by row, where `actual` and `expected` differ in any
// bit (so 0.0 and -0.0 differ), or where their shapes differ ({-1, -1}).
struct Difference {
  int row;
  int column;
};
template <typename T>
std::optional<Difference> first_difference(const Grid<T>& actual,
                                           const Grid<T>& expected) {
  if (actual.rows() != expected.rows() || actual.cols() != expected.cols()) {
    return Difference{-1, -1};
  }
  for (Eigen::Index r = 0; r < actual.rows(); ++r) {
    for (Eigen::Index c = 0; c < actual.cols(); ++c) {
      if (std::memcmp(&actual(r, c), &expected(r, c), sizeof(T)) != 0) {
        return Difference{static_cast<int>(r), static_cast<int>(c)};
      }
    }
  }
  return std::nullopt;
}

// A cell's value as text, exactly: all 17 significant digits of a double.
std::string cell_text(double value);
std::string cell_text(std::uint8_t value);

// "cell (row, column) = x where the serial run has y" (or the shapes).
template <typename T>
std::string describe_difference(const Grid<T>& actual,
                                const Grid<T>& expected,
                                const Difference& where) {
  if (where.row < 0) {
    return "shape " + std::to_string(actual.rows()) + " x " +
           std::to_string(actual.cols()) + ", the serial run's " +
           std::to_string(expected.rows()) + " x " +
           std::to_string(expected.cols());
  }
  return "cell (" + std::to_string(where.row) + ", " +
         std::to_string(where.column) +
         ") = " + cell_text(actual(where.row, where.column)) +
         " where the serial run has " +
         cell_text(expected(where.row, where.column));
}

// The smallest change of a cell: the next double up (the last bit), or the
// other state of a Game of Life cell. For --inject-error.
double perturbed(double value);
std::uint8_t perturbed(std::uint8_t value);

// FNV-1a (64 bits) over the bytes of the cells, row by row: equal grids
// give equal checksums, whatever the decomposition that computed them.
std::uint64_t checksum(const void* data, std::size_t bytes);
template <typename T>
std::uint64_t checksum(const Grid<T>& grid) {
  return checksum(grid.data(), static_cast<std::size_t>(grid.size()) * sizeof(T));
}

// A 64-bit mix of (seed, row, column), for deterministic inputs that every
// process computes for its own cells.
std::uint64_t cell_hash(std::uint64_t seed, int row, int column);

}  // namespace halo

#endif  // ORTHOCOMM_EXPERIMENTS_HALO_GRID_H_
