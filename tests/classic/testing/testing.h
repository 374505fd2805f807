// Small helpers that many classic tests share: the world's size and rank,
// the error checks of tests/testing/errors.h, rank lists, spans over whole
// vectors, and, for differential tests, the world ranks of an Open MPI
// communicator's members and Open MPI's comparison results in classic's terms.
#ifndef ORTHOCOMM_TESTS_CLASSIC_TESTING_TESTING_H_
#define ORTHOCOMM_TESTS_CLASSIC_TESTING_TESTING_H_

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <span>
#include <vector>

#include "classic/base/environment.h"
#include "classic/base/error.h"
#include "classic/groups/group.h"
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

// {start, start + 1, ..., start + n - 1}.
inline std::vector<int> iota_vector(int n, int start = 0) {
  std::vector<int> values(static_cast<std::size_t>(n));
  std::iota(values.begin(), values.end(), start);
  return values;
}

// `values` in reverse order.
inline std::vector<int> reversed(std::vector<int> values) {
  std::reverse(values.begin(), values.end());
  return values;
}

// Spans over a whole vector: what a call reads (in) and what it writes (out).
template <typename T>
std::span<const T> in(const std::vector<T>& v) {
  return std::span<const T>(v);
}
template <typename T>
std::span<T> out(std::vector<T>& v) {
  return std::span<T>(v);
}

// Open MPI's MPI_Comm_compare / MPI_Group_compare result as classic's.
inline Comparison from_mpi_comparison(int result) {
  switch (result) {
    case MPI_IDENT:
      return Comparison::identical;
    case MPI_CONGRUENT:
      return Comparison::congruent;
    case MPI_SIMILAR:
      return Comparison::similar;
    default:
      return Comparison::unequal;
  }
}

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
