// The transport's own neighbourhood collectives (Open MPI's
// MPI_Neighbor_*, MPI_Ineighbor_* and MPIX_Neighbor_*_init) on a graph
// whose edges mirror a communicator's, for what measures orthocomm against
// them or runs them as one of its algorithms (ortho's `mpi`). classic's own
// neighbourhood collectives (neighbor_collectives.h) are another thing:
// classic's messages on classic's topologies.
#ifndef ORTHOCOMM_CLASSIC_NEIGHBOR_TRANSPORT_GRAPH_H_
#define ORTHOCOMM_CLASSIC_NEIGHBOR_TRANSPORT_GRAPH_H_

#include <mpi.h>

#include <memory>
#include <span>

#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "classic/p2p/request.h"

namespace classic {

// An MPI distributed-graph communicator over `comm`'s processes (same
// ranks) whose in- and out-edges are `sources` and `destinations`, in that
// order (MPI_Dist_graph_create_adjacent, unweighted, no reordering).
// Collective over comm; freed when it goes (while the Environment is
// active). Not copyable. Made with std::make_shared, it stays alive while
// persistent requests made on it do.
class TransportGraph : public std::enable_shared_from_this<TransportGraph> {
 public:
  TransportGraph(const Comm& comm, std::span<const int> sources,
                 std::span<const int> destinations, const char* function);
  ~TransportGraph();
  TransportGraph(const TransportGraph&) = delete;
  TransportGraph& operator=(const TransportGraph&) = delete;

  MPI_Comm get() const { return graph_; }
  // The communicator it mirrors (requests belong to it).
  const Comm& comm() const { return comm_; }

 private:
  Comm comm_;
  MPI_Comm graph_ = MPI_COMM_NULL;
};

// One neighbourhood collective of the transport on `graph` in `mode`: a
// blocking one has completed on return (a null request), a non-blocking
// one runs, a persistent one is inactive until classic::start. The arrays
// (counts, displacements, datatypes) are copied; the buffers must live
// until the request completes, as in MPI. Arguments are the transport's
// and are not checked here. Throws classic::Error naming `function` where
// the transport reports an error.
Request transport_neighbor_allgather(const TransportGraph& graph, Mode mode,
                                     const void* send, int send_count,
                                     MPI_Datatype send_type, void* recv,
                                     int recv_count, MPI_Datatype recv_type,
                                     const char* function);
Request transport_neighbor_allgatherv(const TransportGraph& graph, Mode mode,
                                      const void* send, int send_count,
                                      MPI_Datatype send_type, void* recv,
                                      std::span<const int> recv_counts,
                                      std::span<const int> recv_displs,
                                      MPI_Datatype recv_type,
                                      const char* function);
Request transport_neighbor_alltoall(const TransportGraph& graph, Mode mode,
                                    const void* send, int send_count,
                                    MPI_Datatype send_type, void* recv,
                                    int recv_count, MPI_Datatype recv_type,
                                    const char* function);
Request transport_neighbor_alltoallv(
    const TransportGraph& graph, Mode mode, const void* send,
    std::span<const int> send_counts, std::span<const int> send_displs,
    MPI_Datatype send_type, void* recv, std::span<const int> recv_counts,
    std::span<const int> recv_displs, MPI_Datatype recv_type,
    const char* function);
Request transport_neighbor_alltoallw(
    const TransportGraph& graph, Mode mode, const void* send,
    std::span<const int> send_counts, std::span<const MPI_Aint> send_displs,
    std::span<const MPI_Datatype> send_types, void* recv,
    std::span<const int> recv_counts, std::span<const MPI_Aint> recv_displs,
    std::span<const MPI_Datatype> recv_types, const char* function);

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_NEIGHBOR_TRANSPORT_GRAPH_H_
