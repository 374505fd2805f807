#include "stencils/structure.h"

#include <algorithm>
#include <string>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/error.h"
#include "stencils/checks.h"

namespace stencils {
namespace {

using classic::ErrorClass;

void check_rank(const naming::Geometry& geometry, int rank,
                const char* function) {
  if (rank >= 0 && rank < geometry.size()) return;
  throw classic::Error(ErrorClass::rank, function,
                       "rank = " + std::to_string(rank) + " is outside [0, " +
                           std::to_string(geometry.size()) + ")");
}

bool is_self(const naming::Geometry& geometry, std::span<const int> offset) {
  const std::vector<int> canonical = geometry.canonical_offset(offset);
  return std::all_of(canonical.begin(), canonical.end(),
                     [](int x) { return x == 0; });
}

// Counts a schedule; `active_moves` says how many moves of a message are
// sent (0: the message is not sent).
template <Collective kind, class ActiveMoves>
Counters count_schedule(const Schedule<kind>& schedule,
                        ActiveMoves active_moves) {
  Counters counters;
  for (const Round& round : schedule.rounds) {
    bool round_used = false;
    for (const Message& message : round.messages) {
      const int blocks = active_moves(message);
      if (blocks == 0) continue;
      round_used = true;
      ++counters.messages;
      counters.blocks += blocks;
    }
    if (round_used) ++counters.rounds;
  }
  return counters;
}

template <Collective kind>
Counters count_everything(const Schedule<kind>& schedule) {
  return count_schedule(schedule, [](const Message& message) {
    return static_cast<int>(message.moves.size());
  });
}

template <Collective kind>
Counters count_at(const Schedule<kind>& schedule,
                  const naming::Geometry& geometry, int rank) {
  constexpr const char* kFunction = "stencils::schedule_counters";
  internal::check_ndims(geometry, schedule.targets.ndims(), "schedule.targets",
                        kFunction);
  check_rank(geometry, rank, kFunction);
  return count_schedule(schedule, [&](const Message& message) {
    if (geometry.relative_rank(rank, message.hop) == classic::proc_null) {
      return 0;
    }
    return static_cast<int>(std::count_if(
        message.moves.begin(), message.moves.end(), [&](const BlockMove& move) {
          return move_active(geometry, rank, move);
        }));
  });
}

}  // namespace

Counters direct_counters(const naming::Geometry& geometry,
                         const Stencil& targets) {
  internal::check_ndims(geometry, targets.ndims(), "targets",
                        "stencils::direct_counters");
  Counters counters;
  for (int i = 0; i < targets.size(); ++i) {
    if (!is_self(geometry, targets.offset(i))) ++counters.messages;
  }
  counters.blocks = counters.messages;
  counters.rounds = counters.messages > 0 ? 1 : 0;
  return counters;
}

Counters direct_counters(const naming::Geometry& geometry,
                         const Stencil& targets, int rank) {
  constexpr const char* kFunction = "stencils::direct_counters";
  internal::check_ndims(geometry, targets.ndims(), "targets", kFunction);
  check_rank(geometry, rank, kFunction);
  Counters counters;
  for (int i = 0; i < targets.size(); ++i) {
    const auto offset = targets.offset(i);
    if (is_self(geometry, offset)) continue;
    if (geometry.relative_rank(rank, offset) == classic::proc_null) continue;
    ++counters.messages;
  }
  counters.blocks = counters.messages;
  counters.rounds = counters.messages > 0 ? 1 : 0;
  return counters;
}

Counters schedule_counters(const AllgatherSchedule& schedule) {
  return count_everything(schedule);
}

Counters schedule_counters(const AlltoallSchedule& schedule) {
  return count_everything(schedule);
}

Counters schedule_counters(const AllgatherSchedule& schedule,
                           const naming::Geometry& geometry, int rank) {
  return count_at(schedule, geometry, rank);
}

Counters schedule_counters(const AlltoallSchedule& schedule,
                           const naming::Geometry& geometry, int rank) {
  return count_at(schedule, geometry, rank);
}

}  // namespace stencils
