#include "ortho/algorithms/node_aware_model.h"

#include <algorithm>
#include <vector>

#include "stencils/message_split.h"

namespace ortho::algorithms {
namespace {

using node_routes::HostGraph;
using node_routes::Load;
using node_routes::StepLoad;

// Fitted to simulated hosts (host_prices()): a message between hosts
// against one over TCP loopback, a round within a host against the
// single-host price at the same processes per core.
constexpr double kBetweenHostsMessageFactor = 4;
constexpr double kWithinHostRoundFactor = 4;

// What a process's sends cost it in one round, waiting aside: messages,
// copies, and the bytes of messages within its host. The bytes between
// hosts are its host's (link_ns()).
double work_ns(const Prices& prices, const StepLoad& load, double bytes,
               bool within) {
  return prices.message_ns * load.messages +
         (within ? prices.byte_ns * bytes * load.blocks : 0) +
         2 * prices.copy_byte_ns * bytes * load.packed_blocks;
}

// The processes of a host share its link to the others: the time the
// busiest host takes to put on the network the blocks its processes send
// to other hosts (`crossing`, by rank).
double link_ns(const HostGraph& graph, std::span<const int> crossing,
               const Prices& between, double bytes) {
  std::vector<double> of_host;
  for (std::size_t r = 0; r < crossing.size(); ++r) {
    const auto host = static_cast<std::size_t>(graph.host_of_rank[r]);
    if (of_host.size() <= host) of_host.resize(host + 1, 0);
    of_host[host] += crossing[r];
  }
  const double most =
      of_host.empty() ? 0 : *std::max_element(of_host.begin(), of_host.end());
  return most * bytes * between.byte_ns;
}

// What a round costs on top: waiting for its peers, and a rendezvous where
// its largest message passes the eager limit.
double wait_ns(const Prices& prices, int largest_message_blocks, double bytes) {
  return prices.round_ns + (bytes * largest_message_blocks > prices.eager_bytes
                                ? prices.rendezvous_ns
                                : 0);
}

// A process's messages in one round, within its host and to other hosts.
using DirectLoad = node_routes::SplitLoad;

std::vector<DirectLoad> direct_loads(const HostGraph& graph) {
  std::vector<DirectLoad> loads(graph.destinations.size());
  for (std::size_t s = 0; s < loads.size(); ++s) {
    for (const int d : graph.destinations[s]) {
      if (d == static_cast<int>(s)) continue;  // a local copy
      StepLoad& load = graph.host_of_rank[static_cast<std::size_t>(d)] ==
                               graph.host_of_rank[s]
                           ? loads[s].within
                           : loads[s].between;
      ++load.messages;
      ++load.blocks;
      load.largest_message_blocks = 1;
    }
  }
  return loads;
}

// The processor time of one round: its slowest process, or, where
// processes share cores, the cores' share of all processes' work (on a
// graph whose processes differ, the busiest one then waits for the cores
// less than the others' work does).
class RoundWork {
 public:
  void add(double work) {
    slowest_ = std::max(slowest_, work);
    total_ += work;
    ++processes_;
  }
  double ns(double processes_per_core) const {
    if (processes_ == 0) return 0;
    return std::max(slowest_, processes_per_core * total_ / processes_);
  }

 private:
  double slowest_ = 0;
  double total_ = 0;
  int processes_ = 0;
};

// One round: its processors' work or its busiest host's link, then the
// wait of the slower transport it uses (direct's one, or either of
// common_neighbours').
double direct_ns(const HostGraph& graph, std::span<const DirectLoad> loads,
                 const HostPrices& prices, double bytes) {
  RoundWork work;
  int largest_between = 0;
  int largest_within = 0;
  std::vector<int> crossing;
  for (const DirectLoad& load : loads) {
    work.add(work_ns(prices.within, load.within, bytes, true) +
             work_ns(prices.between, load.between, bytes, false));
    crossing.push_back(load.between.blocks);
    largest_between =
        std::max(largest_between, load.between.largest_message_blocks);
    largest_within =
        std::max(largest_within, load.within.largest_message_blocks);
  }
  const double busiest =
      std::max(work.ns(prices.processes_per_core),
               link_ns(graph, crossing, prices.between, bytes));
  if (largest_between > 0) {
    return busiest + wait_ns(prices.between, largest_between, bytes);
  }
  if (largest_within > 0) {
    return busiest + wait_ns(prices.within, largest_within, bytes);
  }
  return busiest;
}

}  // namespace

HostPrices host_prices(double processes_per_core) {
  // The work of messages at a core's price; sharing cores shows in the
  // rounds' work (RoundWork) and in their waits.
  HostPrices prices{prices_for(Transport::shared_memory, 1),
                    prices_for(Transport::network, 1), processes_per_core};
  prices.within.round_ns =
      kWithinHostRoundFactor *
      prices_for(Transport::shared_memory, processes_per_core).round_ns;
  prices.between.round_ns =
      prices_for(Transport::network, processes_per_core).round_ns;
  prices.between.message_ns *= kBetweenHostsMessageFactor;
  return prices;
}

HostPrices host_prices(const internal::Machine& machine,
                       double processes_per_core) {
  HostPrices prices{prices_for(machine, Transport::shared_memory, 1),
                    prices_for(machine, Transport::network, 1),
                    processes_per_core};
  // The job spans hosts: a round within one waits the spanning latency.
  internal::Machine spanning = machine;
  spanning.within.latency_ns = machine.within_spanning_latency_ns;
  prices.within.round_ns =
      prices_for(spanning, Transport::shared_memory, processes_per_core)
          .round_ns;
  prices.between.round_ns =
      prices_for(machine, Transport::network, processes_per_core).round_ns;
  return prices;
}

double direct_call_ns(const HostGraph& graph, const HostPrices& prices,
                      std::size_t block_bytes) {
  return direct_ns(graph, direct_loads(graph), prices,
                   static_cast<double>(block_bytes));
}

double node_aware_call_ns(const HostGraph& graph, std::span<const Load> loads,
                          const HostPrices& prices, std::size_t block_bytes) {
  const auto bytes = static_cast<double>(block_bytes);
  double total = 0;
  for (std::size_t step = 0; step < 3; ++step) {
    const bool within = step != 1;  // step 1 crosses between hosts
    const Prices& step_prices = within ? prices.within : prices.between;
    RoundWork work;
    int largest = 0;
    std::vector<int> crossing;
    for (const Load& load : loads) {
      work.add(work_ns(step_prices, load[step], bytes, within));
      largest = std::max(largest, load[step].largest_message_blocks);
      crossing.push_back(within ? 0 : load[step].blocks);
    }
    if (largest == 0) continue;  // nobody sends in this step
    total += std::max(work.ns(prices.processes_per_core),
                      link_ns(graph, crossing, step_prices, bytes)) +
             wait_ns(step_prices, largest, bytes);
  }
  return total;
}

double sizes_within_hosts_ns(const HostPrices& prices, int messages) {
  return prices.within.round_ns + messages * prices.within.message_ns;
}

double split_rounds_call_ns(const HostGraph& graph,
                            std::span<const std::vector<DirectLoad>> rounds,
                            const HostPrices& prices, std::size_t block_bytes) {
  double total = 0;
  for (const std::vector<DirectLoad>& round : rounds) {
    total += direct_ns(graph, round, prices, static_cast<double>(block_bytes));
  }
  return total;
}

double common_neighbours_call_ns(const HostGraph& graph,
                                 std::span<const common_routes::Load> loads,
                                 const HostPrices& prices,
                                 std::size_t block_bytes) {
  std::vector<std::vector<DirectLoad>> rounds(
      2, std::vector<DirectLoad>(loads.size()));
  for (std::size_t step = 0; step < 2; ++step) {
    for (std::size_t r = 0; r < loads.size(); ++r) {
      rounds[step][r] = loads[r][step];
    }
  }
  return split_rounds_call_ns(graph, rounds, prices, block_bytes);
}

double combining_call_ns(const HostGraph& graph,
                         const combining_loads::Rounds& rounds,
                         const HostPrices& prices, std::size_t block_bytes,
                         std::size_t split_eager_bytes) {
  double total = 0;
  std::vector<DirectLoad> round;
  for (const auto& messages_of_rank : rounds) {
    round.assign(messages_of_rank.size(), DirectLoad{});
    for (std::size_t p = 0; p < messages_of_rank.size(); ++p) {
      for (const combining_loads::Message& message : messages_of_rank[p]) {
        StepLoad& load =
            message.between_hosts ? round[p].between : round[p].within;
        const int first = stencils::first_part_blocks(
            message.blocks, block_bytes, split_eager_bytes);
        load.messages += first < message.blocks ? 2 : 1;
        load.blocks += message.blocks;
        if (message.blocks > 1) load.packed_blocks += message.blocks;
        load.largest_message_blocks =
            std::max(load.largest_message_blocks, first);
      }
    }
    total += direct_ns(graph, round, prices, static_cast<double>(block_bytes));
  }
  return total;
}

}  // namespace ortho::algorithms
