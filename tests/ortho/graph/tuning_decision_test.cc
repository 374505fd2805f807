// The decision of a tuning race that is over (ortho/internal/
// tuning_measure.h), MPI-free: the fastest candidate still racing, unless
// the incumbent measured within kDisplacesBaseline of it: on one host the
// model's choice where it is no baseline; otherwise the fastest baseline
// still racing, or where none is, the model's choice. Checked on chosen
// cases and against that rule told directly on random races (times,
// baselines, hosts, the model's choice).
#include <gtest/gtest.h>

#include <cstddef>
#include <random>
#include <string>
#include <vector>

#include "classic/exec/mode.h"
#include "ortho/internal/choice.h"
#include "ortho/internal/tuning.h"
#include "ortho/internal/tuning_measure.h"
#include "ortho/internal/tuning_race.h"
#include "ortho/operation.h"

namespace {

using ortho::Algorithm;
using ortho::Choice;
using ortho::Operation;
using ortho::internal::decision;
using ortho::internal::Incumbency;
using ortho::internal::kDisplacesBaseline;
using ortho::internal::Race;
using ortho::internal::Tuned;

const std::vector<std::string> kNames = {"relay", "direct", "combining", "mpi"};

std::vector<Algorithm> candidates(std::size_t count) {
  std::vector<Algorithm> result;
  for (std::size_t c = 0; c < count; ++c) result.push_back({kNames[c]});
  return result;
}

// A race over `times.size()` candidates whose every agreement gives
// `times` (s): those beyond kStaysScreening of the fastest leave after the
// screening round, those beyond kStaysInRace after the first round of long
// turns, the rest race to the end.
Race finished_race(const std::vector<double>& times) {
  Race race(times.size());
  std::vector<double> maxima = times;
  maxima.resize(Race::agreement_size(times.size()), 0.0);
  for (;;) {
    do {
      race.next();
      race.record(1e-3);
    } while (!race.ends_round());
    if (race.agreed(maxima)) return race;
  }
}

// The winner of a race over `times` with the model's choice `model`, on
// several hosts unless `one_host`.
std::string winner(const std::vector<double>& times,
                   const std::vector<bool>& baselines, std::size_t model,
                   bool one_host = false) {
  const std::vector<Algorithm> racing = candidates(times.size());
  const Choice choice = Choice::only(racing[model]);
  const Tuned tuned =
      decision(choice, Incumbency{baselines, !one_host}, Operation::alltoallv,
               classic::Mode::blocking, racing, finished_race(times));
  return std::string(tuned.winner.name);
}

TEST(TuningDecision,
     ARelayALittleFasterThanTheBaselineLosesToItThoughModelled) {
  EXPECT_EQ(winner({0.97, 1.0, 2.0}, {false, true, false}, 0), "direct");
}

TEST(TuningDecision, ARelayFasterByTheMarginDisplacesTheBaseline) {
  EXPECT_EQ(winner({0.9, 1.0, 2.0}, {false, true, false}, 1), "relay");
  // At exactly the margin ("at most this fraction") the relay displaces.
  EXPECT_EQ(winner({kDisplacesBaseline, 1.0}, {false, true}, 1), "relay");
  EXPECT_EQ(winner({0.96, 1.0}, {false, true}, 1), "direct");
}

TEST(TuningDecision, TheFasterOfTwoBaselinesIsTheIncumbent) {
  // mpi the faster baseline: relay within the margin of it keeps mpi;
  // direct, slower, would have lost to relay.
  EXPECT_EQ(winner({0.97, 1.1, 2.0, 1.0}, {false, true, false, true}, 0),
            "mpi");
}

TEST(TuningDecision, WithoutABaselineTheModelsChoiceIsTheIncumbent) {
  EXPECT_EQ(winner({1.0, 1.02, 1.03}, {false, false, false}, 2), "combining");
  EXPECT_EQ(winner({1.0, 1.02, 1.03}, {false, false, false}, 1), "direct");
  EXPECT_EQ(winner({0.9, 1.0, 1.1}, {false, false, false}, 2), "relay");
}

TEST(TuningDecision, ABaselineThatLeftTheRaceIsNoIncumbent) {
  // direct beyond kStaysInRace leaves after the first long round; the model's
  // choice (combining) is then the incumbent.
  EXPECT_EQ(winner({1.0, 1.3, 1.02}, {false, true, false}, 2), "combining");
}

TEST(TuningDecision, OnOneHostTheModelsChoiceLeadsWhereItIsNoBaseline) {
  EXPECT_EQ(winner({1.0, 0.97, 2.0}, {false, true, false}, 0, true), "relay");
  EXPECT_EQ(winner({1.0, 0.94, 2.0}, {false, true, false}, 0, true), "direct");
  // The model's choice a baseline: the faster baseline leads, no margin
  // between the two.
  EXPECT_EQ(winner({2.0, 1.0, 2.0, 0.98}, {false, true, false, true}, 1, true),
            "mpi");
}

TEST(TuningDecision, AgreesWithTheRuleToldDirectlyOnRandomRaces) {
  std::mt19937_64 random(0xdec1de);
  for (int trial = 0; trial < 2000; ++trial) {
    const std::size_t count = 2 + random() % 3;
    std::vector<double> times(count);
    std::vector<bool> baselines(count);
    for (std::size_t c = 0; c < count; ++c) {
      times[c] = 1.0 + static_cast<double>(random() % 400) / 1000.0;
      baselines[c] = random() % 3 == 0;
    }
    const std::size_t model = random() % count;
    const bool one_host = random() % 2 == 0;
    std::size_t fastest = 0;
    for (std::size_t c = 1; c < count; ++c) {
      if (times[c] < times[fastest]) fastest = c;
    }
    const auto racing = [&](std::size_t c) {
      return times[c] <= ortho::internal::kStaysInRace * times[fastest];
    };
    std::size_t incumbent = count;
    if (one_host && racing(model) && !baselines[model]) {
      incumbent = model;
    } else {
      for (std::size_t c = 0; c < count; ++c) {
        if (baselines[c] && racing(c) &&
            (incumbent == count || times[c] < times[incumbent])) {
          incumbent = c;
        }
      }
      if (incumbent == count && racing(model)) incumbent = model;
    }
    const std::size_t expected =
        incumbent < count &&
                times[fastest] > kDisplacesBaseline * times[incumbent]
            ? incumbent
            : fastest;
    ASSERT_EQ(winner(times, baselines, model, one_host), kNames[expected])
        << "trial " << trial;
  }
}

}  // namespace
