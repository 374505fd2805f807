// "per_peer": one message per distinct peer, in one round. Where a process
// has several edges to one peer (repeated edges; on small tori, offsets
// that wrap onto one process: the 26 Moore offsets on a 2 x 2 x 1 torus
// reach 3 other processes), their blocks travel together, in edge order
// on both sides, which is MPI's pairing of repeated edges; edges to itself
// become local copies. Same volume as the direct algorithm, fewer
// messages.
#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/datatype_layout.h"
#include "classic/collectives/collectives.h"
#include "classic/exec/executor.h"
#include "classic/exec/plan.h"
#include "ortho/algorithms/algorithms.h"
#include "ortho/algorithms/checks.h"
#include "ortho/algorithms/registry.h"
#include "ortho/internal/exchange.h"
#include "ortho/internal/last_plan.h"

namespace ortho::algorithms {
namespace {

using classic::Plan;
using Space = Plan::Space;

// The plan from one block per edge on each side.
Plan per_peer_plan(int rank, std::span<const int> sources,
                   std::span<const int> destinations,
                   const std::vector<Plan::Block>& send,
                   const std::vector<Plan::Block>& recv) {
  Plan plan;
  Plan::Round& round = plan.rounds.emplace_back();
  std::vector<int> done;
  for (std::size_t i = 0; i < destinations.size(); ++i) {
    const int peer = destinations[i];
    if (peer == classic::proc_null || peer == rank ||
        std::find(done.begin(), done.end(), peer) != done.end()) {
      continue;
    }
    done.push_back(peer);
    Plan::Message message{.peer = peer, .tag = 0, .blocks = {}};
    for (std::size_t k = i; k < destinations.size(); ++k) {
      if (destinations[k] == peer) message.blocks.push_back(send[k]);
    }
    round.sends.push_back(std::move(message));
  }
  done.clear();
  for (std::size_t j = 0; j < sources.size(); ++j) {
    const int peer = sources[j];
    if (peer == classic::proc_null || peer == rank ||
        std::find(done.begin(), done.end(), peer) != done.end()) {
      continue;
    }
    done.push_back(peer);
    Plan::Message message{.peer = peer, .tag = 0, .blocks = {}};
    for (std::size_t k = j; k < sources.size(); ++k) {
      if (sources[k] == peer) message.blocks.push_back(recv[k]);
    }
    round.receives.push_back(std::move(message));
  }
  // Edges to itself: the k-th such destination block to the k-th such
  // source block.
  std::size_t j = 0;
  for (std::size_t i = 0; i < destinations.size(); ++i) {
    if (destinations[i] != rank) continue;
    while (j < sources.size() && sources[j] != rank) ++j;
    if (j == sources.size()) break;
    round.local.push_back(
        {.kind = Plan::Local::Kind::copy, .from = send[i], .to = recv[j++]});
  }
  return plan;
}

// What identifies per_peer's plans among an operation's last plans.
constexpr char kPlansOfPerPeer = 0;

classic::Request run(const classic::Comm& comm, const Table& table,
                     const Call& call) {
  internal::LastPlan& last =
      table.last_plans[static_cast<std::size_t>(call.operation)].of(
          &kPlansOfPerPeer);
  const std::uint64_t shape = internal::shape_of(table, call);
  const std::shared_ptr<const Plan>* plan = last.find(&kPlansOfPerPeer, shape);
  if (plan == nullptr) {
    const Checks check(comm, call);
    const Exchange blocks = normalise(table, call, check);
    plan = &last.keep(&kPlansOfPerPeer, shape,
                      std::make_shared<const Plan>(per_peer_plan(
                          comm.rank(), table.sources, table.destinations,
                          blocks.send, blocks.recv)));
  }
  return classic::execute(comm, *plan, {call.send.data, call.recv.data},
                          call.mode, call.function());
}

// Offered on every directed graph (it differs from direct where peers
// repeat), not priced: see algorithms.h.
// Not on a classic Cartesian topology, whose repeated neighbours pair by
// direction, not by order (Table::cartesian).
void offer(Table& table) {
  if (!table.pairs_by_order()) return;
  for (Operation operation :
       {Operation::allgather, Operation::allgatherv, Operation::allgatherw,
        Operation::alltoall, Operation::alltoallv, Operation::alltoallw}) {
    table.offer(operation, per_peer());
  }
}

}  // namespace

extern constinit const Registration kPerPeer{
    .algorithm = {"per_peer", &run}, .offer = &offer, .reversible = true};

const Algorithm& per_peer() { return kPerPeer.algorithm; }

}  // namespace ortho::algorithms
