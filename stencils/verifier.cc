// The schedule verifier: checks a schedule's shape, simulates it on every
// process of the grid, and compares the receive slots with the direct
// collective's result (direct_result.h).
#include "stencils/verifier.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "classic/base/constants.h"
#include "stencils/checks.h"
#include "stencils/direct_result.h"

namespace stencils {
namespace {

using internal::direct_result;
using internal::Label;

std::string to_string(const Label& label) {
  if (!label.filled()) return "nothing";
  return "the block of rank " + std::to_string(label.origin) + " send slot " +
         std::to_string(label.slot);
}

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

// ---- Shape checks on the schedule itself. ----

struct Layout {
  int send_slots;
  int receive_slots;
  int temp_slots;
  int size(SlotKind kind) const {
    switch (kind) {
      case SlotKind::send:
        return send_slots;
      case SlotKind::receive:
        return receive_slots;
      case SlotKind::temp:
        return temp_slots;
    }
    return 0;
  }
};

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

template <Collective kind>
std::string shape_problem(const Schedule<kind>& schedule, const Layout& layout,
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
  std::int64_t moves = static_cast<std::int64_t>(schedule.local_copies.size());
  for (const Round& round : schedule.rounds) {
    for (const Message& message : round.messages) {
      moves += static_cast<std::int64_t>(message.moves.size());
    }
  }
  if (layout.temp_slots > moves) {
    return "temp_slots = " + std::to_string(layout.temp_slots) +
           " exceeds the number of moves, " + std::to_string(moves);
  }
  for (const BlockMove& copy : schedule.local_copies) {
    std::string problem = move_problem(layout, ndims, copy, "local copy");
    if (!problem.empty()) return problem;
  }
  for (std::size_t r = 0; r < schedule.rounds.size(); ++r) {
    const auto& messages = schedule.rounds[r].messages;
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

// ---- The simulation. ----

class Simulation {
 public:
  Simulation(const naming::Geometry& geometry, const Layout& layout)
      : geometry_(geometry),
        layout_(layout),
        slots_per_process_(static_cast<std::size_t>(layout.send_slots) +
                           layout.receive_slots + layout.temp_slots),
        content_(static_cast<std::size_t>(geometry.size()) *
                 slots_per_process_),
        receive_writes_(content_.size(), 0),
        read_stamp_(content_.size(), -1),
        write_stamp_(content_.size(), -1) {
    for (int p = 0; p < geometry.size(); ++p) {
      for (int s = 0; s < layout.send_slots; ++s) {
        content_[slot(p, {SlotKind::send, s})] = {p, s};
      }
    }
  }

  std::string run_local_copies(const std::vector<BlockMove>& copies) {
    for (int p = 0; p < geometry_.size(); ++p) {
      for (const BlockMove& copy : copies) {
        auto where = [&] {
          return "local copy of block " + std::to_string(copy.block) +
                 " at rank " + std::to_string(p);
        };
        const Label label = content_[slot(p, copy.from)];
        if (!label.filled()) {
          return where() + " reads empty " + to_string(copy.from);
        }
        if (!write(p, copy.to, label)) {
          return where() + " writes " + to_string(copy.to) + " a second time";
        }
      }
    }
    return "";
  }

  std::string run_round(const Round& round, int r) {
    // Who sent what; the description is only built for a failure.
    struct Delivery {
      int sender;
      int receiver;
      std::size_t message;
      const BlockMove* move;
      Label label;
    };
    auto where = [&](const Delivery& delivery) {
      const Message& message = round.messages[delivery.message];
      return "round " + std::to_string(r) + " (dimension " +
             std::to_string(round.dimension) + ") message " +
             std::to_string(delivery.message) + " hop " +
             offset_string(message.hop) + " from rank " +
             std::to_string(delivery.sender) + " to rank " +
             std::to_string(delivery.receiver) + ", block " +
             std::to_string(delivery.move->block);
    };
    std::vector<Delivery> deliveries;
    for (int p = 0; p < geometry_.size(); ++p) {
      for (std::size_t m = 0; m < round.messages.size(); ++m) {
        const Message& message = round.messages[m];
        const int receiver = geometry_.relative_rank(p, message.hop);
        if (receiver == classic::proc_null) continue;
        for (const BlockMove& move : message.moves) {
          if (!move_active(geometry_, p, move)) continue;
          const std::size_t from = slot(p, move.from);
          const Delivery delivery{p, receiver, m, &move, content_[from]};
          if (!delivery.label.filled()) {
            return where(delivery) + ": reads " + to_string(move.from) +
                   " before it was filled";
          }
          read_stamp_[from] = r;
          deliveries.push_back(delivery);
        }
      }
    }
    for (const Delivery& delivery : deliveries) {
      const Location& to_location = delivery.move->to;
      const std::size_t to = slot(delivery.receiver, to_location);
      if (read_stamp_[to] == r) {
        return where(delivery) + ": receives into " + to_string(to_location) +
               ", which rank " + std::to_string(delivery.receiver) +
               " sends from in the same round";
      }
      if (write_stamp_[to] == r) {
        return where(delivery) + ": receives into " + to_string(to_location) +
               ", which another message of the same round also fills";
      }
      write_stamp_[to] = r;
      if (!write(delivery.receiver, to_location, delivery.label)) {
        return where(delivery) + ": writes " + to_string(to_location) +
               " of rank " + std::to_string(delivery.receiver) +
               " a second time";
      }
    }
    return "";
  }

  Label received(int p, int j) const {
    return content_[slot(p, {SlotKind::receive, j})];
  }

 private:
  std::size_t slot(int p, const Location& location) const {
    std::size_t base = static_cast<std::size_t>(p) * slots_per_process_;
    if (location.kind != SlotKind::send) base += layout_.send_slots;
    if (location.kind == SlotKind::temp) base += layout_.receive_slots;
    return base + location.index;
  }

  // False if it would write a receive slot a second time.
  bool write(int p, const Location& location, const Label& label) {
    const std::size_t index = slot(p, location);
    if (location.kind == SlotKind::receive && receive_writes_[index]++ > 0) {
      return false;
    }
    content_[index] = label;
    return true;
  }

  const naming::Geometry& geometry_;
  Layout layout_;
  std::size_t slots_per_process_;
  std::vector<Label> content_;
  std::vector<int> receive_writes_;
  std::vector<int> read_stamp_;   // Round of the last read.
  std::vector<int> write_stamp_;  // Round of the last message write.
};

Verdict failed(std::string problem) { return {false, std::move(problem)}; }

template <Collective kind>
Verdict verify_schedule(const Schedule<kind>& schedule,
                        const naming::Geometry& geometry,
                        const Stencil& targets, const Stencil& sources) {
  internal::check_ndims(geometry, targets.ndims(), "targets",
                        "stencils::verify");
  internal::check_ndims(geometry, sources.ndims(), "sources",
                        "stencils::verify");
  constexpr bool allgather = kind == Collective::allgather;
  const auto expected = direct_result(geometry, targets, sources, allgather);
  const Layout layout{schedule.send_slots, schedule.receive_slots,
                      schedule.temp_slots};
  std::string problem =
      shape_problem(schedule, layout, allgather ? 1 : targets.size(),
                    sources.size(), geometry.ndims());
  if (!problem.empty()) return failed("malformed schedule: " + problem);
  Simulation simulation(geometry, layout);
  problem = simulation.run_local_copies(schedule.local_copies);
  if (!problem.empty()) return failed(problem);
  for (std::size_t r = 0; r < schedule.rounds.size(); ++r) {
    problem = simulation.run_round(schedule.rounds[r], static_cast<int>(r));
    if (!problem.empty()) return failed(problem);
  }
  for (int q = 0; q < geometry.size(); ++q) {
    for (int j = 0; j < sources.size(); ++j) {
      const Label actual = simulation.received(q, j);
      if (actual == expected[q][j]) continue;
      return failed("rank " + std::to_string(q) + " receive slot " +
                    std::to_string(j) + " holds " + to_string(actual) +
                    " but the direct neighbour collective puts " +
                    to_string(expected[q][j]) + " there");
    }
  }
  return {};
}

}  // namespace

Verdict verify(const AllgatherSchedule& schedule,
               const naming::Geometry& geometry, const Stencil& targets,
               const Stencil& sources) {
  return verify_schedule(schedule, geometry, targets, sources);
}

Verdict verify(const AlltoallSchedule& schedule,
               const naming::Geometry& geometry, const Stencil& targets,
               const Stencil& sources) {
  return verify_schedule(schedule, geometry, targets, sources);
}

}  // namespace stencils
