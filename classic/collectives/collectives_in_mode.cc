// The mode-taking entry points: each forwards to the one form of its
// collective that takes the mode.
#include "classic/collectives/collectives_in_mode.h"

#include "classic/collectives/internal/intra_collectives.h"

namespace classic {

Request barrier(const Comm& comm, Mode mode) {
  return internal::barrier(comm, mode);
}

Request bcast(const Comm& comm, void* buffer, int count, MPI_Datatype datatype,
              int root, Mode mode) {
  return internal::bcast(comm, buffer, count, datatype, root, mode);
}

Request gather(const Comm& comm, const void* send, int send_count,
               MPI_Datatype send_type, void* recv, int recv_count,
               MPI_Datatype recv_type, int root, Mode mode) {
  return internal::gather(comm, send, send_count, send_type, recv, recv_count,
                          recv_type, root, mode);
}

Request gatherv(const Comm& comm, const void* send, int send_count,
                MPI_Datatype send_type, void* recv,
                std::span<const int> recvcounts, std::span<const int> displs,
                MPI_Datatype recv_type, int root, Mode mode) {
  return internal::gatherv(comm, send, send_count, send_type, recv, recvcounts,
                           displs, recv_type, root, mode);
}

Request scatter(const Comm& comm, const void* send, int send_count,
                MPI_Datatype send_type, void* recv, int recv_count,
                MPI_Datatype recv_type, int root, Mode mode) {
  return internal::scatter(comm, send, send_count, send_type, recv, recv_count,
                           recv_type, root, mode);
}

Request scatterv(const Comm& comm, const void* send,
                 std::span<const int> sendcounts, std::span<const int> displs,
                 MPI_Datatype send_type, void* recv, int recv_count,
                 MPI_Datatype recv_type, int root, Mode mode) {
  return internal::scatterv(comm, send, sendcounts, displs, send_type, recv,
                            recv_count, recv_type, root, mode);
}

Request allgather(const Comm& comm, const void* send, int send_count,
                  MPI_Datatype send_type, void* recv, int recv_count,
                  MPI_Datatype recv_type, Mode mode) {
  return internal::allgather(comm, send, send_count, send_type, recv,
                             recv_count, recv_type, mode);
}

Request allgatherv(const Comm& comm, const void* send, int send_count,
                   MPI_Datatype send_type, void* recv,
                   std::span<const int> recvcounts, std::span<const int> displs,
                   MPI_Datatype recv_type, Mode mode) {
  return internal::allgatherv(comm, send, send_count, send_type, recv,
                              recvcounts, displs, recv_type, mode);
}

Request alltoall(const Comm& comm, const void* send, int send_count,
                 MPI_Datatype send_type, void* recv, int recv_count,
                 MPI_Datatype recv_type, Mode mode) {
  return internal::alltoall(comm, send, send_count, send_type, recv, recv_count,
                            recv_type, mode);
}

Request alltoallv(const Comm& comm, const void* send,
                  std::span<const int> sendcounts, std::span<const int> sdispls,
                  MPI_Datatype send_type, void* recv,
                  std::span<const int> recvcounts, std::span<const int> rdispls,
                  MPI_Datatype recv_type, Mode mode) {
  return internal::alltoallv(comm, send, sendcounts, sdispls, send_type, recv,
                             recvcounts, rdispls, recv_type, mode);
}

Request alltoallw(const Comm& comm, const void* send,
                  std::span<const int> sendcounts, std::span<const int> sdispls,
                  std::span<const MPI_Datatype> send_types, void* recv,
                  std::span<const int> recvcounts, std::span<const int> rdispls,
                  std::span<const MPI_Datatype> recv_types, Mode mode) {
  return internal::alltoallw(comm, send, sendcounts, sdispls, send_types, recv,
                             recvcounts, rdispls, recv_types, mode);
}

Request reduce(const Comm& comm, const void* send, void* recv, int count,
               MPI_Datatype datatype, MPI_Op op, int root, Mode mode) {
  return internal::reduce(comm, send, recv, count, datatype, op, root, mode);
}

Request allreduce(const Comm& comm, const void* send, void* recv, int count,
                  MPI_Datatype datatype, MPI_Op op, Mode mode) {
  return internal::allreduce(comm, send, recv, count, datatype, op, mode);
}

Request reduce_scatter(const Comm& comm, const void* send, void* recv,
                       std::span<const int> recvcounts, MPI_Datatype datatype,
                       MPI_Op op, Mode mode) {
  return internal::reduce_scatter(comm, send, recv, recvcounts, datatype, op,
                                  mode);
}

Request reduce_scatter_block(const Comm& comm, const void* send, void* recv,
                             int recv_count, MPI_Datatype datatype, MPI_Op op,
                             Mode mode) {
  return internal::reduce_scatter_block(comm, send, recv, recv_count, datatype,
                                        op, mode);
}

Request scan(const Comm& comm, const void* send, void* recv, int count,
             MPI_Datatype datatype, MPI_Op op, Mode mode) {
  return internal::scan(comm, send, recv, count, datatype, op, mode);
}

Request exscan(const Comm& comm, const void* send, void* recv, int count,
               MPI_Datatype datatype, MPI_Op op, Mode mode) {
  return internal::exscan(comm, send, recv, count, datatype, op, mode);
}

}  // namespace classic
