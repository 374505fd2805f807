#include "ortho/internal/tuning.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <span>
#include <utility>

#include "classic/base/environment_flag.h"
#include "classic/collectives/alternation.h"
#include "classic/collectives/collectives.h"
#include "ortho/internal/choose.h"
#include "ortho/internal/table.h"
#include "ortho/internal/tuning_wisdom.h"

namespace ortho::internal {
namespace {

std::function<double(std::string_view, double)>& testing_clock() {
  static std::function<double(std::string_view, double)> clock;
  return clock;
}

double reported(const Algorithm& algorithm, double seconds) {
  const auto& clock = testing_clock();
  return clock ? clock(algorithm.name, seconds) : seconds;
}

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// Runs of a tuning: kRounds rounds in which each candidate has a turn of
// kRunsPerTurn consecutive runs (consecutive, so that a run mostly follows
// a run of the same candidate and meets the process skew that one leaves).
std::size_t tuning_runs(std::size_t candidates) {
  return candidates * kRunsPerTurn * kRounds;
}

// The candidate of the n-th run of a tuning.
std::size_t candidate_of(std::size_t n, std::size_t candidates) {
  return (n / kRunsPerTurn) % candidates;
}

// Whether the n-th run is timed: all but the first of each turn, which
// follows another candidate's run and meets the skew between processes
// that one left (the first turn's first run also makes the plans and
// transport resources).
bool timed(std::size_t n) { return n % kRunsPerTurn != 0; }

// A candidate's time from its timed runs, in order: per turn the mean of
// its runs, the median over the turns. The mean of consecutive calls is
// what a loop of them takes per call, the time one call leaves the next
// included; the median drops a disturbed turn.
double candidate_seconds(const std::vector<double>& runs) {
  std::vector<double> turns;
  for (std::size_t begin = 0; begin < runs.size(); begin += kRunsPerTurn - 1) {
    const std::size_t end = std::min(runs.size(), begin + kRunsPerTurn - 1);
    double sum = 0;
    for (std::size_t i = begin; i < end; ++i) sum += runs[i];
    turns.push_back(sum / static_cast<double>(end - begin));
  }
  return median(std::move(turns));
}

// The bands a set holds, as one value each (1: held) after the candidates'
// times in an agreement, whose maxima are then the union.
constexpr std::size_t kBandSlots = 64;

// What this process sends to the agreement: per candidate its time, then
// the bands it met.
std::vector<double> agreement_values(
    const std::vector<std::vector<double>>& seconds, std::uint64_t bands) {
  std::vector<double> values;
  values.reserve(seconds.size() + kBandSlots);
  for (const std::vector<double>& runs : seconds) {
    values.push_back(candidate_seconds(runs));
  }
  for (std::size_t band = 0; band < kBandSlots; ++band) {
    values.push_back(static_cast<double>((bands >> band) & 1U));
  }
  return values;
}

// A candidate displaces the model's choice only where it measured at most
// this fraction of the model's time: per-call times taken on a loaded or
// oversubscribed machine are noisy, and a loop of calls does not always
// rank candidates as their single calls do; the model's choice needs no
// measurement to be right where it is.
constexpr double kDisplacesModel = 0.9;

// The model's choice for blocks in `band` (its smallest size).
Algorithm model_choice(const Choice& choice, classic::Mode mode, int band) {
  const std::size_t bytes = band <= 0 ? 0 : std::size_t{1} << (band - 1);
  return choice.select(bytes, mode);
}

// The decision from the agreed maxima: the fastest, unless the model's
// choice for the largest band measured is within kDisplacesModel of it
// (ties: the earlier candidate).
Tuned decision(const Choice& choice, Operation operation, classic::Mode mode,
               const std::vector<Algorithm>& candidates,
               std::span<const double> maxima) {
  Tuned tuned;
  tuned.operation = operation;
  tuned.mode = mode;
  tuned.candidates = candidates;
  const auto times = static_cast<std::ptrdiff_t>(candidates.size());
  tuned.agreed_seconds.assign(maxima.begin(), maxima.begin() + times);
  for (std::size_t band = 0; band < kBandSlots; ++band) {
    if (maxima[candidates.size() + band] > 0)
      tuned.bands |= band_bit(static_cast<int>(band));
  }
  tuned.band = tuned.bands == 0 ? 0 : 63 - std::countl_zero(tuned.bands);
  const auto fastest =
      static_cast<std::size_t>(std::min_element(tuned.agreed_seconds.begin(),
                                                tuned.agreed_seconds.end()) -
                               tuned.agreed_seconds.begin());
  tuned.winner = candidates[fastest];
  const Algorithm model = model_choice(choice, mode, tuned.band);
  const auto at = std::find(candidates.begin(), candidates.end(), model);
  if (at != candidates.end() &&
      tuned.agreed_seconds[fastest] >
          kDisplacesModel * tuned.agreed_seconds[static_cast<std::size_t>(
                                at - candidates.begin())]) {
    tuned.winner = model;
  }
  return tuned;
}

// Whether every process's blocks in a call of `operation` in `mode` have
// one size (allgather, alltoall) or their largest is agreed on (the v and
// w forms, persistent): the exchanges whose choice goes by size.
bool banded(Operation operation, classic::Mode mode) {
  switch (operation) {
    case Operation::allgather:
    case Operation::alltoall:
    case Operation::allgatherv:
    case Operation::allgatherw:
    case Operation::alltoallv:
    case Operation::alltoallw:
      return chosen_by_size(operation, mode);
    default:
      return false;
  }
}

// The band of this process's blocks in `call` (0 where the choice does not
// go by size).
int band_of(const Call& call, const Table& table) {
  return banded(call.operation, call.mode) ? size_band(block_bytes(call, table))
                                           : 0;
}

// Ends a blocking operation's measuring: the next comparison of bands after
// kFirstBandCheck calls, and no call keeps the selection it had before.
void decide(const Table& table, BlockingTuning& tuning, Operation operation) {
  tuning.measuring = false;
  tuning.calls = 0;
  tuning.seconds.assign(tuning.candidates.size(), {});
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

// A blocking call while its operation is tuned: the next candidate's run,
// timed, and after the last run the agreement (collective over comm).
classic::Request run_measured(const classic::Comm& comm, const Table& table,
                              BlockingTuning& tuning, const Call& call) {
  if (tuning.candidates.empty()) {
    tuning.candidates = tuning_candidates(table, call.operation, call.mode);
    tuning.seconds.resize(tuning.candidates.size());
  }
  const std::size_t count = tuning.candidates.size();
  const std::size_t n = tuning.calls++;
  const std::size_t index = candidate_of(n, count);
  const Algorithm& algorithm = tuning.candidates[index];
  const auto started = std::chrono::steady_clock::now();
  classic::Request request = algorithm.run(comm, table, call);
  const std::chrono::duration<double> took =
      std::chrono::steady_clock::now() - started;
  if (timed(n)) {
    tuning.seconds[index].push_back(reported(algorithm, took.count()));
  }
  tuning.bands |= band_bit(band_of(call, table));
  if (tuning.calls == tuning_runs(count)) {
    const std::vector<double> mine =
        agreement_values(tuning.seconds, tuning.bands);
    std::vector<double> maxima(mine.size());
    classic::allreduce(comm, std::span<const double>(mine),
                       std::span<double>(maxima), MPI_MAX);
    tuning.decided.push_back(decision(table.choice(call.operation),
                                      call.operation, call.mode,
                                      tuning.candidates, maxima));
    if (tuning.wisdom_key) {
      save_wisdom(comm.rank(), *tuning.wisdom_key, tuning.decided.back());
    }
    decide(table, tuning, call.operation);
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
  last.key.assign(call, call.function());
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
  if (last.mode == call.mode && last.key.matches(call)) [[likely]] {
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

// A persistent request tuning over its first starts: the candidates' runs
// in turn, the agreement begun with the start after the last timed run
// (which runs the first candidate), the winner from the start after that.
class PersistentTuning final : public classic::Alternation {
 public:
  PersistentTuning(const Call& call, Choice choice,
                   std::vector<Algorithm> candidates, int band,
                   std::shared_ptr<std::vector<Tuned>> record,
                   std::optional<WisdomKey> wisdom_key, int rank)
      : operation_(call.operation),
        choice_(std::move(choice)),
        candidates_(std::move(candidates)),
        seconds_(candidates_.size()),
        band_(band),
        record_(std::move(record)),
        wisdom_key_(std::move(wisdom_key)),
        rank_(rank) {}

  std::size_t next() override {
    const std::size_t n = starts_++;
    const std::size_t runs = tuning_runs(candidates_.size());
    agree_ = n == runs;
    timed_ = n < runs && timed(n);
    if (winner_) return *winner_;
    return n < runs ? candidate_of(n, candidates_.size()) : 0;
  }
  std::vector<double> agree() override {
    return agree_ ? agreement_values(seconds_, band_bit(band_))
                  : std::vector<double>{};
  }
  void ran(std::size_t alternative, double seconds) override {
    if (timed_) {
      seconds_[alternative].push_back(
          reported(candidates_[alternative], seconds));
    }
  }
  void agreed(std::span<const double> maxima) override {
    Tuned tuned = decision(choice_, operation_, classic::Mode::persistent,
                           candidates_, maxima);
    winner_ = static_cast<std::size_t>(
        std::find(candidates_.begin(), candidates_.end(), tuned.winner) -
        candidates_.begin());
    if (wisdom_key_) save_wisdom(rank_, *wisdom_key_, tuned);
    record_->push_back(std::move(tuned));
  }
  std::size_t agreement_size() const override {
    return candidates_.size() + kBandSlots;
  }

 private:
  Operation operation_;
  Choice choice_;  // the model's, a copy: the request may outlive its table
  std::vector<Algorithm> candidates_;
  std::vector<std::vector<double>> seconds_;
  int band_;
  std::shared_ptr<std::vector<Tuned>> record_;
  std::optional<WisdomKey> wisdom_key_;
  int rank_;
  std::optional<std::size_t> winner_;
  std::size_t starts_ = 0;
  bool agree_ = false;
  bool timed_ = false;
};

std::optional<classic::Request> run_persistent(const classic::Comm& comm,
                                               const Table& table,
                                               const Call& call) {
  std::vector<Algorithm> candidates =
      tuning_candidates(table, call.operation, call.mode);
  if (candidates.size() < 2) return std::nullopt;
  const int band = band_of(call, table);
  std::optional<WisdomKey> wisdom_key;
  if (!wisdom_path().empty()) {
    WisdomLookup lookup = look_up_wisdom(comm, table, call.operation, call.mode,
                                         band, candidates);
    if (lookup.found) {
      Algorithm winner = lookup.found->winner;
      table.tuning.persistent->push_back(std::move(*lookup.found));
      return winner.run(comm, table, call);
    }
    wisdom_key = std::move(lookup.key);
  }
  std::vector<classic::Request> alternatives;
  alternatives.reserve(candidates.size());
  for (const Algorithm& algorithm : candidates) {
    alternatives.push_back(algorithm.run(comm, table, call));
  }
  return classic::alternation_init(
      comm, std::move(alternatives),
      std::make_shared<PersistentTuning>(
          call, table.choice(call.operation), std::move(candidates), band,
          table.tuning.persistent, std::move(wisdom_key), comm.rank()),
      call.function());
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

void set_tuning_clock_for_testing(
    std::function<double(std::string_view, double)> clock) {
  testing_clock() = std::move(clock);
}

}  // namespace ortho::internal
