// Exact, machine-independent structure of neighbour collectives per process:
// rounds, messages and blocks sent, for a combining schedule and for the
// direct algorithm (one message per neighbour), for reports to show next
// to times (docs/design.md, "Measuring speed").
#ifndef ORTHOCOMM_STENCILS_STRUCTURE_H_
#define ORTHOCOMM_STENCILS_STRUCTURE_H_

#include "naming/geometry.h"
#include "stencils/schedule.h"
#include "stencils/stencil.h"

namespace stencils {

// What one process sends in one call. Local copies (offsets that are the
// process itself) are not messages and count nowhere.
struct Counters {
  int rounds = 0;
  int messages = 0;
  int blocks = 0;
  friend bool operator==(const Counters&, const Counters&) = default;
};

// The direct algorithm: one message of one block to each target that is not
// the process itself (canonically non-zero offset), all in one round; the
// same for allgather and alltoall. The first form counts a process all of
// whose targets exist (any process of a torus, an interior one of a mesh);
// the second the process `rank`, skipping targets off the grid. Throws
// classic::Error: dims on an ndims mismatch, rank for a rank outside the grid.
Counters direct_counters(const naming::Geometry& geometry,
                         const Stencil& targets);
Counters direct_counters(const naming::Geometry& geometry,
                         const Stencil& targets, int rank);

// A combining schedule: every message and move (a process all of whose
// neighbours exist), or what process `rank` actually sends (messages to
// proc_null and inactive moves skipped; a message left with no active move
// is not sent, and a round with no message does not count).
Counters schedule_counters(const AllgatherSchedule& schedule);
Counters schedule_counters(const AlltoallSchedule& schedule);
Counters schedule_counters(const AllgatherSchedule& schedule,
                           const naming::Geometry& geometry, int rank);
Counters schedule_counters(const AlltoallSchedule& schedule,
                           const naming::Geometry& geometry, int rank);

}  // namespace stencils

#endif  // ORTHOCOMM_STENCILS_STRUCTURE_H_
