#include "ortho/traffic.h"

#include <algorithm>
#include <cstdint>

#include "classic/base/constants.h"
#include "ortho/algorithms/combining.h"
#include "ortho/internal/table.h"
#include "stencils/schedule.h"

namespace ortho {
namespace {

constexpr const char* kFunction = "ortho::traffic";

Traffic counted(const algorithms::Traffic& traffic, std::size_t block_bytes) {
  return {.messages = traffic.messages,
          .bytes = static_cast<std::int64_t>(traffic.blocks) *
                   static_cast<std::int64_t>(block_bytes),
          .rounds = traffic.rounds};
}

std::optional<Traffic> combining_traffic(const algorithms::Combining& c,
                                         Operation operation,
                                         std::size_t block_bytes,
                                         classic::Mode mode) {
  switch (operation) {
    case Operation::allgather:
      return counted(
          algorithms::combining_traffic(c, stencils::Collective::allgather),
          block_bytes);
    case Operation::alltoall:
      return counted(
          algorithms::combining_traffic(c, stencils::Collective::alltoall),
          block_bytes);
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
                     .rounds = 2 * schedule.rounds};
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

}  // namespace

std::optional<Traffic> traffic(const classic::Comm& comm, Operation operation,
                               std::string_view algorithm,
                               std::size_t block_bytes, classic::Mode mode) {
  const Table& table = internal::table_of(comm, kFunction);
  if (table.structure != Structure::directed_graph) return std::nullopt;
  if (algorithm == "direct") {
    if (table.combining) {
      return counted(algorithms::direct_traffic(*table.combining), block_bytes);
    }
    const auto edges = static_cast<int>(
        std::count_if(table.destinations.begin(), table.destinations.end(),
                      [](int peer) { return peer != classic::proc_null; }));
    return Traffic{.messages = edges,
                   .bytes = static_cast<std::int64_t>(edges) *
                            static_cast<std::int64_t>(block_bytes),
                   .rounds = edges > 0 ? 1 : 0};
  }
  if (algorithm != "combining" || !table.combining) return std::nullopt;
  return combining_traffic(*table.combining, operation, block_bytes, mode);
}

}  // namespace ortho
