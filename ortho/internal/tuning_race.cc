#include "ortho/internal/tuning_race.h"

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <span>
#include <utility>

namespace ortho::internal {
namespace {

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

double mean(std::span<const double> values) {
  double sum = 0;
  for (const double value : values) sum += value;
  return values.empty() ? 0 : sum / static_cast<double>(values.size());
}

// The mean of a turn's timed runs without its first and last where it has
// three or more.
double trimmed_mean(const std::vector<double>& runs) {
  if (runs.size() < 3) return mean(runs);
  return mean(std::span<const double>(runs).subspan(1, runs.size() - 2));
}

}  // namespace

Race::Race(std::size_t candidates, TurnTime turn_time)
    : turn_time_(turn_time),
      racing_(candidates, true),
      in_round_(candidates, true),
      had_turn_(candidates, false),
      turns_(candidates),
      agreed_(candidates, 0.0),
      runs_of_(candidates, 0) {}

std::size_t Race::next_turn() const {
  for (std::size_t c = 0; c < candidates(); ++c) {
    if (in_round_[c] && !had_turn_[c]) return c;
  }
  return candidates();
}

void Race::begin_round() {
  ++round_;
  in_round_ = racing_;
  had_turn_.assign(candidates(), false);
  in_turn_ = 0;
}

std::size_t Race::next() {
  ++runs_;
  if (ends_round_) begin_round();
  ends_round_ = false;
  if (round_ >= kRounds) {  // awaiting the last agreement
    timed_ = false;
    const auto first = static_cast<std::size_t>(
        std::find(racing_.begin(), racing_.end(), true) - racing_.begin());
    ++runs_of_[first];
    return first;
  }
  if (in_turn_ == 0 || in_turn_ == turn_runs_) {
    turn_of_ = next_turn();
    had_turn_[turn_of_] = true;
    turns_[turn_of_].emplace_back();
    in_turn_ = 0;
    const std::size_t warm_up = runs_ == 1 ? kWarmUpRuns : 0;
    turn_runs_ = runs_per_turn(round_) + warm_up;
    untimed_ = 1 + warm_up;
  }
  timed_ = in_turn_ >= untimed_;
  ++in_turn_;
  ends_round_ = in_turn_ == turn_runs_ && next_turn() == candidates();
  ++runs_of_[turn_of_];
  return turn_of_;
}

void Race::record(double seconds) {
  if (timed_) turns_[turn_of_].back().push_back(seconds);
}

std::vector<double> Race::agreement_values(std::uint64_t bands) const {
  std::vector<double> values;
  values.reserve(agreement_size(candidates()));
  for (const std::vector<std::vector<double>>& turns : turns_) {
    // Every candidate's first turn is its screening turn; it counts until
    // a long turn was timed.
    const bool long_timed =
        turns.size() > 1 && std::any_of(std::next(turns.begin()), turns.end(),
                                        [](const std::vector<double>& runs) {
                                          return !runs.empty();
                                        });
    std::vector<double> of_turns;
    for (std::size_t turn = long_timed ? 1 : 0; turn < turns.size(); ++turn) {
      const std::vector<double>& runs = turns[turn];
      if (runs.empty()) continue;
      of_turns.push_back(turn_time_ == TurnTime::median ? median(runs)
                                                        : trimmed_mean(runs));
    }
    values.push_back(median(std::move(of_turns)));
  }
  for (std::size_t band = 0; band < kBandSlots; ++band) {
    values.push_back(static_cast<double>((bands >> band) & 1U));
  }
  values.push_back(-barrier_seconds_);
  return values;
}

bool Race::agreed(std::span<const double> maxima) {
  ++agreements_;
  double fastest = 0;
  bool any = false;
  for (std::size_t c = 0; c < candidates(); ++c) {
    if (!racing_[c]) continue;
    agreed_[c] = maxima[c];
    if (!any || maxima[c] < fastest) fastest = maxima[c];
    any = true;
  }
  agreed_bands_ = 0;
  for (std::size_t band = 0; band < kBandSlots; ++band) {
    if (maxima[candidates() + band] > 0) {
      agreed_bands_ |= std::uint64_t{1} << band;
    }
  }
  agreed_barrier_seconds_ = -maxima[candidates() + kBandSlots];
  std::size_t left = 0;
  for (std::size_t c = 0; c < candidates(); ++c) {
    if (racing_[c] && agreed_[c] > stays_within(agreements_) * fastest) {
      racing_[c] = false;
    }
    if (racing_[c]) ++left;
  }
  return agreements_ >= kRounds || left <= 1;
}

}  // namespace ortho::internal
