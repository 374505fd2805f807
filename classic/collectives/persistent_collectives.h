// Persistent collectives (MPI-4 MPI_Barrier_init, MPI_Bcast_init, ...) on
// intra-communicators: classic::barrier_init, classic::bcast_init, ...
#ifndef ORTHOCOMM_CLASSIC_COLLECTIVES_PERSISTENT_COLLECTIVES_H_
#define ORTHOCOMM_CLASSIC_COLLECTIVES_PERSISTENT_COLLECTIVES_H_

#include <mpi.h>

#include <cstddef>
#include <span>
#include <type_traits>

#include "classic/collectives/collectives.h"
#include "classic/collectives/typed_collectives.h"
#include "classic/comm/comm.h"
#include "classic/p2p/request.h"

namespace classic {

// Each *_init function takes the arguments of the blocking collective of
// the same name (classic/collectives/collectives.h: raw and typed forms, in
// place where that one allows it), checks them alike (the same ErrorClass,
// the message naming classic::<name>_init), and returns an inactive
// persistent Request over the transport's persistent collective
// (MPIX_<Name>_init of Open MPI 4.1's pcollreq extension, MPI-4's
// MPI_<Name>_init) on the same context. The *_init call is itself
// collective: every process of comm makes the same ones in the same order,
// and starts them in the same order (classic::start, start_all).
//
// Each start runs the collective once on the same buffers with their
// contents at that time; a completion function (wait, test, wait_all, ...)
// makes the request inactive again. start() of an active request, and
// cancel(), raise ErrorClass::request.
//
// Buffers: the data buffers (send, recv, buffer) must stay valid for the
// life of the request; between a start and its completion they belong to
// the operation (do not read the receive buffers, nor write any). Their
// contents may change between completion and the next start. The counts,
// displacements and datatype arrays are copied at the *_init call.
// Derived datatypes and user ops must stay defined while the request
// lives.
//
// Destroying an inactive request frees the transport's request; destroying
// an active one never blocks: classic completes it in the background (as
// for the non-blocking forms, classic/collectives/nonblocking_collectives.h)
// and then frees it, so its buffers must stay valid until every process has
// taken part in that last run.
//
// On an inter-communicator (MPI-2 semantics, as collectives.h describes
// them) each is a plan of classic's executor, made and bound at the *_init
// call, instead of a transport request; destroying an active one withdraws
// its receives as the executor describes (classic/exec/executor.h).
// scan_init and exscan_init raise ErrorClass::comm there.

// ---- raw buffers (MPI's argument order) -----------------------------------

// MPIX_Barrier_init.
[[nodiscard]] Request barrier_init(const Comm& comm);
// MPIX_Bcast_init.
[[nodiscard]] Request bcast_init(const Comm& comm, void* buffer, int count,
                                 MPI_Datatype datatype, int root);
// MPIX_Gather_init.
[[nodiscard]] Request gather_init(const Comm& comm, const void* send,
                                  int send_count, MPI_Datatype send_type,
                                  void* recv, int recv_count,
                                  MPI_Datatype recv_type, int root);
// MPIX_Gatherv_init.
[[nodiscard]] Request gatherv_init(const Comm& comm, const void* send,
                                   int send_count, MPI_Datatype send_type,
                                   void* recv, std::span<const int> recvcounts,
                                   std::span<const int> displs,
                                   MPI_Datatype recv_type, int root);
// MPIX_Scatter_init.
[[nodiscard]] Request scatter_init(const Comm& comm, const void* send,
                                   int send_count, MPI_Datatype send_type,
                                   void* recv, int recv_count,
                                   MPI_Datatype recv_type, int root);
// MPIX_Scatterv_init.
[[nodiscard]] Request scatterv_init(const Comm& comm, const void* send,
                                    std::span<const int> sendcounts,
                                    std::span<const int> displs,
                                    MPI_Datatype send_type, void* recv,
                                    int recv_count, MPI_Datatype recv_type,
                                    int root);
// MPIX_Allgather_init.
[[nodiscard]] Request allgather_init(const Comm& comm, const void* send,
                                     int send_count, MPI_Datatype send_type,
                                     void* recv, int recv_count,
                                     MPI_Datatype recv_type);
// MPIX_Allgatherv_init.
[[nodiscard]] Request allgatherv_init(const Comm& comm, const void* send,
                                      int send_count, MPI_Datatype send_type,
                                      void* recv,
                                      std::span<const int> recvcounts,
                                      std::span<const int> displs,
                                      MPI_Datatype recv_type);
// MPIX_Alltoall_init.
[[nodiscard]] Request alltoall_init(const Comm& comm, const void* send,
                                    int send_count, MPI_Datatype send_type,
                                    void* recv, int recv_count,
                                    MPI_Datatype recv_type);
// MPIX_Alltoallv_init.
[[nodiscard]] Request alltoallv_init(const Comm& comm, const void* send,
                                     std::span<const int> sendcounts,
                                     std::span<const int> sdispls,
                                     MPI_Datatype send_type, void* recv,
                                     std::span<const int> recvcounts,
                                     std::span<const int> rdispls,
                                     MPI_Datatype recv_type);
// MPIX_Alltoallw_init.
[[nodiscard]] Request alltoallw_init(
    const Comm& comm, const void* send, std::span<const int> sendcounts,
    std::span<const int> sdispls, std::span<const MPI_Datatype> send_types,
    void* recv, std::span<const int> recvcounts, std::span<const int> rdispls,
    std::span<const MPI_Datatype> recv_types);
// MPIX_Reduce_init.
[[nodiscard]] Request reduce_init(const Comm& comm, const void* send,
                                  void* recv, int count, MPI_Datatype datatype,
                                  MPI_Op op, int root);
// MPIX_Allreduce_init.
[[nodiscard]] Request allreduce_init(const Comm& comm, const void* send,
                                     void* recv, int count,
                                     MPI_Datatype datatype, MPI_Op op);
// MPIX_Reduce_scatter_init.
[[nodiscard]] Request reduce_scatter_init(const Comm& comm, const void* send,
                                          void* recv,
                                          std::span<const int> recvcounts,
                                          MPI_Datatype datatype, MPI_Op op);
// MPIX_Reduce_scatter_block_init.
[[nodiscard]] Request reduce_scatter_block_init(const Comm& comm,
                                                const void* send, void* recv,
                                                int recv_count,
                                                MPI_Datatype datatype,
                                                MPI_Op op);
// MPIX_Scan_init.
[[nodiscard]] Request scan_init(const Comm& comm, const void* send, void* recv,
                                int count, MPI_Datatype datatype, MPI_Op op);
// MPIX_Exscan_init.
[[nodiscard]] Request exscan_init(const Comm& comm, const void* send,
                                  void* recv, int count, MPI_Datatype datatype,
                                  MPI_Op op);

// ---- typed buffers --------------------------------------------------------

// bcast_init, gather_init, ... on spans, as the blocking typed forms of the
// same collectives (typed_collectives.h); their one text for both modes is
// typed_collectives_in_mode.inc.
#define ORTHOCOMM_COLLECTIVE_NAME(name) name##_init
#define ORTHOCOMM_COLLECTIVE_MODE Mode::persistent
#include "classic/collectives/typed_collectives_in_mode.inc"
#undef ORTHOCOMM_COLLECTIVE_MODE
#undef ORTHOCOMM_COLLECTIVE_NAME

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_COLLECTIVES_PERSISTENT_COLLECTIVES_H_
