// The caller's blocks of a neighbourhood collective (allgather(v, w),
// alltoall(v, w) on a directed graph) as plan blocks, one per edge in edge
// order, after checking the call's arguments: what the algorithms that
// route blocks themselves (per_peer, combining's alltoallv/w) start from.
#ifndef ORTHOCOMM_ORTHO_ALGORITHMS_EDGE_BLOCKS_H_
#define ORTHOCOMM_ORTHO_ALGORITHMS_EDGE_BLOCKS_H_

#include <vector>

#include "classic/exec/plan.h"
#include "ortho/algorithms/checks.h"
#include "ortho/call.h"
#include "ortho/table.h"

namespace ortho::algorithms {

struct EdgeBlocks {
  std::vector<classic::Plan::Block> send;  // per destination
  std::vector<classic::Plan::Block> recv;  // per source
};

// Raises classic::Error (through `check`) for arguments that do not fit the
// table's neighbourhood.
EdgeBlocks edge_blocks(const Table& table, const Call& call,
                       const Checks& check);

}  // namespace ortho::algorithms

#endif  // ORTHOCOMM_ORTHO_ALGORITHMS_EDGE_BLOCKS_H_
