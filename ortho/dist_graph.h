// ortho's distributed graph constructors: classic's (same arguments, same
// checks, same errors; classic/graph/dist_graph.h) plus ortho's table, made
// while the processes are together anyway, so that comm_base and the
// first collective on the new communicator are local.
#ifndef ORTHOCOMM_ORTHO_DIST_GRAPH_H_
#define ORTHOCOMM_ORTHO_DIST_GRAPH_H_

#include <span>

#include "classic/comm/comm.h"
#include "classic/graph/dist_graph.h"
#include "classic/topology/topology.h"

namespace ortho {

// MPI_Dist_graph_create_adjacent. Collective over comm. The table is
// where the algorithms of every operation are selected (ortho/table.h):
// where comm carries a Cartesian naming (naming::cart_name, the same on
// every process) and every process's lists are the same stencil up to the
// grid's borders (stencils::detect_cartesian, collective), allgather and
// alltoall get message-combining algorithms (algorithms/combining/),
// chosen by block size against the direct ones.
[[nodiscard]] classic::Comm dist_graph_create_adjacent(
    const classic::Comm& comm, std::span<const int> sources,
    std::span<const int> sourceweights, std::span<const int> destinations,
    std::span<const int> destweights, const classic::Info& info = {},
    classic::Reorder reorder = classic::Reorder::no);
[[nodiscard]] classic::Comm dist_graph_create_adjacent(
    const classic::Comm& comm, std::span<const int> sources,
    classic::Unweighted, std::span<const int> destinations, classic::Unweighted,
    const classic::Info& info = {},
    classic::Reorder reorder = classic::Reorder::no);

// MPI_Dist_graph_create (edges given anywhere). Collective over comm.
[[nodiscard]] classic::Comm dist_graph_create(
    const classic::Comm& comm, std::span<const int> sources,
    std::span<const int> degrees, std::span<const int> destinations,
    std::span<const int> weights, const classic::Info& info = {},
    classic::Reorder reorder = classic::Reorder::no);
[[nodiscard]] classic::Comm dist_graph_create(
    const classic::Comm& comm, std::span<const int> sources,
    std::span<const int> degrees, std::span<const int> destinations,
    classic::Unweighted, const classic::Info& info = {},
    classic::Reorder reorder = classic::Reorder::no);
}  // namespace ortho

#endif  // ORTHOCOMM_ORTHO_DIST_GRAPH_H_
