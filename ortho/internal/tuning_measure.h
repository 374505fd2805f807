// How a tuning measures and decides (internal/tuning.h), shared by the
// blocking calls' tuning (tuning.cc) and persistent requests'
// (tuning_persistent.cc): which candidate runs which call, which runs are
// timed, what each process contributes to the agreement, and the decision
// from the agreed maxima.
#ifndef ORTHOCOMM_ORTHO_INTERNAL_TUNING_MEASURE_H_
#define ORTHOCOMM_ORTHO_INTERNAL_TUNING_MEASURE_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "classic/exec/mode.h"
#include "ortho/call.h"
#include "ortho/internal/choice.h"
#include "ortho/internal/inside_ortho.h"
#include "ortho/internal/tuning.h"
#include "ortho/operation.h"

namespace ortho {
struct Table;
}  // namespace ortho

namespace ortho::internal {

// A measured run's time as the tuning takes it: `seconds`, or what the
// clock set by set_tuning_clock_for_testing says for it.
double reported(const Algorithm& algorithm, double seconds);

// Runs of a tuning: kRounds rounds in which each candidate has a turn of
// kRunsPerTurn consecutive runs (consecutive, so that a run mostly follows
// a run of the same candidate and meets the process skew that one leaves).
std::size_t tuning_runs(std::size_t candidates);

// The candidate of the n-th run of a tuning.
std::size_t candidate_of(std::size_t n, std::size_t candidates);

// Whether the n-th run is timed: all but the first of each turn, which
// follows another candidate's run and meets the skew between processes
// that one left (the first turn's first run also makes the plans and
// transport resources).
bool timed(std::size_t n);

// The bands a set holds, as one value each (1: held) after the candidates'
// times in an agreement, whose maxima are then the union.
inline constexpr std::size_t kBandSlots = 64;

// What this process sends to the agreement (a max over the processes): per
// candidate its time from its timed runs (per turn the mean of its runs,
// the median over the turns), then the bands it met.
std::vector<double> agreement_values(
    const std::vector<std::vector<double>>& seconds, std::uint64_t bands);

// The decision from the agreed maxima: the fastest, unless the model's
// choice (`choice`) for the largest band measured is within
// kDisplacesModel of it (ties: the earlier candidate).
Tuned decision(const Choice& choice, Operation operation, classic::Mode mode,
               const std::vector<Algorithm>& candidates,
               std::span<const double> maxima);

// A candidate displaces the model's choice only where it measured at most
// this fraction of the model's time: per-call times taken on a loaded or
// oversubscribed machine are noisy, and a loop of calls does not always
// rank candidates as their single calls do; the model's choice needs no
// measurement to be right where it is.
inline constexpr double kDisplacesModel = 0.9;

// Whether every process's blocks in a call of `operation` in `mode` have
// one size (allgather, alltoall) or their largest is agreed on (the v and
// w forms, persistent): the exchanges whose choice goes by size.
bool banded(Operation operation, classic::Mode mode);

// The band of this process's blocks in `call` (0 where the choice does not
// go by size).
int band_of(const Call& call, const Table& table);

}  // namespace ortho::internal

#endif  // ORTHOCOMM_ORTHO_INTERNAL_TUNING_MEASURE_H_
