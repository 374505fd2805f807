// The three topological structures of a communicator (the paper, section 2)
// and its base communicator: ortho::topo_test and ortho::comm_base.
#ifndef ORTHOCOMM_ORTHO_STRUCTURE_H_
#define ORTHOCOMM_ORTHO_STRUCTURE_H_

#include <string_view>

#include "classic/comm/comm.h"

namespace ortho {

// fully_connected: an intra-communicator (a Cartesian *name* alone adds no
// topology); bipartite: an inter-communicator; directed_graph: a
// communicator with a distributed graph topology, or with classic's graph
// or Cartesian topology, read as the directed graph of its MPI
// neighbourhoods (MPI-4.1 section 8.6).
enum class Structure { fully_connected, bipartite, directed_graph };

// "fully connected", "bipartite", "directed graph".
std::string_view to_string(Structure structure);

// The structure of `comm`. Local. ErrorClass::comm for a null or freed
// communicator.
Structure topo_test(const classic::Comm& comm);

// The fully connected communicator over the same processes in the same
// order (any reordering the structured communicator's constructor made is
// kept): the communicator itself when it is fully connected; the local
// group's communicator of an inter-communicator; for a directed graph, a
// communicator of its processes without the topology.
//
// Local: ortho prepares the base when it creates the communicator
// (dist_graph_create(_adjacent), comm_split/create/dup, comm_subgraph).
// For a directed-graph or inter-communicator made elsewhere (classic's
// constructors), ortho prepares it at the first ortho call on that
// communicator, which is then collective (over both groups of an
// inter-communicator); call ortho::prepare(comm) to choose the moment.
classic::Comm comm_base(const classic::Comm& comm);

// Prepares ortho's table for `comm` (its structure, base communicator,
// neighbours and selected algorithms) if it has none; nothing otherwise.
// Collective where comm_base says so; local for an intra-communicator.
void prepare(const classic::Comm& comm);

}  // namespace ortho

#endif  // ORTHOCOMM_ORTHO_STRUCTURE_H_
