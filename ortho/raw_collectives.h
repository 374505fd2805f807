// ortho's collectives with raw buffers ((pointer, count, MPI_Datatype), as
// in MPI), in their three modes: f (blocking), if (non-blocking, returns a
// pending classic::Request) and f_init (persistent, returns an inactive
// one; classic::start runs it). Semantics: ortho/collectives.h.
#ifndef ORTHOCOMM_ORTHO_RAW_COLLECTIVES_H_
#define ORTHOCOMM_ORTHO_RAW_COLLECTIVES_H_

#include <mpi.h>

#include <span>

#include "classic/comm/comm.h"
#include "classic/p2p/request.h"

namespace ortho {

// MPI_Barrier; on a directed graph, returns once every in-neighbour has entered
// it.
void barrier(const classic::Comm& comm);
[[nodiscard]] classic::Request ibarrier(const classic::Comm& comm);
[[nodiscard]] classic::Request barrier_init(const classic::Comm& comm);

// MPI_Bcast; on a directed graph, from the root to its out-neighbours.
void bcast(const classic::Comm& comm, void* buffer, int count,
           MPI_Datatype datatype, int root);
[[nodiscard]] classic::Request ibcast(const classic::Comm& comm, void* buffer,
                                      int count, MPI_Datatype datatype,
                                      int root);
[[nodiscard]] classic::Request bcast_init(const classic::Comm& comm,
                                          void* buffer, int count,
                                          MPI_Datatype datatype, int root);

// MPI_Gather; on a directed graph, block i at the root from its in-neighbour i.
void gather(const classic::Comm& comm, const void* send, int send_count,
            MPI_Datatype send_type, void* recv, int recv_count,
            MPI_Datatype recv_type, int root);
[[nodiscard]] classic::Request igather(const classic::Comm& comm,
                                       const void* send, int send_count,
                                       MPI_Datatype send_type, void* recv,
                                       int recv_count, MPI_Datatype recv_type,
                                       int root);
[[nodiscard]] classic::Request gather_init(const classic::Comm& comm,
                                           const void* send, int send_count,
                                           MPI_Datatype send_type, void* recv,
                                           int recv_count,
                                           MPI_Datatype recv_type, int root);

// MPI_Gatherv (counts and displacements per in-neighbour of the root on a
// directed graph).
void gatherv(const classic::Comm& comm, const void* send, int send_count,
             MPI_Datatype send_type, void* recv,
             std::span<const int> recvcounts, std::span<const int> displs,
             MPI_Datatype recv_type, int root);
[[nodiscard]] classic::Request igatherv(const classic::Comm& comm,
                                        const void* send, int send_count,
                                        MPI_Datatype send_type, void* recv,
                                        std::span<const int> recvcounts,
                                        std::span<const int> displs,
                                        MPI_Datatype recv_type, int root);
[[nodiscard]] classic::Request gatherv_init(const classic::Comm& comm,
                                            const void* send, int send_count,
                                            MPI_Datatype send_type, void* recv,
                                            std::span<const int> recvcounts,
                                            std::span<const int> displs,
                                            MPI_Datatype recv_type, int root);

// MPI_Scatter; on a directed graph, block i from the root to its out-neighbour
// i.
void scatter(const classic::Comm& comm, const void* send, int send_count,
             MPI_Datatype send_type, void* recv, int recv_count,
             MPI_Datatype recv_type, int root);
[[nodiscard]] classic::Request iscatter(const classic::Comm& comm,
                                        const void* send, int send_count,
                                        MPI_Datatype send_type, void* recv,
                                        int recv_count, MPI_Datatype recv_type,
                                        int root);
[[nodiscard]] classic::Request scatter_init(const classic::Comm& comm,
                                            const void* send, int send_count,
                                            MPI_Datatype send_type, void* recv,
                                            int recv_count,
                                            MPI_Datatype recv_type, int root);

// MPI_Scatterv (counts and displacements per out-neighbour of the root on a
// directed graph).
void scatterv(const classic::Comm& comm, const void* send,
              std::span<const int> sendcounts, std::span<const int> displs,
              MPI_Datatype send_type, void* recv, int recv_count,
              MPI_Datatype recv_type, int root);
[[nodiscard]] classic::Request iscatterv(const classic::Comm& comm,
                                         const void* send,
                                         std::span<const int> sendcounts,
                                         std::span<const int> displs,
                                         MPI_Datatype send_type, void* recv,
                                         int recv_count, MPI_Datatype recv_type,
                                         int root);
[[nodiscard]] classic::Request scatterv_init(const classic::Comm& comm,
                                             const void* send,
                                             std::span<const int> sendcounts,
                                             std::span<const int> displs,
                                             MPI_Datatype send_type, void* recv,
                                             int recv_count,
                                             MPI_Datatype recv_type, int root);

// MPI_Allgather; on a directed graph, MPI_Neighbor_allgather.
void allgather(const classic::Comm& comm, const void* send, int send_count,
               MPI_Datatype send_type, void* recv, int recv_count,
               MPI_Datatype recv_type);
[[nodiscard]] classic::Request iallgather(const classic::Comm& comm,
                                          const void* send, int send_count,
                                          MPI_Datatype send_type, void* recv,
                                          int recv_count,
                                          MPI_Datatype recv_type);
[[nodiscard]] classic::Request allgather_init(const classic::Comm& comm,
                                              const void* send, int send_count,
                                              MPI_Datatype send_type,
                                              void* recv, int recv_count,
                                              MPI_Datatype recv_type);

// MPI_Allgatherv; on a directed graph, MPI_Neighbor_allgatherv.
void allgatherv(const classic::Comm& comm, const void* send, int send_count,
                MPI_Datatype send_type, void* recv,
                std::span<const int> recvcounts, std::span<const int> displs,
                MPI_Datatype recv_type);
[[nodiscard]] classic::Request iallgatherv(const classic::Comm& comm,
                                           const void* send, int send_count,
                                           MPI_Datatype send_type, void* recv,
                                           std::span<const int> recvcounts,
                                           std::span<const int> displs,
                                           MPI_Datatype recv_type);
[[nodiscard]] classic::Request allgatherv_init(
    const classic::Comm& comm, const void* send, int send_count,
    MPI_Datatype send_type, void* recv, std::span<const int> recvcounts,
    std::span<const int> displs, MPI_Datatype recv_type);

// Directed graphs only (no MPI has it): the send block to every out-neighbour;
// the block from in-neighbour i lands at recv + rdispls[i] bytes as
// recvcounts[i] elements of recv_types[i].
void allgatherw(const classic::Comm& comm, const void* send, int send_count,
                MPI_Datatype send_type, void* recv,
                std::span<const int> recvcounts,
                std::span<const MPI_Aint> rdispls,
                std::span<const MPI_Datatype> recv_types);
[[nodiscard]] classic::Request iallgatherw(
    const classic::Comm& comm, const void* send, int send_count,
    MPI_Datatype send_type, void* recv, std::span<const int> recvcounts,
    std::span<const MPI_Aint> rdispls,
    std::span<const MPI_Datatype> recv_types);
[[nodiscard]] classic::Request allgatherw_init(
    const classic::Comm& comm, const void* send, int send_count,
    MPI_Datatype send_type, void* recv, std::span<const int> recvcounts,
    std::span<const MPI_Aint> rdispls,
    std::span<const MPI_Datatype> recv_types);

// MPI_Alltoall; on a directed graph, MPI_Neighbor_alltoall.
void alltoall(const classic::Comm& comm, const void* send, int send_count,
              MPI_Datatype send_type, void* recv, int recv_count,
              MPI_Datatype recv_type);
[[nodiscard]] classic::Request ialltoall(const classic::Comm& comm,
                                         const void* send, int send_count,
                                         MPI_Datatype send_type, void* recv,
                                         int recv_count,
                                         MPI_Datatype recv_type);
[[nodiscard]] classic::Request alltoall_init(const classic::Comm& comm,
                                             const void* send, int send_count,
                                             MPI_Datatype send_type, void* recv,
                                             int recv_count,
                                             MPI_Datatype recv_type);

// MPI_Alltoallv; on a directed graph, MPI_Neighbor_alltoallv.
void alltoallv(const classic::Comm& comm, const void* send,
               std::span<const int> sendcounts, std::span<const int> sdispls,
               MPI_Datatype send_type, void* recv,
               std::span<const int> recvcounts, std::span<const int> rdispls,
               MPI_Datatype recv_type);
[[nodiscard]] classic::Request ialltoallv(
    const classic::Comm& comm, const void* send,
    std::span<const int> sendcounts, std::span<const int> sdispls,
    MPI_Datatype send_type, void* recv, std::span<const int> recvcounts,
    std::span<const int> rdispls, MPI_Datatype recv_type);
[[nodiscard]] classic::Request alltoallv_init(
    const classic::Comm& comm, const void* send,
    std::span<const int> sendcounts, std::span<const int> sdispls,
    MPI_Datatype send_type, void* recv, std::span<const int> recvcounts,
    std::span<const int> rdispls, MPI_Datatype recv_type);

// MPI_Alltoallw with byte displacements of MPI_Aint (as MPI_Neighbor_alltoallw
// and MPI-4's MPI_Alltoallw_c; on fully connected and bipartite communicators
// they must fit an int); on a directed graph, MPI_Neighbor_alltoallw.
void alltoallw(const classic::Comm& comm, const void* send,
               std::span<const int> sendcounts,
               std::span<const MPI_Aint> sdispls,
               std::span<const MPI_Datatype> send_types, void* recv,
               std::span<const int> recvcounts,
               std::span<const MPI_Aint> rdispls,
               std::span<const MPI_Datatype> recv_types);
[[nodiscard]] classic::Request ialltoallw(
    const classic::Comm& comm, const void* send,
    std::span<const int> sendcounts, std::span<const MPI_Aint> sdispls,
    std::span<const MPI_Datatype> send_types, void* recv,
    std::span<const int> recvcounts, std::span<const MPI_Aint> rdispls,
    std::span<const MPI_Datatype> recv_types);
[[nodiscard]] classic::Request alltoallw_init(
    const classic::Comm& comm, const void* send,
    std::span<const int> sendcounts, std::span<const MPI_Aint> sdispls,
    std::span<const MPI_Datatype> send_types, void* recv,
    std::span<const int> recvcounts, std::span<const MPI_Aint> rdispls,
    std::span<const MPI_Datatype> recv_types);

// MPI_Reduce; on a directed graph, over the root's in-neighbours in order.
void reduce(const classic::Comm& comm, const void* send, void* recv, int count,
            MPI_Datatype datatype, MPI_Op op, int root);
[[nodiscard]] classic::Request ireduce(const classic::Comm& comm,
                                       const void* send, void* recv, int count,
                                       MPI_Datatype datatype, MPI_Op op,
                                       int root);
[[nodiscard]] classic::Request reduce_init(const classic::Comm& comm,
                                           const void* send, void* recv,
                                           int count, MPI_Datatype datatype,
                                           MPI_Op op, int root);

// MPI_Allreduce; on a directed graph, each process reduces over its
// in-neighbours in order.
void allreduce(const classic::Comm& comm, const void* send, void* recv,
               int count, MPI_Datatype datatype, MPI_Op op);
[[nodiscard]] classic::Request iallreduce(const classic::Comm& comm,
                                          const void* send, void* recv,
                                          int count, MPI_Datatype datatype,
                                          MPI_Op op);
[[nodiscard]] classic::Request allreduce_init(const classic::Comm& comm,
                                              const void* send, void* recv,
                                              int count, MPI_Datatype datatype,
                                              MPI_Op op);

// MPI_Reduce_scatter (not on directed graphs).
void reduce_scatter(const classic::Comm& comm, const void* send, void* recv,
                    std::span<const int> recvcounts, MPI_Datatype datatype,
                    MPI_Op op);
[[nodiscard]] classic::Request ireduce_scatter(const classic::Comm& comm,
                                               const void* send, void* recv,
                                               std::span<const int> recvcounts,
                                               MPI_Datatype datatype,
                                               MPI_Op op);
[[nodiscard]] classic::Request reduce_scatter_init(
    const classic::Comm& comm, const void* send, void* recv,
    std::span<const int> recvcounts, MPI_Datatype datatype, MPI_Op op);

// MPI_Reduce_scatter_block (not on directed graphs).
void reduce_scatter_block(const classic::Comm& comm, const void* send,
                          void* recv, int recv_count, MPI_Datatype datatype,
                          MPI_Op op);
[[nodiscard]] classic::Request ireduce_scatter_block(const classic::Comm& comm,
                                                     const void* send,
                                                     void* recv, int recv_count,
                                                     MPI_Datatype datatype,
                                                     MPI_Op op);
[[nodiscard]] classic::Request reduce_scatter_block_init(
    const classic::Comm& comm, const void* send, void* recv, int recv_count,
    MPI_Datatype datatype, MPI_Op op);

// MPI_Scan (fully connected only).
void scan(const classic::Comm& comm, const void* send, void* recv, int count,
          MPI_Datatype datatype, MPI_Op op);
[[nodiscard]] classic::Request iscan(const classic::Comm& comm,
                                     const void* send, void* recv, int count,
                                     MPI_Datatype datatype, MPI_Op op);
[[nodiscard]] classic::Request scan_init(const classic::Comm& comm,
                                         const void* send, void* recv,
                                         int count, MPI_Datatype datatype,
                                         MPI_Op op);

// MPI_Exscan (fully connected only).
void exscan(const classic::Comm& comm, const void* send, void* recv, int count,
            MPI_Datatype datatype, MPI_Op op);
[[nodiscard]] classic::Request iexscan(const classic::Comm& comm,
                                       const void* send, void* recv, int count,
                                       MPI_Datatype datatype, MPI_Op op);
[[nodiscard]] classic::Request exscan_init(const classic::Comm& comm,
                                           const void* send, void* recv,
                                           int count, MPI_Datatype datatype,
                                           MPI_Op op);

}  // namespace ortho

#endif  // ORTHOCOMM_ORTHO_RAW_COLLECTIVES_H_
