// How the SpMV experiment times its implementations: interleaved batches
// of iterations after untimed first ones, as many as a number of
// iterations or a time asks for, and the spread of each implementation's
// batches over a reference's run in the same round.
#ifndef ORTHOCOMM_EXPERIMENTS_SPMV_TIMING_H_
#define ORTHOCOMM_EXPERIMENTS_SPMV_TIMING_H_

#include <memory>
#include <string>
#include <vector>

#include "experiments/spmv/problem.h"
#include "experiments/spmv/runs.h"

namespace spmv {

// Iterations a batch runs.
inline constexpr int kBatch = 10;

// One distribution of the parts over the processes: by slot (identity) or
// placed; every implementation runs on each.
struct Setup {
  std::string placement;
  Problem problem;
};

// An implementation on one setup, and its batches' times.
struct Timed {
  std::unique_ptr<Variant> run;
  const Setup* setup;
  std::vector<double> seconds;
};

// Runs the implementations interleaved in batches, after untimed first
// steps that cover ortho's tuning (its measured candidates are not what
// the selection runs afterwards; they count as iterations of the check).
// Returns the iterations timed (more than `iterations` where `seconds`
// asks for more).
int measure(std::vector<Timed>& runs, int iterations, double seconds);

// Per implementation by slot, the paired spread ("paired_p10=R
// paired_p90=R ": the 10th and 90th percentile of its batch times over
// the reference's in the same round) against Open MPI's in its direction
// (openmpi, accumulate-openmpi), where that ran; placed, against the same
// implementation by slot (`runs` begins with the by-slot ones); empty
// where there is no reference.
std::vector<std::string> paired_spreads(const std::vector<Timed>& runs);

}  // namespace spmv

#endif  // ORTHOCOMM_EXPERIMENTS_SPMV_TIMING_H_
