// The inter-communication examples of MPI-1 section 5.6.3 (the
// same code in seeds 002 and 004) written against classic: the three-group
// "pipeline" (Example 1), the three-group "ring" (Example 2), each with real
// traffic whose results are checked, and the name service of Example 3 with
// a server that answers requests until told to stop and clients that pair
// up by tag.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <numeric>
#include <optional>
#include <span>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/environment.h"
#include "classic/collectives/collectives.h"
#include "classic/comm/comm.h"
#include "classic/comm/keyval.h"
#include "classic/groups/group.h"
#include "classic/intercomm/intercomm.h"
#include "classic/p2p/point_to_point.h"

namespace classic {
namespace {

int world_size() { return Environment::world_size(); }
int world_rank() { return Environment::world_rank(); }
std::size_t at(int i) { return static_cast<std::size_t>(i); }

// World ranks with rank % 3 == key: the group of membershipKey `key`, in
// the order MPI_Comm_split(MPI_COMM_WORLD, key, rank) gives it.
std::vector<int> group_of_key(int key) {
  std::vector<int> members;
  for (int w = key; w < world_size(); w += 3) members.push_back(w);
  return members;
}

// Each process of `from`'s group sends `value` to remote rank
// (rank % remote size) of `to`; returns what this process received over
// `from_comm` from the processes j of the previous group with
// j % size == rank, as (remote rank, value) sorted by remote rank.
struct Received {
  int source;
  long long value;
};

std::vector<Received> pass_on(const Comm& to_comm, long long value,
                              const Comm& from_comm, int tag) {
  Request sending;
  if (!to_comm.is_null()) {
    sending = isend(to_comm, std::span(&value, 1),
                    to_comm.rank() % to_comm.remote_size(), tag);
  }
  std::vector<Received> received;
  if (!from_comm.is_null()) {
    for (int j = 0; j < from_comm.remote_size(); ++j) {
      if (j % from_comm.size() != from_comm.rank()) continue;
      Received r{-1, 0};
      const Status status = recv(from_comm, std::span(&r.value, 1), j, tag);
      r.source = status.source;
      received.push_back(r);
    }
  }
  if (!to_comm.is_null()) wait(sending);
  return received;
}

class SeedExamples : public ::testing::Test {
 protected:
  void TearDown() override { MPI_Barrier(MPI_COMM_WORLD); }
};

// ---- Example 1: three-group pipeline
// -----------------------------------------

TEST_F(SeedExamples, ThreeGroupPipeline) {
  if (world_size() < 3) GTEST_SKIP() << "needs three groups";
  const int rank = world_rank();
  const int membership_key = rank % 3;
  Comm my_comm = Comm::world().split(membership_key, rank);
  Comm my_first_comm;
  Comm my_second_comm;  // group 1 only
  const Comm world = Comm::world();
  if (membership_key == 0) {
    my_first_comm = intercomm_create(my_comm, 0, world, 1, 1);
  } else if (membership_key == 1) {
    my_first_comm = intercomm_create(my_comm, 0, world, 0, 1);
    my_second_comm = intercomm_create(my_comm, 0, world, 2, 12);
  } else {
    my_first_comm = intercomm_create(my_comm, 0, world, 1, 12);
  }

  // Work: group 0 sends its world ranks to group 1, which adds its own and
  // forwards the sums to group 2.
  const std::vector<int> g0 = group_of_key(0);
  const std::vector<int> g1 = group_of_key(1);
  const std::vector<int> g2 = group_of_key(2);
  if (membership_key == 0) {
    EXPECT_EQ(my_first_comm.remote_group().members(), g1);
    pass_on(my_first_comm, rank, Comm(), 5);
  } else if (membership_key == 1) {
    EXPECT_EQ(my_first_comm.remote_group().members(), g0);
    EXPECT_EQ(my_second_comm.remote_group().members(), g2);
    long long sum = rank;
    for (const Received& r : pass_on(Comm(), 0, my_first_comm, 5)) {
      EXPECT_EQ(r.value, g0[at(r.source)]);
      sum += r.value;
    }
    pass_on(my_second_comm, sum, Comm(), 6);
  } else {
    EXPECT_EQ(my_first_comm.remote_group().members(), g1);
    // What group 1's process j forwards: its rank plus those of group 0's
    // processes i with i % |g1| == j.
    auto forwarded = [&](int j) {
      long long sum = g1[at(j)];
      for (std::size_t i = 0; i < g0.size(); ++i) {
        if (static_cast<int>(i) % static_cast<int>(g1.size()) == j)
          sum += g0[i];
      }
      return sum;
    };
    for (const Received& r : pass_on(Comm(), 0, my_first_comm, 6)) {
      EXPECT_EQ(r.value, forwarded(r.source));
    }
  }

  switch (membership_key) {  // free communicators appropriately
    case 1:
      my_second_comm.free();
      [[fallthrough]];
    case 0:
    case 2:
      my_first_comm.free();
      break;
  }
  EXPECT_TRUE(my_first_comm.is_null());
}

// ---- Example 2: three-group ring
// ----------------------------------------------

TEST_F(SeedExamples, ThreeGroupRing) {
  if (world_size() < 3) GTEST_SKIP() << "needs three groups";
  const int rank = world_rank();
  const int membership_key = rank % 3;
  Comm my_comm = Comm::world().split(membership_key, rank);
  Comm my_first_comm;
  Comm my_second_comm;
  const Comm world = Comm::world();
  if (membership_key == 0) {
    my_first_comm = intercomm_create(my_comm, 0, world, 1, 1);
    my_second_comm = intercomm_create(my_comm, 0, world, 2, 2);
  } else if (membership_key == 1) {
    my_first_comm = intercomm_create(my_comm, 0, world, 0, 1);
    my_second_comm = intercomm_create(my_comm, 0, world, 2, 12);
  } else {
    my_first_comm = intercomm_create(my_comm, 0, world, 0, 2);
    my_second_comm = intercomm_create(my_comm, 0, world, 1, 12);
  }

  // Work: each group passes its world ranks to the next group of the ring
  // (0 -> 1 -> 2 -> 0), and every inter-communicator sums the other side.
  const int next_key = (membership_key + 1) % 3;
  const int previous_key = (membership_key + 2) % 3;
  const Comm& to_next = membership_key == 1 ? my_second_comm : my_first_comm;
  const Comm& from_previous =
      membership_key == 1 ? my_first_comm : my_second_comm;
  EXPECT_EQ(to_next.remote_group().members(), group_of_key(next_key));
  EXPECT_EQ(from_previous.remote_group().members(), group_of_key(previous_key));
  const std::vector<int> previous = group_of_key(previous_key);
  for (const Received& r : pass_on(to_next, rank, from_previous, 7)) {
    EXPECT_EQ(r.value, previous[at(r.source)]);
  }
  for (const Comm* inter : {&my_first_comm, &my_second_comm}) {
    const long long mine = rank;
    long long theirs = -1;
    allreduce(*inter, std::span(&mine, 1), std::span(&theirs, 1), MPI_SUM);
    const std::vector<int> remote = inter->remote_group().members();
    EXPECT_EQ(theirs, std::accumulate(remote.begin(), remote.end(), 0LL));
  }

  my_first_comm.free();
  my_second_comm.free();
  my_comm.free();
}

// ---- Example 3: name service for inter-communication
// -------------------------

constexpr int kInitServerTag = 666;
constexpr int kUndoServerTag = 777;

int server_keyval = keyval_invalid;

// For attribute management of server_comm: the copy callback copies the
// handle.
int handle_copy_fn(const Comm&, int, void*, void* attribute_val_in,
                   void** attribute_val_out, bool* flag) {
  *attribute_val_out = attribute_val_in;
  *flag = true;
  return 0;
}

struct ServerHandles {
  Comm server_comm;
  Comm new_world;  // the new effective world, sans server; null at the server
};

// Init_server: splits peer_comm into the server and everyone else and
// binds them with an inter-communicator; the clients cache their new world
// on it. `handles` are the seed's out-parameters (server_comm, new_world),
// and must stay where they are: the attribute points at new_world.
void init_server(const Comm& peer_comm, int rank_of_server,
                 ServerHandles& handles) {
  const int rank_in_peer_comm = peer_comm.rank();
  const int size = peer_comm.size();
  const int peer_leader = (rank_of_server + 1) % size;  // arbitrary choice
  const int key = 0;
  if (rank_in_peer_comm == rank_of_server) {
    Comm lone_comm = peer_comm.split(1, key);
    handles.server_comm =
        intercomm_create(lone_comm, 0, peer_comm, peer_leader, kInitServerTag);
    lone_comm.free();
    handles.new_world = Comm();
    return;
  }
  handles.new_world = peer_comm.split(0, key);
  const int peer_leader_rank_in_temp_comm = peer_comm.group().translate_ranks(
      std::span(&peer_leader, 1), handles.new_world.group())[0];
  handles.server_comm =
      intercomm_create(handles.new_world, peer_leader_rank_in_temp_comm,
                       peer_comm, rank_of_server, kInitServerTag);
  if (server_keyval == keyval_invalid) {
    server_keyval = keyval_create(handle_copy_fn, nullptr, nullptr);
  }
  // Cache the handle of the intra-communicator on the inter-communicator.
  handles.server_comm.set_attr(server_keyval, &handles.new_world);
}

// Do_server: pairs clients that send the same tag, telling each the
// other's rank in the new world, until a client tells it to stop. Returns
// how many pairs it made.
int do_server(Comm& server_comm) {
  struct Waiting {
    int tag;
    int source;
    int rank_in_new_world;
  };
  std::vector<Waiting> queue;
  int pairs = 0;
  for (;;) {
    int buffer = -1;
    const Status status =
        recv(server_comm, std::span(&buffer, 1), any_source, any_tag);
    const int client_tag = status.tag;
    const int client_source = status.source;
    const int client_rank_in_new_world = buffer;
    if (client_tag == kUndoServerTag) {  // the client that ends the server
      EXPECT_TRUE(queue.empty()) << "clients left unpaired";
      server_comm.free();
      return pairs;
    }
    const auto partner =
        std::find_if(queue.begin(), queue.end(),
                     [&](const Waiting& w) { return w.tag == client_tag; });
    if (partner == queue.end()) {
      queue.push_back({client_tag, client_source, client_rank_in_new_world});
      continue;
    }
    // A matched pair with the same tag: tell them about each other.
    int reply = partner->rank_in_new_world;
    send(server_comm, std::span(&reply, 1), client_source, client_tag);
    reply = client_rank_in_new_world;
    send(server_comm, std::span(&reply, 1), partner->source, client_tag);
    queue.erase(partner);
    ++pairs;
  }
}

// Undo_server: the client that ends the server.
void undo_server(Comm& server_comm) {
  const int buffer = 0;
  send(server_comm, std::span(&buffer, 1), 0, kUndoServerTag);
  server_comm.free();
}

// Intercomm_name_create: a blocking name service for inter-communication;
// local_comm's leader asks the server for its partner's leader.
Comm intercomm_name_create(const Comm& local_comm, const Comm& server_comm,
                           int tag) {
  const std::optional<void*> value = server_comm.get_attr(server_keyval);
  EXPECT_TRUE(value.has_value());
  const Comm& new_world = *static_cast<const Comm*>(*value);
  const int local_leader = 0;
  int buffer = -1;
  if (local_comm.rank() == local_leader) {
    buffer = new_world.rank();
    send(server_comm, std::span(&buffer, 1), 0, tag);
    recv(server_comm, std::span(&buffer, 1), 0, tag);
  }
  return intercomm_create(local_comm, local_leader, new_world, buffer, tag);
}

TEST_F(SeedExamples, NameServicePairsClientsByTag) {
  if (world_size() < 2) GTEST_SKIP() << "needs a server and a client";
  const int rank_of_server = world_size() - 1;
  ServerHandles handles;
  init_server(Comm::world(), rank_of_server, handles);
  // Client groups: new-world ranks by rank % groups; groups 2p and 2p + 1
  // meet under tag 100 + p (an odd last group has no partner).
  const int clients = world_size() - 1;
  const int groups = std::min(4, clients);
  if (world_rank() == rank_of_server) {
    EXPECT_TRUE(handles.new_world.is_null());
    EXPECT_EQ(do_server(handles.server_comm), groups / 2);
    EXPECT_TRUE(handles.server_comm.is_null());
    return;
  }
  const Comm& new_world = handles.new_world;
  EXPECT_EQ(new_world.size(), clients);
  EXPECT_EQ(new_world.rank(), world_rank());  // the server was the last rank
  const int color = new_world.rank() % groups;
  Comm local_comm = new_world.split(color, new_world.rank());
  auto members_of = [&](int group) {  // world ranks = new-world ranks
    std::vector<int> members;
    for (int r = group; r < clients; r += groups) members.push_back(r);
    return members;
  };
  if (color < 2 * (groups / 2)) {
    const int partner = color % 2 == 0 ? color + 1 : color - 1;
    Comm inter =
        intercomm_name_create(local_comm, handles.server_comm, 100 + color / 2);
    ASSERT_TRUE(inter.is_inter());
    EXPECT_EQ(inter.group().members(), members_of(color));
    EXPECT_EQ(inter.remote_group().members(), members_of(partner));
    // Traffic across: every process names itself to a partner.
    const std::vector<int> remote = members_of(partner);
    for (const Received& r : pass_on(inter, world_rank(), inter, 8)) {
      EXPECT_EQ(r.value, remote[at(r.source)]);
    }
    inter.free();
  }
  barrier(new_world);  // every pair has met
  if (new_world.rank() == 0) {
    undo_server(handles.server_comm);
  } else {
    handles.server_comm.free();
  }
}

}  // namespace
}  // namespace classic
