// A tour of the classic layer across its packages (dims_create, Cartesian
// topologies, neighbour collectives, inter-communicators), as a user would
// write it, compiled and checked.
#include <gtest/gtest.h>
#include <mpi.h>

#include <array>
#include <span>
#include <vector>

#include "classic/base/constants.h"
#include "classic/collectives/collectives.h"
#include "classic/comm/comm.h"
#include "classic/intercomm/intercomm.h"
#include "classic/neighbor/neighbor_collectives.h"
#include "classic/p2p/request.h"
#include "classic/topology/cartesian.h"
#include "classic/topology/dims_create.h"

namespace classic {
namespace {

TEST(ClassicTour, AcrossPackages) {
  if (Comm::world().size() < 2) GTEST_SKIP() << "two groups need two ranks";
  const double value = Comm::world().rank();
  std::vector<int> data(3, Comm::world().rank() == 0 ? 42 : 0);
  Comm world = Comm::world();
  const std::array<int, 2> any{0, 0};
  std::vector<int> dims = dims_create(world.size(), any);  // 9x8 for 72
  const std::array<bool, 2> periods{true, false};
  Comm grid = cart_create(world, dims, periods, Reorder::no);
  auto [source, dest] = cart_shift(grid, 1, 1);  // proc_null past a border
  Comm row = cart_sub(grid, std::array{false, true});
  std::vector<double> halo(4, -1.0);  // a block per neighbour: -x +x -y +y
  neighbor_allgather(grid, std::span(&value, 1), std::span(halo));
  std::vector<double> out(4, value), in(4, -1.0);
  Request pending = ineighbor_alltoall(grid, std::span(out), std::span(in));
  wait(pending);
  // Inter-communicator between the two halves of the world; leaders are
  // their rank 0 (world ranks 0 and size / 2).
  const bool lower = world.rank() < world.size() / 2;
  Comm half = world.split(lower ? 0 : 1, 0);
  Comm inter = intercomm_create(half, 0, world, lower ? world.size() / 2 : 0,
                                /*tag=*/7);
  // World rank 0 broadcasts to the upper half.
  const int root = !lower ? 0 : (half.rank() == 0 ? mpi_root : proc_null);
  bcast(inter, std::span(data), root);
  Comm merged = intercomm_merge(inter, lower ? Merge::low : Merge::high);

  const int size = world.size();
  EXPECT_EQ(dims[0] * dims[1], size);
  EXPECT_GE(dims[0], dims[1]);
  const int columns = dims[1];
  const int my_row = world.rank() / columns;
  const int my_column = world.rank() % columns;
  EXPECT_EQ(source, my_column == 0 ? proc_null : world.rank() - 1);
  EXPECT_EQ(dest, my_column == columns - 1 ? proc_null : world.rank() + 1);
  EXPECT_EQ(row.size(), columns);
  EXPECT_EQ(row.rank(), my_column);
  // Neighbours in dimension 0 (periodic) are the rows above and below.
  const int up = ((my_row + dims[0] - 1) % dims[0]) * columns + my_column;
  const int down = ((my_row + 1) % dims[0]) * columns + my_column;
  EXPECT_EQ(halo[0], up);
  EXPECT_EQ(halo[1], down);
  EXPECT_EQ(halo[2], source == proc_null ? -1.0 : source);
  EXPECT_EQ(halo[3], dest == proc_null ? -1.0 : dest);
  EXPECT_EQ(in, halo);  // every neighbour sent its own rank
  EXPECT_EQ(inter.remote_size(), lower ? size - size / 2 : size / 2);
  if (!lower) {
    EXPECT_EQ(data, std::vector<int>(3, 42));
  }
  EXPECT_EQ(merged.size(), size);
  EXPECT_EQ(merged.rank(), world.rank());  // low half first
}

}  // namespace
}  // namespace classic
