// The tuning's race (ortho/internal/tuning_race.h), MPI-free: its schedule
// and drops against a direct account of the rules (every racing candidate
// one turn a round, in order, its first run not timed, short turns in the
// screening round and long ones after it, the race's first turn with
// more untimed runs; after an agreement the slow
// leave, the bound wider after the screening's; over after the last round
// or with one left), on random
// times, agreed at once (blocking calls) or one run late (persistent
// requests); which runs begin a turn (a blocking turn's barrier); what a
// process contributes to the agreement (a blocking turn's trimmed mean, a
// persistent turn's median) and what it agrees.
#include "ortho/internal/tuning_race.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace {

using ortho::internal::kBandSlots;
using ortho::internal::kRounds;
using ortho::internal::kRunsPerTurn;
using ortho::internal::kScreeningRunsPerTurn;
using ortho::internal::kStaysInRace;
using ortho::internal::kStaysScreening;
using ortho::internal::kWarmUpRuns;
using ortho::internal::Race;
using ortho::internal::runs_per_turn;
using ortho::internal::stays_within;
using ortho::internal::TurnTime;

// The runs of candidate c's turn in `round`, and how many of them are
// not timed: the race's first turn (candidate 0's in round 0) begins with
// kWarmUpRuns more.
std::size_t turn_runs(std::size_t round, std::size_t c) {
  return runs_per_turn(round) + (round == 0 && c == 0 ? kWarmUpRuns : 0);
}
std::size_t untimed_runs(std::size_t round, std::size_t c) {
  return 1 + (round == 0 && c == 0 ? kWarmUpRuns : 0);
}

// The maxima an agreement delivers when every process reported `times`,
// `bands` and `barriers` (s in the turns' barriers, reported negated).
std::vector<double> agreed_as(const std::vector<double>& times,
                              std::uint64_t bands, double barriers = 0) {
  std::vector<double> maxima = times;
  for (std::size_t band = 0; band < kBandSlots; ++band) {
    maxima.push_back(static_cast<double>((bands >> band) & 1U));
  }
  maxima.push_back(-barriers);
  return maxima;
}

TEST(TuningRace, EveryCandidateATurnEachRoundWhereNoneIsSlow) {
  Race race(3);
  for (std::size_t round = 0; round < kRounds; ++round) {
    for (std::size_t candidate = 0; candidate < 3; ++candidate) {
      const std::size_t turn = turn_runs(round, candidate);
      for (std::size_t run = 0; run < turn; ++run) {
        ASSERT_EQ(race.next(), candidate) << round << " " << run;
        EXPECT_EQ(race.timed(), run >= untimed_runs(round, candidate));
        EXPECT_EQ(race.starts_turn(),
                  run + 1 == untimed_runs(round, candidate));
        EXPECT_EQ(race.ends_round(), candidate == 2 && run == turn - 1);
        race.record(1e-3);
      }
    }
    EXPECT_EQ(race.agreed(agreed_as({1e-3, 1.1e-3, 1.2e-3}, 0)),
              round + 1 == kRounds);
  }
  EXPECT_EQ(kScreeningRunsPerTurn, 4U);
  EXPECT_EQ(race.runs(), Race::most_runs(3));
  std::vector<std::size_t> runs_of(
      3, kScreeningRunsPerTurn + (kRounds - 1) * kRunsPerTurn);
  runs_of[0] += kWarmUpRuns;
  EXPECT_EQ(race.runs_of(), runs_of);
  for (std::size_t c = 0; c < 3; ++c) EXPECT_TRUE(race.racing(c));
  EXPECT_EQ(race.agreed_seconds(), (std::vector<double>{1e-3, 1.1e-3, 1.2e-3}));
}

TEST(TuningRace, TheSlowLeaveAfterARoundTheBoundaryStays) {
  Race race(5);
  for (std::size_t run = 0; run < kWarmUpRuns + 5 * kScreeningRunsPerTurn;
       ++run) {
    race.next();
  }
  ASSERT_TRUE(race.ends_round());
  // After the screening: 2 times the fastest stays; above it leaves.
  EXPECT_EQ(stays_within(1), kStaysScreening);
  EXPECT_FALSE(
      race.agreed(agreed_as({2.1, 1.0, kStaysInRace, 1.3, 2.0}, 0b100)));
  EXPECT_FALSE(race.racing(0));
  for (std::size_t candidate : {1, 2, 3, 4}) {
    EXPECT_TRUE(race.racing(candidate));
  }
  EXPECT_EQ(race.agreed_bands(), 0b100U);
  for (std::size_t candidate : {1, 2, 3, 4}) {
    for (std::size_t run = 0; run < kRunsPerTurn; ++run) {
      EXPECT_EQ(race.next(), candidate);
    }
  }
  ASSERT_TRUE(race.ends_round());
  // After a round of long turns: 1.25 times the fastest stays.
  EXPECT_EQ(stays_within(2), kStaysInRace);
  EXPECT_FALSE(race.agreed(agreed_as({0.5, 1.0, kStaysInRace, 1.3, 2.0}, 0)));
  EXPECT_TRUE(race.racing(1));
  EXPECT_TRUE(race.racing(2));
  EXPECT_FALSE(race.racing(3));
  EXPECT_FALSE(race.racing(4));
  for (std::size_t candidate : {1, 2}) {
    for (std::size_t run = 0; run < kRunsPerTurn; ++run) {
      EXPECT_EQ(race.next(), candidate);
    }
  }
  EXPECT_TRUE(race.ends_round());
  // A candidate that left keeps the time it left with.
  EXPECT_FALSE(race.agreed(agreed_as({0.5, 1.0, 1.1, 0.5, 0.5}, 0)));
  EXPECT_EQ(race.agreed_seconds()[0], 2.1);
  EXPECT_EQ(race.agreed_seconds()[3], 1.3);
  EXPECT_EQ(race.agreed_seconds()[4], 2.0);
  EXPECT_TRUE(race.racing(2));
}

TEST(TuningRace, OverWhenOneIsLeft) {
  Race race(2);
  for (std::size_t run = 0; run < kWarmUpRuns + 2 * kScreeningRunsPerTurn;
       ++run) {
    race.next();
  }
  EXPECT_TRUE(race.agreed(agreed_as({1.0, 3.0}, 0)));
  EXPECT_TRUE(race.racing(0));
  EXPECT_FALSE(race.racing(1));
}

TEST(TuningRace, AnAgreementOneRunLateTakesEffectFromTheRoundAfter) {
  Race race(3);
  for (std::size_t run = 0; run < kWarmUpRuns + 3 * kScreeningRunsPerTurn;
       ++run) {
    race.next();
  }
  ASSERT_TRUE(race.ends_round());
  EXPECT_EQ(race.next(), 0U);  // the next round's first run, then the agreement
  EXPECT_FALSE(race.agreed(agreed_as({9.0, 1.0, 1.0}, 0)));
  EXPECT_FALSE(race.racing(0));
  // This round still gives candidate 0 its turn.
  for (std::size_t run = 1; run < kRunsPerTurn; ++run) {
    EXPECT_EQ(race.next(), 0U);
  }
  for (std::size_t candidate : {1, 2}) {
    for (std::size_t run = 0; run < kRunsPerTurn; ++run) {
      EXPECT_EQ(race.next(), candidate);
    }
  }
  // The last two rounds, without candidate 0.
  for (std::size_t round = 2; round < kRounds; ++round) {
    ASSERT_TRUE(race.ends_round());
    EXPECT_EQ(race.next(), 1U);
    EXPECT_FALSE(race.agreed(agreed_as({1.0, 1.0, 1.0}, 0)));
    for (std::size_t run = 1; run < kRunsPerTurn; ++run) race.next();
    for (std::size_t run = 0; run < kRunsPerTurn; ++run) {
      EXPECT_EQ(race.next(), 2U);
    }
  }
  ASSERT_TRUE(race.ends_round());
  // Awaiting the last agreement: the first candidate racing, not timed.
  EXPECT_EQ(race.next(), 1U);
  EXPECT_FALSE(race.timed());
  EXPECT_TRUE(race.agreed(agreed_as({1.0, 1.0, 1.0}, 0)));
}

// A blocking turn's timed runs (1 to kRunsPerTurn - 1) around `typical`:
// the first and the last far off (the skew they wait out), the others
// averaging `typical` exactly, though their median is 1.25 times it.
double blocking_turn_run(std::size_t run, double typical) {
  static_assert(kRunsPerTurn == 10, "the multipliers below are for 9 runs");
  const double multipliers[] = {0,   40,  0.5,  0.75, 1.25,
                                1.5, 1.5, 0.75, 0.75, 25};
  return multipliers[run] * typical;
}

// A persistent turn's timed runs around `typical`: three early ones far
// off (the skew an agreement leaves), their median exactly `typical`
// though their mean is over 9 times it (11 times without the first and
// the last).
double persistent_turn_run(std::size_t run, double typical) {
  static_assert(kRunsPerTurn == 10, "the multipliers below are for 9 runs");
  const double multipliers[] = {0, 1, 40, 25, 12, 0.5, 1.5, 0.75, 0.25, 1};
  return multipliers[run] * typical;
}

// A screening turn's timed runs (1 to 3) around `typical`: the first far
// off, the last below; their mean without the first and the last and
// their median are both `typical`.
double screening_turn_run(std::size_t run, double typical) {
  static_assert(kScreeningRunsPerTurn == 4, "the multipliers are for 3 runs");
  const double multipliers[] = {0, 40, 1, 0.5};
  return multipliers[run] * typical;
}

// Candidate 0's screening turn around 9, then its long turns around 5 in
// round 1, 2 in round 2 and 7 in round 3, their runs as `turn_run` (or
// screening_turn_run) gives them; candidate 1 none recorded. After each
// round, the values agreed on are the median over the long turns so far of
// those typical times (the screening turn's before the first long one),
// then the bands, then the barriers' time.
void expect_medians_over_turns(Race& race,
                               double (*turn_run)(std::size_t, double)) {
  static_assert(kRounds == 4, "typical times for the four rounds");
  const std::vector<double> typical = {9.0, 5.0, 2.0, 7.0};
  for (std::size_t round = 0; round < kRounds; ++round) {
    std::size_t run = 0;  // of candidate 0's turn, its untimed ones as one
    for (std::size_t r = 0; r < turn_runs(round, 0) + turn_runs(round, 1);
         ++r) {
      const std::size_t candidate = race.next();
      if (candidate != 0 || !race.timed()) continue;
      ++run;
      race.record(round == 0 ? screening_turn_run(run, typical[0])
                             : turn_run(run, typical[round]));
    }
    race.record_barrier(0.25);
    const std::vector<double> values = race.agreement_values(0b1010);
    ASSERT_EQ(values.size(), 2 + kBandSlots + 1);
    EXPECT_EQ(values.back(), -0.25 * static_cast<double>(round + 1)) << round;
    std::vector<double> so_far(
        typical.begin() + (round == 0 ? 0 : 1),
        typical.begin() + static_cast<std::ptrdiff_t>(round + 1));
    std::sort(so_far.begin(), so_far.end());
    EXPECT_DOUBLE_EQ(values[0], so_far[so_far.size() / 2]) << round;
    EXPECT_EQ(values[1], 0.0);
    for (std::size_t band = 0; band < kBandSlots; ++band) {
      EXPECT_EQ(values[2 + band], band == 1 || band == 3 ? 1.0 : 0.0);
    }
    race.agreed(agreed_as({1.0, 1.0}, 0));
  }
}

TEST(TuningRace, BlockingTurnsCountTheirMeanWithoutFirstAndLast) {
  Race race(2);
  expect_medians_over_turns(race, blocking_turn_run);
}

TEST(TuningRace, PersistentTurnsCountTheirMedian) {
  Race race(2, TurnTime::median);
  expect_medians_over_turns(race, persistent_turn_run);
}

// The slow leave as the rule says: after each agreement, those racing
// whose time exceeds kStaysScreening (the first agreement's, after the
// screening) or kStaysInRace (later) times the fastest racing.
std::vector<bool> after_agreement(const std::vector<bool>& racing,
                                  const std::vector<double>& times,
                                  std::size_t agreement) {
  double fastest = 1e300;
  for (std::size_t c = 0; c < racing.size(); ++c) {
    if (racing[c]) fastest = std::min(fastest, times[c]);
  }
  std::vector<bool> left(racing.size());
  for (std::size_t c = 0; c < racing.size(); ++c) {
    const double bound = agreement == 1 ? kStaysScreening : kStaysInRace;
    left[c] = racing[c] && times[c] <= bound * fastest;
  }
  return left;
}

// Blocking calls agree right after the round: per round the racing
// candidates in order, kScreeningRunsPerTurn runs each in the screening
// round and kRunsPerTurn after it, the first not timed.
TEST(TuningRace, RandomTimesAgreedAtOnce) {
  std::mt19937 random(0x7ace);
  std::uniform_real_distribution<double> time(1.0, 3.0);
  for (int trial = 0; trial < 2000; ++trial) {
    const std::size_t n = 1 + random() % 4;
    Race race(n);
    std::vector<bool> racing(n, true);
    std::vector<std::size_t> runs(n, 0);
    bool over = false;
    for (std::size_t round = 0; round < kRounds && !over; ++round) {
      for (std::size_t c = 0; c < n; ++c) {
        if (!racing[c]) continue;
        for (std::size_t run = 0; run < turn_runs(round, c); ++run) {
          ASSERT_EQ(race.next(), c) << trial;
          EXPECT_EQ(race.timed(), run >= untimed_runs(round, c));
          EXPECT_EQ(race.starts_turn(), run + 1 == untimed_runs(round, c));
          ++runs[c];
        }
      }
      ASSERT_TRUE(race.ends_round()) << trial;
      std::vector<double> times(n);
      for (double& t : times) t = time(random);
      racing = after_agreement(racing, times, round + 1);
      const double barriers = static_cast<double>(round + 1) / 8;
      over = race.agreed(agreed_as(times, 0, barriers));
      EXPECT_EQ(race.agreed_barrier_seconds(), barriers) << trial;
      const auto left = std::count(racing.begin(), racing.end(), true);
      EXPECT_EQ(over, round + 1 == kRounds || left <= 1) << trial;
      for (std::size_t c = 0; c < n; ++c) {
        EXPECT_EQ(race.racing(c), racing[c]) << trial << " " << c;
      }
    }
    EXPECT_TRUE(over) << trial;
    EXPECT_LE(race.runs(), Race::most_runs(n));
    EXPECT_EQ(race.runs_of(), runs) << trial;
  }
}

// Persistent requests agree one run into the next round (or in the run
// that awaits the last agreement): a round runs those racing when it
// began.
TEST(TuningRace, RandomTimesAgreedOneRunLate) {
  std::mt19937 random(0x1a7e);
  std::uniform_real_distribution<double> time(1.0, 3.0);
  for (int trial = 0; trial < 2000; ++trial) {
    const std::size_t n = 1 + random() % 4;
    Race race(n);
    std::vector<bool> racing(n, true);
    std::vector<std::size_t> runs(n, 0);
    std::size_t agreements = 0;
    bool over = false;
    const auto agree = [&] {
      std::vector<double> times(n);
      for (double& t : times) t = time(random);
      ++agreements;
      racing = after_agreement(racing, times, agreements);
      over = race.agreed(agreed_as(times, 0));
      const auto left = std::count(racing.begin(), racing.end(), true);
      EXPECT_EQ(over, agreements == kRounds || left <= 1) << trial;
      for (std::size_t c = 0; c < n; ++c) {
        EXPECT_EQ(race.racing(c), racing[c]) << trial << " " << c;
      }
    };
    for (std::size_t round = 0; !over; ++round) {
      if (round == kRounds) {  // the run that awaits the last agreement
        const auto first = static_cast<std::size_t>(
            std::find(racing.begin(), racing.end(), true) - racing.begin());
        ASSERT_EQ(race.next(), first) << trial;
        EXPECT_FALSE(race.timed());
        EXPECT_FALSE(race.starts_turn());
        ++runs[first];
        agree();
        EXPECT_TRUE(over) << trial;
        break;
      }
      const std::vector<bool> in_round = racing;
      bool first_run = true;
      for (std::size_t c = 0; c < n && !over; ++c) {
        if (!in_round[c]) continue;
        for (std::size_t run = 0; run < turn_runs(round, c) && !over; ++run) {
          ASSERT_EQ(race.next(), c) << trial;
          EXPECT_EQ(race.timed(), run >= untimed_runs(round, c));
          EXPECT_EQ(race.starts_turn(), run + 1 == untimed_runs(round, c));
          ++runs[c];
          if (first_run && round > 0) agree();
          first_run = false;
        }
      }
      if (!over) {
        ASSERT_TRUE(race.ends_round()) << trial;
      }
    }
    EXPECT_LE(race.runs(), Race::most_runs(n) + 1);
    EXPECT_EQ(race.runs_of(), runs) << trial;
  }
}

}  // namespace
