#include "experiments/simulate/sized_flows.h"

#include <stdexcept>
#include <string>

namespace simulate {
namespace {

namespace node_routes = ortho::algorithms::node_routes;

std::size_t at(int index) { return static_cast<std::size_t>(index); }

// Every process's in-neighbours and the entries of each incoming block, in
// the order the edges give them.
struct Incoming {
  std::vector<std::vector<int>> sources;
  std::vector<std::vector<int>> entries;
};

Incoming incoming_of(const Workload& workload) {
  const auto& destinations = workload.graph.destinations;
  Incoming incoming{
      .sources = std::vector<std::vector<int>>(destinations.size()),
      .entries = std::vector<std::vector<int>>(destinations.size())};
  for (std::size_t p = 0; p < destinations.size(); ++p) {
    for (std::size_t k = 0; k < destinations[p].size(); ++k) {
      const int to = destinations[p][k];
      incoming.sources[at(to)].push_back(static_cast<int>(p));
      incoming.entries[at(to)].push_back(workload.entries[p][k]);
    }
  }
  return incoming;
}

// The bytes of every block a process holds, by slot: its own (send), the
// ones delivered to it (receive) and the ones it relays (scratch, -1 until
// they arrive).
class SlotBytes {
 public:
  SlotBytes(const Workload& workload, const Incoming& incoming,
            const std::vector<node_routes::Routes>& routes,
            std::size_t entry_bytes)
      : workload_(workload), incoming_(incoming), entry_bytes_(entry_bytes) {
    scratch_.reserve(routes.size());
    for (const node_routes::Routes& r : routes) {
      scratch_.emplace_back(at(r.scratch_slots), -1);
    }
  }

  std::int64_t of(int rank, node_routes::Slot slot) const {
    const auto r = at(rank);
    const auto i = at(slot.index);
    switch (slot.kind) {
      case node_routes::Slot::Kind::send:
        return entries(workload_.entries[r][i]);
      case node_routes::Slot::Kind::recv:
        return entries(incoming_.entries[r][i]);
      case node_routes::Slot::Kind::scratch:
        if (scratch_[r][i] < 0) {
          throw std::logic_error(
              "simulate::sized_flows: rank " + std::to_string(rank) +
              " relays scratch slot " + std::to_string(slot.index) +
              " before it arrives");
        }
        return scratch_[r][i];
    }
    return 0;
  }

  void arrive(int rank, node_routes::Slot slot, std::int64_t bytes) {
    if (slot.kind == node_routes::Slot::Kind::scratch) {
      scratch_[at(rank)][at(slot.index)] = bytes;
    }
  }

 private:
  std::int64_t entries(int count) const {
    return static_cast<std::int64_t>(count) *
           static_cast<std::int64_t>(entry_bytes_);
  }

  const Workload& workload_;
  const Incoming& incoming_;
  std::size_t entry_bytes_;
  std::vector<std::vector<std::int64_t>> scratch_;
};

// The receive that pairs with `send` from `rank` at its peer in `step`.
const node_routes::Transfer& matching_receive(
    const node_routes::Routes& peer_routes, std::size_t step, int rank,
    const node_routes::Transfer& send) {
  for (const node_routes::Transfer& receive :
       peer_routes.steps[step].receives) {
    if (receive.peer == rank && receive.tag == send.tag &&
        receive.slots.size() == send.slots.size()) {
      return receive;
    }
  }
  throw std::logic_error("simulate::sized_flows: rank " +
                         std::to_string(send.peer) +
                         " posts no receive for rank " + std::to_string(rank) +
                         "'s message of step " + std::to_string(step));
}

}  // namespace

std::vector<SizedFlow> sized_flows(const Workload& workload,
                                   const RoutesOf& routes_of,
                                   std::size_t entry_bytes) {
  const std::size_t processes = workload.graph.destinations.size();
  if (workload.entries.size() != processes) {
    throw std::invalid_argument("simulate::sized_flows: the workload '" +
                                workload.name + "' gives no entries per edge");
  }
  const Incoming incoming = incoming_of(workload);
  std::vector<node_routes::Routes> routes;
  routes.reserve(processes);
  for (std::size_t r = 0; r < processes; ++r) {
    routes.push_back(routes_of(static_cast<int>(r), incoming.sources[r]));
  }
  SlotBytes bytes(workload, incoming, routes, entry_bytes);
  std::vector<SizedFlow> flows(processes);
  for (std::size_t step = 0; step < 3; ++step) {
    for (std::size_t r = 0; r < processes; ++r) {
      if (step >= routes[r].steps.size()) continue;
      for (const node_routes::Transfer& send : routes[r].steps[step].sends) {
        const int rank = static_cast<int>(r);
        const node_routes::Transfer& receive =
            matching_receive(routes[at(send.peer)], step, rank, send);
        Sent& sent = flows[r][step][send.peer];
        for (std::size_t i = 0; i < send.slots.size(); ++i) {
          const std::int64_t block = bytes.of(rank, send.slots[i]);
          bytes.arrive(send.peer, receive.slots[i], block);
          ++sent.blocks;
          sent.bytes += block;
        }
      }
    }
  }
  return flows;
}

}  // namespace simulate
