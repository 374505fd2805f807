// Brute-force test of ortho's allreduce and allgatherw on directed graphs:
// random directed multigraphs (self loops, repeated edges, empty
// neighbourhoods, indegree != outdegree), references computed by each
// process from the global edge list (the graph and every process's data
// follow from shared seeds).
//
//   allreduce   every process reduces over its own in-neighbours in order,
//               s_0 op s_1 op ... op s_{k-1} (a self loop contributes the
//               caller's own operand); MPI_SUM, MPI_MAX and MPI_MIN on ints
//               and doubles, and two non-commutative user ops made with
//               MPI_Op_create: affine maps on 16-bit integers packed in an
//               int (raw and typed) and 2x2 integer matrix products on a
//               contiguous datatype (raw); with no in-neighbour the receive
//               buffer keeps its contents; in place (each process choosing
//               for itself) its operand is its receive buffer.
//   allgatherw  the block from in-neighbour i lands at rdispls[i] bytes as
//               recvcounts[i] elements of recv_types[i]: per neighbour
//               MPI_INT or a vector type (two ints three apart), whatever
//               type the sender used (MPI_INT or the vector).
//
// Each call runs in one of the three modes (persistent ones started twice,
// new contents before each start), with new buffers every call; blocks of
// a few elements, one call in ten of kilobytes.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "classic/p2p/request.h"
#include "ortho/collectives.h"
#include "ortho/table.h"
#include "tests/ortho/graph/graph_testing.h"

namespace {

using classic::Comm;
using classic::Mode;
using ortho_graph_testing::at;
using ortho_graph_testing::chance;
using ortho_graph_testing::Construction;
using ortho_graph_testing::expect_same_bits;
using ortho_graph_testing::Graph;
using ortho_graph_testing::in_mode;
using ortho_graph_testing::Kind;
using ortho_graph_testing::Layout;
using ortho_graph_testing::operands;
using ortho_graph_testing::Random;
using ortho_graph_testing::Reduction;
using ortho_graph_testing::sentinel;
using ortho_graph_testing::touched;
using ortho_graph_testing::uniform;
using ortho_graph_testing::value;

constexpr unsigned kSeed = 0xa11ed0u;
constexpr int kGraphs = 30;  // up to 4 processes (graphs_for)
constexpr int kCallsPerGraph = 12;
constexpr int kStarts = 2;

std::string when(const std::string& name, int start) {
  return name + ", start " + std::to_string(start + 1);
}

// A process with no edge at all completes a non-blocking call at its
// first test; every call returns what its mode says.
void expect_local(Mode mode, classic::Request& request, bool idle,
                  const std::string& name) {
  ortho_graph_testing::expect_returned(mode, request);
  if (mode != Mode::nonblocking || !idle) return;
  EXPECT_TRUE(classic::test(request).has_value())
      << name << ": a process without edges did not complete locally";
}

class GraphAllreduceAllgatherw : public ::testing::Test {
 protected:
  void TearDown() override { MPI_Barrier(MPI_COMM_WORLD); }
};

// ---- allreduce --------------------------------------------------------------

struct Allreduce {
  const Graph& graph;
  const Comm& comm;
  Mode mode;
  bool typed;
  Reduction reduction;
  MPI_Op op;
  MPI_Datatype type;
  unsigned salt;
  std::string name;
};

template <typename T>
void check_allreduce(const Allreduce& a, Random& shared, Random& local,
                     int& distinguishing) {
  const int me = a.comm.rank();
  const int count = (chance(shared, 10) ? 500 : 1) * uniform(shared, 0, 3);
  const std::size_t u = a.reduction == Reduction::matrix ? 4 : 1;
  const std::size_t length = at(count) * u;
  const bool in_place = chance(local, 35);  // each process for itself
  const bool by_value =
      a.typed && !in_place && a.mode == Mode::blocking && chance(local, 30);
  const std::string name =
      a.name + (in_place ? ", in place" : "") + (by_value ? ", by value" : "");
  const std::vector<int>& in = a.graph.in(me);
  std::vector<T> send(length);
  std::vector<T> recv(length);
  // The receive buffer before the call: the own operand in place; what the
  // by-value form allocates (zeros); the sentinel otherwise.
  const auto before = [&](unsigned salt) {
    if (in_place) return operands<T>(a.reduction, length, salt, me);
    return std::vector<T>(length, by_value ? T{} : sentinel<T>());
  };
  const auto refill = [&](int start) {
    const std::vector<T> s =
        operands<T>(a.reduction, length, a.salt + start, me);
    const std::vector<T> r = before(a.salt + start);
    std::copy(s.begin(), s.end(), send.begin());
    std::copy(r.begin(), r.end(), recv.begin());
  };
  refill(0);
  classic::Request request;
  const std::span<const T> sp(send);
  const std::span<T> rp(recv);
  if (by_value) {
    recv = ortho::allreduce(a.comm, sp, a.op);
  } else if (a.typed && in_place) {
    request = in_mode(
        a.mode, [&] { ortho::allreduce(a.comm, classic::in_place, rp, a.op); },
        [&] { return ortho::iallreduce(a.comm, classic::in_place, rp, a.op); },
        [&] {
          return ortho::allreduce_init(a.comm, classic::in_place, rp, a.op);
        });
  } else if (a.typed) {
    request = in_mode(
        a.mode, [&] { ortho::allreduce(a.comm, sp, rp, a.op); },
        [&] { return ortho::iallreduce(a.comm, sp, rp, a.op); },
        [&] { return ortho::allreduce_init(a.comm, sp, rp, a.op); });
  } else {
    const void* s = in_place ? MPI_IN_PLACE : send.data();
    void* r = recv.data();
    request = in_mode(
        a.mode, [&] { ortho::allreduce(a.comm, s, r, count, a.type, a.op); },
        [&] { return ortho::iallreduce(a.comm, s, r, count, a.type, a.op); },
        [&] {
          return ortho::allreduce_init(a.comm, s, r, count, a.type, a.op);
        });
  }
  if (!by_value) {
    expect_local(a.mode, request, in.empty() && a.graph.out(me).empty(), name);
  }
  ortho_graph_testing::complete(
      a.mode, request, kStarts, refill, [&](int start) {
        const unsigned salt = a.salt + start;
        std::vector<T> want = before(salt);
        if (!in.empty()) {
          std::vector<std::vector<T>> s;
          for (const int source : in) {
            s.push_back(operands<T>(a.reduction, length, salt, source));
          }
          want = ortho_graph_testing::fold(a.reduction, s);
          if (ortho_graph_testing::is_user(a.reduction) &&
              want != ortho_graph_testing::fold_reversed(a.reduction, s)) {
            ++distinguishing;
          }
        }
        expect_same_bits(recv, want, when(name, start));
        if (!in_place) {
          expect_same_bits(send, operands<T>(a.reduction, length, salt, me),
                           when(name, start) + ": send");
        }
      });
}

TEST_F(GraphAllreduceAllgatherw, AllreduceFoldsInNeighbourOrder) {
  const Comm world = Comm::world();
  const int p = world.size();
  const unsigned seed = kSeed + 1000u * static_cast<unsigned>(p);
  Random shared(seed);
  Random local(seed + 7919u * static_cast<unsigned>(world.rank() + 1));
  const ortho_graph_testing::MatrixType matrix;
  const ortho_graph_testing::Ops ops;
  unsigned salt = seed;
  int distinguishing = 0;
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
    for (int k = 0; k < kCallsPerGraph; ++k) {
      const Mode mode = ortho_graph_testing::kModes[uniform(shared, 0, 2)];
      const bool typed = chance(shared, 50);
      const bool use_double = chance(shared, 25);
      const auto reduction = static_cast<Reduction>(uniform(shared, 0,
                                                            use_double ? 2
                                                            : typed    ? 3
                                                                       : 4));
      MPI_Datatype type = use_double ? MPI_DOUBLE : MPI_INT;
      if (reduction == Reduction::matrix) type = matrix.get();
      salt += kStarts + 1;
      const Allreduce a{graph,
                        comm,
                        mode,
                        typed,
                        reduction,
                        ops.get(reduction),
                        type,
                        salt,
                        std::string("allreduce, ") +
                            (typed ? "typed, " : "raw, ") +
                            (use_double ? "double, " : "int, ") +
                            ortho_graph_testing::to_string(reduction) + ", " +
                            ortho_graph_testing::to_string(mode)};
      if (use_double) {
        check_allreduce<double>(a, shared, local, distinguishing);
      } else {
        check_allreduce<int>(a, shared, local, distinguishing);
      }
    }
  }
  int total = 0;
  MPI_Allreduce(&distinguishing, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (p >= 3) {
    EXPECT_GT(total, 0) << "no result told the neighbour order apart";
  }
}

// MPI_SUM on ints over a ring with a chord, by hand: every process gets
// the sum of its in-neighbours' ranks (a self loop counting its own).
TEST_F(GraphAllreduceAllgatherw, AllreduceSumOverAFixedGraph) {
  const Comm world = Comm::world();
  const int p = world.size();
  std::vector<ortho_graph_testing::Edge> edges;
  for (int r = 0; r < p; ++r) {
    edges.push_back({r, (r + 1) % p, 0});
    edges.push_back({r, (r + 2) % p, 0});
  }
  edges.push_back({0, 0, 0});
  const Graph graph = ortho_graph_testing::graph_of(p, edges);
  const Comm comm = ortho_graph_testing::make_comm(graph, world);
  const int me = world.rank();
  const std::vector<int> send = {me + 1, 10 * (me + 1)};
  int want = 0;
  for (const int source : graph.in(me)) want += source + 1;
  const std::vector<int> got = ortho::allreduce(comm, std::span(send), MPI_SUM);
  EXPECT_EQ(got, (std::vector<int>{want, 10 * want}));
}

// ---- allgatherw -------------------------------------------------------------

TEST_F(GraphAllreduceAllgatherw, AllgatherwPlacesEachNeighboursBlockByItsType) {
  const Comm world = Comm::world();
  const int p = world.size();
  const int me = world.rank();
  const unsigned seed = kSeed + 77u + 1000u * static_cast<unsigned>(p);
  Random shared(seed);
  Random local(seed + 7919u * static_cast<unsigned>(me + 1));
  const ortho_graph_testing::VectorType vector;
  unsigned salt = seed;
  const int graphs = ortho_graph_testing::graphs_for(p, kGraphs);
  for (int g = 0; g < graphs; ++g) {
    const Graph graph = ortho_graph_testing::random_graph(
        shared, p,
        static_cast<Construction>(g % ortho_graph_testing::kConstructions));
    SCOPED_TRACE("graph " + std::to_string(g) + " on " + std::to_string(p) +
                 " processes, rank " + std::to_string(me) + ": " +
                 graph.name());
    const Comm comm = ortho_graph_testing::make_comm(graph, world);
    ortho_graph_testing::expect_lists(comm, graph);
    // Every other graph runs per_peer (blocks of repeated edges share a
    // message), the rest the default choice.
    if (g % 2 == 1) ortho::set_algorithm(comm, "allgatherw=per_peer");
    for (int k = 0; k < kCallsPerGraph; ++k) {
      const Mode mode = ortho_graph_testing::kModes[uniform(shared, 0, 2)];
      salt += kStarts + 1;
      // Every process's block: an even number of ints, sent as MPI_INT or
      // as vectors (shared draws: every receiver knows them).
      const int scale = chance(shared, 10) ? 500 : 1;
      std::vector<int> ints(at(p));
      std::vector<Kind> send_kinds(at(p));
      for (int r = 0; r < p; ++r) {
        ints[at(r)] = 2 * scale * uniform(shared, 0, 3);
        send_kinds[at(r)] = chance(shared, 40) ? Kind::vector : Kind::basic;
      }
      const auto elements = [&](Kind kind, int n) {
        return kind == Kind::vector ? n / 2 : n;
      };
      const auto type_of = [&](Kind kind) {
        return kind == Kind::vector ? vector.get() : MPI_INT;
      };
      const Kind send_kind = send_kinds[at(me)];
      const int send_count = elements(send_kind, ints[at(me)]);
      std::vector<int> send(
          at(send_count * ortho_graph_testing::unit(send_kind)));
      // Receive blocks: each in-neighbour's ints, as MPI_INT or vectors
      // (this process's choice), scattered in the buffer.
      const std::vector<int>& in = graph.in(me);
      std::vector<Kind> recv_kinds;
      std::vector<int> recvcounts;
      std::vector<int> spans;
      std::vector<MPI_Datatype> recv_types;
      for (const int source : in) {
        recv_kinds.push_back(chance(local, 50) ? Kind::vector : Kind::basic);
        recvcounts.push_back(elements(recv_kinds.back(), ints[at(source)]));
        recv_types.push_back(type_of(recv_kinds.back()));
        spans.push_back(recvcounts.back() *
                        ortho_graph_testing::unit(recv_kinds.back()));
      }
      const Layout layout = ortho_graph_testing::scattered(local, spans);
      std::vector<MPI_Aint> rdispls;
      for (const int displ : layout.displs) {
        rdispls.push_back(MPI_Aint{displ} * MPI_Aint{sizeof(int)});
      }
      std::vector<int> recv(at(layout.extent), sentinel<int>());
      const std::string name =
          std::string("allgatherw, ") + ortho_graph_testing::to_string(mode) +
          (send_kind == Kind::vector ? ", sending vectors" : ", sending ints");
      const auto refill = [&](int start) {
        for (std::size_t j = 0; j < send.size(); ++j) {
          send[j] = value<int>(salt + start, me, static_cast<int>(j));
        }
        std::fill(recv.begin(), recv.end(), sentinel<int>());
      };
      refill(0);
      const MPI_Datatype send_type = type_of(send_kind);
      classic::Request request = in_mode(
          mode,
          [&] {
            ortho::allgatherw(comm, send.data(), send_count, send_type,
                              recv.data(), recvcounts, rdispls, recv_types);
          },
          [&] {
            return ortho::iallgatherw(comm, send.data(), send_count, send_type,
                                      recv.data(), recvcounts, rdispls,
                                      recv_types);
          },
          [&] {
            return ortho::allgatherw_init(comm, send.data(), send_count,
                                          send_type, recv.data(), recvcounts,
                                          rdispls, recv_types);
          });
      expect_local(mode, request, in.empty() && graph.out(me).empty(), name);
      ortho_graph_testing::complete(
          mode, request, kStarts, refill, [&](int start) {
            std::vector<int> want(recv.size(), sentinel<int>());
            for (std::size_t i = 0; i < in.size(); ++i) {
              // What the sender's type takes from its buffer, in order ...
              const int source = in[i];
              const Kind kind = send_kinds[at(source)];
              std::vector<int> payload;
              for (const std::size_t offset :
                   touched(kind, elements(kind, ints[at(source)]))) {
                payload.push_back(
                    value<int>(salt + start, source, static_cast<int>(offset)));
              }
              // ... lands where this process's type for the block puts it.
              const std::vector<std::size_t> offsets =
                  touched(recv_kinds[i], recvcounts[i]);
              ASSERT_EQ(offsets.size(), payload.size());
              for (std::size_t j = 0; j < offsets.size(); ++j) {
                want[at(layout.displs[i]) + offsets[j]] = payload[j];
              }
            }
            expect_same_bits(recv, want, when(name, start));
          });
    }
  }
}

}  // namespace
