// The plan of an operation's last call on a communicator, kept for the next
// call with the same arguments. A stencil code calls the same collective
// with the same counts and datatypes at every iteration; an algorithm that
// builds its plan from the call's arguments finds it here instead, without
// normalising the arguments again, querying a datatype or allocating: a
// plan is kept with the number of its call's arguments
// (internal/call_shape.h), which names everything of a call that shapes
// its plan. Arguments equal to ones already checked are valid. A plan that also
// depends on what other processes send (the relayed blocks' sizes of the v
// forms) is kept with those sizes and taken only where they come again.
#ifndef ORTHOCOMM_ORTHO_INTERNAL_LAST_PLAN_H_
#define ORTHOCOMM_ORTHO_INTERNAL_LAST_PLAN_H_

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "classic/exec/plan.h"
#include "ortho/internal/call_shape.h"
#include "ortho/internal/inside_ortho.h"

namespace ortho::algorithms {
struct Exchange;     // ortho/internal/exchange.h
class SelfSizedRun;  // ortho/algorithms/node_aware/self_sized.h
}  // namespace ortho::algorithms

namespace ortho::internal {

// The round a sized plan's relayed sizes are learnt in, kept with it: the
// next call with the same arguments sends the same sizes and receives new
// ones into the same places, on the same plan.
struct KeptSizesRound {
  std::shared_ptr<const classic::Plan> plan;
  std::vector<std::int64_t> sent;    // this process's blocks' sizes
  std::vector<std::int64_t> places;  // where the sizes arrive
};

// A non-blocking call's plan, made once the sizes it depends on have
// arrived: outside any call of ortho's (algorithms/node_aware/followed.h),
// so the next such call keeps it in its LastPlan.
struct MadeLater {
  std::uint64_t shape = 0;  // the call's number
  std::shared_ptr<const algorithms::Exchange> blocks;
  std::shared_ptr<const classic::Plan> plan;  // null until made
  std::vector<std::int64_t> sizes;            // what it was made for
};

// One operation's last plan on a communicator, and who made it.
struct LastPlan {
  const void* algorithm = nullptr;  // the Registration's run function
  std::uint64_t shape = 0;          // the number of its call's arguments
  std::shared_ptr<const classic::Plan> plan;
  // A plan that also depends on sizes other processes tell (the relayed
  // blocks of the v forms): the call's blocks, and the sizes it was made
  // for. The next call with the same arguments learns the sizes again
  // from these blocks and takes the plan where they are the same.
  std::shared_ptr<const algorithms::Exchange> blocks;
  std::vector<std::int64_t> sizes;
  KeptSizesRound sizes_round;
  // A blocking call whose relays learn the sizes from the messages
  // themselves: its run (its plans and the places of its messages), taken
  // again by the next call with the same arguments on the same buffers;
  // the last two such runs, most recent first (a sparse code's buffers
  // may alternate between two allocations).
  std::array<std::shared_ptr<algorithms::SelfSizedRun>, 2> self_sized;
  // The last non-blocking call's, until the next call keeps it.
  std::shared_ptr<MadeLater> made_later;

  // The plan `by` made for a call numbered `call_shape`, or null.
  const std::shared_ptr<const classic::Plan>* find(
      const void* by, std::uint64_t call_shape) const noexcept {
    return plan != nullptr && algorithm == by && same_shape(shape, call_shape)
               ? &plan
               : nullptr;
  }
  const std::shared_ptr<const classic::Plan>& keep(
      const void* by, std::uint64_t call_shape,
      std::shared_ptr<const classic::Plan> made) {
    algorithm = by;
    shape = call_shape;
    plan = std::move(made);
    blocks = nullptr;
    sizes.clear();
    sizes_round = {};
    self_sized = {};
    made_later = nullptr;
    return plan;
  }
  // The plan made for `made_from`, the blocks of a call numbered
  // `call_shape`, and the relayed `sizes`.
  void keep_sized(const void* by, std::uint64_t call_shape,
                  std::shared_ptr<const classic::Plan> made,
                  std::shared_ptr<const algorithms::Exchange> made_from,
                  std::vector<std::int64_t> made_for, KeptSizesRound round) {
    keep(by, call_shape, std::move(made));
    blocks = std::move(made_from);
    sizes = std::move(made_for);
    sizes_round = std::move(round);
  }
  // Whether the self-sized runs kept here are `by`'s for calls numbered
  // `call_shape`.
  bool keeps_self_sized(const void* by,
                        std::uint64_t call_shape) const noexcept {
    return self_sized[0] != nullptr && algorithm == by &&
           same_shape(shape, call_shape);
  }
  // The blocks of the last call where a call numbered `call_shape` has
  // its arguments and its plan depends on sizes, or null.
  const algorithms::Exchange* sized_blocks(
      const void* by, std::uint64_t call_shape) const noexcept {
    return blocks != nullptr && find(by, call_shape) != nullptr ? blocks.get()
                                                                : nullptr;
  }
};

// An operation's last plans: one per algorithm that keeps plans, up to
// kSlots (the least recently used gives way), so that calls alternating
// between algorithms (tuning measures several in turn) keep each its own.
class LastPlans {
 public:
  static constexpr std::size_t kSlots = 4;

  // The slot of the algorithm identified by `by` (an empty or the least
  // recently used one where it has none yet; its find() then fails).
  LastPlan& of(const void* by) noexcept {
    std::size_t chosen = 0;
    for (std::size_t i = 0; i < kSlots; ++i) {
      if (slots_[i].algorithm == by) {
        chosen = i;
        break;
      }
      if (used_[i] < used_[chosen]) chosen = i;
    }
    used_[chosen] = ++clock_;
    return slots_[chosen];
  }
  // The slot of the algorithm that ran last (for tests).
  const LastPlan& latest() const noexcept {
    return slots_[static_cast<std::size_t>(
        std::max_element(used_.begin(), used_.end()) - used_.begin())];
  }

 private:
  std::array<LastPlan, kSlots> slots_{};
  std::array<std::uint64_t, kSlots> used_{};
  std::uint64_t clock_ = 0;
};

}  // namespace ortho::internal

#endif  // ORTHOCOMM_ORTHO_INTERNAL_LAST_PLAN_H_
