// The shape of a combining schedule (schedule.h) checked before it is run:
// slot counts that fit the neighbourhoods, locations in range, offsets of
// the grid's length, no write into a send slot. Shared by the verifiers
// (verifier.h). Internal to stencils.
#ifndef ORTHOCOMM_STENCILS_SCHEDULE_SHAPE_H_
#define ORTHOCOMM_STENCILS_SCHEDULE_SHAPE_H_

#include <span>
#include <string>

#include "stencils/schedule.h"

namespace stencils::internal {

// "send slot 3", "temp slot 0", ...
std::string to_string(const Location& location);

// A process's slots of each kind.
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

// The first problem with a schedule's shape ("" where none): its slot
// counts against `expected_send_slots` send and `t` receive slots, its
// temp slots against its moves, every location against the layout and
// every offset against `ndims`.
std::string shape_problem(std::span<const BlockMove> local_copies,
                          std::span<const Round> rounds, const Layout& layout,
                          int expected_send_slots, int t, int ndims);

template <Collective kind>
Layout layout_of(const Schedule<kind>& schedule) {
  return {schedule.send_slots, schedule.receive_slots, schedule.temp_slots};
}

}  // namespace stencils::internal

#endif  // ORTHOCOMM_STENCILS_SCHEDULE_SHAPE_H_
