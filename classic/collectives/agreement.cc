#include "classic/collectives/agreement.h"

#include <cstdint>
#include <vector>

#include "classic/base/internal/agreement.h"
#include "classic/comm/internal/comm_state.h"

namespace classic {
namespace {

MPI_Comm intra_context(const Comm& comm, const char* function) {
  return internal::CommAccess::intra_state(comm, function).transport;
}

}  // namespace

bool all_true(const Comm& comm, bool mine) {
  constexpr const char* kFunction = "classic::all_true";
  return internal::all_true(intra_context(comm, kFunction), mine, kFunction);
}

std::optional<int> lowest_failing_rank(const Comm& comm, bool failed) {
  constexpr const char* kFunction = "classic::lowest_failing_rank";
  MPI_Comm context = intra_context(comm, kFunction);
  internal::Agreement agreement;
  const auto question = agreement.ask_lowest_rank_where(failed, comm.rank());
  agreement.run(context, kFunction);
  return agreement.lowest_rank_where(question);
}

bool identical_everywhere(const Comm& comm, std::span<const int> values) {
  constexpr const char* kFunction = "classic::identical_everywhere";
  MPI_Comm context = intra_context(comm, kFunction);
  const std::vector<std::int64_t> wide(values.begin(), values.end());
  return internal::identical_everywhere(context, wide, kFunction);
}

}  // namespace classic
