#include "experiments/openmpi_neighbor.h"

// After mpi.h, which it needs: MPIX_Neighbor_*_init (pcollreq).
#include <mpi-ext.h>

#if defined(OMPI_HAVE_MPI_EXT_PCOLLREQ) && OMPI_HAVE_MPI_EXT_PCOLLREQ
#define ORTHOCOMM_HAVE_PCOLLREQ 1
#else
#define ORTHOCOMM_HAVE_PCOLLREQ 0
#endif

namespace experiments {

bool has_persistent_neighbor_collectives() {
  return ORTHOCOMM_HAVE_PCOLLREQ != 0;
}

void openmpi_neighbor(NeighborOp op, const int* send, int* recv, int ints,
                      MPI_Comm comm) {
  if (op == NeighborOp::allgather) {
    MPI_Neighbor_allgather(send, ints, MPI_INT, recv, ints, MPI_INT, comm);
  } else {
    MPI_Neighbor_alltoall(send, ints, MPI_INT, recv, ints, MPI_INT, comm);
  }
}

MPI_Request openmpi_neighbor_init(NeighborOp op, const int* send, int* recv,
                                  int ints, MPI_Comm comm) {
  MPI_Request request = MPI_REQUEST_NULL;
#if ORTHOCOMM_HAVE_PCOLLREQ
  if (op == NeighborOp::allgather) {
    MPIX_Neighbor_allgather_init(send, ints, MPI_INT, recv, ints, MPI_INT, comm,
                                 MPI_INFO_NULL, &request);
  } else {
    MPIX_Neighbor_alltoall_init(send, ints, MPI_INT, recv, ints, MPI_INT, comm,
                                MPI_INFO_NULL, &request);
  }
#else
  (void)op;
  (void)send;
  (void)recv;
  (void)ints;
  (void)comm;
#endif
  return request;
}

}  // namespace experiments
