#include "classic/neighbor/internal/neighbor_exchange.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "classic/collectives/checked.h"

namespace classic::internal {
namespace {

// The tag of a block within one operation (Plan::Message::tag).
enum Channel : int {
  kInOrder = 0,      // graphs: blocks pair up in the order they are sent
  kTowardMinus = 1,  // Cartesian: sent to the neighbour at -1
  kTowardPlus = 2,   // Cartesian: sent to the neighbour at +1
};

// Send block 2d goes to the neighbour at -1, send block 2d + 1 to the one
// at +1.
Channel send_channel(Pairing pairing, std::size_t block) {
  if (pairing == Pairing::by_order) return kInOrder;
  return block % 2 == 0 ? kTowardMinus : kTowardPlus;
}

// Receive block 2d comes from the neighbour at -1, so it travelled toward
// +1 (that neighbour's send block 2d + 1); receive block 2d + 1 the other
// way. This is what pairs the blocks correctly where both neighbours are
// one process.
Channel receive_channel(Pairing pairing, std::size_t block) {
  if (pairing == Pairing::by_order) return kInOrder;
  return block % 2 == 0 ? kTowardPlus : kTowardMinus;
}

}  // namespace

NeighborExchange::NeighborExchange(const Comm& comm, const char* function,
                                   Mode mode)
    : comm_(comm),
      lists_(cached_neighbor_lists(comm, function)),
      function_(function),
      mode_(mode),
      exceptions_(std::uncaught_exceptions()),
      checked_(comm, function) {}

NeighborExchange::~NeighborExchange() {
  if (!checked_.active() || mode_ != Mode::blocking || exchanged_ ||
      std::uncaught_exceptions() <= exceptions_) {
    return;
  }
  checked_.checked_along_edges();
  const std::vector<Plan::Block> none_sent(lists_.destinations.size());
  const std::vector<Plan::Block> none_received(lists_.sources.size());
  execute_checked_failure(comm_, *build_plan(none_sent, none_received),
                          function_);
}

namespace {

// True when `plan` moves exactly these blocks (its peers and tags follow
// from the same lists).
bool moves(const Plan& plan, std::span<const Plan::Block> sends,
           std::span<const Plan::Block> receives) {
  const Plan::Round& round = plan.rounds.front();
  const auto same = [](const std::vector<Plan::Message>& messages,
                       std::span<const Plan::Block> blocks) {
    return messages.size() == blocks.size() &&
           std::equal(messages.begin(), messages.end(), blocks.begin(),
                      [](const Plan::Message& m, const Plan::Block& b) {
                        return m.blocks.front() == b;
                      });
  };
  return same(round.sends, sends) && same(round.receives, receives);
}

}  // namespace

Request NeighborExchange::run(PlanBuffers buffers,
                              std::span<const Plan::Block> sends,
                              std::span<const Plan::Block> receives,
                              Mode mode) const {
  const bool checked_here = checked_.active() && mode == Mode::blocking;
  if (checked_.active() && !checked_here) check(sends, receives);
  // Blocks name datatypes by handle only, so an equal plan is the same
  // operation whatever the handles stand for now.
  std::shared_ptr<const Plan> plan = lists_.last_plan;
  if (plan == nullptr || !moves(*plan, sends, receives)) {
    lists_.last_uniform.reset();
    plan = make_plan(sends, receives);
  }
  if (checked_here) return run_checked(buffers, *plan);
  return execute(comm_, std::move(plan), buffers, mode, function_);
}

Request NeighborExchange::run(PlanBuffers buffers, const UniformBlocks& sends,
                              const UniformBlocks& receives, Mode mode) const {
  const auto blocks = [](const UniformBlocks& uniform, int n) {
    std::vector<Plan::Block> list(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
      list[static_cast<std::size_t>(i)] = {uniform.space, i * uniform.stride,
                                           uniform.count, uniform.datatype};
    }
    return list;
  };
  const bool checked_here = checked_.active() && mode == Mode::blocking;
  if (checked_.active() && !checked_here) {
    check(blocks(sends, outdegree()), blocks(receives, indegree()));
  }
  std::shared_ptr<const Plan> plan = lists_.last_plan;
  if (plan == nullptr || !lists_.last_uniform.has_value() ||
      lists_.last_uniform->sends != sends ||
      lists_.last_uniform->receives != receives) {
    plan = make_plan(blocks(sends, outdegree()), blocks(receives, indegree()));
    lists_.last_uniform = NeighborLists::UniformPlan{sends, receives};
  }
  if (checked_here) return run_checked(buffers, *plan);
  return execute(comm_, std::move(plan), buffers, mode, function_);
}

std::shared_ptr<const Plan> NeighborExchange::make_plan(
    std::span<const Plan::Block> sends,
    std::span<const Plan::Block> receives) const {
  std::shared_ptr<Plan> plan = build_plan(sends, receives);
  lists_.last_plan = plan;
  return plan;
}

std::shared_ptr<Plan> NeighborExchange::build_plan(
    std::span<const Plan::Block> sends,
    std::span<const Plan::Block> receives) const {
  auto plan = std::make_shared<Plan>();
  Plan::Round& round = plan->rounds.emplace_back();
  round.receives.reserve(receives.size());
  for (std::size_t i = 0; i < receives.size(); ++i) {
    round.receives.push_back(
        {lists_.sources[i], receive_channel(lists_.pairing, i), {receives[i]}});
  }
  round.sends.reserve(sends.size());
  for (std::size_t i = 0; i < sends.size(); ++i) {
    round.sends.push_back(
        {lists_.destinations[i], send_channel(lists_.pairing, i), {sends[i]}});
  }
  return plan;
}

Request NeighborExchange::run_checked(PlanBuffers buffers,
                                      const Plan& plan) const {
  exchanged_ = true;
  checked_.checked_along_edges();
  execute_checked(comm_, plan, buffers, function_);
  return Request();
}

void NeighborExchange::check(std::span<const Plan::Block> sends,
                             std::span<const Plan::Block> receives) const {
  checked_.agree();
  const auto bytes = [](const Plan::Block& block) {
    int size = 0;
    MPI_Type_size(block.datatype, &size);
    return std::int64_t{block.count} * size;
  };
  // Each send block's bytes travel to its destination as an integer, where
  // the receive block's bytes are expected.
  std::vector<std::int64_t> sent_bytes(sends.size());
  std::vector<Plan::Block> send_slots(sends.size());
  for (std::size_t i = 0; i < sends.size(); ++i) {
    sent_bytes[i] = bytes(sends[i]);
    send_slots[i] = {Plan::Space::send,
                     static_cast<MPI_Aint>(i * sizeof(std::int64_t)), 1,
                     MPI_INT64_T};
  }
  std::vector<std::int64_t> expected(receives.size());
  std::vector<Plan::Block> receive_slots(receives.size());
  for (std::size_t j = 0; j < receives.size(); ++j) {
    expected[j] = bytes(receives[j]);
    receive_slots[j] = {Plan::Space::recv,
                        static_cast<MPI_Aint>(j * sizeof(std::int64_t)), 1,
                        MPI_INT64_T};
  }
  std::vector<std::int64_t> arrived = expected;  // proc_null stays equal
  (void)execute(comm_, build_plan(send_slots, receive_slots),
                {sent_bytes.data(), arrived.data()}, Mode::blocking, function_);
  agree_on_edges(comm_, lists_.sources, arrived, expected, function_);
}

}  // namespace classic::internal
