// The routes of the node-aware algorithm (node_aware.cc), MPI-free: how the
// blocks of a neighbourhood allgather or alltoall on a directed graph reach
// their destinations when the processes sit on hosts. Blocks between two
// processes of one host go directly. Blocks bound for another host are
// gathered by one process of the source host (the pair's sending relay),
// cross in one message per ordered pair of hosts to one process of the
// destination host (the receiving relay), which hands them out. Three
// steps: (0) direct blocks within a host and gathering at sending relays,
// (1) the messages between hosts, (2) handing out on the destination host.
//
// Relays are processes with an edge (so that they know the size of the
// blocks of an allgather or alltoall, which MPI makes the same on every
// process). Every process computes the same relays from the whole graph (every
// process's destinations, in order) and the hosts, and from them its own
// part: which blocks it sends and receives in each step, and where they
// lie (a block of its send or receive buffer, or a scratch slot of a block
// it relays). The plan builder gives the slots their bytes.
#ifndef ORTHOCOMM_ORTHO_ALGORITHMS_NODE_AWARE_NODE_AWARE_ROUTES_H_
#define ORTHOCOMM_ORTHO_ALGORITHMS_NODE_AWARE_NODE_AWARE_ROUTES_H_

#include <array>
#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include "ortho/internal/inside_ortho.h"

namespace ortho::algorithms::node_routes {

// The graph and the hosts, the same on every process.
struct HostGraph {
  // host_of_rank[r]: the host of rank r (any non-negative numbering).
  std::vector<int> host_of_rank;
  // destinations[r]: rank r's out-neighbours, in its order (repeats
  // allowed; an edge to itself too).
  std::vector<std::vector<int>> destinations;
};

// What travels: one block per edge (alltoall) or one block per source,
// the same for all its edges (allgather), which crosses to each host once.
enum class Payload : std::uint8_t { per_edge, per_source };

// Where a block lies on this process: send block `index` (the block of
// destination `index`; per_source: any edge's, they are one block), receive
// block `index` (of source `index`), or scratch slot `index` (a relayed
// block).
struct Slot {
  enum class Kind : std::uint8_t { send, recv, scratch };
  Kind kind = Kind::send;
  int index = 0;
  friend bool operator==(const Slot&, const Slot&) = default;
};

// One message: its blocks, in order, as one message to or from `peer`.
struct Transfer {
  int peer = 0;
  int tag = 0;
  std::vector<Slot> slots;
};

// A copy after a step's messages: receive block `to` = `from`.
struct Copy {
  Slot from;
  int to = 0;
};

struct Step {
  std::vector<Transfer> receives;
  std::vector<Transfer> sends;
  std::vector<Copy> copies;
};

// The tags of the steps' messages: a process sends at most one message to
// each peer in a step (step 0's direct blocks and the blocks it gives its
// relay travel together), and distinct tags per step keep a message of one
// step from pairing with a receive of another. kCrossTag marks every
// message between hosts (step 1's here; step 0's in routes that send to
// another host's relay at once).
inline constexpr int kGatherTag = 0;
inline constexpr int kCrossTag = 1;
inline constexpr int kHandOutTag = 2;

struct Routes {
  // Always three steps (some may be empty).
  std::vector<Step> steps;
  int scratch_slots = 0;
  // Per scratch slot, the source index of this process's first receive
  // block it is copied to (-1: none). Where that block has the relayed
  // block's exact size, the plan builder may land the block there and
  // relay it from there instead of from scratch.
  std::vector<int> lands_in;
  // This process's messages to other hosts per call (step 1's sends).
  int messages_between_hosts = 0;
};

// This process's routes. `rank` is its rank, `sources` its in-neighbours in
// its order (the graph's destinations, seen from the other end). Throws
// std::invalid_argument where `sources` disagrees with the graph.
Routes routes(const HostGraph& graph, int rank, std::span<const int> sources,
              Payload payload);

// What one process sends in one step, for the cost model: messages,
// blocks (a relayed block counts at each process that sends it on), the
// blocks in messages of several blocks (the executor packs them), and the
// most blocks in one message.
struct StepLoad {
  int messages = 0;
  int blocks = 0;
  int packed_blocks = 0;
  int largest_message_blocks = 0;
  friend bool operator==(const StepLoad&, const StepLoad&) = default;
};
using Load = std::array<StepLoad, 3>;  // per step, as Routes::steps

// What one process sends in one round, to processes of its own host and to
// others (for routes whose rounds mix the two).
struct SplitLoad {
  StepLoad within;
  StepLoad between;
  friend bool operator==(const SplitLoad&, const SplitLoad&) = default;
};

// Every process's load (by rank): what routes() gives each of them to
// send, counted from the whole graph at once.
std::vector<Load> loads(const HostGraph& graph, Payload payload);

// The same messages with their peers: flows[r][step][q], the blocks rank r
// sends rank q in that step (loads() counts them), so that what each
// process receives can be told too.
using Flow = std::array<std::map<int, int>, 3>;  // blocks per peer
std::vector<Flow> flows(const HostGraph& graph, Payload payload);

}  // namespace ortho::algorithms::node_routes

#endif  // ORTHOCOMM_ORTHO_ALGORITHMS_NODE_AWARE_NODE_AWARE_ROUTES_H_
