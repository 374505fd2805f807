// Shared by the directed-graph tests of ortho: random directed multigraphs
// that every process generates alike from a shared seed (so every process
// knows the global edge list and can compute any reference locally), the
// ortho communicator made from them with dist_graph_create_adjacent or
// dist_graph_create, Open MPI's communicator made from the same lists,
// data every process can recompute, block layouts, derived datatypes and
// non-commutative user ops.
#ifndef ORTHOCOMM_TESTS_ORTHO_GRAPH_GRAPH_TESTING_H_
#define ORTHOCOMM_TESTS_ORTHO_GRAPH_GRAPH_TESTING_H_

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "classic/graph/dist_graph.h"
#include "classic/p2p/request.h"
#include "ortho/dist_graph.h"
#include "ortho/structure.h"

namespace ortho_graph_testing {

using Random = std::mt19937;

inline int uniform(Random& random, int low, int high) {
  return std::uniform_int_distribution<int>(low, high)(random);
}

inline bool chance(Random& random, int percent) {
  return uniform(random, 1, 100) <= percent;
}

inline std::size_t at(int index) { return static_cast<std::size_t>(index); }

inline const char* to_string(classic::Mode mode) {
  switch (mode) {
    case classic::Mode::blocking:
      return "blocking";
    case classic::Mode::nonblocking:
      return "non-blocking";
    case classic::Mode::persistent:
      break;
  }
  return "persistent";
}

inline constexpr classic::Mode kModes[] = {classic::Mode::blocking,
                                           classic::Mode::nonblocking,
                                           classic::Mode::persistent};

// Makes a collective call in `mode` with the matching one of three
// callables (f, if, f_init): a null request for blocking, a pending one for
// non-blocking, an inactive one for persistent.
template <class Blocking, class NonBlocking, class Persistent>
classic::Request in_mode(classic::Mode mode, Blocking&& blocking,
                         NonBlocking&& nonblocking, Persistent&& persistent) {
  switch (mode) {
    case classic::Mode::blocking:
      blocking();
      return {};
    case classic::Mode::nonblocking:
      return nonblocking();
    case classic::Mode::persistent:
      break;
  }
  return persistent();
}

// A call made by in_mode returned what its mode says: a pending request
// for non-blocking, an inactive one for persistent.
inline void expect_returned(classic::Mode mode,
                            const classic::Request& request) {
  if (mode == classic::Mode::nonblocking) {
    EXPECT_FALSE(request.is_null()) << "an i-call returned a null request";
  }
  if (mode == classic::Mode::persistent) {
    EXPECT_TRUE(request.is_inactive()) << "an _init call returned a request "
                                          "that is not inactive";
  }
}

// Completes a call made by in_mode and checks it: waits for a blocking or
// non-blocking one and calls verify(0); starts a persistent one `starts`
// times, each start s followed by its completion and verify(s), and each
// but the first preceded by prepare(s) (new contents in the same buffers;
// the caller prepared start 0 before the call).
template <class Prepare, class Verify>
void complete(classic::Mode mode, classic::Request& request, int starts,
              Prepare&& prepare, Verify&& verify) {
  if (mode != classic::Mode::persistent) {
    classic::wait(request);
    verify(0);
    return;
  }
  for (int start = 0; start < starts; ++start) {
    if (start > 0) prepare(start);
    classic::start(request);
    classic::wait(request);
    EXPECT_TRUE(request.is_inactive());
    verify(start);
  }
}

// ---- random directed multigraphs --------------------------------------------

struct Edge {
  int from;
  int to;
  int weight;
};

// How the communicator is made: ortho::dist_graph_create_adjacent (each
// process lists its own neighbours) or ortho::dist_graph_create (edges
// given by random processes), weighted or not.
enum class Construction {
  adjacent_weighted,
  adjacent_unweighted,
  general_weighted,
  general_unweighted,
};
inline constexpr int kConstructions = 4;

// How many random graphs a test runs at `processes`: `up_to_four` up to 4
// processes, half as many above, where each graph holds as many
// neighbourhoods as processes (so a call checks about as many as at 4) and
// a call costs most on two cores.
inline int graphs_for(int processes, int up_to_four) {
  return processes <= 4 ? up_to_four : up_to_four / 2;
}

inline const char* to_string(Construction construction) {
  switch (construction) {
    case Construction::adjacent_weighted:
      return "dist_graph_create_adjacent (weighted)";
    case Construction::adjacent_unweighted:
      return "dist_graph_create_adjacent (unweighted)";
    case Construction::general_weighted:
      return "dist_graph_create (weighted)";
    case Construction::general_unweighted:
      break;
  }
  return "dist_graph_create (unweighted)";
}

inline bool weighted(Construction construction) {
  return construction == Construction::adjacent_weighted ||
         construction == Construction::general_weighted;
}

inline bool adjacent(Construction construction) {
  return construction == Construction::adjacent_weighted ||
         construction == Construction::adjacent_unweighted;
}

// A directed multigraph on `size` processes, known to every process: its
// edges and, per rank, the neighbour lists in the order the communicator
// gives them (for dist_graph_create, the documented order: by the rank that
// gave the edge, then by its position in that process's destinations).
struct Graph {
  int size = 0;
  Construction construction = Construction::adjacent_weighted;
  std::vector<Edge> edges;
  std::vector<std::vector<int>> sources;
  std::vector<std::vector<int>> source_weights;
  std::vector<std::vector<int>> destinations;
  std::vector<std::vector<int>> destination_weights;
  // dist_graph_create: what each process passes.
  std::vector<std::vector<int>> given_sources;
  std::vector<std::vector<int>> given_degrees;
  std::vector<std::vector<int>> given_destinations;
  std::vector<std::vector<int>> given_weights;

  const std::vector<int>& in(int rank) const { return sources[at(rank)]; }
  const std::vector<int>& out(int rank) const { return destinations[at(rank)]; }
  int indegree(int rank) const { return static_cast<int>(in(rank).size()); }
  int outdegree(int rank) const { return static_cast<int>(out(rank).size()); }

  std::string name() const {
    std::string text = std::string(to_string(construction)) + " with " +
                       std::to_string(edges.size()) + " edges:";
    for (const Edge& e : edges) {
      text += " " + std::to_string(e.from) + "->" + std::to_string(e.to);
    }
    return text;
  }
};

// The random edges: some processes send nothing (empty out-neighbourhood),
// some receive nothing, about one edge in seven is a self loop, about one in
// five is repeated; weights in [0, 9]; sometimes no edge at all, now and
// then twice as many as usual.
inline std::vector<Edge> random_edges(Random& shared, int size) {
  std::vector<int> senders;
  std::vector<int> receivers;
  for (int r = 0; r < size; ++r) {
    if (!chance(shared, 20)) senders.push_back(r);
    if (!chance(shared, 20)) receivers.push_back(r);
  }
  std::vector<Edge> edges;
  if (senders.empty() || receivers.empty() || chance(shared, 4)) return edges;
  const int count =
      uniform(shared, 1, chance(shared, 25) ? 6 * size : 3 * size + 1);
  const auto pick = [&](const std::vector<int>& ranks) {
    return ranks[at(uniform(shared, 0, static_cast<int>(ranks.size()) - 1))];
  };
  for (int e = 0; e < count; ++e) {
    const int from = pick(senders);
    const bool self = std::find(receivers.begin(), receivers.end(), from) !=
                          receivers.end() &&
                      chance(shared, 15);
    const int to = self ? from : pick(receivers);
    edges.push_back({from, to, uniform(shared, 0, 9)});
    if (chance(shared, 20)) edges.push_back({from, to, uniform(shared, 0, 9)});
  }
  std::shuffle(edges.begin(), edges.end(), shared);
  return edges;
}

// Fills the neighbour lists of `graph` from its edges taken in `order`
// (indices into graph.edges): each edge at the end of its source's
// destinations and of its destination's sources.
inline void fill_lists(Graph& graph, const std::vector<std::size_t>& order) {
  const auto n = at(graph.size);
  graph.sources.assign(n, {});
  graph.source_weights.assign(n, {});
  graph.destinations.assign(n, {});
  graph.destination_weights.assign(n, {});
  const bool with_weights = weighted(graph.construction);
  for (const std::size_t index : order) {
    const Edge& e = graph.edges[index];
    graph.destinations[at(e.from)].push_back(e.to);
    graph.sources[at(e.to)].push_back(e.from);
    if (with_weights) {
      graph.destination_weights[at(e.from)].push_back(e.weight);
      graph.source_weights[at(e.to)].push_back(e.weight);
    }
  }
}

// dist_graph_create's arguments: each edge is given by a random process;
// a process lists its edges in runs of one source (a source may come back
// in a later run; now and then a run of degree 0).
inline void give_edges(Graph& graph, Random& shared) {
  const auto n = at(graph.size);
  graph.given_sources.assign(n, {});
  graph.given_degrees.assign(n, {});
  graph.given_destinations.assign(n, {});
  graph.given_weights.assign(n, {});
  std::vector<std::vector<std::size_t>> given(n);
  for (std::size_t e = 0; e < graph.edges.size(); ++e) {
    given[at(uniform(shared, 0, graph.size - 1))].push_back(e);
  }
  // (giver, position in the giver's destinations) of every edge.
  std::vector<std::pair<int, int>> where(graph.edges.size());
  for (std::size_t g = 0; g < n; ++g) {
    std::vector<std::size_t>& mine = given[g];
    std::shuffle(mine.begin(), mine.end(), shared);
    if (chance(shared, 40)) {
      std::stable_sort(mine.begin(), mine.end(),
                       [&](std::size_t a, std::size_t b) {
                         return graph.edges[a].from < graph.edges[b].from;
                       });
    }
    int position = 0;
    for (const std::size_t e : mine) {
      const Edge& edge = graph.edges[e];
      if (chance(shared, 10)) {  // a source without edges
        graph.given_sources[g].push_back(uniform(shared, 0, graph.size - 1));
        graph.given_degrees[g].push_back(0);
      }
      if (graph.given_sources[g].empty() ||
          graph.given_sources[g].back() != edge.from ||
          graph.given_degrees[g].back() == 0 || chance(shared, 20)) {
        graph.given_sources[g].push_back(edge.from);
        graph.given_degrees[g].push_back(0);
      }
      ++graph.given_degrees[g].back();
      graph.given_destinations[g].push_back(edge.to);
      graph.given_weights[g].push_back(edge.weight);
      where[e] = {static_cast<int>(g), position++};
    }
  }
  std::vector<std::size_t> order(graph.edges.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return where[a] < where[b]; });
  fill_lists(graph, order);
}

// A random graph made the given way; for the adjacent constructor each
// process's lists come in a random order.
inline Graph random_graph(Random& shared, int size, Construction construction) {
  Graph graph;
  graph.size = size;
  graph.construction = construction;
  graph.edges = random_edges(shared, size);
  if (adjacent(construction)) {
    std::vector<std::size_t> order(graph.edges.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::shuffle(order.begin(), order.end(), shared);
    fill_lists(graph, order);
  } else {
    give_edges(graph, shared);
  }
  return graph;
}

// A graph from an edge list, made with dist_graph_create_adjacent
// (unweighted), lists in edge order.
inline Graph graph_of(int size, std::vector<Edge> edges) {
  Graph graph;
  graph.size = size;
  graph.construction = Construction::adjacent_unweighted;
  graph.edges = std::move(edges);
  std::vector<std::size_t> order(graph.edges.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  fill_lists(graph, order);
  return graph;
}

// `graph` with every edge turned around: each process's sources are its
// destinations and the other way round (what ortho::reverse runs on).
inline Graph transposed(const Graph& graph) {
  Graph result = graph;
  std::swap(result.sources, result.destinations);
  std::swap(result.source_weights, result.destination_weights);
  for (Edge& edge : result.edges) std::swap(edge.from, edge.to);
  return result;
}

// The ortho communicator of `graph` over `comm` (reorder off).
inline classic::Comm make_comm(const Graph& graph, const classic::Comm& comm) {
  const auto me = at(comm.rank());
  switch (graph.construction) {
    case Construction::adjacent_weighted:
      return ortho::dist_graph_create_adjacent(
          comm, graph.sources[me], graph.source_weights[me],
          graph.destinations[me], graph.destination_weights[me]);
    case Construction::adjacent_unweighted:
      return ortho::dist_graph_create_adjacent(
          comm, graph.sources[me], classic::unweighted, graph.destinations[me],
          classic::unweighted);
    case Construction::general_weighted:
      return ortho::dist_graph_create(
          comm, graph.given_sources[me], graph.given_degrees[me],
          graph.given_destinations[me], graph.given_weights[me]);
    case Construction::general_unweighted:
      break;
  }
  return ortho::dist_graph_create(
      comm, graph.given_sources[me], graph.given_degrees[me],
      graph.given_destinations[me], classic::unweighted);
}

// The communicator is a directed graph with the caller's lists of `graph`.
inline void expect_lists(const classic::Comm& comm, const Graph& graph) {
  ASSERT_EQ(ortho::topo_test(comm), ortho::Structure::directed_graph);
  const auto me = at(comm.rank());
  const classic::DistGraphNeighbors got = classic::dist_graph_neighbors(comm);
  EXPECT_EQ(got.sources, graph.sources[me]);
  EXPECT_EQ(got.destinations, graph.destinations[me]);
  EXPECT_EQ(got.source_weights, graph.source_weights[me]);
  EXPECT_EQ(got.destination_weights, graph.destination_weights[me]);
}

// For each receive slot i of `rank` (its i-th source s): the send block of
// s that arrives there. MPI pairs the k-th time s appears among rank's
// sources with the k-th time rank appears among s's destinations.
inline std::vector<int> paired_blocks(const Graph& graph, int rank) {
  const std::vector<int>& in = graph.in(rank);
  std::vector<int> blocks(in.size(), -1);
  for (std::size_t slot = 0; slot < in.size(); ++slot) {
    const int sender = in[slot];
    const auto k = std::count(
        in.begin(), in.begin() + static_cast<std::ptrdiff_t>(slot), sender);
    const std::vector<int>& theirs = graph.out(sender);
    std::ptrdiff_t seen = 0;
    for (std::size_t b = 0; b < theirs.size(); ++b) {
      if (theirs[b] == rank && seen++ == k) {
        blocks[slot] = static_cast<int>(b);
        break;
      }
    }
  }
  return blocks;
}

// ---- Open MPI's communicator from the same lists ----------------------------

// Open MPI 4.1 refuses null arrays even where a process has no neighbours;
// an empty vector's data() may be null.
template <typename U>
const U* array(const std::vector<U>& values) {
  static const U kNone{};
  return values.empty() ? &kNone : values.data();
}

// MPI_Dist_graph_create_adjacent over MPI_COMM_WORLD (reorder off) with the
// lists (and weights) that `comm` reports, returning errors.
class OpenMpiGraph {
 public:
  explicit OpenMpiGraph(const classic::Comm& comm) {
    const classic::DistGraphNeighbors n = classic::dist_graph_neighbors(comm);
    const bool with_weights =
        classic::dist_graph_neighbors_count(comm).weighted;
    MPI_Dist_graph_create_adjacent(
        MPI_COMM_WORLD, static_cast<int>(n.sources.size()), array(n.sources),
        with_weights ? array(n.source_weights) : MPI_UNWEIGHTED,
        static_cast<int>(n.destinations.size()), array(n.destinations),
        with_weights ? array(n.destination_weights) : MPI_UNWEIGHTED,
        MPI_INFO_NULL, 0, &comm_);
    EXPECT_NE(comm_, MPI_COMM_NULL);
    if (comm_ != MPI_COMM_NULL) {
      MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
    }
  }
  OpenMpiGraph(const OpenMpiGraph&) = delete;
  OpenMpiGraph& operator=(const OpenMpiGraph&) = delete;
  ~OpenMpiGraph() {
    if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
  }
  // The same, unweighted, with `rank`'s lists of `graph` (e.g. a
  // transposed one).
  OpenMpiGraph(const Graph& graph, int rank) {
    const std::vector<int>& sources = graph.in(rank);
    const std::vector<int>& destinations = graph.out(rank);
    MPI_Dist_graph_create_adjacent(
        MPI_COMM_WORLD, static_cast<int>(sources.size()), array(sources),
        MPI_UNWEIGHTED, static_cast<int>(destinations.size()),
        array(destinations), MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &comm_);
    EXPECT_NE(comm_, MPI_COMM_NULL);
    if (comm_ != MPI_COMM_NULL) {
      MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
    }
  }
  MPI_Comm get() const { return comm_; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
};

// ---- data every process can recompute ---------------------------------------

inline std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Any 32 bits, a function of (salt, rank, index) alone: what process `rank`
// holds at `index` in the call numbered `salt`.
inline int bits(unsigned salt, int rank, int index) {
  const std::uint64_t h =
      mix(mix(mix(salt) + static_cast<std::uint64_t>(rank)) +
          static_cast<std::uint64_t>(index));
  return static_cast<int>(static_cast<std::uint32_t>(h));
}

// A small value (in [-1000, 1000]) from the same draw: sums over a few
// dozen operands stay exact in int and double.
inline int datum(unsigned salt, int rank, int index) {
  return static_cast<int>(static_cast<std::uint32_t>(bits(salt, rank, index)) %
                          2001u) -
         1000;
}

template <typename T>
T value(unsigned salt, int rank, int index) {
  return static_cast<T>(datum(salt, rank, index));
}

// What receive buffers hold before a call: no datum equals it.
template <typename T>
T sentinel() {
  return static_cast<T>(-77777);
}

// Compares two buffers bit for bit, naming the first element that differs.
template <typename T>
void expect_same_bits(const std::vector<T>& got, const std::vector<T>& want,
                      const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  if (got.empty()) return;
  if (std::memcmp(got.data(), want.data(), got.size() * sizeof(T)) == 0) {
    return;
  }
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0) {
      ADD_FAILURE() << what << ": element " << i << " of " << got.size()
                    << " is " << got[i] << ", expected " << want[i];
      return;
    }
  }
}

// ---- block layouts ----------------------------------------------------------

// Blocks of the given sizes in one buffer, in a random order with random
// gaps (0-2 units) before each and at the end; extent: the buffer's size.
struct Layout {
  std::vector<int> sizes;
  std::vector<int> displs;
  int extent = 0;
};

inline Layout scattered(Random& random, std::vector<int> sizes) {
  Layout layout{std::move(sizes), {}, 0};
  layout.displs.resize(layout.sizes.size());
  std::vector<std::size_t> order(layout.sizes.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::shuffle(order.begin(), order.end(), random);
  for (const std::size_t block : order) {
    layout.extent += uniform(random, 0, 2);
    layout.displs[block] = layout.extent;
    layout.extent += layout.sizes[block];
  }
  layout.extent += uniform(random, 0, 2);
  return layout;
}

// ---- datatypes --------------------------------------------------------------

// How elements of a raw call's datatype lie in a buffer of ints (or of T
// for basic types): `basic` one per element; `vector` (VectorType) two
// ints three apart in an extent of four; `matrix` (MatrixType) four
// consecutive ints.
enum class Kind { basic, vector, matrix };

inline int unit(Kind kind) { return kind == Kind::basic ? 1 : 4; }

// The offsets (in elements of the buffer, from a block's start) that
// `count` elements of `kind` occupy, in the order they travel.
inline std::vector<std::size_t> touched(Kind kind, int count) {
  std::vector<std::size_t> offsets;
  for (int j = 0; j < count; ++j) {
    const auto base = at(unit(kind) * j);
    switch (kind) {
      case Kind::basic:
        offsets.push_back(base);
        break;
      case Kind::vector:
        offsets.push_back(base);
        offsets.push_back(base + 3);
        break;
      case Kind::matrix:
        for (std::size_t k = 0; k < 4; ++k) offsets.push_back(base + k);
        break;
    }
  }
  return offsets;
}

// An MPI datatype made and committed for a test, freed with it.
class OwnedType {
 public:
  OwnedType(const OwnedType&) = delete;
  OwnedType& operator=(const OwnedType&) = delete;
  ~OwnedType() {
    if (type_ != MPI_DATATYPE_NULL) MPI_Type_free(&type_);
  }
  MPI_Datatype get() const { return type_; }

 protected:
  OwnedType() = default;
  void commit() { MPI_Type_commit(&type_); }
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

// Two ints three apart: extent four ints, moves two.
class VectorType : public OwnedType {
 public:
  VectorType() {
    MPI_Type_vector(2, 1, 3, MPI_INT, &type_);
    commit();
  }
};

// A 2x2 matrix of ints, row by row.
class MatrixType : public OwnedType {
 public:
  MatrixType() {
    MPI_Type_contiguous(4, MPI_INT, &type_);
    commit();
  }
};

// ---- non-commutative user ops -----------------------------------------------

// An int as the affine map t -> a t + b on 16-bit integers (a: the high
// half, b: the low half); x op y = x after y (composition: associative, not
// commutative).
inline int compose_affine(int x, int y) {
  const auto ux = static_cast<std::uint32_t>(x);
  const auto uy = static_cast<std::uint32_t>(y);
  const std::uint32_t a1 = ux >> 16, b1 = ux & 0xffffu;
  const std::uint32_t a2 = uy >> 16, b2 = uy & 0xffffu;
  const std::uint32_t a = (a1 * a2) & 0xffffu;
  const std::uint32_t b = (a1 * b2 + b1) & 0xffffu;
  return static_cast<int>((a << 16) | b);
}

// 2x2 matrices of ints multiplied modulo 2^32: c = x * y.
inline void multiply_matrices(const int* x, const int* y, int* c) {
  std::uint32_t ux[4], uy[4];
  for (int k = 0; k < 4; ++k) {
    ux[k] = static_cast<std::uint32_t>(x[k]);
    uy[k] = static_cast<std::uint32_t>(y[k]);
  }
  const std::uint32_t r[4] = {
      ux[0] * uy[0] + ux[1] * uy[2], ux[0] * uy[1] + ux[1] * uy[3],
      ux[2] * uy[0] + ux[3] * uy[2], ux[2] * uy[1] + ux[3] * uy[3]};
  for (int k = 0; k < 4; ++k) c[k] = static_cast<int>(r[k]);
}

// MPI's user function contract: inout[i] = in[i] op inout[i].
inline void affine_function(void* in, void* inout, int* len,
                            MPI_Datatype* /*datatype*/) {
  const int* x = static_cast<const int*>(in);
  int* y = static_cast<int*>(inout);
  for (int i = 0; i < *len; ++i) y[i] = compose_affine(x[i], y[i]);
}

// On MatrixType elements (or ints, four per matrix).
inline void matrix_function(void* in, void* inout, int* len,
                            MPI_Datatype* datatype) {
  const std::ptrdiff_t matrices = *datatype == MPI_INT ? *len / 4 : *len;
  const int* x = static_cast<const int*>(in);
  int* y = static_cast<int*>(inout);
  for (std::ptrdiff_t m = 0; m < matrices; ++m) {
    std::array<int, 4> product{};
    multiply_matrices(x + 4 * m, y + 4 * m, product.data());
    std::copy(product.begin(), product.end(), y + 4 * m);
  }
}

// An op made with MPI_Op_create (not commutative), freed with the test.
class UserOp {
 public:
  explicit UserOp(MPI_User_function* function) {
    MPI_Op_create(function, /*commute=*/0, &op_);
  }
  UserOp(const UserOp&) = delete;
  UserOp& operator=(const UserOp&) = delete;
  ~UserOp() {
    if (op_ != MPI_OP_NULL) MPI_Op_free(&op_);
  }
  MPI_Op get() const { return op_; }

 private:
  MPI_Op op_ = MPI_OP_NULL;
};

// ---- reductions and their references ----------------------------------------

// The reductions tested: three predefined ops, and two associative,
// non-commutative user ops (on ints only; matrix only raw, on MatrixType).
enum class Reduction { sum, max, min, affine, matrix };

inline const char* to_string(Reduction reduction) {
  static const char* const kNames[] = {"MPI_SUM", "MPI_MAX", "MPI_MIN",
                                       "affine maps (user op)",
                                       "2x2 matrices (user op)"};
  return kNames[static_cast<int>(reduction)];
}

inline bool is_user(Reduction reduction) {
  return reduction == Reduction::affine || reduction == Reduction::matrix;
}

// What process `rank` contributes at `index` in the call of `salt`: small
// values for the predefined ops (exact sums), any bits for the user ops.
template <typename T>
T operand(Reduction reduction, unsigned salt, int rank, int index) {
  if (is_user(reduction)) return static_cast<T>(bits(salt, rank, index));
  return value<T>(salt, rank, index);
}

template <typename T>
std::vector<T> operands(Reduction reduction, std::size_t n, unsigned salt,
                        int rank) {
  std::vector<T> result(n);
  for (std::size_t j = 0; j < n; ++j) {
    result[j] = operand<T>(reduction, salt, rank, static_cast<int>(j));
  }
  return result;
}

// x op y, element by element (matrix: four ints at a time).
template <typename T>
std::vector<T> combine(Reduction reduction, const std::vector<T>& x,
                       const std::vector<T>& y) {
  std::vector<T> z(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    switch (reduction) {
      case Reduction::sum:
        z[i] = x[i] + y[i];
        break;
      case Reduction::max:
        z[i] = std::max(x[i], y[i]);
        break;
      case Reduction::min:
        z[i] = std::min(x[i], y[i]);
        break;
      case Reduction::affine:
        if constexpr (std::is_same_v<T, int>) z[i] = compose_affine(x[i], y[i]);
        break;
      case Reduction::matrix:
        if constexpr (std::is_same_v<T, int>) {
          if (i % 4 == 0) multiply_matrices(&x[i], &y[i], &z[i]);
        }
        break;
    }
  }
  return z;
}

// s_0 op s_1 op ... op s_{k-1} (k >= 1), in that order.
template <typename T>
std::vector<T> fold(Reduction reduction, const std::vector<std::vector<T>>& s) {
  std::vector<T> result = s.front();
  for (std::size_t i = 1; i < s.size(); ++i) {
    result = combine(reduction, result, s[i]);
  }
  return result;
}

// The same operands folded from the last to the first: for a test to show
// that it tells the two orders apart.
template <typename T>
std::vector<T> fold_reversed(Reduction reduction,
                             std::vector<std::vector<T>> s) {
  std::reverse(s.begin(), s.end());
  return fold(reduction, s);
}

// The MPI ops of the reductions, user ops created here.
class Ops {
 public:
  Ops() : affine_(&affine_function), matrix_(&matrix_function) {}
  MPI_Op get(Reduction reduction) const {
    switch (reduction) {
      case Reduction::sum:
        return MPI_SUM;
      case Reduction::max:
        return MPI_MAX;
      case Reduction::min:
        return MPI_MIN;
      case Reduction::affine:
        return affine_.get();
      case Reduction::matrix:
        break;
    }
    return matrix_.get();
  }

 private:
  UserOp affine_;
  UserOp matrix_;
};

}  // namespace ortho_graph_testing

#endif  // ORTHOCOMM_TESTS_ORTHO_GRAPH_GRAPH_TESTING_H_
