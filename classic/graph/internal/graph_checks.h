// Argument helpers that the graph and distributed graph constructors share:
// comm as an intra-communicator, and messages naming an array entry.
// Internal to classic.
#ifndef ORTHOCOMM_CLASSIC_GRAPH_INTERNAL_GRAPH_CHECKS_H_
#define ORTHOCOMM_CLASSIC_GRAPH_INTERNAL_GRAPH_CHECKS_H_

#include <cstddef>
#include <string>

#include "classic/base/internal/inside_classic.h"
#include "classic/comm/comm.h"
#include "classic/comm/internal/comm_state.h"

namespace classic::internal {

// comm's state; ErrorClass::comm for a null, freed or inter-communicator.
const Comm::State& intra_state(const Comm& comm, const char* function);

// "name[i] = value", for error messages.
std::string entry(const char* name, std::size_t i, int value);

}  // namespace classic::internal

#endif  // ORTHOCOMM_CLASSIC_GRAPH_INTERNAL_GRAPH_CHECKS_H_
