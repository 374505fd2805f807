// combining_benchmark's persistent requests for one point: Open MPI's
// (MPIX_Neighbor_*_init) and ortho's, selected and forced (direct, and
// combining and mpi where they run), each receiving into its variant's buffer.
#include <mpi.h>
// After mpi.h, which it needs: MPIX_Neighbor_*_init (pcollreq).
#include <mpi-ext.h>

#include "classic/comm/comm.h"
#include "classic/p2p/request.h"
#include "experiments/combining_point.h"
#include "ortho/collectives.h"
#include "ortho/operation.h"

namespace experiments::combining {

using ortho::Operation;

void Point::make_persistent() {
  const int n = count_;
  const int* send = send_.data();
  int* mpix_recv = operation_ == Operation::allreduce
                       ? gathered_[1].data()
                       : recv_[index_of(Variant::openmpi_persistent)].data();
  if (operation_ == Operation::alltoall) {
    MPIX_Neighbor_alltoall_init(send, n, MPI_INT, mpix_recv, n, MPI_INT,
                                openmpi_, MPI_INFO_NULL, &openmpi_persistent_);
  } else if (operation_ == Operation::alltoallw) {
    MPIX_Neighbor_alltoallw_init(send, counts_.data(), displs_.data(),
                                 types_.data(), mpix_recv, counts_.data(),
                                 displs_.data(), types_.data(), openmpi_,
                                 MPI_INFO_NULL, &openmpi_persistent_);
  } else {
    MPIX_Neighbor_allgather_init(send, n, MPI_INT, mpix_recv, n, MPI_INT,
                                 openmpi_, MPI_INFO_NULL, &openmpi_persistent_);
  }
  const auto recv = [&](Variant variant) {
    return recv_[index_of(variant)].data();
  };
  selected_persistent_ =
      ortho_init(selected_, recv(Variant::ortho_selected_persistent));
  direct_persistent_ =
      ortho_init(direct_, recv(Variant::ortho_direct_persistent));
  if (has_combining_) {
    combining_persistent_ =
        ortho_init(combining_, recv(Variant::ortho_combining_persistent));
  }
  if (has_mpi_) {
    mpi_persistent_ = ortho_init(mpi_, recv(Variant::ortho_mpi_persistent));
  }
}

classic::Request Point::ortho_init(const classic::Comm& comm, int* recv) {
  const int n = count_;
  const int* send = send_.data();
  switch (operation_) {
    case Operation::allgather:
      return ortho::allgather_init(comm, send, n, MPI_INT, recv, n, MPI_INT);
    case Operation::alltoall:
      return ortho::alltoall_init(comm, send, n, MPI_INT, recv, n, MPI_INT);
    case Operation::alltoallw:
      return ortho::alltoallw_init(comm, send, counts(), displs(), types(),
                                   recv, counts(), displs(), types());
    default:
      return ortho::allreduce_init(comm, send, recv, n, MPI_INT, MPI_SUM);
  }
}

}  // namespace experiments::combining
