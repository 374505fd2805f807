// Open MPI's own neighbourhood allgather and alltoall of int blocks, the
// baseline the neighbourhood benchmarks measure ortho against: blocking
// (MPI_Neighbor_*) and persistent (MPIX_Neighbor_*_init, Open MPI's
// preview of MPI-4's persistent collectives, where the build has it).
#ifndef ORTHOCOMM_EXPERIMENTS_OPENMPI_NEIGHBOR_H_
#define ORTHOCOMM_EXPERIMENTS_OPENMPI_NEIGHBOR_H_

#include <mpi.h>

namespace experiments {

enum class NeighborOp { allgather, alltoall };

// Whether this Open MPI has MPIX_Neighbor_*_init.
bool has_persistent_neighbor_collectives();

// One call of `op` with blocks of `ints` ints on the graph communicator
// `comm`: allgather sends its one block at `send` to every out-neighbour,
// alltoall block i to out-neighbour i; block j of `recv` comes from
// in-neighbour j.
void openmpi_neighbor(NeighborOp op, const int* send, int* recv, int ints,
                      MPI_Comm comm);

// The same as an inactive persistent request (MPI_Start runs it); the
// caller frees it. MPI_REQUEST_NULL where the build has no persistent form.
MPI_Request openmpi_neighbor_init(NeighborOp op, const int* send, int* recv,
                                  int ints, MPI_Comm comm);

}  // namespace experiments

#endif  // ORTHOCOMM_EXPERIMENTS_OPENMPI_NEIGHBOR_H_
