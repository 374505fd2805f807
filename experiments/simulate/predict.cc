#include "experiments/simulate/predict.h"

#include <algorithm>
#include <optional>

namespace simulate {

double send_ns(const RoundLoad& load, const Machine& machine) {
  const LinkPrices& within = machine.within;
  const LinkPrices& between = machine.between;
  return 2 * static_cast<double>(load.packed_bytes) * machine.copy_byte_ns +
         load.within_messages * within.message_ns +
         load.within_peers * within.peer_ns +
         static_cast<double>(load.within_bytes) * within.byte_ns +
         load.between_messages * between.message_ns +
         load.between_peers * between.peer_ns +
         static_cast<double>(load.between_bytes) * between.byte_ns;
}

double receive_ns(const RoundLoad& load, const Machine& machine) {
  const LinkPrices& within = machine.within;
  const LinkPrices& between = machine.between;
  return load.received_within * within.receive_message_ns +
         static_cast<double>(load.received_within_bytes) *
             within.receive_byte_ns +
         load.received_between * between.receive_message_ns +
         static_cast<double>(load.received_between_bytes) *
             between.receive_byte_ns;
}

double injection_ns(const RoundLoad& load, const Machine& machine) {
  return load.between_messages * machine.injection_message_ns +
         static_cast<double>(load.between_bytes) * machine.injection_byte_ns;
}

int nodes_of(std::span<const int> node_of_rank) {
  return node_of_rank.empty()
             ? 0
             : *std::max_element(node_of_rank.begin(), node_of_rank.end()) + 1;
}

double sharing_a_core(std::span<const int> node_of_rank,
                      const Machine& machine) {
  std::vector<int> node_processes(
      static_cast<std::size_t>(nodes_of(node_of_rank)));
  for (const int node : node_of_rank) {
    ++node_processes[static_cast<std::size_t>(node)];
  }
  double most = 1;
  for (const int processes : node_processes) {
    most =
        std::max(most, static_cast<double>(processes) / machine.cores_per_node);
  }
  if (machine.shared_cores > 0) {
    most = std::max(
        most, static_cast<double>(node_of_rank.size()) / machine.shared_cores);
  }
  return most;
}

namespace {

double work_ns(const RoundLoad& load, const Machine& machine) {
  return send_ns(load, machine) + receive_ns(load, machine);
}

// The round's time, or none where nobody sends in it; `sharing` the
// processes on a core (sharing_a_core).
std::optional<RoundTime> round_time(const std::vector<RoundLoad>& round,
                                    std::span<const int> node_of_rank,
                                    const Machine& machine, double sharing) {
  const int nodes = nodes_of(node_of_rank);
  std::vector<double> node_work(static_cast<std::size_t>(nodes));
  std::vector<double> node_injection(static_cast<std::size_t>(nodes));
  std::vector<int> node_processes(static_cast<std::size_t>(nodes));
  double busiest_process = 0;
  double all_work = 0;
  bool any = false;
  bool crosses = false;
  bool rendezvous_within = false;
  bool rendezvous_between = false;
  for (std::size_t p = 0; p < round.size(); ++p) {
    const RoundLoad& load = round[p];
    const auto node = static_cast<std::size_t>(node_of_rank[p]);
    ++node_processes[node];
    if (load.messages() == 0 && load.received() == 0) continue;
    any = any || load.messages() > 0;
    crosses = crosses || load.between_messages > 0;
    rendezvous_within =
        rendezvous_within ||
        static_cast<double>(load.largest_within) > machine.within.eager_bytes;
    rendezvous_between =
        rendezvous_between ||
        static_cast<double>(load.largest_between) > machine.between.eager_bytes;
    const double work = work_ns(load, machine);
    busiest_process = std::max(busiest_process, work);
    node_work[node] += work;
    all_work += work;
    node_injection[node] += injection_ns(load, machine);
  }
  if (!any) return std::nullopt;
  RoundTime time{.ns = busiest_process, .bound = Bound::process};
  const auto bound_by = [&time](double ns, Bound bound) {
    if (ns > time.ns) time = {.ns = ns, .bound = bound};
  };
  for (std::size_t n = 0; n < node_work.size(); ++n) {
    const int cores =
        std::min(machine.cores_per_node, std::max(1, node_processes[n]));
    bound_by(node_work[n] / cores, Bound::cores);
    bound_by(node_injection[n], Bound::network_interface);
  }
  if (machine.shared_cores > 0) {
    bound_by(all_work / machine.shared_cores, Bound::cores);
  }
  // Each of the k processes on a core waits its turn: the round's latency
  // k times, and k - 1 switches.
  time.ns += (sharing - 1) * machine.switch_ns;
  const double within_latency_ns = nodes > 1
                                       ? machine.within_spanning_latency_ns
                                       : machine.within.latency_ns;
  time.ns +=
      sharing * (crosses ? machine.between.latency_ns : within_latency_ns);
  if (rendezvous_within) time.ns += machine.within.rendezvous_ns;
  if (rendezvous_between) time.ns += machine.between.rendezvous_ns;
  return time;
}

}  // namespace

std::string_view to_string(Bound bound) {
  switch (bound) {
    case Bound::process:
      return "process";
    case Bound::cores:
      return "cores";
    case Bound::network_interface:
      return "network interface";
  }
  return "?";
}

Prediction predict(const Exchange& exchange, std::span<const int> node_of_rank,
                   const Machine& machine) {
  Prediction prediction;
  const double sharing = sharing_a_core(node_of_rank, machine);
  for (const std::vector<RoundLoad>& round : exchange.rounds) {
    if (const auto time = round_time(round, node_of_rank, machine, sharing)) {
      prediction.ns += time->ns;
      prediction.rounds.push_back(*time);
    }
  }
  return prediction;
}

}  // namespace simulate
