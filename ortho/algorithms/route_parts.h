// Pieces the MPI-free routes of the combining algorithms on general graphs
// share (node_aware_routes.cc, common_neighbours_routes.cc and the
// spread-relays routes): a process's receive block of each edge, checked
// against the whole graph, the building of a step's messages, the
// candidates for relays and the blocks that go directly within a host.
#ifndef ORTHOCOMM_ORTHO_ALGORITHMS_ROUTE_PARTS_H_
#define ORTHOCOMM_ORTHO_ALGORITHMS_ROUTE_PARTS_H_

#include <map>
#include <span>
#include <vector>

#include "ortho/algorithms/node_aware/node_aware_routes.h"
#include "ortho/internal/inside_ortho.h"

namespace ortho::algorithms::node_routes {

// An edge's far end: destination `rank`, and which of the source's edges
// to it this is (0 for the first): MPI pairs repeated edges by order.
struct Target {
  int rank = 0;
  int occurrence = 0;
};

// This process's receive block of each (source, occurrence): MPI pairs the
// repeated edges between two processes by order. The constructor throws
// std::invalid_argument where `sources` disagrees with the graph.
class ReceiveBlocks {
 public:
  ReceiveBlocks(const HostGraph& graph, int rank, std::span<const int> sources);
  int at(int source, int occurrence) const {
    return by_source_.at(source)[static_cast<std::size_t>(occurrence)];
  }
  const std::vector<int>& of(int source) const { return by_source_.at(source); }

 private:
  std::map<int, std::vector<int>> by_source_;
};

// Adds `slot` to the message to or from `peer` in `transfers` (one message
// per peer and step, in the order the peers first appear, so both ends
// list a message's blocks alike when they add them in the same order).
void add(std::vector<Transfer>& transfers, int peer, int tag, Slot slot);

inline Slot send_slot(int edge) { return {Slot::Kind::send, edge}; }
inline Slot recv_slot(int block) { return {Slot::Kind::recv, block}; }
inline Slot scratch_slot(int slot) { return {Slot::Kind::scratch, slot}; }

// One process's messages of one step, blocks per peer, counted as a load.
using Messages = std::map<int, int>;
StepLoad counted(const Messages& messages);

// Throws std::invalid_argument where a destination of `graph` lies outside
// it or `graph`'s lists disagree in length.
void check_graph(const HostGraph& graph);

// The ranks of each host that have an edge (in or out), ascending: the
// candidates for relays. (A relay with an edge knows the size of the
// blocks of an allgather or alltoall from its own arguments; every pair's
// hosts have one: the ends of its edges.)
std::map<int, std::vector<int>> relay_candidates(const HostGraph& graph);

// Step 0's blocks within the host: copies to itself, one message per other
// process of the host that is a neighbour (tag kGatherTag).
void direct_blocks(const HostGraph& graph, int rank,
                   std::span<const int> sources, const ReceiveBlocks& blocks,
                   Step& step);

}  // namespace ortho::algorithms::node_routes

#endif  // ORTHOCOMM_ORTHO_ALGORITHMS_ROUTE_PARTS_H_
