// classic::execute_followed: a second operation planned from what the first
// one received, on one request, and local to start. On a ring, every
// process first tells its successor how many ints it will send, then sends
// them; the successor sizes its receive from the first message. Processes
// start one after another (each once its predecessor has started and sent
// it a token), which hangs where the call waits for a peer. And
// classic::HeldDatatypes: a plan keeps working on the duplicate of a
// datatype its caller has freed.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstddef>
#include <memory>
#include <span>
#include <stdexcept>
#include <vector>

#include "classic/base/error.h"
#include "classic/comm/comm.h"
#include "classic/exec/executor.h"
#include "classic/exec/plan.h"
#include "classic/p2p/point_to_point.h"
#include "classic/p2p/request.h"

namespace classic {
namespace {

Plan::Block ints(Plan::Space space, int offset, int count,
                 MPI_Datatype datatype = MPI_INT) {
  return {.space = space,
          .displacement = static_cast<MPI_Aint>(offset) *
                          static_cast<MPI_Aint>(sizeof(int)),
          .count = count,
          .datatype = datatype};
}

// One round: `send` to `to`, `recv` from `from`.
std::shared_ptr<const Plan> one_message(int to, Plan::Block send, int from,
                                        Plan::Block recv) {
  Plan plan;
  Plan::Round& round = plan.rounds.emplace_back();
  round.sends.push_back({.peer = to, .tag = 0, .blocks = {send}});
  round.receives.push_back({.peer = from, .tag = 0, .blocks = {recv}});
  return std::make_shared<const Plan>(std::move(plan));
}

// A communicator whose private context exists (classic makes it at a
// plain communicator's first operation, collectively).
Comm ready_comm() {
  Comm comm = Comm::world().dup();
  (void)execute(comm, std::make_shared<const Plan>(), {}, Mode::blocking,
                "followed_test");
  return comm;
}

int count_of(int rank) { return rank % 3 + 1; }
int datum(int rank, int i) { return rank * 1000 + i; }

TEST(ExecuteFollowed, PlansTheSecondFromWhatTheFirstReceivedAndStartsLocally) {
  const Comm comm = ready_comm();
  const int me = comm.rank();
  const int n = comm.size();
  const int next = (me + 1) % n;
  const int previous = (me + n - 1) % n;
  struct State {
    int mine = 0;
    int learnt = -1;
    std::vector<int> send;
    std::vector<int> received;
  };
  auto state = std::make_shared<State>();
  state->mine = count_of(me);
  for (int i = 0; i < state->mine; ++i) state->send.push_back(datum(me, i));
  int token = 0;
  if (me > 0) (void)recv(Comm::world(), &token, 1, MPI_INT, me - 1, 99);
  Request request = execute_followed(
      comm,
      one_message(next, ints(Plan::Space::send, 0, 1), previous,
                  ints(Plan::Space::recv, 0, 1)),
      {&state->mine, &state->learnt},
      [state, next, previous]() -> FollowingPlan {
        state->received.assign(static_cast<std::size_t>(state->learnt), -1);
        return {
            one_message(next, ints(Plan::Space::send, 0, state->mine), previous,
                        ints(Plan::Space::recv, 0, state->learnt)),
            {state->send.data(), state->received.data()}};
      },
      "followed_test");
  if (me + 1 < n) send(Comm::world(), &token, 1, MPI_INT, me + 1, 99);
  (void)wait(request);
  std::vector<int> expected(static_cast<std::size_t>(count_of(previous)));
  for (std::size_t i = 0; i < expected.size(); ++i) {
    expected[i] = datum(previous, static_cast<int>(i));
  }
  EXPECT_EQ(state->learnt, count_of(previous)) << "rank " << me;
  EXPECT_EQ(state->received, expected) << "rank " << me;
}

TEST(ExecuteFollowed, AnErrorOfTheSecondPlanIsTheRequests) {
  const Comm comm = ready_comm();
  const int me = comm.rank();
  int out = me;
  int in = -1;
  Request request = execute_followed(
      comm,
      one_message(me, ints(Plan::Space::send, 0, 1), me,
                  ints(Plan::Space::recv, 0, 1)),
      {&out, &in},
      []() -> FollowingPlan {
        throw Error(ErrorClass::truncate, "followed_test", "planned to fail");
      },
      "followed_test");
  EXPECT_THROW((void)wait(request), Error);
  EXPECT_EQ(in, me);
}

TEST(ExecuteFollowed, ANullSecondPlanEndsTheRequestWithTheFirst) {
  const Comm comm = ready_comm();
  const int me = comm.rank();
  int out = me + 7;
  int in = -1;
  bool asked = false;
  Request request = execute_followed(
      comm,
      one_message(me, ints(Plan::Space::send, 0, 1), me,
                  ints(Plan::Space::recv, 0, 1)),
      {&out, &in},
      [&asked]() -> FollowingPlan {
        asked = true;
        return {};
      },
      "followed_test");
  (void)wait(request);
  EXPECT_TRUE(asked);
  EXPECT_EQ(in, me + 7);
}

TEST(HeldDatatypes, APlanRunsOnTheDuplicateOfAFreedDatatype) {
  const Comm comm = ready_comm();
  const int me = comm.rank();
  MPI_Datatype every_other = MPI_DATATYPE_NULL;
  MPI_Type_vector(3, 1, 2, MPI_INT, &every_other);
  MPI_Type_commit(&every_other);
  std::vector<Plan::Block> blocks = {ints(Plan::Space::send, 0, 1, every_other),
                                     ints(Plan::Space::recv, 0, 3, MPI_INT)};
  {
    HeldDatatypes held;
    held.hold(blocks, "followed_test");
    EXPECT_FALSE(held.empty());
    EXPECT_NE(blocks[0].datatype, every_other);
    EXPECT_EQ(blocks[1].datatype, MPI_INT) << "a predefined type is kept";
    MPI_Type_free(&every_other);
    const std::vector<int> out = {me, -1, me + 1, -1, me + 2};
    std::vector<int> in(3, -1);
    (void)execute(comm, one_message(me, blocks[0], me, blocks[1]),
                  {out.data(), in.data()}, Mode::blocking, "followed_test");
    EXPECT_EQ(in, (std::vector<int>{me, me + 1, me + 2}));
  }
  HeldDatatypes predefined;
  std::vector<Plan::Block> plain = {ints(Plan::Space::send, 0, 1)};
  predefined.hold(plain, "followed_test");
  EXPECT_TRUE(predefined.empty());
  EXPECT_EQ(plain[0].datatype, MPI_INT);
}

}  // namespace
}  // namespace classic
