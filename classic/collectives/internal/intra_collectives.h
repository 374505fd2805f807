// The raw forms of the intra-communicator collectives in a mode (blocking,
// non-blocking, persistent): the one path that classic::bcast,
// classic::ibcast and classic::bcast_init (and so on) share. A call on an
// inter-communicator goes to inter_collectives.h (scan and exscan refuse
// one: ErrorClass::comm). Internal to classic.
#ifndef ORTHOCOMM_CLASSIC_COLLECTIVES_INTERNAL_INTRA_COLLECTIVES_H_
#define ORTHOCOMM_CLASSIC_COLLECTIVES_INTERNAL_INTRA_COLLECTIVES_H_

#include <mpi.h>

#include <span>

#include "classic/base/internal/inside_classic.h"
#include "classic/comm/comm.h"
#include "classic/exec/executor.h"
#include "classic/p2p/request.h"

namespace classic::internal {

Request barrier(const Comm& comm, Mode mode);
Request bcast(const Comm& comm, void* buffer, int count, MPI_Datatype datatype,
              int root, Mode mode);
Request gather(const Comm& comm, const void* send, int send_count,
               MPI_Datatype send_type, void* recv, int recv_count,
               MPI_Datatype recv_type, int root, Mode mode);
Request gatherv(const Comm& comm, const void* send, int send_count,
                MPI_Datatype send_type, void* recv,
                std::span<const int> recvcounts, std::span<const int> displs,
                MPI_Datatype recv_type, int root, Mode mode);
Request scatter(const Comm& comm, const void* send, int send_count,
                MPI_Datatype send_type, void* recv, int recv_count,
                MPI_Datatype recv_type, int root, Mode mode);
Request scatterv(const Comm& comm, const void* send,
                 std::span<const int> sendcounts, std::span<const int> displs,
                 MPI_Datatype send_type, void* recv, int recv_count,
                 MPI_Datatype recv_type, int root, Mode mode);
Request allgather(const Comm& comm, const void* send, int send_count,
                  MPI_Datatype send_type, void* recv, int recv_count,
                  MPI_Datatype recv_type, Mode mode);
Request allgatherv(const Comm& comm, const void* send, int send_count,
                   MPI_Datatype send_type, void* recv,
                   std::span<const int> recvcounts, std::span<const int> displs,
                   MPI_Datatype recv_type, Mode mode);
Request alltoall(const Comm& comm, const void* send, int send_count,
                 MPI_Datatype send_type, void* recv, int recv_count,
                 MPI_Datatype recv_type, Mode mode);
Request alltoallv(const Comm& comm, const void* send,
                  std::span<const int> sendcounts, std::span<const int> sdispls,
                  MPI_Datatype send_type, void* recv,
                  std::span<const int> recvcounts, std::span<const int> rdispls,
                  MPI_Datatype recv_type, Mode mode);
Request alltoallw(const Comm& comm, const void* send,
                  std::span<const int> sendcounts, std::span<const int> sdispls,
                  std::span<const MPI_Datatype> send_types, void* recv,
                  std::span<const int> recvcounts, std::span<const int> rdispls,
                  std::span<const MPI_Datatype> recv_types, Mode mode);
Request reduce(const Comm& comm, const void* send, void* recv, int count,
               MPI_Datatype datatype, MPI_Op op, int root, Mode mode);
Request allreduce(const Comm& comm, const void* send, void* recv, int count,
                  MPI_Datatype datatype, MPI_Op op, Mode mode);
Request reduce_scatter(const Comm& comm, const void* send, void* recv,
                       std::span<const int> recvcounts, MPI_Datatype datatype,
                       MPI_Op op, Mode mode);
Request reduce_scatter_block(const Comm& comm, const void* send, void* recv,
                             int recv_count, MPI_Datatype datatype, MPI_Op op,
                             Mode mode);
Request scan(const Comm& comm, const void* send, void* recv, int count,
             MPI_Datatype datatype, MPI_Op op, Mode mode);
Request exscan(const Comm& comm, const void* send, void* recv, int count,
               MPI_Datatype datatype, MPI_Op op, Mode mode);

}  // namespace classic::internal

#endif  // ORTHOCOMM_CLASSIC_COLLECTIVES_INTERNAL_INTRA_COLLECTIVES_H_
