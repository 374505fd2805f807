// The schedule of one tuning (internal/tuning.h) and what one process
// measured in it, MPI-free: rounds in which every candidate still in the
// race has a turn of consecutive runs, the first of each turn not timed;
// after each round the processes agree on the times so far (a maximum over
// them, which the caller takes) and the slow leave the race. The first
// round screens, in short turns (kScreeningRunsPerTurn), those far behind
// (beyond kStaysScreening times the fastest); the rounds after it rank
// the rest in long turns (kRunsPerTurn), leaving those beyond
// kStaysInRace. The race ends after kRounds rounds or when one candidate
// is left. A round's turns are fixed when it begins: an agreement that
// comes after the next round has begun (a persistent request's, which
// completes with the following start) takes effect from the round after.
//
// Long turns, because a run right after another candidate's meets the
// skew between processes that one left, and a loop of calls takes a few
// calls to settle into its own pace: with turns of 4 calls (3 timed) on
// 4 simulated hosts x 4, node_aware measured 1.25-1.5x its time in a loop
// of 10 and lost to direct, which the loop ran slower; with turns of 10,
// each measured within a few per cent of its loop. Short turns still tell
// a candidate two times slower than the fastest, and a candidate that far
// behind costs a tuning most where it has ten calls before it leaves
// (the main job's Jacobi at 4 processes: combining at 2-3 times the
// fastest, most of a tuning's cost). A blocking turn's timed runs also
// begin with the processes together (the caller's barrier after the
// turn's first run, whose time the race keeps for the tuning's cost):
// without it, on the densest sparse graph on 4 x 4, node_aware still
// measured 1.2-1.7x its loop time after other candidates' turns. What a
// turn counts depends on whether it can begin with the processes together
// (TurnTime).
#ifndef ORTHOCOMM_ORTHO_INTERNAL_TUNING_RACE_H_
#define ORTHOCOMM_ORTHO_INTERNAL_TUNING_RACE_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ortho/internal/inside_ortho.h"

namespace ortho::internal {

// What a turn's timed runs count for.
enum class TurnTime {
  // Their mean without the first and the last: a blocking turn, whose
  // timed runs begin after a barrier. Traced on every process on 4 x 4,
  // node_aware's first timed run after the barrier took 2-4 times its
  // others on most processes and its last as much on one host's, waiting
  // out the skew the turns before and after leave; the others are alike,
  // and their mean ranked node_aware and combining as their loops did.
  // (The median for blocking turns too measured no better on 4 x 4, within
  // the launches' spread: docs/algorithms.md.)
  trimmed_mean,
  // Their median: a persistent request's turn, which no barrier can begin.
  // The turn after an agreement (an allreduce begun with its first start)
  // waits out the skew the allreduce leaves over several runs: on one host
  // x 8 (8 processes on 2 cores) 2-3 timed runs of 20-260 us where the
  // turn's others took under 3 us, and always in the same candidate's
  // turn, the first of the round.
  median,
};

// Runs per turn (the first not timed): in the screening round, and in
// the rounds after it. Rounds of a race: the screening round and three
// of long turns.
inline constexpr std::size_t kScreeningRunsPerTurn = 4;
inline constexpr std::size_t kRunsPerTurn = 10;
inline constexpr std::size_t kRounds = 4;
constexpr std::size_t runs_per_turn(std::size_t round) noexcept {
  return round == 0 ? kScreeningRunsPerTurn : kRunsPerTurn;
}
// The race's first turn begins with this many more untimed runs: they are
// the caller's first calls, which meet the process's own start (its
// arrays' first touches, the transport's first messages to each peer);
// timed at once, the first candidate's screening turn measured 2.5-4
// times its loop's pace (the main job's Jacobi at 4 processes: direct at
// 75-164 us a call, Open MPI's own call after it 30-61 us; in a loop
// alike).
inline constexpr std::size_t kWarmUpRuns = 6;
// After the screening round, a candidate stays in the race only where its
// agreed time is at most kStaysScreening times the fastest's; after each
// round of long turns, kStaysInRace.
inline constexpr double kStaysScreening = 2.0;
inline constexpr double kStaysInRace = 1.25;
// The bound after the race's `agreement`-th agreement (1: the screening's).
constexpr double stays_within(std::size_t agreement) noexcept {
  return agreement <= 1 ? kStaysScreening : kStaysInRace;
}
// When the race is over, its fastest displaces the incumbent only where it
// measured at most this fraction of the incumbent's time. Calls timed on
// an oversubscribed machine are noisy, and a loop of calls does not always
// rank candidates as their timed turns do; which way they err differs
// with the scale. The incumbent is the fastest baseline still racing (the
// plain exchange, ortho's or the transport's: what users compare
// against), on several hosts because there the relaying algorithms race
// better than they loop (on sparse matrices on 4 hosts x 4, node_aware
// measured 0.96 of direct in its turns and looped 6 % slower,
// common_neighbours 0.97 and 3 % slower), and between baselines because
// no margin favours one plain exchange over another (on one host x 8 Open
// MPI's own call looped 1-4 % faster than direct, yet measured within the
// margin of it). On one host, where the model's choice is no baseline, it
// is the incumbent, because there combining loops better than it races:
// on the Moore stencils at 4 processes it measured 0.96 of the baseline
// at 4 B and looped 10-11 % faster. Where neither races, the fastest wins.
// The margin is kept small, because turns of ten calls rank candidates that
// differ by more than a few per cent as their loops do: at 0.9, on 4
// processes and on 4 hosts x 4, the incumbent was kept at points where the
// challenger had measured 0.92-0.96 of its time and looped 10-17 % faster.
inline constexpr double kDisplacesBaseline = 0.95;
// The bands of an agreement (after the candidates' times: one value each,
// 1 where this process met the band, so that the maxima are the union);
// then one value, the seconds this process spent in the turns' barriers,
// negated (so that the maximum is the least of them: the barriers' own
// cost is what the process that came last waits in them; the others' wait
// is the skew between processes, which their next calls would wait out
// anyway).
inline constexpr std::size_t kBandSlots = 64;

class Race {
 public:
  explicit Race(std::size_t candidates,
                TurnTime turn_time = TurnTime::trimmed_mean);

  // The candidate that the next run is for. Once the last round is over
  // (the agreement still to come, as with a persistent request's), the
  // first candidate still racing, not timed.
  std::size_t next();
  // Whether the run next() gave last is timed, and whether it ended a
  // round (the agreement is then due).
  bool timed() const noexcept { return timed_; }
  // Whether the run next() gave last is the last untimed run of its turn,
  // so that the turn's timed runs follow (a blocking turn's barrier goes
  // here; after the last round, awaiting its agreement, there is none).
  bool starts_turn() const noexcept {
    return in_turn_ == untimed_ && round_ < kRounds;
  }
  bool ends_round() const noexcept { return ends_round_; }
  // The time of the run next() gave last, where it was timed.
  void record(double seconds);
  // The time of a barrier before a turn.
  void record_barrier(double seconds) { barrier_seconds_ += seconds; }

  // This process's values for the agreement after a round: per candidate
  // its time so far (the median over its long turns of each turn's
  // TurnTime, or its screening turn's before it had a long one; 0 for one
  // not yet timed), then
  // `bands` (kBandSlots values), then its barriers' seconds so far, negated.
  std::vector<double> agreement_values(std::uint64_t bands) const;
  // The agreed maxima of those values: the slow leave the race. Whether
  // the race is over (its last round agreed, or one candidate left).
  bool agreed(std::span<const double> maxima);

  // The candidates' agreed times (s), each from the last agreement it took
  // part in racing: the decision's times once the race is over; and the
  // bands agreed on (the union over the processes).
  const std::vector<double>& agreed_seconds() const noexcept { return agreed_; }
  std::uint64_t agreed_bands() const noexcept { return agreed_bands_; }
  // The barriers' seconds so far, the least of any process's.
  double agreed_barrier_seconds() const noexcept {
    return agreed_barrier_seconds_;
  }
  // Whether `candidate` is still in the race (after the last agreement).
  bool racing(std::size_t candidate) const { return racing_[candidate]; }
  std::size_t candidates() const noexcept { return racing_.size(); }
  // The runs so far, and per candidate (timed or not).
  std::size_t runs() const noexcept { return runs_; }
  const std::vector<std::size_t>& runs_of() const noexcept { return runs_of_; }

  // The values of an agreement in a race of `candidates`.
  static constexpr std::size_t agreement_size(std::size_t candidates) noexcept {
    return candidates + kBandSlots + 1;
  }
  // The most runs a race of `candidates` takes before its last agreement.
  static constexpr std::size_t most_runs(std::size_t candidates) noexcept {
    return kWarmUpRuns +
           candidates * (kScreeningRunsPerTurn + kRunsPerTurn * (kRounds - 1));
  }

 private:
  // The next candidate racing that has had no turn in this round, or
  // candidates() where none is left.
  std::size_t next_turn() const;
  void begin_round();

  TurnTime turn_time_;
  std::vector<bool> racing_;    // as the last agreement left it
  std::vector<bool> in_round_;  // racing when this round began
  std::vector<bool> had_turn_;  // in this round
  // This process's timed runs: per candidate, per turn.
  std::vector<std::vector<std::vector<double>>> turns_;
  std::vector<double> agreed_;
  std::uint64_t agreed_bands_ = 0;
  double barrier_seconds_ = 0;
  double agreed_barrier_seconds_ = 0;
  std::size_t agreements_ = 0;
  std::size_t round_ = 0;
  std::size_t turn_of_ = 0;    // the candidate of the current turn
  std::size_t in_turn_ = 0;    // runs of the current turn so far
  std::size_t turn_runs_ = 0;  // the current turn's runs
  std::size_t untimed_ = 1;    // and its untimed ones
  std::size_t runs_ = 0;
  std::vector<std::size_t> runs_of_;
  bool timed_ = false;
  bool ends_round_ = false;
};

}  // namespace ortho::internal

#endif  // ORTHOCOMM_ORTHO_INTERNAL_TUNING_RACE_H_
