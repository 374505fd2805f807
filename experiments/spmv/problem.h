// The SpMV experiment's problem on one process (spmv_main.cc): the matrix,
// its blocks of rows and columns, this process's halo and the layouts of
// its exchange, the iteration's arithmetic, and the serial reference every
// implementation is checked against.
#ifndef ORTHOCOMM_EXPERIMENTS_SPMV_PROBLEM_H_
#define ORTHOCOMM_EXPERIMENTS_SPMV_PROBLEM_H_

#include <mpi.h>

#include <string>
#include <vector>

#include "classic/comm/comm.h"
#include "experiments/spmv/halo_plan.h"

namespace spmv {

struct Problem {
  Matrix a;
  std::vector<int> row_begins;
  std::vector<int> column_begins;
  int rank = 0;
  HaloPlan plan;
  std::vector<int> slots;
  double scale = 1;  // the largest absolute row sum (square matrices)
  // The forward exchange's layouts (x's entries to the processes that need
  // them); the accumulate runs the same with send and receive swapped.
  std::vector<int> sendcounts, sdispls, recvcounts, rdispls;
  // The processes in part order: rank q of each holds part q. The world,
  // or its order after a placement (placement.h); every implementation
  // runs on these.
  MPI_Comm comm = MPI_COMM_WORLD;
  classic::Comm processes = classic::Comm::world();

  bool square() const { return a.rows() == a.cols(); }
  int first_column() const;
  int own_columns() const;
  int own_rows() const;
  int halo_columns() const;  // entries received in the forward exchange
  int sent_entries() const;  // entries sent in the forward exchange
  // x's next own entries from this iteration's y: y scaled by the largest
  // absolute row sum for a square matrix (a power iteration), x / 2 + 1/4
  // for a rectangular one.
  void next_x(std::vector<double>& x, const std::vector<double>& y) const;
  // x's first entries: a function of the global column.
  std::vector<double> first_x() const;
  // w's entries on this process's rows (accumulate.h: w_of_row).
  std::vector<double> own_w() const;
};

// How the rows (and a square matrix's columns) are distributed
// (partition.h): contiguous blocks of the file's order, or METIS's parts.
enum class Distribution { blocks, metis };

// Reads the matrix, distributes it, and derives everything else for
// process `rank` of `size`. Under METIS the matrix is held reordered (its
// rows and columns by part), and so is the serial reference.
Problem make_problem(const std::string& matrix, Distribution distribution,
                     int rank, int size);

// The serial runs on this process, with Eigen's products of the whole
// matrix: after `iterations` iterations of y = A x its final rows of y and
// the sum of its rows over the iterations; z = A^T w on its own columns,
// and per column the sum of the magnitudes of its terms (the scale of a
// rounding difference: the distributed sums add in another order).
struct Reference {
  std::vector<double> y;
  double sum = 0;
  std::vector<double> z;
  std::vector<double> z_magnitude;
};
Reference serial(const Problem& problem, int iterations);

}  // namespace spmv

#endif  // ORTHOCOMM_EXPERIMENTS_SPMV_PROBLEM_H_
