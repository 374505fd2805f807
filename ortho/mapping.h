// Process mapping: what Reorder::yes does on ortho's graph constructors, and
// a report of the traffic between hosts that a user can print.
//
// ortho::dist_graph_create_adjacent and ortho::dist_graph_create with
// Reorder::yes place the graph's vertices (the ranks of the communicator
// it is made from) on the hosts where its processes run
// (classic::locality; ORTHO_HOSTS=K plans as if on K hosts of consecutive
// world ranks), in one of two ways:
//
// - A grid. Where the communicator carries the same Cartesian naming on
//   every process (naming::cart_name, one process per grid cell), the
//   graph is one stencil everywhere (stencils::detect_cartesian) and the
//   hosts have as many processes each: among the axis-aligned block
//   partitions of the grid into one block per host, the one with the
//   least weight on the edges between hosts (stencils/placement.h; edge
//   weights are the largest weight any process gives that stencil offset,
//   1 when unweighted).
// - Any other directed graph, where Scotch is built in (libscotch-dev;
//   ORTHO_SCOTCH=0 turns it off at run time): Scotch's mapping of the
//   graph onto the hosts, each edge weighing its weight (1 when
//   unweighted), made exact to the hosts' process counts
//   (ortho/internal/graph_placement.h).
//
// A placement is taken only where its weight between hosts is strictly
// below that of the communicator's own order. The new communicator's rank
// q is then a process on the host of vertex q, and it takes vertex q's
// place in the graph: its neighbour lists and weights are those that the
// process of rank q passed (data follows the vertex, not the process; the
// user's neighbour order is kept). mapping_report gives the permutation.
// Its base communicator (ortho::comm_base) has the same order and carries
// the same naming, where there is one. Otherwise the ranks keep their
// order, as with Reorder::no, and mapping_report says why. Mapping is
// collective once, at creation (the graph gathered at rank 0 for Scotch);
// calls on the communicator cost the same.
#ifndef ORTHOCOMM_ORTHO_MAPPING_H_
#define ORTHOCOMM_ORTHO_MAPPING_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "classic/comm/comm.h"

namespace ortho {

// The directed edges of a graph whose two ends are on different hosts.
struct HostTraffic {
  std::int64_t edges = 0;
  // Their total weight (the graph's edge weights; 1 each when unweighted):
  // with weights in bytes, the bytes one exchange sends between hosts.
  std::int64_t weight = 0;
  // The largest weight leaving one host.
  std::int64_t max_host_weight = 0;
};

// How a graph communicator's ranks were placed.
enum class Placement {
  kept,         // in the order of the communicator it was made from
  grid_blocks,  // a block partition of a common stencil's grid
  scotch,       // Scotch's mapping of the graph
};

// Why the ranks kept their order.
enum class KeptBecause {
  placed,     // they did not: a placement was taken
  not_asked,  // Reorder::no
  one_host,   // every process on one host
  no_gain,    // no placement lowers the weight between hosts
  no_scotch,  // a general graph, and Scotch is not built in, turned off or
              // failed
};

// "placed", "not asked", "one host", "no gain", "no Scotch".
const char* to_string(KeptBecause reason);

struct MappingReport {
  int hosts = 1;
  // The ranks follow a computed placement (placement != kept).
  bool mapped = false;
  Placement placement = Placement::kept;
  KeptBecause kept_because = KeptBecause::not_asked;
  // This communicator's traffic between hosts.
  HostTraffic traffic;
  // Where Reorder::yes was asked on several hosts: the traffic in the
  // order of the communicator the graph was made from (what Reorder::no
  // gives); for a common stencil the best axis-aligned block partition's
  // (the bound the mapping meets; none where no partition fits the
  // hosts); for a general graph Scotch's placement's (none without it).
  std::optional<HostTraffic> identity;
  std::optional<HostTraffic> best_blocks;
  std::optional<HostTraffic> scotch;
  // The permutation: old_rank[q] is the rank, in the communicator the
  // graph was made from, of the process that has rank q here; new_rank is
  // its inverse. Both are the identity where the ranks kept their order.
  std::vector<int> old_rank;
  std::vector<int> new_rank;
};

// The report of `graph`, a directed-graph communicator. Collective over it
// (one allreduce); throws classic::Error: comm for a null, freed or
// non-graph communicator.
MappingReport mapping_report(const classic::Comm& graph);

}  // namespace ortho

#endif  // ORTHOCOMM_ORTHO_MAPPING_H_
