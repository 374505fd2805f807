// The 17 collectives with the mode as an argument: one entry point per
// collective for callers that choose the mode at run time (ortho's
// dispatch). classic::bcast(..., Mode::nonblocking) is classic::ibcast, and
// so on; arguments, checks and errors are those of the named forms
// (collectives.h, nonblocking_collectives.h, persistent_collectives.h).
// Mode::blocking returns a null Request once the collective has completed.
#ifndef ORTHOCOMM_CLASSIC_COLLECTIVES_COLLECTIVES_IN_MODE_H_
#define ORTHOCOMM_CLASSIC_COLLECTIVES_COLLECTIVES_IN_MODE_H_

#include <mpi.h>

#include <span>

#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "classic/p2p/request.h"

namespace classic {

[[nodiscard]] Request barrier(const Comm& comm, Mode mode);
[[nodiscard]] Request bcast(const Comm& comm, void* buffer, int count,
                            MPI_Datatype datatype, int root, Mode mode);
[[nodiscard]] Request gather(const Comm& comm, const void* send, int send_count,
                             MPI_Datatype send_type, void* recv, int recv_count,
                             MPI_Datatype recv_type, int root, Mode mode);
[[nodiscard]] Request gatherv(const Comm& comm, const void* send,
                              int send_count, MPI_Datatype send_type,
                              void* recv, std::span<const int> recvcounts,
                              std::span<const int> displs,
                              MPI_Datatype recv_type, int root, Mode mode);
[[nodiscard]] Request scatter(const Comm& comm, const void* send,
                              int send_count, MPI_Datatype send_type,
                              void* recv, int recv_count,
                              MPI_Datatype recv_type, int root, Mode mode);
[[nodiscard]] Request scatterv(const Comm& comm, const void* send,
                               std::span<const int> sendcounts,
                               std::span<const int> displs,
                               MPI_Datatype send_type, void* recv,
                               int recv_count, MPI_Datatype recv_type, int root,
                               Mode mode);
[[nodiscard]] Request allgather(const Comm& comm, const void* send,
                                int send_count, MPI_Datatype send_type,
                                void* recv, int recv_count,
                                MPI_Datatype recv_type, Mode mode);
[[nodiscard]] Request allgatherv(const Comm& comm, const void* send,
                                 int send_count, MPI_Datatype send_type,
                                 void* recv, std::span<const int> recvcounts,
                                 std::span<const int> displs,
                                 MPI_Datatype recv_type, Mode mode);
[[nodiscard]] Request alltoall(const Comm& comm, const void* send,
                               int send_count, MPI_Datatype send_type,
                               void* recv, int recv_count,
                               MPI_Datatype recv_type, Mode mode);
[[nodiscard]] Request alltoallv(const Comm& comm, const void* send,
                                std::span<const int> sendcounts,
                                std::span<const int> sdispls,
                                MPI_Datatype send_type, void* recv,
                                std::span<const int> recvcounts,
                                std::span<const int> rdispls,
                                MPI_Datatype recv_type, Mode mode);
[[nodiscard]] Request alltoallw(
    const Comm& comm, const void* send, std::span<const int> sendcounts,
    std::span<const int> sdispls, std::span<const MPI_Datatype> send_types,
    void* recv, std::span<const int> recvcounts, std::span<const int> rdispls,
    std::span<const MPI_Datatype> recv_types, Mode mode);
[[nodiscard]] Request reduce(const Comm& comm, const void* send, void* recv,
                             int count, MPI_Datatype datatype, MPI_Op op,
                             int root, Mode mode);
[[nodiscard]] Request allreduce(const Comm& comm, const void* send, void* recv,
                                int count, MPI_Datatype datatype, MPI_Op op,
                                Mode mode);
[[nodiscard]] Request reduce_scatter(const Comm& comm, const void* send,
                                     void* recv,
                                     std::span<const int> recvcounts,
                                     MPI_Datatype datatype, MPI_Op op,
                                     Mode mode);
[[nodiscard]] Request reduce_scatter_block(const Comm& comm, const void* send,
                                           void* recv, int recv_count,
                                           MPI_Datatype datatype, MPI_Op op,
                                           Mode mode);
[[nodiscard]] Request scan(const Comm& comm, const void* send, void* recv,
                           int count, MPI_Datatype datatype, MPI_Op op,
                           Mode mode);
[[nodiscard]] Request exscan(const Comm& comm, const void* send, void* recv,
                             int count, MPI_Datatype datatype, MPI_Op op,
                             Mode mode);

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_COLLECTIVES_COLLECTIVES_IN_MODE_H_
