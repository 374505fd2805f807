// Differential tests: classic's reductions against Open MPI's MPI_*
// collective of the same name, with random counts (zero included), element
// types, the predefined ops MPI defines on them (MAXLOC and MINLOC on
// MPI_DOUBLE_INT), roots, typed or raw forms and in-place use, on the world
// and on a split with reversed keys. Operands are small integers, so every
// result is exact and the buffers must come out identical.
#include <gtest/gtest.h>
#include <mpi.h>

#include <span>
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
using testing::out;
using testing::Random;
using testing::run_random;
using testing::sentinel;
using testing::uniform;

// Runs check.template operator()<T>(pair, op, shared, local) for a random
// element type T and an op that MPI defines on it.
template <typename Check>
void run_random_reduction(unsigned salt, Check&& check) {
  run_random(salt, [&](const CommPair& pair, Random& shared, Random& local) {
    testing::with_reduction(shared, [&]<typename T>(MPI_Op op) {
      check.template operator()<T>(pair, op, shared, local);
    });
  });
}

template <typename T>
std::vector<T> operands(Random& local, MPI_Op op, int count) {
  std::vector<T> result(at(count));
  for (T& value : result) value = testing::operand<T>(local, op);
  return result;
}

TEST(CollectivesVsOpenMpi, Reduce) {
  run_random_reduction(12, []<typename T>(const CommPair& pair, MPI_Op op,
                                          Random& shared, Random& local) {
    const int count = uniform(shared, 0, 6);
    const int root = uniform(shared, 0, pair.size() - 1);
    const Form form = draw_form(shared);
    const bool in_place_here = chance(shared, 25) && pair.rank() == root;
    const MPI_Datatype type = datatype_of<T>();
    const std::vector<T> send = operands<T>(local, op, count);
    std::vector<T> mine =
        in_place_here ? send : std::vector<T>(at(count), sentinel<T>());
    std::vector<T> theirs = mine;
    const void* send_data = in_place_here ? MPI_IN_PLACE : send.data();
    if (form == Form::raw) {
      reduce(pair.classic, send_data, mine.data(), count, type, op, root);
    } else if (in_place_here) {
      reduce(pair.classic, in_place, out(mine), op, root);
    } else {
      reduce(pair.classic, in(send),
             pair.rank() == root ? out(mine) : std::span<T>(), op, root);
    }
    EXPECT_EQ(MPI_Reduce(send_data, theirs.data(), count, type, op, root,
                         pair.oracle),
              MPI_SUCCESS);
    EXPECT_EQ(mine, theirs);
  });
}

// allreduce, scan and exscan: the same arguments.
enum class Elementwise { allreduce, scan, exscan };

template <typename T>
void check_elementwise(Elementwise which, const CommPair& pair, MPI_Op op,
                       Random& shared, Random& local) {
  const int count = uniform(shared, 0, 6);
  const Form form = draw_form(shared);
  const bool in_place_all = chance(shared, 25);
  const MPI_Datatype type = datatype_of<T>();
  const std::vector<T> send = operands<T>(local, op, count);
  std::vector<T> mine =
      in_place_all ? send : std::vector<T>(at(count), sentinel<T>());
  std::vector<T> theirs = mine;
  const void* send_data = in_place_all ? MPI_IN_PLACE : send.data();
  int code = MPI_SUCCESS;
  switch (which) {
    case Elementwise::allreduce:
      if (form == Form::raw) {
        allreduce(pair.classic, send_data, mine.data(), count, type, op);
      } else if (in_place_all) {
        allreduce(pair.classic, in_place, out(mine), op);
      } else {
        allreduce(pair.classic, in(send), out(mine), op);
      }
      code =
          MPI_Allreduce(send_data, theirs.data(), count, type, op, pair.oracle);
      break;
    case Elementwise::scan:
      if (form == Form::raw) {
        scan(pair.classic, send_data, mine.data(), count, type, op);
      } else if (in_place_all) {
        scan(pair.classic, in_place, out(mine), op);
      } else {
        scan(pair.classic, in(send), out(mine), op);
      }
      code = MPI_Scan(send_data, theirs.data(), count, type, op, pair.oracle);
      break;
    case Elementwise::exscan:
      if (form == Form::raw) {
        exscan(pair.classic, send_data, mine.data(), count, type, op);
      } else if (in_place_all) {
        exscan(pair.classic, in_place, out(mine), op);
      } else {
        exscan(pair.classic, in(send), out(mine), op);
      }
      code = MPI_Exscan(send_data, theirs.data(), count, type, op, pair.oracle);
      break;
  }
  EXPECT_EQ(code, MPI_SUCCESS);
  EXPECT_EQ(mine, theirs);
}

TEST(CollectivesVsOpenMpi, Allreduce) {
  run_random_reduction(13, []<typename T>(const CommPair& pair, MPI_Op op,
                                          Random& shared, Random& local) {
    check_elementwise<T>(Elementwise::allreduce, pair, op, shared, local);
  });
}

TEST(CollectivesVsOpenMpi, Scan) {
  run_random_reduction(14, []<typename T>(const CommPair& pair, MPI_Op op,
                                          Random& shared, Random& local) {
    check_elementwise<T>(Elementwise::scan, pair, op, shared, local);
  });
}

TEST(CollectivesVsOpenMpi, Exscan) {
  run_random_reduction(15, []<typename T>(const CommPair& pair, MPI_Op op,
                                          Random& shared, Random& local) {
    check_elementwise<T>(Elementwise::exscan, pair, op, shared, local);
  });
}

TEST(CollectivesVsOpenMpi, ReduceScatter) {
  run_random_reduction(16, []<typename T>(const CommPair& pair, MPI_Op op,
                                          Random& shared, Random& local) {
    const std::vector<int> counts =
        testing::random_counts(shared, pair.size(), 3);
    const Form form = draw_form(shared);
    const bool in_place_all = chance(shared, 25);
    const MPI_Datatype type = datatype_of<T>();
    int total = 0;
    for (const int count : counts) total += count;
    const std::vector<T> send = operands<T>(local, op, total);
    std::vector<T> mine =
        in_place_all
            ? send
            : std::vector<T>(at(counts[at(pair.rank())]), sentinel<T>());
    std::vector<T> theirs = mine;
    const void* send_data = in_place_all ? MPI_IN_PLACE : send.data();
    if (form == Form::raw) {
      reduce_scatter(pair.classic, send_data, mine.data(), counts, type, op);
    } else if (in_place_all) {
      reduce_scatter(pair.classic, in_place, out(mine), counts, op);
    } else {
      reduce_scatter(pair.classic, in(send), out(mine), counts, op);
    }
    EXPECT_EQ(MPI_Reduce_scatter(send_data, theirs.data(), counts.data(), type,
                                 op, pair.oracle),
              MPI_SUCCESS);
    EXPECT_EQ(mine, theirs);
  });
}

TEST(CollectivesVsOpenMpi, ReduceScatterBlock) {
  run_random_reduction(17, []<typename T>(const CommPair& pair, MPI_Op op,
                                          Random& shared, Random& local) {
    const int count = uniform(shared, 0, 4);
    const Form form = draw_form(shared);
    const bool in_place_all = chance(shared, 25);
    const MPI_Datatype type = datatype_of<T>();
    const std::vector<T> send = operands<T>(local, op, pair.size() * count);
    std::vector<T> mine =
        in_place_all ? send : std::vector<T>(at(count), sentinel<T>());
    std::vector<T> theirs = mine;
    const void* send_data = in_place_all ? MPI_IN_PLACE : send.data();
    if (form == Form::raw) {
      reduce_scatter_block(pair.classic, send_data, mine.data(), count, type,
                           op);
    } else if (in_place_all) {
      reduce_scatter_block(pair.classic, in_place, out(mine), op);
    } else {
      reduce_scatter_block(pair.classic, in(send), out(mine), op);
    }
    EXPECT_EQ(MPI_Reduce_scatter_block(send_data, theirs.data(), count, type,
                                       op, pair.oracle),
              MPI_SUCCESS);
    EXPECT_EQ(mine, theirs);
  });
}

// MPI_MAXLOC and MPI_MINLOC on (double, int) pairs, through the raw forms;
// values repeat across processes so the lowest-index rule matters.
struct DoubleInt {
  double value;
  int index;
  bool operator==(const DoubleInt& other) const {
    return value == other.value && index == other.index;
  }
};

TEST(CollectivesVsOpenMpi, MaxlocMinloc) {
  run_random(18, [](const CommPair& pair, Random& shared, Random& local) {
    const int count = uniform(shared, 0, 5);
    const MPI_Op op = chance(shared, 50) ? MPI_MAXLOC : MPI_MINLOC;
    const int which = uniform(shared, 0, 2);
    const int root = uniform(shared, 0, pair.size() - 1);
    std::vector<DoubleInt> send(at(count));
    for (DoubleInt& element : send) {
      element = {static_cast<double>(uniform(local, 0, 3)),
                 uniform(local, 0, 9)};
    }
    std::vector<DoubleInt> mine(at(count), DoubleInt{-1.0, -1});
    std::vector<DoubleInt> theirs = mine;
    int code = MPI_SUCCESS;
    if (which == 0) {
      reduce(pair.classic, send.data(), mine.data(), count, MPI_DOUBLE_INT, op,
             root);
      code = MPI_Reduce(send.data(), theirs.data(), count, MPI_DOUBLE_INT, op,
                        root, pair.oracle);
    } else if (which == 1) {
      allreduce(pair.classic, send.data(), mine.data(), count, MPI_DOUBLE_INT,
                op);
      code = MPI_Allreduce(send.data(), theirs.data(), count, MPI_DOUBLE_INT,
                           op, pair.oracle);
    } else {
      scan(pair.classic, send.data(), mine.data(), count, MPI_DOUBLE_INT, op);
      code = MPI_Scan(send.data(), theirs.data(), count, MPI_DOUBLE_INT, op,
                      pair.oracle);
    }
    EXPECT_EQ(code, MPI_SUCCESS);
    EXPECT_TRUE(mine == theirs) << "operation " << which;
  });
}

}  // namespace
}  // namespace classic
