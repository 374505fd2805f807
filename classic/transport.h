// The transport boundary of classic: the few Open MPI calls that give a
// communicator its matching context. Internal to classic.
#ifndef ORTHOCOMM_CLASSIC_TRANSPORT_H_
#define ORTHOCOMM_CLASSIC_TRANSPORT_H_

#include <mpi.h>

#include <span>

namespace classic::transport {

// A fresh matching context over the processes `world_ranks`, in that order
// (rank i of the context is world rank world_ranks[i]). Collective over those
// processes only, which must all call it with the same list; `parent` is a
// context that contains them all (its traffic keeps concurrent creations from
// disjoint lists apart). This is the only way classic makes contexts: split,
// create, dup and the inter-communicator constructors compute the member list
// themselves and then ask for a context over it.
MPI_Comm new_context(MPI_Comm parent, std::span<const int> world_ranks);

// Gives a context back; `context` becomes MPI_COMM_NULL.
void free_context(MPI_Comm& context);

}  // namespace classic::transport

#endif  // ORTHOCOMM_CLASSIC_TRANSPORT_H_
