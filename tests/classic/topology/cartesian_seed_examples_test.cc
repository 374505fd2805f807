// The seeds' Cartesian examples, written against classic: from lecture 10
// (lecture notes) the 3 x 4 numbering table, the three Cart_shift tables and
// the Cart_sub row/column broadcast program (top_fcns.c); from MPI-1.1
// Examples 6.4 (skew), 6.5 (Cart_sub of a 2 x 3 x 4 grid) and 6.6 (the
// Poisson solver's set-up of figure 6.1, with a real halo exchange checked
// against a serial computation). Expected values are the seeds' own tables
// or computed here without classic.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <set>
#include <span>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/environment.h"
#include "classic/collectives/collectives.h"
#include "classic/comm/comm.h"
#include "classic/p2p/point_to_point.h"
#include "classic/topology/cartesian.h"
#include "classic/topology/dims_create.h"

namespace classic {
namespace {

int world_size() { return Environment::world_size(); }
int world_rank() { return Environment::world_rank(); }

// ---- lecture notes: numbering of 12 processes on a 3 x 4 grid ------------

// "Example: 12 processes arranged on a 3 x 4 grid", as printed:
//   0 (0,0)  1 (0,1)  2 (0,2)  3 (0,3)
//   4 (1,0)  5 (1,1)  6 (1,2)  7 (1,3)
//   8 (2,0)  9 (2,1) 10 (2,2) 11 (2,3)
constexpr std::array<std::array<int, 2>, 12> kThreeByFour = {{{0, 0},
                                                              {0, 1},
                                                              {0, 2},
                                                              {0, 3},
                                                              {1, 0},
                                                              {1, 1},
                                                              {1, 2},
                                                              {1, 3},
                                                              {2, 0},
                                                              {2, 1},
                                                              {2, 2},
                                                              {2, 3}}};

TEST(Seed003, NumberingOfTwelveProcessesOnThreeByFour) {
  if (world_size() < 12) GTEST_SKIP() << "needs 12 processes";
  const std::array<int, 2> dims = {3, 4};
  const std::array<bool, 2> periods = {false, false};
  Comm grid = cart_create(Comm::world(), dims, periods, Reorder::no);
  if (grid.is_null()) return;  // beyond the 12
  for (int rank = 0; rank < 12; ++rank) {
    const auto& coords = kThreeByFour[static_cast<std::size_t>(rank)];
    EXPECT_EQ(cart_coords(grid, rank),
              (std::vector<int>{coords[0], coords[1]}));
    EXPECT_EQ(cart_rank(grid, coords), rank);
  }
  const auto& mine = kThreeByFour[static_cast<std::size_t>(grid.rank())];
  EXPECT_EQ(cart_get(grid).coords, (std::vector<int>{mine[0], mine[1]}));
}

// ---- lecture notes: the Cart_shift tables on a 3 x 3 grid ----------------

// One cell of a table: "source,dest" under the process's rank, with -1 where
// the lecture's MPI printed MPI_PROC_NULL.
struct SeedShift {
  int source;
  int dest;
};
constexpr int kSeedProcNull = -1;

int from_seed(int rank) { return rank == kSeedProcNull ? proc_null : rank; }

// MPI_Cart_shift(comm, 1, 1, &source, &dest), periodic.
constexpr std::array<SeedShift, 9> kPeriodicAlongRows = {
    {{2, 1}, {0, 2}, {1, 0}, {5, 4}, {3, 5}, {4, 3}, {8, 7}, {6, 8}, {7, 6}}};
// MPI_Cart_shift(comm, 1, 1, &source, &dest), not periodic.
constexpr std::array<SeedShift, 9> kEndOffAlongRows = {{{-1, 1},
                                                        {0, 2},
                                                        {1, -1},
                                                        {-1, 4},
                                                        {3, 5},
                                                        {4, -1},
                                                        {-1, 7},
                                                        {6, 8},
                                                        {7, -1}}};
// MPI_Cart_shift(comm, 0, -1, &source, &dest), not periodic.
constexpr std::array<SeedShift, 9> kEndOffUpColumns = {{{3, -1},
                                                        {4, -1},
                                                        {5, -1},
                                                        {6, 0},
                                                        {7, 1},
                                                        {8, 2},
                                                        {-1, 3},
                                                        {-1, 4},
                                                        {-1, 5}}};

// Checks this process's cell of `table`, then uses the shift as the lecture
// says it is meant to be used: a sendrecv that moves every rank number to
// its destination.
void expect_shift_table(bool periodic, int direction, int displacement,
                        const std::array<SeedShift, 9>& table) {
  const std::array<int, 2> dims = {3, 3};
  const std::array<bool, 2> periods = {periodic, periodic};
  Comm grid = cart_create(Comm::world(), dims, periods, Reorder::no);
  if (grid.is_null()) return;
  const SeedShift expected = table[static_cast<std::size_t>(grid.rank())];
  const CartShift shift = cart_shift(grid, direction, displacement);
  EXPECT_EQ(shift.source, from_seed(expected.source));
  EXPECT_EQ(shift.destination, from_seed(expected.dest));

  const std::array<int, 1> mine = {grid.rank()};
  std::array<int, 1> received = {-100};
  sendrecv(grid, std::span<const int, 1>(mine), shift.destination, 0,
           std::span<int, 1>(received), shift.source, 0);
  EXPECT_EQ(received[0],
            expected.source == kSeedProcNull ? -100 : expected.source);
}

TEST(Seed003, ShiftTablePeriodicAlongRows) {
  if (world_size() < 9) GTEST_SKIP() << "needs 9 processes";
  expect_shift_table(true, 1, 1, kPeriodicAlongRows);
}

TEST(Seed003, ShiftTableEndOffAlongRows) {
  if (world_size() < 9) GTEST_SKIP() << "needs 9 processes";
  expect_shift_table(false, 1, 1, kEndOffAlongRows);
}

TEST(Seed003, ShiftTableEndOffUpColumns) {
  if (world_size() < 9) GTEST_SKIP() << "needs 9 processes";
  expect_shift_table(false, 0, -1, kEndOffUpColumns);
}

// ---- lecture notes: top_fcns.c (Pacheco), row and column broadcasts --

int integer_sqrt(int p) {
  int q = 0;
  while ((q + 1) * (q + 1) <= p) ++q;
  return q;
}

TEST(Seed003, TopFcnsRowAndColumnBroadcasts) {
  // "Assumes the number of processes, p, is a perfect square": with more,
  // the q x q grid leaves the rest out (the original would then use
  // MPI_COMM_NULL; here they stop).
  const int q = integer_sqrt(world_size());
  const std::array<int, 2> dim_sizes = {q, q};
  const std::array<bool, 2> wrap_around = {true, true};
  Comm grid_comm =
      cart_create(Comm::world(), dim_sizes, wrap_around, Reorder::yes);
  if (world_rank() >= q * q) {
    EXPECT_TRUE(grid_comm.is_null());
    return;
  }
  ASSERT_FALSE(grid_comm.is_null());
  const int my_grid_rank = grid_comm.rank();
  const std::vector<int> coordinates = cart_coords(grid_comm, my_grid_rank);
  const int grid_rank = cart_rank(grid_comm, coordinates);
  EXPECT_EQ(grid_rank, my_grid_rank);

  const std::array<bool, 2> row_free_coords = {false, true};
  Comm row_comm = cart_sub(grid_comm, row_free_coords);
  int row_test = coordinates[1] == 0 ? coordinates[0] : -1;
  bcast(row_comm, std::span<int, 1>(&row_test, 1), 0);
  // The printout "row test = " shows every process its row number.
  EXPECT_EQ(row_test, coordinates[0]);

  const std::array<bool, 2> column_free_coords = {true, false};
  Comm col_comm = cart_sub(grid_comm, column_free_coords);
  int col_test = coordinates[0] == 0 ? coordinates[1] : -1;
  bcast(col_comm, std::span<int, 1>(&col_test, 1), 0);
  EXPECT_EQ(col_test, coordinates[1]);
  EXPECT_EQ(row_comm.size(), q);
  EXPECT_EQ(col_comm.size(), q);
}

// ---- MPI-1.1: Example 6.4, skewing a periodic 2-d array -------------------

TEST(Seed000, Example64SkewEachColumnByItsIndex) {
  // "One wishes to skew this array, by shifting column i (vertically, i.e.,
  // along the column) by i steps." Vertically is dimension 0. MPI-1.1 prints
  // MPI_CART_SHIFT(comm, 1, coords(2), ...), which would give the processes
  // of one row different displacements along that row, so sends and
  // receives would not pair up (it deadlocks); later versions of the
  // standard print direction 0, as here.
  const std::array<int, 2> zeros = {0, 0};
  const std::vector<int> dims = dims_create(world_size(), zeros);
  const std::array<bool, 2> periods = {true, true};
  Comm comm = cart_create(Comm::world(), dims, periods, Reorder::yes);
  ASSERT_FALSE(comm.is_null());
  const std::vector<int> coords = cart_coords(comm, comm.rank());
  const auto value_at = [](int row, int column) {
    return 100.0 * row + column;
  };
  double a = value_at(coords[0], coords[1]);
  const CartShift shift = cart_shift(comm, 0, coords[1]);
  sendrecv_replace(comm, std::span<double, 1>(&a, 1), shift.destination, 0,
                   shift.source, 0);
  // Column j moved down by j: this process now holds row i - j's element.
  const int from_row = ((coords[0] - coords[1]) % dims[0] + dims[0]) % dims[0];
  EXPECT_EQ(a, value_at(from_row, coords[1]));
}

// ---- MPI-1.1: Example 6.5, Cart_sub of a 2 x 3 x 4 grid ------------------

// The distinct sub-communicators, each named by the world rank of its rank 0.
std::set<int> sub_communicator_leaders(const Comm& grid, const Comm& sub) {
  const std::array<int, 1> leader = {sub.group().world_rank_of(0)};
  std::vector<int> leaders(static_cast<std::size_t>(grid.size()));
  allgather(grid, std::span<const int, 1>(leader), std::span<int>(leaders));
  return {leaders.begin(), leaders.end()};
}

TEST(Seed000, Example65SubGridsOfTwoByThreeByFour) {
  if (world_size() < 24) GTEST_SKIP() << "needs 24 processes";
  const std::array<int, 3> dims = {2, 3, 4};
  const std::array<bool, 3> periods = {false, false, false};
  Comm comm = cart_create(Comm::world(), dims, periods, Reorder::no);
  if (comm.is_null()) return;
  // "remain_dims = (true, false, true) ... will create three communicators
  // each with eight processes in a 2 x 4 cartesian topology."
  const std::array<bool, 3> keep_outer = {true, false, true};
  Comm slab = cart_sub(comm, keep_outer);
  EXPECT_EQ(slab.size(), 8);
  EXPECT_EQ(cart_get(slab).dims, (std::vector<int>{2, 4}));
  EXPECT_EQ(sub_communicator_leaders(comm, slab).size(), 3u);
  // "If remain_dims = (false, false, true) then ... six non-overlapping
  // communicators, each with four processes, in a one-dimensional cartesian
  // topology."
  const std::array<bool, 3> keep_last = {false, false, true};
  Comm line = cart_sub(comm, keep_last);
  EXPECT_EQ(line.size(), 4);
  EXPECT_EQ(cartdim_get(line), 1);
  EXPECT_EQ(sub_communicator_leaders(comm, line).size(), 6u);
}

// ---- MPI-1.1: Example 6.6, the Poisson solver of figure 6.1 ---------------

constexpr int kPoints = 6;  // interior points per process and dimension
constexpr int kIterations = 100;
constexpr double kH2 = 0.01;

// The grid functions at a global point of the periodic domain.
double initial_u(int gi, int gj) { return ((gi * 7 + gj * 13) % 17) / 17.0; }
double source_f(int gi, int gj) {
  return ((gi * 3 + gj * 5) % 11) / 11.0 - 0.5;
}
// One Jacobi step of the 5-point Poisson stencil at a point; the parallel
// and the serial solver both call it, so they compute alike.
double relaxed(double up, double down, double left, double right, double f) {
  return 0.25 * (up + down + left + right - kH2 * f);
}

int wrap(int value, int extent) { return ((value % extent) + extent) % extent; }

// A process's block u(0:n+1, 0:n+1), interior 1..n, ghosts around it.
class Block {
 public:
  static constexpr int kSide = kPoints + 2;
  double& operator()(int a, int b) {
    return values_[static_cast<std::size_t>(a * kSide + b)];
  }
  double operator()(int a, int b) const {
    return values_[static_cast<std::size_t>(a * kSide + b)];
  }

 private:
  std::vector<double> values_ =
      std::vector<double>(static_cast<std::size_t>(kSide * kSide), 0.0);
};

struct Domain {
  std::vector<int> dims;      // process grid
  std::array<int, 2> origin;  // global index of interior point (1, 1)
  int rows() const { return dims[0] * kPoints; }
  int columns() const { return dims[1] * kPoints; }
};

// `init` of the figure: u everywhere (ghosts included, from the periodic
// global function) and f on the interior.
void init(const Domain& domain, Block& u, Block& f) {
  for (int a = 0; a < Block::kSide; ++a) {
    for (int b = 0; b < Block::kSide; ++b) {
      const int gi = wrap(domain.origin[0] + a - 1, domain.rows());
      const int gj = wrap(domain.origin[1] + b - 1, domain.columns());
      u(a, b) = initial_u(gi, gj);
      f(a, b) = source_f(gi, gj);
    }
  }
}

// `relax` of the figure: one Jacobi sweep over the interior.
void relax(Block& u, const Block& f) {
  Block next = u;
  for (int a = 1; a <= kPoints; ++a) {
    for (int b = 1; b <= kPoints; ++b) {
      next(a, b) =
          relaxed(u(a - 1, b), u(a + 1, b), u(a, b - 1), u(a, b + 1), f(a, b));
    }
  }
  u = next;
}

// Neighbours as the figure numbers them: (i-1,j), (i+1,j), (i,j-1), (i,j+1).
enum Neighbour { kUp = 0, kDown = 1, kLeft = 2, kRight = 3 };

std::vector<double> row_of(const Block& u, int a) {
  std::vector<double> row;
  for (int b = 1; b <= kPoints; ++b) row.push_back(u(a, b));
  return row;
}
std::vector<double> column_of(const Block& u, int b) {
  std::vector<double> column;
  for (int a = 1; a <= kPoints; ++a) column.push_back(u(a, b));
  return column;
}

// Sends `edge` to `to`, receives the matching edge from `from`.
std::vector<double> swap_edge(const Comm& comm, const std::vector<double>& edge,
                              int to, int from, int tag) {
  std::vector<double> received(edge.size());
  sendrecv(comm, std::span<const double>(edge), to, tag,
           std::span<double>(received), from, tag);
  return received;
}

// `exchange` of the figure: the interior's outer rows and columns go to the
// neighbours, whose edges fill the ghosts.
void exchange(Block& u, const Comm& comm_cart,
              const std::array<int, 4>& neigh_rank) {
  const auto from_down =
      swap_edge(comm_cart, row_of(u, 1), neigh_rank[kUp], neigh_rank[kDown], 0);
  const auto from_up = swap_edge(comm_cart, row_of(u, kPoints),
                                 neigh_rank[kDown], neigh_rank[kUp], 1);
  for (int b = 1; b <= kPoints; ++b) {
    u(kPoints + 1, b) = from_down[static_cast<std::size_t>(b - 1)];
    u(0, b) = from_up[static_cast<std::size_t>(b - 1)];
  }
  const auto from_right = swap_edge(comm_cart, column_of(u, 1),
                                    neigh_rank[kLeft], neigh_rank[kRight], 2);
  const auto from_left = swap_edge(comm_cart, column_of(u, kPoints),
                                   neigh_rank[kRight], neigh_rank[kLeft], 3);
  for (int a = 1; a <= kPoints; ++a) {
    u(a, kPoints + 1) = from_right[static_cast<std::size_t>(a - 1)];
    u(a, 0) = from_left[static_cast<std::size_t>(a - 1)];
  }
}

// The same iteration on the whole periodic domain, by one process.
std::vector<double> serial_solution(int rows, int columns) {
  const auto at = [columns](int gi, int gj) {
    return static_cast<std::size_t>(gi * columns + gj);
  };
  std::vector<double> u(static_cast<std::size_t>(rows * columns));
  for (int gi = 0; gi < rows; ++gi) {
    for (int gj = 0; gj < columns; ++gj) u[at(gi, gj)] = initial_u(gi, gj);
  }
  for (int it = 0; it < kIterations; ++it) {
    std::vector<double> next(u.size());
    for (int gi = 0; gi < rows; ++gi) {
      for (int gj = 0; gj < columns; ++gj) {
        next[at(gi, gj)] = relaxed(
            u[at(wrap(gi - 1, rows), gj)], u[at(wrap(gi + 1, rows), gj)],
            u[at(gi, wrap(gj - 1, columns))], u[at(gi, wrap(gj + 1, columns))],
            source_f(gi, gj));
      }
    }
    u = next;
  }
  return u;
}

TEST(Seed000, Example66PoissonSolverSetUpAndExchange) {
  // Set process grid size and periodicity.
  const std::array<int, 2> zeros = {0, 0};
  std::vector<int> dims = dims_create(world_size(), zeros);
  const std::array<bool, 2> periods = {true, true};
  // Create a grid structure in WORLD group and inquire about own position.
  Comm comm_cart = cart_create(Comm::world(), dims, periods, Reorder::yes);
  ASSERT_FALSE(comm_cart.is_null());
  const CartInfo info = cart_get(comm_cart);
  EXPECT_EQ(info.dims, dims);
  // Look up the ranks for the neighbors. Own process coordinates are (i,j).
  const int i = info.coords[0];
  const int j = info.coords[1];
  std::array<int, 4> neigh_rank{};
  neigh_rank[kUp] = cart_rank(comm_cart, std::array{i - 1, j});
  neigh_rank[kDown] = cart_rank(comm_cart, std::array{i + 1, j});
  neigh_rank[kLeft] = cart_rank(comm_cart, std::array{i, j - 1});
  neigh_rank[kRight] = cart_rank(comm_cart, std::array{i, j + 1});
  // The same neighbours, as a row-major numbering computed here gives them.
  const auto rank_at = [&](int row, int column) {
    return wrap(row, dims[0]) * dims[1] + wrap(column, dims[1]);
  };
  EXPECT_EQ(neigh_rank[kUp], rank_at(i - 1, j));
  EXPECT_EQ(neigh_rank[kDown], rank_at(i + 1, j));
  EXPECT_EQ(neigh_rank[kLeft], rank_at(i, j - 1));
  EXPECT_EQ(neigh_rank[kRight], rank_at(i, j + 1));

  // Initialize the grid functions and start the iteration.
  const Domain domain{dims, {i * kPoints, j * kPoints}};
  Block u;
  Block f;
  init(domain, u, f);
  for (int it = 0; it < kIterations; ++it) {
    relax(u, f);
    // Exchange data with neighbor processes.
    exchange(u, comm_cart, neigh_rank);
  }

  const std::vector<double> expected =
      serial_solution(domain.rows(), domain.columns());
  int mismatches = 0;
  for (int a = 1; a <= kPoints; ++a) {
    for (int b = 1; b <= kPoints; ++b) {
      const int gi = domain.origin[0] + a - 1;
      const int gj = domain.origin[1] + b - 1;
      const double want =
          expected[static_cast<std::size_t>(gi * domain.columns() + gj)];
      if (u(a, b) != want) ++mismatches;
      EXPECT_DOUBLE_EQ(u(a, b), want)
          << "at global (" << gi << ", " << gj << ")";
      if (mismatches > 3) return;
    }
  }
}

}  // namespace
}  // namespace classic
