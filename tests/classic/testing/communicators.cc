#include "tests/classic/testing/communicators.h"

#include <mpi.h>

#include <memory>

#include "classic/comm/internal/comm_state.h"
#include "classic/groups/group.h"

namespace classic::testing {

Comm fake_inter_communicator() {
  auto state = std::make_shared<Comm::State>(MPI_COMM_NULL, Group::world());
  state->remote = Group::self();
  return internal::CommAccess::make(state);
}

}  // namespace classic::testing
