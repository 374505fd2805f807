// Differential test of classic's plan executor: random plans (random peers
// including the process itself and proc_null, 1-5 rounds, messages of up
// to three blocks of contiguous and strided datatypes, local copies across
// datatypes and reductions with a non-commutative operation) run blocking,
// non-blocking and persistent must leave every receive buffer exactly as an
// in-memory simulation of the same program does.
#include "classic/exec/executor.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/error.h"
#include "classic/comm/comm.h"
#include "classic/exec/plan.h"
#include "classic/p2p/request.h"

namespace classic {
namespace {

constexpr int kSendInts = 64;
constexpr int kSentinel = -7;
constexpr int kModulus = 1000003;

// ---- datatypes: an int, and a strided pair (ints 0 and 2 of 3) -------------

enum class Shape { contiguous, strided };

int ints_per_element(Shape shape) { return shape == Shape::contiguous ? 1 : 2; }
int span_per_element(Shape shape) { return shape == Shape::contiguous ? 1 : 3; }

struct Types {
  MPI_Datatype strided = MPI_DATATYPE_NULL;
  MPI_Op noncommutative = MPI_OP_NULL;
  MPI_Datatype of(Shape shape) const {
    return shape == Shape::contiguous ? MPI_INT : strided;
  }
};

// in op inout = 3 * in + inout (mod kModulus): a op b != b op a.
void three_in_plus_inout(void* in, void* inout, int* count, MPI_Datatype*) {
  const int* a = static_cast<const int*>(in);
  int* b = static_cast<int*>(inout);
  for (int i = 0; i < *count; ++i) b[i] = (3 * a[i] + b[i]) % kModulus;
}

const Types& types() {
  static const Types instance = [] {
    Types t;
    MPI_Type_vector(2, 1, 2, MPI_INT, &t.strided);
    MPI_Type_commit(&t.strided);
    MPI_Op_create(&three_in_plus_inout, /*commute=*/0, &t.noncommutative);
    return t;
  }();
  return instance;
}

// ---- a program: every process's plan, and what each block means -----------

// A block as the simulation sees it: which ints of which space.
struct Region {
  Plan::Space space = Plan::Space::send;
  int offset = 0;  // in ints
  Shape shape = Shape::contiguous;
  int count = 0;

  std::vector<int> positions() const {
    std::vector<int> at;
    for (int e = 0; e < count; ++e) {
      const int base = offset + e * span_per_element(shape);
      at.push_back(base);
      if (shape == Shape::strided) at.push_back(base + 2);
    }
    return at;
  }
  int ints() const { return count * ints_per_element(shape); }
  Plan::Block block() const {
    return Plan::Block{space, static_cast<MPI_Aint>(offset * sizeof(int)),
                       count, types().of(shape)};
  }
};

struct SimMessage {
  int from, to;  // proc_null on the side that does not exist
  std::vector<Region> sent, received;
};

struct SimLocal {
  Plan::Local::Kind kind;
  Plan::Local::Order order;
  Region from, to;
};

struct SimRound {
  std::vector<SimMessage> messages;
  std::vector<std::vector<SimLocal>> local;  // [process]
};

struct Program {
  int processes = 0;
  std::vector<SimRound> rounds;
  std::vector<int> recv_ints, scratch_ints;  // [process]
};

class Generator {
 public:
  Generator(int processes, unsigned seed)
      : rng_(seed),
        readable_(processes),
        recv_top_(processes, 0),
        scratch_top_(processes, 0) {
    program_.processes = processes;
  }

  Program generate() {
    const int rounds = pick(1, 5);
    for (int r = 0; r < rounds; ++r) program_.rounds.push_back(round());
    program_.recv_ints = recv_top_;
    program_.scratch_ints = scratch_top_;
    return std::move(program_);
  }

 private:
  int pick(int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng_);
  }
  Shape shape() { return pick(0, 1) == 0 ? Shape::contiguous : Shape::strided; }

  // A block to read on process p: of the send buffer, or the start of a
  // region written in an earlier round (or by an earlier local step).
  Region readable(int p) {
    if (readable_[p].empty() || pick(0, 2) == 0) {
      const Shape s = shape();
      const int count = pick(0, 4);
      const int span = count * span_per_element(s);
      return Region{Plan::Space::send, pick(0, kSendInts - span), s, count};
    }
    Region region =
        readable_[p][pick(0, static_cast<int>(readable_[p].size()) - 1)];
    region.count = pick(1, region.count);
    return region;
  }

  // A fresh region of `ints` ints on process p (recv or scratch space),
  // nothing else ever writes there except reductions into it later.
  Region fresh(int p, int ints, Shape s) {
    if (ints % ints_per_element(s) != 0) s = Shape::contiguous;
    const int count = ints / ints_per_element(s);
    const bool in_scratch = pick(0, 2) == 0;
    int& top = in_scratch ? scratch_top_[p] : recv_top_[p];
    Region region{in_scratch ? Plan::Space::scratch : Plan::Space::recv,
                  top + pick(0, 1), s, count};
    top = region.offset + count * span_per_element(s);
    return region;
  }

  // `ints` ints as one to three fresh regions on p.
  std::vector<Region> fresh_parts(int p, int ints) {
    std::vector<Region> parts;
    const int pieces = pick(1, 3);
    for (int i = 0; i < pieces; ++i) {
      const int take = i + 1 == pieces ? ints : pick(0, ints);
      parts.push_back(fresh(p, take, shape()));
      ints -= take;
    }
    return parts;
  }

  SimRound round() {
    const int n = program_.processes;
    SimRound round;
    std::vector<std::vector<Region>> written(n);
    for (int m = pick(0, 2 * n + 1); m > 0; --m) {
      SimMessage message;
      message.from = pick(0, n - 1);
      message.to = pick(0, n - 1);
      const int nulls = pick(0, 5);
      if (nulls == 0) message.from = proc_null;  // a receive from nobody
      if (nulls == 1) message.to = proc_null;    // a send to nobody
      int ints = 0;
      if (message.from != proc_null) {
        for (int b = pick(1, 3); b > 0; --b) {
          message.sent.push_back(readable(message.from));
          ints += message.sent.back().ints();
        }
      } else {
        ints = pick(0, 6);
      }
      if (message.to != proc_null) {
        message.received = fresh_parts(message.to, ints);
        for (const Region& r : message.received) {
          // From nobody, nothing arrives: the region is not written.
          if (r.count > 0 && message.from != proc_null) {
            written[message.to].push_back(r);
          }
        }
      }
      round.messages.push_back(std::move(message));
    }
    round.local.resize(n);
    for (int p = 0; p < n; ++p) {
      for (const Region& r : written[p]) readable_[p].push_back(r);
      for (int steps = pick(0, 2); steps > 0; --steps) {
        round.local[p].push_back(local(p));
      }
    }
    return round;
  }

  SimLocal local(int p) {
    const auto order = pick(0, 1) == 0 ? Plan::Local::Order::from_first
                                       : Plan::Local::Order::to_first;
    // A reduction into a contiguous region already written, if any.
    std::vector<Region> targets;
    for (const Region& r : readable_[p]) {
      if (r.shape == Shape::contiguous && r.space != Plan::Space::send) {
        targets.push_back(r);
      }
    }
    if (!targets.empty() && pick(0, 1) == 0) {
      Region to = targets[pick(0, static_cast<int>(targets.size()) - 1)];
      to.count = pick(1, to.count);
      Region from{Plan::Space::send, pick(0, kSendInts - to.count),
                  Shape::contiguous, to.count};
      return SimLocal{Plan::Local::Kind::reduce, order, from, to};
    }
    const Region from = readable(p);
    const Region to = fresh(p, from.ints(), shape());
    if (to.count > 0) readable_[p].push_back(to);
    return SimLocal{Plan::Local::Kind::copy, order, from, to};
  }

  std::mt19937 rng_;
  Program program_;
  std::vector<std::vector<Region>> readable_;  // [process]
  std::vector<int> recv_top_, scratch_top_;
};

// ---- what the program means ---------------------------------------------

std::vector<int> send_values(int process, int run) {
  std::vector<int> values(kSendInts);
  for (int i = 0; i < kSendInts; ++i)
    values[i] = process * 1000 + run * 100 + i;
  return values;
}

struct Memory {
  std::vector<int> send, recv, scratch;
  std::vector<int>& of(Plan::Space space) {
    switch (space) {
      case Plan::Space::send:
        return send;
      case Plan::Space::recv:
        return recv;
      case Plan::Space::scratch:
        break;
    }
    return scratch;
  }
};

std::vector<int> read(Memory& memory, const Region& region) {
  std::vector<int> values;
  for (const int at : region.positions())
    values.push_back(memory.of(region.space)[at]);
  return values;
}

void write(Memory& memory, const std::vector<Region>& regions,
           const std::vector<int>& values) {
  std::size_t next = 0;
  for (const Region& region : regions) {
    for (const int at : region.positions()) {
      memory.of(region.space)[at] = values[next++];
    }
  }
}

// Every process's receive buffer after one run of the program.
std::vector<std::vector<int>> simulate(const Program& program, int run) {
  std::vector<Memory> memory(program.processes);
  for (int p = 0; p < program.processes; ++p) {
    memory[p].send = send_values(p, run);
    memory[p].recv.assign(program.recv_ints[p] + 1, kSentinel);
    memory[p].scratch.assign(program.scratch_ints[p] + 1, kSentinel);
  }
  for (const SimRound& round : program.rounds) {
    std::vector<std::pair<const SimMessage*, std::vector<int>>> payloads;
    for (const SimMessage& m : round.messages) {
      if (m.from == proc_null || m.to == proc_null) continue;
      std::vector<int> values;
      for (const Region& r : m.sent) {
        for (const int v : read(memory[m.from], r)) values.push_back(v);
      }
      payloads.emplace_back(&m, std::move(values));
    }
    for (const auto& [m, values] : payloads)
      write(memory[m->to], m->received, values);
    for (int p = 0; p < program.processes; ++p) {
      for (const SimLocal& step : round.local[p]) {
        const std::vector<int> from = read(memory[p], step.from);
        std::vector<int> result = from;
        if (step.kind == Plan::Local::Kind::reduce) {
          const std::vector<int> to = read(memory[p], step.to);
          for (std::size_t i = 0; i < to.size(); ++i) {
            const bool from_first =
                step.order == Plan::Local::Order::from_first;
            const int a = from_first ? from[i] : to[i];
            const int b = from_first ? to[i] : from[i];
            result[i] = (3 * a + b) % kModulus;
          }
        }
        write(memory[p], {step.to}, result);
      }
    }
  }
  std::vector<std::vector<int>> received;
  for (Memory& m : memory) received.push_back(std::move(m.recv));
  return received;
}

// Process p's part of the program as a Plan.
std::shared_ptr<const Plan> plan_of(const Program& program, int p) {
  auto plan = std::make_shared<Plan>();
  for (const SimRound& sim : program.rounds) {
    Plan::Round round;
    // One tag per round position keeps matching unambiguous: messages of a
    // round between two processes pair up in posting order anyway.
    for (const SimMessage& m : sim.messages) {
      const int tag =
          static_cast<int>(&m - sim.messages.data()) % Plan::kMaxTags;
      if (m.from == p) {
        Plan::Message send{m.to, tag, {}};
        for (const Region& r : m.sent) send.blocks.push_back(r.block());
        round.sends.push_back(std::move(send));
      }
      if (m.to == p) {
        Plan::Message receive{m.from, tag, {}};
        for (const Region& r : m.received) receive.blocks.push_back(r.block());
        round.receives.push_back(std::move(receive));
      }
    }
    for (const SimLocal& step : sim.local[p]) {
      Plan::Local local;
      local.kind = step.kind;
      local.order = step.order;
      local.from = step.from.block();
      local.to = step.to.block();
      local.op = types().noncommutative;
      round.local.push_back(local);
    }
    plan->rounds.push_back(std::move(round));
  }
  plan->scratch_bytes =
      static_cast<MPI_Aint>((program.scratch_ints[p] + 1) * sizeof(int));
  return plan;
}

// ---- the test -------------------------------------------------------------

class Executor : public ::testing::Test {
 protected:
  void TearDown() override { MPI_Barrier(MPI_COMM_WORLD); }
  const Comm comm_ = Comm::world().dup();
  const int me_ = comm_.rank();
  const int size_ = comm_.size();
};

// One process's buffers for one run.
struct Buffers {
  std::vector<int> send, recv;
  Buffers(const Program& program, int p, int run)
      : send(send_values(p, run)), recv(program.recv_ints[p] + 1, kSentinel) {}
  PlanBuffers plan() { return PlanBuffers{send.data(), recv.data()}; }
  void refill(int p, int run) {
    // In place: a persistent operation keeps the buffers it was made with.
    std::ranges::copy(send_values(p, run), send.begin());
    std::fill(recv.begin(), recv.end(), kSentinel);
  }
};

constexpr int kPrograms = 60;

TEST_F(Executor, RandomPlansEqualTheSimulationBlocking) {
  for (int seed = 0; seed < kPrograms; ++seed) {
    const Program program = Generator(size_, 1000 + seed).generate();
    Buffers buffers(program, me_, 0);
    const Request done = execute(comm_, plan_of(program, me_), buffers.plan(),
                                 Mode::blocking, "executor_test");
    EXPECT_TRUE(done.is_null());
    ASSERT_EQ(buffers.recv, simulate(program, 0)[me_]) << "seed " << seed;
  }
}

// Blocking runs of the same plans on the same buffers again and again
// (their binding kept between runs), alternating between two, three and
// then five plans (more than the four kept), and one plan on other
// buffers.
TEST_F(Executor, RepeatedBlockingRunsEqualTheSimulation) {
  for (int seed = 0; seed < kPrograms / 4; ++seed) {
    std::vector<Program> programs;
    std::vector<std::shared_ptr<const Plan>> plans;
    std::deque<Buffers> buffers;
    for (int i = 0; i < 5; ++i) {
      programs.push_back(Generator(size_, 7000 + 5 * seed + i).generate());
      plans.push_back(plan_of(programs.back(), me_));
      buffers.emplace_back(programs.back(), me_, 0);
    }
    const auto run = [&](std::size_t i, Buffers& on, int run) {
      on.refill(me_, run);
      const Request done =
          execute(comm_, plans[i], on.plan(), Mode::blocking, "executor_test");
      EXPECT_TRUE(done.is_null());
      ASSERT_EQ(on.recv, simulate(programs[i], run)[me_])
          << "seed " << seed << " plan " << i << " run " << run;
    };
    for (int r = 0; r < 3; ++r) run(0, buffers[0], r);
    for (int r = 0; r < 4; ++r) run(r % 2, buffers[r % 2], r);
    for (int r = 0; r < 6; ++r) run(r % 3, buffers[r % 3], r);
    for (int r = 0; r < 15; ++r) run(r % 5, buffers[r % 5], r);
    Buffers other(programs[0], me_, 0);
    run(0, other, 1);
    run(0, buffers[0], 2);
  }
}

// The same random plans with messages of several blocks all as struct
// datatypes (limit 0) and split between both ways (limit 16 bytes), in
// the blocking and the persistent mode (where bound messages are reused).
TEST_F(Executor, RandomPlansEqualTheSimulationPackedOrNot) {
  for (const MPI_Aint limit : {MPI_Aint{0}, MPI_Aint{16}}) {
    const MPI_Aint before = internal::set_pack_limit(limit);
    for (int seed = 0; seed < kPrograms / 2; ++seed) {
      const Program program = Generator(size_, 6000 + seed).generate();
      Buffers buffers(program, me_, 0);
      const Request done = execute(comm_, plan_of(program, me_), buffers.plan(),
                                   Mode::blocking, "executor_test");
      ASSERT_EQ(buffers.recv, simulate(program, 0)[me_])
          << "limit " << limit << " seed " << seed;
      Request request = execute(comm_, plan_of(program, me_), buffers.plan(),
                                Mode::persistent, "executor_test");
      for (int run = 1; run < 3; ++run) {
        buffers.refill(me_, run);
        start(request);
        wait(request);
        ASSERT_EQ(buffers.recv, simulate(program, run)[me_])
            << "limit " << limit << " seed " << seed << " run " << run;
      }
    }
    internal::set_pack_limit(before);
  }
}

TEST_F(Executor, RandomPlansEqualTheSimulationNonBlocking) {
  for (int seed = 0; seed < kPrograms; ++seed) {
    const Program program = Generator(size_, 2000 + seed).generate();
    Buffers buffers(program, me_, 0);
    Request request = execute(comm_, plan_of(program, me_), buffers.plan(),
                              Mode::nonblocking, "executor_test");
    // Some tests first, so rounds are also moved along by test().
    for (int i = 0; i < seed % 4 && !request.is_null(); ++i)
      (void)test(request);
    wait(request);
    EXPECT_TRUE(request.is_null());
    ASSERT_EQ(buffers.recv, simulate(program, 0)[me_]) << "seed " << seed;
  }
}

// Persistent operations with every message as a transport persistent
// request (limit 0), with none (a limit above every message) and with the
// default split by size.
TEST_F(Executor, RandomPlansEqualTheSimulationPersistent) {
  constexpr MPI_Aint kNone = MPI_Aint{1} << 40;
  for (const MPI_Aint limit : {MPI_Aint{0}, kNone, MPI_Aint{-1}}) {
    const MPI_Aint before = internal::set_started_limit(limit);
    for (int seed = 0; seed < kPrograms / 2; ++seed) {
      const Program program = Generator(size_, 3000 + seed).generate();
      Buffers buffers(program, me_, 0);
      Request request = execute(comm_, plan_of(program, me_), buffers.plan(),
                                Mode::persistent, "executor_test");
      EXPECT_TRUE(request.is_inactive());
      for (int run = 0; run < 3; ++run) {
        buffers.refill(me_, run);
        start(request);
        EXPECT_FALSE(request.is_inactive());
        // Some tests first, so rounds are also moved along by test().
        for (int i = 0; i < (seed + run) % 3; ++i) (void)test(request);
        wait(request);
        EXPECT_TRUE(request.is_inactive());
        ASSERT_EQ(buffers.recv, simulate(program, run)[me_])
            << "limit " << limit << " seed " << seed << " run " << run;
      }
    }
    internal::set_started_limit(before);
  }
}

// Two multi-round operations outstanding at once on one communicator, each
// completed in the other order than begun, stay apart.
TEST_F(Executor, OutstandingOperationsStayApart) {
  for (int seed = 0; seed < kPrograms / 2; ++seed) {
    const Program first = Generator(size_, 4000 + seed).generate();
    const Program second = Generator(size_, 5000 + seed).generate();
    Buffers a(first, me_, 0);
    Buffers b(second, me_, 1);
    std::vector<Request> requests;
    requests.push_back(execute(comm_, plan_of(first, me_), a.plan(),
                               Mode::nonblocking, "executor_test"));
    requests.push_back(execute(comm_, plan_of(second, me_), b.plan(),
                               Mode::nonblocking, "executor_test"));
    if (seed % 2 == 0) {
      wait(requests[1]);
      wait(requests[0]);
    } else {
      wait_all(requests);
    }
    ASSERT_EQ(a.recv, simulate(first, 0)[me_]) << "seed " << seed;
    ASSERT_EQ(b.recv, simulate(second, 1)[me_]) << "seed " << seed;
  }
}

// The same programs on a persistent and a non-blocking request, started
// and begun interleaved.
TEST_F(Executor, PersistentAndNonBlockingInterleave) {
  for (int seed = 0; seed < 10; ++seed) {
    const Program program = Generator(size_, 6000 + seed).generate();
    Buffers persistent_buffers(program, me_, 0);
    Request persistent =
        execute(comm_, plan_of(program, me_), persistent_buffers.plan(),
                Mode::persistent, "executor_test");
    for (int run = 0; run < 3; ++run) {
      persistent_buffers.refill(me_, run);
      start(persistent);
      Buffers other(program, me_, run);
      Request nonblocking = execute(comm_, plan_of(program, me_), other.plan(),
                                    Mode::nonblocking, "executor_test");
      std::vector<Request> both;
      both.push_back(std::move(nonblocking));
      both.push_back(std::move(persistent));
      (void)wait_any(both);
      (void)wait_all(both);
      persistent = std::move(both[1]);
      const std::vector<int> expected = simulate(program, run)[me_];
      ASSERT_EQ(persistent_buffers.recv, expected) << "seed " << seed;
      ASSERT_EQ(other.recv, expected) << "seed " << seed;
    }
  }
}

// ---- destroying a pending operation --------------------------------------

// A relay around the ring in `rounds` rounds of `block` ints: round r
// receives from the left into block r of recv and sends the right block r-1
// (round 0: the send buffer). Afterwards block r holds the send buffer of
// the process r + 1 places to the left.
std::shared_ptr<const Plan> ring_relay(const Comm& comm, int rounds,
                                       int block) {
  const int right = (comm.rank() + 1) % comm.size();
  const int left = (comm.rank() + comm.size() - 1) % comm.size();
  auto plan = std::make_shared<Plan>();
  const auto bytes = static_cast<MPI_Aint>(block * sizeof(int));
  for (int r = 0; r < rounds; ++r) {
    Plan::Round round;
    round.receives.push_back(
        {left, r, {{Plan::Space::recv, r * bytes, block, MPI_INT}}});
    const Plan::Block from =
        r == 0
            ? Plan::Block{Plan::Space::send, 0, block, MPI_INT}
            : Plan::Block{Plan::Space::recv, (r - 1) * bytes, block, MPI_INT};
    round.sends.push_back({right, r, {from}});
    plan->rounds.push_back(std::move(round));
  }
  return plan;
}

void expect_relayed(const Comm& comm, const std::vector<int>& recv, int rounds,
                    int block) {
  for (int r = 0; r < rounds; ++r) {
    const int origin =
        ((comm.rank() - r - 1) % comm.size() + comm.size()) % comm.size();
    const auto at = static_cast<std::size_t>(r * block);
    ASSERT_EQ(recv[at], origin) << "block " << r;
    ASSERT_EQ(recv[at + static_cast<std::size_t>(block) - 1], origin)
        << "block " << r;
  }
}

// Every process destroys its relay once it has finished `k` rounds (seen
// in its receive buffer, then one more test() to post round k), for every
// k; the next operation on the communicator is then correct. Blocks of 1
// int go eagerly, of 40,000 ints (160 kB) by rendezvous.
// The same for a persistent relay whose messages are all transport
// persistent requests, destroyed while active in its second start.
TEST_F(Executor, DestroyedAtEveryRoundLeavesTheNextOperationCorrect) {
  constexpr int kRounds = 4;
  std::deque<std::vector<int>> kept;
  const std::vector<int> send_1(1, me_), send_40000(40000, me_);
  for (const Mode mode : {Mode::nonblocking, Mode::persistent}) {
    const MPI_Aint before = internal::set_started_limit(0);
    for (const int block : {1, 40000}) {
      const std::vector<int>& send = block == 1 ? send_1 : send_40000;
      for (int k = 0; k < kRounds; ++k) {
        SCOPED_TRACE(std::string(mode == Mode::persistent ? "persistent, "
                                                          : "non-blocking, ") +
                     "block " + std::to_string(block) +
                     ", destroyed in round " + std::to_string(k));
        // The abandoned operation's sends may still read both buffers (its
        // relays send out of recv), so they live until the test's end.
        std::vector<int>& abandoned = kept.emplace_back(
            static_cast<std::size_t>(kRounds * block), kSentinel);
        {
          Request request = execute(comm_, ring_relay(comm_, kRounds, block),
                                    PlanBuffers{send.data(), abandoned.data()},
                                    mode, "executor_test");
          if (mode == Mode::persistent) {
            start(request);
            wait(request);
            expect_relayed(comm_, abandoned, kRounds, block);
            std::fill(abandoned.begin(), abandoned.end(), kSentinel);
            start(request);
          }
          const auto running = [&] {
            return mode == Mode::persistent ? !request.is_inactive()
                                            : !request.is_null();
          };
          if (k > 0) {
            const volatile int* last = abandoned.data() + k * block - 1;
            while (*last == kSentinel && running()) (void)test(request);
            if (running()) (void)test(request);
          }
          // (A process may also have gone past round k, even to the end,
          // when its peers' messages were quick: any round is a fine place.)
        }  // destroyed
        std::vector<int> recv(static_cast<std::size_t>(kRounds * block),
                              kSentinel);
        const Request done = execute(comm_, ring_relay(comm_, kRounds, block),
                                     PlanBuffers{send.data(), recv.data()},
                                     Mode::blocking, "executor_test");
        expect_relayed(comm_, recv, kRounds, block);
      }
    }
    internal::set_started_limit(before);
  }
}

// Rank 0 withdraws every round of an operation at once while rank 1 sends
// it longer blocks than it expected, eagerly and by rendezvous, while rank
// 0 waits outside classic: nothing hangs or fails, the communicator can be
// freed, and the next operations, on it and on a new one, are correct.
TEST_F(Executor, OversizedBlocksForAWithdrawnOperationAreHarmless) {
  if (size_ < 2) GTEST_SKIP() << "needs a peer";
  constexpr int kRounds = 3;
  for (const int expected : {1, 40000}) {
    for (const bool free_it : {false, true}) {
      Comm comm = Comm::world().dup();
      const int longer = expected + 3;
      std::vector<int> send(static_cast<std::size_t>(longer), 1);
      std::vector<int> recv(static_cast<std::size_t>(kRounds * expected),
                            kSentinel);
      auto plan = std::make_shared<Plan>();
      plan->rounds.resize(kRounds);
      for (int r = 0; r < kRounds; ++r) {
        const auto at = static_cast<MPI_Aint>(r * expected * sizeof(int));
        if (me_ == 0) {
          plan->rounds[r].receives.push_back(
              {1, r, {{Plan::Space::recv, at, expected, MPI_INT}}});
        }
        if (me_ == 1) {
          plan->rounds[r].sends.push_back(
              {0, r, {{Plan::Space::send, 0, longer, MPI_INT}}});
        }
      }
      const PlanBuffers buffers{send.data(), recv.data()};
      if (me_ == 0) {
        Request withdrawn =
            execute(comm, plan, buffers, Mode::nonblocking, "executor_test");
      } else {
        const Request done =
            execute(comm, plan, buffers, Mode::blocking, "executor_test");
      }
      MPI_Barrier(MPI_COMM_WORLD);  // rank 0 waits here, outside classic
      Comm next = free_it ? Comm::world().dup() : comm;
      if (free_it) comm.free();
      std::vector<int> relayed(static_cast<std::size_t>(2 * expected),
                               kSentinel);
      const std::vector<int> mine(static_cast<std::size_t>(expected),
                                  next.rank());
      const Request done = execute(next, ring_relay(next, 2, expected),
                                   PlanBuffers{mine.data(), relayed.data()},
                                   Mode::blocking, "executor_test");
      expect_relayed(next, relayed, 2, expected);
    }
  }
}

// A receive shorter than the message that arrives (eager): the blocking
// run raises the transport's truncation on the receiving process, naming
// the caller, before any later round; the sender completes; the next
// operation on the communicator is correct, kept binding or not.
TEST_F(Executor, ATruncatedReceiveRaisesTheTruncation) {
  if (size_ < 2) GTEST_SKIP() << "needs a peer";
  Comm comm = Comm::world().dup();
  for (int attempt = 0; attempt < 3; ++attempt) {
    std::vector<int> send(4, 7);
    std::vector<int> recv(2, kSentinel);
    auto plan = std::make_shared<Plan>();
    plan->rounds.resize(2);
    if (me_ == 0) {
      plan->rounds[0].receives.push_back(
          {1, 0, {{Plan::Space::recv, 0, 1, MPI_INT}}});
      // A second round that must not run: its receive would wait forever.
      plan->rounds[1].receives.push_back(
          {1, 1, {{Plan::Space::recv, sizeof(int), 1, MPI_INT}}});
    }
    if (me_ == 1) {
      plan->rounds[0].sends.push_back(
          {0, 0, {{Plan::Space::send, 0, 4, MPI_INT}}});
    }
    const PlanBuffers buffers{send.data(), recv.data()};
    if (me_ == 0) {
      try {
        const Request done =
            execute(comm, plan, buffers, Mode::blocking, "truncating_call");
        ADD_FAILURE() << "no error for a truncated receive";
      } catch (const Error& error) {
        EXPECT_EQ(error.error_class(), ErrorClass::truncate) << error.what();
        EXPECT_NE(std::string(error.what()).find("truncating_call"),
                  std::string::npos)
            << error.what();
      }
      EXPECT_EQ(recv[1], kSentinel) << "the second round ran";
    } else {
      const Request done =
          execute(comm, plan, buffers, Mode::blocking, "truncating_call");
    }
    std::vector<int> relayed(2, kSentinel);
    const std::vector<int> mine(1, comm.rank());
    const Request done = execute(comm, ring_relay(comm, 2, 1),
                                 PlanBuffers{mine.data(), relayed.data()},
                                 Mode::blocking, "executor_test");
    expect_relayed(comm, relayed, 2, 1);
  }
}

}  // namespace
}  // namespace classic
