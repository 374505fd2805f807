// ORTHO_MACHINE naming a file that does not exist (set by the BUILD
// target): every process raises classic::Error (arg) naming ORTHO_MACHINE
// and the file where the prices are first needed (a stencil's detection
// when the communicator is made), rather than hanging or choosing with the
// built-in prices silently.
#include <gtest/gtest.h>

#include "classic/base/error.h"
#include "tests/ortho/testing/moore_torus.h"
#include "tests/testing/errors.h"

namespace {

TEST(MachineEnvError, EveryProcessRaisesNamingTheFile) {
  orthocomm_test::expect_error(
      [] { ortho_testing::moore_torus(); }, classic::ErrorClass::arg,
      {"ORTHO_MACHINE", "/nonexistent/none.machine: cannot be read"});
}

}  // namespace
