// One neighbourhood allgather or alltoall on a general graph over all
// processes, in every form that sparse_graph_benchmark compares (Open MPI's,
// the hand-posted floor, ortho's forced and selected algorithms, blocking
// and persistent), each into
// a receive buffer of its own so that results can be compared bit for bit.
#ifndef ORTHOCOMM_EXPERIMENTS_SPARSE_EXCHANGE_H_
#define ORTHOCOMM_EXPERIMENTS_SPARSE_EXCHANGE_H_

#include <mpi.h>

#include <array>
#include <cstddef>
#include <memory>
#include <vector>

#include "classic/comm/comm.h"
#include "classic/p2p/request.h"
#include "experiments/hand_posted.h"
#include "experiments/openmpi_neighbor.h"
#include "experiments/sparse_graphs.h"

namespace experiments::sparse {

enum class Variant {
  openmpi,             // MPI_Neighbor_* on Open MPI's graph of the same lists
  openmpi_persistent,  // MPIX_Neighbor_*_init, start + wait (pcollreq)
  raw,                 // direct's messages posted by hand (the floor)
  direct,              // ortho, set_algorithm("direct")
  node_aware,          // ortho, set_algorithm("node_aware")
  common_neighbours,   // ortho, set_algorithm("common_neighbours")
  spread_relays,       // ortho, set_algorithm("spread_relays")
  mpi,       // ortho, set_algorithm("mpi"): Open MPI's call behind the dispatch
  selected,  // ortho's default choice
  // The same as persistent requests (ortho::<op>_init), start + wait.
  direct_persistent,
  node_aware_persistent,
  common_neighbours_persistent,
  spread_relays_persistent,
  mpi_persistent,
  selected_persistent,
};
inline constexpr std::array<const char*, 15> kNames = {
    "openmpi",
    "openmpi_persistent",
    "raw",
    "direct",
    "node_aware",
    "common_neighbours",
    "spread_relays",
    "mpi",
    "selected",
    "direct_persistent",
    "node_aware_persistent",
    "common_neighbours_persistent",
    "spread_relays_persistent",
    "mpi_persistent",
    "selected_persistent"};
inline constexpr int kVariants = static_cast<int>(kNames.size());

// Whether this build of Open MPI has the persistent neighbourhood
// collectives (openmpi_persistent is left out where not).
bool available(Variant variant);

using Op = NeighborOp;

// One graph on all processes (collective over MPI_COMM_WORLD; every process
// passes the same graph): its lists, ortho's communicators (the default
// choice and one per forced algorithm) and Open MPI's, none reordered.
class Network {
 public:
  explicit Network(const Graph& graph);
  ~Network();
  Network(const Network&) = delete;
  Network& operator=(const Network&) = delete;

  int indegree() const { return static_cast<int>(sources_.size()); }
  int outdegree() const { return static_cast<int>(destinations_.size()); }
  const std::vector<int>& sources() const { return sources_; }
  const std::vector<int>& destinations() const { return destinations_; }
  MPI_Comm openmpi() const { return openmpi_; }
  const classic::Comm& selected() const { return graphs_[0]; }
  const classic::Comm& direct() const { return graphs_[1]; }
  const classic::Comm& node_aware() const { return graphs_[2]; }
  const classic::Comm& common_neighbours() const { return graphs_[3]; }
  const classic::Comm& spread_relays() const { return graphs_[4]; }
  const classic::Comm& mpi() const { return graphs_[5]; }

 private:
  std::vector<int> sources_;
  std::vector<int> destinations_;
  std::vector<classic::Comm> graphs_;
  MPI_Comm openmpi_ = MPI_COMM_NULL;
};

// One operation with blocks of `ints` ints on a network: the send buffer
// (values that tell sender and position apart), a receive buffer per
// variant, the persistent requests and the hand-posted floor. Collective.
class Point {
 public:
  Point(const Network& network, Op op, int ints);
  ~Point();
  Point(const Point&) = delete;
  Point& operator=(const Point&) = delete;

  // One call of `variant` (an available one).
  void call(Variant variant);

  // Runs every available variant once on cleared buffers and compares each
  // result with Open MPI's: the first variant that differs on some process
  // (the same on every process), or -1. `spoil` >= 0 flips a bit of that
  // variant's result on rank 0 first (to see the check work).
  int mismatch(int spoil = -1);

 private:
  int* buffer(Variant variant) {
    return recv_[static_cast<std::size_t>(variant)].data();
  }
  void blocking(const classic::Comm& comm, Variant variant);
  classic::Request init(const classic::Comm& comm, Variant variant);
  // The communicator an ortho variant runs on (blocking or persistent).
  const classic::Comm& comm_of(Variant variant) const;

  const Network& network_;
  Op op_;
  int ints_;
  std::vector<int> send_;
  std::array<std::vector<int>, kNames.size()> recv_;
  // ortho's persistent requests, at their variants' places.
  std::array<classic::Request, kNames.size()> persistent_;
  MPI_Request openmpi_persistent_ = MPI_REQUEST_NULL;
  std::unique_ptr<HandPosted> raw_;
};

}  // namespace experiments::sparse

#endif  // ORTHOCOMM_EXPERIMENTS_SPARSE_EXCHANGE_H_
