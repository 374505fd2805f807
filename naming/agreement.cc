#include "naming/agreement.h"

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "classic/base/error.h"

namespace naming::internal {
namespace {

// min over processes of each value, and -max through min(-value): equal
// exactly when every process has the same value. int64 so that negating
// INT_MIN cannot overflow.
bool same_on_all(const classic::Comm& comm, std::span<const std::int64_t> mine,
                 const char* function) {
  const std::size_t n = mine.size();
  std::vector<std::int64_t> both(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    both[i] = mine[i];
    both[n + i] = -mine[i];
  }
  std::vector<std::int64_t> reduced(2 * n);
  // TODO(classic collectives): use classic's allreduce once it exists; for
  // now the transport's, over the communicator's own context.
  const int code =
      MPI_Allreduce(both.data(), reduced.data(), static_cast<int>(2 * n),
                    MPI_INT64_T, MPI_MIN, comm.transport());
  if (code != MPI_SUCCESS) {
    throw classic::Error(
        classic::ErrorClass::intern, function,
        "MPI_Allreduce failed with code " + std::to_string(code));
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (reduced[i] != -reduced[n + i]) return false;
  }
  return true;
}

}  // namespace

std::vector<int> describe(const Geometry* naming) {
  if (naming == nullptr) return {0};
  std::vector<int> description = {1, naming->ndims()};
  description.insert(description.end(), naming->dims().begin(),
                     naming->dims().end());
  for (const bool periodic : naming->periods()) {
    description.push_back(periodic ? 1 : 0);
  }
  description.insert(description.end(), naming->dimension_order().begin(),
                     naming->dimension_order().end());
  return description;
}

bool identical_everywhere(const classic::Comm& comm,
                          std::span<const int> values, const char* function) {
  if (comm.is_inter()) {
    throw classic::Error(classic::ErrorClass::comm, function,
                         "comm is an inter-communicator; this needs an "
                         "intra-communicator");
  }
  const std::int64_t length = static_cast<std::int64_t>(values.size());
  if (!same_on_all(comm, std::span(&length, 1), function)) return false;
  if (values.empty()) return true;
  const std::vector<std::int64_t> wide(values.begin(), values.end());
  return same_on_all(comm, wide, function);
}

}  // namespace naming::internal
