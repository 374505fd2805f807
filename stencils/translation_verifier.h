// A combining schedule verified on a torus of any size in the time of one
// process: on a grid periodic in every dimension, moving every process by
// the same offset maps the grid onto itself, and a schedule names only
// relative positions, so after every round each process holds what any
// other holds, moved by the offset between them. One process's slots, each
// block labelled by its origin's position relative to that process,
// therefore stand for all of them: a message with hop h brings what the
// process itself sends along h, its origins moved by -h. The checks are
// verify()'s (verifier.h) on that process: the schedule's shape, reads of
// empty slots, a slot read and received into in one round or received
// into twice, a receive slot written twice, and every receive slot against
// the direct neighbour collective's block (its source's k-th block bound
// for this process, MPI's pairing of repeated neighbours). The verdict is
// verify()'s on every such grid (tests/stencils compare the two on grids
// up to 10^4 processes, with corrupted schedules).
#ifndef ORTHOCOMM_STENCILS_TRANSLATION_VERIFIER_H_
#define ORTHOCOMM_STENCILS_TRANSLATION_VERIFIER_H_

#include "naming/geometry.h"
#include "stencils/schedule.h"
#include "stencils/stencil.h"
#include "stencils/verifier.h"

namespace stencils {

// Throws classic::Error: arg if a dimension of `geometry` is not periodic
// (then processes near the borders differ: use verify); dims and topology
// as verify.
Verdict verify_by_translation(const AllgatherSchedule& schedule,
                              const naming::Geometry& geometry,
                              const Stencil& targets, const Stencil& sources);
Verdict verify_by_translation(const AlltoallSchedule& schedule,
                              const naming::Geometry& geometry,
                              const Stencil& targets, const Stencil& sources);

}  // namespace stencils

#endif  // ORTHOCOMM_STENCILS_TRANSLATION_VERIFIER_H_
