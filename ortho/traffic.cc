#include "ortho/traffic.h"

#include <algorithm>
#include <cstdint>

#include "classic/base/constants.h"
#include "ortho/algorithms/combining.h"
#include "ortho/algorithms/common_neighbours.h"
#include "ortho/algorithms/cost_model.h"
#include "ortho/algorithms/node_aware.h"
#include "ortho/internal/exchange.h"
#include "ortho/internal/table.h"
#include "stencils/schedule.h"

namespace ortho {
namespace {

constexpr const char* kFunction = "ortho::traffic";

Traffic counted(const algorithms::Traffic& traffic, std::size_t block_bytes) {
  return {.messages = traffic.messages,
          .bytes = static_cast<std::int64_t>(traffic.blocks) *
                   static_cast<std::int64_t>(block_bytes),
          .rounds = traffic.rounds,
          .messages_between_hosts = std::nullopt,
          .bytes_between_hosts = std::nullopt};
}

std::optional<Traffic> combining_traffic(const algorithms::Combining& c,
                                         Operation operation,
                                         std::size_t block_bytes,
                                         classic::Mode mode) {
  switch (operation) {
    case Operation::allgather:
    case Operation::alltoall: {
      const algorithms::Traffic schedule = algorithms::combining_traffic(
          c, operation == Operation::allgather
                 ? stencils::Collective::allgather
                 : stencils::Collective::alltoall);
      Traffic traffic = counted(schedule, block_bytes);
      // Messages the plans send as two at the eager limit.
      traffic.messages += algorithms::split_messages(schedule, block_bytes,
                                                     c.prices.eager_bytes);
      return traffic;
    }
    case Operation::alltoallv:
    case Operation::alltoallw: {
      const algorithms::Traffic schedule =
          algorithms::combining_traffic(c, stencils::Collective::alltoall);
      if (mode == classic::Mode::persistent) {
        return counted(schedule, block_bytes);
      }
      return Traffic{.messages = 2 * schedule.messages,
                     .bytes = static_cast<std::int64_t>(schedule.blocks) *
                              static_cast<std::int64_t>(block_bytes +
                                                        sizeof(std::int64_t)),
                     .rounds = 2 * schedule.rounds,
                     .messages_between_hosts = std::nullopt,
                     .bytes_between_hosts = std::nullopt};
    }
    case Operation::allreduce:
      if (c.box_depth > 0) {
        return counted(algorithms::box_allreduce_traffic(c), block_bytes);
      }
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

// Messages and bytes of `routes` (node_aware's or common_neighbours') for
// `operation` on process `rank`; between hosts, those to other hosts.
Traffic routes_traffic(const algorithms::node_routes::Routes& routes,
                       const Table& table, int rank, Operation operation,
                       std::size_t block_bytes, classic::Mode mode) {
  Traffic traffic{.messages = 0,
                  .bytes = 0,
                  .rounds = 0,
                  .messages_between_hosts = 0,
                  .bytes_between_hosts = 0};
  const int host = table.host_of_rank.empty()
                       ? 0
                       : table.host_of_rank[static_cast<std::size_t>(rank)];
  for (const auto& step : routes.steps) {
    if (!step.sends.empty()) ++traffic.rounds;
    for (const auto& send : step.sends) {
      const auto bytes = static_cast<std::int64_t>(send.slots.size()) *
                         static_cast<std::int64_t>(block_bytes);
      ++traffic.messages;
      traffic.bytes += bytes;
      if (!table.host_of_rank.empty() &&
          table.host_of_rank[static_cast<std::size_t>(send.peer)] != host) {
        ++*traffic.messages_between_hosts;
        *traffic.bytes_between_hosts += bytes;
      }
    }
  }
  const bool sized = algorithms::NodeAware::exchanges_sizes(operation) &&
                     mode != classic::Mode::persistent;
  if (sized) {  // the size exchange: the same messages, 8 bytes a block
    const std::int64_t blocks =
        traffic.bytes /
        std::max<std::int64_t>(1, static_cast<std::int64_t>(block_bytes));
    traffic.messages *= 2;
    traffic.rounds *= 2;
    *traffic.messages_between_hosts *= 2;
    traffic.bytes += blocks * static_cast<std::int64_t>(sizeof(std::int64_t));
  }
  return traffic;
}

}  // namespace

std::optional<Traffic> traffic(const classic::Comm& comm, Operation operation,
                               std::string_view algorithm,
                               std::size_t block_bytes, classic::Mode mode) {
  const Table& table = internal::table_of(comm, kFunction);
  if (table.structure != Structure::directed_graph) return std::nullopt;
  if (algorithm == "direct") {
    const auto edges = static_cast<int>(
        std::count_if(table.destinations.begin(), table.destinations.end(),
                      [](int peer) { return peer != classic::proc_null; }));
    Traffic traffic{.messages = edges,
                    .bytes = static_cast<std::int64_t>(edges) *
                             static_cast<std::int64_t>(block_bytes),
                    .rounds = edges > 0 ? 1 : 0,
                    .messages_between_hosts = std::nullopt,
                    .bytes_between_hosts = std::nullopt};
    if (table.combining) {
      traffic =
          counted(algorithms::direct_traffic(*table.combining), block_bytes);
    }
    if (!table.host_of_rank.empty()) {
      const int mine =
          table.host_of_rank[static_cast<std::size_t>(comm.rank())];
      const auto crossing = static_cast<int>(std::count_if(
          table.destinations.begin(), table.destinations.end(), [&](int peer) {
            return peer != classic::proc_null && peer != comm.rank() &&
                   table.host_of_rank[static_cast<std::size_t>(peer)] != mine;
          }));
      traffic.messages_between_hosts = crossing;
      traffic.bytes_between_hosts = static_cast<std::int64_t>(crossing) *
                                    static_cast<std::int64_t>(block_bytes);
    }
    return traffic;
  }
  if (algorithm == "node_aware") {
    if (table.node_aware == nullptr || (!algorithms::is_exchange(operation) &&
                                        operation != Operation::allreduce)) {
      return std::nullopt;
    }
    return routes_traffic(table.node_aware->routes(operation), table,
                          comm.rank(), operation, block_bytes, mode);
  }
  if (algorithm == "common_neighbours") {
    if (table.common_neighbours == nullptr ||
        !algorithms::is_exchange(operation)) {
      return std::nullopt;
    }
    return routes_traffic(table.common_neighbours->routes(operation), table,
                          comm.rank(), operation, block_bytes, mode);
  }
  if (algorithm != "combining" || !table.combining) return std::nullopt;
  return combining_traffic(*table.combining, operation, block_bytes, mode);
}

}  // namespace ortho
