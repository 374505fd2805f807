// Random sequences of communicator and request lifetimes: dup, split, free
// (explicit, or the last handle dropped), persistent init, start, wait,
// non-blocking operations left pending, requests freed while inactive or
// dropped while active (those of one round), all interleaved. Every process
// draws the same sequence (a shared seed), so the collective steps match. Every
// completed operation must have delivered the values sent in its own run,
// whatever was freed before it; at the end, with every handle gone, no
// communicator state may be left (Comm::live_count()). Run under --config=asan
// it shows that no step touches freed memory.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "classic/comm/comm.h"
#include "classic/exec/executor.h"
#include "classic/exec/plan.h"
#include "classic/p2p/request.h"
#include "tests/harness/case_label.h"

namespace classic {
namespace {

constexpr int kSteps = 10000;

// A ring exchange on one communicator (send to rank + 1, receive from rank
// - 1) in `rounds` rounds of `count` ints, with its buffers.
struct Ring {
  Ring(const Comm& comm, int rounds, int count)
      : size(comm.size()),
        me(comm.rank()),
        send(static_cast<std::size_t>(rounds * count)),
        recv(send.size(), -1),
        plan(std::make_shared<Plan>()) {
    plan->rounds.resize(static_cast<std::size_t>(rounds));
    for (int r = 0; r < rounds; ++r) {
      const MPI_Aint at = MPI_Aint{r} * count * MPI_Aint{sizeof(int)};
      Plan::Round& round = plan->rounds[static_cast<std::size_t>(r)];
      round.receives.push_back({(me + size - 1) % size,
                                r,
                                {{Plan::Space::recv, at, count, MPI_INT}}});
      round.sends.push_back(
          {(me + 1) % size, r, {{Plan::Space::send, at, count, MPI_INT}}});
    }
  }
  void fill(int run) {
    for (std::size_t i = 0; i < send.size(); ++i) {
      send[i] = 100000 * run + 1000 * me + static_cast<int>(i % 311);
    }
    std::fill(recv.begin(), recv.end(), -1);
  }
  // Whether the last run, number `run`, delivered the left neighbour's data.
  bool received(int run) const {
    const int left = (me + size - 1) % size;
    for (std::size_t i = 0; i < recv.size(); ++i) {
      if (recv[i] != 100000 * run + 1000 * left + static_cast<int>(i % 311)) {
        return false;
      }
    }
    return true;
  }
  int size;
  int me;
  std::vector<int> send;
  std::vector<int> recv;
  std::shared_ptr<Plan> plan;
};

// Held by pointer: a request must go before its buffers (the member order
// below), which moving Operations around a vector would not keep.
struct Operation {
  std::unique_ptr<Ring> ring;
  Request request;
  bool persistent = false;
  bool active = false;
  int runs = 0;  // the run now active or last completed
};

class Fuzz {
 public:
  explicit Fuzz(unsigned seed) : seed_(seed), random_(seed) {}

  void step(int number) {
    orthocomm_test::set_case_label("seed " + std::to_string(seed_) + ", step " +
                                   std::to_string(number));
    switch (draw(9)) {
      case 0:
        if (comms_.size() < 6) comms_.push_back(pick_comm().dup());
        break;
      case 1:
        if (comms_.size() < 6) {
          const Comm& parent = pick_comm();
          comms_.push_back(parent.split(parent.rank() % 2, 0));
        }
        break;
      case 2:
        free_comm();
        break;
      case 3:
      case 4:
        make_operation();
        break;
      case 5:
      case 6:
        start_or_wait();
        break;
      default:
        drop_operation();
        break;
    }
  }

  void finish() {
    for (const auto& op : operations_) {
      if (op->active) complete(*op);
    }
    operations_.clear();
    comms_.clear();
  }

 private:
  int draw(int n) {
    return std::uniform_int_distribution<int>(0, n - 1)(random_);
  }
  Comm& pick_comm() {
    if (comms_.empty()) comms_.push_back(Comm::world().dup());
    return comms_[static_cast<std::size_t>(
        draw(static_cast<int>(comms_.size())))];
  }

  void free_comm() {
    if (comms_.empty()) return;
    const auto at =
        static_cast<std::size_t>(draw(static_cast<int>(comms_.size())));
    if (draw(2) == 0) comms_[at].free();  // else: the handle is dropped
    comms_.erase(comms_.begin() + static_cast<std::ptrdiff_t>(at));
  }

  void make_operation() {
    if (operations_.size() >= 8) return;
    const Comm& comm = pick_comm();
    auto made = std::make_unique<Operation>();
    Operation& op = *made;
    op.ring = std::make_unique<Ring>(comm, 1 + draw(3), draw(2) == 0 ? 1 : 300);
    op.persistent = draw(3) != 0;
    if (op.persistent) {
      op.request = execute(comm, op.ring->plan,
                           {op.ring->send.data(), op.ring->recv.data()},
                           Mode::persistent, "lifetime_fuzz_test");
    } else {
      op.ring->fill(0);
      op.request = execute(comm, op.ring->plan,
                           {op.ring->send.data(), op.ring->recv.data()},
                           Mode::nonblocking, "lifetime_fuzz_test");
      op.active = true;
    }
    operations_.push_back(std::move(made));
  }

  void complete(Operation& op) {
    wait(op.request);
    op.active = false;
    ASSERT_TRUE(op.ring->received(op.runs)) << "run " << op.runs;
  }

  void start_or_wait() {
    if (operations_.empty()) return;
    Operation& op = *operations_[static_cast<std::size_t>(
        draw(static_cast<int>(operations_.size())))];
    if (op.active) {
      complete(op);
    } else if (op.persistent) {
      op.ring->fill(++op.runs);
      start(op.request);
      op.active = true;
    }
  }

  // Freed while inactive, or dropped while active where it has one round
  // (classic withdraws its receives and lets its sends finish in the
  // background). An active operation of several rounds is completed
  // first: dropped on every process at once, the receives classic keeps
  // posted for its later rounds would wait for messages no peer sends
  // (classic/exec/executor.h).
  void drop_operation() {
    if (operations_.empty()) return;
    const auto at =
        static_cast<std::size_t>(draw(static_cast<int>(operations_.size())));
    Operation& op = *operations_[at];
    if (op.active && op.ring->plan->rounds.size() > 1) complete(op);
    operations_.erase(operations_.begin() + static_cast<std::ptrdiff_t>(at));
  }

  unsigned seed_;
  std::mt19937 random_;
  std::vector<Comm> comms_;
  std::vector<std::unique_ptr<Operation>> operations_;
};

class LifetimeFuzz : public ::testing::TestWithParam<unsigned> {};

TEST_P(LifetimeFuzz, RandomLifetimesDeliverAndLeaveNothing) {
  (void)Comm::world().size();  // world's state exists from its first use
  const std::size_t before = Comm::live_count();
  {
    Fuzz fuzz(GetParam());
    for (int step = 0; step < kSteps && !HasFatalFailure(); ++step) {
      fuzz.step(step);
    }
    fuzz.finish();
  }
  MPI_Barrier(MPI_COMM_WORLD);
  EXPECT_EQ(Comm::live_count(), before);
  // Communicators and operations made afterwards are unaffected.
  Comm comm = Comm::world().dup();
  Ring ring(comm, 2, 300);
  ring.fill(9);
  const Request done =
      execute(comm, ring.plan, {ring.send.data(), ring.recv.data()},
              Mode::blocking, "lifetime_fuzz_test");
  EXPECT_TRUE(ring.received(9));
}

INSTANTIATE_TEST_SUITE_P(Seeds, LifetimeFuzz, ::testing::Values(1u, 2u, 3u));

}  // namespace
}  // namespace classic
