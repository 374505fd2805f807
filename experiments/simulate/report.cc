#include "experiments/simulate/report.h"

#include <algorithm>

#include "experiments/simulate/loop.h"

namespace simulate {
namespace {

Row row_of(Algorithm algorithm, const Exchange& exchange,
           const Workload& workload, const Machine& machine, int nodes,
           int loop_calls) {
  Row row;
  row.algorithm = algorithm;
  const std::vector<int>& node_of_rank = workload.graph.host_of_rank;
  std::vector<std::int64_t> node_out(static_cast<std::size_t>(nodes));
  const auto processes = static_cast<int>(node_of_rank.size());
  for (int p = 0; p < processes; ++p) {
    const Counts counts = counts_of(exchange, p);
    row.rounds = std::max(row.rounds, counts.rounds);
    row.busiest_messages = std::max(row.busiest_messages, counts.messages);
    row.busiest_bytes = std::max(row.busiest_bytes, counts.bytes);
    row.messages_between += counts.messages_between;
    row.bytes_between += counts.bytes_between;
    node_out[static_cast<std::size_t>(
        node_of_rank[static_cast<std::size_t>(p)])] += counts.bytes_between;
  }
  row.busiest_node_out = *std::max_element(node_out.begin(), node_out.end());
  row.prediction = predict(exchange, node_of_rank, machine);
  if (loop_calls > 0) {
    row.loop_ns = loop_ns(exchange, node_of_rank, machine, loop_calls);
  }
  return row;
}

}  // namespace

std::vector<Row> simulate_call(const Workload& workload, Operation operation,
                               std::size_t block_bytes, const Machine& machine,
                               int nodes, int loop_calls) {
  // ortho's combining plans split at the job's transport's eager limit.
  const auto split_eager = static_cast<std::size_t>(
      nodes > 1 ? machine.between.eager_bytes : machine.within.eager_bytes);
  std::vector<Row> rows;
  for (const Algorithm algorithm : kAlgorithms) {
    if (const std::optional<Exchange> sent = exchange(
            workload, algorithm, operation, block_bytes, split_eager)) {
      rows.push_back(
          row_of(algorithm, *sent, workload, machine, nodes, loop_calls));
    }
  }
  return rows;
}

}  // namespace simulate
