// main() of every MPI test binary: start the transport, run the tests on all
// processes under a hang watchdog, combine their results, print from rank 0,
// agree on the exit code.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>

#include "classic/base/environment.h"
#include "tests/harness/hang_watchdog.h"
#include "tests/harness/mpi_result_printer.h"

int main(int argc, char** argv) {
  classic::Environment environment(argc, argv);
  const int rank = classic::Environment::world_rank();

  // Bazel's per-test files are rank 0's alone; other ranks writing them would
  // race (XML report) or complain (premature-exit marker).
  if (rank != 0) {
    unsetenv("XML_OUTPUT_FILE");
    unsetenv("TEST_PREMATURE_EXIT_FILE");
    unsetenv("GTEST_OUTPUT");
  }
  testing::InitGoogleTest(&argc, argv);

  MPI_Comm harness_comm = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &harness_comm);
  testing::TestEventListeners& listeners =
      testing::UnitTest::GetInstance()->listeners();
  delete listeners.Release(listeners.default_result_printer());
  // Before the printer: a hang while results are combined is reported too.
  listeners.Append(new orthocomm_test::HangWatchdog(
      rank, classic::Environment::world_size()));
  auto* printer = new orthocomm_test::MpiResultPrinter(harness_comm);
  listeners.Append(printer);  // GoogleTest owns it from here on.

  const int local_failed = RUN_ALL_TESTS() != 0 ? 1 : 0;
  int any_failed = 0;
  MPI_Allreduce(&local_failed, &any_failed, 1, MPI_INT, MPI_MAX, harness_comm);
  MPI_Comm_free(&harness_comm);
  return any_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
