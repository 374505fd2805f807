#include "ortho/algorithms/node_aware_plans.h"

#include <cstddef>
#include <limits>
#include <memory>
#include <string>

#include "classic/base/error.h"
#include "classic/exec/executor.h"
#include "ortho/algorithms/checks.h"
#include "ortho/algorithms/node_aware.h"
#include "ortho/internal/last_plan.h"

namespace ortho::algorithms {
namespace {

using classic::Plan;
using node_routes::Routes;
using node_routes::Slot;
using Space = Plan::Space;

// A plan of the routes' three steps with `block` placing each slot.
template <class Place>
Plan plan_of(const Routes& routes, Place block) {
  Plan plan;
  for (const node_routes::Step& step : routes.steps) {
    Plan::Round round;
    for (const node_routes::Transfer& t : step.receives) {
      Plan::Message& m = round.receives.emplace_back();
      m.peer = t.peer;
      m.tag = t.tag;
      for (const Slot& slot : t.slots) m.blocks.push_back(block(slot));
    }
    for (const node_routes::Transfer& t : step.sends) {
      Plan::Message& m = round.sends.emplace_back();
      m.peer = t.peer;
      m.tag = t.tag;
      for (const Slot& slot : t.slots) m.blocks.push_back(block(slot));
    }
    for (const node_routes::Copy& copy : step.copies) {
      const Plan::Block from = block(copy.from);
      const Plan::Block to = block({Slot::Kind::recv, copy.to});
      if (from == to) continue;  // landed there
      round.local.push_back(
          {.kind = Plan::Local::Kind::copy, .from = from, .to = to});
    }
    if (!round.receives.empty() || !round.sends.empty() ||
        !round.local.empty()) {
      plan.rounds.push_back(std::move(round));
    }
  }
  return plan;
}

}  // namespace

std::vector<std::int64_t> exchange_sizes(const classic::Comm& comm,
                                         const Routes& routes,
                                         const Exchange& blocks,
                                         const char* function) {
  std::vector<std::int64_t> sent = send_bytes(blocks, function);
  const std::size_t in = blocks.recv.size();
  std::vector<std::int64_t> sizes(
      in + static_cast<std::size_t>(routes.scratch_slots), 0);
  const auto place = [in](const Slot& slot) {
    const std::size_t index =
        static_cast<std::size_t>(slot.index) +
        (slot.kind == Slot::Kind::scratch ? in : std::size_t{0});
    return Plan::Block{
        .space = slot.kind == Slot::Kind::send ? Space::send : Space::recv,
        .displacement = static_cast<MPI_Aint>(index * sizeof(std::int64_t)),
        .count = 1,
        .datatype = MPI_INT64_T};
  };
  (void)classic::execute(
      comm, std::make_shared<const Plan>(plan_of(routes, place)),
      {sent.data(), sizes.data()}, classic::Mode::blocking, function);
  return sizes;
}

Plan data_plan(const Routes& routes, const Exchange& blocks,
               const std::vector<std::int64_t>& sizes, const Table& table,
               MPI_Aint scratch_from, const char* function) {
  const std::size_t in = blocks.recv.size();
  check_room(table, blocks, sizes, function);
  std::vector<Plan::Block> scratch(
      static_cast<std::size_t>(routes.scratch_slots));
  MPI_Aint offset = scratch_from;
  for (std::size_t t = 0; t < scratch.size(); ++t) {
    const std::int64_t bytes = sizes[in + t];
    const int lands = routes.lands_in[t];
    if (lands >= 0 &&
        bytes ==
            bytes_of(blocks.recv[static_cast<std::size_t>(lands)], function)) {
      scratch[t] = blocks.recv[static_cast<std::size_t>(lands)];
      continue;
    }
    if (bytes > std::numeric_limits<int>::max()) {
      throw classic::Error(classic::ErrorClass::count, function,
                           "a relayed block of " + std::to_string(bytes) +
                               " bytes exceeds what one count can describe");
    }
    scratch[t] = {.space = Space::scratch,
                  .displacement = offset,
                  .count = static_cast<int>(bytes),
                  .datatype = MPI_PACKED};
    offset += (static_cast<MPI_Aint>(bytes) + 15) / 16 * 16;
  }
  Plan plan = plan_of(routes, [&](const Slot& slot) {
    const auto index = static_cast<std::size_t>(slot.index);
    switch (slot.kind) {
      case Slot::Kind::send:
        return blocks.send[index];
      case Slot::Kind::recv:
        return blocks.recv[index];
      case Slot::Kind::scratch:
        break;
    }
    return scratch[index];
  });
  plan.scratch_bytes = offset;
  return plan;
}

std::vector<std::int64_t> uniform_sizes(const Routes& routes,
                                        const Exchange& blocks,
                                        const char* function) {
  std::int64_t bytes = 0;
  if (!blocks.send.empty()) {
    bytes = bytes_of(blocks.send.front(), function);
  } else if (!blocks.recv.empty()) {
    bytes = bytes_of(blocks.recv.front(), function);
  }
  return std::vector<std::int64_t>(
      blocks.recv.size() + static_cast<std::size_t>(routes.scratch_slots),
      bytes);
}

classic::Request run_along(const classic::Comm& comm, const Table& table,
                           const Call& call, const void* key,
                           RoutesOf routes_of) {
  const char* function = call.function();
  const bool uniform = !NodeAware::exchanges_sizes(call.operation);
  internal::LastPlan& last =
      table.last_plans[static_cast<std::size_t>(call.operation)].of(key);
  if (uniform) {
    if (const auto* kept = last.find(key, call)) {
      return classic::execute(comm, *kept, {call.send.data, call.recv.data},
                              call.mode, function);
    }
  }
  const Checks check(comm, call);
  const Exchange blocks = normalise(table, call, check);
  const Routes& routes = routes_of(comm, table, call.operation);
  const std::vector<std::int64_t> sizes =
      uniform ? uniform_sizes(routes, blocks, function)
              : exchange_sizes(comm, routes, blocks, function);
  auto plan = std::make_shared<const Plan>(
      data_plan(routes, blocks, sizes, table, 0, function));
  if (uniform) last.keep(key, call, plan);
  return classic::execute(comm, std::move(plan),
                          {call.send.data, call.recv.data}, call.mode,
                          function);
}

}  // namespace ortho::algorithms
