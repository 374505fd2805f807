#include "classic/topology/internal/topology_cache.h"

#include <string>
#include <type_traits>
#include <utility>

#include "classic/base/error.h"
#include "classic/comm/internal/comm_state.h"
#include "classic/comm/typed_keyval.h"
#include "classic/topology/topology.h"

namespace classic {
namespace internal {
namespace {

std::size_t& live_topologies() {
  static std::size_t count = 0;
  return count;
}

// The cached value; counts itself so tests can see that free and dup neither
// leak nor double-destroy topologies.
struct CachedTopology {
  explicit CachedTopology(Topology t) : topology(std::move(t)) {
    ++live_topologies();
  }
  CachedTopology(const CachedTopology& other) : topology(other.topology) {
    ++live_topologies();
  }
  CachedTopology& operator=(const CachedTopology&) = delete;
  ~CachedTopology() { --live_topologies(); }

  Topology topology;
};

// Created on first use, process-local like every keyval. Dup copies the
// topology (MPI-1 6.4: the topology is kept by MPI_Comm_dup).
const Keyval<CachedTopology>& topology_keyval() {
  static const Keyval<CachedTopology> keyval(OnDup::copy);
  return keyval;
}

const char* kind_name(const Topology* topology) {
  if (topology == nullptr) return "no topology";
  switch (topology->index()) {
    case 0:
      return "a Cartesian topology";
    case 1:
      return "a graph topology";
    default:
      return "a distributed graph topology";
  }
}

template <class T>
constexpr const char* wanted_name() {
  if constexpr (std::is_same_v<T, CartTopology>) {
    return "a Cartesian topology";
  } else if constexpr (std::is_same_v<T, GraphTopology>) {
    return "a graph topology";
  } else {
    return "a distributed graph topology";
  }
}

}  // namespace

Comm with_topology(Comm comm, Topology topology) {
  if (comm.is_null()) return comm;
  Comm::State& state =
      internal::CommAccess::state(comm, "classic::internal::with_topology");
  if (state.private_context == MPI_COMM_NULL) state.add_private_context();
  attach_topology(comm, std::move(topology));
  return comm;
}

void attach_topology(const Comm& comm, Topology topology) {
  Comm handle = comm;
  topology_keyval().set(handle, CachedTopology(std::move(topology)));
}

const Topology* find_topology(const Comm& comm) {
  const CachedTopology* cached = topology_keyval().get(comm);
  return cached == nullptr ? nullptr : &cached->topology;
}

template <class T>
const T& topology_as(const Comm& comm, const char* function) {
  const Topology* topology = find_topology(comm);
  if (topology != nullptr) {
    if (const T* wanted = std::get_if<T>(topology)) return *wanted;
  }
  throw Error(ErrorClass::topology, function,
              std::string("comm has ") + kind_name(topology) + ", not " +
                  wanted_name<T>());
}

template const CartTopology& topology_as<CartTopology>(const Comm&,
                                                       const char*);
template const GraphTopology& topology_as<GraphTopology>(const Comm&,
                                                         const char*);
template const DistGraphTopology& topology_as<DistGraphTopology>(const Comm&,
                                                                 const char*);

std::size_t live_topology_count() noexcept { return live_topologies(); }

}  // namespace internal

TopologyKind topo_test(const Comm& comm) {
  const internal::Topology* topology = internal::find_topology(comm);
  if (topology == nullptr) return TopologyKind::undefined;
  switch (topology->index()) {
    case 0:
      return TopologyKind::cartesian;
    case 1:
      return TopologyKind::graph;
    default:
      return TopologyKind::dist_graph;
  }
}

}  // namespace classic
