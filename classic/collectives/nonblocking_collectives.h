// Non-blocking collectives (MPI-3 MPI_Ibarrier, MPI_Ibcast, ...) on
// intra-communicators: classic::ibarrier, classic::ibcast, ...
#ifndef ORTHOCOMM_CLASSIC_COLLECTIVES_NONBLOCKING_COLLECTIVES_H_
#define ORTHOCOMM_CLASSIC_COLLECTIVES_NONBLOCKING_COLLECTIVES_H_

#include <mpi.h>

#include <cstddef>
#include <span>
#include <type_traits>

#include "classic/collectives/collectives.h"
#include "classic/collectives/typed_collectives.h"
#include "classic/comm/comm.h"
#include "classic/p2p/request.h"

namespace classic {

// Each i-function takes the arguments of the blocking collective of the
// same name (classic/collectives/collectives.h: raw and typed forms, in
// place where that one allows it), checks them alike (the same
// ErrorClass, the message naming classic::i<name>), starts the transport's
// non-blocking collective (MPI_I<name>) on the same context, and returns
// the pending Request. Every process of comm starts the same collectives
// in the same order, blocking and non-blocking alike (MPI-3 5.12).
//
// Completion: wait, test, wait_all, test_any, ... (classic/p2p/request.h)
// treat it as one request; its status is the empty one. cancel() raises
// ErrorClass::request (MPI forbids cancelling collectives).
//
// Buffers: the data buffers (send, recv, buffer) belong to the operation
// until it completes: do not read the receive buffers, nor write any of
// them, before a completion function has seen it. The counts,
// displacements and datatype arrays are copied: they may change or go as
// soon as the call returns. Derived datatypes and user ops must stay
// defined (not freed) until completion.
//
// Destroying the pending request (or assigning over it) never blocks: the
// transport can neither cancel nor free a pending collective, so classic
// keeps completing it in the background (when later collectives start, and
// at the Environment's end, where it waits for it). Its buffers must then
// stay valid until every process has taken part in it.
//
// On an inter-communicator (MPI-2 semantics, as collectives.h describes
// them) each runs as a plan of classic's executor instead of a transport
// collective: its rounds are posted as completion functions find the
// earlier ones complete. iscan and iexscan raise ErrorClass::comm there.

// ---- raw buffers (MPI's argument order) -----------------------------------

// MPI_Ibarrier.
[[nodiscard]] Request ibarrier(const Comm& comm);
// MPI_Ibcast.
[[nodiscard]] Request ibcast(const Comm& comm, void* buffer, int count,
                             MPI_Datatype datatype, int root);
// MPI_Igather.
[[nodiscard]] Request igather(const Comm& comm, const void* send,
                              int send_count, MPI_Datatype send_type,
                              void* recv, int recv_count,
                              MPI_Datatype recv_type, int root);
// MPI_Igatherv.
[[nodiscard]] Request igatherv(const Comm& comm, const void* send,
                               int send_count, MPI_Datatype send_type,
                               void* recv, std::span<const int> recvcounts,
                               std::span<const int> displs,
                               MPI_Datatype recv_type, int root);
// MPI_Iscatter.
[[nodiscard]] Request iscatter(const Comm& comm, const void* send,
                               int send_count, MPI_Datatype send_type,
                               void* recv, int recv_count,
                               MPI_Datatype recv_type, int root);
// MPI_Iscatterv.
[[nodiscard]] Request iscatterv(const Comm& comm, const void* send,
                                std::span<const int> sendcounts,
                                std::span<const int> displs,
                                MPI_Datatype send_type, void* recv,
                                int recv_count, MPI_Datatype recv_type,
                                int root);
// MPI_Iallgather.
[[nodiscard]] Request iallgather(const Comm& comm, const void* send,
                                 int send_count, MPI_Datatype send_type,
                                 void* recv, int recv_count,
                                 MPI_Datatype recv_type);
// MPI_Iallgatherv.
[[nodiscard]] Request iallgatherv(const Comm& comm, const void* send,
                                  int send_count, MPI_Datatype send_type,
                                  void* recv, std::span<const int> recvcounts,
                                  std::span<const int> displs,
                                  MPI_Datatype recv_type);
// MPI_Ialltoall.
[[nodiscard]] Request ialltoall(const Comm& comm, const void* send,
                                int send_count, MPI_Datatype send_type,
                                void* recv, int recv_count,
                                MPI_Datatype recv_type);
// MPI_Ialltoallv.
[[nodiscard]] Request ialltoallv(const Comm& comm, const void* send,
                                 std::span<const int> sendcounts,
                                 std::span<const int> sdispls,
                                 MPI_Datatype send_type, void* recv,
                                 std::span<const int> recvcounts,
                                 std::span<const int> rdispls,
                                 MPI_Datatype recv_type);
// MPI_Ialltoallw.
[[nodiscard]] Request ialltoallw(const Comm& comm, const void* send,
                                 std::span<const int> sendcounts,
                                 std::span<const int> sdispls,
                                 std::span<const MPI_Datatype> send_types,
                                 void* recv, std::span<const int> recvcounts,
                                 std::span<const int> rdispls,
                                 std::span<const MPI_Datatype> recv_types);
// MPI_Ireduce.
[[nodiscard]] Request ireduce(const Comm& comm, const void* send, void* recv,
                              int count, MPI_Datatype datatype, MPI_Op op,
                              int root);
// MPI_Iallreduce.
[[nodiscard]] Request iallreduce(const Comm& comm, const void* send, void* recv,
                                 int count, MPI_Datatype datatype, MPI_Op op);
// MPI_Ireduce_scatter.
[[nodiscard]] Request ireduce_scatter(const Comm& comm, const void* send,
                                      void* recv,
                                      std::span<const int> recvcounts,
                                      MPI_Datatype datatype, MPI_Op op);
// MPI_Ireduce_scatter_block.
[[nodiscard]] Request ireduce_scatter_block(const Comm& comm, const void* send,
                                            void* recv, int recv_count,
                                            MPI_Datatype datatype, MPI_Op op);
// MPI_Iscan.
[[nodiscard]] Request iscan(const Comm& comm, const void* send, void* recv,
                            int count, MPI_Datatype datatype, MPI_Op op);
// MPI_Iexscan.
[[nodiscard]] Request iexscan(const Comm& comm, const void* send, void* recv,
                              int count, MPI_Datatype datatype, MPI_Op op);

// ---- typed buffers --------------------------------------------------------

// ibcast, igather, ... on spans, as the blocking typed forms of the same
// collectives (typed_collectives.h); their one text for both modes is
// typed_collectives_in_mode.inc.
#define ORTHOCOMM_COLLECTIVE_NAME(name) i##name
#define ORTHOCOMM_COLLECTIVE_MODE Mode::nonblocking
#include "classic/collectives/typed_collectives_in_mode.inc"
#undef ORTHOCOMM_COLLECTIVE_MODE
#undef ORTHOCOMM_COLLECTIVE_NAME

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_COLLECTIVES_NONBLOCKING_COLLECTIVES_H_
