// The raw forms of ortho's reductions: reduce, allreduce,
// reduce_scatter(_block), scan and exscan, each of which describes its call
// and hands it to internal::run().
#include "ortho/call.h"
#include "ortho/collectives.h"

namespace ortho {

// The calls below name only the fields they set; GCC 12 warns about
// designated initializers that leave members to their default member
// initializers (-Wmissing-field-initializers), which is what they are for.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

void reduce(const classic::Comm& comm, const void* send, void* recv, int count,
            MPI_Datatype datatype, MPI_Op op, int root) {
  (void)internal::run(
      comm, Call{.operation = Operation::reduce,
                 .mode = classic::Mode::blocking,
                 .send = {.data = send, .count = count, .datatype = datatype},
                 .recv = {.data = recv, .count = count, .datatype = datatype},
                 .op = op,
                 .root = root});
}

classic::Request ireduce(const classic::Comm& comm, const void* send,
                         void* recv, int count, MPI_Datatype datatype,
                         MPI_Op op, int root) {
  return internal::run(
      comm, Call{.operation = Operation::reduce,
                 .mode = classic::Mode::nonblocking,
                 .send = {.data = send, .count = count, .datatype = datatype},
                 .recv = {.data = recv, .count = count, .datatype = datatype},
                 .op = op,
                 .root = root});
}

classic::Request reduce_init(const classic::Comm& comm, const void* send,
                             void* recv, int count, MPI_Datatype datatype,
                             MPI_Op op, int root) {
  return internal::run(
      comm, Call{.operation = Operation::reduce,
                 .mode = classic::Mode::persistent,
                 .send = {.data = send, .count = count, .datatype = datatype},
                 .recv = {.data = recv, .count = count, .datatype = datatype},
                 .op = op,
                 .root = root});
}

void allreduce(const classic::Comm& comm, const void* send, void* recv,
               int count, MPI_Datatype datatype, MPI_Op op) {
  (void)internal::run(
      comm, Call{.operation = Operation::allreduce,
                 .mode = classic::Mode::blocking,
                 .send = {.data = send, .count = count, .datatype = datatype},
                 .recv = {.data = recv, .count = count, .datatype = datatype},
                 .op = op});
}

classic::Request iallreduce(const classic::Comm& comm, const void* send,
                            void* recv, int count, MPI_Datatype datatype,
                            MPI_Op op) {
  return internal::run(
      comm, Call{.operation = Operation::allreduce,
                 .mode = classic::Mode::nonblocking,
                 .send = {.data = send, .count = count, .datatype = datatype},
                 .recv = {.data = recv, .count = count, .datatype = datatype},
                 .op = op});
}

classic::Request allreduce_init(const classic::Comm& comm, const void* send,
                                void* recv, int count, MPI_Datatype datatype,
                                MPI_Op op) {
  return internal::run(
      comm, Call{.operation = Operation::allreduce,
                 .mode = classic::Mode::persistent,
                 .send = {.data = send, .count = count, .datatype = datatype},
                 .recv = {.data = recv, .count = count, .datatype = datatype},
                 .op = op});
}

void reduce_scatter(const classic::Comm& comm, const void* send, void* recv,
                    std::span<const int> recvcounts, MPI_Datatype datatype,
                    MPI_Op op) {
  (void)internal::run(
      comm,
      Call{.operation = Operation::reduce_scatter,
           .mode = classic::Mode::blocking,
           .send = {.data = send, .datatype = datatype},
           .recv = {.data = recv, .datatype = datatype, .counts = recvcounts},
           .op = op});
}

classic::Request ireduce_scatter(const classic::Comm& comm, const void* send,
                                 void* recv, std::span<const int> recvcounts,
                                 MPI_Datatype datatype, MPI_Op op) {
  return internal::run(
      comm,
      Call{.operation = Operation::reduce_scatter,
           .mode = classic::Mode::nonblocking,
           .send = {.data = send, .datatype = datatype},
           .recv = {.data = recv, .datatype = datatype, .counts = recvcounts},
           .op = op});
}

classic::Request reduce_scatter_init(const classic::Comm& comm,
                                     const void* send, void* recv,
                                     std::span<const int> recvcounts,
                                     MPI_Datatype datatype, MPI_Op op) {
  return internal::run(
      comm,
      Call{.operation = Operation::reduce_scatter,
           .mode = classic::Mode::persistent,
           .send = {.data = send, .datatype = datatype},
           .recv = {.data = recv, .datatype = datatype, .counts = recvcounts},
           .op = op});
}

void reduce_scatter_block(const classic::Comm& comm, const void* send,
                          void* recv, int recv_count, MPI_Datatype datatype,
                          MPI_Op op) {
  (void)internal::run(
      comm,
      Call{.operation = Operation::reduce_scatter_block,
           .mode = classic::Mode::blocking,
           .send = {.data = send, .datatype = datatype},
           .recv = {.data = recv, .count = recv_count, .datatype = datatype},
           .op = op});
}

classic::Request ireduce_scatter_block(const classic::Comm& comm,
                                       const void* send, void* recv,
                                       int recv_count, MPI_Datatype datatype,
                                       MPI_Op op) {
  return internal::run(
      comm,
      Call{.operation = Operation::reduce_scatter_block,
           .mode = classic::Mode::nonblocking,
           .send = {.data = send, .datatype = datatype},
           .recv = {.data = recv, .count = recv_count, .datatype = datatype},
           .op = op});
}

classic::Request reduce_scatter_block_init(const classic::Comm& comm,
                                           const void* send, void* recv,
                                           int recv_count,
                                           MPI_Datatype datatype, MPI_Op op) {
  return internal::run(
      comm,
      Call{.operation = Operation::reduce_scatter_block,
           .mode = classic::Mode::persistent,
           .send = {.data = send, .datatype = datatype},
           .recv = {.data = recv, .count = recv_count, .datatype = datatype},
           .op = op});
}

void scan(const classic::Comm& comm, const void* send, void* recv, int count,
          MPI_Datatype datatype, MPI_Op op) {
  (void)internal::run(
      comm, Call{.operation = Operation::scan,
                 .mode = classic::Mode::blocking,
                 .send = {.data = send, .count = count, .datatype = datatype},
                 .recv = {.data = recv, .count = count, .datatype = datatype},
                 .op = op});
}

classic::Request iscan(const classic::Comm& comm, const void* send, void* recv,
                       int count, MPI_Datatype datatype, MPI_Op op) {
  return internal::run(
      comm, Call{.operation = Operation::scan,
                 .mode = classic::Mode::nonblocking,
                 .send = {.data = send, .count = count, .datatype = datatype},
                 .recv = {.data = recv, .count = count, .datatype = datatype},
                 .op = op});
}

classic::Request scan_init(const classic::Comm& comm, const void* send,
                           void* recv, int count, MPI_Datatype datatype,
                           MPI_Op op) {
  return internal::run(
      comm, Call{.operation = Operation::scan,
                 .mode = classic::Mode::persistent,
                 .send = {.data = send, .count = count, .datatype = datatype},
                 .recv = {.data = recv, .count = count, .datatype = datatype},
                 .op = op});
}

void exscan(const classic::Comm& comm, const void* send, void* recv, int count,
            MPI_Datatype datatype, MPI_Op op) {
  (void)internal::run(
      comm, Call{.operation = Operation::exscan,
                 .mode = classic::Mode::blocking,
                 .send = {.data = send, .count = count, .datatype = datatype},
                 .recv = {.data = recv, .count = count, .datatype = datatype},
                 .op = op});
}

classic::Request iexscan(const classic::Comm& comm, const void* send,
                         void* recv, int count, MPI_Datatype datatype,
                         MPI_Op op) {
  return internal::run(
      comm, Call{.operation = Operation::exscan,
                 .mode = classic::Mode::nonblocking,
                 .send = {.data = send, .count = count, .datatype = datatype},
                 .recv = {.data = recv, .count = count, .datatype = datatype},
                 .op = op});
}

classic::Request exscan_init(const classic::Comm& comm, const void* send,
                             void* recv, int count, MPI_Datatype datatype,
                             MPI_Op op) {
  return internal::run(
      comm, Call{.operation = Operation::exscan,
                 .mode = classic::Mode::persistent,
                 .send = {.data = send, .count = count, .datatype = datatype},
                 .recv = {.data = recv, .count = count, .datatype = datatype},
                 .op = op});
}

#pragma GCC diagnostic pop

}  // namespace ortho
