#include "stencils/schedule_shape.h"

#include <cstdint>
#include <string>

namespace stencils::internal {
namespace {

std::string location_problem(const Layout& layout, const Location& location,
                             bool written) {
  const int kind = static_cast<int>(location.kind);
  if (kind < 0 || kind > static_cast<int>(SlotKind::temp)) {
    return "a location of unknown kind " + std::to_string(kind);
  }
  if (location.index < 0 || location.index >= layout.size(location.kind)) {
    return to_string(location) + " is outside [0, " +
           std::to_string(layout.size(location.kind)) + ")";
  }
  if (written && location.kind == SlotKind::send) {
    return "a write into " + to_string(location) +
           " (send buffers are read-only)";
  }
  return "";
}

std::string move_problem(const Layout& layout, int ndims, const BlockMove& move,
                         const std::string& where) {
  std::string problem = location_problem(layout, move.from, false);
  if (problem.empty()) problem = location_problem(layout, move.to, true);
  if (problem.empty() &&
      (move.origin.size() != static_cast<std::size_t>(ndims) ||
       move.destination.size() != static_cast<std::size_t>(ndims))) {
    problem = "origin/destination offsets not of length ndims = " +
              std::to_string(ndims);
  }
  return problem.empty()
             ? ""
             : where + ", block " + std::to_string(move.block) + ": " + problem;
}

}  // namespace

std::string to_string(const Location& location) {
  switch (location.kind) {
    case SlotKind::send:
      return "send slot " + std::to_string(location.index);
    case SlotKind::receive:
      return "receive slot " + std::to_string(location.index);
    case SlotKind::temp:
      return "temp slot " + std::to_string(location.index);
  }
  return "slot of unknown kind " +
         std::to_string(static_cast<int>(location.kind));
}

std::string shape_problem(std::span<const BlockMove> local_copies,
                          std::span<const Round> rounds, const Layout& layout,
                          int expected_send_slots, int t, int ndims) {
  if (layout.send_slots != expected_send_slots || layout.receive_slots != t ||
      layout.temp_slots < 0) {
    return "slot counts send/receive/temp = " +
           std::to_string(layout.send_slots) + "/" +
           std::to_string(layout.receive_slots) + "/" +
           std::to_string(layout.temp_slots) + " do not fit " +
           std::to_string(t) + " neighbours (expected " +
           std::to_string(expected_send_slots) + "/" + std::to_string(t) +
           "/>=0)";
  }
  // A temp slot no move writes is useless; bounding them by the moves keeps
  // a corrupted count from sizing the simulation.
  std::int64_t moves = static_cast<std::int64_t>(local_copies.size());
  for (const Round& round : rounds) {
    for (const Message& message : round.messages) {
      moves += static_cast<std::int64_t>(message.moves.size());
    }
  }
  if (layout.temp_slots > moves) {
    return "temp_slots = " + std::to_string(layout.temp_slots) +
           " exceeds the number of moves, " + std::to_string(moves);
  }
  for (const BlockMove& copy : local_copies) {
    std::string problem = move_problem(layout, ndims, copy, "local copy");
    if (!problem.empty()) return problem;
  }
  for (std::size_t r = 0; r < rounds.size(); ++r) {
    const auto& messages = rounds[r].messages;
    for (std::size_t m = 0; m < messages.size(); ++m) {
      const std::string where =
          "round " + std::to_string(r) + " message " + std::to_string(m);
      if (messages[m].hop.size() != static_cast<std::size_t>(ndims)) {
        return where + ": hop has " + std::to_string(messages[m].hop.size()) +
               " components but ndims = " + std::to_string(ndims);
      }
      for (const BlockMove& move : messages[m].moves) {
        std::string problem = move_problem(layout, ndims, move, where);
        if (!problem.empty()) return problem;
      }
    }
  }
  return "";
}

}  // namespace stencils::internal
