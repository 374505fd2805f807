// Shared by the inter-communicator tests: the world split into two sides,
// the members of each side computed from the split's rule (never read back
// from classic), and the inter-communicator between them.
#ifndef ORTHOCOMM_TESTS_CLASSIC_TESTING_INTERCOMM_TESTING_H_
#define ORTHOCOMM_TESTS_CLASSIC_TESTING_INTERCOMM_TESTING_H_

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <vector>

#include "classic/comm/comm.h"
#include "classic/intercomm/intercomm.h"
#include "tests/classic/testing/testing.h"

namespace classic::intercomm_testing {

using testing::world_rank;
using testing::world_size;

// The world split in two: A = the world ranks with in_a(rank), B the rest,
// each side in local rank order (ascending key, ties by world rank).
struct Sides {
  std::vector<int> a;
  std::vector<int> b;
  bool in_a = false;

  const std::vector<int>& mine() const { return in_a ? a : b; }
  const std::vector<int>& theirs() const { return in_a ? b : a; }
  // The local rank of world rank w in its side.
  int local_rank(int w) const {
    const std::vector<int>& side =
        std::find(a.begin(), a.end(), w) != a.end() ? a : b;
    return static_cast<int>(std::find(side.begin(), side.end(), w) -
                            side.begin());
  }
};

inline Sides sides_of(const std::function<bool(int)>& in_a,
                      const std::function<int(int)>& key) {
  Sides sides;
  for (int w = 0; w < world_size(); ++w)
    (in_a(w) ? sides.a : sides.b).push_back(w);
  auto by_key = [&](int x, int y) {
    return key(x) != key(y) ? key(x) < key(y) : x < y;
  };
  std::sort(sides.a.begin(), sides.a.end(), by_key);
  std::sort(sides.b.begin(), sides.b.end(), by_key);
  sides.in_a = in_a(world_rank());
  return sides;
}

// The two sides' intra-communicators (classic split) and the
// inter-communicator between them; leaders are local ranks, the peer
// communicator is the world.
struct Built {
  Sides sides;
  Comm local;
  Comm inter;
};

inline Built build(const Sides& sides, int leader_a = 0, int leader_b = 0,
                   int tag = 17) {
  Built built{sides, Comm(), Comm()};
  const std::vector<int>& a = sides.a;
  const std::vector<int>& b = sides.b;
  const int w = world_rank();
  const int key =
      static_cast<int>(std::find(sides.mine().begin(), sides.mine().end(), w) -
                       sides.mine().begin());
  built.local = Comm::world().split(sides.in_a ? 0 : 1, key);
  const int local_leader = sides.in_a ? leader_a : leader_b;
  const int remote_leader = sides.in_a ? b[static_cast<std::size_t>(leader_b)]
                                       : a[static_cast<std::size_t>(leader_a)];
  built.inter = intercomm_create(built.local, local_leader, Comm::world(),
                                 remote_leader, tag);
  return built;
}

// The first half of the world against the second.
inline Sides halves() {
  const int h = world_size() / 2;
  return sides_of([h](int w) { return w < h; }, [](int w) { return w; });
}

// Even world ranks against odd ones, each side in reverse order.
inline Sides interleaved_reversed() {
  return sides_of([](int w) { return w % 2 == 0; }, [](int w) { return -w; });
}

// Keeps the processes in step between tests: a test running ahead must not
// send into a receive of the previous one.
class IntercommTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (world_size() < 2)
      GTEST_SKIP() << "an inter-communicator needs two groups";
  }
  void TearDown() override { MPI_Barrier(MPI_COMM_WORLD); }
};

}  // namespace classic::intercomm_testing

#endif  // ORTHOCOMM_TESTS_CLASSIC_TESTING_INTERCOMM_TESTING_H_
