// Collective operations on classic communicators (MPI-1 chapter 4, with
// MPI-2's in-place forms, alltoallw, reduce_scatter_block and collectives
// on inter-communicators): their rules and raw forms here, their typed
// forms in typed_collectives.h (included). Their non-blocking and
// persistent forms: nonblocking_collectives.h, persistent_collectives.h.
#ifndef ORTHOCOMM_CLASSIC_COLLECTIVES_COLLECTIVES_H_
#define ORTHOCOMM_CLASSIC_COLLECTIVES_COLLECTIVES_H_

#include <mpi.h>

#include <span>

#include "classic/collectives/typed_collectives.h"
#include "classic/comm/comm.h"

namespace classic {

// Every process of the communicator calls the same collectives in the same
// order, with the same root and op; ranks (root, the order of blocks) are
// ranks of this communicator. They run on the transport's collectives over
// the communicator's own context, so they never match traffic of another
// communicator (a dup, a split, point-to-point on this one).
//
// Buffers come in two forms:
//  - typed: any contiguous range of T (std::vector, std::array, std::span,
//    a C array; classic::SendBuffer, RecvBuffer) with datatype_of<T>(); a
//    variable or a view, never a temporary container. Send and receive
//    buffers ("spans" below) have the same element type (const on the send side, or not). Counts come
//    from the spans, as each function says, and classic checks every count
//    and displacement against the spans: nothing is read or written outside
//    them. Counts and displacements of the v variants are in elements.
//  - raw: (pointer, count, MPI_Datatype) as in MPI, for derived datatypes
//    (which the caller creates, commits and frees on the transport). Only
//    counts, array lengths, roots, datatypes and ops are checked there.
// Arguments that MPI says are significant only at the root (gather's
// receive buffer, scatter's send buffer, their counts and displacements)
// are ignored, and not checked, elsewhere: pass empty spans there.
//
// In place (MPI_IN_PLACE): the typed forms take classic::in_place in place
// of a buffer, raw forms take MPI_IN_PLACE, where MPI allows it: the send
// buffer of gather(v) and reduce at the root, the receive buffer of
// scatter(v) at the root, and the send buffer of allgather(v), alltoall(v,
// w), allreduce, reduce_scatter(_block), scan and exscan on every process
// (all processes of the call must then use it). The data then sits where
// the receive buffer says (gather: the root's block; reduce_scatter: block
// i at the sum of counts before i, the result at the start).
//
// On an inter-communicator (MPI-2 semantics;
// classic/collectives/internal/inter_collectives.h): each group's results come
// from the other group's data.
//  - Rooted (bcast, gather(v), scatter(v), reduce): the root passes
//    classic::mpi_root, the rest of its group proc_null, and every process
//    of the other group the root's rank in its remote group. proc_null
//    processes take no part: none of their other arguments is significant
//    or checked, and their buffers are not touched. At the root only the
//    root-side buffer is significant (recv of gather(v)/reduce, send of
//    scatter(v), buffer of bcast); in the other group only its own side
//    (send of gather(v)/reduce, recv of scatter(v), buffer of bcast).
//    Counts and displacements of the v variants have one entry per process
//    of the remote group.
//  - allgather(v), alltoall(v, w): blocks are per process of the remote
//    group; the send count of one group must match the receive count of
//    the other (the two groups' counts may differ). allreduce: every
//    process receives the reduction of the other group's send buffers (the
//    same count everywhere). reduce_scatter(_block): the reduction of the
//    other group's vectors is scattered in this group, by this group's
//    recvcounts (one entry per local process); both groups' vectors have
//    the same length.
//  - Typed forms take counts from the spans: the root of gather and
//    scatter divides its span by the remote group's size, allgather and
//    alltoall divide their receive (and alltoall's send) span likewise,
//    reduce's root uses its recv span's size.
//  - barrier returns in one group once every process of the other has
//    entered it. MPI_IN_PLACE / classic::in_place is not allowed
//    (ErrorClass::buffer); scan and exscan raise ErrorClass::comm.
//  - Each runs as a plan of classic's executor (classic/exec/executor.h)
//    on the inter-communicator's private context, which no receive of the
//    application can match; so do its non-blocking and persistent forms.
//    Rooted ones: the root exchanges one message with each process of the
//    other group (reduce folds them in rank order at the root). The others
//    gather a group's data at its rank 0 (allgather(v), and the reduction
//    of allreduce and reduce_scatter(_block), folded in rank order), the
//    two rank 0s exchange, and each passes the result on in its group;
//    alltoall(v, w) exchanges pairwise.
//
// Errors (classic::Error), raised before anything is sent, on the process
// whose arguments are wrong (as in MPI, the others may then wait in the
// collective; arguments that all processes share, such as root and op,
// fail everywhere alike):
//   ErrorClass::comm      a null, freed or finalised communicator; scan
//                         or exscan on an inter-communicator.
//   ErrorClass::root      root outside [0, size()); on an
//                         inter-communicator, a root that is neither
//                         mpi_root, proc_null nor in [0, remote_size()).
//   ErrorClass::count     a negative count; a counts or displacements array
//                         without exactly size() entries; a typed span of
//                         more than INT_MAX elements; typed v variants: the
//                         caller's own entry of the counts differing from
//                         its send or receive span.
//   ErrorClass::buffer    typed: a span too small for the counts, a block
//                         before its start, a span that holds no whole
//                         number of per-process blocks where the count is
//                         derived from it, two receive blocks that overlap,
//                         send and receive spans that share memory; in place
//                         where MPI does not allow it.
//   ErrorClass::datatype  MPI_DATATYPE_NULL (or a datatype the transport
//                         rejects, e.g. one not committed).
//   ErrorClass::op        MPI_OP_NULL, or an op the transport rejects for
//                         the datatype (MPI_BAND on double, MPI_MAX on
//                         complex).
// What only the transport can see (processes whose counts disagree) comes
// back in the class it reports (ErrorClass::truncate, ...), or intern.
// User-defined ops (MPI_Op_create) and derived datatypes are the
// transport's objects and work as in MPI.

// ---- raw buffers (MPI's argument order) -----------------------------------

// MPI_Barrier.
void barrier(const Comm& comm);
// MPI_Bcast.
void bcast(const Comm& comm, void* buffer, int count, MPI_Datatype datatype,
           int root);
// MPI_Gather and MPI_Gatherv.
void gather(const Comm& comm, const void* send, int send_count,
            MPI_Datatype send_type, void* recv, int recv_count,
            MPI_Datatype recv_type, int root);
void gatherv(const Comm& comm, const void* send, int send_count,
             MPI_Datatype send_type, void* recv,
             std::span<const int> recvcounts, std::span<const int> displs,
             MPI_Datatype recv_type, int root);
// MPI_Scatter and MPI_Scatterv.
void scatter(const Comm& comm, const void* send, int send_count,
             MPI_Datatype send_type, void* recv, int recv_count,
             MPI_Datatype recv_type, int root);
void scatterv(const Comm& comm, const void* send,
              std::span<const int> sendcounts, std::span<const int> displs,
              MPI_Datatype send_type, void* recv, int recv_count,
              MPI_Datatype recv_type, int root);
// MPI_Allgather and MPI_Allgatherv.
void allgather(const Comm& comm, const void* send, int send_count,
               MPI_Datatype send_type, void* recv, int recv_count,
               MPI_Datatype recv_type);
void allgatherv(const Comm& comm, const void* send, int send_count,
                MPI_Datatype send_type, void* recv,
                std::span<const int> recvcounts, std::span<const int> displs,
                MPI_Datatype recv_type);
// MPI_Alltoall, MPI_Alltoallv and MPI_Alltoallw (displacements in bytes,
// one datatype per peer). On one process, alltoallw makes its copy through
// the transport's alltoallv: Open MPI 4.1's alltoallw there (coll/self)
// scales the byte displacements by the extent and overruns the buffers.
void alltoall(const Comm& comm, const void* send, int send_count,
              MPI_Datatype send_type, void* recv, int recv_count,
              MPI_Datatype recv_type);
void alltoallv(const Comm& comm, const void* send,
               std::span<const int> sendcounts, std::span<const int> sdispls,
               MPI_Datatype send_type, void* recv,
               std::span<const int> recvcounts, std::span<const int> rdispls,
               MPI_Datatype recv_type);
void alltoallw(const Comm& comm, const void* send,
               std::span<const int> sendcounts, std::span<const int> sdispls,
               std::span<const MPI_Datatype> send_types, void* recv,
               std::span<const int> recvcounts, std::span<const int> rdispls,
               std::span<const MPI_Datatype> recv_types);
// MPI_Reduce, MPI_Allreduce, MPI_Reduce_scatter, MPI_Reduce_scatter_block,
// MPI_Scan and MPI_Exscan.
void reduce(const Comm& comm, const void* send, void* recv, int count,
            MPI_Datatype datatype, MPI_Op op, int root);
void allreduce(const Comm& comm, const void* send, void* recv, int count,
               MPI_Datatype datatype, MPI_Op op);
void reduce_scatter(const Comm& comm, const void* send, void* recv,
                    std::span<const int> recvcounts, MPI_Datatype datatype,
                    MPI_Op op);
void reduce_scatter_block(const Comm& comm, const void* send, void* recv,
                          int recv_count, MPI_Datatype datatype, MPI_Op op);
void scan(const Comm& comm, const void* send, void* recv, int count,
          MPI_Datatype datatype, MPI_Op op);
void exscan(const Comm& comm, const void* send, void* recv, int count,
            MPI_Datatype datatype, MPI_Op op);

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_COLLECTIVES_COLLECTIVES_H_
