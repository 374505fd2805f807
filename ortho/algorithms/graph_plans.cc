#include "ortho/algorithms/graph_plans.h"

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/datatype_layout.h"

namespace ortho::algorithms {
namespace {

using classic::Plan;
using Space = Plan::Space;

constexpr const char* kFunction = "ortho::algorithms (graph plans)";

MPI_Aint extent_of(MPI_Datatype datatype) {
  return classic::datatype_layout(datatype, kFunction).extent;
}

Plan::Block block(Space space, MPI_Aint displacement, int count,
                  MPI_Datatype datatype) {
  return {.space = space,
          .displacement = displacement,
          .count = count,
          .datatype = datatype};
}

Plan::Message message(int peer, Plan::Block b) {
  return {.peer = peer, .tag = 0, .blocks = {b}};
}

// The distinct peers of `ranks` other than `rank` itself, in order of
// their first appearance.
std::vector<int> distinct_others(std::span<const int> ranks, int rank) {
  std::vector<int> peers;
  for (int peer : ranks) {
    if (peer != rank &&
        std::find(peers.begin(), peers.end(), peer) == peers.end()) {
      peers.push_back(peer);
    }
  }
  return peers;
}

bool contains(std::span<const int> ranks, int rank) {
  return std::find(ranks.begin(), ranks.end(), rank) != ranks.end();
}

// Sends `b` once per edge to `root` (self loops of the root included
// unless `skip_self`).
void send_per_edge_to(Plan::Round& round, const Neighbourhood& n, int root,
                      Plan::Block b, bool skip_self) {
  if (skip_self && n.rank == root) return;
  for (int peer : n.destinations) {
    if (peer == root) round.sends.push_back(message(peer, b));
  }
}

}  // namespace

OperandSlots operand_slots(std::size_t k, Elements data) {
  const classic::DatatypeLayout layout =
      classic::datatype_layout(data.datatype, kFunction);
  const MPI_Aint span =
      data.count == 0 ? 0
                      : (data.count - 1) * layout.extent + layout.true_extent;
  const MPI_Aint stride = (span + 15) / 16 * 16;
  OperandSlots operands;
  operands.bytes = static_cast<MPI_Aint>(k) * stride;
  for (std::size_t i = 0; i < k; ++i) {
    operands.slots.push_back(
        block(Space::scratch,
              static_cast<MPI_Aint>(i) * stride - layout.true_lower_bound,
              data.count, data.datatype));
  }
  return operands;
}

void fold_operands(std::vector<Plan::Local>& local,
                   std::span<const Plan::Block> operands, Plan::Block result,
                   MPI_Op op) {
  if (operands.empty()) return;
  local.push_back(
      {.kind = Plan::Local::Kind::copy, .from = operands.back(), .to = result});
  for (std::size_t i = operands.size() - 1; i-- > 0;) {
    local.push_back({.kind = Plan::Local::Kind::reduce,
                     .from = operands[i],
                     .to = result,
                     .op = op,
                     .order = Plan::Local::Order::from_first});
  }
}

namespace {

// The reduction over `n.sources` at the caller: operands received into
// scratch slots, then folded into `result`. proc_null sources (the borders
// of a classic Cartesian topology) contribute no operand: nothing arrives
// from them, so they get no slot; without any other source `result` stays
// as it was.
void reduce_in_neighbourhood(Plan& plan, const Neighbourhood& n, Elements data,
                             MPI_Op op, bool in_place) {
  std::vector<int> sources;
  std::copy_if(n.sources.begin(), n.sources.end(), std::back_inserter(sources),
               [](int source) { return source != classic::proc_null; });
  const std::size_t k = sources.size();
  if (k == 0) return;
  const OperandSlots operands = operand_slots(k, data);
  plan.scratch_bytes = operands.bytes;
  const Plan::Block result = block(Space::recv, 0, data.count, data.datatype);
  Plan::Round& round = plan.rounds.front();
  for (std::size_t i = 0; i < k; ++i) {
    if (in_place && sources[i] == n.rank) {
      // The own operand is the receive buffer's content: keep it before
      // the result overwrites it.
      round.local.insert(round.local.begin(), {.kind = Plan::Local::Kind::copy,
                                               .from = result,
                                               .to = operands.slots[i]});
    } else {
      round.receives.push_back(message(sources[i], operands.slots[i]));
    }
  }
  fold_operands(round.local, operands.slots, result, op);
}

Plan one_round() {
  Plan plan;
  plan.rounds.resize(1);
  return plan;
}

}  // namespace

Plan barrier_plan(const Neighbourhood& n) {
  Plan plan = one_round();
  Plan::Round& round = plan.rounds.front();
  const Plan::Block nothing = block(Space::send, 0, 0, MPI_BYTE);
  for (int peer : distinct_others(n.sources, n.rank)) {
    round.receives.push_back(message(peer, block(Space::recv, 0, 0, MPI_BYTE)));
  }
  for (int peer : distinct_others(n.destinations, n.rank)) {
    round.sends.push_back(message(peer, nothing));
  }
  return plan;
}

Plan bcast_plan(const Neighbourhood& n, Elements buffer, int root) {
  Plan plan = one_round();
  Plan::Round& round = plan.rounds.front();
  const Plan::Block b = block(Space::recv, 0, buffer.count, buffer.datatype);
  if (n.rank == root) {
    for (int peer : distinct_others(n.destinations, n.rank)) {
      round.sends.push_back(message(peer, b));
    }
  } else if (contains(n.sources, root)) {
    round.receives.push_back(message(root, b));
  }
  return plan;
}

Plan gather_plan(const Neighbourhood& n, Elements send, Elements recv, int root,
                 bool in_place) {
  const std::vector<int> counts(n.rank == root ? n.sources.size() : 0,
                                recv.count);
  std::vector<int> displs(counts.size());
  for (std::size_t i = 0; i < displs.size(); ++i) {
    displs[i] = static_cast<int>(i) * recv.count;
  }
  return gatherv_plan(n, send, counts, displs, recv.datatype, root, in_place);
}

Plan gatherv_plan(const Neighbourhood& n, Elements send,
                  std::span<const int> counts, std::span<const int> displs,
                  MPI_Datatype recv_type, int root, bool in_place) {
  Plan plan = one_round();
  Plan::Round& round = plan.rounds.front();
  if (n.rank == root) {
    const MPI_Aint extent = extent_of(recv_type);
    for (std::size_t i = 0; i < n.sources.size(); ++i) {
      if (in_place && n.sources[i] == n.rank) continue;
      round.receives.push_back(message(
          n.sources[i],
          block(Space::recv, displs[i] * extent, counts[i], recv_type)));
    }
  }
  send_per_edge_to(round, n, root,
                   block(Space::send, 0, send.count, send.datatype), in_place);
  return plan;
}

Plan scatter_plan(const Neighbourhood& n, Elements send, Elements recv,
                  int root, bool in_place) {
  const std::vector<int> counts(n.rank == root ? n.destinations.size() : 0,
                                send.count);
  std::vector<int> displs(counts.size());
  for (std::size_t i = 0; i < displs.size(); ++i) {
    displs[i] = static_cast<int>(i) * send.count;
  }
  return scatterv_plan(n, counts, displs, send.datatype, recv, root, in_place);
}

Plan scatterv_plan(const Neighbourhood& n, std::span<const int> counts,
                   std::span<const int> displs, MPI_Datatype send_type,
                   Elements recv, int root, bool in_place) {
  Plan plan = one_round();
  Plan::Round& round = plan.rounds.front();
  if (n.rank == root) {
    const MPI_Aint extent = extent_of(send_type);
    std::vector<int> served;
    for (std::size_t i = 0; i < n.destinations.size(); ++i) {
      const int peer = n.destinations[i];
      if (contains(served, peer)) continue;
      served.push_back(peer);
      if (in_place && peer == n.rank) continue;
      round.sends.push_back(message(
          peer, block(Space::send, displs[i] * extent, counts[i], send_type)));
    }
  }
  if (contains(n.sources, root) && !(in_place && n.rank == root)) {
    round.receives.push_back(
        message(root, block(Space::recv, 0, recv.count, recv.datatype)));
  }
  return plan;
}

Plan reduce_plan(const Neighbourhood& n, Elements data, MPI_Op op, int root,
                 bool in_place) {
  Plan plan = one_round();
  const Space own = in_place ? Space::recv : Space::send;
  send_per_edge_to(plan.rounds.front(), n, root,
                   block(own, 0, data.count, data.datatype),
                   /*skip_self=*/in_place);
  if (n.rank == root) reduce_in_neighbourhood(plan, n, data, op, in_place);
  return plan;
}

Plan allreduce_plan(const Neighbourhood& n, Elements data, MPI_Op op,
                    bool in_place) {
  Plan plan = one_round();
  const Space own = in_place ? Space::recv : Space::send;
  Plan::Round& round = plan.rounds.front();
  for (int peer : n.destinations) {
    if (in_place && peer == n.rank) continue;
    round.sends.push_back(
        message(peer, block(own, 0, data.count, data.datatype)));
  }
  reduce_in_neighbourhood(plan, n, data, op, in_place);
  return plan;
}

}  // namespace ortho::algorithms
