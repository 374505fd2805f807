// Small helpers that many classic tests share: the world's size and rank,
// the class of the classic::Error a call throws, and the world ranks of an
// Open MPI communicator's members (for differential tests).
#ifndef ORTHOCOMM_TESTS_CLASSIC_TESTING_TESTING_H_
#define ORTHOCOMM_TESTS_CLASSIC_TESTING_TESTING_H_

#include <mpi.h>

#include <cstddef>
#include <numeric>
#include <optional>
#include <vector>

#include "classic/base/environment.h"
#include "classic/base/error.h"

namespace classic::testing {

inline int world_size() { return Environment::world_size(); }
inline int world_rank() { return Environment::world_rank(); }

// The class of the classic::Error that `call` throws; nullopt if none.
template <class Call>
std::optional<ErrorClass> thrown_class(Call&& call) {
  try {
    call();
  } catch (const Error& error) {
    return error.error_class();
  }
  return std::nullopt;
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
