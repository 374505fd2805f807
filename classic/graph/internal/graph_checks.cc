#include "classic/graph/internal/graph_checks.h"

#include "classic/base/error.h"

namespace classic::internal {

const Comm::State& intra_state(const Comm& comm, const char* function) {
  const Comm::State& state = internal::CommAccess::state(comm, function);
  if (!state.remote.is_null()) {
    throw Error(ErrorClass::comm, function,
                "comm is an inter-communicator; this needs an "
                "intra-communicator");
  }
  return state;
}

std::string entry(const char* name, std::size_t i, int value) {
  return std::string(name) + "[" + std::to_string(i) +
         "] = " + std::to_string(value);
}

}  // namespace classic::internal
