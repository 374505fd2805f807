// The motivating examples of MPI-1 section 5.5 written against
// classic: Current Practice #1-#3, Example #4 and Library Examples #1 and
// #2, with classic point-to-point and collectives on classic communicators.
// Expected values follow from the examples' own data, never from classic.
#include <gtest/gtest.h>
#include <mpi.h>

#include <array>
#include <span>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/environment.h"
#include "classic/collectives/collectives.h"
#include "classic/comm/comm.h"
#include "classic/groups/group.h"
#include "classic/p2p/point_to_point.h"
#include "classic/p2p/request.h"

namespace classic {
namespace {

int world_size() { return Environment::world_size(); }

// Current Practice #1a: rank and size of the "all" communicator.
TEST(CommSeedExampleTest, CurrentPractice1aRankAndSize) {
  const Comm world = Comm::world();
  const int me = world.rank();
  const int size = world.size();
  EXPECT_EQ(size, world_size());
  EXPECT_EQ(me, Environment::world_rank());
}

// Current Practice #1b: even processes send to the next odd one.
TEST(CommSeedExampleTest, CurrentPractice1bEvenSendsToOdd) {
  const Comm world = Comm::world();
  const int me = world.rank();
  const int size = world.size();
  constexpr int kSomeTag = 0;
  if (me % 2 == 0) {
    if (me + 1 < size) {  // send unless highest-numbered process
      const int data = 10 * me;
      send(world, std::span(&data, 1), me + 1, kSomeTag);
    }
  } else {
    int data = -1;
    const Status status = recv(world, std::span(&data, 1), me - 1, kSomeTag);
    EXPECT_EQ(data, 10 * (me - 1));
    EXPECT_EQ(status.source, me - 1);
  }
}

// Current Practice #2: process 0 creates the data, a broadcast hands it out.
TEST(CommSeedExampleTest, CurrentPractice2Broadcast) {
  const Comm world = Comm::world();
  std::vector<char> data(64, 0);
  if (world.rank() == 0) {  // get input, create buffer 'data'
    for (std::size_t i = 0; i < data.size(); ++i) {
      data[i] = static_cast<char>('a' + i % 26);
    }
  }
  bcast(world, std::span(data), 0);
  for (std::size_t i = 0; i < data.size(); ++i) {
    EXPECT_EQ(data[i], static_cast<char>('a' + i % 26)) << i;
  }
}

// (Approximate) Current Practice #3: all but process 0 form commslave and
// reduce there (to its rank 1) while process 0 falls through to a reduce on
// the world; the contexts keep the two reductions apart.
TEST(CommSeedExampleTest, CurrentPractice3SlaveCommunicator) {
  if (world_size() < 3) GTEST_SKIP() << "commslave needs a rank 1";
  const Comm world = Comm::world();
  const int me = world.rank();
  const Group grpren = world.group().excl(std::vector{0});
  Comm commslave = world.create(grpren);
  EXPECT_EQ(commslave.is_null(), me == 0);
  if (me != 0) {
    const int send_buf = me;
    int recv_buf = -1;
    reduce(commslave, std::span(&send_buf, 1), std::span(&recv_buf, 1), MPI_SUM,
           1);
    const int n = world_size();
    if (commslave.rank() == 1) {
      EXPECT_EQ(recv_buf, n * (n - 1) / 2);
    }
  }
  // Zero falls through immediately to this reduce, the others do later.
  const int send_buf2 = 1;
  int recv_buf2 = -1;
  reduce(world, std::span(&send_buf2, 1), std::span(&recv_buf2, 1), MPI_SUM, 0);
  if (me == 0) {
    EXPECT_EQ(recv_buf2, world_size());
  }
  if (!commslave.is_null()) commslave.free();
}

// Example #4: point-to-point and collectives on one communicator are safe
// from each other. Members are world ranks {2, 4, 6, 8}: nine processes.
TEST(CommSeedExampleTest, Example4PointToPointAndCollectivesAreSafe) {
  if (world_size() < 9) GTEST_SKIP() << "the example needs world rank 8";
  constexpr int kTagArbitrary = 12345;
  constexpr int kSomeCount = 50;
  const Comm world = Comm::world();
  const Group subgroup = world.group().incl(std::vector{2, 4, 6, 8});
  const int me = subgroup.rank();
  Comm the_comm = world.create(subgroup);
  EXPECT_EQ(the_comm.is_null(), me == undefined);
  if (me == undefined) return;
  double buff1 = -1;
  const double buff2 = 100.0 + me;
  std::array<Request, 2> request = {
      irecv(the_comm, std::span(&buff1, 1), any_source, kTagArbitrary),
      isend(the_comm, std::span(&buff2, 1), (me + 1) % 4, kTagArbitrary)};
  for (int i = 0; i < kSomeCount; ++i) {
    const int value = i * (me + 1);
    int sum = -1;
    reduce(the_comm, std::span(&value, 1), std::span(&sum, 1), MPI_SUM, 0);
    if (me == 0) {
      EXPECT_EQ(sum, i * (1 + 2 + 3 + 4));
    }
  }
  const std::vector<Status> status = wait_all(request);
  EXPECT_EQ(buff1, 100.0 + (me + 3) % 4);
  EXPECT_EQ(status[0].source, (me + 3) % 4);
  the_comm.free();
}

// Library Example #1: two instances of a library, each on its own dup of
// the world, exchange messages with the same tag and peers while the main
// program reduces on the world; each instance receives its own data.
struct UserLib {
  Comm comm;
  int send_value = 0;
  int received = -1;
  Request irecv_handle;
  Request isend_handle;
};

constexpr int kUserLibTag = 5;

void init_user_lib(const Comm& comm, int id, UserLib& lib) {
  lib.comm = comm.dup();
  lib.send_value = 1000 * id + comm.rank();
}

void user_start_op(UserLib& lib) {
  const int n = lib.comm.size();
  const int me = lib.comm.rank();
  lib.irecv_handle =
      irecv(lib.comm, std::span(&lib.received, 1), any_source, kUserLibTag);
  lib.isend_handle =
      isend(lib.comm, std::span(&lib.send_value, 1), (me + 1) % n, kUserLibTag);
}

void user_end_op(UserLib& lib) {
  wait(lib.isend_handle);
  wait(lib.irecv_handle);
}

void uninit_user_lib(UserLib& lib) { lib.comm.free(); }

TEST(CommSeedExampleTest, LibraryExample1InstancesDoNotMix) {
  const Comm world = Comm::world();
  const std::size_t before = Comm::live_count();
  UserLib libh_a;
  UserLib libh_b;
  init_user_lib(world, 1, libh_a);
  init_user_lib(world, 2, libh_b);
  // Started in the reverse order, so that on a shared context b's receive
  // would be matched by a's message.
  user_start_op(libh_b);
  user_start_op(libh_a);
  for (int round = 0; round < 3; ++round) {  // "while (!done)"
    const int work = round + world.rank();
    int total = -1;
    reduce(world, std::span(&work, 1), std::span(&total, 1), MPI_SUM, 0);
    const int n = world.size();
    if (world.rank() == 0) {
      EXPECT_EQ(total, n * round + n * (n - 1) / 2);
    }
  }
  user_end_op(libh_a);
  user_end_op(libh_b);
  const int left = (world.rank() + world.size() - 1) % world.size();
  EXPECT_EQ(libh_a.received, 1000 + left);
  EXPECT_EQ(libh_b.received, 2000 + left);
  uninit_user_lib(libh_a);
  uninit_user_lib(libh_b);
  EXPECT_EQ(Comm::live_count(), before);
}

// Library Example #2 (variant 2C: list_b = {0, 2, 3} and a barrier at the
// end of lib_call): rank 0 of comm collects one message from every other
// rank with wildcards; the barrier keeps a second call's messages out of
// the first.
std::vector<int> lib_call(const Comm& comm, int call) {
  constexpr int kArbitraryTag = 9;
  std::vector<int> calls_seen;
  if (comm.rank() == 0) {
    for (int i = 1; i < comm.size(); ++i) {
      int value = -1;
      recv(comm, std::span(&value, 1), any_source, any_tag);
      calls_seen.push_back(value);
    }
  } else {
    send(comm, std::span(&call, 1), 0, kArbitraryTag);
  }
  barrier(comm);  // include for safety from back-masking (example 2C)
  return calls_seen;
}

TEST(CommSeedExampleTest, LibraryExample2OverlappingGroups) {
  if (world_size() < 4) GTEST_SKIP() << "list_b needs world rank 3";
  const Comm world = Comm::world();
  const Group group_world = world.group();
  const Group group_a = group_world.incl(std::vector{0, 1});
  const Group group_b = group_world.incl(std::vector{0, 2, 3});
  Comm comm_a = world.create(group_a);
  Comm comm_b = world.create(group_b);
  EXPECT_EQ(comm_a.is_null(), group_a.rank() == undefined);
  EXPECT_EQ(comm_b.is_null(), group_b.rank() == undefined);
  if (!comm_a.is_null()) {
    const std::vector<int> seen = lib_call(comm_a, 1);
    if (comm_a.rank() == 0) {
      EXPECT_EQ(seen, std::vector<int>{1});
    }
  }
  if (!comm_b.is_null()) {
    const std::vector<int> first = lib_call(comm_b, 1);
    const std::vector<int> second = lib_call(comm_b, 2);
    if (comm_b.rank() == 0) {
      EXPECT_EQ(first, (std::vector<int>{1, 1}));
      EXPECT_EQ(second, (std::vector<int>{2, 2}));
    }
  }
  if (!comm_a.is_null()) comm_a.free();
  if (!comm_b.is_null()) comm_b.free();
}

}  // namespace
}  // namespace classic
