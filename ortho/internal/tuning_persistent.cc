#include "ortho/internal/tuning_persistent.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "classic/collectives/alternation.h"
#include "ortho/internal/table.h"
#include "ortho/internal/tuning.h"
#include "ortho/internal/tuning_measure.h"
#include "ortho/internal/tuning_race.h"
#include "ortho/internal/tuning_wisdom.h"

namespace ortho::internal {
namespace {

// A persistent request tuning over its first starts: the race's runs
// (internal/tuning_race.h), each agreement begun with the start after the
// run that ended a round; the winner from the start after the agreement
// that ends the race.
class PersistentTuning final : public classic::Alternation {
 public:
  PersistentTuning(const Call& call, Choice choice, Incumbency incumbency,
                   std::vector<Algorithm> candidates, int band,
                   std::shared_ptr<std::vector<Tuned>> record,
                   std::optional<WisdomKey> wisdom_key, int rank)
      : operation_(call.operation),
        choice_(std::move(choice)),
        incumbency_(std::move(incumbency)),
        candidates_(std::move(candidates)),
        race_(candidates_.size(), TurnTime::median),
        band_(band),
        record_(std::move(record)),
        wisdom_key_(std::move(wisdom_key)),
        rank_(rank) {}

  std::size_t next() override {
    agree_ = false;
    if (winner_) return *winner_;
    agree_ = race_.ends_round();
    return race_.next();
  }
  std::vector<double> agree() override {
    return agree_ ? race_.agreement_values(band_bit(band_))
                  : std::vector<double>{};
  }
  void ran(std::size_t alternative, double seconds) override {
    if (!winner_) race_.record(reported(candidates_[alternative], seconds));
  }
  void agreed(std::span<const double> maxima) override {
    if (!race_.agreed(maxima)) return;
    Tuned tuned = decision(choice_, incumbency_, operation_,
                           classic::Mode::persistent, candidates_, race_);
    winner_ = static_cast<std::size_t>(
        std::find(candidates_.begin(), candidates_.end(), tuned.winner) -
        candidates_.begin());
    if (wisdom_key_) save_wisdom(rank_, *wisdom_key_, tuned);
    record_->push_back(std::move(tuned));
  }
  std::size_t agreement_size() const override {
    return Race::agreement_size(candidates_.size());
  }
  std::optional<std::size_t> settled() const override { return winner_; }

 private:
  Operation operation_;
  Choice choice_;  // the model's, a copy: the request may outlive its table
  Incumbency incumbency_;
  std::vector<Algorithm> candidates_;
  Race race_;
  int band_;
  std::shared_ptr<std::vector<Tuned>> record_;
  std::optional<WisdomKey> wisdom_key_;
  int rank_;
  std::optional<std::size_t> winner_;
  bool agree_ = false;
};

}  // namespace

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
  Incumbency incumbency = incumbency_of(table, call.operation, candidates);
  std::vector<classic::Request> alternatives;
  alternatives.reserve(candidates.size());
  for (const Algorithm& algorithm : candidates) {
    alternatives.push_back(algorithm.run(comm, table, call));
  }
  return classic::alternation_init(
      comm, std::move(alternatives),
      std::make_shared<PersistentTuning>(
          call, table.choice(call.operation), std::move(incumbency),
          std::move(candidates), band, table.tuning.persistent,
          std::move(wisdom_key), comm.rank()),
      call.function());
}

}  // namespace ortho::internal
