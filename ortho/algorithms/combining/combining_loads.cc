#include "ortho/algorithms/combining/combining_loads.h"

#include <cstddef>

#include "classic/base/constants.h"

namespace ortho::algorithms::combining_loads {

Rounds messages_of(std::span<const stencils::Round> rounds,
                   const naming::Geometry& geometry,
                   std::span<const int> host_of_rank) {
  const int size = geometry.size();
  Rounds result(rounds.size(), std::vector<std::vector<Message>>(
                                   static_cast<std::size_t>(size)));
  for (std::size_t r = 0; r < rounds.size(); ++r) {
    for (int p = 0; p < size; ++p) {
      std::vector<Message>& sent = result[r][static_cast<std::size_t>(p)];
      for (const stencils::Message& message : rounds[r].messages) {
        const int to = geometry.relative_rank(p, message.hop);
        if (to == classic::proc_null || to == p) continue;
        int blocks = 0;
        for (const stencils::BlockMove& move : message.moves) {
          if (stencils::move_active(geometry, p, move)) ++blocks;
        }
        if (blocks == 0) continue;
        sent.push_back(
            {.blocks = blocks,
             .between_hosts = host_of_rank[static_cast<std::size_t>(to)] !=
                              host_of_rank[static_cast<std::size_t>(p)],
             .to = to});
      }
    }
  }
  return result;
}

}  // namespace ortho::algorithms::combining_loads
