// Differential test: ortho's allgather, allgatherv, alltoall, alltoallv and
// alltoallw on directed-graph communicators against Open MPI's
// MPI_Neighbor_* on a distributed graph communicator that
// MPI_Dist_graph_create_adjacent makes over MPI_COMM_WORLD from the same
// neighbour lists. The graphs are random directed multigraphs (self loops,
// repeated edges, empty neighbourhoods, indegree != outdegree, weights),
// made with ortho::dist_graph_create_adjacent and ortho::dist_graph_create
// (weighted and not, in turn); 50 of them at each of the six process counts
// of the BUILD file, 300 in all, eight calls on each.
//
// Every call runs in each mode (blocking; non-blocking + classic::wait;
// persistent: *_init, then classic::start + classic::wait twice with new
// send contents, and once more at the end of its graph together with every
// other persistent request of the graph), raw or typed (alltoallw is raw
// only), with int and double data and, raw, a derived vector datatype;
// blocks of a few elements, one call in ten of several kilobytes.
// Every call gets fresh buffers (new allocations with new contents) and
// the buffers of earlier calls stay allocated, so the allocator cannot hand
// a stale plan its old addresses back: at the end of each graph they must
// still hold what their own call left there. Receive buffers start with a
// sentinel so that gaps between blocks are compared too; results must equal
// Open MPI's bit for bit.
//
// The same calls on each graph's reverse (ortho::reverse) against Open
// MPI's on the transposed graph (every edge turned around), 20 graphs per
// process count, in turn with the default choice and each algorithm that
// serves a reverse forced on the graph (the reverse applies the graph's
// override).
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "classic/base/datatype.h"
#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "classic/p2p/request.h"
#include "ortho/collectives.h"
#include "ortho/reverse.h"
#include "ortho/table.h"
#include "tests/harness/case_label.h"
#include "tests/ortho/graph/graph_testing.h"

namespace {

using classic::Comm;
using classic::Mode;
using ortho_graph_testing::array;
using ortho_graph_testing::at;
using ortho_graph_testing::chance;
using ortho_graph_testing::Construction;
using ortho_graph_testing::expect_same_bits;
using ortho_graph_testing::Graph;
using ortho_graph_testing::Kind;
using ortho_graph_testing::Layout;
using ortho_graph_testing::OpenMpiGraph;
using ortho_graph_testing::Random;
using ortho_graph_testing::uniform;

constexpr unsigned kSeed = 0x6e1b0a7u;
constexpr int kGraphs = 50;  // up to 4 processes (graphs_for)
constexpr int kReverseGraphs = 20;
constexpr int kCallsPerGraph = 8;
constexpr int kStarts = 2;

enum class Op { allgather, allgatherv, alltoall, alltoallv, alltoallw };
constexpr int kOps = 5;
enum class Form { typed, raw };

const char* to_string(Op op) {
  static const char* const kNames[] = {"allgather", "allgatherv", "alltoall",
                                       "alltoallv", "alltoallw"};
  return kNames[static_cast<int>(op)];
}

// ---- one call's arguments on the calling process ---------------------------

// Counts are in elements of `type`, v displacements in its extents, w
// displacements in bytes; lengths in elements of T.
template <typename T>
struct Spec {
  Op op = Op::allgather;
  Form form = Form::raw;
  Kind kind = Kind::basic;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  // Typed blocking allgather / alltoall: the overload returning the data.
  bool by_value = false;
  int count = 0;
  std::vector<int> sendcounts, sdispls, recvcounts, rdispls;
  std::vector<MPI_Aint> sbytes, rbytes;
  std::vector<MPI_Datatype> send_types, recv_types;
  std::size_t send_length = 0;
  std::size_t recv_length = 0;
};

// For every process and every one of its destinations, the size of the
// block it sends there (shared draws: every process knows them all).
std::vector<std::vector<int>> block_sizes(const Graph& graph, Random& shared,
                                          int low, int high, int scale) {
  std::vector<std::vector<int>> sizes(at(graph.size));
  for (int r = 0; r < graph.size; ++r) {
    for (int b = 0; b < graph.outdegree(r); ++b) {
      sizes[at(r)].push_back(scale * uniform(shared, low, high));
    }
  }
  return sizes;
}

// The size of each block the caller receives, from the sizes every process
// sends (MPI's pairing of repeated edges).
std::vector<int> arriving(const Graph& graph, int me,
                          const std::vector<std::vector<int>>& sizes) {
  const std::vector<int> blocks = ortho_graph_testing::paired_blocks(graph, me);
  std::vector<int> result;
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    EXPECT_GE(blocks[i], 0) << "receive slot " << i << " has no sender";
    result.push_back(blocks[i] < 0 ? 0
                                   : sizes[at(graph.in(me)[i])][at(blocks[i])]);
  }
  return result;
}

// A block of alltoallw of `ints` ints (even): as MPI_INT, or as vectors.
struct WBlock {
  MPI_Datatype type;
  int count;
  int span;  // ints
};

WBlock w_block(int ints, bool as_vector, MPI_Datatype vector) {
  if (as_vector) return {vector, ints / 2, 4 * (ints / 2)};
  return {MPI_INT, ints, ints};
}

void draw_alltoallw(Spec<int>& s, const Graph& graph, int me, Random& shared,
                    Random& local, MPI_Datatype vector, int scale) {
  std::vector<std::vector<int>> sizes = block_sizes(graph, shared, 0, 3, scale);
  for (std::vector<int>& mine : sizes) {
    for (int& ints : mine) ints *= 2;
  }
  std::vector<WBlock> sends;
  std::vector<int> spans;
  for (const int ints : sizes[at(me)]) {
    sends.push_back(w_block(ints, chance(local, 50), vector));
    spans.push_back(sends.back().span);
  }
  const Layout send_layout = ortho_graph_testing::scattered(local, spans);
  std::vector<WBlock> receives;
  spans.clear();
  for (const int ints : arriving(graph, me, sizes)) {
    receives.push_back(w_block(ints, chance(local, 50), vector));
    spans.push_back(receives.back().span);
  }
  const Layout recv_layout = ortho_graph_testing::scattered(local, spans);
  for (std::size_t b = 0; b < sends.size(); ++b) {
    s.sendcounts.push_back(sends[b].count);
    s.sbytes.push_back(send_layout.displs[b] * MPI_Aint{sizeof(int)});
    s.send_types.push_back(sends[b].type);
  }
  for (std::size_t i = 0; i < receives.size(); ++i) {
    s.recvcounts.push_back(receives[i].count);
    s.rbytes.push_back(recv_layout.displs[i] * MPI_Aint{sizeof(int)});
    s.recv_types.push_back(receives[i].type);
  }
  s.send_length = at(send_layout.extent);
  s.recv_length = at(recv_layout.extent);
}

template <typename T>
Spec<T> draw_spec(Op op, const Graph& graph, int me, Random& shared,
                  Random& local, MPI_Datatype vector) {
  Spec<T> s;
  s.op = op;
  s.form = op != Op::alltoallw && chance(shared, 50) ? Form::typed : Form::raw;
  s.type = classic::datatype_of<T>();
  if constexpr (std::is_same_v<T, int>) {
    if (s.form == Form::raw && op != Op::alltoallw && chance(shared, 35)) {
      s.kind = Kind::vector;
      s.type = vector;
    }
  }
  // Now and then blocks of several kilobytes (beyond the transport's eager
  // limit), usually a few elements.
  const int scale = chance(shared, 10) ? 700 : 1;
  const auto u = at(ortho_graph_testing::unit(s.kind));
  const auto in = at(graph.indegree(me));
  const auto out = at(graph.outdegree(me));
  switch (op) {
    case Op::allgather:
    case Op::alltoall: {
      s.count = scale * uniform(shared, 0, 3);
      const std::size_t blocks = op == Op::allgather ? 1 : out;
      s.send_length = blocks * at(s.count) * u;
      // Raw receive buffers get a tail nobody may write; typed spans hold
      // exactly the blocks (alltoall derives its count from them where the
      // caller sends nothing).
      s.recv_length = in * at(s.count) * u +
                      (s.form == Form::raw ? at(uniform(local, 0, 2)) : 0);
      s.by_value = s.form == Form::typed && chance(local, 50) &&
                   (op == Op::allgather || out > 0 || in == 0);
      break;
    }
    case Op::allgatherv: {
      std::vector<std::vector<int>> counts(at(graph.size));
      for (std::vector<int>& count : counts) {
        count.push_back(scale * uniform(shared, 0, 4));
      }
      s.count = counts[at(me)][0];
      s.send_length = at(s.count) * u;
      std::vector<int> sizes;
      for (const int source : graph.in(me))
        sizes.push_back(counts[at(source)][0]);
      const Layout layout = ortho_graph_testing::scattered(local, sizes);
      s.recvcounts = layout.sizes;
      s.rdispls = layout.displs;
      s.recv_length = at(layout.extent) * u;
      break;
    }
    case Op::alltoallv: {
      const std::vector<std::vector<int>> sizes =
          block_sizes(graph, shared, 0, 4, scale);
      const Layout sends = ortho_graph_testing::scattered(local, sizes[at(me)]);
      s.sendcounts = sends.sizes;
      s.sdispls = sends.displs;
      s.send_length = at(sends.extent) * u;
      const Layout receives =
          ortho_graph_testing::scattered(local, arriving(graph, me, sizes));
      s.recvcounts = receives.sizes;
      s.rdispls = receives.displs;
      s.recv_length = at(receives.extent) * u;
      break;
    }
    case Op::alltoallw:
      if constexpr (std::is_same_v<T, int>) {
        draw_alltoallw(s, graph, me, shared, local, vector, scale);
      }
      break;
  }
  return s;
}

// ---- one call: its buffers, ortho's run and Open MPI's ----------------------

class Case {
 public:
  explicit Case(std::string name) : name_(std::move(name)) {}
  virtual ~Case() = default;
  Case(const Case&) = delete;
  Case& operator=(const Case&) = delete;

  const std::string& name() const { return name_; }
  // New contents in the send buffer, the sentinel in the receive buffer.
  virtual void refill(Random& local) = 0;
  // What Open MPI's MPI_Neighbor_* delivers for the current send buffer.
  virtual void oracle(MPI_Comm comm) = 0;
  // ortho's call in `mode` on this case's buffers.
  virtual classic::Request call(const ortho::ExchangeComm& comm, Mode mode) = 0;
  // ortho's receive buffer equals Open MPI's bit for bit, and the send
  // buffer is as refill left it; the receive buffer is remembered.
  virtual void check(const std::string& when) = 0;
  // The receive buffer still holds what the last check saw.
  virtual void check_untouched() = 0;

 private:
  std::string name_;
};

template <typename T>
T fresh(Random& local) {
  const int drawn = uniform(local, -1000000, 1000000);
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(drawn) / T{8};
  } else {
    return static_cast<T>(drawn);
  }
}

// A new allocation of n elements (data() is never null, as Open MPI wants).
template <typename T>
std::vector<T> allocate(std::size_t n) {
  std::vector<T> buffer;
  buffer.reserve(n + 1);
  buffer.resize(n, ortho_graph_testing::sentinel<T>());
  return buffer;
}

template <typename T>
class CaseOf final : public Case {
 public:
  CaseOf(std::string name, const Spec<T>& spec)
      : Case(std::move(name)),
        spec_(spec),
        send_(allocate<T>(spec.send_length)),
        recv_(allocate<T>(spec.recv_length)) {}

  void refill(Random& local) override {
    for (T& v : send_) v = fresh<T>(local);
    sent_ = send_;
    std::fill(recv_.begin(), recv_.end(), ortho_graph_testing::sentinel<T>());
  }

  void oracle(MPI_Comm comm) override {
    expected_ = allocate<T>(spec_.recv_length);
    EXPECT_EQ(run_openmpi(comm, expected_.data()), MPI_SUCCESS) << name();
  }

  classic::Request call(const ortho::ExchangeComm& comm, Mode mode) override {
    const Spec<T>& s = spec_;
    const std::span<const T> send(send_);
    const std::span<T> recv(recv_);
    const void* sp = send_.data();
    void* rp = recv_.data();
    const MPI_Datatype t = s.type;
    const bool typed = s.form == Form::typed;
    switch (s.op) {
      case Op::allgather:
        if (typed && s.by_value && mode == Mode::blocking) {
          recv_ = ortho::allgather(comm, send);
          return {};
        }
        if (typed) {
          return ortho_graph_testing::in_mode(
              mode, [&] { ortho::allgather(comm, send, recv); },
              [&] { return ortho::iallgather(comm, send, recv); },
              [&] { return ortho::allgather_init(comm, send, recv); });
        }
        return ortho_graph_testing::in_mode(
            mode,
            [&] { ortho::allgather(comm, sp, s.count, t, rp, s.count, t); },
            [&] {
              return ortho::iallgather(comm, sp, s.count, t, rp, s.count, t);
            },
            [&] {
              return ortho::allgather_init(comm, sp, s.count, t, rp, s.count,
                                           t);
            });
      case Op::allgatherv:
        if (typed) {
          return ortho_graph_testing::in_mode(
              mode,
              [&] {
                ortho::allgatherv(comm, send, recv, s.recvcounts, s.rdispls);
              },
              [&] {
                return ortho::iallgatherv(comm, send, recv, s.recvcounts,
                                          s.rdispls);
              },
              [&] {
                return ortho::allgatherv_init(comm, send, recv, s.recvcounts,
                                              s.rdispls);
              });
        }
        return ortho_graph_testing::in_mode(
            mode,
            [&] {
              ortho::allgatherv(comm, sp, s.count, t, rp, s.recvcounts,
                                s.rdispls, t);
            },
            [&] {
              return ortho::iallgatherv(comm, sp, s.count, t, rp, s.recvcounts,
                                        s.rdispls, t);
            },
            [&] {
              return ortho::allgatherv_init(comm, sp, s.count, t, rp,
                                            s.recvcounts, s.rdispls, t);
            });
      case Op::alltoall:
        if (typed && s.by_value && mode == Mode::blocking) {
          recv_ = ortho::alltoall(comm, send);
          return {};
        }
        if (typed) {
          return ortho_graph_testing::in_mode(
              mode, [&] { ortho::alltoall(comm, send, recv); },
              [&] { return ortho::ialltoall(comm, send, recv); },
              [&] { return ortho::alltoall_init(comm, send, recv); });
        }
        return ortho_graph_testing::in_mode(
            mode,
            [&] { ortho::alltoall(comm, sp, s.count, t, rp, s.count, t); },
            [&] {
              return ortho::ialltoall(comm, sp, s.count, t, rp, s.count, t);
            },
            [&] {
              return ortho::alltoall_init(comm, sp, s.count, t, rp, s.count, t);
            });
      case Op::alltoallv:
        if (typed) {
          return ortho_graph_testing::in_mode(
              mode,
              [&] {
                ortho::alltoallv(comm, send, s.sendcounts, s.sdispls, recv,
                                 s.recvcounts, s.rdispls);
              },
              [&] {
                return ortho::ialltoallv(comm, send, s.sendcounts, s.sdispls,
                                         recv, s.recvcounts, s.rdispls);
              },
              [&] {
                return ortho::alltoallv_init(comm, send, s.sendcounts,
                                             s.sdispls, recv, s.recvcounts,
                                             s.rdispls);
              });
        }
        return ortho_graph_testing::in_mode(
            mode,
            [&] {
              ortho::alltoallv(comm, sp, s.sendcounts, s.sdispls, t, rp,
                               s.recvcounts, s.rdispls, t);
            },
            [&] {
              return ortho::ialltoallv(comm, sp, s.sendcounts, s.sdispls, t, rp,
                                       s.recvcounts, s.rdispls, t);
            },
            [&] {
              return ortho::alltoallv_init(comm, sp, s.sendcounts, s.sdispls, t,
                                           rp, s.recvcounts, s.rdispls, t);
            });
      case Op::alltoallw:
        break;
    }
    return ortho_graph_testing::in_mode(
        mode,
        [&] {
          ortho::alltoallw(comm, sp, s.sendcounts, s.sbytes, s.send_types, rp,
                           s.recvcounts, s.rbytes, s.recv_types);
        },
        [&] {
          return ortho::ialltoallw(comm, sp, s.sendcounts, s.sbytes,
                                   s.send_types, rp, s.recvcounts, s.rbytes,
                                   s.recv_types);
        },
        [&] {
          return ortho::alltoallw_init(comm, sp, s.sendcounts, s.sbytes,
                                       s.send_types, rp, s.recvcounts, s.rbytes,
                                       s.recv_types);
        });
  }

  void check(const std::string& when) override {
    expect_same_bits(recv_, expected_, name() + ", " + when + ": received");
    expect_same_bits(send_, sent_, name() + ", " + when + ": send buffer");
    seen_ = recv_;
  }

  void check_untouched() override {
    expect_same_bits(recv_, seen_,
                     name() + ": receive buffer changed by a later call");
  }

 private:
  int run_openmpi(MPI_Comm comm, T* out) const {
    const Spec<T>& s = spec_;
    const T* in = send_.data();
    const MPI_Datatype t = s.type;
    switch (s.op) {
      case Op::allgather:
        return MPI_Neighbor_allgather(in, s.count, t, out, s.count, t, comm);
      case Op::allgatherv:
        return MPI_Neighbor_allgatherv(in, s.count, t, out, array(s.recvcounts),
                                       array(s.rdispls), t, comm);
      case Op::alltoall:
        return MPI_Neighbor_alltoall(in, s.count, t, out, s.count, t, comm);
      case Op::alltoallv:
        return MPI_Neighbor_alltoallv(in, array(s.sendcounts), array(s.sdispls),
                                      t, out, array(s.recvcounts),
                                      array(s.rdispls), t, comm);
      case Op::alltoallw:
        break;
    }
    return MPI_Neighbor_alltoallw(in, array(s.sendcounts), array(s.sbytes),
                                  array(s.send_types), out, array(s.recvcounts),
                                  array(s.rbytes), array(s.recv_types), comm);
  }

  Spec<T> spec_;
  std::vector<T> send_;
  std::vector<T> recv_;
  std::vector<T> sent_;
  std::vector<T> expected_;
  std::vector<T> seen_;
};

// The calls made on one graph, kept until its end.
struct Calls {
  std::vector<std::unique_ptr<Case>> all;
  std::vector<Case*> persistent_cases;
  std::vector<classic::Request> persistent;
};

// One call of `op` in each mode, each with new buffers, against Open MPI.
template <typename T>
void run_in_each_mode(Op op, const Graph& graph,
                      const ortho::ExchangeComm& comm,
                      const OpenMpiGraph& oracle, Random& shared, Random& local,
                      MPI_Datatype vector, Calls& calls,
                      const std::string& where) {
  const Spec<T> spec =
      draw_spec<T>(op, graph, comm.comm().rank(), shared, local, vector);
  for (const Mode mode : ortho_graph_testing::kModes) {
    const std::string name =
        std::string(to_string(op)) +
        (spec.form == Form::typed ? ", typed" : ", raw") +
        (spec.kind == Kind::vector ? " (vector datatype)" : "") +
        (std::is_same_v<T, double> ? ", double, " : ", int, ") +
        ortho_graph_testing::to_string(mode);
    orthocomm_test::set_case_label(where + ": " + name);
    auto one = std::make_unique<CaseOf<T>>(name, spec);
    one->refill(local);
    one->oracle(oracle.get());
    classic::Request request = one->call(comm, mode);
    if (!spec.by_value) ortho_graph_testing::expect_returned(mode, request);
    ortho_graph_testing::complete(
        mode, request, kStarts,
        [&](int) {
          one->refill(local);
          one->oracle(oracle.get());
        },
        [&](int start) { one->check("start " + std::to_string(start + 1)); });
    if (mode == Mode::persistent) {
      calls.persistent_cases.push_back(one.get());
      calls.persistent.push_back(std::move(request));
    }
    calls.all.push_back(std::move(one));
  }
}

// kCallsPerGraph random calls on `graph` through `comm` (a graph
// communicator or a reverse), each in every mode against `oracle`; then
// every persistent request of the graph once more, all active at once; then
// every receive buffer as its call left it.
void run_graph(const Graph& graph, const ortho::ExchangeComm& comm,
               const OpenMpiGraph& oracle, Random& shared, Random& local,
               MPI_Datatype vector, const std::string& graph_label) {
  Calls calls;
  for (int c = 0; c < kCallsPerGraph; ++c) {
    const auto op = static_cast<Op>(uniform(shared, 0, kOps - 1));
    const std::string where = graph_label + ", call " + std::to_string(c);
    if (op != Op::alltoallw && chance(shared, 40)) {
      run_in_each_mode<double>(op, graph, comm, oracle, shared, local, vector,
                               calls, where);
    } else {
      run_in_each_mode<int>(op, graph, comm, oracle, shared, local, vector,
                            calls, where);
    }
  }
  orthocomm_test::set_case_label(graph_label +
                                 ": every persistent request restarted");
  for (Case* one : calls.persistent_cases) {
    one->refill(local);
    one->oracle(oracle.get());
  }
  classic::start_all(calls.persistent);
  classic::wait_all(calls.persistent);
  for (Case* one : calls.persistent_cases) {
    one->check("restarted with the graph's other persistent requests");
  }
  for (const auto& one : calls.all) one->check_untouched();
}

class GraphVsOpenMpi : public ::testing::Test {
 protected:
  void TearDown() override { MPI_Barrier(MPI_COMM_WORLD); }
};

TEST_F(GraphVsOpenMpi, NeighbourhoodCollectivesEqualOpenMpiBitForBit) {
  const Comm world = Comm::world();
  const int p = world.size();
  const unsigned salt = kSeed + 1000u * static_cast<unsigned>(p);
  Random shared(salt);
  Random local(salt + 7919u * static_cast<unsigned>(world.rank() + 1));
  const ortho_graph_testing::VectorType vector;
  const int graphs = ortho_graph_testing::graphs_for(p, kGraphs);
  for (int g = 0; g < graphs; ++g) {
    const Graph graph = ortho_graph_testing::random_graph(
        shared, p,
        static_cast<Construction>(g % ortho_graph_testing::kConstructions));
    SCOPED_TRACE("graph " + std::to_string(g) + " on " + std::to_string(p) +
                 " processes, rank " + std::to_string(world.rank()) + ": " +
                 graph.name());
    const Comm comm = ortho_graph_testing::make_comm(graph, world);
    ortho_graph_testing::expect_lists(comm, graph);
    // Every other graph runs per_peer (one message per distinct peer), which
    // matters where edges repeat; the rest the default choice.
    if (g % 2 == 1) ortho::set_algorithm(comm, "per_peer");
    SCOPED_TRACE(std::string("algorithm ") +
                 std::string(ortho::selected_algorithm(
                     comm, ortho::Operation::alltoall)));
    const OpenMpiGraph oracle(comm);
    ASSERT_NE(oracle.get(), MPI_COMM_NULL);
    // What reproduces a case: the seed and process count fix every graph.
    const std::string graph_label = "seed " + std::to_string(salt) + ", " +
                                    std::to_string(p) + " processes, graph " +
                                    std::to_string(g) + " (" + graph.name() +
                                    "), algorithm " +
                                    std::string(ortho::selected_algorithm(
                                        comm, ortho::Operation::alltoall));
    run_graph(graph, comm, oracle, shared, local, vector.get(), graph_label);
  }
}

// The algorithm the environment forces (ORTHO_ALGORITHM) on graphs of
// `processes` planned on several hosts (ORTHO_HOSTS), where it is one that
// relays along node_aware's graph; "" otherwise.
std::string_view relaying_forced_across_hosts(int processes) {
  const char* forced = std::getenv("ORTHO_ALGORITHM");
  const char* hosts = std::getenv("ORTHO_HOSTS");
  if (forced == nullptr || hosts == nullptr || std::atoi(hosts) < 2 ||
      processes < 2) {
    return {};
  }
  for (const std::string_view relaying :
       {"node_aware", "spread_relays", "common_neighbours"}) {
    if (forced == relaying) return relaying;
  }
  return {};
}

// Each graph's reverse against Open MPI on the transposed graph: the same
// random calls, each mode, persistent requests restarted together.
TEST_F(GraphVsOpenMpi, ReverseExchangesEqualOpenMpiOnTheTransposedGraph) {
  const Comm world = Comm::world();
  const int p = world.size();
  const unsigned salt = kSeed + 7u + 1000u * static_cast<unsigned>(p);
  Random shared(salt);
  Random local(salt + 7919u * static_cast<unsigned>(world.rank() + 1));
  const ortho_graph_testing::VectorType vector;
  constexpr const char* kOverrides[] = {"", "direct", "per_peer"};
  for (int g = 0; g < kReverseGraphs; ++g) {
    const Graph graph = ortho_graph_testing::random_graph(
        shared, p,
        static_cast<Construction>(g % ortho_graph_testing::kConstructions));
    const Graph turned = ortho_graph_testing::transposed(graph);
    const std::string spec = kOverrides[g % 3];
    const std::string graph_label =
        "seed " + std::to_string(salt) + ", " + std::to_string(p) +
        " processes, reverse of graph " + std::to_string(g) + " (" +
        graph.name() + "), override '" + spec + "'";
    SCOPED_TRACE(graph_label + ", rank " + std::to_string(world.rank()));
    const Comm comm = ortho_graph_testing::make_comm(graph, world);
    if (!spec.empty()) ortho::set_algorithm(comm, spec);
    const ortho::Reverse reverse = ortho::reverse(comm);
    // Forced across hosts, the relaying algorithms serve the reverse too.
    const std::string_view relaying = relaying_forced_across_hosts(p);
    if (!relaying.empty() && spec.empty()) {
      EXPECT_EQ(ortho::selected_algorithm(reverse, ortho::Operation::alltoall),
                relaying);
    }
    const OpenMpiGraph oracle(turned, world.rank());
    ASSERT_NE(oracle.get(), MPI_COMM_NULL);
    run_graph(turned, reverse, oracle, shared, local, vector.get(),
              graph_label);
  }
}

}  // namespace
