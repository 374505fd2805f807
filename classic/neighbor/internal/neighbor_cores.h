// The cores of the neighbourhood collectives: each checks its blocks
// against the caller's neighbours, lays them out, and runs them on the
// NeighborExchange. One core per collective serves its raw and typed forms
// in every mode (neighbor_collectives.cc). Internal to classic.
#ifndef ORTHOCOMM_CLASSIC_NEIGHBOR_INTERNAL_NEIGHBOR_CORES_H_
#define ORTHOCOMM_CLASSIC_NEIGHBOR_INTERNAL_NEIGHBOR_CORES_H_

#include <mpi.h>

#include <span>

#include "classic/base/internal/buffers.h"
#include "classic/base/internal/inside_classic.h"
#include "classic/exec/mode.h"
#include "classic/neighbor/internal/neighbor_exchange.h"
#include "classic/p2p/request.h"

namespace classic::internal {

// Blocks of the send and receive buffers (counts in elements); raw blocks
// have no capacity to check.
Request neighbor_allgather_core(const NeighborExchange& exchange,
                                SendBlock send, RecvBlock recv, Mode mode);
Request neighbor_allgatherv_core(const NeighborExchange& exchange,
                                 SendBlock send, RecvBlocks recv, Mode mode);
Request neighbor_alltoall_core(const NeighborExchange& exchange, SendBlock send,
                               RecvBlock recv, Mode mode);
Request neighbor_alltoallv_core(const NeighborExchange& exchange,
                                SendBlocks send, RecvBlocks recv, Mode mode);
// Displacements in bytes, one datatype per neighbour.
Request neighbor_alltoallw_core(
    const NeighborExchange& exchange, const void* send,
    std::span<const int> sendcounts, std::span<const MPI_Aint> sdispls,
    std::span<const MPI_Datatype> send_types, void* recv,
    std::span<const int> recvcounts, std::span<const MPI_Aint> rdispls,
    std::span<const MPI_Datatype> recv_types, Mode mode);

}  // namespace classic::internal

#endif  // ORTHOCOMM_CLASSIC_NEIGHBOR_INTERNAL_NEIGHBOR_CORES_H_
