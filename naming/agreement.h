// Collective checks that every process of a communicator holds the same
// naming (and arguments): for cart_testall and cart_create_sub. Internal.
#ifndef ORTHOCOMM_NAMING_AGREEMENT_H_
#define ORTHOCOMM_NAMING_AGREEMENT_H_

#include <span>
#include <vector>

#include "classic/comm/comm.h"
#include "naming/geometry.h"

namespace naming::internal {

// A flat description of a naming, or of its absence (nullptr): two
// descriptions are equal exactly when both are absent or both name the same
// grid (operator== of Geometry). Length-prefixed, so that it can be followed
// by more values without ambiguity.
std::vector<int> describe(const Geometry* naming);

// Collective over the intra-communicator `comm`: true on every process when
// every process passed the same sequence (same length, same values), false
// on every process otherwise (classic::identical_everywhere). Throws
// ErrorClass::comm, naming `function`, for an inter-communicator.
bool identical_everywhere(const classic::Comm& comm,
                          std::span<const int> values, const char* function);

}  // namespace naming::internal

#endif  // ORTHOCOMM_NAMING_AGREEMENT_H_
