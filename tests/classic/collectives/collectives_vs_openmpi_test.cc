// Differential tests: classic's data-moving collectives against Open MPI's
// MPI_* collective of the same name, with random counts (zero included),
// element types, roots, layouts, typed or raw forms and in-place use, on the
// world and on a split with reversed keys. Both start from identical buffers
// and must leave identical buffers, including what a call must not touch.
// The reductions are in collectives_reductions_vs_openmpi_test.cc.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <span>
#include <utility>
#include <vector>

#include "classic/base/datatype.h"
#include "classic/base/environment.h"
#include "classic/collectives/collectives.h"
#include "classic/comm/comm.h"
#include "tests/classic/testing/collectives_testing.h"

namespace classic {
namespace {

using testing::at;
using testing::chance;
using testing::CommPair;
using testing::draw_form;
using testing::Form;
using testing::in;
using testing::Layout;
using testing::out;
using testing::place;
using testing::Random;
using testing::run_random;
using testing::run_random_typed;
using testing::scattered;
using testing::sentinel;
using testing::uniform;
using testing::values;

TEST(CollectivesVsOpenMpi, Barrier) {
  run_random(1, [](const CommPair& pair, Random&, Random&) {
    barrier(pair.classic);
    EXPECT_EQ(MPI_Barrier(pair.oracle), MPI_SUCCESS);
  });
}

TEST(CollectivesVsOpenMpi, Bcast) {
  run_random_typed(2, []<typename T>(const CommPair& pair, Random& shared,
                                     Random& local) {
    const int count = uniform(shared, 0, 6);
    const int root = uniform(shared, 0, pair.size() - 1);
    const Form form = draw_form(shared);
    const std::vector<T> start = pair.rank() == root
                                     ? values<T>(local, at(count))
                                     : std::vector<T>(at(count), sentinel<T>());
    std::vector<T> mine = start;
    std::vector<T> theirs = start;
    if (form == Form::typed) {
      bcast(pair.classic, out(mine), root);
    } else {
      bcast(pair.classic, mine.data(), count, datatype_of<T>(), root);
    }
    EXPECT_EQ(
        MPI_Bcast(theirs.data(), count, datatype_of<T>(), root, pair.oracle),
        MPI_SUCCESS);
    EXPECT_EQ(mine, theirs);
  });
}

TEST(CollectivesVsOpenMpi, Gather) {
  run_random_typed(
      3, []<typename T>(const CommPair& pair, Random& shared, Random& local) {
        const int n = pair.size();
        const int count = uniform(shared, 0, 5);
        const int root = uniform(shared, 0, n - 1);
        const Form form = draw_form(shared);
        const bool in_place_here = chance(shared, 25) && pair.rank() == root;
        const MPI_Datatype type = datatype_of<T>();
        const std::vector<T> send = values<T>(local, at(count));
        std::vector<T> mine(at(n * count), sentinel<T>());
        if (in_place_here) place(send, mine, root * count);
        std::vector<T> theirs = mine;
        const void* send_data = in_place_here ? MPI_IN_PLACE : send.data();
        if (form == Form::raw) {
          gather(pair.classic, send_data, count, type, mine.data(), count, type,
                 root);
        } else if (in_place_here) {
          gather(pair.classic, in_place, out(mine), root);
        } else {
          // Elsewhere than at the root the receive span is ignored.
          gather(pair.classic, in(send),
                 pair.rank() == root ? out(mine) : std::span<T>(), root);
        }
        EXPECT_EQ(MPI_Gather(send_data, count, type, theirs.data(), count, type,
                             root, pair.oracle),
                  MPI_SUCCESS);
        EXPECT_EQ(mine, theirs);
      });
}

TEST(CollectivesVsOpenMpi, Gatherv) {
  run_random_typed(
      4, []<typename T>(const CommPair& pair, Random& shared, Random& local) {
        const int root = uniform(shared, 0, pair.size() - 1);
        const Layout layout =
            scattered(local, testing::random_counts(shared, pair.size(), 4));
        const Form form = draw_form(shared);
        const bool in_place_here = chance(shared, 25) && pair.rank() == root;
        const MPI_Datatype type = datatype_of<T>();
        const int count = layout.counts[at(pair.rank())];
        const std::vector<T> send = values<T>(local, at(count));
        std::vector<T> mine(at(layout.extent), sentinel<T>());
        if (in_place_here) place(send, mine, layout.displs[at(root)]);
        std::vector<T> theirs = mine;
        const void* send_data = in_place_here ? MPI_IN_PLACE : send.data();
        if (form == Form::raw) {
          gatherv(pair.classic, send_data, count, type, mine.data(),
                  layout.counts, layout.displs, type, root);
        } else if (in_place_here) {
          gatherv(pair.classic, in_place, out(mine), layout.counts,
                  layout.displs, root);
        } else {
          gatherv(pair.classic, in(send), out(mine), layout.counts,
                  layout.displs, root);
        }
        EXPECT_EQ(MPI_Gatherv(send_data, count, type, theirs.data(),
                              layout.counts.data(), layout.displs.data(), type,
                              root, pair.oracle),
                  MPI_SUCCESS);
        EXPECT_EQ(mine, theirs);
      });
}

TEST(CollectivesVsOpenMpi, Scatter) {
  run_random_typed(
      5, []<typename T>(const CommPair& pair, Random& shared, Random& local) {
        const int n = pair.size();
        const int count = uniform(shared, 0, 5);
        const int root = uniform(shared, 0, n - 1);
        const Form form = draw_form(shared);
        const bool in_place_here = chance(shared, 25) && pair.rank() == root;
        const MPI_Datatype type = datatype_of<T>();
        const std::vector<T> send = pair.rank() == root
                                        ? values<T>(local, at(n * count))
                                        : std::vector<T>();
        std::vector<T> mine(at(count), sentinel<T>());
        std::vector<T> theirs = mine;
        void* recv_data = in_place_here ? MPI_IN_PLACE : mine.data();
        if (form == Form::raw) {
          scatter(pair.classic, send.data(), count, type, recv_data, count,
                  type, root);
        } else if (in_place_here) {
          scatter(pair.classic, in(send), in_place, root);
        } else {
          scatter(pair.classic, in(send), out(mine), root);
        }
        EXPECT_EQ(MPI_Scatter(send.data(), count, type,
                              in_place_here ? MPI_IN_PLACE : theirs.data(),
                              count, type, root, pair.oracle),
                  MPI_SUCCESS);
        EXPECT_EQ(mine, theirs);
      });
}

TEST(CollectivesVsOpenMpi, Scatterv) {
  run_random_typed(
      6, []<typename T>(const CommPair& pair, Random& shared, Random& local) {
        const int root = uniform(shared, 0, pair.size() - 1);
        const Layout layout =
            scattered(local, testing::random_counts(shared, pair.size(), 4));
        const Form form = draw_form(shared);
        const bool in_place_here = chance(shared, 25) && pair.rank() == root;
        const MPI_Datatype type = datatype_of<T>();
        const int count = layout.counts[at(pair.rank())];
        const std::vector<T> send = pair.rank() == root
                                        ? values<T>(local, at(layout.extent))
                                        : std::vector<T>();
        std::vector<T> mine(at(count), sentinel<T>());
        std::vector<T> theirs = mine;
        void* recv_data = in_place_here ? MPI_IN_PLACE : mine.data();
        if (form == Form::raw) {
          scatterv(pair.classic, send.data(), layout.counts, layout.displs,
                   type, recv_data, count, type, root);
        } else if (in_place_here) {
          scatterv(pair.classic, in(send), layout.counts, layout.displs,
                   in_place, root);
        } else {
          scatterv(pair.classic, in(send), layout.counts, layout.displs,
                   out(mine), root);
        }
        EXPECT_EQ(MPI_Scatterv(send.data(), layout.counts.data(),
                               layout.displs.data(), type,
                               in_place_here ? MPI_IN_PLACE : theirs.data(),
                               count, type, root, pair.oracle),
                  MPI_SUCCESS);
        EXPECT_EQ(mine, theirs);
      });
}

TEST(CollectivesVsOpenMpi, Allgather) {
  run_random_typed(7, []<typename T>(const CommPair& pair, Random& shared,
                                     Random& local) {
    const int count = uniform(shared, 0, 5);
    const Form form = draw_form(shared);
    const bool in_place_all = chance(shared, 25);
    const MPI_Datatype type = datatype_of<T>();
    const std::vector<T> send = values<T>(local, at(count));
    std::vector<T> mine(at(pair.size() * count), sentinel<T>());
    if (in_place_all) place(send, mine, pair.rank() * count);
    std::vector<T> theirs = mine;
    const void* send_data = in_place_all ? MPI_IN_PLACE : send.data();
    if (form == Form::raw) {
      allgather(pair.classic, send_data, count, type, mine.data(), count, type);
    } else if (in_place_all) {
      allgather(pair.classic, in_place, out(mine));
    } else {
      allgather(pair.classic, in(send), out(mine));
    }
    EXPECT_EQ(MPI_Allgather(send_data, count, type, theirs.data(), count, type,
                            pair.oracle),
              MPI_SUCCESS);
    EXPECT_EQ(mine, theirs);
  });
}

TEST(CollectivesVsOpenMpi, Allgatherv) {
  run_random_typed(
      8, []<typename T>(const CommPair& pair, Random& shared, Random& local) {
        const Layout layout =
            scattered(local, testing::random_counts(shared, pair.size(), 4));
        const Form form = draw_form(shared);
        const bool in_place_all = chance(shared, 25);
        const MPI_Datatype type = datatype_of<T>();
        const int count = layout.counts[at(pair.rank())];
        const std::vector<T> send = values<T>(local, at(count));
        std::vector<T> mine(at(layout.extent), sentinel<T>());
        if (in_place_all) place(send, mine, layout.displs[at(pair.rank())]);
        std::vector<T> theirs = mine;
        const void* send_data = in_place_all ? MPI_IN_PLACE : send.data();
        if (form == Form::raw) {
          allgatherv(pair.classic, send_data, count, type, mine.data(),
                     layout.counts, layout.displs, type);
        } else if (in_place_all) {
          allgatherv(pair.classic, in_place, out(mine), layout.counts,
                     layout.displs);
        } else {
          allgatherv(pair.classic, in(send), out(mine), layout.counts,
                     layout.displs);
        }
        EXPECT_EQ(MPI_Allgatherv(send_data, count, type, theirs.data(),
                                 layout.counts.data(), layout.displs.data(),
                                 type, pair.oracle),
                  MPI_SUCCESS);
        EXPECT_EQ(mine, theirs);
      });
}

TEST(CollectivesVsOpenMpi, Alltoall) {
  run_random_typed(9, []<typename T>(const CommPair& pair, Random& shared,
                                     Random& local) {
    const int total = pair.size() * uniform(shared, 0, 4);
    const int count = total / pair.size();
    const Form form = draw_form(shared);
    const bool in_place_all = chance(shared, 25);
    const MPI_Datatype type = datatype_of<T>();
    const std::vector<T> send = values<T>(local, at(total));
    std::vector<T> mine =
        in_place_all ? send : std::vector<T>(at(total), sentinel<T>());
    std::vector<T> theirs = mine;
    const void* send_data = in_place_all ? MPI_IN_PLACE : send.data();
    if (form == Form::raw) {
      alltoall(pair.classic, send_data, count, type, mine.data(), count, type);
    } else if (in_place_all) {
      alltoall(pair.classic, in_place, out(mine));
    } else {
      alltoall(pair.classic, in(send), out(mine));
    }
    EXPECT_EQ(MPI_Alltoall(send_data, count, type, theirs.data(), count, type,
                           pair.oracle),
              MPI_SUCCESS);
    EXPECT_EQ(mine, theirs);
  });
}

// counts[i][j]: elements from i to j, the same on every process; symmetric
// for in-place calls (where a block is sent and replaced).
std::vector<std::vector<int>> count_matrix(Random& shared, int n,
                                           bool symmetric) {
  std::vector<std::vector<int>> counts;
  for (int i = 0; i < n; ++i) {
    counts.push_back(testing::random_counts(shared, n, 3));
  }
  if (symmetric) {
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < i; ++j) counts[at(i)][at(j)] = counts[at(j)][at(i)];
    }
  }
  return counts;
}

std::vector<int> column(const std::vector<std::vector<int>>& matrix, int j) {
  std::vector<int> result;
  for (const auto& row : matrix) result.push_back(row[at(j)]);
  return result;
}

TEST(CollectivesVsOpenMpi, Alltoallv) {
  run_random_typed(10, []<typename T>(const CommPair& pair, Random& shared,
                                      Random& local) {
    const Form form = draw_form(shared);
    const bool in_place_all = chance(shared, 25);
    const auto counts = count_matrix(shared, pair.size(), in_place_all);
    const Layout sends = scattered(local, counts[at(pair.rank())]);
    const Layout recvs = scattered(local, column(counts, pair.rank()));
    const MPI_Datatype type = datatype_of<T>();
    const std::vector<T> send = values<T>(local, at(sends.extent));
    std::vector<T> mine = in_place_all
                              ? values<T>(local, at(recvs.extent))
                              : std::vector<T>(at(recvs.extent), sentinel<T>());
    std::vector<T> theirs = mine;
    const void* send_data = in_place_all ? MPI_IN_PLACE : send.data();
    if (form == Form::raw) {
      alltoallv(pair.classic, send_data, sends.counts, sends.displs, type,
                mine.data(), recvs.counts, recvs.displs, type);
    } else if (in_place_all) {
      alltoallv(pair.classic, in_place, out(mine), recvs.counts, recvs.displs);
    } else {
      alltoallv(pair.classic, in(send), sends.counts, sends.displs, out(mine),
                recvs.counts, recvs.displs);
    }
    EXPECT_EQ(MPI_Alltoallv(send_data, sends.counts.data(), sends.displs.data(),
                            type, theirs.data(), recvs.counts.data(),
                            recvs.displs.data(), type, pair.oracle),
              MPI_SUCCESS);
    EXPECT_EQ(mine, theirs);
  });
}

// alltoallw on int buffers where each block travels either as ints or as
// pairs of ints (a derived datatype), chosen per block on each side, with
// byte displacements.
TEST(CollectivesVsOpenMpi, Alltoallw) {
  MPI_Datatype int_pair = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(2, MPI_INT, &int_pair);
  MPI_Type_commit(&int_pair);
  // A block of `elements` ints as (count, datatype).
  auto shape = [&](int elements, bool as_pairs) {
    return as_pairs && elements % 2 == 0
               ? std::pair<int, MPI_Datatype>{elements / 2, int_pair}
               : std::pair<int, MPI_Datatype>{elements, MPI_INT};
  };
  run_random(11, [&](const CommPair& pair, Random& shared, Random& local) {
    const int n = pair.size();
    const bool in_place_all = chance(shared, 25);
    auto counts = count_matrix(shared, n, in_place_all);
    for (auto& row : counts) {
      for (int& count : row) count *= 2;  // room for pairs
    }
    const Layout sends = scattered(local, counts[at(pair.rank())]);
    const Layout recvs = scattered(local, column(counts, pair.rank()));
    std::vector<int> send_counts, send_bytes, recv_counts, recv_bytes;
    std::vector<MPI_Datatype> send_types, recv_types;
    for (int j = 0; j < n; ++j) {
      const auto [send_count, send_type] =
          shape(sends.counts[at(j)], chance(local, 50));
      send_counts.push_back(send_count);
      send_types.push_back(send_type);
      send_bytes.push_back(sends.displs[at(j)] * static_cast<int>(sizeof(int)));
      const auto [recv_count, recv_type] =
          shape(recvs.counts[at(j)], chance(local, 50));
      recv_counts.push_back(recv_count);
      recv_types.push_back(recv_type);
      recv_bytes.push_back(recvs.displs[at(j)] * static_cast<int>(sizeof(int)));
    }
    const std::vector<int> send = values<int>(local, at(sends.extent));
    std::vector<int> mine = in_place_all
                                ? values<int>(local, at(recvs.extent))
                                : std::vector<int>(at(recvs.extent), 99);
    std::vector<int> theirs = mine;
    const void* send_data = in_place_all ? MPI_IN_PLACE : send.data();
    alltoallw(pair.classic, send_data, send_counts, send_bytes, send_types,
              mine.data(), recv_counts, recv_bytes, recv_types);
    if (n == 1) {
      // Open MPI 4.1's MPI_Alltoallw on one process (coll/self) scales the
      // byte displacements by the extent and overruns the buffers; the
      // result it should have is the block copied to itself.
      if (!in_place_all) {
        std::copy_n(send.begin() + sends.displs[0], sends.counts[0],
                    theirs.begin() + recvs.displs[0]);
      }
    } else {
      EXPECT_EQ(
          MPI_Alltoallw(send_data, send_counts.data(), send_bytes.data(),
                        send_types.data(), theirs.data(), recv_counts.data(),
                        recv_bytes.data(), recv_types.data(), pair.oracle),
          MPI_SUCCESS);
    }
    EXPECT_EQ(mine, theirs);
  });
  MPI_Type_free(&int_pair);
}

}  // namespace
}  // namespace classic
