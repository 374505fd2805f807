#include "ortho/internal/tuning.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <span>
#include <utility>

#include "classic/base/environment_flag.h"
#include "classic/collectives/collectives.h"
#include "ortho/internal/choose.h"
#include "ortho/internal/table.h"
#include "ortho/internal/tuning_measure.h"
#include "ortho/internal/tuning_persistent.h"
#include "ortho/internal/tuning_wisdom.h"

namespace ortho::internal {
namespace {

// Ends a blocking operation's measuring: the next comparison of bands after
// kFirstBandCheck calls, and no call keeps the selection it had before.
void decide(const Table& table, BlockingTuning& tuning, Operation operation) {
  tuning.measuring = false;
  tuning.race.reset();
  tuning.bands = 0;
  tuning.bands_since_check = 0;
  tuning.calls_since_check = 0;
  tuning.check_interval = kFirstBandCheck;
  table.last_selections[static_cast<std::size_t>(operation)] = LastSelection{};
}

// After a decision, every check_interval calls: the processes compare the
// bands they met (one allreduce, collective over comm, at the same call
// everywhere: it goes by the count of calls alone); where one met a band
// that no decision covers, the operation measures again from the next
// call.
void compare_bands(const classic::Comm& comm, BlockingTuning& tuning) {
  const std::uint64_t mine[1] = {tuning.bands_since_check};
  std::uint64_t met[1] = {0};
  classic::allreduce(comm, mine, met, MPI_BOR);
  tuning.bands_since_check = 0;
  tuning.calls_since_check = 0;
  tuning.check_interval = std::min(2 * tuning.check_interval, kLastBandCheck);
  std::uint64_t covered = 0;
  for (const Tuned& tuned : tuning.decided) covered |= tuned.bands;
  if ((met[0] & ~covered) != 0) tuning.measuring = true;
}

// A blocking call while its operation is tuned: the next run of the race,
// timed, followed by a barrier where it begins a turn
// (internal/tuning_race.h), and after a round the agreement (collective
// over comm).
classic::Request run_measured(const classic::Comm& comm, const Table& table,
                              BlockingTuning& tuning, const Call& call) {
  if (tuning.candidates.empty()) {
    tuning.candidates = tuning_candidates(table, call.operation, call.mode);
  }
  if (!tuning.race) tuning.race.emplace(tuning.candidates.size());
  Race& race = *tuning.race;
  const Algorithm& algorithm = tuning.candidates[race.next()];
  const auto started = std::chrono::steady_clock::now();
  classic::Request request = algorithm.run(comm, table, call);
  const std::chrono::duration<double> took =
      std::chrono::steady_clock::now() - started;
  race.record(reported(algorithm, took.count()));
  if (race.starts_turn()) {
    // After the turn's first run (untimed; it checked the call's
    // arguments before any message), so that the timed runs start with
    // the processes together.
    const auto waited = std::chrono::steady_clock::now();
    classic::barrier(comm);
    const std::chrono::duration<double> barrier =
        std::chrono::steady_clock::now() - waited;
    race.record_barrier(reported_barrier(barrier.count()));
  }
  tuning.bands |= band_bit(band_of(call, table));
  if (race.ends_round()) {
    const std::vector<double> mine = race.agreement_values(tuning.bands);
    std::vector<double> maxima(mine.size());
    classic::allreduce(comm, std::span<const double>(mine),
                       std::span<double>(maxima), MPI_MAX);
    if (race.agreed(maxima)) {
      tuning.decided.push_back(
          decision(table.choice(call.operation),
                   incumbency_of(table, call.operation, tuning.candidates),
                   call.operation, call.mode, tuning.candidates, race));
      if (tuning.wisdom_key) {
        save_wisdom(comm.rank(), *tuning.wisdom_key, tuning.decided.back());
      }
      decide(table, tuning, call.operation);
    }
  }
  return request;
}

// The latest decision among `decided` that covers `band`, or null.
const Tuned* decision_for(const std::vector<Tuned>& decided, int band) {
  for (auto tuned = decided.rbegin(); tuned != decided.rend(); ++tuned) {
    if ((tuned->bands & band_bit(band)) != 0) return &*tuned;
  }
  return nullptr;
}

// A blocking call once its operation is tuned: the winner of the decision
// that covers its band, the model's choice (nullopt) elsewhere.
std::optional<classic::Request> run_decided(const classic::Comm& comm,
                                            const Table& table,
                                            const std::vector<Tuned>& decided,
                                            int band, const Call& call) {
  const Tuned* tuned = decision_for(decided, band);
  if (tuned == nullptr) return std::nullopt;
  LastSelection& last =
      table.last_selections[static_cast<std::size_t>(call.operation)];
  last.algorithm = tuned->winner;
  last.mode = call.mode;
  last.shape = shape_of(table, call);
  return tuned->winner.run(comm, table, call);
}

// A blocking call once its operation has decided: the last call's
// selection where the call is like it, otherwise the decision covering its
// band (whose band then counts at the next comparison), or the model's.
std::optional<classic::Request> run_after_decision(const classic::Comm& comm,
                                                   const Table& table,
                                                   BlockingTuning& tuning,
                                                   const Call& call) {
  LastSelection& last =
      table.last_selections[static_cast<std::size_t>(call.operation)];
  if (last.mode == call.mode && same_shape(last.shape, shape_of(table, call)))
      [[likely]] {
    return last.algorithm.run(comm, table, call);
  }
  const int band = band_of(call, table);
  tuning.bands_since_check |= band_bit(band);
  return run_decided(comm, table, tuning.decided, band, call);
}

// At a blocking operation's first call, where ORTHO_WISDOM is set: whether
// the file held its decision (then decided), otherwise the key to save
// under. Collective over comm where ORTHO_WISDOM is set.
bool decided_by_wisdom(const classic::Comm& comm, const Table& table,
                       BlockingTuning& tuning, const Call& call) {
  tuning.consulted_wisdom = true;
  if (wisdom_path().empty()) return false;
  WisdomLookup lookup = look_up_wisdom(
      comm, table, call.operation, call.mode, band_of(call, table),
      tuning_candidates(table, call.operation, call.mode));
  if (!lookup.found) {
    tuning.wisdom_key = std::move(lookup.key);
    return false;
  }
  tuning.decided.push_back(std::move(*lookup.found));
  decide(table, tuning, call.operation);
  return true;
}

}  // namespace

bool tuning_enabled() {
  // On unless ORTHO_TUNE says otherwise.
  static const bool enabled =
      std::getenv("ORTHO_TUNE") == nullptr ||
      classic::environment_flag("ORTHO_TUNE", "ortho (ORTHO_TUNE)");
  return enabled;
}

int size_band(std::size_t bytes) {
  return static_cast<int>(std::bit_width(bytes));
}

std::uint64_t band_bit(int band) {
  return std::uint64_t{1} << std::min(band, 63);
}

std::vector<Algorithm> tuning_candidates(const Table& table,
                                         Operation operation,
                                         classic::Mode mode) {
  const auto op = static_cast<std::size_t>(operation);
  std::vector<Algorithm> result;
  const auto add = [&result](const Algorithm& algorithm) {
    if (result.size() < kMostCandidates &&
        std::find(result.begin(), result.end(), algorithm) == result.end()) {
      result.push_back(algorithm);
    }
  };
  for (const Choice::Step& step : table.default_choices[op].in(mode)) {
    add(step.algorithm);
  }
  for (const Candidate& candidate : table.candidates[op]) {
    if (candidate.measured) add(candidate.algorithm);
  }
  // Then those the model ranks behind at every size: it may be wrong.
  for (const Candidate& candidate : table.candidates[op]) {
    add(candidate.algorithm);
  }
  return result;
}

void allow_tuning(Table& table) {
  if (table.tuning.persistent == nullptr) {
    table.tuning.persistent = std::make_shared<std::vector<Tuned>>();
  }
  for (std::size_t op = 0; op < kOperationCount; ++op) {
    const auto operation = static_cast<Operation>(op);
    table.tuning.allowed[op] =
        tuning_enabled() && table.structure != Structure::bipartite &&
        table.choices[op].defined() && !table.forced[op] &&
        (tuning_candidates(table, operation, classic::Mode::blocking).size() >
             1 ||
         tuning_candidates(table, operation, classic::Mode::persistent).size() >
             1);
  }
}

const Tuned* tuned_for(const Table& table, Operation operation,
                       classic::Mode mode, std::size_t bytes) {
  if (!table.tuning.allowed[static_cast<std::size_t>(operation)]) {
    return nullptr;
  }
  const int band = size_band(banded(operation, mode) ? bytes : 0);
  if (mode == classic::Mode::blocking) {
    return decision_for(
        table.tuning.blocking[static_cast<std::size_t>(operation)].decided,
        band);
  }
  if (mode != classic::Mode::persistent || !table.tuning.persistent) {
    return nullptr;
  }
  const std::vector<Tuned>& record = *table.tuning.persistent;
  for (auto tuned = record.rbegin(); tuned != record.rend(); ++tuned) {
    if (tuned->operation == operation && (tuned->bands & band_bit(band)) != 0) {
      return &*tuned;
    }
  }
  return nullptr;
}

std::optional<classic::Request> run_tuned(const classic::Comm& comm,
                                          const Table& table,
                                          const Call& call) {
  if (call.mode == classic::Mode::persistent) {
    return run_persistent(comm, table, call);
  }
  BlockingTuning& tuning =
      table.tuning.blocking[static_cast<std::size_t>(call.operation)];
  if (!tuning.measuring) {
    if (++tuning.calls_since_check >= tuning.check_interval) {
      compare_bands(comm, tuning);
    }
  }
  if (!tuning.measuring) return run_after_decision(comm, table, tuning, call);
  if (tuning.candidates.empty() &&
      tuning_candidates(table, call.operation, call.mode).size() < 2) {
    return std::nullopt;
  }
  if (!tuning.consulted_wisdom &&
      decided_by_wisdom(comm, table, tuning, call)) {
    return run_after_decision(comm, table, tuning, call);
  }
  return run_measured(comm, table, tuning, call);
}

}  // namespace ortho::internal
