// The plans of the direct algorithm on directed graphs for the operations
// MPI has no neighbourhood form of (the paper, section 2.2): barrier, bcast,
// gather(v), scatter(v), reduce and allreduce, one round each. Arguments
// are raw (counts and displacements in elements of the datatype) and
// already checked. (allgatherw, the other one, sends the blocks of its
// normalisation: internal/exchange.h.)
#ifndef ORTHOCOMM_ORTHO_ALGORITHMS_GRAPH_PLANS_H_
#define ORTHOCOMM_ORTHO_ALGORITHMS_GRAPH_PLANS_H_

#include <mpi.h>

#include <cstddef>
#include <span>
#include <vector>

#include "classic/exec/plan.h"
#include "ortho/internal/inside_ortho.h"

namespace ortho::algorithms {

// The caller's rank and its neighbours, in the order that places blocks.
struct Neighbourhood {
  int rank = 0;
  std::span<const int> sources;
  std::span<const int> destinations;
};

// `count` elements of `datatype`, as a plan block in `space`.
struct Elements {
  int count = 0;
  MPI_Datatype datatype = MPI_DATATYPE_NULL;
};

// k slots for operands of `data` in scratch, one after the other (each at
// a multiple of 16 bytes), and the scratch bytes they take.
struct OperandSlots {
  std::vector<classic::Plan::Block> slots;
  MPI_Aint bytes = 0;
};
OperandSlots operand_slots(std::size_t k, Elements data);

// result = operands[0] op operands[1] op ... op operands[k-1]
// (MPI_Reduce_local's operand order, so non-commutative ops see the
// operands' order), as local work; nothing for no operand.
void fold_operands(std::vector<classic::Plan::Local>& local,
                   std::span<const classic::Plan::Block> operands,
                   classic::Plan::Block result, MPI_Op op);

// A zero-byte message to every distinct out-neighbour, a receive from
// every distinct in-neighbour (self loops skipped): a process leaves once
// each of its in-neighbours has entered.
classic::Plan barrier_plan(const Neighbourhood& n);

// The root's buffer to each distinct out-neighbour other than itself.
classic::Plan bcast_plan(const Neighbourhood& n, Elements buffer, int root);

// The root receives block i (at i * count extents, or displs[i] extents
// with counts[i] elements for gatherv) from sources[i], self loops
// included; each other process sends its block once per edge to the root.
// in_place (the root's send is MPI_IN_PLACE): the root's own blocks are
// already where they belong and are not sent to itself.
classic::Plan gather_plan(const Neighbourhood& n, Elements send, Elements recv,
                          int root, bool in_place);
classic::Plan gatherv_plan(const Neighbourhood& n, Elements send,
                           std::span<const int> counts,
                           std::span<const int> displs, MPI_Datatype recv_type,
                           int root, bool in_place);

// The root sends block i (i * count extents; counts[i] at displs[i] for
// scatterv) to destinations[i], once per distinct destination (the block
// of its first edge); a process the root reaches receives it. in_place:
// the root's own block is not sent to itself.
classic::Plan scatter_plan(const Neighbourhood& n, Elements send, Elements recv,
                           int root, bool in_place);
classic::Plan scatterv_plan(const Neighbourhood& n, std::span<const int> counts,
                            std::span<const int> displs, MPI_Datatype send_type,
                            Elements recv, int root, bool in_place);

// The root's receive buffer becomes s_0 op s_1 op ... op s_{k-1} over its
// in-edges in order (MPI_Reduce_local's operand order, so non-commutative
// ops see neighbour order); untouched when it has no in-neighbour. Each
// process sends its buffer once per edge to the root. in_place: the
// root's own operand is its receive buffer's content.
classic::Plan reduce_plan(const Neighbourhood& n, Elements data, MPI_Op op,
                          int root, bool in_place);
// Every process is the root of its own in-neighbourhood.
classic::Plan allreduce_plan(const Neighbourhood& n, Elements data, MPI_Op op,
                             bool in_place);

}  // namespace ortho::algorithms

#endif  // ORTHOCOMM_ORTHO_ALGORITHMS_GRAPH_PLANS_H_
