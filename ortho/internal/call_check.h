// The agreement of a checked call (ortho/checked.h): run by the dispatch
// before it selects an algorithm when checked mode is on.
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

}  // namespace ortho::internal

#endif  // ORTHOCOMM_ORTHO_INTERNAL_CALL_CHECK_H_
