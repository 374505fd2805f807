// Agreement on an intra-communicator, for the layers above classic: "true on
// every process", "the lowest failing rank", "the same values everywhere".
// Collective; every process gets the same answer, so all fail together.
#ifndef ORTHOCOMM_CLASSIC_COLLECTIVES_AGREEMENT_H_
#define ORTHOCOMM_CLASSIC_COLLECTIVES_AGREEMENT_H_

#include <optional>
#include <span>

#include "classic/comm/comm.h"

namespace classic {

// Errors: ErrorClass::comm for a null, freed or inter-communicator.

// True on every process when `mine` is true on every process of comm.
bool all_true(const Comm& comm, bool mine);

// The lowest rank of comm whose `failed` is true; nullopt when none is.
std::optional<int> lowest_failing_rank(const Comm& comm, bool failed);

// True on every process when every process passed the same sequence (same
// length, same values), false on every process otherwise. Exact (no
// hashing): one reduction over the lengths, one over the values.
bool identical_everywhere(const Comm& comm, std::span<const int> values);

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_COLLECTIVES_AGREEMENT_H_
