// classic::execute_receiving_unsized: every process sends every process
// (itself too) one message of a size only the sender knows (0 bytes to
// beyond Open MPI's eager limits), beside planned messages of known size
// on another tag; each received message must hold exactly the bytes sent.
// Run with no other operation in progress (the blocking path, twice on one
// plan: its binding is kept) and with a non-blocking operation in flight
// (which must complete too).
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstddef>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "classic/comm/comm.h"
#include "classic/exec/executor.h"
#include "classic/exec/plan.h"
#include "classic/p2p/request.h"

namespace classic {
namespace {

constexpr int kUnsizedTag = 3;
constexpr int kSizedTag = 5;

// The bytes rank `from` sends rank `to` in trial `trial`.
std::vector<std::byte> payload(int from, int to, int trial) {
  std::mt19937 random(
      static_cast<unsigned>(from * 7919 + to * 104729 + trial * 1299709));
  static constexpr int kSizes[] = {0, 1, 7, 64, 4099, 70000, 300001};
  const int bytes = kSizes[random() % (sizeof(kSizes) / sizeof(kSizes[0]))];
  std::vector<std::byte> data(static_cast<std::size_t>(bytes));
  for (std::byte& b : data) b = static_cast<std::byte>(random() & 0xff);
  return data;
}

// The send buffer: every peer's payload, one after the other; the plan
// sends each peer its own and exchanges one int with every peer on
// another tag (recv space: one int per peer).
struct Trial {
  std::vector<std::byte> send;
  std::shared_ptr<const Plan> plan;
};

Trial trial_of(const Comm& comm, int trial) {
  Trial t;
  Plan plan;
  Plan::Round& round = plan.rounds.emplace_back();
  for (int peer = 0; peer < comm.size(); ++peer) {
    const std::vector<std::byte> bytes = payload(comm.rank(), peer, trial);
    Plan::Message& m = round.sends.emplace_back();
    m.peer = peer;
    m.tag = kUnsizedTag;
    m.blocks.push_back({.space = Plan::Space::send,
                        .displacement = static_cast<MPI_Aint>(t.send.size()),
                        .count = static_cast<int>(bytes.size()),
                        .datatype = MPI_BYTE});
    t.send.insert(t.send.end(), bytes.begin(), bytes.end());
  }
  const auto ints_at = static_cast<MPI_Aint>(t.send.size());
  t.send.resize(t.send.size() + sizeof(int));
  const int mine = comm.rank() * 100 + trial;
  std::memcpy(t.send.data() + ints_at, &mine, sizeof(int));
  for (int peer = 0; peer < comm.size(); ++peer) {
    Plan::Message& s = round.sends.emplace_back();
    s.peer = peer;
    s.tag = kSizedTag;
    s.blocks.push_back({.space = Plan::Space::send,
                        .displacement = ints_at,
                        .count = 1,
                        .datatype = MPI_INT});
    Plan::Message& r = round.receives.emplace_back();
    r.peer = peer;
    r.tag = kSizedTag;
    r.blocks.push_back(
        {.space = Plan::Space::recv,
         .displacement = static_cast<MPI_Aint>(peer * sizeof(int)),
         .count = 1,
         .datatype = MPI_INT});
  }
  t.plan = std::make_shared<const Plan>(std::move(plan));
  return t;
}

// Runs trial `trial` and checks what arrived.
void run_and_check(const Comm& comm, const Trial& t, int trial,
                   const std::string& label) {
  const auto size = static_cast<std::size_t>(comm.size());
  std::vector<std::vector<std::byte>> got(size,
                                          std::vector<std::byte>(3));  // stale
  std::vector<UnsizedReceive> unsized;
  // Peers in descending order: the order of the list is not the order of
  // arrival.
  for (int peer = comm.size() - 1; peer >= 0; --peer) {
    unsized.push_back({.peer = peer,
                       .tag = kUnsizedTag,
                       .bytes = &got[static_cast<std::size_t>(peer)]});
  }
  std::vector<int> ints(size, -1);
  execute_receiving_unsized(comm, t.plan, {t.send.data(), ints.data()}, unsized,
                            "unsized_receive_test");
  for (int peer = 0; peer < comm.size(); ++peer) {
    EXPECT_EQ(got[static_cast<std::size_t>(peer)],
              payload(peer, comm.rank(), trial))
        << label << ": from " << peer << " at rank " << comm.rank();
    EXPECT_EQ(ints[static_cast<std::size_t>(peer)], peer * 100 + trial)
        << label << ": the planned message from " << peer << " at rank "
        << comm.rank();
  }
}

TEST(UnsizedReceive, EveryMessageArrivesWholeBlocking) {
  const Comm comm = Comm::world();
  for (int trial = 0; trial < 6; ++trial) {
    const Trial t = trial_of(comm, trial);
    run_and_check(comm, t, trial, "trial " + std::to_string(trial));
    run_and_check(comm, t, trial,
                  "trial " + std::to_string(trial) + ", its binding kept");
  }
}

// A two-round ring exchange posted non-blocking before, completed after.
TEST(UnsizedReceive, EveryMessageArrivesWithAnOperationInProgress) {
  const Comm comm = Comm::world();
  const int right = (comm.rank() + 1) % comm.size();
  const int left = (comm.rank() + comm.size() - 1) % comm.size();
  Plan ring;
  for (int r = 0; r < 2; ++r) {
    Plan::Round& round = ring.rounds.emplace_back();
    round.sends.push_back(
        {.peer = right,
         .tag = r,
         .blocks = {{.space = Plan::Space::send,
                     .displacement = static_cast<MPI_Aint>(r * sizeof(int)),
                     .count = 1,
                     .datatype = MPI_INT}}});
    round.receives.push_back(
        {.peer = left,
         .tag = r,
         .blocks = {{.space = Plan::Space::recv,
                     .displacement = static_cast<MPI_Aint>(r * sizeof(int)),
                     .count = 1,
                     .datatype = MPI_INT}}});
  }
  const auto ring_plan = std::make_shared<const Plan>(std::move(ring));
  for (int trial = 0; trial < 4; ++trial) {
    const int mine[2] = {comm.rank() * 10 + trial, comm.rank() * 10 + 5};
    int theirs[2] = {-1, -1};
    Request pending = execute(comm, ring_plan, {mine, theirs},
                              Mode::nonblocking, "unsized_receive_test");
    const Trial t = trial_of(comm, trial);
    run_and_check(comm, t, trial,
                  "trial " + std::to_string(trial) + " beside a ring");
    (void)wait(pending);
    EXPECT_EQ(theirs[0], left * 10 + trial) << "rank " << comm.rank();
    EXPECT_EQ(theirs[1], left * 10 + 5) << "rank " << comm.rank();
  }
}

}  // namespace
}  // namespace classic
