// Checked mode's report of a stalled call: each process notes its last
// checked call; one whose call waited past ORTHO_CHECK_TIMEOUT asks every
// process, on a context of its own (Environment::report_context), for
// theirs. Where all of them stalled too (a deadlock: each waits in a
// collective the others never join), every process learns every
// process's last call and can name them all.
#ifndef ORTHOCOMM_CLASSIC_COLLECTIVES_INTERNAL_STALL_REPORT_H_
#define ORTHOCOMM_CLASSIC_COLLECTIVES_INTERNAL_STALL_REPORT_H_

#include <string>
#include <string_view>

#include "classic/base/internal/inside_classic.h"

namespace classic::internal {

// Notes `function`, on a communicator of `size` processes (the world's
// own where `world`), as this process's last checked call. Cheap: no
// allocation, it runs with every checked call.
void note_checked_call(std::string_view function, int size, bool world);

// Every process's last checked call, one "rank R: CALL" per process
// separated by "; ", where every process of the world asks within
// `seconds`; empty otherwise, and after the first time (the gather may stay
// pending, so it runs once per program).
std::string last_calls_of_every_rank(double seconds);

}  // namespace classic::internal

#endif  // ORTHOCOMM_CLASSIC_COLLECTIVES_INTERNAL_STALL_REPORT_H_
