// Communicators that classic's public interface cannot make, for tests of
// how classic rejects them.
#ifndef ORTHOCOMM_TESTS_CLASSIC_TESTING_COMMUNICATORS_H_
#define ORTHOCOMM_TESTS_CLASSIC_TESTING_COMMUNICATORS_H_

#include "classic/comm/comm.h"

namespace classic::testing {

// An inter-communicator stand-in: classic's state of the world group with a
// remote group (self) and no context. Constructors that take an
// intra-communicator must reject it before using any context. (Real
// inter-communicators come from intercomm_create, tested in
// tests/classic/intercomm/.)
Comm fake_inter_communicator();

}  // namespace classic::testing

#endif  // ORTHOCOMM_TESTS_CLASSIC_TESTING_COMMUNICATORS_H_
