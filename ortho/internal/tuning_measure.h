// How a tuning measures and decides (internal/tuning.h), shared by the
// blocking calls' tuning (tuning.cc) and persistent requests'
// (tuning_persistent.cc): the time a run reports and the decision from a
// race's agreed times (internal/tuning_race.h runs the race).
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
#include "ortho/internal/tuning_race.h"
#include "ortho/operation.h"

namespace ortho {
struct Table;
}  // namespace ortho

namespace ortho::internal {

// A measured run's time as the tuning takes it: `seconds`, or what the
// clock set by set_tuning_clock_for_testing says for it.
double reported(const Algorithm& algorithm, double seconds);
// A turn's barrier's time as the tuning takes it, likewise.
double reported_barrier(double seconds);

// What decides the incumbent of a race (internal/tuning_race.h,
// kDisplacesBaseline): per candidate whether it is a baseline, the
// structure's plain exchange (Candidate::baseline: direct, native) or the
// transport's own collectives (Candidate::measured: mpi); and whether the
// table spans several hosts.
struct Incumbency {
  std::vector<bool> baselines;
  bool several_hosts = false;
};
Incumbency incumbency_of(const Table& table, Operation operation,
                         const std::vector<Algorithm>& candidates);

// The decision of a race that is over: the fastest of the candidates still
// racing, unless the incumbent measured within kDisplacesBaseline of it.
// The incumbent: on one host, the model's choice (`choice`, for the
// largest band measured) where it is no baseline; otherwise the fastest
// baseline still racing, or where none is, the model's choice (ties: the
// earlier candidate); none where it left the race.
Tuned decision(const Choice& choice, const Incumbency& incumbency,
               Operation operation, classic::Mode mode,
               const std::vector<Algorithm>& candidates, const Race& race);

// Whether every process's blocks in a call of `operation` in `mode` have
// one size (allgather, alltoall) or their largest is agreed on (the v and
// w forms, persistent): the exchanges whose choice goes by size.
bool banded(Operation operation, classic::Mode mode);

// The band of this process's blocks in `call` (0 where the choice does not
// go by size).
int band_of(const Call& call, const Table& table);

}  // namespace ortho::internal

#endif  // ORTHOCOMM_ORTHO_INTERNAL_TUNING_MEASURE_H_
