// Collectives on inter-communicators (MPI-2 semantics), to which the
// functions of classic/collectives/collectives.h dispatch, in the three
// modes: each builds a plan that classic's executor runs (a null Request
// once a blocking one has completed). Internal to classic; the rules users
// see are in collectives.h.
#ifndef ORTHOCOMM_CLASSIC_COLLECTIVES_INTERNAL_INTER_COLLECTIVES_H_
#define ORTHOCOMM_CLASSIC_COLLECTIVES_INTERNAL_INTER_COLLECTIVES_H_

#include <mpi.h>

#include <span>

#include "classic/base/internal/inside_classic.h"
#include "classic/collectives/collectives.h"
#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "classic/p2p/request.h"

namespace classic::internal {

using internal::In;
using internal::Out;

// True when comm is an inter-communicator; ErrorClass::comm naming
// `function` for a null, freed or finalised communicator.
bool is_inter(const Comm& comm, const char* function);

// ---- typed forms, after type erasure --------------------------------------

Request inter_bcast(const Comm& comm, Out buffer, int root, Mode mode);
Request inter_gather(const Comm& comm, In send, Out recv, int root, Mode mode);
Request inter_gatherv(const Comm& comm, In send, Out recv,
                      std::span<const int> recvcounts,
                      std::span<const int> displs, int root, Mode mode);
Request inter_scatter(const Comm& comm, In send, Out recv, int root, Mode mode);
Request inter_scatterv(const Comm& comm, In send,
                       std::span<const int> sendcounts,
                       std::span<const int> displs, Out recv, int root,
                       Mode mode);
Request inter_allgather(const Comm& comm, In send, Out recv, Mode mode);
Request inter_allgatherv(const Comm& comm, In send, Out recv,
                         std::span<const int> recvcounts,
                         std::span<const int> displs, Mode mode);
Request inter_alltoall(const Comm& comm, In send, Out recv, Mode mode);
Request inter_alltoallv(const Comm& comm, In send,
                        std::span<const int> sendcounts,
                        std::span<const int> sdispls, Out recv,
                        std::span<const int> recvcounts,
                        std::span<const int> rdispls, Mode mode);
Request inter_reduce(const Comm& comm, In send, Out recv, MPI_Op op, int root,
                     Mode mode);
Request inter_allreduce(const Comm& comm, In send, Out recv, MPI_Op op,
                        Mode mode);
Request inter_reduce_scatter(const Comm& comm, In send, Out recv,
                             std::span<const int> recvcounts, MPI_Op op,
                             Mode mode);
Request inter_reduce_scatter_block(const Comm& comm, In send, Out recv,
                                   MPI_Op op, Mode mode);

// ---- raw forms (collectives.h's signatures) -------------------------------

Request inter_barrier(const Comm& comm, Mode mode);
Request inter_bcast(const Comm& comm, void* buffer, int count,
                    MPI_Datatype datatype, int root, Mode mode);
Request inter_gather(const Comm& comm, const void* send, int send_count,
                     MPI_Datatype send_type, void* recv, int recv_count,
                     MPI_Datatype recv_type, int root, Mode mode);
Request inter_gatherv(const Comm& comm, const void* send, int send_count,
                      MPI_Datatype send_type, void* recv,
                      std::span<const int> recvcounts,
                      std::span<const int> displs, MPI_Datatype recv_type,
                      int root, Mode mode);
Request inter_scatter(const Comm& comm, const void* send, int send_count,
                      MPI_Datatype send_type, void* recv, int recv_count,
                      MPI_Datatype recv_type, int root, Mode mode);
Request inter_scatterv(const Comm& comm, const void* send,
                       std::span<const int> sendcounts,
                       std::span<const int> displs, MPI_Datatype send_type,
                       void* recv, int recv_count, MPI_Datatype recv_type,
                       int root, Mode mode);
Request inter_allgather(const Comm& comm, const void* send, int send_count,
                        MPI_Datatype send_type, void* recv, int recv_count,
                        MPI_Datatype recv_type, Mode mode);
Request inter_allgatherv(const Comm& comm, const void* send, int send_count,
                         MPI_Datatype send_type, void* recv,
                         std::span<const int> recvcounts,
                         std::span<const int> displs, MPI_Datatype recv_type,
                         Mode mode);
Request inter_alltoall(const Comm& comm, const void* send, int send_count,
                       MPI_Datatype send_type, void* recv, int recv_count,
                       MPI_Datatype recv_type, Mode mode);
Request inter_alltoallv(const Comm& comm, const void* send,
                        std::span<const int> sendcounts,
                        std::span<const int> sdispls, MPI_Datatype send_type,
                        void* recv, std::span<const int> recvcounts,
                        std::span<const int> rdispls, MPI_Datatype recv_type,
                        Mode mode);
Request inter_alltoallw(const Comm& comm, const void* send,
                        std::span<const int> sendcounts,
                        std::span<const int> sdispls,
                        std::span<const MPI_Datatype> send_types, void* recv,
                        std::span<const int> recvcounts,
                        std::span<const int> rdispls,
                        std::span<const MPI_Datatype> recv_types, Mode mode);
Request inter_reduce(const Comm& comm, const void* send, void* recv, int count,
                     MPI_Datatype datatype, MPI_Op op, int root, Mode mode);
Request inter_allreduce(const Comm& comm, const void* send, void* recv,
                        int count, MPI_Datatype datatype, MPI_Op op, Mode mode);
Request inter_reduce_scatter(const Comm& comm, const void* send, void* recv,
                             std::span<const int> recvcounts,
                             MPI_Datatype datatype, MPI_Op op, Mode mode);
Request inter_reduce_scatter_block(const Comm& comm, const void* send,
                                   void* recv, int recv_count,
                                   MPI_Datatype datatype, MPI_Op op, Mode mode);

}  // namespace classic::internal

#endif  // ORTHOCOMM_CLASSIC_COLLECTIVES_INTERNAL_INTER_COLLECTIVES_H_
