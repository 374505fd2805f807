#include "experiments/sparse_exchange.h"

#include <mpi.h>

#include <algorithm>

#include "classic/base/environment.h"
#include "ortho/dist_graph.h"
#include "ortho/raw_collectives.h"
#include "ortho/table.h"

namespace experiments::sparse {

bool available(Variant variant) {
  return has_persistent_neighbor_collectives() ||
         variant != Variant::openmpi_persistent;
}

Network::Network(const Graph& graph) {
  const auto me = static_cast<std::size_t>(classic::Environment::world_rank());
  destinations_ = graph[me];
  sources_ = reversed(graph)[me];
  const classic::Comm world = classic::Comm::world();
  for (const char* algorithm : {"", "direct", "node_aware", "common_neighbours",
                                "spread_relays", "mpi"}) {
    classic::Comm comm =
        ortho::dist_graph_create_adjacent(world, sources_, classic::unweighted,
                                          destinations_, classic::unweighted);
    if (*algorithm != '\0') ortho::set_algorithm(comm, algorithm);
    graphs_.push_back(comm);
  }
  MPI_Dist_graph_create_adjacent(
      MPI_COMM_WORLD, indegree(), sources_.data(), MPI_UNWEIGHTED, outdegree(),
      destinations_.data(), MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &openmpi_);
}

Network::~Network() { MPI_Comm_free(&openmpi_); }

Point::Point(const Network& network, Op op, int ints)
    : network_(network), op_(op), ints_(ints) {
  const auto block = static_cast<std::size_t>(ints);
  const auto out = static_cast<std::size_t>(network.outdegree());
  const auto in = static_cast<std::size_t>(network.indegree());
  // At least one element each, so that no buffer is a null pointer.
  send_.resize(
      std::max<std::size_t>(1, op == Op::alltoall ? out * block : block));
  const int rank = classic::Environment::world_rank();
  for (std::size_t i = 0; i < send_.size(); ++i) {
    send_[i] = rank * 1000003 + static_cast<int>(i);
  }
  for (std::vector<int>& receive : recv_) {
    receive.assign(std::max<std::size_t>(1, in * block), -1);
  }
  for (const Variant variant :
       {Variant::direct_persistent, Variant::node_aware_persistent,
        Variant::common_neighbours_persistent,
        Variant::spread_relays_persistent, Variant::mpi_persistent,
        Variant::selected_persistent}) {
    persistent_[static_cast<std::size_t>(variant)] =
        init(comm_of(variant), variant);
  }
  openmpi_persistent_ = openmpi_neighbor_init(
      op, send_.data(), buffer(Variant::openmpi_persistent), ints,
      network.openmpi());
  // Block i of the send buffer goes to destination i (alltoall; allgather
  // sends its one block to all), block i of the receive buffer comes from
  // source i.
  std::vector<MPI_Aint> send_at(out);
  std::vector<MPI_Aint> recv_at(in);
  const auto block_bytes = static_cast<MPI_Aint>(block * sizeof(int));
  for (std::size_t i = 0; i < out; ++i) {
    send_at[i] =
        op == Op::alltoall ? static_cast<MPI_Aint>(i) * block_bytes : 0;
  }
  for (std::size_t i = 0; i < in; ++i) {
    recv_at[i] = static_cast<MPI_Aint>(i) * block_bytes;
  }
  raw_ = std::make_unique<HandPosted>(
      MPI_COMM_WORLD, network.sources(), network.destinations(),
      HandBlocks<const void*>{send_.data(), send_at, ints, MPI_INT},
      HandBlocks<void*>{buffer(Variant::raw), recv_at, ints, MPI_INT});
}

Point::~Point() {
  if (openmpi_persistent_ != MPI_REQUEST_NULL) {
    MPI_Request_free(&openmpi_persistent_);
  }
}

void Point::call(Variant variant) {
  switch (variant) {
    case Variant::openmpi:
      openmpi_neighbor(op_, send_.data(), buffer(variant), ints_,
                       network_.openmpi());
      return;
    case Variant::openmpi_persistent:
      MPI_Start(&openmpi_persistent_);
      MPI_Wait(&openmpi_persistent_, MPI_STATUS_IGNORE);
      return;
    case Variant::raw:
      raw_->run();
      return;
    case Variant::direct:
    case Variant::node_aware:
    case Variant::common_neighbours:
    case Variant::spread_relays:
    case Variant::mpi:
    case Variant::selected:
      return blocking(comm_of(variant), variant);
    case Variant::direct_persistent:
    case Variant::node_aware_persistent:
    case Variant::common_neighbours_persistent:
    case Variant::spread_relays_persistent:
    case Variant::mpi_persistent:
    case Variant::selected_persistent: {
      classic::Request& request =
          persistent_[static_cast<std::size_t>(variant)];
      classic::start(request);
      classic::wait(request);
      return;
    }
  }
}

const classic::Comm& Point::comm_of(Variant variant) const {
  switch (variant) {
    case Variant::direct:
    case Variant::direct_persistent:
      return network_.direct();
    case Variant::node_aware:
    case Variant::node_aware_persistent:
      return network_.node_aware();
    case Variant::common_neighbours:
    case Variant::common_neighbours_persistent:
      return network_.common_neighbours();
    case Variant::spread_relays:
    case Variant::spread_relays_persistent:
      return network_.spread_relays();
    case Variant::mpi:
    case Variant::mpi_persistent:
      return network_.mpi();
    default:
      return network_.selected();
  }
}

int Point::mismatch(int spoil) {
  for (int v = 0; v < kVariants; ++v) {
    const auto variant = static_cast<Variant>(v);
    if (!available(variant)) continue;
    std::vector<int>& receive = recv_[static_cast<std::size_t>(v)];
    std::fill(receive.begin(), receive.end(), -1);
    call(variant);
  }
  if (spoil >= 0 && classic::Environment::world_rank() == 0) {
    recv_[static_cast<std::size_t>(spoil)][0] ^= 1;
  }
  const std::vector<int>& want = recv_[0];
  for (int v = 1; v < kVariants; ++v) {
    int differs = available(static_cast<Variant>(v)) &&
                          recv_[static_cast<std::size_t>(v)] != want
                      ? 1
                      : 0;
    MPI_Allreduce(MPI_IN_PLACE, &differs, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    if (differs != 0) return v;
  }
  return -1;
}

void Point::blocking(const classic::Comm& comm, Variant variant) {
  if (op_ == Op::allgather) {
    ortho::allgather(comm, send_.data(), ints_, MPI_INT, buffer(variant), ints_,
                     MPI_INT);
  } else {
    ortho::alltoall(comm, send_.data(), ints_, MPI_INT, buffer(variant), ints_,
                    MPI_INT);
  }
}

classic::Request Point::init(const classic::Comm& comm, Variant variant) {
  return op_ == Op::allgather
             ? ortho::allgather_init(comm, send_.data(), ints_, MPI_INT,
                                     buffer(variant), ints_, MPI_INT)
             : ortho::alltoall_init(comm, send_.data(), ints_, MPI_INT,
                                    buffer(variant), ints_, MPI_INT);
}

}  // namespace experiments::sparse
