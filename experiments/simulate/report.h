// The simulator's rows (MPI-free): per algorithm, one call's structure over
// the whole job (the busiest process and node, what crosses between
// nodes) and its predicted time, for the report of simulate_main.cc.
#ifndef ORTHOCOMM_EXPERIMENTS_SIMULATE_REPORT_H_
#define ORTHOCOMM_EXPERIMENTS_SIMULATE_REPORT_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "experiments/simulate/exchange.h"
#include "experiments/simulate/machine.h"
#include "experiments/simulate/predict.h"
#include "experiments/simulate/workload.h"

namespace simulate {

struct Row {
  Algorithm algorithm = Algorithm::direct;
  int rounds = 0;                     // the most any process sends in
  int busiest_messages = 0;           // the most one process sends
  std::int64_t busiest_bytes = 0;     // the most bytes one process sends
  std::int64_t messages_between = 0;  // over the job
  std::int64_t bytes_between = 0;
  std::int64_t busiest_node_out = 0;  // bytes leaving the busiest node
  Prediction prediction;
  // A call of a loop of calls (loop.h), where asked for.
  std::optional<double> loop_ns;
  // The time the report compares: the loop's where asked for.
  double ns() const { return loop_ns.value_or(prediction.ns); }
};

// The rows of every algorithm that runs on `workload` (direct first), one
// call of `operation` with blocks of `block_bytes`; where `loop_calls` > 0
// also as a call of a loop of that many calls.
std::vector<Row> simulate_call(const Workload& workload, Operation operation,
                               std::size_t block_bytes, const Machine& machine,
                               int nodes, int loop_calls = 0);

}  // namespace simulate

#endif  // ORTHOCOMM_EXPERIMENTS_SIMULATE_REPORT_H_
