#include "classic/comm/locality.h"

#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include "classic/base/internal/transport_error.h"
#include "classic/comm/internal/comm_state.h"

namespace classic {
namespace {

constexpr const char* kFunction = "classic::locality";

// The first `limit` bytes of the file at `path`, up to its first line end;
// "" where it cannot be read.
std::string first_line(const char* path, std::size_t limit) {
  std::ifstream file(path);
  std::string line;
  std::getline(file, line);
  return line.substr(0, limit);
}

// What names this process's host, computed alike by every process on it:
// the processor name, the kernel's boot id (two machines that share a
// name differ there) and the network namespace (hosts simulated on one
// kernel differ there; tools/hosts.sh). On systems without /proc the name
// alone.
std::string host_identity() {
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  transport::check_code(MPI_Get_processor_name(name, &length), kFunction);
  std::string identity(name, static_cast<std::size_t>(length));
  identity += '\n' + first_line("/proc/sys/kernel/random/boot_id", 64);
  std::error_code ignored;
  identity +=
      '\n' +
      std::filesystem::read_symlink("/proc/self/ns/net", ignored).string();
  return identity;
}

// Two independent 64-bit FNV-1a digests of `text` (different offset
// bases): 128 bits, so that distinct hosts collide with negligible
// probability even among millions.
std::array<std::uint64_t, 2> digest(const std::string& text) {
  constexpr std::uint64_t kPrime = 0x100000001b3ULL;
  std::array<std::uint64_t, 2> hash = {0xcbf29ce484222325ULL,
                                       0x84222325cbf29ce4ULL};
  for (const unsigned char byte : text) {
    for (std::uint64_t& h : hash) h = (h ^ byte) * kPrime;
  }
  return hash;
}

// The lowest rank of comm on each rank's host, from one allgather of each
// process's host digest. Every process computes it from the same gathered
// digests, so all agree; asking the transport (MPI_Comm_split_type with
// MPI_COMM_TYPE_SHARED) takes a split and a collective on its result, and
// under simulated hosts its processes can disagree about who shares a
// host, which leaves some waiting for ever.
std::vector<int> lowest_rank_on_host(MPI_Comm context, int size) {
  const std::array<std::uint64_t, 2> mine = digest(host_identity());
  std::vector<std::array<std::uint64_t, 2>> all(static_cast<std::size_t>(size));
  transport::check_code(MPI_Allgather(mine.data(), 2, MPI_UINT64_T, all.data(),
                                      2, MPI_UINT64_T, context),
                        kFunction);
  std::map<std::array<std::uint64_t, 2>, int> lowest_of_digest;
  std::vector<int> lowest_of(static_cast<std::size_t>(size));
  for (int rank = 0; rank < size; ++rank) {
    lowest_of[static_cast<std::size_t>(rank)] =
        lowest_of_digest.try_emplace(all[static_cast<std::size_t>(rank)], rank)
            .first->second;
  }
  return lowest_of;
}

std::shared_ptr<const Locality> find_locality(MPI_Comm context, int size) {
  const std::vector<int> lowest_of = lowest_rank_on_host(context, size);
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
    state.locality = find_locality(state.transport, state.local.size());
  }
  return *state.locality;
}

}  // namespace classic
