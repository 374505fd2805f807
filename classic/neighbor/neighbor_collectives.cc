// The neighbourhood collectives' entry points, raw and typed, in every
// mode: each makes the NeighborExchange of its call and hands its blocks to
// the collective's core (internal/neighbor_cores.h), which checks and runs
// them.
#include "classic/neighbor/neighbor_collectives.h"

#include <span>

#include "classic/base/internal/buffers.h"
#include "classic/exec/executor.h"
#include "classic/exec/mode.h"
#include "classic/neighbor/internal/neighbor_checks.h"
#include "classic/neighbor/internal/neighbor_cores.h"
#include "classic/neighbor/internal/neighbor_exchange.h"

namespace classic {
namespace {

using internal::NeighborChecks;
using internal::NeighborExchange;

using internal::kRaw;
using internal::Names;
using internal::neighbor_allgather_core;
using internal::neighbor_allgatherv_core;
using internal::neighbor_alltoall_core;
using internal::neighbor_alltoallv_core;
using internal::neighbor_alltoallw_core;

constexpr Names kAllgather{"classic::neighbor_allgather",
                           "classic::ineighbor_allgather",
                           "classic::neighbor_allgather_init"};
constexpr Names kAllgatherv{"classic::neighbor_allgatherv",
                            "classic::ineighbor_allgatherv",
                            "classic::neighbor_allgatherv_init"};
constexpr Names kAlltoall{"classic::neighbor_alltoall",
                          "classic::ineighbor_alltoall",
                          "classic::neighbor_alltoall_init"};
constexpr Names kAlltoallv{"classic::neighbor_alltoallv",
                           "classic::ineighbor_alltoallv",
                           "classic::neighbor_alltoallv_init"};
constexpr Names kAlltoallw{"classic::neighbor_alltoallw",
                           "classic::ineighbor_alltoallw",
                           "classic::neighbor_alltoallw_init"};

void check_apart(const NeighborChecks& check, internal::In send,
                 internal::Out recv) {
  check.apart(send.data, send.size * send.element_bytes, recv.data,
              recv.size * recv.element_bytes);
}

}  // namespace

// ---- typed forms ------------------------------------------------------------

namespace internal {

Request neighbor_allgather_erased(const Comm& comm, In send, Out recv,
                                  Mode mode) {
  const NeighborExchange exchange(comm, kAllgather(mode), mode);
  const NeighborChecks check(exchange);
  const int count = check.count_of(send.size, "send");
  check_apart(check, send, recv);
  return neighbor_allgather_core(
      exchange, {send.data, count, send.datatype, send.size},
      {recv.data, count, recv.datatype, recv.size}, mode);
}

Request neighbor_allgatherv_erased(const Comm& comm, In send, Out recv,
                                   std::span<const int> recvcounts,
                                   std::span<const int> displs, Mode mode) {
  const NeighborExchange exchange(comm, kAllgatherv(mode), mode);
  const NeighborChecks check(exchange);
  const int count = check.count_of(send.size, "send");
  check_apart(check, send, recv);
  return neighbor_allgatherv_core(
      exchange, {send.data, count, send.datatype, send.size},
      {recv.data, recvcounts, displs, recv.datatype, recv.size}, mode);
}

// The count of one block: from send, or from recv when there are no
// destinations.
Request neighbor_alltoall_erased(const Comm& comm, In send, Out recv,
                                 Mode mode) {
  const NeighborExchange exchange(comm, kAlltoall(mode), mode);
  const NeighborChecks check(exchange);
  const int count =
      exchange.outdegree() > 0
          ? check.per_block(send.size, exchange.outdegree(), "send")
      : exchange.indegree() > 0
          ? check.per_block(recv.size, exchange.indegree(), "recv")
          : 0;
  check_apart(check, send, recv);
  return neighbor_alltoall_core(
      exchange, {send.data, count, send.datatype, send.size},
      {recv.data, count, recv.datatype, recv.size}, mode);
}

Request neighbor_alltoallv_erased(const Comm& comm, In send,
                                  std::span<const int> sendcounts,
                                  std::span<const int> sdispls, Out recv,
                                  std::span<const int> recvcounts,
                                  std::span<const int> rdispls, Mode mode) {
  const NeighborExchange exchange(comm, kAlltoallv(mode), mode);
  check_apart(NeighborChecks(exchange), send, recv);
  return neighbor_alltoallv_core(
      exchange, {send.data, sendcounts, sdispls, send.datatype, send.size},
      {recv.data, recvcounts, rdispls, recv.datatype, recv.size}, mode);
}

}  // namespace internal

// ---- raw forms --------------------------------------------------------------

namespace {

Request raw_allgather(const Comm& comm, const void* send, int send_count,
                      MPI_Datatype send_type, void* recv, int recv_count,
                      MPI_Datatype recv_type, Mode mode) {
  return neighbor_allgather_core(NeighborExchange(comm, kAllgather(mode), mode),
                                 {send, send_count, send_type, kRaw},
                                 {recv, recv_count, recv_type, kRaw}, mode);
}

Request raw_allgatherv(const Comm& comm, const void* send, int send_count,
                       MPI_Datatype send_type, void* recv,
                       std::span<const int> recvcounts,
                       std::span<const int> displs, MPI_Datatype recv_type,
                       Mode mode) {
  return neighbor_allgatherv_core(
      NeighborExchange(comm, kAllgatherv(mode), mode),
      {send, send_count, send_type, kRaw},
      {recv, recvcounts, displs, recv_type, kRaw}, mode);
}

Request raw_alltoall(const Comm& comm, const void* send, int send_count,
                     MPI_Datatype send_type, void* recv, int recv_count,
                     MPI_Datatype recv_type, Mode mode) {
  return neighbor_alltoall_core(NeighborExchange(comm, kAlltoall(mode), mode),
                                {send, send_count, send_type, kRaw},
                                {recv, recv_count, recv_type, kRaw}, mode);
}

Request raw_alltoallv(const Comm& comm, const void* send,
                      std::span<const int> sendcounts,
                      std::span<const int> sdispls, MPI_Datatype send_type,
                      void* recv, std::span<const int> recvcounts,
                      std::span<const int> rdispls, MPI_Datatype recv_type,
                      Mode mode) {
  return neighbor_alltoallv_core(NeighborExchange(comm, kAlltoallv(mode), mode),
                                 {send, sendcounts, sdispls, send_type, kRaw},
                                 {recv, recvcounts, rdispls, recv_type, kRaw},
                                 mode);
}

Request raw_alltoallw(const Comm& comm, const void* send,
                      std::span<const int> sendcounts,
                      std::span<const MPI_Aint> sdispls,
                      std::span<const MPI_Datatype> send_types, void* recv,
                      std::span<const int> recvcounts,
                      std::span<const MPI_Aint> rdispls,
                      std::span<const MPI_Datatype> recv_types, Mode mode) {
  return neighbor_alltoallw_core(NeighborExchange(comm, kAlltoallw(mode), mode),
                                 send, sendcounts, sdispls, send_types, recv,
                                 recvcounts, rdispls, recv_types, mode);
}

}  // namespace

void neighbor_allgather(const Comm& comm, const void* send, int send_count,
                        MPI_Datatype send_type, void* recv, int recv_count,
                        MPI_Datatype recv_type) {
  (void)raw_allgather(comm, send, send_count, send_type, recv, recv_count,
                      recv_type, Mode::blocking);
}

void neighbor_allgatherv(const Comm& comm, const void* send, int send_count,
                         MPI_Datatype send_type, void* recv,
                         std::span<const int> recvcounts,
                         std::span<const int> displs, MPI_Datatype recv_type) {
  (void)raw_allgatherv(comm, send, send_count, send_type, recv, recvcounts,
                       displs, recv_type, Mode::blocking);
}

void neighbor_alltoall(const Comm& comm, const void* send, int send_count,
                       MPI_Datatype send_type, void* recv, int recv_count,
                       MPI_Datatype recv_type) {
  (void)raw_alltoall(comm, send, send_count, send_type, recv, recv_count,
                     recv_type, Mode::blocking);
}

void neighbor_alltoallv(const Comm& comm, const void* send,
                        std::span<const int> sendcounts,
                        std::span<const int> sdispls, MPI_Datatype send_type,
                        void* recv, std::span<const int> recvcounts,
                        std::span<const int> rdispls, MPI_Datatype recv_type) {
  (void)raw_alltoallv(comm, send, sendcounts, sdispls, send_type, recv,
                      recvcounts, rdispls, recv_type, Mode::blocking);
}

void neighbor_alltoallw(const Comm& comm, const void* send,
                        std::span<const int> sendcounts,
                        std::span<const MPI_Aint> sdispls,
                        std::span<const MPI_Datatype> send_types, void* recv,
                        std::span<const int> recvcounts,
                        std::span<const MPI_Aint> rdispls,
                        std::span<const MPI_Datatype> recv_types) {
  (void)raw_alltoallw(comm, send, sendcounts, sdispls, send_types, recv,
                      recvcounts, rdispls, recv_types, Mode::blocking);
}

Request ineighbor_allgather(const Comm& comm, const void* send, int send_count,
                            MPI_Datatype send_type, void* recv, int recv_count,
                            MPI_Datatype recv_type) {
  return raw_allgather(comm, send, send_count, send_type, recv, recv_count,
                       recv_type, Mode::nonblocking);
}

Request ineighbor_allgatherv(const Comm& comm, const void* send, int send_count,
                             MPI_Datatype send_type, void* recv,
                             std::span<const int> recvcounts,
                             std::span<const int> displs,
                             MPI_Datatype recv_type) {
  return raw_allgatherv(comm, send, send_count, send_type, recv, recvcounts,
                        displs, recv_type, Mode::nonblocking);
}

Request ineighbor_alltoall(const Comm& comm, const void* send, int send_count,
                           MPI_Datatype send_type, void* recv, int recv_count,
                           MPI_Datatype recv_type) {
  return raw_alltoall(comm, send, send_count, send_type, recv, recv_count,
                      recv_type, Mode::nonblocking);
}

Request ineighbor_alltoallv(const Comm& comm, const void* send,
                            std::span<const int> sendcounts,
                            std::span<const int> sdispls,
                            MPI_Datatype send_type, void* recv,
                            std::span<const int> recvcounts,
                            std::span<const int> rdispls,
                            MPI_Datatype recv_type) {
  return raw_alltoallv(comm, send, sendcounts, sdispls, send_type, recv,
                       recvcounts, rdispls, recv_type, Mode::nonblocking);
}

Request ineighbor_alltoallw(const Comm& comm, const void* send,
                            std::span<const int> sendcounts,
                            std::span<const MPI_Aint> sdispls,
                            std::span<const MPI_Datatype> send_types,
                            void* recv, std::span<const int> recvcounts,
                            std::span<const MPI_Aint> rdispls,
                            std::span<const MPI_Datatype> recv_types) {
  return raw_alltoallw(comm, send, sendcounts, sdispls, send_types, recv,
                       recvcounts, rdispls, recv_types, Mode::nonblocking);
}

Request neighbor_allgather_init(const Comm& comm, const void* send,
                                int send_count, MPI_Datatype send_type,
                                void* recv, int recv_count,
                                MPI_Datatype recv_type) {
  return raw_allgather(comm, send, send_count, send_type, recv, recv_count,
                       recv_type, Mode::persistent);
}

Request neighbor_allgatherv_init(const Comm& comm, const void* send,
                                 int send_count, MPI_Datatype send_type,
                                 void* recv, std::span<const int> recvcounts,
                                 std::span<const int> displs,
                                 MPI_Datatype recv_type) {
  return raw_allgatherv(comm, send, send_count, send_type, recv, recvcounts,
                        displs, recv_type, Mode::persistent);
}

Request neighbor_alltoall_init(const Comm& comm, const void* send,
                               int send_count, MPI_Datatype send_type,
                               void* recv, int recv_count,
                               MPI_Datatype recv_type) {
  return raw_alltoall(comm, send, send_count, send_type, recv, recv_count,
                      recv_type, Mode::persistent);
}

Request neighbor_alltoallv_init(const Comm& comm, const void* send,
                                std::span<const int> sendcounts,
                                std::span<const int> sdispls,
                                MPI_Datatype send_type, void* recv,
                                std::span<const int> recvcounts,
                                std::span<const int> rdispls,
                                MPI_Datatype recv_type) {
  return raw_alltoallv(comm, send, sendcounts, sdispls, send_type, recv,
                       recvcounts, rdispls, recv_type, Mode::persistent);
}

Request neighbor_alltoallw_init(const Comm& comm, const void* send,
                                std::span<const int> sendcounts,
                                std::span<const MPI_Aint> sdispls,
                                std::span<const MPI_Datatype> send_types,
                                void* recv, std::span<const int> recvcounts,
                                std::span<const MPI_Aint> rdispls,
                                std::span<const MPI_Datatype> recv_types) {
  return raw_alltoallw(comm, send, sendcounts, sdispls, send_types, recv,
                       recvcounts, rdispls, recv_types, Mode::persistent);
}

Request neighbor_allgather(const Comm& comm, const void* send, int send_count,
                           MPI_Datatype send_type, void* recv, int recv_count,
                           MPI_Datatype recv_type, Mode mode) {
  return raw_allgather(comm, send, send_count, send_type, recv, recv_count,
                       recv_type, mode);
}

Request neighbor_allgatherv(const Comm& comm, const void* send, int send_count,
                            MPI_Datatype send_type, void* recv,
                            std::span<const int> recvcounts,
                            std::span<const int> displs, MPI_Datatype recv_type,
                            Mode mode) {
  return raw_allgatherv(comm, send, send_count, send_type, recv, recvcounts,
                        displs, recv_type, mode);
}

Request neighbor_alltoall(const Comm& comm, const void* send, int send_count,
                          MPI_Datatype send_type, void* recv, int recv_count,
                          MPI_Datatype recv_type, Mode mode) {
  return raw_alltoall(comm, send, send_count, send_type, recv, recv_count,
                      recv_type, mode);
}

Request neighbor_alltoallv(const Comm& comm, const void* send,
                           std::span<const int> sendcounts,
                           std::span<const int> sdispls, MPI_Datatype send_type,
                           void* recv, std::span<const int> recvcounts,
                           std::span<const int> rdispls, MPI_Datatype recv_type,
                           Mode mode) {
  return raw_alltoallv(comm, send, sendcounts, sdispls, send_type, recv,
                       recvcounts, rdispls, recv_type, mode);
}

Request neighbor_alltoallw(const Comm& comm, const void* send,
                           std::span<const int> sendcounts,
                           std::span<const MPI_Aint> sdispls,
                           std::span<const MPI_Datatype> send_types, void* recv,
                           std::span<const int> recvcounts,
                           std::span<const MPI_Aint> rdispls,
                           std::span<const MPI_Datatype> recv_types,
                           Mode mode) {
  return raw_alltoallw(comm, send, sendcounts, sdispls, send_types, recv,
                       recvcounts, rdispls, recv_types, mode);
}

}  // namespace classic
