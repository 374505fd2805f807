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
#include "stencils/schedule_shape.h"

namespace stencils {
namespace {

using internal::direct_result;
using internal::Label;
using internal::Layout;
using internal::shape_problem;
using internal::to_string;

std::string to_string(const Label& label) {
  if (!label.filled()) return "nothing";
  return "the block of rank " + std::to_string(label.origin) + " send slot " +
         std::to_string(label.slot);
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
  const Layout layout = internal::layout_of(schedule);
  std::string problem = shape_problem(schedule.local_copies, schedule.rounds,
                                      layout, allgather ? 1 : targets.size(),
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
