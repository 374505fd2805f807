// The check of a checked call (ortho/checked.h): run by the dispatch
// before it selects an algorithm when checked mode is on, or, for a
// blocking graph exchange, in place of the algorithm.
#ifndef ORTHOCOMM_ORTHO_INTERNAL_CALL_CHECK_H_
#define ORTHOCOMM_ORTHO_INTERNAL_CALL_CHECK_H_

#include "classic/comm/comm.h"
#include "ortho/call.h"
#include "ortho/internal/inside_ortho.h"
#include "ortho/internal/table.h"

namespace ortho::internal {

// Returns when every process of comm made the same call with matching
// sizes; raises classic::Error on every process otherwise (ortho/checked.h
// says what is compared). Collective.
void check_call(const classic::Comm& comm, const Table& table,
                const Call& call);

// Whether a checked call runs as run_checked_exchange() instead: a blocking
// graph exchange (allgather(v, w), alltoall(v, w) on a directed graph).
bool checked_along_edges(const Table& table, const Call& call);

// A blocking graph exchange in checked mode: its messages carry the check
// (classic::execute_checked), one per edge as direct sends them, whatever
// algorithm is selected, so the check stays among neighbours. An argument
// error raises here after this process took its part (neighbours that
// receive from it raise too). Collective over the neighbourhood.
void run_checked_exchange(const classic::Comm& comm, const Table& table,
                          const Call& call);

}  // namespace ortho::internal

#endif  // ORTHOCOMM_ORTHO_INTERNAL_CALL_CHECK_H_
