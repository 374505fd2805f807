#include "stencils/schedule.h"

#include <algorithm>
#include <climits>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/error.h"
#include "stencils/checks.h"

namespace stencils {
namespace {

using classic::ErrorClass;
using Offset = std::vector<int>;

// Canonical offsets; a non-periodic INT_MIN component could not be negated.
Stencil canonical(const naming::Geometry& geometry, const Stencil& stencil,
                  const char* name, const char* function) {
  Stencil result(stencil.ndims());
  for (int i = 0; i < stencil.size(); ++i) {
    const auto offset = stencil.offset(i);
    for (int k = 0; k < stencil.ndims(); ++k) {
      if (geometry.periodic(k) || offset[k] != INT_MIN) continue;
      throw classic::Error(ErrorClass::arg, function,
                           std::string(name) + "[" + std::to_string(i) +
                               "] = " + offset_string(offset) +
                               " has INT_MIN in non-periodic dimension " +
                               std::to_string(k));
    }
    result.push_back(geometry.canonical_offset(offset));
  }
  return result;
}

Offset negated(std::span<const int> offset) {
  Offset result(offset.size());
  for (std::size_t k = 0; k < offset.size(); ++k) result[k] = -offset[k];
  return result;
}

// -offset in canonical form; offset is canonical, so no component is
// INT_MIN (periodic ones are at most n/2 in magnitude, and canonical()
// rejected INT_MIN elsewhere).
Offset negated_canonical(const naming::Geometry& geometry,
                         std::span<const int> offset) {
  return geometry.canonical_offset(negated(offset));
}

// The canonical neighbourhood every builder starts from.
struct Prepared {
  Stencil targets;
  Stencil sources;
  std::vector<int> landing;
};

std::vector<int> pair_landing(const naming::Geometry& geometry,
                              const Stencil& targets, const Stencil& sources,
                              const char* function) {
  if (targets.size() != sources.size()) {
    throw classic::Error(ErrorClass::topology, function,
                         "targets has " + std::to_string(targets.size()) +
                             " offsets but sources has " +
                             std::to_string(sources.size()));
  }
  // Source indices per canonical offset, consumed in order: the k-th target
  // occurrence takes the k-th source occurrence.
  std::map<Offset, std::deque<int>> unused_sources;
  for (int j = 0; j < sources.size(); ++j) {
    const auto offset = sources.offset(j);
    unused_sources[Offset(offset.begin(), offset.end())].push_back(j);
  }
  std::vector<int> landing(targets.size());
  for (int i = 0; i < targets.size(); ++i) {
    std::deque<int>& queue =
        unused_sources[negated_canonical(geometry, targets.offset(i))];
    if (queue.empty()) {
      throw classic::Error(
          ErrorClass::topology, function,
          "targets[" + std::to_string(i) +
              "] = " + offset_string(targets.offset(i)) +
              " has no matching source offset (its negation, canonical) "
              "left among sources");
    }
    landing[i] = queue.front();
    queue.pop_front();
  }
  return landing;
}

Prepared prepare(const naming::Geometry& geometry, const Stencil& targets,
                 const Stencil& sources, const char* function) {
  internal::check_ndims(geometry, targets.ndims(), "targets", function);
  internal::check_ndims(geometry, sources.ndims(), "sources", function);
  Prepared prepared{canonical(geometry, targets, "targets", function),
                    canonical(geometry, sources, "sources", function),
                    {}};
  prepared.landing =
      pair_landing(geometry, prepared.targets, prepared.sources, function);
  return prepared;
}

bool is_zero(std::span<const int> offset) {
  return std::all_of(offset.begin(), offset.end(),
                     [](int x) { return x == 0; });
}

int last_nonzero_dimension(std::span<const int> offset) {
  for (int k = static_cast<int>(offset.size()) - 1; k >= 0; --k) {
    if (offset[k] != 0) return k;
  }
  return -1;
}

// Offsets that are the process itself become local copies.
std::vector<BlockMove> local_copies(const Prepared& prepared,
                                    bool one_send_block) {
  std::vector<BlockMove> copies;
  const int d = prepared.targets.ndims();
  for (int i = 0; i < prepared.targets.size(); ++i) {
    if (!is_zero(prepared.targets.offset(i))) continue;
    copies.push_back({i,
                      {SlotKind::send, one_send_block ? 0 : i},
                      {SlotKind::receive, prepared.landing[i]},
                      Offset(d, 0),
                      Offset(d, 0)});
  }
  return copies;
}

// Rounds from messages keyed by (dimension, hop); empty rounds vanish.
std::vector<Round> collect_rounds(
    std::map<std::pair<int, Offset>, Message> messages) {
  std::vector<Round> rounds;
  for (auto& entry : messages) {
    const int dimension = entry.first.first;
    if (rounds.empty() || rounds.back().dimension != dimension) {
      rounds.push_back({dimension, {}});
    }
    rounds.back().messages.push_back(std::move(entry.second));
  }
  return rounds;
}

Message& message_for(std::map<std::pair<int, Offset>, Message>& messages,
                     int dimension, Offset hop) {
  auto [it, inserted] = messages.try_emplace({dimension, hop});
  if (inserted) it->second.hop = std::move(hop);
  return it->second;
}

// ---- Alltoall: dimension-order routing. ----

// Where block i is kept between its hops; `hop_index` counts the hops it
// has made so far (1 after the first).
Location alltoall_temp(int block, int hop_index, int t) {
  return {SlotKind::temp, block + t * ((hop_index - 1) % 2)};
}

void route_alltoall_block(const Prepared& prepared, int i,
                          std::map<std::pair<int, Offset>, Message>& messages) {
  const int t = prepared.targets.size();
  const int d = prepared.targets.ndims();
  const auto target = prepared.targets.offset(i);
  const int last = last_nonzero_dimension(target);
  int hops_made = 0;
  Offset travelled(d, 0);  // Sender relative to the origin.
  for (int k = 0; k <= last; ++k) {
    if (target[k] == 0) continue;
    Offset hop(d, 0);
    hop[k] = target[k];
    Offset destination(d, 0);  // Final destination relative to the sender.
    for (int m = k; m < d; ++m) destination[m] = target[m];
    const Location from = hops_made == 0 ? Location{SlotKind::send, i}
                                         : alltoall_temp(i, hops_made, t);
    const Location to = k == last
                            ? Location{SlotKind::receive, prepared.landing[i]}
                            : alltoall_temp(i, hops_made + 1, t);
    message_for(messages, k, std::move(hop))
        .moves.push_back({i, from, to, negated(travelled), destination});
    travelled[k] = target[k];
    ++hops_made;
  }
}

// ---- Allgather: relay trees. ----

// The relay from which o's block comes: o with trailing non-zero components
// zeroed until it is a member (a target offset) or zero.
Offset allgather_parent(std::span<const int> offset,
                        const std::set<Offset>& members) {
  Offset parent(offset.begin(), offset.end());
  for (int k = last_nonzero_dimension(parent); k >= 0;
       k = last_nonzero_dimension(parent)) {
    parent[k] = 0;
    if (is_zero(parent) || members.contains(parent)) break;
  }
  return parent;
}

// Renumbers the temp slots in use densely (0, 1, ...) in order of their
// first numbering, so an executor allocates no unused scratch; returns how
// many there are.
int compact_temp_slots(std::vector<Round>& rounds) {
  std::map<int, int> dense;
  for (Round& round : rounds) {
    for (Message& message : round.messages) {
      for (BlockMove& move : message.moves) {
        if (move.to.kind == SlotKind::temp) dense.try_emplace(move.to.index, 0);
      }
    }
  }
  int next = 0;
  for (auto& [sparse, index] : dense) index = next++;
  for (Round& round : rounds) {
    for (Message& message : round.messages) {
      for (BlockMove& move : message.moves) {
        for (Location* location : {&move.from, &move.to}) {
          if (location->kind == SlotKind::temp) {
            location->index = dense.at(location->index);
          }
        }
      }
    }
  }
  return next;
}

}  // namespace

std::vector<int> landing_slots(const naming::Geometry& geometry,
                               const Stencil& targets, const Stencil& sources) {
  return prepare(geometry, targets, sources, "stencils::landing_slots").landing;
}

AlltoallSchedule alltoall_schedule(const naming::Geometry& geometry,
                                   const Stencil& targets,
                                   const Stencil& sources) {
  Prepared prepared =
      prepare(geometry, targets, sources, "stencils::alltoall_schedule");
  std::map<std::pair<int, Offset>, Message> messages;
  for (int i = 0; i < prepared.targets.size(); ++i) {
    route_alltoall_block(prepared, i, messages);
  }
  const int t = prepared.targets.size();
  std::vector<BlockMove> copies =
      local_copies(prepared, /*one_send_block=*/false);
  AlltoallSchedule schedule{std::move(prepared.targets),
                            std::move(prepared.sources),
                            std::move(prepared.landing),
                            /*send_slots=*/t,
                            /*receive_slots=*/t,
                            /*temp_slots=*/0,
                            std::move(copies),
                            collect_rounds(std::move(messages))};
  schedule.temp_slots = compact_temp_slots(schedule.rounds);
  return schedule;
}

AllgatherSchedule allgather_schedule(const naming::Geometry& geometry,
                                     const Stencil& targets,
                                     const Stencil& sources) {
  Prepared prepared =
      prepare(geometry, targets, sources, "stencils::allgather_schedule");
  const Stencil& offsets = prepared.targets;
  // First target index of each member offset: where a relay finds the block.
  std::map<Offset, int> first_index;
  for (int i = offsets.size() - 1; i >= 0; --i) {
    const auto offset = offsets.offset(i);
    first_index[Offset(offset.begin(), offset.end())] = i;
  }
  std::set<Offset> members;
  for (const auto& [offset, index] : first_index) members.insert(offset);

  std::map<std::pair<int, Offset>, Message> messages;
  for (int i = 0; i < offsets.size(); ++i) {
    const auto offset = offsets.offset(i);
    if (is_zero(offset)) continue;
    const Offset parent = allgather_parent(offset, members);
    Offset hop(offset.begin(), offset.end());
    for (std::size_t k = 0; k < hop.size(); ++k) hop[k] -= parent[k];
    const Location from =
        is_zero(parent) ? Location{SlotKind::send, 0}
                        : Location{SlotKind::receive,
                                   prepared.landing[first_index.at(parent)]};
    Offset destination = hop;
    message_for(messages, last_nonzero_dimension(offset), std::move(hop))
        .moves.push_back({i,
                          from,
                          {SlotKind::receive, prepared.landing[i]},
                          negated(parent),
                          std::move(destination)});
  }
  const int t = offsets.size();
  std::vector<BlockMove> copies =
      local_copies(prepared, /*one_send_block=*/true);
  return AllgatherSchedule{std::move(prepared.targets),
                           std::move(prepared.sources),
                           std::move(prepared.landing),
                           /*send_slots=*/1,
                           /*receive_slots=*/t,
                           /*temp_slots=*/0,
                           std::move(copies),
                           collect_rounds(std::move(messages))};
}

bool move_active(const naming::Geometry& geometry, int sender,
                 const BlockMove& move) {
  return geometry.relative_rank(sender, move.origin) != classic::proc_null &&
         geometry.relative_rank(sender, move.destination) != classic::proc_null;
}

}  // namespace stencils
