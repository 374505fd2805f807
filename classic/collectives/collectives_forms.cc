// The public raw forms of the intra- and inter-communicator collectives in
// their three modes: each calls the one form of its collective that takes
// the mode (internal/intra_collectives.h).
#include "classic/collectives/collectives.h"
#include "classic/collectives/internal/intra_collectives.h"
#include "classic/collectives/nonblocking_collectives.h"
#include "classic/collectives/persistent_collectives.h"

namespace classic {

void barrier(const Comm& comm) { internal::barrier(comm, Mode::blocking); }

Request ibarrier(const Comm& comm) {
  return internal::barrier(comm, Mode::nonblocking);
}

Request barrier_init(const Comm& comm) {
  return internal::barrier(comm, Mode::persistent);
}

void bcast(const Comm& comm, void* buffer, int count, MPI_Datatype datatype,
           int root) {
  internal::bcast(comm, buffer, count, datatype, root, Mode::blocking);
}

Request ibcast(const Comm& comm, void* buffer, int count, MPI_Datatype datatype,
               int root) {
  return internal::bcast(comm, buffer, count, datatype, root,
                         Mode::nonblocking);
}

Request bcast_init(const Comm& comm, void* buffer, int count,
                   MPI_Datatype datatype, int root) {
  return internal::bcast(comm, buffer, count, datatype, root, Mode::persistent);
}

void gather(const Comm& comm, const void* send, int send_count,
            MPI_Datatype send_type, void* recv, int recv_count,
            MPI_Datatype recv_type, int root) {
  internal::gather(comm, send, send_count, send_type, recv, recv_count,
                   recv_type, root, Mode::blocking);
}

Request igather(const Comm& comm, const void* send, int send_count,
                MPI_Datatype send_type, void* recv, int recv_count,
                MPI_Datatype recv_type, int root) {
  return internal::gather(comm, send, send_count, send_type, recv, recv_count,
                          recv_type, root, Mode::nonblocking);
}

Request gather_init(const Comm& comm, const void* send, int send_count,
                    MPI_Datatype send_type, void* recv, int recv_count,
                    MPI_Datatype recv_type, int root) {
  return internal::gather(comm, send, send_count, send_type, recv, recv_count,
                          recv_type, root, Mode::persistent);
}

void gatherv(const Comm& comm, const void* send, int send_count,
             MPI_Datatype send_type, void* recv,
             std::span<const int> recvcounts, std::span<const int> displs,
             MPI_Datatype recv_type, int root) {
  internal::gatherv(comm, send, send_count, send_type, recv, recvcounts, displs,
                    recv_type, root, Mode::blocking);
}

Request igatherv(const Comm& comm, const void* send, int send_count,
                 MPI_Datatype send_type, void* recv,
                 std::span<const int> recvcounts, std::span<const int> displs,
                 MPI_Datatype recv_type, int root) {
  return internal::gatherv(comm, send, send_count, send_type, recv, recvcounts,
                           displs, recv_type, root, Mode::nonblocking);
}

Request gatherv_init(const Comm& comm, const void* send, int send_count,
                     MPI_Datatype send_type, void* recv,
                     std::span<const int> recvcounts,
                     std::span<const int> displs, MPI_Datatype recv_type,
                     int root) {
  return internal::gatherv(comm, send, send_count, send_type, recv, recvcounts,
                           displs, recv_type, root, Mode::persistent);
}

void scatter(const Comm& comm, const void* send, int send_count,
             MPI_Datatype send_type, void* recv, int recv_count,
             MPI_Datatype recv_type, int root) {
  internal::scatter(comm, send, send_count, send_type, recv, recv_count,
                    recv_type, root, Mode::blocking);
}

Request iscatter(const Comm& comm, const void* send, int send_count,
                 MPI_Datatype send_type, void* recv, int recv_count,
                 MPI_Datatype recv_type, int root) {
  return internal::scatter(comm, send, send_count, send_type, recv, recv_count,
                           recv_type, root, Mode::nonblocking);
}

Request scatter_init(const Comm& comm, const void* send, int send_count,
                     MPI_Datatype send_type, void* recv, int recv_count,
                     MPI_Datatype recv_type, int root) {
  return internal::scatter(comm, send, send_count, send_type, recv, recv_count,
                           recv_type, root, Mode::persistent);
}

void scatterv(const Comm& comm, const void* send,
              std::span<const int> sendcounts, std::span<const int> displs,
              MPI_Datatype send_type, void* recv, int recv_count,
              MPI_Datatype recv_type, int root) {
  internal::scatterv(comm, send, sendcounts, displs, send_type, recv,
                     recv_count, recv_type, root, Mode::blocking);
}

Request iscatterv(const Comm& comm, const void* send,
                  std::span<const int> sendcounts, std::span<const int> displs,
                  MPI_Datatype send_type, void* recv, int recv_count,
                  MPI_Datatype recv_type, int root) {
  return internal::scatterv(comm, send, sendcounts, displs, send_type, recv,
                            recv_count, recv_type, root, Mode::nonblocking);
}

Request scatterv_init(const Comm& comm, const void* send,
                      std::span<const int> sendcounts,
                      std::span<const int> displs, MPI_Datatype send_type,
                      void* recv, int recv_count, MPI_Datatype recv_type,
                      int root) {
  return internal::scatterv(comm, send, sendcounts, displs, send_type, recv,
                            recv_count, recv_type, root, Mode::persistent);
}

void allgather(const Comm& comm, const void* send, int send_count,
               MPI_Datatype send_type, void* recv, int recv_count,
               MPI_Datatype recv_type) {
  internal::allgather(comm, send, send_count, send_type, recv, recv_count,
                      recv_type, Mode::blocking);
}

Request iallgather(const Comm& comm, const void* send, int send_count,
                   MPI_Datatype send_type, void* recv, int recv_count,
                   MPI_Datatype recv_type) {
  return internal::allgather(comm, send, send_count, send_type, recv,
                             recv_count, recv_type, Mode::nonblocking);
}

Request allgather_init(const Comm& comm, const void* send, int send_count,
                       MPI_Datatype send_type, void* recv, int recv_count,
                       MPI_Datatype recv_type) {
  return internal::allgather(comm, send, send_count, send_type, recv,
                             recv_count, recv_type, Mode::persistent);
}

void allgatherv(const Comm& comm, const void* send, int send_count,
                MPI_Datatype send_type, void* recv,
                std::span<const int> recvcounts, std::span<const int> displs,
                MPI_Datatype recv_type) {
  internal::allgatherv(comm, send, send_count, send_type, recv, recvcounts,
                       displs, recv_type, Mode::blocking);
}

Request iallgatherv(const Comm& comm, const void* send, int send_count,
                    MPI_Datatype send_type, void* recv,
                    std::span<const int> recvcounts,
                    std::span<const int> displs, MPI_Datatype recv_type) {
  return internal::allgatherv(comm, send, send_count, send_type, recv,
                              recvcounts, displs, recv_type, Mode::nonblocking);
}

Request allgatherv_init(const Comm& comm, const void* send, int send_count,
                        MPI_Datatype send_type, void* recv,
                        std::span<const int> recvcounts,
                        std::span<const int> displs, MPI_Datatype recv_type) {
  return internal::allgatherv(comm, send, send_count, send_type, recv,
                              recvcounts, displs, recv_type, Mode::persistent);
}

void alltoall(const Comm& comm, const void* send, int send_count,
              MPI_Datatype send_type, void* recv, int recv_count,
              MPI_Datatype recv_type) {
  internal::alltoall(comm, send, send_count, send_type, recv, recv_count,
                     recv_type, Mode::blocking);
}

Request ialltoall(const Comm& comm, const void* send, int send_count,
                  MPI_Datatype send_type, void* recv, int recv_count,
                  MPI_Datatype recv_type) {
  return internal::alltoall(comm, send, send_count, send_type, recv, recv_count,
                            recv_type, Mode::nonblocking);
}

Request alltoall_init(const Comm& comm, const void* send, int send_count,
                      MPI_Datatype send_type, void* recv, int recv_count,
                      MPI_Datatype recv_type) {
  return internal::alltoall(comm, send, send_count, send_type, recv, recv_count,
                            recv_type, Mode::persistent);
}

void alltoallv(const Comm& comm, const void* send,
               std::span<const int> sendcounts, std::span<const int> sdispls,
               MPI_Datatype send_type, void* recv,
               std::span<const int> recvcounts, std::span<const int> rdispls,
               MPI_Datatype recv_type) {
  internal::alltoallv(comm, send, sendcounts, sdispls, send_type, recv,
                      recvcounts, rdispls, recv_type, Mode::blocking);
}

Request ialltoallv(const Comm& comm, const void* send,
                   std::span<const int> sendcounts,
                   std::span<const int> sdispls, MPI_Datatype send_type,
                   void* recv, std::span<const int> recvcounts,
                   std::span<const int> rdispls, MPI_Datatype recv_type) {
  return internal::alltoallv(comm, send, sendcounts, sdispls, send_type, recv,
                             recvcounts, rdispls, recv_type, Mode::nonblocking);
}

Request alltoallv_init(const Comm& comm, const void* send,
                       std::span<const int> sendcounts,
                       std::span<const int> sdispls, MPI_Datatype send_type,
                       void* recv, std::span<const int> recvcounts,
                       std::span<const int> rdispls, MPI_Datatype recv_type) {
  return internal::alltoallv(comm, send, sendcounts, sdispls, send_type, recv,
                             recvcounts, rdispls, recv_type, Mode::persistent);
}

void alltoallw(const Comm& comm, const void* send,
               std::span<const int> sendcounts, std::span<const int> sdispls,
               std::span<const MPI_Datatype> send_types, void* recv,
               std::span<const int> recvcounts, std::span<const int> rdispls,
               std::span<const MPI_Datatype> recv_types) {
  internal::alltoallw(comm, send, sendcounts, sdispls, send_types, recv,
                      recvcounts, rdispls, recv_types, Mode::blocking);
}

Request ialltoallw(const Comm& comm, const void* send,
                   std::span<const int> sendcounts,
                   std::span<const int> sdispls,
                   std::span<const MPI_Datatype> send_types, void* recv,
                   std::span<const int> recvcounts,
                   std::span<const int> rdispls,
                   std::span<const MPI_Datatype> recv_types) {
  return internal::alltoallw(comm, send, sendcounts, sdispls, send_types, recv,
                             recvcounts, rdispls, recv_types,
                             Mode::nonblocking);
}

Request alltoallw_init(const Comm& comm, const void* send,
                       std::span<const int> sendcounts,
                       std::span<const int> sdispls,
                       std::span<const MPI_Datatype> send_types, void* recv,
                       std::span<const int> recvcounts,
                       std::span<const int> rdispls,
                       std::span<const MPI_Datatype> recv_types) {
  return internal::alltoallw(comm, send, sendcounts, sdispls, send_types, recv,
                             recvcounts, rdispls, recv_types, Mode::persistent);
}

void reduce(const Comm& comm, const void* send, void* recv, int count,
            MPI_Datatype datatype, MPI_Op op, int root) {
  internal::reduce(comm, send, recv, count, datatype, op, root, Mode::blocking);
}

Request ireduce(const Comm& comm, const void* send, void* recv, int count,
                MPI_Datatype datatype, MPI_Op op, int root) {
  return internal::reduce(comm, send, recv, count, datatype, op, root,
                          Mode::nonblocking);
}

Request reduce_init(const Comm& comm, const void* send, void* recv, int count,
                    MPI_Datatype datatype, MPI_Op op, int root) {
  return internal::reduce(comm, send, recv, count, datatype, op, root,
                          Mode::persistent);
}

void allreduce(const Comm& comm, const void* send, void* recv, int count,
               MPI_Datatype datatype, MPI_Op op) {
  internal::allreduce(comm, send, recv, count, datatype, op, Mode::blocking);
}

Request iallreduce(const Comm& comm, const void* send, void* recv, int count,
                   MPI_Datatype datatype, MPI_Op op) {
  return internal::allreduce(comm, send, recv, count, datatype, op,
                             Mode::nonblocking);
}

Request allreduce_init(const Comm& comm, const void* send, void* recv,
                       int count, MPI_Datatype datatype, MPI_Op op) {
  return internal::allreduce(comm, send, recv, count, datatype, op,
                             Mode::persistent);
}

void reduce_scatter(const Comm& comm, const void* send, void* recv,
                    std::span<const int> recvcounts, MPI_Datatype datatype,
                    MPI_Op op) {
  internal::reduce_scatter(comm, send, recv, recvcounts, datatype, op,
                           Mode::blocking);
}

Request ireduce_scatter(const Comm& comm, const void* send, void* recv,
                        std::span<const int> recvcounts, MPI_Datatype datatype,
                        MPI_Op op) {
  return internal::reduce_scatter(comm, send, recv, recvcounts, datatype, op,
                                  Mode::nonblocking);
}

Request reduce_scatter_init(const Comm& comm, const void* send, void* recv,
                            std::span<const int> recvcounts,
                            MPI_Datatype datatype, MPI_Op op) {
  return internal::reduce_scatter(comm, send, recv, recvcounts, datatype, op,
                                  Mode::persistent);
}

void reduce_scatter_block(const Comm& comm, const void* send, void* recv,
                          int recv_count, MPI_Datatype datatype, MPI_Op op) {
  internal::reduce_scatter_block(comm, send, recv, recv_count, datatype, op,
                                 Mode::blocking);
}

Request ireduce_scatter_block(const Comm& comm, const void* send, void* recv,
                              int recv_count, MPI_Datatype datatype,
                              MPI_Op op) {
  return internal::reduce_scatter_block(comm, send, recv, recv_count, datatype,
                                        op, Mode::nonblocking);
}

Request reduce_scatter_block_init(const Comm& comm, const void* send,
                                  void* recv, int recv_count,
                                  MPI_Datatype datatype, MPI_Op op) {
  return internal::reduce_scatter_block(comm, send, recv, recv_count, datatype,
                                        op, Mode::persistent);
}

void scan(const Comm& comm, const void* send, void* recv, int count,
          MPI_Datatype datatype, MPI_Op op) {
  internal::scan(comm, send, recv, count, datatype, op, Mode::blocking);
}

Request iscan(const Comm& comm, const void* send, void* recv, int count,
              MPI_Datatype datatype, MPI_Op op) {
  return internal::scan(comm, send, recv, count, datatype, op,
                        Mode::nonblocking);
}

Request scan_init(const Comm& comm, const void* send, void* recv, int count,
                  MPI_Datatype datatype, MPI_Op op) {
  return internal::scan(comm, send, recv, count, datatype, op,
                        Mode::persistent);
}

void exscan(const Comm& comm, const void* send, void* recv, int count,
            MPI_Datatype datatype, MPI_Op op) {
  internal::exscan(comm, send, recv, count, datatype, op, Mode::blocking);
}

Request iexscan(const Comm& comm, const void* send, void* recv, int count,
                MPI_Datatype datatype, MPI_Op op) {
  return internal::exscan(comm, send, recv, count, datatype, op,
                          Mode::nonblocking);
}

Request exscan_init(const Comm& comm, const void* send, void* recv, int count,
                    MPI_Datatype datatype, MPI_Op op) {
  return internal::exscan(comm, send, recv, count, datatype, op,
                          Mode::persistent);
}

}  // namespace classic
