#include "ortho/algorithms/node_aware/node_aware_plans.h"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <memory>
#include <string>
#include <utility>

#include "classic/base/error.h"
#include "classic/exec/executor.h"
#include "ortho/algorithms/checks.h"
#include "ortho/algorithms/node_aware/followed.h"
#include "ortho/algorithms/node_aware/node_aware.h"
#include "ortho/algorithms/node_aware/self_sized.h"
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

namespace {

// exchange_sizes' round, unrun.
internal::KeptSizesRound exchange_round(const Routes& routes,
                                        const Exchange& blocks,
                                        const char* function) {
  const std::size_t in = blocks.recv.size();
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
  return {.plan = std::make_shared<const Plan>(plan_of(routes, place)),
          .sent = send_bytes(blocks, function),
          .places = std::vector<std::int64_t>(
              in + static_cast<std::size_t>(routes.scratch_slots), 0)};
}

}  // namespace

std::vector<std::int64_t> exchange_sizes(const classic::Comm& comm,
                                         const Routes& routes,
                                         const Exchange& blocks,
                                         const char* function,
                                         internal::KeptSizesRound& /*kept*/) {
  internal::KeptSizesRound round = exchange_round(routes, blocks, function);
  (void)classic::execute(comm, round.plan,
                         {round.sent.data(), round.places.data()},
                         classic::Mode::blocking, function);
  return std::move(round.places);
}

namespace {

// local_sizes' one round, placing int64 sizes: send space is the senders'
// block sizes, recv space the receive sizes, then the scratch sizes, then
// one place per size taken twice or not needed (never read).
class SizesRound {
 public:
  SizesRound(std::size_t in, std::size_t scratch)
      : in_(in), known_(scratch, 0) {}

  void know(std::size_t scratch_index) { known_[scratch_index] = 1; }
  // Step 0 as it runs: each sender sends its blocks' sizes.
  void send_own(const node_routes::Transfer& t, const char* function) {
    Plan::Message& m = message(round_.sends, t.peer);
    for (const Slot& slot : t.slots) {
      premise(slot.kind == Slot::Kind::send, function);
      m.blocks.push_back(at(Space::send, static_cast<std::size_t>(slot.index)));
    }
  }
  // Step 2 reversed: each receiver sends the sizes of its receive blocks.
  void send_expected(const node_routes::Transfer& t, const char* function) {
    Plan::Message& m = message(round_.sends, t.peer);
    for (const Slot& slot : t.slots) {
      premise(slot.kind == Slot::Kind::recv, function);
      m.blocks.push_back(at(Space::recv, static_cast<std::size_t>(slot.index)));
    }
  }
  // The matching receives: a scratch slot's size where still unknown.
  void take(const node_routes::Transfer& t) {
    Plan::Message& m = message(round_.receives, t.peer);
    for (const Slot& slot : t.slots) {
      const auto index = static_cast<std::size_t>(slot.index);
      if (slot.kind == Slot::Kind::scratch && known_[index] == 0) {
        known_[index] = 1;
        m.blocks.push_back(at(Space::recv, in_ + index));
      } else {
        m.blocks.push_back(at(Space::recv, in_ + known_.size() + unused_++));
      }
    }
  }
  // node_aware's routes hold the premise by construction: a route that
  // breaks it is a bug, raised before any message.
  static void premise(bool holds, const char* function) {
    if (!holds) {
      throw classic::Error(classic::ErrorClass::intern, function,
                           "routes whose relayed sizes are not known within "
                           "the hosts");
    }
  }
  bool all_known() const {
    return std::find(known_.begin(), known_.end(), 0) == known_.end();
  }
  std::size_t places() const { return in_ + known_.size() + unused_; }
  Plan plan() && {
    Plan plan;
    if (!round_.sends.empty() || !round_.receives.empty()) {
      plan.rounds.push_back(std::move(round_));
    }
    return plan;
  }

 private:
  // The round's one message to or from `peer`: a process that is a peer's
  // sending relay and its receiving relay too gets both lists of sizes in
  // one message, step 0's first (as the sender adds them: step 0's sends,
  // then step 2's receives; the relay takes step 0's receives, then step
  // 2's sends).
  static Plan::Message& message(std::vector<Plan::Message>& messages,
                                int peer) {
    for (Plan::Message& m : messages) {
      if (m.peer == peer) return m;
    }
    Plan::Message& m = messages.emplace_back();
    m.peer = peer;
    m.tag = node_routes::kGatherTag;
    return m;
  }
  static Plan::Block at(Space space, std::size_t index) {
    return {.space = space,
            .displacement = static_cast<MPI_Aint>(index * sizeof(std::int64_t)),
            .count = 1,
            .datatype = MPI_INT64_T};
  }
  std::size_t in_;
  std::vector<char> known_;
  std::size_t unused_ = 0;
  Plan::Round round_;
};

}  // namespace

namespace {

// local_sizes' round, unrun.
internal::KeptSizesRound local_round(const Routes& routes,
                                     const Exchange& blocks,
                                     const char* function) {
  const std::size_t in = blocks.recv.size();
  const auto scratch = static_cast<std::size_t>(routes.scratch_slots);
  std::vector<std::int64_t> sent = send_bytes(blocks, function);
  SizesRound round(in, scratch);
  std::vector<std::int64_t> sizes(in + scratch, 0);
  for (std::size_t j = 0; j < in; ++j) {
    sizes[j] = bytes_of(blocks.recv[j], function);
  }
  for (std::size_t t = 0; t < scratch; ++t) {
    const int lands = routes.lands_in[t];
    if (lands < 0) continue;
    sizes[in + t] = sizes[static_cast<std::size_t>(lands)];
    round.know(t);
  }
  for (const node_routes::Transfer& t : routes.steps[0].sends) {
    if (t.tag != node_routes::kCrossTag) round.send_own(t, function);
  }
  for (const node_routes::Transfer& t : routes.steps[0].receives) {
    if (t.tag != node_routes::kCrossTag) round.take(t);
  }
  for (const node_routes::Transfer& t : routes.steps[2].receives) {
    round.send_expected(t, function);
  }
  for (const node_routes::Transfer& t : routes.steps[2].sends) round.take(t);
  if (!round.all_known()) SizesRound::premise(false, function);
  sizes.resize(round.places(), 0);
  return {.plan = std::make_shared<const Plan>(std::move(round).plan()),
          .sent = std::move(sent),
          .places = std::move(sizes)};
}

}  // namespace

std::vector<std::int64_t> local_sizes(const classic::Comm& comm,
                                      const Routes& routes,
                                      const Exchange& blocks,
                                      const char* function,
                                      internal::KeptSizesRound& kept) {
  const std::size_t learnt =
      blocks.recv.size() + static_cast<std::size_t>(routes.scratch_slots);
  if (kept.plan == nullptr) kept = local_round(routes, blocks, function);
  (void)classic::execute(comm, kept.plan,
                         {kept.sent.data(), kept.places.data()},
                         classic::Mode::blocking, function);
  return {kept.places.begin(),
          kept.places.begin() + static_cast<std::ptrdiff_t>(learnt)};
}

internal::KeptSizesRound sizes_round(SizesOf sizes_of, const Routes& routes,
                                     const Exchange& blocks,
                                     const char* function) {
  if (sizes_of == &local_sizes) return local_round(routes, blocks, function);
  if (sizes_of == &exchange_sizes) {
    return exchange_round(routes, blocks, function);
  }
  // own_sizes: nothing to learn from a peer.
  internal::KeptSizesRound unused;
  return {
      .plan = std::make_shared<const Plan>(),
      .sent = {},
      .places = sizes_of(classic::Comm(), routes, blocks, function, unused)};
}

std::vector<std::int64_t> own_sizes(const classic::Comm& /*comm*/,
                                    const Routes& routes,
                                    const Exchange& blocks,
                                    const char* function,
                                    internal::KeptSizesRound& /*kept*/) {
  SizesRound::premise(routes.scratch_slots == 0, function);
  std::vector<std::int64_t> sizes;
  sizes.reserve(blocks.recv.size());
  for (const Plan::Block& block : blocks.recv) {
    sizes.push_back(bytes_of(block, function));
  }
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

namespace {

// The plan of `blocks` with the relayed `sizes`, kept in `last` with them
// and the round that learnt them for the next call with the same
// arguments, run.
classic::Request run_sized(const classic::Comm& comm, const Table& table,
                           const Call& call, const void* key,
                           internal::LastPlan& last, const Routes& routes,
                           std::shared_ptr<const Exchange> blocks,
                           std::vector<std::int64_t> sizes,
                           internal::KeptSizesRound round) {
  const char* function = call.function();
  auto plan = std::make_shared<const Plan>(
      data_plan(routes, *blocks, sizes, table, 0, function));
  last.keep_sized(key, internal::shape_of(table, call), plan, std::move(blocks),
                  std::move(sizes), std::move(round));
  return classic::execute(comm, std::move(plan),
                          {call.send.data, call.recv.data}, call.mode,
                          function);
}

}  // namespace

classic::Request run_along(const classic::Comm& comm, const Table& table,
                           const Call& call, const void* key,
                           RoutesOf routes_of, SizesOf sizes_of) {
  const char* function = call.function();
  const bool uniform = !NodeAware::exchanges_sizes(call.operation);
  // A plan whose sizes come from this process's own arguments alone serves
  // the next call with the same arguments.
  const bool keep = uniform || sizes_of == &own_sizes;
  internal::LastPlan& last =
      table.last_plans[static_cast<std::size_t>(call.operation)].of(key);
  const std::uint64_t shape = internal::shape_of(table, call);
  if (keep) {
    if (const auto* kept = last.find(key, shape)) {
      return classic::execute(comm, *kept, {call.send.data, call.recv.data},
                              call.mode, function);
    }
  } else if (call.mode == classic::Mode::blocking &&
             (sizes_of == &local_sizes || sizes_of == &exchange_sizes)) {
    // The relays learn the sizes from the messages themselves.
    run_self_sized(comm, table, call, routes_of(comm, table, call.operation),
                   key, shape, last);
    return {};
  } else if (call.mode == classic::Mode::nonblocking) {
    return run_followed(comm, table, call, key, shape, last,
                        routes_of(comm, table, call.operation), sizes_of);
  } else {
    // The same arguments as the last call: its checked blocks, and its
    // plan where the sizes the relays learn are those it was made for.
    if (const Exchange* blocks = last.sized_blocks(key, shape)) {
      const Routes& routes = routes_of(comm, table, call.operation);
      std::vector<std::int64_t> sizes =
          sizes_of(comm, routes, *blocks, function, last.sizes_round);
      if (sizes == last.sizes) {
        return classic::execute(comm, last.plan,
                                {call.send.data, call.recv.data}, call.mode,
                                function);
      }
      return run_sized(comm, table, call, key, last, routes,
                       std::shared_ptr<const Exchange>(last.blocks),
                       std::move(sizes), std::move(last.sizes_round));
    }
  }
  const Checks check(comm, call);
  auto blocks = std::make_shared<const Exchange>(normalise(table, call, check));
  const Routes& routes = routes_of(comm, table, call.operation);
  if (!keep) {
    internal::KeptSizesRound round;
    std::vector<std::int64_t> sizes =
        sizes_of(comm, routes, *blocks, function, round);
    return run_sized(comm, table, call, key, last, routes, std::move(blocks),
                     std::move(sizes), std::move(round));
  }
  internal::KeptSizesRound unused;
  const std::vector<std::int64_t> sizes =
      uniform ? uniform_sizes(routes, *blocks, function)
              : sizes_of(comm, routes, *blocks, function, unused);
  auto plan = std::make_shared<const Plan>(
      data_plan(routes, *blocks, sizes, table, 0, function));
  last.keep(key, shape, plan);
  return classic::execute(comm, std::move(plan),
                          {call.send.data, call.recv.data}, call.mode,
                          function);
}

}  // namespace ortho::algorithms
