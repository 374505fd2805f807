// Collectives on inter-communicators (MPI-2 semantics), to which the
// functions of classic/collectives/collectives.h dispatch. Internal to classic;
// the rules users see are in collectives.h.
#ifndef ORTHOCOMM_CLASSIC_COLLECTIVES_INTERNAL_INTER_COLLECTIVES_H_
#define ORTHOCOMM_CLASSIC_COLLECTIVES_INTERNAL_INTER_COLLECTIVES_H_

#include <mpi.h>

#include <span>

#include "classic/base/internal/inside_classic.h"
#include "classic/collectives/collectives.h"
#include "classic/comm/comm.h"

namespace classic::internal {

using internal::In;
using internal::Out;

// True when comm is an inter-communicator; ErrorClass::comm naming
// `function` for a null, freed or finalised communicator.
bool is_inter(const Comm& comm, const char* function);

// ---- typed forms, after type erasure --------------------------------------

void inter_bcast(const Comm& comm, Out buffer, int root);
void inter_gather(const Comm& comm, In send, Out recv, int root);
void inter_gatherv(const Comm& comm, In send, Out recv,
                   std::span<const int> recvcounts, std::span<const int> displs,
                   int root);
void inter_scatter(const Comm& comm, In send, Out recv, int root);
void inter_scatterv(const Comm& comm, In send, std::span<const int> sendcounts,
                    std::span<const int> displs, Out recv, int root);
void inter_allgather(const Comm& comm, In send, Out recv);
void inter_allgatherv(const Comm& comm, In send, Out recv,
                      std::span<const int> recvcounts,
                      std::span<const int> displs);
void inter_alltoall(const Comm& comm, In send, Out recv);
void inter_alltoallv(const Comm& comm, In send, std::span<const int> sendcounts,
                     std::span<const int> sdispls, Out recv,
                     std::span<const int> recvcounts,
                     std::span<const int> rdispls);
void inter_reduce(const Comm& comm, In send, Out recv, MPI_Op op, int root);
void inter_allreduce(const Comm& comm, In send, Out recv, MPI_Op op);
void inter_reduce_scatter(const Comm& comm, In send, Out recv,
                          std::span<const int> recvcounts, MPI_Op op);
void inter_reduce_scatter_block(const Comm& comm, In send, Out recv, MPI_Op op);

// ---- raw forms (collectives.h's signatures) -------------------------------

void inter_barrier(const Comm& comm);
void inter_bcast(const Comm& comm, void* buffer, int count,
                 MPI_Datatype datatype, int root);
void inter_gather(const Comm& comm, const void* send, int send_count,
                  MPI_Datatype send_type, void* recv, int recv_count,
                  MPI_Datatype recv_type, int root);
void inter_gatherv(const Comm& comm, const void* send, int send_count,
                   MPI_Datatype send_type, void* recv,
                   std::span<const int> recvcounts, std::span<const int> displs,
                   MPI_Datatype recv_type, int root);
void inter_scatter(const Comm& comm, const void* send, int send_count,
                   MPI_Datatype send_type, void* recv, int recv_count,
                   MPI_Datatype recv_type, int root);
void inter_scatterv(const Comm& comm, const void* send,
                    std::span<const int> sendcounts,
                    std::span<const int> displs, MPI_Datatype send_type,
                    void* recv, int recv_count, MPI_Datatype recv_type,
                    int root);
void inter_allgather(const Comm& comm, const void* send, int send_count,
                     MPI_Datatype send_type, void* recv, int recv_count,
                     MPI_Datatype recv_type);
void inter_allgatherv(const Comm& comm, const void* send, int send_count,
                      MPI_Datatype send_type, void* recv,
                      std::span<const int> recvcounts,
                      std::span<const int> displs, MPI_Datatype recv_type);
void inter_alltoall(const Comm& comm, const void* send, int send_count,
                    MPI_Datatype send_type, void* recv, int recv_count,
                    MPI_Datatype recv_type);
void inter_alltoallv(const Comm& comm, const void* send,
                     std::span<const int> sendcounts,
                     std::span<const int> sdispls, MPI_Datatype send_type,
                     void* recv, std::span<const int> recvcounts,
                     std::span<const int> rdispls, MPI_Datatype recv_type);
void inter_alltoallw(const Comm& comm, const void* send,
                     std::span<const int> sendcounts,
                     std::span<const int> sdispls,
                     std::span<const MPI_Datatype> send_types, void* recv,
                     std::span<const int> recvcounts,
                     std::span<const int> rdispls,
                     std::span<const MPI_Datatype> recv_types);
void inter_reduce(const Comm& comm, const void* send, void* recv, int count,
                  MPI_Datatype datatype, MPI_Op op, int root);
void inter_allreduce(const Comm& comm, const void* send, void* recv, int count,
                     MPI_Datatype datatype, MPI_Op op);
void inter_reduce_scatter(const Comm& comm, const void* send, void* recv,
                          std::span<const int> recvcounts,
                          MPI_Datatype datatype, MPI_Op op);
void inter_reduce_scatter_block(const Comm& comm, const void* send, void* recv,
                                int recv_count, MPI_Datatype datatype,
                                MPI_Op op);

}  // namespace classic::internal

#endif  // ORTHOCOMM_CLASSIC_COLLECTIVES_INTERNAL_INTER_COLLECTIVES_H_
