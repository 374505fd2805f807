#include "stencils/translation_verifier.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "classic/base/error.h"
#include "stencils/checks.h"
#include "stencils/schedule_shape.h"

namespace stencils {
namespace {

using internal::Layout;

constexpr const char* kFunction = "stencils::verify_by_translation";

// A position relative to the process, as coordinates modulo the grid's
// extents (0 <= c < n): equal exactly where the ranks are.
using Position = std::vector<int>;

// A block: its origin's position relative to the process holding it, and
// its send slot there. Empty: slot -1.
struct Label {
  Position origin;
  int slot = -1;
  bool filled() const { return slot >= 0; }
  friend bool operator==(const Label&, const Label&) = default;
};

class Torus {
 public:
  explicit Torus(const naming::Geometry& geometry) : geometry_(geometry) {}

  // `offset` modulo the extents.
  Position position(std::span<const int> offset) const {
    Position result(offset.size());
    for (std::size_t i = 0; i < offset.size(); ++i) {
      const std::int64_t n = geometry_.dims()[i];
      result[i] = static_cast<int>(((offset[i] % n) + n) % n);
    }
    return result;
  }

  // `position` moved by -`hop`.
  Position moved_back(const Position& position,
                      std::span<const int> hop) const {
    Position result(position.size());
    for (std::size_t i = 0; i < position.size(); ++i) {
      const std::int64_t n = geometry_.dims()[i];
      result[i] = static_cast<int>(
          (((position[i] - static_cast<std::int64_t>(hop[i])) % n) + n) % n);
    }
    return result;
  }

  Position negated(const Position& position) const {
    const std::vector<int> zero(position.size(), 0);
    return moved_back(zero, position);
  }

  // As the offset a reader knows (canonical_offset).
  std::string readable(const Position& position) const {
    return offset_string(geometry_.canonical_offset(position));
  }

 private:
  const naming::Geometry& geometry_;
};

std::string to_string(const Torus& torus, const Label& label) {
  if (!label.filled()) return "nothing";
  return "the block of the rank at offset " + torus.readable(label.origin) +
         " send slot " + std::to_string(label.slot);
}

// What the direct collective puts into receive slot j: the block of source
// S[j] that is its k-th bound for this process, k counting the earlier
// sources at the same position (MPI's pairing of repeated neighbours).
std::vector<Label> direct_result(const Torus& torus, const Stencil& targets,
                                 const Stencil& sources, bool one_send_block) {
  std::map<Position, int> sent;
  for (int i = 0; i < targets.size(); ++i) {
    ++sent[torus.position(targets.offset(i))];
  }
  std::map<Position, int> received;
  std::vector<Label> expected;
  for (int j = 0; j < sources.size(); ++j) {
    const Position source = torus.position(sources.offset(j));
    const int k = received[source]++;
    const Position back = torus.negated(source);
    int seen = 0;
    std::optional<int> slot;
    for (int i = 0; i < targets.size() && !slot; ++i) {
      if (torus.position(targets.offset(i)) == back && seen++ == k) slot = i;
    }
    if (!slot) {
      throw classic::Error(
          classic::ErrorClass::topology, kFunction,
          "every process lists the process at offset " +
              torus.readable(source) + " " + std::to_string(k + 1) +
              " or more time(s) as a source, but that process lists it " +
              std::to_string(sent[back]) + " time(s) as a destination");
    }
    expected.push_back({source, one_send_block ? 0 : *slot});
  }
  for (const auto& [position, count] : sent) {
    const int back = received[torus.negated(position)];
    if (back != count) {
      throw classic::Error(
          classic::ErrorClass::topology, kFunction,
          "every process lists the process at offset " +
              torus.readable(position) + " " + std::to_string(count) +
              " time(s) as a destination, but that process lists it " +
              std::to_string(back) + " time(s) as a source");
    }
  }
  return expected;
}

// One process's slots through the schedule.
class Process {
 public:
  // Its send slots hold its own blocks (origin: itself, at offset 0 of
  // `ndims` components).
  Process(const Torus& torus, const Layout& layout, int ndims)
      : torus_(torus),
        layout_(layout),
        content_(static_cast<std::size_t>(layout.send_slots) +
                 static_cast<std::size_t>(layout.receive_slots) +
                 static_cast<std::size_t>(layout.temp_slots)),
        receive_writes_(content_.size(), 0),
        read_stamp_(content_.size(), -1),
        write_stamp_(content_.size(), -1) {
    for (int s = 0; s < layout.send_slots; ++s) {
      content_[index({SlotKind::send, s})] = {
          Position(static_cast<std::size_t>(ndims), 0), s};
    }
  }

  std::string run_local_copies(const std::vector<BlockMove>& copies) {
    for (const BlockMove& copy : copies) {
      const std::string where =
          "local copy of block " + std::to_string(copy.block);
      const Label label = content_[index(copy.from)];
      if (!label.filled()) {
        return where + " reads empty " + internal::to_string(copy.from);
      }
      if (!write(copy.to, label)) {
        return where + " writes " + internal::to_string(copy.to) +
               " a second time";
      }
    }
    return "";
  }

  std::string run_round(const Round& round, int r) {
    struct Delivery {
      std::size_t message;
      const BlockMove* move;
      Label label;
    };
    const auto where = [&](const Delivery& delivery) {
      const Message& message = round.messages[delivery.message];
      return "round " + std::to_string(r) + " (dimension " +
             std::to_string(round.dimension) + ") message " +
             std::to_string(delivery.message) + " hop " +
             offset_string(message.hop) + ", block " +
             std::to_string(delivery.move->block);
    };
    std::vector<Delivery> deliveries;
    for (std::size_t m = 0; m < round.messages.size(); ++m) {
      const Message& message = round.messages[m];
      for (const BlockMove& move : message.moves) {
        const std::size_t from = index(move.from);
        Label label = content_[from];
        if (!label.filled()) {
          return where({m, &move, label}) + ": reads " +
                 internal::to_string(move.from) + " before it was filled";
        }
        // The sender sits at -hop: its block's origin, seen from here.
        label.origin = torus_.moved_back(label.origin, message.hop);
        read_stamp_[from] = r;
        deliveries.push_back({m, &move, std::move(label)});
      }
    }
    for (const Delivery& delivery : deliveries) {
      const Location& to_location = delivery.move->to;
      const std::size_t to = index(to_location);
      if (read_stamp_[to] == r) {
        return where(delivery) + ": receives into " +
               internal::to_string(to_location) +
               ", which every process sends from in the same round";
      }
      if (write_stamp_[to] == r) {
        return where(delivery) + ": receives into " +
               internal::to_string(to_location) +
               ", which another message of the same round also fills";
      }
      write_stamp_[to] = r;
      if (!write(to_location, delivery.label)) {
        return where(delivery) + ": writes " +
               internal::to_string(to_location) + " a second time";
      }
    }
    return "";
  }

  const Label& received(int j) const {
    return content_[index({SlotKind::receive, j})];
  }

 private:
  std::size_t index(const Location& location) const {
    std::size_t base = 0;
    if (location.kind != SlotKind::send) {
      base += static_cast<std::size_t>(layout_.send_slots);
    }
    if (location.kind == SlotKind::temp) {
      base += static_cast<std::size_t>(layout_.receive_slots);
    }
    return base + static_cast<std::size_t>(location.index);
  }

  // False if it would write a receive slot a second time.
  bool write(const Location& location, const Label& label) {
    const std::size_t at = index(location);
    if (location.kind == SlotKind::receive && receive_writes_[at]++ > 0) {
      return false;
    }
    content_[at] = label;
    return true;
  }

  const Torus& torus_;
  Layout layout_;
  std::vector<Label> content_;
  std::vector<int> receive_writes_;
  std::vector<int> read_stamp_;
  std::vector<int> write_stamp_;
};

template <Collective kind>
Verdict verify_schedule(const Schedule<kind>& schedule,
                        const naming::Geometry& geometry,
                        const Stencil& targets, const Stencil& sources) {
  internal::check_ndims(geometry, targets.ndims(), "targets", kFunction);
  internal::check_ndims(geometry, sources.ndims(), "sources", kFunction);
  for (int i = 0; i < geometry.ndims(); ++i) {
    if (!geometry.periods()[static_cast<std::size_t>(i)]) {
      throw classic::Error(
          classic::ErrorClass::arg, kFunction,
          "dimension " + std::to_string(i) +
              " of the grid is not periodic (near its borders processes "
              "differ; use stencils::verify)");
    }
  }
  constexpr bool allgather = kind == Collective::allgather;
  const Torus torus(geometry);
  const std::vector<Label> expected =
      direct_result(torus, targets, sources, allgather);
  const Layout layout = internal::layout_of(schedule);
  std::string problem = internal::shape_problem(
      schedule.local_copies, schedule.rounds, layout,
      allgather ? 1 : targets.size(), sources.size(), geometry.ndims());
  if (!problem.empty()) return {false, "malformed schedule: " + problem};
  Process process(torus, layout, geometry.ndims());
  problem = process.run_local_copies(schedule.local_copies);
  if (!problem.empty()) return {false, problem};
  for (std::size_t r = 0; r < schedule.rounds.size(); ++r) {
    problem = process.run_round(schedule.rounds[r], static_cast<int>(r));
    if (!problem.empty()) return {false, problem};
  }
  for (int j = 0; j < sources.size(); ++j) {
    const Label& actual = process.received(j);
    const Label& wanted = expected[static_cast<std::size_t>(j)];
    if (actual == wanted) continue;
    return {false, "every rank's receive slot " + std::to_string(j) +
                       " holds " + to_string(torus, actual) +
                       " but the direct neighbour collective puts " +
                       to_string(torus, wanted) + " there"};
  }
  return {};
}

}  // namespace

Verdict verify_by_translation(const AllgatherSchedule& schedule,
                              const naming::Geometry& geometry,
                              const Stencil& targets, const Stencil& sources) {
  return verify_schedule(schedule, geometry, targets, sources);
}

Verdict verify_by_translation(const AlltoallSchedule& schedule,
                              const naming::Geometry& geometry,
                              const Stencil& targets, const Stencil& sources) {
  return verify_schedule(schedule, geometry, targets, sources);
}

}  // namespace stencils
