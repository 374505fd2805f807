// Differential tests: classic's collectives on inter-communicators against
// Open MPI's on an inter-communicator made by MPI_Intercomm_create over the
// same split, with random counts (zero included), element types, ops,
// roots (either side), typed or raw forms. Both start from identical
// buffers and must leave identical buffers, including those a call must
// not touch (the root group's other processes, gaps between blocks). The
// raw forms run in a mode drawn each iteration: blocking, non-blocking
// (completed by wait) or persistent (started and completed twice, the
// second run on the first run's inputs), all as plans of classic's
// executor; a non-commutative user op checks the rank order of every
// reduction.
#include <gtest/gtest.h>
#include <mpi.h>

#include <memory>
#include <numeric>
#include <span>
#include <string>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/datatype.h"
#include "classic/collectives/collectives.h"
#include "classic/collectives/collectives_in_mode.h"
#include "classic/comm/comm.h"
#include "classic/intercomm/intercomm.h"
#include "classic/p2p/request.h"
#include "tests/classic/testing/collectives_testing.h"
#include "tests/classic/testing/intercomm_testing.h"

namespace classic {
namespace {

using intercomm_testing::Sides;
using intercomm_testing::world_rank;
using intercomm_testing::world_size;
using testing::at;
using testing::chance;
using testing::Form;
using testing::Layout;
using testing::Random;
using testing::random_counts;
using testing::scattered;
using testing::sentinel;
using testing::uniform;
using testing::values;

constexpr int kIterations = 80;

// Our inter-communicator and Open MPI's over the same two sides.
struct InterPair {
  std::string name;
  Sides sides;
  Comm classic;
  MPI_Comm oracle = MPI_COMM_NULL;
  // The mode of the raw forms in the current iteration.
  Mode mode = Mode::blocking;

  InterPair(std::string pair_name, const Sides& s)
      : name(std::move(pair_name)), sides(s) {
    const int w = world_rank();
    const std::vector<int>& mine = sides.mine();
    const int key =
        static_cast<int>(std::find(mine.begin(), mine.end(), w) - mine.begin());
    const int leader = sides.theirs().front();
    classic = intercomm_create(Comm::world().split(sides.in_a ? 0 : 1, key), 0,
                               Comm::world(), leader, 3);
    MPI_Comm local = MPI_COMM_NULL;
    MPI_Comm_split(MPI_COMM_WORLD, sides.in_a ? 0 : 1, key, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, leader, 3, &oracle);
    MPI_Comm_free(&local);
  }
  InterPair(const InterPair&) = delete;
  InterPair& operator=(const InterPair&) = delete;
  ~InterPair() { MPI_Comm_free(&oracle); }

  int size() const { return static_cast<int>(sides.mine().size()); }
  int remote_size() const { return static_cast<int>(sides.theirs().size()); }
  int rank() const { return sides.local_rank(world_rank()); }
  int size_of(bool side_a) const {
    return static_cast<int>((side_a ? sides.a : sides.b).size());
  }
};

std::vector<std::unique_ptr<InterPair>> inter_pairs() {
  std::vector<std::unique_ptr<InterPair>> pairs;
  pairs.push_back(
      std::make_unique<InterPair>("halves", intercomm_testing::halves()));
  pairs.push_back(std::make_unique<InterPair>(
      "interleaved", intercomm_testing::interleaved_reversed()));
  // A random split with both sides non-empty: world rank 0 in A, the last
  // in B, random keys.
  Random shared(99);
  std::vector<int> in_a(at(world_size())), keys(at(world_size()));
  for (int w = 0; w < world_size(); ++w) {
    in_a[at(w)] = w == 0 || (w != world_size() - 1 && chance(shared, 50));
    keys[at(w)] = uniform(shared, -3, 3);
  }
  pairs.push_back(std::make_unique<InterPair>(
      "random",
      intercomm_testing::sides_of([&](int w) { return in_a[at(w)] != 0; },
                                  [&](int w) { return keys[at(w)]; })));
  return pairs;
}

// Completes a raw classic call made in `mode`: a persistent request runs
// twice.
void finish(Request request, Mode mode) {
  switch (mode) {
    case Mode::blocking:
      EXPECT_TRUE(request.is_null());
      return;
    case Mode::nonblocking:
      wait(request);
      return;
    case Mode::persistent:
      for (int run = 0; run < 2; ++run) {
        start(request);
        wait(request);
      }
      return;
  }
}

// Runs check(pair, shared, local) kIterations times on each pair; shared
// draws are the same everywhere, local ones differ per process.
template <typename Check>
void run_random(unsigned salt, Check&& check) {
  if (world_size() < 2)
    GTEST_SKIP() << "an inter-communicator needs two groups";
  for (const auto& pair : inter_pairs()) {
    Random shared(testing::kSeed + salt);
    Random local(testing::kSeed + salt + 7919u * world_rank());
    for (int iteration = 0; iteration < kIterations; ++iteration) {
      pair->mode = static_cast<Mode>(uniform(shared, 0, 2));
      SCOPED_TRACE(pair->name + ", iteration " + std::to_string(iteration) +
                   ", mode " + std::to_string(static_cast<int>(pair->mode)) +
                   ", world rank " + std::to_string(world_rank()));
      check(*pair, shared, local);
    }
  }
}

template <typename Check>
void run_random_typed(unsigned salt, Check&& check) {
  run_random(salt, [&](const InterPair& pair, Random& shared, Random& local) {
    testing::with_element_type(
        uniform(shared, 0, testing::kElementTypes - 1), [&]<typename T>() {
          check.template operator()<T>(pair, shared, local);
        });
  });
}

// A root: its side, its local rank there; and what each process passes.
struct Root {
  bool in_a;
  int rank;
  bool here_is_root_side(const InterPair& pair) const {
    return pair.sides.in_a == in_a;
  }
  bool is_me(const InterPair& pair) const {
    return here_is_root_side(pair) && pair.rank() == rank;
  }
  int classic_arg(const InterPair& pair) const {
    if (!here_is_root_side(pair)) return rank;
    return is_me(pair) ? mpi_root : proc_null;
  }
  int mpi_arg(const InterPair& pair) const {
    if (!here_is_root_side(pair)) return rank;
    return is_me(pair) ? MPI_ROOT : MPI_PROC_NULL;
  }
};

Root draw_root(const InterPair& pair, Random& shared) {
  const bool in_a = chance(shared, 50);
  return {in_a, uniform(shared, 0, pair.size_of(in_a) - 1)};
}

Form draw_form(Random& shared) {
  return chance(shared, 50) ? Form::typed : Form::raw;
}

template <typename T>
std::span<const T> in(const std::vector<T>& v) {
  return v;
}
template <typename T>
std::span<T> out(std::vector<T>& v) {
  return v;
}

TEST(IntercommCollectivesVsOpenMpi, Barrier) {
  run_random(1, [](const InterPair& pair, Random&, Random&) {
    finish(barrier(pair.classic, pair.mode), pair.mode);
    EXPECT_EQ(MPI_Barrier(pair.oracle), MPI_SUCCESS);
  });
}

TEST(IntercommCollectivesVsOpenMpi, Bcast) {
  run_random_typed(
      2, []<typename T>(const InterPair& pair, Random& shared, Random& local) {
        const int count = uniform(shared, 0, 6);
        const Root root = draw_root(pair, shared);
        const Form form = draw_form(shared);
        const std::vector<T> start =
            root.is_me(pair) ? values<T>(local, at(count))
                             : std::vector<T>(at(count), sentinel<T>());
        std::vector<T> mine = start;
        std::vector<T> theirs = start;
        if (form == Form::typed) {
          bcast(pair.classic, out(mine), root.classic_arg(pair));
        } else {
          finish(bcast(pair.classic, mine.data(), count, datatype_of<T>(),
                       root.classic_arg(pair), pair.mode),
                 pair.mode);
        }
        EXPECT_EQ(MPI_Bcast(theirs.data(), count, datatype_of<T>(),
                            root.mpi_arg(pair), pair.oracle),
                  MPI_SUCCESS);
        EXPECT_EQ(mine, theirs);
      });
}

TEST(IntercommCollectivesVsOpenMpi, Gather) {
  run_random_typed(3, []<typename T>(const InterPair& pair, Random& shared,
                                     Random& local) {
    const int count = uniform(shared, 0, 5);
    const Root root = draw_root(pair, shared);
    const Form form = draw_form(shared);
    const MPI_Datatype type = datatype_of<T>();
    const bool root_side = root.here_is_root_side(pair);
    const std::vector<T> send =
        root_side ? std::vector<T>() : values<T>(local, at(count));
    std::vector<T> mine(root.is_me(pair) ? at(count * pair.remote_size()) : 0,
                        sentinel<T>());
    std::vector<T> theirs = mine;
    if (form == Form::typed) {
      gather(pair.classic, in(send), out(mine), root.classic_arg(pair));
    } else {
      finish(gather(pair.classic, send.data(), count, type, mine.data(), count,
                    type, root.classic_arg(pair), pair.mode),
             pair.mode);
    }
    EXPECT_EQ(MPI_Gather(send.data(), count, type, theirs.data(), count, type,
                         root.mpi_arg(pair), pair.oracle),
              MPI_SUCCESS);
    EXPECT_EQ(mine, theirs);
  });
}

TEST(IntercommCollectivesVsOpenMpi, Gatherv) {
  run_random_typed(
      4, []<typename T>(const InterPair& pair, Random& shared, Random& local) {
        const Root root = draw_root(pair, shared);
        const Form form = draw_form(shared);
        // The other side's counts, known to all.
        const std::vector<int> counts =
            random_counts(shared, pair.size_of(!root.in_a), 4);
        const Layout layout = scattered(shared, counts);
        const MPI_Datatype type = datatype_of<T>();
        const bool root_side = root.here_is_root_side(pair);
        const int count = root_side ? 0 : counts[at(pair.rank())];
        const std::vector<T> send = values<T>(local, at(count));
        std::vector<T> mine(root.is_me(pair) ? at(layout.extent) : 0,
                            sentinel<T>());
        std::vector<T> theirs = mine;
        if (form == Form::typed) {
          gatherv(pair.classic, in(send), out(mine), layout.counts,
                  layout.displs, root.classic_arg(pair));
        } else {
          finish(gatherv(pair.classic, send.data(), count, type, mine.data(),
                         layout.counts, layout.displs, type,
                         root.classic_arg(pair), pair.mode),
                 pair.mode);
        }
        EXPECT_EQ(MPI_Gatherv(send.data(), count, type, theirs.data(),
                              layout.counts.data(), layout.displs.data(), type,
                              root.mpi_arg(pair), pair.oracle),
                  MPI_SUCCESS);
        EXPECT_EQ(mine, theirs);
      });
}

TEST(IntercommCollectivesVsOpenMpi, Scatter) {
  run_random_typed(
      5, []<typename T>(const InterPair& pair, Random& shared, Random& local) {
        const int count = uniform(shared, 0, 5);
        const Root root = draw_root(pair, shared);
        const Form form = draw_form(shared);
        const MPI_Datatype type = datatype_of<T>();
        const bool root_side = root.here_is_root_side(pair);
        const std::vector<T> send =
            root.is_me(pair) ? values<T>(local, at(count * pair.remote_size()))
                             : std::vector<T>();
        std::vector<T> mine(root_side ? 0 : at(count), sentinel<T>());
        std::vector<T> theirs = mine;
        if (form == Form::typed) {
          scatter(pair.classic, in(send), out(mine), root.classic_arg(pair));
        } else {
          finish(scatter(pair.classic, send.data(), count, type, mine.data(),
                         count, type, root.classic_arg(pair), pair.mode),
                 pair.mode);
        }
        EXPECT_EQ(MPI_Scatter(send.data(), count, type, theirs.data(), count,
                              type, root.mpi_arg(pair), pair.oracle),
                  MPI_SUCCESS);
        EXPECT_EQ(mine, theirs);
      });
}

TEST(IntercommCollectivesVsOpenMpi, Scatterv) {
  run_random_typed(
      6, []<typename T>(const InterPair& pair, Random& shared, Random& local) {
        const Root root = draw_root(pair, shared);
        const Form form = draw_form(shared);
        const std::vector<int> counts =
            random_counts(shared, pair.size_of(!root.in_a), 4);
        const Layout layout = scattered(shared, counts);
        const MPI_Datatype type = datatype_of<T>();
        const bool root_side = root.here_is_root_side(pair);
        const int count = root_side ? 0 : counts[at(pair.rank())];
        const std::vector<T> send = root.is_me(pair)
                                        ? values<T>(local, at(layout.extent))
                                        : std::vector<T>();
        std::vector<T> mine(at(count), sentinel<T>());
        std::vector<T> theirs = mine;
        if (form == Form::typed) {
          scatterv(pair.classic, in(send), layout.counts, layout.displs,
                   out(mine), root.classic_arg(pair));
        } else {
          finish(scatterv(pair.classic, send.data(), layout.counts,
                          layout.displs, type, mine.data(), count, type,
                          root.classic_arg(pair), pair.mode),
                 pair.mode);
        }
        EXPECT_EQ(MPI_Scatterv(send.data(), layout.counts.data(),
                               layout.displs.data(), type, theirs.data(), count,
                               type, root.mpi_arg(pair), pair.oracle),
                  MPI_SUCCESS);
        EXPECT_EQ(mine, theirs);
      });
}

// Each side sends its own count; a process receives the other side's.
TEST(IntercommCollectivesVsOpenMpi, Allgather) {
  run_random_typed(
      7, []<typename T>(const InterPair& pair, Random& shared, Random& local) {
        const int count_a = uniform(shared, 0, 4);
        const int count_b = uniform(shared, 0, 4);
        const Form form = draw_form(shared);
        const MPI_Datatype type = datatype_of<T>();
        const int send_count = pair.sides.in_a ? count_a : count_b;
        const int recv_count = pair.sides.in_a ? count_b : count_a;
        const std::vector<T> send = values<T>(local, at(send_count));
        std::vector<T> mine(at(recv_count * pair.remote_size()), sentinel<T>());
        std::vector<T> theirs = mine;
        if (form == Form::typed) {
          allgather(pair.classic, in(send), out(mine));
        } else {
          finish(allgather(pair.classic, send.data(), send_count, type,
                           mine.data(), recv_count, type, pair.mode),
                 pair.mode);
        }
        EXPECT_EQ(MPI_Allgather(send.data(), send_count, type, theirs.data(),
                                recv_count, type, pair.oracle),
                  MPI_SUCCESS);
        EXPECT_EQ(mine, theirs);
      });
}

TEST(IntercommCollectivesVsOpenMpi, Allgatherv) {
  run_random_typed(
      8, []<typename T>(const InterPair& pair, Random& shared, Random& local) {
        const std::vector<int> counts_a =
            random_counts(shared, pair.size_of(true), 3);
        const std::vector<int> counts_b =
            random_counts(shared, pair.size_of(false), 3);
        const Form form = draw_form(shared);
        const MPI_Datatype type = datatype_of<T>();
        const std::vector<int>& own = pair.sides.in_a ? counts_a : counts_b;
        const Layout layout =
            scattered(local, pair.sides.in_a ? counts_b : counts_a);
        const std::vector<T> send = values<T>(local, at(own[at(pair.rank())]));
        std::vector<T> mine(at(layout.extent), sentinel<T>());
        std::vector<T> theirs = mine;
        if (form == Form::typed) {
          allgatherv(pair.classic, in(send), out(mine), layout.counts,
                     layout.displs);
        } else {
          finish(allgatherv(pair.classic, send.data(),
                            static_cast<int>(send.size()), type, mine.data(),
                            layout.counts, layout.displs, type, pair.mode),
                 pair.mode);
        }
        EXPECT_EQ(MPI_Allgatherv(send.data(), static_cast<int>(send.size()),
                                 type, theirs.data(), layout.counts.data(),
                                 layout.displs.data(), type, pair.oracle),
                  MPI_SUCCESS);
        EXPECT_EQ(mine, theirs);
      });
}

TEST(IntercommCollectivesVsOpenMpi, Alltoall) {
  run_random_typed(
      9, []<typename T>(const InterPair& pair, Random& shared, Random& local) {
        const int count_a = uniform(shared, 0, 4);  // what A sends per block
        const int count_b = uniform(shared, 0, 4);
        const Form form = draw_form(shared);
        const MPI_Datatype type = datatype_of<T>();
        const int send_count = pair.sides.in_a ? count_a : count_b;
        const int recv_count = pair.sides.in_a ? count_b : count_a;
        const std::vector<T> send =
            values<T>(local, at(send_count * pair.remote_size()));
        std::vector<T> mine(at(recv_count * pair.remote_size()), sentinel<T>());
        std::vector<T> theirs = mine;
        if (form == Form::typed) {
          alltoall(pair.classic, in(send), out(mine));
        } else {
          finish(alltoall(pair.classic, send.data(), send_count, type,
                          mine.data(), recv_count, type, pair.mode),
                 pair.mode);
        }
        EXPECT_EQ(MPI_Alltoall(send.data(), send_count, type, theirs.data(),
                               recv_count, type, pair.oracle),
                  MPI_SUCCESS);
        EXPECT_EQ(mine, theirs);
      });
}

// counts[i][j]: what local rank i of side A sends to rank j of B (and
// back[j][i] for B to A), known to all.
std::vector<std::vector<int>> count_matrix(Random& shared, int rows,
                                           int columns) {
  std::vector<std::vector<int>> matrix(at(rows));
  for (auto& row : matrix) row = random_counts(shared, columns, 3);
  return matrix;
}

struct Exchange {
  std::vector<int> send_counts;
  std::vector<int> recv_counts;
};

Exchange exchange_of(const InterPair& pair, Random& shared) {
  const auto a_to_b =
      count_matrix(shared, pair.size_of(true), pair.size_of(false));
  const auto b_to_a =
      count_matrix(shared, pair.size_of(false), pair.size_of(true));
  const auto& out_matrix = pair.sides.in_a ? a_to_b : b_to_a;
  const auto& in_matrix = pair.sides.in_a ? b_to_a : a_to_b;
  Exchange exchange{out_matrix[at(pair.rank())], {}};
  for (const auto& row : in_matrix) {
    exchange.recv_counts.push_back(row[at(pair.rank())]);
  }
  return exchange;
}

TEST(IntercommCollectivesVsOpenMpi, Alltoallv) {
  run_random_typed(10, []<typename T>(const InterPair& pair, Random& shared,
                                      Random& local) {
    const Exchange exchange = exchange_of(pair, shared);
    const Form form = draw_form(shared);
    const MPI_Datatype type = datatype_of<T>();
    const Layout send_layout = scattered(local, exchange.send_counts);
    const Layout recv_layout = scattered(local, exchange.recv_counts);
    const std::vector<T> send = values<T>(local, at(send_layout.extent));
    std::vector<T> mine(at(recv_layout.extent), sentinel<T>());
    std::vector<T> theirs = mine;
    if (form == Form::typed) {
      alltoallv(pair.classic, in(send), send_layout.counts, send_layout.displs,
                out(mine), recv_layout.counts, recv_layout.displs);
    } else {
      finish(alltoallv(pair.classic, send.data(), send_layout.counts,
                       send_layout.displs, type, mine.data(),
                       recv_layout.counts, recv_layout.displs, type, pair.mode),
             pair.mode);
    }
    EXPECT_EQ(MPI_Alltoallv(send.data(), send_layout.counts.data(),
                            send_layout.displs.data(), type, theirs.data(),
                            recv_layout.counts.data(),
                            recv_layout.displs.data(), type, pair.oracle),
              MPI_SUCCESS);
    EXPECT_EQ(mine, theirs);
  });
}

// Ints in pairs: each block travels either as ints or as pairs of them
// (a derived datatype), chosen apart on the two ends.
TEST(IntercommCollectivesVsOpenMpi, Alltoallw) {
  MPI_Datatype two_ints = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(2, MPI_INT, &two_ints);
  MPI_Type_commit(&two_ints);
  run_random(11, [&](const InterPair& pair, Random& shared, Random& local) {
    Exchange exchange = exchange_of(pair, shared);
    for (int& c : exchange.send_counts) c *= 2;  // ints, in pairs
    for (int& c : exchange.recv_counts) c *= 2;
    const Layout send_layout = scattered(local, exchange.send_counts);
    const Layout recv_layout = scattered(local, exchange.recv_counts);
    auto typed = [&](const Layout& layout, std::vector<int>& counts,
                     std::vector<int>& byte_displs,
                     std::vector<MPI_Datatype>& types) {
      for (std::size_t j = 0; j < layout.counts.size(); ++j) {
        const bool pairs = chance(local, 50);
        counts.push_back(pairs ? layout.counts[j] / 2 : layout.counts[j]);
        byte_displs.push_back(layout.displs[j] * static_cast<int>(sizeof(int)));
        types.push_back(pairs ? two_ints : MPI_INT);
      }
    };
    std::vector<int> send_counts, send_displs, recv_counts, recv_displs;
    std::vector<MPI_Datatype> send_types, recv_types;
    typed(send_layout, send_counts, send_displs, send_types);
    typed(recv_layout, recv_counts, recv_displs, recv_types);
    const std::vector<int> send = values<int>(local, at(send_layout.extent));
    std::vector<int> mine(at(recv_layout.extent), sentinel<int>());
    std::vector<int> theirs = mine;
    finish(alltoallw(pair.classic, send.data(), send_counts, send_displs,
                     send_types, mine.data(), recv_counts, recv_displs,
                     recv_types, pair.mode),
           pair.mode);
    EXPECT_EQ(
        MPI_Alltoallw(send.data(), send_counts.data(), send_displs.data(),
                      send_types.data(), theirs.data(), recv_counts.data(),
                      recv_displs.data(), recv_types.data(), pair.oracle),
        MPI_SUCCESS);
    EXPECT_EQ(mine, theirs);
  });
  MPI_Type_free(&two_ints);
}

// ---- reductions
// ----------------------------------------------------------------

template <typename T>
std::vector<T> operands(Random& local, MPI_Op op, int count) {
  std::vector<T> result(at(count));
  for (T& value : result) value = testing::operand<T>(local, op);
  return result;
}

template <typename Check>
void run_random_reduction(unsigned salt, Check&& check) {
  run_random(salt, [&](const InterPair& pair, Random& shared, Random& local) {
    testing::with_reduction(shared, [&]<typename T>(MPI_Op op) {
      check.template operator()<T>(pair, shared, local, op);
    });
  });
}

TEST(IntercommCollectivesVsOpenMpi, Reduce) {
  run_random_reduction(12, []<typename T>(const InterPair& pair, Random& shared,
                                          Random& local, MPI_Op op) {
    const int count = uniform(shared, 0, 5);
    const Root root = draw_root(pair, shared);
    const Form form = draw_form(shared);
    const MPI_Datatype type = datatype_of<T>();
    const bool root_side = root.here_is_root_side(pair);
    const std::vector<T> send =
        root_side ? std::vector<T>() : operands<T>(local, op, count);
    std::vector<T> mine(root.is_me(pair) ? at(count) : 0, sentinel<T>());
    std::vector<T> theirs = mine;
    if (form == Form::typed) {
      reduce(pair.classic, in(send), out(mine), op, root.classic_arg(pair));
    } else {
      finish(reduce(pair.classic, send.data(), mine.data(), count, type, op,
                    root.classic_arg(pair), pair.mode),
             pair.mode);
    }
    EXPECT_EQ(MPI_Reduce(send.data(), theirs.data(), count, type, op,
                         root.mpi_arg(pair), pair.oracle),
              MPI_SUCCESS);
    EXPECT_EQ(mine, theirs);
  });
}

TEST(IntercommCollectivesVsOpenMpi, Allreduce) {
  run_random_reduction(13, []<typename T>(const InterPair& pair, Random& shared,
                                          Random& local, MPI_Op op) {
    const int count = uniform(shared, 0, 5);
    const Form form = draw_form(shared);
    const MPI_Datatype type = datatype_of<T>();
    const std::vector<T> send = operands<T>(local, op, count);
    std::vector<T> mine(at(count), sentinel<T>());
    std::vector<T> theirs = mine;
    if (form == Form::typed) {
      allreduce(pair.classic, in(send), out(mine), op);
    } else {
      finish(allreduce(pair.classic, send.data(), mine.data(), count, type, op,
                       pair.mode),
             pair.mode);
    }
    EXPECT_EQ(
        MPI_Allreduce(send.data(), theirs.data(), count, type, op, pair.oracle),
        MPI_SUCCESS);
    EXPECT_EQ(mine, theirs);
  });
}

// `total` elements cut into `parts` random counts.
std::vector<int> cut(Random& shared, int total, int parts) {
  std::vector<int> counts(at(parts), 0);
  for (int k = 0; k < total; ++k) ++counts[at(uniform(shared, 0, parts - 1))];
  return counts;
}

// Both sides reduce vectors of the same length, each cut its own way.
TEST(IntercommCollectivesVsOpenMpi, ReduceScatter) {
  run_random_reduction(14, []<typename T>(const InterPair& pair, Random& shared,
                                          Random& local, MPI_Op op) {
    const int total = uniform(shared, 0, 9);
    const std::vector<int> counts_a = cut(shared, total, pair.size_of(true));
    const std::vector<int> counts_b = cut(shared, total, pair.size_of(false));
    const std::vector<int>& counts = pair.sides.in_a ? counts_a : counts_b;
    const Form form = draw_form(shared);
    const MPI_Datatype type = datatype_of<T>();
    const std::vector<T> send = operands<T>(local, op, total);
    std::vector<T> mine(at(counts[at(pair.rank())]), sentinel<T>());
    std::vector<T> theirs = mine;
    if (form == Form::typed) {
      reduce_scatter(pair.classic, in(send), out(mine), counts, op);
    } else {
      finish(reduce_scatter(pair.classic, send.data(), mine.data(), counts,
                            type, op, pair.mode),
             pair.mode);
    }
    EXPECT_EQ(MPI_Reduce_scatter(send.data(), theirs.data(), counts.data(),
                                 type, op, pair.oracle),
              MPI_SUCCESS);
    EXPECT_EQ(mine, theirs);
  });
}

// Equal totals: A's block is k |B| elements, B's k |A|.
TEST(IntercommCollectivesVsOpenMpi, ReduceScatterBlock) {
  run_random_reduction(15, []<typename T>(const InterPair& pair, Random& shared,
                                          Random& local, MPI_Op op) {
    const int k = uniform(shared, 0, 2);
    const int count = k * pair.remote_size();
    const Form form = draw_form(shared);
    const MPI_Datatype type = datatype_of<T>();
    const std::vector<T> send = operands<T>(local, op, count * pair.size());
    std::vector<T> mine(at(count), sentinel<T>());
    std::vector<T> theirs = mine;
    if (form == Form::typed) {
      reduce_scatter_block(pair.classic, in(send), out(mine), op);
    } else {
      finish(reduce_scatter_block(pair.classic, send.data(), mine.data(), count,
                                  type, op, pair.mode),
             pair.mode);
    }
    EXPECT_EQ(MPI_Reduce_scatter_block(send.data(), theirs.data(), count, type,
                                       op, pair.oracle),
              MPI_SUCCESS);
    EXPECT_EQ(mine, theirs);
  });
}

// An affine map x -> m x + c as (m, c), composed "a, then b": not
// commutative, so a reduction that folds out of rank order differs.
void compose(void* in, void* inout, int* count, MPI_Datatype*) {
  const auto* a = static_cast<const long long*>(in);
  auto* b = static_cast<long long*>(inout);
  for (int k = 0; k < *count; ++k) {
    const long long m = a[2 * k] * b[2 * k];
    const long long c = b[2 * k] * a[2 * k + 1] + b[2 * k + 1];
    b[2 * k] = m;
    b[2 * k + 1] = c;
  }
}

// The affine datatype and the composing op, freed at the end of the test.
struct AffineOp {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  MPI_Op op = MPI_OP_NULL;
  AffineOp() {
    MPI_Type_contiguous(2, MPI_LONG_LONG, &type);
    MPI_Type_commit(&type);
    MPI_Op_create(&compose, /*commute=*/0, &op);
  }
  AffineOp(const AffineOp&) = delete;
  AffineOp& operator=(const AffineOp&) = delete;
  ~AffineOp() {
    MPI_Op_free(&op);
    MPI_Type_free(&type);
  }
};

std::vector<long long> affine_maps(Random& local, int count) {
  std::vector<long long> maps(at(2 * count));
  for (std::size_t k = 0; k < maps.size(); k += 2) {
    maps[k] = uniform(local, 1, 3);
    maps[k + 1] = uniform(local, -4, 4);
  }
  return maps;
}

// reduce, allreduce and reduce_scatter_block with a non-commutative op
// give Open MPI's results: every fold keeps the other group's rank order.
TEST(IntercommCollectivesVsOpenMpi, NonCommutativeOpKeepsRankOrder) {
  const AffineOp affine;
  run_random(16, [&](const InterPair& pair, Random& shared, Random& local) {
    const int count = uniform(shared, 0, 3);
    const Root root = draw_root(pair, shared);
    const std::vector<long long> send = affine_maps(local, count);
    const long long unset = sentinel<long long>();

    std::vector<long long> mine(root.is_me(pair) ? at(2 * count) : 0, unset);
    std::vector<long long> theirs = mine;
    finish(reduce(pair.classic, send.data(), mine.data(), count, affine.type,
                  affine.op, root.classic_arg(pair), pair.mode),
           pair.mode);
    EXPECT_EQ(MPI_Reduce(send.data(), theirs.data(), count, affine.type,
                         affine.op, root.mpi_arg(pair), pair.oracle),
              MPI_SUCCESS);
    EXPECT_EQ(mine, theirs) << "reduce";

    mine.assign(at(2 * count), unset);
    theirs = mine;
    finish(allreduce(pair.classic, send.data(), mine.data(), count, affine.type,
                     affine.op, pair.mode),
           pair.mode);
    EXPECT_EQ(MPI_Allreduce(send.data(), theirs.data(), count, affine.type,
                            affine.op, pair.oracle),
              MPI_SUCCESS);
    EXPECT_EQ(mine, theirs) << "allreduce";

    // Equal totals: blocks of |remote| maps here, |local| there.
    const int block = pair.remote_size();
    const std::vector<long long> vector =
        affine_maps(local, block * pair.size());
    mine.assign(at(2 * block), unset);
    theirs = mine;
    finish(reduce_scatter_block(pair.classic, vector.data(), mine.data(), block,
                                affine.type, affine.op, pair.mode),
           pair.mode);
    EXPECT_EQ(MPI_Reduce_scatter_block(vector.data(), theirs.data(), block,
                                       affine.type, affine.op, pair.oracle),
              MPI_SUCCESS);
    EXPECT_EQ(mine, theirs) << "reduce_scatter_block";
  });
}

}  // namespace
}  // namespace classic
