// Sub-communicators of directed-graph communicators (the paper, section
// 2.4): split, create and dup give the induced subgraph, and
// comm_subgraph induces it on any communicator of a subset.
#ifndef ORTHOCOMM_ORTHO_SUBGRAPH_H_
#define ORTHOCOMM_ORTHO_SUBGRAPH_H_

#include "classic/comm/comm.h"
#include "classic/groups/group.h"

namespace ortho {

// classic's split / create / dup (same arguments, checks and errors). On a
// directed-graph communicator the result is a directed-graph communicator
// (distributed graph) whose edges are those of comm between its members,
// in their order, with their weights; edges to processes outside it (and
// proc_null neighbours of a Cartesian topology) are dropped. dup keeps the
// whole graph and shares comm's table. Collective over comm; null where
// classic's result is null. On fully connected and bipartite
// communicators, classic's result as it is.
[[nodiscard]] classic::Comm comm_split(const classic::Comm& comm, int color,
                                       int key);
[[nodiscard]] classic::Comm comm_create(const classic::Comm& comm,
                                        const classic::Group& group);
[[nodiscard]] classic::Comm comm_dup(const classic::Comm& comm);

// The subgraph of `graphcomm` induced on subcomm's processes, numbered as
// in subcomm. Collective over subcomm; every process of subcomm must be a
// process of graphcomm (ErrorClass::group otherwise) and graphcomm must be
// a directed-graph communicator (ErrorClass::topology).
[[nodiscard]] classic::Comm comm_subgraph(const classic::Comm& graphcomm,
                                          const classic::Comm& subcomm);

}  // namespace ortho

#endif  // ORTHOCOMM_ORTHO_SUBGRAPH_H_
