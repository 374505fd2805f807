// ortho's neighbourhood reductions (allreduce, reduce) on classic Cartesian
// topologies with borders: a non-periodic dimension gives proc_null
// neighbours, which contribute no operand (a process whose neighbours are
// all proc_null keeps its receive buffer as it was). Every grid of the
// process count with every mix of periodic and non-periodic dimensions,
// periodic dimensions of size 1 and 2 among them, each algorithm offered
// for the operation, the three modes and two calls (the second runs a kept
// plan). The reference is brute force from cart_shift: the fold, in source
// order, of the operands of the process's non-proc_null sources.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/error.h"
#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "classic/p2p/request.h"
#include "classic/topology/cartesian.h"
#include "ortho/collectives.h"
#include "ortho/table.h"

namespace {

using classic::Comm;
using classic::Mode;

constexpr int kCount = 3;
constexpr int kUntouched = -424242;

struct Grid {
  std::vector<int> dims;
  std::vector<bool> periods;
};

std::string describe(const Grid& grid) {
  std::string text = "dims";
  for (int d : grid.dims) text += " " + std::to_string(d);
  text += ", periods";
  for (bool p : grid.periods) text += p ? " 1" : " 0";
  return text;
}

// Every factorisation of `size` into `ndims` ordered factors.
void factorisations(int size, int ndims, std::vector<int>& prefix,
                    std::vector<std::vector<int>>& out) {
  if (static_cast<int>(prefix.size()) == ndims - 1) {
    prefix.push_back(size);
    out.push_back(prefix);
    prefix.pop_back();
    return;
  }
  for (int f = 1; f <= size; ++f) {
    if (size % f != 0) continue;
    prefix.push_back(f);
    factorisations(size / f, ndims, prefix, out);
    prefix.pop_back();
  }
}

// Grids of 1 to 3 dimensions over all processes, with every periodicity.
std::vector<Grid> grids(int size) {
  std::vector<Grid> all;
  for (int ndims = 1; ndims <= 3; ++ndims) {
    std::vector<std::vector<int>> shapes;
    std::vector<int> prefix;
    factorisations(size, ndims, prefix, shapes);
    for (const std::vector<int>& dims : shapes) {
      for (int mask = 0; mask < (1 << ndims); ++mask) {
        Grid grid{dims, {}};
        for (int d = 0; d < ndims; ++d) grid.periods.push_back(mask >> d & 1);
        all.push_back(grid);
      }
    }
  }
  return all;
}

// The operand of process `rank`'s element `i` at call `call`.
int operand(int rank, int i, int call) {
  return 1000 * (rank + 1) + 10 * i + call;
}

std::vector<int> operands_of(int rank, int call) {
  std::vector<int> v(kCount);
  for (int i = 0; i < kCount; ++i)
    v[static_cast<std::size_t>(i)] = operand(rank, i, call);
  return v;
}

// MPI's neighbour order on a Cartesian topology: per dimension, the
// negative then the positive direction.
std::vector<int> sources_of(const Comm& cart) {
  std::vector<int> sources;
  for (int d = 0; d < classic::cartdim_get(cart); ++d) {
    const classic::CartShift shift = classic::cart_shift(cart, d, 1);
    sources.push_back(shift.source);
    sources.push_back(shift.destination);
  }
  return sources;
}

// The brute-force result at a process with `sources`; nullopt where no
// source is a process (the buffer stays as it was).
std::optional<std::vector<int>> expected_fold(const std::vector<int>& sources,
                                              MPI_Op op, int call) {
  std::optional<std::vector<int>> result;
  for (int source : sources) {
    if (source == classic::proc_null) continue;
    const std::vector<int> value = operands_of(source, call);
    if (!result) {
      result = value;
      continue;
    }
    for (std::size_t i = 0; i < value.size(); ++i) {
      (*result)[i] = op == MPI_MAX ? std::max((*result)[i], value[i])
                                   : (*result)[i] + value[i];
    }
  }
  return result;
}

void complete(Mode mode, classic::Request request) {
  if (mode == Mode::blocking) return;
  if (mode == Mode::persistent) classic::start(request);
  classic::wait(request);
}

// The algorithms ortho offers for `operation` on `cart`, each forced in turn.
std::vector<std::string> offered(const Comm& cart, std::string_view operation) {
  std::vector<std::string> names;
  for (const char* name : {"direct", "combining", "native", "per_peer",
                           "pairwise", "node_aware", "common_neighbours"}) {
    try {
      ortho::set_algorithm(cart, std::string(operation) + "=" + name);
      names.emplace_back(name);
    } catch (const classic::Error& error) {
      EXPECT_EQ(error.error_class(), classic::ErrorClass::arg) << error.what();
    }
  }
  ortho::set_algorithm(cart, "");
  return names;
}

using Run = std::function<void(const Comm&, Mode, const int*, int*, MPI_Op)>;

// Runs `run` on every grid, algorithm, mode and call and compares the
// receive buffer with `expected(cart, op, call)` (nullopt: untouched).
void check_every_grid(std::string_view operation, const Run& run,
                      const std::function<std::optional<std::vector<int>>(
                          const Comm&, MPI_Op, int)>& expected) {
  const Comm world = Comm::world();
  for (const Grid& grid : grids(world.size())) {
    const Comm cart = classic::cart_create(world, grid.dims, grid.periods,
                                           classic::Reorder::no);
    std::vector<std::string> algorithms = offered(cart, operation);
    algorithms.emplace_back("");  // the default choice
    for (const std::string& algorithm : algorithms) {
      ortho::set_algorithm(
          cart,
          algorithm.empty() ? "" : std::string(operation) + "=" + algorithm);
      for (MPI_Op op : {MPI_SUM, MPI_MAX}) {
        for (Mode mode :
             {Mode::blocking, Mode::nonblocking, Mode::persistent}) {
          for (int call = 0; call < 2; ++call) {
            SCOPED_TRACE(describe(grid) + ", algorithm '" + algorithm +
                         "', op " + (op == MPI_MAX ? "max" : "sum") +
                         ", mode " + std::to_string(static_cast<int>(mode)) +
                         ", call " + std::to_string(call));
            const std::vector<int> send = operands_of(cart.rank(), call);
            std::vector<int> got(kCount, kUntouched);
            run(cart, mode, send.data(), got.data(), op);
            const std::optional<std::vector<int>> want =
                expected(cart, op, call);
            EXPECT_EQ(got, want.value_or(std::vector<int>(kCount, kUntouched)));
          }
        }
      }
    }
  }
}

TEST(CartesianReduction, AllreduceFoldsOnlyRealNeighbours) {
  check_every_grid(
      "allreduce",
      [](const Comm& cart, Mode mode, const int* send, int* recv, MPI_Op op) {
        if (mode == Mode::blocking) {
          ortho::allreduce(cart, send, recv, kCount, MPI_INT, op);
        } else {
          complete(
              mode,
              mode == Mode::persistent
                  ? ortho::allreduce_init(cart, send, recv, kCount, MPI_INT, op)
                  : ortho::iallreduce(cart, send, recv, kCount, MPI_INT, op));
        }
      },
      [](const Comm& cart, MPI_Op op, int call) {
        return expected_fold(sources_of(cart), op, call);
      });
}

TEST(CartesianReduction, ReduceFoldsOnlyRealNeighboursAtEveryRoot) {
  const int size = Comm::world().size();
  for (int root = 0; root < size; ++root) {
    SCOPED_TRACE("root " + std::to_string(root));
    check_every_grid(
        "reduce",
        [root](const Comm& cart, Mode mode, const int* send, int* recv,
               MPI_Op op) {
          if (mode == Mode::blocking) {
            ortho::reduce(cart, send, recv, kCount, MPI_INT, op, root);
          } else {
            complete(mode, mode == Mode::persistent
                               ? ortho::reduce_init(cart, send, recv, kCount,
                                                    MPI_INT, op, root)
                               : ortho::ireduce(cart, send, recv, kCount,
                                                MPI_INT, op, root));
          }
        },
        [root](const Comm& cart, MPI_Op op, int call) {
          return cart.rank() == root ? expected_fold(sources_of(cart), op, call)
                                     : std::nullopt;
        });
  }
}

TEST(CartesianReduction, InPlaceAllreduceWithoutNeighboursKeepsTheBuffer) {
  // A single process on a non-periodic grid of one: both neighbours are
  // proc_null, so in place the buffer keeps its own value.
  const Comm world = Comm::world();
  const Comm cart =
      classic::cart_create(world, std::vector<int>{world.size()},
                           std::vector<bool>{false}, classic::Reorder::no);
  if (world.size() != 1) GTEST_SKIP() << "one process only";
  std::vector<int> buffer = {7, 8, 9};
  ortho::allreduce(cart, MPI_IN_PLACE, buffer.data(), kCount, MPI_INT, MPI_SUM);
  EXPECT_EQ(buffer, (std::vector<int>{7, 8, 9}));
}

}  // namespace
