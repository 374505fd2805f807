// What a topology communicator caches, and where: one classic attribute per
// communicator under a keyval of classic's own. Internal to classic (and its
// tests).
#ifndef ORTHOCOMM_CLASSIC_TOPOLOGY_INTERNAL_TOPOLOGY_CACHE_H_
#define ORTHOCOMM_CLASSIC_TOPOLOGY_INTERNAL_TOPOLOGY_CACHE_H_

#include <cstddef>
#include <variant>
#include <vector>

#include "classic/base/internal/inside_classic.h"
#include "classic/comm/comm.h"

namespace classic::internal {

// A Cartesian grid; ranks are numbered in row-major order over `dims`.
struct CartTopology {
  std::vector<int> dims;
  std::vector<bool> periods;
};

// The MPI-1 graph, as graph_create's arguments: node i's neighbours are
// edges[index[i-1] .. index[i]) (index[-1] = 0). Every process holds it all,
// as MPI-1 prescribes.
struct GraphTopology {
  std::vector<int> index;
  std::vector<int> edges;
};

// This process's part of a distributed graph: its in- and out-neighbours
// in the order the constructor defines (MPI-2.2), with weights when the
// graph is weighted (empty otherwise). Never the whole graph: memory is
// proportional to the degree.
struct DistGraphTopology {
  std::vector<int> sources;
  std::vector<int> source_weights;
  std::vector<int> destinations;
  std::vector<int> destination_weights;
  bool weighted = false;
};

using Topology = std::variant<CartTopology, GraphTopology, DistGraphTopology>;

// Makes the new communicator `comm` a topology communicator: gives it a
// private context for the neighbour collectives (collective over comm; see
// Comm::State) and caches `topology`. For the topology constructors; a null
// `comm` (a process left out) is returned as it is, without collectives.
Comm with_topology(Comm comm, Topology topology);

// Caches `topology` on `comm` (replacing an earlier one). Dup copies it; a
// free or the last handle destroys it exactly once.
void attach_topology(const Comm& comm, Topology topology);

// The topology cached on `comm`, or nullptr. ErrorClass::comm for a null or
// freed communicator.
const Topology* find_topology(const Comm& comm);

// The topology of kind T cached on `comm`. ErrorClass::topology, naming
// `function` and what `comm` has instead, when it has none of that kind.
template <class T>
const T& topology_as(const Comm& comm, const char* function);

// Topologies cached now, over all communicators of this process: for leak
// checks.
std::size_t live_topology_count() noexcept;

}  // namespace classic::internal

#endif  // ORTHOCOMM_CLASSIC_TOPOLOGY_INTERNAL_TOPOLOGY_CACHE_H_
