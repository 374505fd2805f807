// Small helpers that many classic tests share: the world's size and rank,
// the error checks of tests/testing/errors.h, and the world ranks of an Open
// MPI communicator's members (for differential tests).
#ifndef ORTHOCOMM_TESTS_CLASSIC_TESTING_TESTING_H_
#define ORTHOCOMM_TESTS_CLASSIC_TESTING_TESTING_H_

#include <mpi.h>

#include <cstddef>
#include <numeric>
#include <vector>

#include "classic/base/environment.h"
#include "classic/base/error.h"
#include "tests/testing/errors.h"

namespace classic::testing {

inline int world_size() { return Environment::world_size(); }
inline int world_rank() { return Environment::world_rank(); }

using orthocomm_test::expect_error;
using orthocomm_test::expect_error_class;
using orthocomm_test::expect_error_from;
using orthocomm_test::thrown_by;
using orthocomm_test::thrown_class;
using orthocomm_test::thrown_text;

// The world ranks of an Open MPI communicator's members, in its rank order.
inline std::vector<int> mpi_world_ranks(MPI_Comm comm) {
  MPI_Group group = MPI_GROUP_NULL;
  MPI_Group world = MPI_GROUP_NULL;
  MPI_Comm_group(comm, &group);
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int size = 0;
  MPI_Group_size(group, &size);
  std::vector<int> ranks(static_cast<std::size_t>(size));
  std::iota(ranks.begin(), ranks.end(), 0);
  std::vector<int> translated(ranks.size());
  MPI_Group_translate_ranks(group, size, ranks.data(), world,
                            translated.data());
  MPI_Group_free(&group);
  MPI_Group_free(&world);
  return translated;
}

}  // namespace classic::testing

#endif  // ORTHOCOMM_TESTS_CLASSIC_TESTING_TESTING_H_
