// Process topologies on classic communicators (MPI-1 chapter 6 and the
// MPI-2.2 distributed graphs): the kinds, topo_test and the reorder flag.
#ifndef ORTHOCOMM_CLASSIC_TOPOLOGY_TOPOLOGY_H_
#define ORTHOCOMM_CLASSIC_TOPOLOGY_TOPOLOGY_H_

#include <map>
#include <string>

#include "classic/comm/comm.h"

namespace classic {

// MPI_CART, MPI_GRAPH, MPI_DIST_GRAPH, and MPI_UNDEFINED for a communicator
// without a topology.
enum class TopologyKind { undefined, cartesian, graph, dist_graph };

// The `reorder` argument of the topology constructors. Reorder::yes allows
// the constructor to number the processes differently from the old
// communicator; what each constructor does with it is documented there.
enum class Reorder { no, yes };

// MPI_Info of the distributed graph constructors: hints as key/value pairs.
// Accepted and ignored (MPI lets an implementation ignore every hint).
using Info = std::map<std::string, std::string>;

// MPI_Topo_test. A topology is cached on the communicator that the
// constructor returns, through classic's attribute caching: dup keeps it,
// split and create (which copy no attributes) do not. ErrorClass::comm for a
// null or freed communicator.
TopologyKind topo_test(const Comm& comm);

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_TOPOLOGY_TOPOLOGY_H_
