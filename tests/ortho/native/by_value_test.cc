// ortho's by-value overloads (allgather, alltoall, gather, allreduce
// returning the received data) on fully connected and bipartite
// communicators: the sizes that follow from the structure (the group's
// size, the remote group's size; the root only for gather) and the data,
// worked out from the world ranks of the members.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstddef>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "classic/base/environment.h"
#include "classic/base/error.h"
#include "ortho/collectives.h"
#include "tests/ortho/native/native_testing.h"
#include "tests/testing/errors.h"

namespace ortho_native_test {
namespace {

using classic::ErrorClass;

// Element i of the block that world rank `from` sends to peer `to` (the
// same for every peer where the operation sends one block).
template <typename T>
T value(int from, int to, int i) {
  return static_cast<T>(1000 * from + 10 * to + i);
}

constexpr int kBlockSizes[] = {0, 1, 3};

// The world ranks of the processes whose data this one receives, in the
// rank order that places their blocks.
const std::vector<int>& senders(const Place& place) {
  return place.world_of(place.peer_in_a());
}

int world_rank() { return classic::Environment::world_rank(); }

template <typename T>
void expect_allgather(const Place& place, int k) {
  std::vector<T> send;
  for (int i = 0; i < k; ++i) send.push_back(value<T>(world_rank(), 0, i));
  const std::vector<T> got = ortho::allgather(place.comm, std::span(send));
  std::vector<T> expected;
  for (const int from : senders(place)) {
    for (int i = 0; i < k; ++i) expected.push_back(value<T>(from, 0, i));
  }
  EXPECT_EQ(got.size(), at(place.peers() * k));
  EXPECT_EQ(got, expected);
}

template <typename T>
void expect_alltoall(const Place& place, int k) {
  std::vector<T> send;
  for (int to = 0; to < place.peers(); ++to) {
    for (int i = 0; i < k; ++i) send.push_back(value<T>(world_rank(), to, i));
  }
  const std::vector<T> got =
      ortho::alltoall(place.comm, std::span<const T>(send));
  std::vector<T> expected;
  for (const int from : senders(place)) {
    for (int i = 0; i < k; ++i) {
      expected.push_back(value<T>(from, place.rank, i));
    }
  }
  EXPECT_EQ(got.size(), at(place.peers() * k));
  EXPECT_EQ(got, expected);
}

template <typename T>
void expect_gather(const Place& place, const Root& root, int k) {
  std::vector<T> send;
  for (int i = 0; i < k; ++i) send.push_back(value<T>(world_rank(), 0, i));
  const std::vector<T> got =
      ortho::gather(place.comm, std::span(send), root.arg(place));
  std::vector<T> expected;
  if (root.is(place)) {
    for (const int from : place.world_of(place.bipartite ? !root.in_a : true)) {
      for (int i = 0; i < k; ++i) expected.push_back(value<T>(from, 0, i));
    }
  }
  EXPECT_EQ(got.size(), root.is(place) ? at(root.served(place) * k) : 0u);
  EXPECT_EQ(got, expected);
}

template <typename T>
void expect_allreduce(const Place& place, int k) {
  std::vector<T> send;
  for (int i = 0; i < k; ++i) send.push_back(value<T>(world_rank(), 0, i));
  const std::vector<T> got =
      ortho::allreduce(place.comm, std::span(send), MPI_SUM);
  std::vector<T> expected(at(k), T{});
  for (const int from : senders(place)) {
    for (int i = 0; i < k; ++i) expected[at(i)] += value<T>(from, 0, i);
  }
  EXPECT_EQ(got, expected);
}

// Every root of `place`: each rank of each side.
std::vector<Root> all_roots(const Place& place) {
  std::vector<Root> roots;
  for (const bool in_a : {true, false}) {
    if (!in_a && !place.bipartite) break;
    for (int rank = 0; rank < place.size_of(in_a); ++rank) {
      roots.push_back({in_a, rank});
    }
  }
  return roots;
}

template <typename T>
void expect_all_by_value(const std::vector<Place>& places) {
  for (const Place& place : places) {
    for (const int k : kBlockSizes) {
      SCOPED_TRACE(place.name + ", blocks of " + std::to_string(k));
      expect_allgather<T>(place, k);
      expect_alltoall<T>(place, k);
      expect_allreduce<T>(place, k);
      for (const Root& root : all_roots(place)) {
        SCOPED_TRACE(std::string("root ") + (root.in_a ? "A:" : "B:") +
                     std::to_string(root.rank));
        expect_gather<T>(place, root, k);
      }
    }
  }
}

class ByValue : public NativeTest {};

TEST_F(ByValue, FullyConnected) {
  expect_all_by_value<int>(fully_connected_places());
  expect_all_by_value<double>(fully_connected_places());
}

TEST_F(ByValue, Bipartite) {
  if (classic::Environment::world_size() < 2) {
    GTEST_SKIP() << "a bipartite communicator needs two groups";
  }
  expect_all_by_value<int>(bipartite_places());
  expect_all_by_value<long long>(bipartite_places());
}

// alltoall by value needs a send of whole blocks, one per peer.
TEST_F(ByValue, AlltoallOfNoWholeBlocksIsABufferError) {
  std::vector<Place> places = fully_connected_places();
  for (Place& place : bipartite_places()) places.push_back(std::move(place));
  for (const Place& place : places) {
    SCOPED_TRACE(place.name);
    if (place.peers() < 2) continue;  // every size splits into one block
    const std::vector<int> send(at(place.peers() + 1), 5);
    orthocomm_test::expect_thrown(
        orthocomm_test::thrown_by(
            [&] { (void)ortho::alltoall(place.comm, std::span(send)); }),
        ErrorClass::buffer, {std::to_string(place.peers() + 1)},
        "ortho::alltoall:");
  }
}

}  // namespace
}  // namespace ortho_native_test
