// The plans of message combining (combining.h): the layout of one call's
// blocks in its buffers and scratch, and the compilation of a schedule of
// stencils/schedule.h into a classic::Plan for one process and call shape;
// shared by the combining algorithms (combining.cc, gather_blocks.cc,
// exchange_blocks.cc).
#ifndef ORTHOCOMM_ORTHO_ALGORITHMS_COMBINING_COMBINING_PLANS_H_
#define ORTHOCOMM_ORTHO_ALGORITHMS_COMBINING_COMBINING_PLANS_H_

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <vector>

#include "classic/base/constants.h"
#include "classic/exec/plan.h"
#include "ortho/algorithms/combining/combining.h"
#include "ortho/algorithms/graph_plans.h"
#include "ortho/internal/inside_ortho.h"
#include "stencils/message_split.h"
#include "stencils/schedule.h"

namespace ortho::algorithms::combining_plans {

using classic::Plan;
using Space = Plan::Space;
using stencils::Location;
using stencils::SlotKind;

// Where the blocks of one call lie: slot strides of the caller's buffers
// (one block per neighbour) and of the scratch slots of relayed blocks.
struct Layout {
  Elements send;
  Elements recv;
  MPI_Aint send_stride = 0;  // alltoall: bytes between send blocks
  MPI_Aint recv_stride = 0;
  MPI_Aint temp_stride = 0;
  MPI_Aint temp_shift = 0;  // -true_lower_bound of the receive type
  // The bytes of one block (count times the receive type's size), which
  // every block has where the blocks below are empty.
  std::size_t block_bytes = 0;
  // Blocks of their own size and datatype, where a call has them: the
  // receive block of each source and the send block of each destination,
  // in the caller's order, and the block of each scratch slot.
  std::vector<Plan::Block> recv_blocks;
  std::vector<Plan::Block> send_blocks;
  std::vector<Plan::Block> temp_blocks;
};

// The strides and scratch slots of a call with these send and receive
// blocks.
Layout layout_of(Elements send, Elements recv, const char* function);

// Compiles one schedule into a plan for this process and one call shape.
template <stencils::Collective kind>
class PlanBuilder {
 public:
  PlanBuilder(const Combining& c, const stencils::Schedule<kind>& schedule,
              const Layout& layout)
      : c_(c), schedule_(schedule), layout_(layout) {}

  Plan build() const {
    Plan plan;
    plan.scratch_bytes =
        static_cast<MPI_Aint>(schedule_.temp_slots) * layout_.temp_stride;
    if (c_.rank >= c_.geometry.size()) return plan;  // off the grid: nothing
    for (const stencils::Round& round : schedule_.rounds) {
      Plan::Round& step = plan.rounds.emplace_back();
      const auto messages = static_cast<int>(round.messages.size());
      for (int m = 0; m < messages; ++m) {
        add_message(step, round.messages[static_cast<std::size_t>(m)], m,
                    messages + m);
      }
    }
    if (plan.rounds.empty()) plan.rounds.emplace_back();
    for (const stencils::BlockMove& move : schedule_.local_copies) {
      if (!stencils::move_active(c_.geometry, c_.rank, move)) continue;
      plan.rounds.back().local.push_back({.kind = Plan::Local::Kind::copy,
                                          .from = block(move.from),
                                          .to = block(move.to)});
    }
    return plan;
  }

 private:
  // Message `message` of a round as this process sends and receives it,
  // tagged `tag`; where the eager limit splits it, its second part is
  // tagged `second_tag` (distinct from every message's tag in the round).
  void add_message(Plan::Round& step, const stencils::Message& message, int tag,
                   int second_tag) const {
    std::vector<int> back(message.hop.size());
    std::transform(message.hop.begin(), message.hop.end(), back.begin(),
                   [](int h) { return -h; });
    const int to = c_.geometry.relative_rank(c_.rank, message.hop);
    const int from = c_.geometry.relative_rank(c_.rank, back);
    if (to != classic::proc_null) {
      std::vector<Plan::Block> blocks;
      for (const stencils::BlockMove& move : message.moves) {
        if (stencils::move_active(c_.geometry, c_.rank, move)) {
          blocks.push_back(block(move.from));
        }
      }
      add_parts(step.sends, to, tag, second_tag, std::move(blocks));
    }
    if (from != classic::proc_null) {
      std::vector<Plan::Block> blocks;
      for (const stencils::BlockMove& move : message.moves) {
        if (stencils::move_active(c_.geometry, from, move)) {
          blocks.push_back(block(move.to));
        }
      }
      add_parts(step.receives, from, tag, second_tag, std::move(blocks));
    }
  }

  // `blocks` as one message to or from `peer`, or as two where they have
  // one size and the eager limit splits them (stencils/message_split.h):
  // sender and receiver count the same active blocks of the same size, so
  // they split alike. Blocks of their own sizes (the v and w forms) stay
  // in one message.
  void add_parts(std::vector<Plan::Message>& messages, int peer, int tag,
                 int second_tag, std::vector<Plan::Block> blocks) const {
    if (blocks.empty()) return;
    const bool uniform =
        layout_.send_blocks.empty() && layout_.recv_blocks.empty();
    const auto count = static_cast<int>(blocks.size());
    const int first = uniform
                          ? stencils::first_part_blocks(
                                count, layout_.block_bytes,
                                static_cast<std::size_t>(c_.prices.eager_bytes))
                          : count;
    std::vector<Plan::Block> rest(blocks.begin() + first, blocks.end());
    blocks.resize(static_cast<std::size_t>(first));
    messages.push_back({.peer = peer, .tag = tag, .blocks = std::move(blocks)});
    if (!rest.empty()) {
      messages.push_back(
          {.peer = peer, .tag = second_tag, .blocks = std::move(rest)});
    }
  }

  Plan::Block block(const Location& location) const {
    const auto slot = static_cast<std::size_t>(location.index);
    switch (location.kind) {
      case SlotKind::send: {
        if (!layout_.send_blocks.empty()) {
          return layout_.send_blocks[static_cast<std::size_t>(
              c_.neighborhood.target_slots[slot])];
        }
        const MPI_Aint position =
            kind == stencils::Collective::allgather
                ? 0
                : c_.neighborhood.target_slots[slot] * layout_.send_stride;
        return {.space = Space::send,
                .displacement = position,
                .count = layout_.send.count,
                .datatype = layout_.send.datatype};
      }
      case SlotKind::receive:
        if (!layout_.recv_blocks.empty()) {
          return layout_.recv_blocks[static_cast<std::size_t>(
              c_.neighborhood.source_slots[slot])];
        }
        return {.space = Space::recv,
                .displacement =
                    c_.neighborhood.source_slots[slot] * layout_.recv_stride,
                .count = layout_.recv.count,
                .datatype = layout_.recv.datatype};
      case SlotKind::temp:
        if (!layout_.temp_blocks.empty()) return layout_.temp_blocks[slot];
        break;
    }
    return {.space = Space::scratch,
            .displacement = static_cast<MPI_Aint>(slot) * layout_.temp_stride +
                            layout_.temp_shift,
            .count = layout_.recv.count,
            .datatype = layout_.recv.datatype};
  }

  const Combining& c_;
  const stencils::Schedule<kind>& schedule_;
  const Layout& layout_;
};

template <stencils::Collective kind>
Traffic traffic_of(const stencils::Schedule<kind>& schedule) {
  Traffic traffic;
  traffic.rounds = static_cast<int>(schedule.rounds.size());
  for (const stencils::Round& round : schedule.rounds) {
    traffic.messages += static_cast<int>(round.messages.size());
    for (const stencils::Message& message : round.messages) {
      const auto blocks = static_cast<int>(message.moves.size());
      traffic.blocks += blocks;
      if (blocks > 1) traffic.packed_blocks += blocks;
      traffic.largest_message_blocks =
          std::max(traffic.largest_message_blocks, blocks);
      traffic.message_blocks.push_back(blocks);
    }
  }
  return traffic;
}

}  // namespace ortho::algorithms::combining_plans

#endif  // ORTHOCOMM_ORTHO_ALGORITHMS_COMBINING_COMBINING_PLANS_H_
