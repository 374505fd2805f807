// The raw forms of ortho's exchanges: allgather(v, w) and alltoall(v, w),
// each of which describes its call and hands it to internal::run().
#include "ortho/call.h"
#include "ortho/collectives.h"

namespace ortho {

// The calls below name only the fields they set; GCC 12 warns about
// designated initializers that leave members to their default member
// initializers (-Wmissing-field-initializers), which is what they are for.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

void allgather(const classic::Comm& comm, const void* send, int send_count,
               MPI_Datatype send_type, void* recv, int recv_count,
               MPI_Datatype recv_type) {
  (void)internal::run(
      comm,
      Call{.operation = Operation::allgather,
           .mode = classic::Mode::blocking,
           .send = {.data = send, .count = send_count, .datatype = send_type},
           .recv = {.data = recv, .count = recv_count, .datatype = recv_type}});
}

classic::Request iallgather(const classic::Comm& comm, const void* send,
                            int send_count, MPI_Datatype send_type, void* recv,
                            int recv_count, MPI_Datatype recv_type) {
  return internal::run(
      comm,
      Call{.operation = Operation::allgather,
           .mode = classic::Mode::nonblocking,
           .send = {.data = send, .count = send_count, .datatype = send_type},
           .recv = {.data = recv, .count = recv_count, .datatype = recv_type}});
}

classic::Request allgather_init(const classic::Comm& comm, const void* send,
                                int send_count, MPI_Datatype send_type,
                                void* recv, int recv_count,
                                MPI_Datatype recv_type) {
  return internal::run(
      comm,
      Call{.operation = Operation::allgather,
           .mode = classic::Mode::persistent,
           .send = {.data = send, .count = send_count, .datatype = send_type},
           .recv = {.data = recv, .count = recv_count, .datatype = recv_type}});
}

void allgatherv(const classic::Comm& comm, const void* send, int send_count,
                MPI_Datatype send_type, void* recv,
                std::span<const int> recvcounts, std::span<const int> displs,
                MPI_Datatype recv_type) {
  (void)internal::run(
      comm,
      Call{.operation = Operation::allgatherv,
           .mode = classic::Mode::blocking,
           .send = {.data = send, .count = send_count, .datatype = send_type},
           .recv = {.data = recv,
                    .datatype = recv_type,
                    .counts = recvcounts,
                    .displs = displs}});
}

classic::Request iallgatherv(const classic::Comm& comm, const void* send,
                             int send_count, MPI_Datatype send_type, void* recv,
                             std::span<const int> recvcounts,
                             std::span<const int> displs,
                             MPI_Datatype recv_type) {
  return internal::run(
      comm,
      Call{.operation = Operation::allgatherv,
           .mode = classic::Mode::nonblocking,
           .send = {.data = send, .count = send_count, .datatype = send_type},
           .recv = {.data = recv,
                    .datatype = recv_type,
                    .counts = recvcounts,
                    .displs = displs}});
}

classic::Request allgatherv_init(const classic::Comm& comm, const void* send,
                                 int send_count, MPI_Datatype send_type,
                                 void* recv, std::span<const int> recvcounts,
                                 std::span<const int> displs,
                                 MPI_Datatype recv_type) {
  return internal::run(
      comm,
      Call{.operation = Operation::allgatherv,
           .mode = classic::Mode::persistent,
           .send = {.data = send, .count = send_count, .datatype = send_type},
           .recv = {.data = recv,
                    .datatype = recv_type,
                    .counts = recvcounts,
                    .displs = displs}});
}

void allgatherw(const classic::Comm& comm, const void* send, int send_count,
                MPI_Datatype send_type, void* recv,
                std::span<const int> recvcounts,
                std::span<const MPI_Aint> rdispls,
                std::span<const MPI_Datatype> recv_types) {
  (void)internal::run(
      comm,
      Call{.operation = Operation::allgatherw,
           .mode = classic::Mode::blocking,
           .send = {.data = send, .count = send_count, .datatype = send_type},
           .recv = {.data = recv,
                    .counts = recvcounts,
                    .byte_displs = rdispls,
                    .datatypes = recv_types}});
}

classic::Request iallgatherw(const classic::Comm& comm, const void* send,
                             int send_count, MPI_Datatype send_type, void* recv,
                             std::span<const int> recvcounts,
                             std::span<const MPI_Aint> rdispls,
                             std::span<const MPI_Datatype> recv_types) {
  return internal::run(
      comm,
      Call{.operation = Operation::allgatherw,
           .mode = classic::Mode::nonblocking,
           .send = {.data = send, .count = send_count, .datatype = send_type},
           .recv = {.data = recv,
                    .counts = recvcounts,
                    .byte_displs = rdispls,
                    .datatypes = recv_types}});
}

classic::Request allgatherw_init(const classic::Comm& comm, const void* send,
                                 int send_count, MPI_Datatype send_type,
                                 void* recv, std::span<const int> recvcounts,
                                 std::span<const MPI_Aint> rdispls,
                                 std::span<const MPI_Datatype> recv_types) {
  return internal::run(
      comm,
      Call{.operation = Operation::allgatherw,
           .mode = classic::Mode::persistent,
           .send = {.data = send, .count = send_count, .datatype = send_type},
           .recv = {.data = recv,
                    .counts = recvcounts,
                    .byte_displs = rdispls,
                    .datatypes = recv_types}});
}

void alltoall(const classic::Comm& comm, const void* send, int send_count,
              MPI_Datatype send_type, void* recv, int recv_count,
              MPI_Datatype recv_type) {
  (void)internal::run(
      comm,
      Call{.operation = Operation::alltoall,
           .mode = classic::Mode::blocking,
           .send = {.data = send, .count = send_count, .datatype = send_type},
           .recv = {.data = recv, .count = recv_count, .datatype = recv_type}});
}

classic::Request ialltoall(const classic::Comm& comm, const void* send,
                           int send_count, MPI_Datatype send_type, void* recv,
                           int recv_count, MPI_Datatype recv_type) {
  return internal::run(
      comm,
      Call{.operation = Operation::alltoall,
           .mode = classic::Mode::nonblocking,
           .send = {.data = send, .count = send_count, .datatype = send_type},
           .recv = {.data = recv, .count = recv_count, .datatype = recv_type}});
}

classic::Request alltoall_init(const classic::Comm& comm, const void* send,
                               int send_count, MPI_Datatype send_type,
                               void* recv, int recv_count,
                               MPI_Datatype recv_type) {
  return internal::run(
      comm,
      Call{.operation = Operation::alltoall,
           .mode = classic::Mode::persistent,
           .send = {.data = send, .count = send_count, .datatype = send_type},
           .recv = {.data = recv, .count = recv_count, .datatype = recv_type}});
}

void alltoallv(const classic::Comm& comm, const void* send,
               std::span<const int> sendcounts, std::span<const int> sdispls,
               MPI_Datatype send_type, void* recv,
               std::span<const int> recvcounts, std::span<const int> rdispls,
               MPI_Datatype recv_type) {
  (void)internal::run(comm, Call{.operation = Operation::alltoallv,
                                 .mode = classic::Mode::blocking,
                                 .send = {.data = send,
                                          .datatype = send_type,
                                          .counts = sendcounts,
                                          .displs = sdispls},
                                 .recv = {.data = recv,
                                          .datatype = recv_type,
                                          .counts = recvcounts,
                                          .displs = rdispls}});
}

classic::Request ialltoallv(const classic::Comm& comm, const void* send,
                            std::span<const int> sendcounts,
                            std::span<const int> sdispls,
                            MPI_Datatype send_type, void* recv,
                            std::span<const int> recvcounts,
                            std::span<const int> rdispls,
                            MPI_Datatype recv_type) {
  return internal::run(comm, Call{.operation = Operation::alltoallv,
                                  .mode = classic::Mode::nonblocking,
                                  .send = {.data = send,
                                           .datatype = send_type,
                                           .counts = sendcounts,
                                           .displs = sdispls},
                                  .recv = {.data = recv,
                                           .datatype = recv_type,
                                           .counts = recvcounts,
                                           .displs = rdispls}});
}

classic::Request alltoallv_init(const classic::Comm& comm, const void* send,
                                std::span<const int> sendcounts,
                                std::span<const int> sdispls,
                                MPI_Datatype send_type, void* recv,
                                std::span<const int> recvcounts,
                                std::span<const int> rdispls,
                                MPI_Datatype recv_type) {
  return internal::run(comm, Call{.operation = Operation::alltoallv,
                                  .mode = classic::Mode::persistent,
                                  .send = {.data = send,
                                           .datatype = send_type,
                                           .counts = sendcounts,
                                           .displs = sdispls},
                                  .recv = {.data = recv,
                                           .datatype = recv_type,
                                           .counts = recvcounts,
                                           .displs = rdispls}});
}

void alltoallw(const classic::Comm& comm, const void* send,
               std::span<const int> sendcounts,
               std::span<const MPI_Aint> sdispls,
               std::span<const MPI_Datatype> send_types, void* recv,
               std::span<const int> recvcounts,
               std::span<const MPI_Aint> rdispls,
               std::span<const MPI_Datatype> recv_types) {
  (void)internal::run(comm, Call{.operation = Operation::alltoallw,
                                 .mode = classic::Mode::blocking,
                                 .send = {.data = send,
                                          .counts = sendcounts,
                                          .byte_displs = sdispls,
                                          .datatypes = send_types},
                                 .recv = {.data = recv,
                                          .counts = recvcounts,
                                          .byte_displs = rdispls,
                                          .datatypes = recv_types}});
}

classic::Request ialltoallw(const classic::Comm& comm, const void* send,
                            std::span<const int> sendcounts,
                            std::span<const MPI_Aint> sdispls,
                            std::span<const MPI_Datatype> send_types,
                            void* recv, std::span<const int> recvcounts,
                            std::span<const MPI_Aint> rdispls,
                            std::span<const MPI_Datatype> recv_types) {
  return internal::run(comm, Call{.operation = Operation::alltoallw,
                                  .mode = classic::Mode::nonblocking,
                                  .send = {.data = send,
                                           .counts = sendcounts,
                                           .byte_displs = sdispls,
                                           .datatypes = send_types},
                                  .recv = {.data = recv,
                                           .counts = recvcounts,
                                           .byte_displs = rdispls,
                                           .datatypes = recv_types}});
}

classic::Request alltoallw_init(const classic::Comm& comm, const void* send,
                                std::span<const int> sendcounts,
                                std::span<const MPI_Aint> sdispls,
                                std::span<const MPI_Datatype> send_types,
                                void* recv, std::span<const int> recvcounts,
                                std::span<const MPI_Aint> rdispls,
                                std::span<const MPI_Datatype> recv_types) {
  return internal::run(comm, Call{.operation = Operation::alltoallw,
                                  .mode = classic::Mode::persistent,
                                  .send = {.data = send,
                                           .counts = sendcounts,
                                           .byte_displs = sdispls,
                                           .datatypes = send_types},
                                  .recv = {.data = recv,
                                           .counts = recvcounts,
                                           .byte_displs = rdispls,
                                           .datatypes = recv_types}});
}

#pragma GCC diagnostic pop

}  // namespace ortho
