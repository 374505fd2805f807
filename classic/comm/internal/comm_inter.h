// MPI-2's create and split on inter-communicators, for Comm::create and
// Comm::split (which dispatch here). Internal to classic.
#ifndef ORTHOCOMM_CLASSIC_COMM_INTERNAL_COMM_INTER_H_
#define ORTHOCOMM_CLASSIC_COMM_INTERNAL_COMM_INTER_H_

#include "classic/base/internal/inside_classic.h"
#include "classic/comm/comm.h"
#include "classic/comm/internal/comm_state.h"
#include "classic/groups/group.h"

namespace classic::internal {

// Comm::create on an inter-communicator: `group` is a subset of the local
// group (every process of one side passes the same one); the result joins
// the two sides' subsets, and is null where the caller is outside its
// side's subset or where either subset is empty. Collective over both
// groups.
Comm create(const Comm::State& state, const Group& group);

// Comm::split on an inter-communicator: processes of the same color on the
// two sides form an inter-communicator, each side ordered by key (ties by
// rank in the side); null for undefined and for a color only one side
// has. Collective over both groups; `color` is checked by the caller.
Comm split(const Comm::State& state, int color, int key);

}  // namespace classic::internal

#endif  // ORTHOCOMM_CLASSIC_COMM_INTERNAL_COMM_INTER_H_
