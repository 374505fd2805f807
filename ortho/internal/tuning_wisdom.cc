#include "ortho/internal/tuning_wisdom.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>
#include <span>
#include <utility>

#include "classic/collectives/collectives.h"
#include "ortho/internal/table.h"

namespace ortho::internal {
namespace {

// Each warning once per program: a corrupt file is read by every tuning.
void print_once(const std::string& warning) {
  static std::mutex mutex;
  static std::set<std::string> printed;
  const std::lock_guard lock(mutex);
  if (printed.insert(warning).second) {
    std::fprintf(stderr, "%s\n", warning.c_str());
  }
}

// This process's part of the structure's digest: its rank and
// neighbourhood, the communicator's size and the hosts.
std::uint64_t local_digest(const classic::Comm& comm, const Table& table) {
  std::vector<std::int64_t> values{comm.size(), comm.rank(),
                                   static_cast<std::int64_t>(table.structure),
                                   table.hosts()};
  values.push_back(static_cast<std::int64_t>(table.sources.size()));
  values.insert(values.end(), table.sources.begin(), table.sources.end());
  values.push_back(static_cast<std::int64_t>(table.destinations.size()));
  values.insert(values.end(), table.destinations.begin(),
                table.destinations.end());
  values.insert(values.end(), table.host_of_rank.begin(),
                table.host_of_rank.end());
  return digest_of(0x6f7274686f636f6dULL, values);
}

// The digest every process agrees on: the xor of the processes' parts
// (each names its rank, so no two cancel).
std::uint64_t agreed_digest(const classic::Comm& comm, const Table& table) {
  if (!table.tuning.digest) {
    const std::uint64_t mine[1] = {local_digest(comm, table)};
    std::uint64_t all[1] = {0};
    classic::allreduce(comm, mine, all, MPI_BXOR);
    table.tuning.digest = all[0];
  }
  return *table.tuning.digest;
}

// Process 0's answer: the winner's index among the candidates (-1: none)
// and the candidates' saved times.
std::vector<double> answer_of(const WisdomKey& key) {
  std::vector<double> answer(key.candidates.size() + 1, 0.0);
  answer[0] = -1;
  const Wisdom wisdom = read_wisdom(wisdom_path());
  for (const std::string& warning : wisdom.warnings) print_once(warning);
  const WisdomEntry* entry = find_wisdom(wisdom, key);
  if (entry == nullptr) return answer;
  const auto winner =
      std::find(key.candidates.begin(), key.candidates.end(), entry->winner);
  answer[0] = static_cast<double>(winner - key.candidates.begin());
  std::copy(entry->seconds.begin(), entry->seconds.end(), answer.begin() + 1);
  return answer;
}

}  // namespace

std::string wisdom_path() {
  const char* path = std::getenv("ORTHO_WISDOM");
  return path == nullptr ? std::string() : std::string(path);
}

WisdomLookup look_up_wisdom(const classic::Comm& comm, const Table& table,
                            Operation operation, classic::Mode mode, int band,
                            const std::vector<Algorithm>& candidates) {
  WisdomLookup lookup;
  lookup.key.digest = agreed_digest(comm, table);
  lookup.key.operation = operation;
  lookup.key.mode = mode;
  const int mine[1] = {band};
  int largest[1] = {0};
  classic::allreduce(comm, mine, largest, MPI_MAX);
  lookup.key.band = largest[0];
  for (const Algorithm& algorithm : candidates) {
    lookup.key.candidates.emplace_back(algorithm.name);
  }
  std::vector<double> answer(candidates.size() + 1);
  if (comm.rank() == 0) answer = answer_of(lookup.key);
  classic::bcast(comm, answer, 0);
  if (answer[0] < 0) return lookup;
  Tuned tuned;
  tuned.operation = operation;
  tuned.mode = mode;
  tuned.band = lookup.key.band;
  tuned.bands = band_bit(tuned.band);
  tuned.candidates = candidates;
  tuned.agreed_seconds.assign(answer.begin() + 1, answer.end());
  tuned.winner = candidates[static_cast<std::size_t>(answer[0])];
  tuned.from_wisdom = true;
  lookup.found = std::move(tuned);
  return lookup;
}

void save_wisdom(int rank, WisdomKey key, const Tuned& tuned) {
  if (rank != 0) return;
  key.band = tuned.band;
  const std::string warning =
      append_wisdom(wisdom_path(), {.key = std::move(key),
                                    .winner = std::string(tuned.winner.name),
                                    .seconds = tuned.agreed_seconds});
  if (!warning.empty()) print_once(warning);
}

}  // namespace ortho::internal
