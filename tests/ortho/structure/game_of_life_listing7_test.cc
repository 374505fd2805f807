// The paper's Listing 7 (the paper, section 3.4) as a test: Conway's Game of
// Life with one cell per process, the sparse allreduce over the generated
// Moore neighbourhood, and the base communicator for the global "anything
// alive" check; the board after K generations must equal a serial run.
#include <gtest/gtest.h>
#include <mpi.h>

#include <array>
#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include "classic/collectives/collectives.h"
#include "classic/comm/comm.h"
#include "classic/graph/dist_graph.h"
#include "classic/topology/dims_create.h"
#include "naming/cart_name.h"
#include "ortho/collectives.h"
#include "ortho/dist_graph.h"
#include "ortho/structure.h"
#include "stencils/cart_neighbors.h"

namespace {

// One generation of the serial board (rows x cols, fixed dead borders, as
// Listing 7's non-periodic naming).
std::vector<short> serial_step(const std::vector<short>& board, int rows,
                               int cols) {
  std::vector<short> next(board.size());
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      int live = 0;
      for (int dr = -1; dr <= 1; ++dr) {
        for (int dc = -1; dc <= 1; ++dc) {
          const int nr = r + dr;
          const int nc = c + dc;
          if ((dr == 0 && dc == 0) || nr < 0 || nr >= rows || nc < 0 ||
              nc >= cols) {
            continue;
          }
          live += board[static_cast<std::size_t>(nr * cols + nc)];
        }
      }
      const short state = board[static_cast<std::size_t>(r * cols + c)];
      // Listing 7's rule, word for word.
      short updated = state;
      if (live < 2 || live > 3) {
        updated = 0;
      } else if (live == 3) {
        updated = 1;
      }
      next[static_cast<std::size_t>(r * cols + c)] = updated;
    }
  }
  return next;
}

std::vector<short> random_board(int cells, std::uint32_t seed) {
  std::mt19937 random(seed);
  std::bernoulli_distribution alive(0.4);
  std::vector<short> board(static_cast<std::size_t>(cells));
  for (short& cell : board) cell = alive(random) ? 1 : 0;
  return board;
}

TEST(GameOfLifeListing7, OneCellPerProcessMatchesSerialBoard) {
  classic::Comm comm = classic::Comm::world().dup();
  const int p = comm.size();
  const std::vector<int> order = classic::dims_create(p, std::array{0, 0});
  const std::array<bool, 2> period{false, false};
  naming::cart_name(comm, order, period, naming::Order::row_major);
  const int r = comm.rank();
  const std::vector<int> ranks =
      stencils::cart_neighbor_ranks(comm, r, stencils::Metric::chebyshev, 1, 1);
  const classic::Comm cartcomm = ortho::dist_graph_create_adjacent(
      comm, ranks, classic::unweighted, ranks, classic::unweighted);
  const classic::Comm base = ortho::comm_base(cartcomm);

  const int rows = order[0];
  const int cols = order[1];
  std::vector<short> board = random_board(p, 2021);
  const std::vector<int> me = naming::cart_get(comm).coordinates(r);
  short state = board[static_cast<std::size_t>(me[0] * cols + me[1])];

  for (int generation = 0; generation < 6; ++generation) {
    short live = 0;
    ortho::allreduce(cartcomm, std::span<const short>(&state, 1),
                     std::span<short>(&live, 1), MPI_SUM);
    if (live < 2 || live > 3) {
      state = 0;
    } else if (live == 3) {
      state = 1;
    }
    board = serial_step(board, rows, cols);
    // The global check on the base communicator: the board as a whole.
    std::vector<short> gathered(static_cast<std::size_t>(p));
    classic::allgather(base, std::span<const short>(&state, 1),
                       std::span(gathered));
    ASSERT_EQ(gathered, board) << "generation " << generation;
    short anything = 0;
    classic::allreduce(base, std::span<const short>(&state, 1),
                       std::span<short>(&anything, 1), MPI_MAX);
    const bool alive_serial =
        std::find(board.begin(), board.end(), short{1}) != board.end();
    EXPECT_EQ(anything == 1, alive_serial);
  }
}

}  // namespace
