// Tuning of persistent requests (internal/tuning.h): a request tunes over
// its own first starts and keeps its winner.
#ifndef ORTHOCOMM_ORTHO_INTERNAL_TUNING_PERSISTENT_H_
#define ORTHOCOMM_ORTHO_INTERNAL_TUNING_PERSISTENT_H_

#include <optional>

#include "classic/comm/comm.h"
#include "classic/p2p/request.h"
#include "ortho/call.h"
#include "ortho/internal/inside_ortho.h"

namespace ortho {
struct Table;
}  // namespace ortho

namespace ortho::internal {

// A persistent request for `call` that runs the candidates in turn over its
// first starts, agrees on the fastest with a start, and runs the winner from
// then on (or the winner the wisdom file holds); nullopt where there are
// fewer than two candidates. Collective over comm where ORTHO_WISDOM is
// set.
std::optional<classic::Request> run_persistent(const classic::Comm& comm,
                                               const Table& table,
                                               const Call& call);

}  // namespace ortho::internal

#endif  // ORTHOCOMM_ORTHO_INTERNAL_TUNING_PERSISTENT_H_
