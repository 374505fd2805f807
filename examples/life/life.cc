// Conway's Game of Life with one cell per process, the paper's Listing 7:
// the process grid is the board (a torus), ortho's allreduce on the Moore
// graph sums each cell's eight neighbours, and the living cells are counted
// on the graph's base communicator.
#include <mpi.h>

#include <array>
#include <cstdio>
#include <span>
#include <vector>

#include "classic/base/environment.h"
#include "classic/collectives/collectives.h"
#include "classic/comm/comm.h"
#include "classic/graph/dist_graph.h"
#include "classic/topology/dims_create.h"
#include "naming/cart_name.h"
#include "ortho/collectives.h"
#include "ortho/dist_graph.h"
#include "ortho/structure.h"
#include "stencils/cart_neighbors.h"

int main(int argc, char** argv) {
  classic::Environment env(argc, argv,
                           classic::UncaughtErrors::report_and_abort);
  classic::Comm comm = classic::Comm::world().dup();
  const std::vector<int> dims =
      classic::dims_create(comm.size(), std::array{0, 0});
  naming::cart_name(comm, dims, std::array{true, true},
                    naming::Order::row_major);
  const std::vector<int> moore = stencils::cart_neighbor_ranks(
      comm, comm.rank(), stencils::Metric::chebyshev, 1, 1);
  classic::Comm board = ortho::dist_graph_create_adjacent(
      comm, moore, classic::unweighted, moore, classic::unweighted);
  classic::Comm base = ortho::comm_base(board);   // local, no communication
  short cell = comm.rank() / 2 % 2 == 1 ? 1 : 0;  // a start pattern
  for (int generation = 1; generation <= 8; ++generation) {
    const short live =
        ortho::allreduce(board, std::span<const short>(&cell, 1), MPI_SUM)[0];
    cell = (live == 3 || (cell == 1 && live == 2)) ? 1 : 0;
    int population = cell;
    classic::allreduce(base, classic::in_place, std::span(&population, 1),
                       MPI_SUM);
    if (comm.rank() == 0) {
      std::printf("generation %d: %d alive\n", generation, population);
    }
  }
  return 0;
}
