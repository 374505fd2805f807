// The simulator against measured points (MPI-free): each point's
// exchange built once, its predicted time under a machine's prices, and a
// fit of a machine's prices to the points, minimising the sum over points
// of log(predicted / measured)^2, so that every point weighs alike
// whatever its time: coordinate descent on the logarithms of the prices
// (which grows a price from next to nothing), then Levenberg-Marquardt
// steps on the prices (which move several at once).
#ifndef ORTHOCOMM_EXPERIMENTS_SIMULATE_FIT_H_
#define ORTHOCOMM_EXPERIMENTS_SIMULATE_FIT_H_

#include <span>
#include <vector>

#include "experiments/simulate/exchange.h"
#include "experiments/simulate/machine.h"
#include "experiments/simulate/points.h"

namespace simulate {

struct PreparedPoint {
  const MeasuredPoint* point = nullptr;
  Exchange exchange;
  std::vector<int> node_of_rank;
  // Predicted as one call's rounds (predict.h) where 0, else as a call of
  // a loop of this many calls (loop.h).
  int loop_calls = 0;
};

// Builds every point's exchange (combining split at `machine`'s eager
// limit for the job), to be predicted as a call of a loop of `loop_calls`
// calls, or as one call's rounds where 0. Throws std::invalid_argument
// naming the point where its algorithm does not run on its workload.
std::vector<PreparedPoint> prepare(std::span<const MeasuredPoint> points,
                                   const Machine& machine, int loop_calls = 0);

double predicted_us(const PreparedPoint& point, const Machine& machine);

// The prices a fit moves: each link's latency, per-message and per-byte
// prices at both ends, its price per peer and its rendezvous, the spanning latency within a
// node, the copies' price, the switch's and a multiply-add's (an SpMV
// halo's product, in the loop model).
// The core counts, eager limits and the interface's prices stay as given.
Machine fit_machine(std::span<const PreparedPoint> points, Machine start);

// sum over points of log(predicted / measured)^2.
double squared_log_error(std::span<const PreparedPoint> points,
                         const Machine& machine);

}  // namespace simulate

#endif  // ORTHOCOMM_EXPERIMENTS_SIMULATE_FIT_H_
