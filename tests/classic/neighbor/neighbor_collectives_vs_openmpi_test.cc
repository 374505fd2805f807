// Differential tests: classic's neighbourhood collectives against Open
// MPI's MPI_Neighbor_* and MPI_Ineighbor_* on the same topologies (Open
// MPI's MPI_Cart_create, MPI_Graph_create and
// MPI_Dist_graph_create_adjacent over MPI_COMM_WORLD with reorder off, which
// number the processes as classic's communicators do): random Cartesian
// grids of mixed periodicity, random graphs with repeated edges and
// self-loops, random distributed graphs; random counts, layouts and
// element types (int, double, and for alltoallw a derived vector type).
//
// Where Open MPI deviates from the standard the standard is the oracle and
// the deviation is asserted exactly (see OpenMpiNonBlockingDeviation...):
// Open MPI 4.1's non-blocking neighbourhood alltoall, alltoallv and
// alltoallw (coll/libnbc) pair the blocks of a periodic dimension of size 1
// or 2 in posting order, so block 2d lands in the neighbour's block 2d
// instead of 2d + 1 (MPI-4.1 section 8.6): the two blocks of that dimension
// come out swapped. Its blocking ones (coll/basic) follow the standard.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "classic/base/constants.h"
#include "classic/comm/comm.h"
#include "classic/neighbor/internal/neighbor_lists.h"
#include "classic/neighbor/neighbor_collectives.h"
#include "classic/p2p/request.h"
#include "tests/classic/testing/neighbor_testing.h"

namespace classic {
namespace {

using testing_neighbor::Kind;
using testing_neighbor::Origin;
using testing_neighbor::Random;
using testing_neighbor::uniform;
using testing_neighbor::WorldTopology;

constexpr unsigned kSeed = 0x4e16b0u;

class NeighborVsOpenMpi : public ::testing::Test {
 protected:
  void TearDown() override { MPI_Barrier(MPI_COMM_WORLD); }
};

int world_size() { return Comm::world().size(); }

// ---- topologies on both sides
// -------------------------------------------------

// Open MPI 4.1 refuses null count, displacement and datatype arrays even
// where a process has no neighbours; an empty vector's data() may be null.
template <typename U>
const U* array(const std::vector<U>& values) {
  static const U kNone{};
  return values.empty() ? &kNone : values.data();
}

// Open MPI's communicator for `world` over MPI_COMM_WORLD, reorder off,
// returning errors instead of aborting.
class OpenMpiComm {
 public:
  explicit OpenMpiComm(const WorldTopology& world) {
    const int rank = Comm::world().rank();
    switch (world.kind) {
      case Kind::cartesian: {
        std::vector<int> periods(world.periods.begin(), world.periods.end());
        MPI_Cart_create(MPI_COMM_WORLD, static_cast<int>(world.dims.size()),
                        world.dims.data(), periods.data(), 0, &comm_);
        break;
      }
      case Kind::graph: {
        // Open MPI refuses a null edges array even with no edges.
        int no_edge = 0;
        MPI_Graph_create(MPI_COMM_WORLD, static_cast<int>(world.index.size()),
                         world.index.data(),
                         world.edges.empty() ? &no_edge : world.edges.data(), 0,
                         &comm_);
        break;
      }
      case Kind::dist_graph: {
        const std::vector<int>& in =
            world.sources[static_cast<std::size_t>(rank)];
        const std::vector<int>& out =
            world.destinations[static_cast<std::size_t>(rank)];
        MPI_Dist_graph_create_adjacent(
            MPI_COMM_WORLD, static_cast<int>(in.size()), array(in),
            MPI_UNWEIGHTED, static_cast<int>(out.size()), array(out),
            MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &comm_);
        break;
      }
    }
    EXPECT_NE(comm_, MPI_COMM_NULL) << "Open MPI made no " << world.name;
    if (comm_ != MPI_COMM_NULL) {
      MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
    }
  }
  OpenMpiComm(const OpenMpiComm&) = delete;
  OpenMpiComm& operator=(const OpenMpiComm&) = delete;
  ~OpenMpiComm() {
    if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
  }

  MPI_Comm get() const { return comm_; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
};

WorldTopology random_grid(Random& shared, int size) {
  const int ndims = uniform(shared, 1, 3);
  std::vector<std::vector<int>> grids;
  std::vector<int> prefix;
  testing_neighbor::factorisations(size, ndims, prefix, grids);
  const std::vector<int> dims = grids[static_cast<std::size_t>(
      uniform(shared, 0, static_cast<int>(grids.size()) - 1))];
  const auto bits = static_cast<unsigned>(uniform(shared, 0, 7));
  return testing_neighbor::cartesian(
      dims, testing_neighbor::periods_of(bits, dims.size()));
}

WorldTopology random_topology(Random& shared, int size, int which) {
  switch (which % 3) {
    case 0:
      return random_grid(shared, size);
    case 1:
      return testing_neighbor::random_graph(shared, size);
    default:
      return testing_neighbor::random_dist_graph(shared, size);
  }
}

// The dimensions whose two blocks Open MPI's non-blocking alltoall(v, w)
// swap: periodic ones of size 1 or 2.
std::vector<std::size_t> swapping_dims(const WorldTopology& world) {
  std::vector<std::size_t> dims;
  if (world.kind != Kind::cartesian) return dims;
  for (std::size_t d = 0; d < world.dims.size(); ++d) {
    if (world.periods[d] && world.dims[d] <= 2) dims.push_back(d);
  }
  return dims;
}

// Open MPI's neighbour lists of the calling process, proc_null as classic's.
internal::NeighborLists openmpi_lists(MPI_Comm comm, Kind kind) {
  internal::NeighborLists lists;
  const auto classic_rank = [](int r) {
    return r == MPI_PROC_NULL ? proc_null : r;
  };
  if (kind == Kind::cartesian) {
    int ndims = 0;
    MPI_Cartdim_get(comm, &ndims);
    for (int d = 0; d < ndims; ++d) {
      int source = MPI_PROC_NULL;
      int destination = MPI_PROC_NULL;
      MPI_Cart_shift(comm, d, 1, &source, &destination);
      lists.sources.push_back(classic_rank(source));
      lists.sources.push_back(classic_rank(destination));
    }
    lists.destinations = lists.sources;
  } else if (kind == Kind::graph) {
    int rank = 0;
    int count = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Graph_neighbors_count(comm, rank, &count);
    lists.sources.resize(static_cast<std::size_t>(count));
    MPI_Graph_neighbors(comm, rank, count, lists.sources.data());
    lists.destinations = lists.sources;
  } else {
    int in = 0;
    int out = 0;
    int weighted = 0;
    MPI_Dist_graph_neighbors_count(comm, &in, &out, &weighted);
    lists.sources.resize(static_cast<std::size_t>(in));
    lists.destinations.resize(static_cast<std::size_t>(out));
    MPI_Dist_graph_neighbors(comm, in, lists.sources.data(), MPI_UNWEIGHTED,
                             out, lists.destinations.data(), MPI_UNWEIGHTED);
  }
  return lists;
}

// ---- one call's arguments
// -----------------------------------------------------

enum class Op { allgather, allgatherv, alltoall, alltoallv, alltoallw };
constexpr int kOps = 5;
enum class Form { typed, raw };

const char* op_name(Op op) {
  static const char* const kNames[] = {"allgather", "allgatherv", "alltoall",
                                       "alltoallv", "alltoallw"};
  return kNames[static_cast<int>(op)];
}

// A receive block: `size` elements at `begin` of the receive buffer.
struct Region {
  int begin;
  int size;
};

// The arguments of one neighbourhood collective on the calling process.
// For alltoallw, T is int, counts are in units of each block's datatype,
// and displacements in bytes.
template <typename T>
struct Call {
  Op op = Op::allgather;
  Form form = Form::raw;
  MPI_Datatype datatype = MPI_DATATYPE_NULL;
  std::vector<T> send;
  int count = 0;  // allgather, alltoall; allgatherv's send count
  std::vector<int> sendcounts, sdispls, recvcounts, rdispls;
  std::vector<MPI_Aint> sbytes, rbytes;              // alltoallw
  std::vector<MPI_Datatype> send_types, recv_types;  // alltoallw
  std::size_t recv_extent = 0;
  std::vector<Region> slots;  // receive blocks, for Open MPI's swap
};

template <typename T>
T sentinel() {
  return static_cast<T>(-1);
}

template <typename T>
std::vector<T> data(Random& local, std::size_t n) {
  std::vector<T> values(n);
  for (T& v : values) v = static_cast<T>(uniform(local, 0, 1000000)) / T{8};
  return values;
}

// For each process s and send block b: how many elements it sends (shared
// draws, so every process knows them). `pair_up` makes the two blocks of
// Open MPI's swapping dimensions equal.
std::vector<std::vector<int>> block_sizes(
    const WorldTopology& world, Random& shared, int low, int high,
    const std::vector<std::size_t>& pair) {
  std::vector<std::vector<int>> sizes;
  for (const std::vector<int>& destinations : world.destinations) {
    std::vector<int> mine;
    for (std::size_t b = 0; b < destinations.size(); ++b) {
      mine.push_back(uniform(shared, low, high));
    }
    for (const std::size_t d : pair) mine[2 * d + 1] = mine[2 * d];
    sizes.push_back(mine);
  }
  return sizes;
}

// What arrives in each receive block (proc_null: a random size, untouched).
std::vector<int> arriving(const std::vector<Origin>& origins,
                          const std::vector<std::vector<int>>& sizes,
                          Random& local, bool by_sender) {
  std::vector<int> result;
  for (const Origin& o : origins) {
    if (o.sender == proc_null) {
      result.push_back(uniform(local, 0, 3));
    } else {
      const auto& theirs = sizes[static_cast<std::size_t>(o.sender)];
      result.push_back(by_sender ? theirs[0]
                                 : theirs[static_cast<std::size_t>(o.block)]);
    }
  }
  return result;
}

std::vector<Region> consecutive_slots(std::size_t blocks, int count) {
  std::vector<Region> slots;
  for (std::size_t i = 0; i < blocks; ++i) {
    slots.push_back({static_cast<int>(i) * count, count});
  }
  return slots;
}

std::vector<Region> placed_slots(const testing_neighbor::Layout& layout) {
  std::vector<Region> slots;
  for (std::size_t i = 0; i < layout.sizes.size(); ++i) {
    slots.push_back({layout.displs[i], layout.sizes[i]});
  }
  return slots;
}

template <typename T>
Call<T> draw_call(Op op, const WorldTopology& world, int rank, Random& shared,
                  Random& local) {
  Call<T> call;
  call.op = op;
  call.form = uniform(shared, 0, 1) == 0 ? Form::typed : Form::raw;
  call.datatype = datatype_of<T>();
  const auto me = static_cast<std::size_t>(rank);
  const std::size_t in = world.sources[me].size();
  const std::size_t out = world.destinations[me].size();
  const std::vector<Origin> origins = testing_neighbor::origins(world, rank);
  const std::vector<std::size_t> pair = swapping_dims(world);
  switch (op) {
    case Op::allgather:
    case Op::alltoall: {
      call.count = uniform(shared, 0, 3);
      const std::size_t blocks = op == Op::allgather ? 1 : out;
      call.send = data<T>(local, blocks * static_cast<std::size_t>(call.count));
      call.recv_extent = in * static_cast<std::size_t>(call.count);
      call.slots = consecutive_slots(in, call.count);
      break;
    }
    case Op::allgatherv: {
      std::vector<std::vector<int>> sizes;
      for (std::size_t s = 0; s < world.sources.size(); ++s) {
        sizes.push_back({uniform(shared, 0, 4)});
      }
      call.count = sizes[me][0];
      call.send = data<T>(local, static_cast<std::size_t>(call.count));
      const testing_neighbor::Layout layout = testing_neighbor::scattered(
          local, arriving(origins, sizes, local, true));
      call.recvcounts = layout.sizes;
      call.rdispls = layout.displs;
      call.recv_extent = static_cast<std::size_t>(layout.extent);
      call.slots = placed_slots(layout);
      break;
    }
    case Op::alltoallv: {
      const auto sizes = block_sizes(world, shared, 0, 4, pair);
      const testing_neighbor::Layout sends =
          testing_neighbor::scattered(local, sizes[me]);
      call.sendcounts = sends.sizes;
      call.sdispls = sends.displs;
      call.send = data<T>(local, static_cast<std::size_t>(sends.extent));
      const testing_neighbor::Layout receives = testing_neighbor::scattered(
          local, arriving(origins, sizes, local, false));
      call.recvcounts = receives.sizes;
      call.rdispls = receives.displs;
      call.recv_extent = static_cast<std::size_t>(receives.extent);
      call.slots = placed_slots(receives);
      break;
    }
    case Op::alltoallw:
      break;  // draw_alltoallw
  }
  return call;
}

// ---- alltoallw with a derived datatype
// ----------------------------------------

// Two ints three apart: a vector of extent 4 ints that moves 2.
class VectorType {
 public:
  VectorType() {
    MPI_Type_vector(2, 1, 3, MPI_INT, &type_);
    MPI_Type_commit(&type_);
  }
  VectorType(const VectorType&) = delete;
  VectorType& operator=(const VectorType&) = delete;
  ~VectorType() { MPI_Type_free(&type_); }
  MPI_Datatype get() const { return type_; }

 private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

// A block of `ints` ints (even) as MPI_INT or as vectors: its datatype,
// count and span in ints.
struct WBlock {
  MPI_Datatype type;
  int count;
  int span;
};

WBlock w_block(int ints, bool as_vector, MPI_Datatype vector) {
  if (as_vector) return {vector, ints / 2, 4 * (ints / 2)};
  return {MPI_INT, ints, ints};
}

Call<int> draw_alltoallw(const WorldTopology& world, int rank, Random& shared,
                         Random& local, MPI_Datatype vector) {
  Call<int> call;
  call.op = Op::alltoallw;
  const auto me = static_cast<std::size_t>(rank);
  const std::vector<Origin> origins = testing_neighbor::origins(world, rank);
  const std::vector<std::size_t> pair = swapping_dims(world);
  auto sizes = block_sizes(world, shared, 0, 3, pair);
  for (auto& mine : sizes) {
    for (int& k : mine) k *= 2;  // even: whole vectors
  }
  std::vector<WBlock> sends;
  std::vector<int> spans;
  for (const int ints : sizes[me]) {
    sends.push_back(w_block(ints, uniform(local, 0, 1) == 1, vector));
    spans.push_back(sends.back().span);
  }
  const testing_neighbor::Layout send_layout =
      testing_neighbor::scattered(local, spans);
  call.send = data<int>(local, static_cast<std::size_t>(send_layout.extent));
  std::vector<int> arrivals = arriving(origins, sizes, local, false);
  std::vector<WBlock> receives;
  spans.clear();
  for (std::size_t i = 0; i < arrivals.size(); ++i) {
    const int ints = arrivals[i] - arrivals[i] % 2;
    bool as_vector = uniform(local, 0, 1) == 1;
    // Open MPI's swapped blocks must have one layout to compare them.
    for (const std::size_t d : pair) {
      if (i == 2 * d + 1) as_vector = receives[2 * d].type == vector;
    }
    receives.push_back(w_block(ints, as_vector, vector));
    spans.push_back(receives.back().span);
  }
  const testing_neighbor::Layout recv_layout =
      testing_neighbor::scattered(local, spans);
  for (std::size_t b = 0; b < sends.size(); ++b) {
    call.sendcounts.push_back(sends[b].count);
    call.sbytes.push_back(send_layout.displs[b] * MPI_Aint{sizeof(int)});
    call.send_types.push_back(sends[b].type);
  }
  for (std::size_t i = 0; i < receives.size(); ++i) {
    call.recvcounts.push_back(receives[i].count);
    call.rbytes.push_back(recv_layout.displs[i] * MPI_Aint{sizeof(int)});
    call.recv_types.push_back(receives[i].type);
  }
  call.recv_extent = static_cast<std::size_t>(recv_layout.extent);
  call.slots = placed_slots(recv_layout);
  return call;
}

// ---- running both
// ---------------------------------------------------------------

enum class Mode { blocking, nonblocking };

template <typename T>
std::vector<T> run_classic(const Comm& comm, const Call<T>& c, Mode mode) {
  std::vector<T> recv(c.recv_extent, sentinel<T>());
  const std::span<const T> send(c.send);
  const std::span<T> out(recv);
  Request request;
  const bool typed = c.form == Form::typed;
  const bool now = mode == Mode::blocking;
  switch (c.op) {
    case Op::allgather:
      if (typed && now) neighbor_allgather(comm, send, out);
      if (typed && !now) request = ineighbor_allgather(comm, send, out);
      if (!typed && now)
        neighbor_allgather(comm, send.data(), c.count, c.datatype, out.data(),
                           c.count, c.datatype);
      if (!typed && !now)
        request = ineighbor_allgather(comm, send.data(), c.count, c.datatype,
                                      out.data(), c.count, c.datatype);
      break;
    case Op::allgatherv:
      if (typed && now)
        neighbor_allgatherv(comm, send, out, c.recvcounts, c.rdispls);
      if (typed && !now)
        request =
            ineighbor_allgatherv(comm, send, out, c.recvcounts, c.rdispls);
      if (!typed && now)
        neighbor_allgatherv(comm, send.data(), c.count, c.datatype, out.data(),
                            c.recvcounts, c.rdispls, c.datatype);
      if (!typed && !now)
        request = ineighbor_allgatherv(comm, send.data(), c.count, c.datatype,
                                       out.data(), c.recvcounts, c.rdispls,
                                       c.datatype);
      break;
    case Op::alltoall:
      // Typed, the count comes from the spans: exactly one block each.
      if (typed && now) neighbor_alltoall(comm, send, out);
      if (typed && !now) request = ineighbor_alltoall(comm, send, out);
      if (!typed && now)
        neighbor_alltoall(comm, send.data(), c.count, c.datatype, out.data(),
                          c.count, c.datatype);
      if (!typed && !now)
        request = ineighbor_alltoall(comm, send.data(), c.count, c.datatype,
                                     out.data(), c.count, c.datatype);
      break;
    case Op::alltoallv:
      if (typed && now)
        neighbor_alltoallv(comm, send, c.sendcounts, c.sdispls, out,
                           c.recvcounts, c.rdispls);
      if (typed && !now)
        request = ineighbor_alltoallv(comm, send, c.sendcounts, c.sdispls, out,
                                      c.recvcounts, c.rdispls);
      if (!typed && now)
        neighbor_alltoallv(comm, send.data(), c.sendcounts, c.sdispls,
                           c.datatype, out.data(), c.recvcounts, c.rdispls,
                           c.datatype);
      if (!typed && !now)
        request = ineighbor_alltoallv(comm, send.data(), c.sendcounts,
                                      c.sdispls, c.datatype, out.data(),
                                      c.recvcounts, c.rdispls, c.datatype);
      break;
    case Op::alltoallw:
      if (now) {
        neighbor_alltoallw(comm, send.data(), c.sendcounts, c.sbytes,
                           c.send_types, out.data(), c.recvcounts, c.rbytes,
                           c.recv_types);
      } else {
        request = ineighbor_alltoallw(comm, send.data(), c.sendcounts, c.sbytes,
                                      c.send_types, out.data(), c.recvcounts,
                                      c.rbytes, c.recv_types);
      }
      break;
  }
  wait(request);
  return recv;
}

template <typename T>
std::vector<T> run_openmpi(MPI_Comm comm, const Call<T>& c, Mode mode) {
  std::vector<T> recv(c.recv_extent, sentinel<T>());
  const T* send = c.send.data();
  T* out = recv.data();
  const MPI_Datatype t = c.datatype;
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Request* r = mode == Mode::nonblocking ? &request : nullptr;
  int code = MPI_SUCCESS;
  switch (c.op) {
    case Op::allgather:
      code =
          r ? MPI_Ineighbor_allgather(send, c.count, t, out, c.count, t, comm,
                                      r)
            : MPI_Neighbor_allgather(send, c.count, t, out, c.count, t, comm);
      break;
    case Op::allgatherv:
      code = r ? MPI_Ineighbor_allgatherv(send, c.count, t, out,
                                          array(c.recvcounts), array(c.rdispls),
                                          t, comm, r)
               : MPI_Neighbor_allgatherv(send, c.count, t, out,
                                         array(c.recvcounts), array(c.rdispls),
                                         t, comm);
      break;
    case Op::alltoall:
      code =
          r ? MPI_Ineighbor_alltoall(send, c.count, t, out, c.count, t, comm, r)
            : MPI_Neighbor_alltoall(send, c.count, t, out, c.count, t, comm);
      break;
    case Op::alltoallv:
      code = r ? MPI_Ineighbor_alltoallv(
                     send, array(c.sendcounts), array(c.sdispls), t, out,
                     array(c.recvcounts), array(c.rdispls), t, comm, r)
               : MPI_Neighbor_alltoallv(
                     send, array(c.sendcounts), array(c.sdispls), t, out,
                     array(c.recvcounts), array(c.rdispls), t, comm);
      break;
    case Op::alltoallw:
      code = r ? MPI_Ineighbor_alltoallw(
                     send, array(c.sendcounts), array(c.sbytes),
                     array(c.send_types), out, array(c.recvcounts),
                     array(c.rbytes), array(c.recv_types), comm, r)
               : MPI_Neighbor_alltoallw(
                     send, array(c.sendcounts), array(c.sbytes),
                     array(c.send_types), out, array(c.recvcounts),
                     array(c.rbytes), array(c.recv_types), comm);
      break;
  }
  EXPECT_EQ(code, MPI_SUCCESS);
  if (r != nullptr) {
    EXPECT_EQ(MPI_Wait(r, MPI_STATUS_IGNORE), MPI_SUCCESS);
  }
  return recv;
}

// `recv` with receive blocks 2d and 2d + 1 exchanged for each of `dims`.
template <typename T>
std::vector<T> with_blocks_swapped(std::vector<T> recv,
                                   const std::vector<Region>& slots,
                                   const std::vector<std::size_t>& dims) {
  for (const std::size_t d : dims) {
    const Region a = slots[2 * d];
    const Region b = slots[2 * d + 1];
    EXPECT_EQ(a.size, b.size);
    std::swap_ranges(recv.begin() + a.begin, recv.begin() + a.begin + a.size,
                     recv.begin() + b.begin);
  }
  return recv;
}

// The four runs of one call and what relates them.
template <typename T>
void compare(const Comm& comm, const OpenMpiComm& oracle,
             const WorldTopology& world, const Call<T>& call) {
  SCOPED_TRACE(world.name + ", " + op_name(call.op) +
               (call.form == Form::typed ? ", typed" : ", raw") + ", rank " +
               std::to_string(comm.rank()));
  const std::vector<T> classic_blocking =
      run_classic(comm, call, Mode::blocking);
  const std::vector<T> openmpi_blocking =
      run_openmpi(oracle.get(), call, Mode::blocking);
  const std::vector<T> classic_nonblocking =
      run_classic(comm, call, Mode::nonblocking);
  const std::vector<T> openmpi_nonblocking =
      run_openmpi(oracle.get(), call, Mode::nonblocking);
  EXPECT_EQ(classic_blocking, openmpi_blocking);
  EXPECT_EQ(classic_nonblocking, openmpi_blocking);
  // Open MPI's non-blocking alltoall(v, w) swap the blocks of periodic
  // dimensions of size 1 and 2 (see the top of this file); allgather(v)
  // send one block to both neighbours, so a swap changes nothing there.
  const bool swaps = call.op == Op::alltoall || call.op == Op::alltoallv ||
                     call.op == Op::alltoallw;
  EXPECT_EQ(openmpi_nonblocking,
            swaps ? with_blocks_swapped(classic_blocking, call.slots,
                                        swapping_dims(world))
                  : classic_blocking);
}

// ---- tests
// ----------------------------------------------------------------------

constexpr int kTopologies = 90;
constexpr int kCallsPerTopology = 20;

TEST_F(NeighborVsOpenMpi, NeighborListsAgree) {
  Random shared(kSeed);
  for (int t = 0; t < 3 * kTopologies; ++t) {
    const WorldTopology world = random_topology(shared, world_size(), t);
    SCOPED_TRACE(world.name);
    const Comm comm = testing_neighbor::make_comm(world);
    const OpenMpiComm oracle(world);
    const internal::NeighborLists ours = internal::neighbor_lists(comm, "test");
    const internal::NeighborLists theirs =
        openmpi_lists(oracle.get(), world.kind);
    EXPECT_EQ(ours.sources, theirs.sources);
    EXPECT_EQ(ours.destinations, theirs.destinations);
    EXPECT_EQ(ours.sources,
              world.sources[static_cast<std::size_t>(comm.rank())]);
  }
}

TEST_F(NeighborVsOpenMpi, AgreeOnRandomTopologiesCountsAndTypes) {
  Random shared(kSeed + 1);
  Random local(kSeed + 2 + 7919u * static_cast<unsigned>(Comm::world().rank()));
  const VectorType vector;
  for (int t = 0; t < kTopologies; ++t) {
    const WorldTopology world = random_topology(shared, world_size(), t);
    const Comm comm = testing_neighbor::make_comm(world);
    const OpenMpiComm oracle(world);
    for (int i = 0; i < kCallsPerTopology; ++i) {
      const auto op = static_cast<Op>(uniform(shared, 0, kOps - 1));
      if (op == Op::alltoallw) {
        compare(
            comm, oracle, world,
            draw_alltoallw(world, comm.rank(), shared, local, vector.get()));
      } else if (uniform(shared, 0, 1) == 0) {
        compare(comm, oracle, world,
                draw_call<int>(op, world, comm.rank(), shared, local));
      } else {
        compare(comm, oracle, world,
                draw_call<double>(op, world, comm.rank(), shared, local));
      }
    }
  }
}

// The deviation, spelled out. A periodic dimension of size 1 (dimension 1
// here) makes each process its own neighbour on both sides; MPI-4.1 says
// the block sent toward -1 (block 2) arrives as if from +1 (slot 3) and
// vice versa. Classic and Open MPI's blocking MPI_Neighbor_alltoall do so;
// Open MPI 4.1's MPI_Ineighbor_alltoall delivers block 2 into slot 2.
TEST_F(NeighborVsOpenMpi, OpenMpiNonBlockingDeviationOnPeriodicSizeOne) {
  const WorldTopology world =
      testing_neighbor::cartesian({world_size(), 1}, {false, true});
  const Comm comm = testing_neighbor::make_comm(world);
  const OpenMpiComm oracle(world);
  const int me = comm.rank();
  const std::vector<int> send = {10 * me, 10 * me + 1, 10 * me + 2,
                                 10 * me + 3};
  std::vector<int> classic_blocking(4, -1), classic_nonblocking(4, -1);
  std::vector<int> openmpi_blocking(4, -1), openmpi_nonblocking(4, -1);
  neighbor_alltoall(comm, std::span(send), std::span(classic_blocking));
  Request request =
      ineighbor_alltoall(comm, std::span(send), std::span(classic_nonblocking));
  wait(request);
  MPI_Neighbor_alltoall(send.data(), 1, MPI_INT, openmpi_blocking.data(), 1,
                        MPI_INT, oracle.get());
  MPI_Request mpi_request = MPI_REQUEST_NULL;
  MPI_Ineighbor_alltoall(send.data(), 1, MPI_INT, openmpi_nonblocking.data(), 1,
                         MPI_INT, oracle.get(), &mpi_request);
  MPI_Wait(&mpi_request, MPI_STATUS_IGNORE);
  // The standard: slot 2 holds my block 3, slot 3 my block 2.
  EXPECT_EQ(classic_blocking[2], 10 * me + 3);
  EXPECT_EQ(classic_blocking[3], 10 * me + 2);
  EXPECT_EQ(classic_nonblocking, classic_blocking);
  EXPECT_EQ(openmpi_blocking, classic_blocking);
  // Open MPI's non-blocking form: each block back where it started.
  EXPECT_EQ(openmpi_nonblocking[2], 10 * me + 2);
  EXPECT_EQ(openmpi_nonblocking[3], 10 * me + 3);
}

// The same for a periodic dimension of size 2, where both neighbours are
// the other process: MPI-4.1 puts its block 1 (sent toward +1) in slot 0;
// Open MPI's MPI_Ineighbor_alltoall puts its block 0 there.
TEST_F(NeighborVsOpenMpi, OpenMpiNonBlockingDeviationOnPeriodicSizeTwo) {
  if (world_size() % 2 != 0) GTEST_SKIP() << "needs an even world";
  const int half = world_size() / 2;
  const WorldTopology world =
      testing_neighbor::cartesian({2, half}, {true, false});
  const Comm comm = testing_neighbor::make_comm(world);
  const OpenMpiComm oracle(world);
  const int me = comm.rank();
  const int other = (me + half) % world_size();
  const std::vector<int> send = {10 * me, 10 * me + 1, 10 * me + 2,
                                 10 * me + 3};
  std::vector<int> classic_nonblocking(4, -1), openmpi_blocking(4, -1),
      openmpi_nonblocking(4, -1);
  Request request =
      ineighbor_alltoall(comm, std::span(send), std::span(classic_nonblocking));
  wait(request);
  MPI_Neighbor_alltoall(send.data(), 1, MPI_INT, openmpi_blocking.data(), 1,
                        MPI_INT, oracle.get());
  MPI_Request mpi_request = MPI_REQUEST_NULL;
  MPI_Ineighbor_alltoall(send.data(), 1, MPI_INT, openmpi_nonblocking.data(), 1,
                         MPI_INT, oracle.get(), &mpi_request);
  MPI_Wait(&mpi_request, MPI_STATUS_IGNORE);
  EXPECT_EQ(classic_nonblocking[0], 10 * other + 1);
  EXPECT_EQ(classic_nonblocking[1], 10 * other);
  EXPECT_EQ(openmpi_blocking[0], 10 * other + 1);
  EXPECT_EQ(openmpi_blocking[1], 10 * other);
  EXPECT_EQ(openmpi_nonblocking[0], 10 * other);
  EXPECT_EQ(openmpi_nonblocking[1], 10 * other + 1);
}

}  // namespace
}  // namespace classic
