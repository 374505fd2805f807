#include "classic/comm/locality.h"

#include <mpi.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "classic/base/internal/transport_error.h"
#include "classic/comm/internal/comm_state.h"

namespace classic {
namespace {

constexpr const char* kFunction = "classic::locality";

// The lowest rank of comm on each rank's host.
std::vector<int> lowest_rank_on_host(MPI_Comm context, int rank, int size) {
  MPI_Comm shared = MPI_COMM_NULL;
  transport::check_code(MPI_Comm_split_type(context, MPI_COMM_TYPE_SHARED, rank,
                                            MPI_INFO_NULL, &shared),
                        kFunction);
  int lowest = rank;
  const int code = MPI_Allreduce(&rank, &lowest, 1, MPI_INT, MPI_MIN, shared);
  MPI_Comm_free(&shared);
  transport::check_code(code, kFunction);
  std::vector<int> lowest_of(static_cast<std::size_t>(size));
  transport::check_code(
      MPI_Allgather(&lowest, 1, MPI_INT, lowest_of.data(), 1, MPI_INT, context),
      kFunction);
  return lowest_of;
}

std::shared_ptr<const Locality> find_locality(MPI_Comm context, int rank,
                                              int size) {
  const std::vector<int> lowest_of = lowest_rank_on_host(context, rank, size);
  std::vector<int> leaders = lowest_of;
  std::sort(leaders.begin(), leaders.end());
  leaders.erase(std::unique(leaders.begin(), leaders.end()), leaders.end());
  auto result = std::make_shared<Locality>();
  result->processes_on_host.assign(leaders.size(), 0);
  for (const int lowest : lowest_of) {
    const auto host = static_cast<int>(
        std::lower_bound(leaders.begin(), leaders.end(), lowest) -
        leaders.begin());
    result->host_of_rank.push_back(host);
    ++result->processes_on_host[static_cast<std::size_t>(host)];
  }
  return result;
}

}  // namespace

bool Locality::balanced() const {
  return std::adjacent_find(processes_on_host.begin(), processes_on_host.end(),
                            std::not_equal_to<>()) == processes_on_host.end();
}

const Locality& locality(const Comm& comm) {
  Comm::State& state = internal::CommAccess::intra_state(comm, kFunction);
  if (state.locality == nullptr) {
    state.locality =
        find_locality(state.transport, state.rank, state.local.size());
  }
  return *state.locality;
}

}  // namespace classic
