#include "ortho/algorithms/model_crossovers.h"

#include <algorithm>

namespace ortho::algorithms {
namespace {

using node_routes::HostGraph;

// The largest size, at most `most_bytes`, up to which `faster` holds;
// none where it does not hold on empty blocks. The models are piecewise
// linear in the block size, with steps where a message passes an eager
// limit: doubling finds a size where `faster` stops holding, bisection the
// last size before it (exact where it changes once between the two).
template <class Faster>
std::optional<std::size_t> faster_up_to(Faster faster, std::size_t most_bytes) {
  if (!faster(0)) return std::nullopt;
  std::size_t low = 0;
  std::size_t high = 1;
  while (high <= most_bytes && faster(high)) {
    low = high;
    high *= 2;
  }
  if (high > most_bytes) {
    if (faster(most_bytes)) return most_bytes;
    high = most_bytes;
  }
  while (high - low > 1) {
    const std::size_t middle = low + (high - low) / 2;
    (faster(middle) ? low : high) = middle;
  }
  return low;
}

}  // namespace

std::optional<std::size_t> cheaper_up_to(const Prices& prices,
                                         const Traffic& direct,
                                         const Traffic& mine,
                                         std::size_t most_bytes) {
  // The model is piecewise linear with steps (rendezvous): a scan finds
  // the first size where `mine` stops being cheaper.
  for (std::size_t bytes = 0; bytes <= most_bytes; ++bytes) {
    if (model_ns(prices, mine, bytes) >= model_ns(prices, direct, bytes)) {
      if (bytes == 0) return std::nullopt;
      return bytes - 1;
    }
  }
  return most_bytes;
}

std::optional<std::size_t> node_aware_up_to(const HostGraph& graph,
                                            node_routes::Payload payload,
                                            const HostPrices& prices,
                                            std::size_t most_bytes) {
  const std::vector<node_routes::Load> mine =
      node_routes::loads(graph, payload);
  const auto faster = [&](std::size_t bytes) {
    return node_aware_call_ns(graph, mine, prices, bytes) <
           direct_call_ns(graph, prices, bytes);
  };
  return faster_up_to(faster, most_bytes);
}

std::optional<std::size_t> common_neighbours_up_to(
    const HostGraph& graph, const common_routes::Grouping& grouping,
    node_routes::Payload payload, const HostPrices& prices,
    std::optional<std::size_t> node_aware_up_to, std::size_t most_bytes) {
  const std::vector<common_routes::Load> mine =
      common_routes::loads(graph, grouping, payload);
  std::vector<node_routes::Load> node_aware;
  if (node_aware_up_to) node_aware = node_routes::loads(graph, payload);
  const auto faster = [&](std::size_t bytes) {
    const double ns = common_neighbours_call_ns(graph, mine, prices, bytes);
    if (node_aware_up_to && bytes <= *node_aware_up_to &&
        ns >= node_aware_call_ns(graph, node_aware, prices, bytes)) {
      return false;
    }
    return ns < direct_call_ns(graph, prices, bytes);
  };
  return faster_up_to(faster, most_bytes);
}

std::vector<FastestStep> fastest_steps(const HostGraph& graph,
                                       node_routes::Payload payload,
                                       const combining_loads::Rounds& rounds,
                                       const HostPrices& prices,
                                       std::size_t split_eager_bytes,
                                       std::size_t most_bytes,
                                       std::size_t combining_most_bytes) {
  const std::vector<node_routes::Load> mine =
      node_routes::loads(graph, payload);
  const auto fastest = [&](std::size_t bytes) {
    const double direct_time = direct_call_ns(graph, prices, bytes);
    const double node_aware_time =
        node_aware_call_ns(graph, mine, prices, bytes);
    Fastest best =
        node_aware_time < direct_time ? Fastest::node_aware : Fastest::direct;
    if (bytes <= combining_most_bytes &&
        combining_call_ns(graph, rounds, prices, bytes, split_eager_bytes) <
            std::min(direct_time,
                     kCombiningShareOfNodeAware * node_aware_time)) {
      best = Fastest::combining;
    }
    return best;
  };
  // Sizes 0, 1, 2, 4, ..., most_bytes, combining_most_bytes (where
  // combining drops out) and every size where a message passes an eager
  // limit (a rendezvous or a split makes the times jump there); between
  // two of them the times are straight lines, whose crossing is found
  // exactly.
  std::vector<std::size_t> sizes = {0, combining_most_bytes,
                                    combining_most_bytes + 1};
  for (std::size_t bytes = 1; bytes < most_bytes; bytes *= 2) {
    sizes.push_back(bytes);
  }
  std::vector<int> message_blocks = {1};
  for (const auto& messages_of_rank : rounds) {
    for (const auto& messages : messages_of_rank) {
      for (const combining_loads::Message& message : messages) {
        message_blocks.push_back(message.blocks);
        message_blocks.push_back((message.blocks + 1) / 2);
      }
    }
  }
  for (const node_routes::Load& load : mine) {
    for (const node_routes::StepLoad& step : load) {
      message_blocks.push_back(step.largest_message_blocks);
    }
  }
  std::sort(message_blocks.begin(), message_blocks.end());
  message_blocks.erase(
      std::unique(message_blocks.begin(), message_blocks.end()),
      message_blocks.end());
  for (const double eager :
       {prices.within.eager_bytes, prices.between.eager_bytes,
        static_cast<double>(split_eager_bytes)}) {
    for (const int blocks : message_blocks) {
      if (blocks <= 0) continue;
      const auto edge = static_cast<std::size_t>(eager / blocks);
      sizes.push_back(edge);
      sizes.push_back(edge + 1);
    }
  }
  sizes.push_back(most_bytes);
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  while (sizes.back() > most_bytes) sizes.pop_back();
  std::vector<FastestStep> steps = {{0, fastest(0)}};
  for (std::size_t i = 1; i < sizes.size(); ++i) {
    std::size_t low = sizes[i - 1];  // fastest(low) is steps.back()'s
    const std::size_t high = sizes[i];
    // Each change up to `high`: the first size past `low` where another
    // algorithm is the fastest, found by bisection.
    while (fastest(high) != steps.back().fastest) {
      std::size_t changed = high;
      while (changed - low > 1) {
        const std::size_t middle = low + (changed - low) / 2;
        (fastest(middle) == steps.back().fastest ? low : changed) = middle;
      }
      steps.back().up_to = low;
      steps.push_back({changed, fastest(changed)});
      low = changed;
    }
    steps.back().up_to = high;
  }
  return steps;
}

}  // namespace ortho::algorithms
