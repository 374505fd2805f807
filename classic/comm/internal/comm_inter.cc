// Inter-communicator state (context order, private and local contexts) and
// MPI-2's create and split on inter-communicators.
#include "classic/comm/internal/comm_inter.h"

#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/error.h"
#include "classic/base/internal/agreement.h"
#include "classic/base/internal/transport.h"
#include "classic/base/internal/transport_error.h"

namespace classic {

// ---- state ------------------------------------------------------------------

std::vector<int> inter_context_members(const Group& local,
                                       const Group& remote) {
  const bool local_first = local.world_rank_of(0) < remote.world_rank_of(0);
  std::vector<int> members = (local_first ? local : remote).members();
  const std::vector<int> second = (local_first ? remote : local).members();
  members.insert(members.end(), second.begin(), second.end());
  return members;
}

std::shared_ptr<Comm::State> Comm::State::make_inter(MPI_Comm context,
                                                     Group local,
                                                     Group remote) {
  // The state owns the context from here on, whatever happens next.
  auto state = std::make_shared<State>(context, std::move(local));
  state->remote = std::move(remote);
  const bool local_first =
      state->local.world_rank_of(0) < state->remote.world_rank_of(0);
  state->peer_offset = local_first ? state->local.size() : 0;
  state->add_private_context();
  return state;
}

std::vector<int> Comm::State::context_members() const {
  if (remote.is_null()) return local.members();
  return inter_context_members(local, remote);
}

namespace internal {
namespace {

constexpr const char* kCreate = "classic::Comm::create";
constexpr const char* kSplit = "classic::Comm::split";

// One value per process of the inter-communicator's context, gathered from
// all of them (collective over both groups).
std::vector<int> gather_everywhere(const Comm::State& state,
                                   std::span<const int> mine,
                                   const char* function) {
  const int per_process = static_cast<int>(mine.size());
  std::vector<int> all(
      mine.size() *
      static_cast<std::size_t>(state.local.size() + state.remote.size()));
  transport::check_code(
      MPI_Allgather(mine.data(), per_process, MPI_INT, all.data(), per_process,
                    MPI_INT, state.transport),
      function);
  return all;
}

// The entries of `all` (per_process values each) that belong to the local
// (or remote) group, in that group's rank order.
std::vector<int> side_values(const Comm::State& state,
                             const std::vector<int>& all, bool local_side,
                             int per_process, int field) {
  const int offset = local_side ? state.local_offset() : state.peer_offset;
  const int size = local_side ? state.local.size() : state.remote.size();
  std::vector<int> values(static_cast<std::size_t>(size));
  for (int i = 0; i < size; ++i) {
    values[static_cast<std::size_t>(i)] =
        all[static_cast<std::size_t>(offset + i) *
                static_cast<std::size_t>(per_process) +
            static_cast<std::size_t>(field)];
  }
  return values;
}

// The world ranks of `side`'s members i for which `rank_in_subset[i]` >= 0,
// ordered by that value; empty unless the values form 0, 1, ..., k-1.
struct Subset {
  std::vector<int> world_ranks;
  bool valid = true;
};
Subset subset_by_rank(const Group& side,
                      const std::vector<int>& rank_in_subset) {
  Subset subset;
  const auto members = static_cast<int>(rank_in_subset.size());
  const auto k = static_cast<std::size_t>(
      std::count_if(rank_in_subset.begin(), rank_in_subset.end(),
                    [](int r) { return r >= 0; }));
  subset.world_ranks.assign(k, undefined);
  for (int i = 0; i < members; ++i) {
    const int r = rank_in_subset[static_cast<std::size_t>(i)];
    if (r < 0) continue;
    const auto slot = static_cast<std::size_t>(r);
    if (slot >= k || subset.world_ranks[slot] != undefined) {
      subset.valid = false;
      return subset;
    }
    subset.world_ranks[slot] = side.world_rank_of(i);
  }
  return subset;
}

// The inter-communicator between the world ranks `local` and `remote`, or
// the null communicator where either is empty or `member` is false. Every
// process of the parent calls it (the context is collective over all).
Comm join(const Comm::State& state, bool member, const std::vector<int>& local,
          const std::vector<int>& remote) {
  if (!member || local.empty() || remote.empty()) {
    transport::new_context(state.transport, {});
    return Comm();
  }
  const Group world = Group::world();
  Group local_group = world.incl(local);
  Group remote_group = world.incl(remote);
  MPI_Comm context = transport::new_context(
      state.transport, inter_context_members(local_group, remote_group));
  return internal::CommAccess::make(Comm::State::make_inter(
      context, std::move(local_group), std::move(remote_group)));
}

void check_subset_of_local(const Comm::State& state, const Group& group) {
  if (group.is_null()) {
    throw Error(ErrorClass::group, kCreate, "group is the null group");
  }
  const std::vector<int> members = group.members();
  const Group world = Group::world();
  for (std::size_t i = 0; i < members.size(); ++i) {
    const std::vector<int> in_local =
        world.translate_ranks(std::span(&members[i], 1), state.local);
    if (in_local[0] == undefined) {
      throw Error(ErrorClass::group, kCreate,
                  "group member " + std::to_string(i) + " (world rank " +
                      std::to_string(members[i]) +
                      ") is not in the local group of the inter-communicator");
    }
  }
}

// The world ranks of the members of `side` whose color is `color`, ordered
// by key, ties by rank in `side` (MPI-1 section 5.4.2 on each side).
std::vector<int> same_color(const Group& side, const std::vector<int>& colors,
                            const std::vector<int>& keys, int color) {
  std::vector<int> ranks;
  for (std::size_t i = 0; i < colors.size(); ++i) {
    if (colors[i] == color) ranks.push_back(static_cast<int>(i));
  }
  std::stable_sort(ranks.begin(), ranks.end(), [&](int a, int b) {
    return keys[static_cast<std::size_t>(a)] <
           keys[static_cast<std::size_t>(b)];
  });
  std::vector<int> world_ranks;
  world_ranks.reserve(ranks.size());
  for (int r : ranks) world_ranks.push_back(side.world_rank_of(r));
  return world_ranks;
}

}  // namespace

Comm create(const Comm::State& state, const Group& group) {
  check_subset_of_local(state, group);
  const int mine = group.rank() == undefined ? -1 : group.rank();
  const std::vector<int> all =
      gather_everywhere(state, std::span(&mine, 1), kCreate);
  const std::vector<int> local_ranks = side_values(state, all, true, 1, 0);
  const std::vector<int> remote_ranks = side_values(state, all, false, 1, 0);

  // Every process of a side must pass the same group: this process checks
  // its side against its own group, and the other side's ranks for a
  // consistent order; then all agree, so all fail or none.
  std::vector<int> expected(local_ranks.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const int r = state.local.world_rank_of(static_cast<int>(i));
    const int in_group =
        Group::world().translate_ranks(std::span(&r, 1), group)[0];
    expected[i] = in_group == undefined ? -1 : in_group;
  }
  const Subset local = subset_by_rank(state.local, local_ranks);
  const Subset remote = subset_by_rank(state.remote, remote_ranks);
  if (!all_true(state.transport, expected == local_ranks && remote.valid,
                kCreate)) {
    throw Error(ErrorClass::arg, kCreate,
                "the processes of one group passed different groups");
  }
  return join(state, mine >= 0, local.world_ranks, remote.world_ranks);
}

Comm split(const Comm::State& state, int color, int key) {
  const int mine[2] = {color, key};
  const std::vector<int> all = gather_everywhere(state, mine, kSplit);
  const std::vector<int> local_colors = side_values(state, all, true, 2, 0);
  const std::vector<int> local_keys = side_values(state, all, true, 2, 1);
  const std::vector<int> remote_colors = side_values(state, all, false, 2, 0);
  const std::vector<int> remote_keys = side_values(state, all, false, 2, 1);
  if (color == undefined) return join(state, false, {}, {});
  return join(state, true,
              same_color(state.local, local_colors, local_keys, color),
              same_color(state.remote, remote_colors, remote_keys, color));
}

}  // namespace internal
}  // namespace classic
