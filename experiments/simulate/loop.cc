#include "experiments/simulate/loop.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "experiments/simulate/predict.h"

namespace simulate {
namespace {

std::size_t at(int index) { return static_cast<std::size_t>(index); }

// What one round's processes see of the machine.
struct RoundContext {
  std::span<const int> node_of_rank;
  const Machine& machine;
  double sharing;  // processes on a core (sharing_a_core)
  bool spanning;   // the job spans nodes
};

bool between_nodes(const Message& message, const RoundContext& context) {
  return context.node_of_rank[at(message.from)] !=
         context.node_of_rank[at(message.to)];
}

const LinkPrices& link_of(const Message& message, const RoundContext& context) {
  return between_nodes(message, context) ? context.machine.between
                                         : context.machine.within;
}

// From its sender's last message out to its arrival.
double transit_ns(const Message& message, const RoundContext& context) {
  const Machine& machine = context.machine;
  const double latency = between_nodes(message, context)
                             ? machine.between.latency_ns
                         : context.spanning ? machine.within_spanning_latency_ns
                                            : machine.within.latency_ns;
  double ns =
      context.sharing * latency + (context.sharing - 1) * machine.switch_ns;
  if (static_cast<double>(message.bytes) >
      link_of(message, context).eager_bytes) {
    ns += link_of(message, context).rendezvous_ns;
  }
  return ns;
}

// The cores share themselves out among the processes that work (a
// node's, or the machine's where the nodes share cores), each process
// taking at most one: where all start together, work w ends after
// max(w, sum over the group of min(w_q, w) / cores) (processor sharing).
std::vector<double> shared_out(const std::vector<double>& work,
                               const RoundContext& context) {
  const Machine& machine = context.machine;
  const bool shared = machine.shared_cores > 0;
  const auto group_of = [&](std::size_t p) {
    return shared ? 0 : at(context.node_of_rank[p]);
  };
  std::vector<std::vector<double>> sorted(
      shared ? 1 : at(nodes_of(context.node_of_rank)));
  for (std::size_t p = 0; p < work.size(); ++p) {
    sorted[group_of(p)].push_back(work[p]);
  }
  std::vector<std::vector<double>> prefix(sorted.size());
  for (std::size_t g = 0; g < sorted.size(); ++g) {
    std::sort(sorted[g].begin(), sorted[g].end());
    prefix[g].resize(sorted[g].size() + 1);
    std::partial_sum(sorted[g].begin(), sorted[g].end(), prefix[g].begin() + 1);
  }
  const double cores = shared ? machine.shared_cores : machine.cores_per_node;
  std::vector<double> ends(work.size());
  for (std::size_t p = 0; p < work.size(); ++p) {
    const std::vector<double>& group = sorted[group_of(p)];
    const auto smaller = static_cast<std::size_t>(
        std::upper_bound(group.begin(), group.end(), work[p]) - group.begin());
    const double sum = prefix[group_of(p)][smaller] +
                       static_cast<double>(group.size() - smaller) * work[p];
    ends[p] = std::max(work[p], sum / cores);
  }
  return ends;
}

// Moves every process's clock through one round.
void run_round(const std::vector<RoundLoad>& loads,
               const std::vector<Message>& messages,
               const RoundContext& context, std::vector<double>& clock) {
  std::vector<double> sending(clock.size());
  std::vector<double> receiving(clock.size());
  for (std::size_t p = 0; p < clock.size(); ++p) {
    sending[p] = send_ns(loads[p], context.machine);
    receiving[p] = receive_ns(loads[p], context.machine);
  }
  sending = shared_out(sending, context);
  receiving = shared_out(receiving, context);
  std::vector<double> out(clock.size());
  for (std::size_t p = 0; p < clock.size(); ++p) out[p] = clock[p] + sending[p];
  std::vector<double> in = out;
  for (const Message& message : messages) {
    double& to = in[at(message.to)];
    to = std::max(to, out[at(message.from)] + transit_ns(message, context));
  }
  // Past the inline limit the sender waits for its receiver to take the
  // message, and to hear so.
  std::vector<double> done = in;
  for (const Message& message : messages) {
    if (static_cast<double>(message.bytes) <=
        link_of(message, context).inline_bytes) {
      continue;
    }
    const double transit = transit_ns(message, context);
    const double taken =
        std::max(out[at(message.from)] + transit, out[at(message.to)]);
    double& from = done[at(message.from)];
    from = std::max(from, taken + transit);
  }
  for (std::size_t p = 0; p < clock.size(); ++p) {
    clock[p] = done[p] + receiving[p];
  }
}

// Moves every process's clock through its local work after an exchange
// (Exchange::multiply_adds), the cores shared out as in a round.
void run_local_work(const std::vector<std::int64_t>& multiply_adds,
                    const RoundContext& context, std::vector<double>& clock) {
  if (multiply_adds.empty()) return;
  std::vector<double> work(clock.size());
  for (std::size_t p = 0; p < clock.size(); ++p) {
    work[p] =
        static_cast<double>(multiply_adds[p]) * context.machine.multiply_add_ns;
  }
  work = shared_out(work, context);
  for (std::size_t p = 0; p < clock.size(); ++p) clock[p] += work[p];
}

// What the processes share can carry: ns per call on the busiest node's
// cores (or the machine's shared cores) and network interface.
double throughput_ns(const Exchange& exchange,
                     std::span<const int> node_of_rank,
                     const Machine& machine) {
  const auto nodes = at(nodes_of(node_of_rank));
  std::vector<double> work(nodes);
  std::vector<double> injection(nodes);
  std::vector<int> processes(nodes);
  for (const int node : node_of_rank) ++processes[at(node)];
  double all_work = 0;
  for (std::size_t p = 0; p < exchange.multiply_adds.size(); ++p) {
    const double ns = static_cast<double>(exchange.multiply_adds[p]) *
                      machine.multiply_add_ns;
    work[at(node_of_rank[p])] += ns;
    all_work += ns;
  }
  for (const std::vector<RoundLoad>& round : exchange.rounds) {
    for (std::size_t p = 0; p < round.size(); ++p) {
      const double ns =
          send_ns(round[p], machine) + receive_ns(round[p], machine);
      work[at(node_of_rank[p])] += ns;
      injection[at(node_of_rank[p])] += injection_ns(round[p], machine);
      all_work += ns;
    }
  }
  double most = 0;
  for (std::size_t n = 0; n < nodes; ++n) {
    const int cores = std::min(machine.cores_per_node, processes[n]);
    most = std::max({most, work[n] / std::max(1, cores), injection[n]});
  }
  if (machine.shared_cores > 0) {
    most = std::max(most, all_work / machine.shared_cores);
  }
  return most;
}

void check(const Exchange& exchange, std::span<const int> node_of_rank,
           int calls) {
  if (calls < 1) {
    throw std::invalid_argument(
        "simulate::loop_ns: calls = " + std::to_string(calls) + " is below 1");
  }
  for (const std::vector<RoundLoad>& round : exchange.rounds) {
    if (round.size() != node_of_rank.size()) {
      throw std::invalid_argument("simulate::loop_ns: node_of_rank places " +
                                  std::to_string(node_of_rank.size()) +
                                  " processes, the exchange has " +
                                  std::to_string(round.size()));
    }
  }
  if (exchange.messages.size() != exchange.rounds.size()) {
    throw std::invalid_argument(
        "simulate::loop_ns: the exchange's messages do not match its rounds");
  }
  if (!exchange.multiply_adds.empty() &&
      exchange.multiply_adds.size() != node_of_rank.size()) {
    throw std::invalid_argument(
        "simulate::loop_ns: the exchange's local work covers " +
        std::to_string(exchange.multiply_adds.size()) + " processes, not " +
        std::to_string(node_of_rank.size()));
  }
}

}  // namespace

double loop_ns(const Exchange& exchange, std::span<const int> node_of_rank,
               const Machine& machine, int calls) {
  check(exchange, node_of_rank, calls);
  const RoundContext context{.node_of_rank = node_of_rank,
                             .machine = machine,
                             .sharing = sharing_a_core(node_of_rank, machine),
                             .spanning = nodes_of(node_of_rank) > 1};
  std::vector<double> clock(node_of_rank.size());
  for (int call = 0; call < calls; ++call) {
    for (std::size_t r = 0; r < exchange.rounds.size(); ++r) {
      if (exchange.messages[r].empty()) continue;
      run_round(exchange.rounds[r], exchange.messages[r], context, clock);
    }
    run_local_work(exchange.multiply_adds, context, clock);
  }
  const double last =
      clock.empty() ? 0 : *std::max_element(clock.begin(), clock.end());
  return std::max(last / calls, throughput_ns(exchange, node_of_rank, machine));
}

}  // namespace simulate
