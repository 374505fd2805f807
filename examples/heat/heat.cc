// The 2-d heat equation on orthocomm: explicit 5-point steps on an N x N
// plate whose top edge is held at 1 and whose other edges are held at 0.
// The plate is cut into blocks over a Cartesian-named process grid; every
// step exchanges the block edges by a persistent ortho::alltoallw on the
// von Neumann graph (a row and a column datatype), and the heat on the plate
// is summed on the graph's base communicator. Each process also runs the
// whole plate serially and checks its block against it, bit for bit.
//
//   mpirun -np 4 ./heat [N [STEPS]]      N divisible by the grid's extents
#include <mpi.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <vector>

#include "classic/base/environment.h"
#include "classic/collectives/collectives.h"
#include "classic/comm/comm.h"
#include "classic/graph/dist_graph.h"
#include "classic/p2p/request.h"
#include "classic/topology/dims_create.h"
#include "naming/cart_maps.h"
#include "naming/cart_name.h"
#include "ortho/collectives.h"
#include "ortho/dist_graph.h"
#include "ortho/structure.h"
#include "stencils/cart_neighbors.h"

namespace {

constexpr double kAlpha = 0.2;  // diffusion number; stable below 0.25

// A rows x columns block with a halo of one cell, row-major.
class Plate {
 public:
  Plate(int rows, int columns)
      : rows_(rows),
        columns_(columns),
        cells_(static_cast<std::size_t>(rows + 2) * (columns + 2), 0.0),
        next_(cells_) {}

  int rows() const { return rows_; }
  int columns() const { return columns_; }
  int index(int row, int column) const { return row * (columns_ + 2) + column; }
  double& at(int row, int column) { return cells_[index(row, column)]; }
  double* data() { return cells_.data(); }

  // One explicit step of the interior; the halo stays as it is.
  void step() {
    for (int i = 1; i <= rows_; ++i) {
      for (int j = 1; j <= columns_; ++j) {
        const double centre = at(i, j);
        next_[index(i, j)] =
            centre + kAlpha * (at(i - 1, j) + at(i + 1, j) + at(i, j - 1) +
                               at(i, j + 1) - 4.0 * centre);
      }
    }
    for (int i = 1; i <= rows_; ++i) {
      for (int j = 1; j <= columns_; ++j) at(i, j) = next_[index(i, j)];
    }
  }

  double interior_sum() {
    double sum = 0;
    for (int i = 1; i <= rows_; ++i) {
      for (int j = 1; j <= columns_; ++j) sum += at(i, j);
    }
    return sum;
  }

 private:
  int rows_;
  int columns_;
  std::vector<double> cells_;
  std::vector<double> next_;
};

// The alltoallw arguments of the edge exchange: neighbour i at `offsets`
// i gets this block's edge on that side (one row or column datatype) and
// sends its own into the halo on that side.
struct Exchange {
  std::vector<int> counts;
  std::vector<MPI_Aint> send_displs;
  std::vector<MPI_Aint> recv_displs;
  std::vector<MPI_Datatype> types;
};

Exchange edge_exchange(Plate& plate, const stencils::Stencil& offsets,
                       MPI_Datatype row, MPI_Datatype column) {
  Exchange exchange;
  const int last_row = plate.rows();
  const int last_column = plate.columns();
  const auto bytes = [&](int r, int c) {
    return static_cast<MPI_Aint>(plate.index(r, c) * sizeof(double));
  };
  for (int i = 0; i < offsets.size(); ++i) {
    const int down = offsets.offset(i)[0];
    const int right = offsets.offset(i)[1];
    exchange.counts.push_back(1);
    exchange.types.push_back(down != 0 ? row : column);
    if (down != 0) {
      exchange.send_displs.push_back(bytes(down < 0 ? 1 : last_row, 1));
      exchange.recv_displs.push_back(bytes(down < 0 ? 0 : last_row + 1, 1));
    } else {
      exchange.send_displs.push_back(bytes(1, right < 0 ? 1 : last_column));
      exchange.recv_displs.push_back(bytes(1, right < 0 ? 0 : last_column + 1));
    }
  }
  return exchange;
}

// The whole n x n plate, serially: the reference for every block.
Plate serial_plate(int n, int steps) {
  Plate whole(n, n);
  for (int j = 1; j <= n; ++j) whole.at(0, j) = 1.0;
  for (int s = 0; s < steps; ++s) whole.step();
  return whole;
}

}  // namespace

int main(int argc, char** argv) {
  classic::Environment env(argc, argv,
                           classic::UncaughtErrors::report_and_abort);
  const int n = argc > 1 ? std::atoi(argv[1]) : 60;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 200;
  classic::Comm comm = classic::Comm::world().dup();
  const std::vector<int> dims =
      classic::dims_create(comm.size(), std::array{0, 0});
  if (n <= 0 || steps < 0 || n % dims[0] != 0 || n % dims[1] != 0) {
    if (comm.rank() == 0) {
      std::fprintf(stderr,
                   "heat: N = %d must be a positive multiple of %d "
                   "and %d, STEPS = %d at least 0\n",
                   n, dims[0], dims[1], steps);
    }
    return 2;
  }
  naming::cart_name(comm, dims, std::array{false, false},
                    naming::Order::row_major);
  const int rank = comm.rank();
  const stencils::Stencil offsets =
      stencils::cart_neighbors(comm, rank, stencils::Metric::manhattan, 1, 1);
  const std::vector<int> neighbours = stencils::cart_neighbor_ranks(
      comm, rank, stencils::Metric::manhattan, 1, 1);
  classic::Comm graph = ortho::dist_graph_create_adjacent(
      comm, neighbours, classic::unweighted, neighbours, classic::unweighted);
  classic::Comm base = ortho::comm_base(graph);

  const std::vector<int> me = naming::cart_coordinates(comm, rank);
  Plate plate(n / dims[0], n / dims[1]);
  if (me[0] == 0) {
    for (int j = 1; j <= plate.columns(); ++j) plate.at(0, j) = 1.0;
  }
  MPI_Datatype row = MPI_DATATYPE_NULL;
  MPI_Datatype column = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(plate.columns(), MPI_DOUBLE, &row);
  MPI_Type_vector(plate.rows(), 1, plate.columns() + 2, MPI_DOUBLE, &column);
  MPI_Type_commit(&row);
  MPI_Type_commit(&column);
  const Exchange e = edge_exchange(plate, offsets, row, column);
  {
    classic::Request edges = ortho::alltoallw_init(
        graph, plate.data(), e.counts, e.send_displs, e.types, plate.data(),
        e.counts, e.recv_displs, e.types);
    for (int s = 0; s < steps; ++s) {
      classic::start(edges);
      classic::wait(edges);
      plate.step();
    }
  }  // the request goes before its datatypes
  MPI_Type_free(&column);
  MPI_Type_free(&row);

  std::array<double, 2> totals{plate.interior_sum(), 0.0};
  Plate whole = serial_plate(n, steps);
  for (int i = 1; i <= plate.rows(); ++i) {
    for (int j = 1; j <= plate.columns(); ++j) {
      const double expected =
          whole.at(me[0] * plate.rows() + i, me[1] * plate.columns() + j);
      if (plate.at(i, j) != expected) totals[1] += 1;
    }
  }
  classic::allreduce(base, classic::in_place, std::span(totals), MPI_SUM);
  if (rank == 0) {
    std::printf(
        "heat n=%d steps=%d processes=%d grid=%dx%d heat=%.6f "
        "result=%s\n",
        n, steps, comm.size(), dims[0], dims[1], totals[0],
        totals[1] == 0 ? "correct" : "MISMATCH");
  }
  return totals[1] == 0 ? 0 : 1;
}
