#include "ortho/algorithms/cost_model.h"

#include <algorithm>

namespace ortho::algorithms {
namespace {

constexpr Prices kSharedMemory{
    .message_ns = 400, .round_ns = 400, .byte_ns = 0.25, .copy_byte_ns = 0.1};
constexpr Prices kNetwork{.message_ns = 12'000,
                          .round_ns = 30'000,
                          .byte_ns = 1.0,
                          .copy_byte_ns = 0.1};
constexpr double kRoundNsPerExtraProcessPerCore = 2'600;

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
  Prices prices =
      transport == Transport::shared_memory ? kSharedMemory : kNetwork;
  prices.round_ns +=
      kRoundNsPerExtraProcessPerCore * std::max(0.0, processes_per_core - 1);
  return prices;
}

double model_ns(const Prices& prices, const Traffic& traffic,
                std::size_t block_bytes) {
  const auto bytes = static_cast<double>(block_bytes);
  return prices.message_ns * traffic.messages +
         prices.round_ns * traffic.rounds +
         prices.byte_ns * bytes * traffic.blocks +
         2 * prices.copy_byte_ns * bytes * traffic.packed_blocks;
}

}  // namespace ortho::algorithms
