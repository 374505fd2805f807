#include "classic/p2p/peer_restriction.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/error.h"
#include "classic/comm/internal/comm_state.h"
#include "classic/p2p/internal/restriction.h"

namespace classic {
namespace {

// `ranks` without proc_null, sorted and distinct, each checked.
std::vector<int> peer_set(std::span<const int> ranks, int size,
                          const char* name) {
  std::vector<int> set;
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    if (ranks[i] == proc_null) continue;
    if (ranks[i] < 0 || ranks[i] >= size) {
      throw Error(ErrorClass::rank, "classic::restrict_peers",
                  std::string(name) + "[" + std::to_string(i) +
                      "] = " + std::to_string(ranks[i]) + " is outside [0, " +
                      std::to_string(size) + ")");
    }
    set.push_back(ranks[i]);
  }
  std::sort(set.begin(), set.end());
  set.erase(std::unique(set.begin(), set.end()), set.end());
  return set;
}

[[noreturn]] void raise_peer(int rank, int peer, const char* direction,
                             const char* function) {
  throw Error(ErrorClass::rank, function,
              std::string(direction) + " rank " + std::to_string(peer) +
                  ", which is not a" +
                  (direction[0] == 't' ? "n out" : "n in") +
                  "-neighbour of rank " + std::to_string(rank) +
                  " (point-to-point restricted to neighbours)");
}

bool contains(const std::vector<int>& set, int peer) {
  return std::binary_search(set.begin(), set.end(), peer);
}

}  // namespace

void restrict_peers(const Comm& comm, std::span<const int> sources,
                    std::span<const int> destinations) {
  Comm::State& state =
      internal::CommAccess::intra_state(comm, "classic::restrict_peers");
  auto restriction = std::make_shared<Comm::State::PeerRestriction>();
  restriction->destinations =
      peer_set(destinations, state.local.size(), "destinations");
  restriction->sources = peer_set(sources, state.local.size(), "sources");
  state.restriction = std::move(restriction);
}

void unrestrict_peers(const Comm& comm) {
  internal::CommAccess::state(comm, "classic::unrestrict_peers").restriction =
      nullptr;
}

bool peers_restricted(const Comm& comm) {
  return internal::CommAccess::state(comm, "classic::peers_restricted")
             .restriction != nullptr;
}

namespace internal {

void check_send_peer(const Comm::State& state, int peer, const char* function) {
  if (state.restriction == nullptr || peer == proc_null) return;
  if (!contains(state.restriction->destinations, peer)) {
    raise_peer(state.rank, peer, "to", function);
  }
}

void check_receive_peer(const Comm::State& state, int peer,
                        const char* function) {
  if (state.restriction == nullptr || peer == proc_null || peer == any_source) {
    return;
  }
  if (!contains(state.restriction->sources, peer)) {
    raise_peer(state.rank, peer, "from", function);
  }
}

void check_arrival(const Comm::State& state, int source, const char* function) {
  if (state.restriction == nullptr || source == proc_null) return;
  if (!contains(state.restriction->sources, source)) {
    raise_peer(state.rank, source, "from", function);
  }
}

void check_source_in(const std::vector<int>& sources, int rank, int source,
                     const char* function) {
  if (source == proc_null || contains(sources, source)) return;
  raise_peer(rank, source, "from", function);
}

}  // namespace internal
}  // namespace classic
