#include "ortho/algorithms/cost_model.h"

#include <algorithm>

#include "stencils/message_split.h"

namespace ortho::algorithms {
namespace {

constexpr Prices kSharedMemory{.message_ns = 150,
                               .round_ns = 1'500,
                               .byte_ns = 0.25,
                               .copy_byte_ns = 0.05,
                               .eager_bytes = 4096,
                               .rendezvous_ns = 6'500,
                               .reduce_block_ns = 500};
constexpr Prices kNetwork{.message_ns = 6'000,
                          .round_ns = 24'000,
                          .byte_ns = 1.0,
                          .copy_byte_ns = 0.1,
                          .eager_bytes = 65'536,
                          .rendezvous_ns = 30'000,
                          .reduce_block_ns = 500};
constexpr double kRoundNsPerExtraProcessPerCore = 5'000;
constexpr double kMessageNsPerExtraProcessPerCore = 300;

// Whether `component` is one of the comma-separated `list`.
bool lists(std::string_view list, std::string_view component) {
  while (!list.empty()) {
    const std::size_t comma = list.find(',');
    if (list.substr(0, comma) == component) return true;
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return false;
}

// `prices` at one process per core, for `processes_per_core`.
Prices shared(Prices prices, double processes_per_core) {
  const double share = std::max(1.0, processes_per_core);
  prices.message_ns = prices.message_ns * share +
                      kMessageNsPerExtraProcessPerCore * (share - 1);
  prices.byte_ns *= share;
  prices.copy_byte_ns *= share;
  prices.reduce_block_ns *= share;
  prices.round_ns += kRoundNsPerExtraProcessPerCore * (share - 1);
  return prices;
}

}  // namespace

Transport transport_of(std::string_view btl, bool several_hosts) {
  if (several_hosts) return Transport::network;
  if (btl.empty()) return Transport::shared_memory;
  const bool excluding = btl.front() == '^';
  if (excluding) btl.remove_prefix(1);
  const bool named = lists(btl, "vader") || lists(btl, "sm");
  return named != excluding ? Transport::shared_memory : Transport::network;
}

Prices prices_for(Transport transport, double processes_per_core) {
  return shared(
      transport == Transport::shared_memory ? kSharedMemory : kNetwork,
      processes_per_core);
}

Prices prices_for(const internal::Machine& machine, Transport transport,
                  double processes_per_core) {
  const internal::LinkPrices& link =
      transport == Transport::shared_memory ? machine.within : machine.between;
  // ortho's models price a message once, for both of its ends.
  return shared({.message_ns = link.message_ns + link.receive_message_ns,
                 .round_ns = link.latency_ns,
                 .byte_ns = link.byte_ns + link.receive_byte_ns,
                 .copy_byte_ns = machine.copy_byte_ns,
                 .eager_bytes = link.eager_bytes,
                 .rendezvous_ns = link.rendezvous_ns,
                 .reduce_block_ns = kSharedMemory.reduce_block_ns},
                processes_per_core);
}

int split_messages(const Traffic& traffic, std::size_t block_bytes,
                   double eager_bytes) {
  const auto eager = static_cast<std::size_t>(eager_bytes);
  return static_cast<int>(std::count_if(
      traffic.message_blocks.begin(), traffic.message_blocks.end(),
      [&](int blocks) {
        return stencils::first_part_blocks(blocks, block_bytes, eager) < blocks;
      }));
}

double model_ns(const Prices& prices, const Traffic& traffic,
                std::size_t block_bytes) {
  const auto bytes = static_cast<double>(block_bytes);
  // A round waits for a rendezvous where one of its messages stays whole
  // above the eager limit.
  const auto eager = static_cast<std::size_t>(prices.eager_bytes);
  const auto whole_above_limit = [&](int blocks) {
    return stencils::first_part_blocks(blocks, block_bytes, eager) == blocks &&
           bytes * blocks > prices.eager_bytes;
  };
  const bool rendezvous =
      traffic.message_blocks.empty()
          ? bytes * traffic.largest_message_blocks > prices.eager_bytes
          : std::any_of(traffic.message_blocks.begin(),
                        traffic.message_blocks.end(), whole_above_limit);
  const int split = split_messages(traffic, block_bytes, prices.eager_bytes);
  return prices.message_ns * (traffic.messages + split) +
         prices.round_ns * traffic.rounds +
         prices.byte_ns * bytes * traffic.blocks +
         2 * prices.copy_byte_ns * bytes * traffic.packed_blocks +
         (rendezvous ? prices.rendezvous_ns * traffic.rounds : 0) +
         prices.reduce_block_ns * traffic.reduced_blocks;
}

}  // namespace ortho::algorithms
