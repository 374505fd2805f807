// Process mapping: what Reorder::yes does on ortho's graph constructors, and
// a report of the traffic between hosts that a user can print.
//
// ortho::dist_graph_create_adjacent and ortho::dist_graph_create with
// Reorder::yes, called on a communicator that carries the same Cartesian
// naming on every process (naming::cart_name, one process per grid cell),
// whose graph is one stencil everywhere (stencils::detect_cartesian) and
// whose processes sit on several hosts with as many processes each
// (classic::locality; ORTHO_HOSTS=K plans as if on K hosts of consecutive
// world ranks), place the grid on the hosts: among the axis-aligned
// block partitions of the grid into one block per host, the one with the
// least weight on the edges between hosts (stencils/placement.h; edge
// weights are the largest weight any process gives that stencil offset,
// 1 when unweighted), taken only where it is strictly below the weight of
// the communicator's own order. The new communicator's rank q is then a
// process on the host of grid cell q, and it takes cell q's place in the
// graph: its neighbour lists and weights are those that the process of
// rank q passed (data follows the grid cell, not the process). Its base
// communicator (ortho::comm_base) has the same order and carries the same
// naming. Otherwise (no common stencil, one host, unequal hosts, nothing
// to gain) the ranks keep their order, as with Reorder::no. Mapping is
// collective once, at creation; calls on the communicator cost the same.
#ifndef ORTHOCOMM_ORTHO_MAPPING_H_
#define ORTHOCOMM_ORTHO_MAPPING_H_

#include <cstdint>
#include <optional>

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

struct MappingReport {
  int hosts = 1;
  // The ranks follow a computed placement.
  bool mapped = false;
  // This communicator's traffic between hosts.
  HostTraffic traffic;
  // Where Reorder::yes was asked and the graph is a common stencil: the
  // traffic in the order of the communicator it was made from (what
  // Reorder::no gives), and the best axis-aligned block partition's (the
  // bound the mapping meets; none where no partition fits the hosts).
  std::optional<HostTraffic> identity;
  std::optional<HostTraffic> best_blocks;
};

// The report of `graph`, a directed-graph communicator. Collective over it
// (one allreduce); throws classic::Error: comm for a null, freed or
// non-graph communicator.
MappingReport mapping_report(const classic::Comm& graph);

}  // namespace ortho

#endif  // ORTHOCOMM_ORTHO_MAPPING_H_
