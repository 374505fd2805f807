#include "ortho/algorithms/registry.h"

#include <algorithm>

namespace ortho::algorithms {

// Each defined in its algorithm's file (constant-initialised: the list is
// complete before any table is made). One line here and one in the list
// below per algorithm.
extern const Registration kNative;            // native.cc
extern const Registration kDirect;            // direct.cc
extern const Registration kPerPeer;           // per_peer.cc
extern const Registration kCombining;         // combining/
extern const Registration kBoxAllreduce;      // combining/box_allreduce.cc
extern const Registration kPairwise;          // pairwise.cc
extern const Registration kNodeAware;         // node_aware/
extern const Registration kCommonNeighbours;  // common_neighbours/
extern const Registration kMpi;               // mpi.cc
extern const Registration kSpreadRelays;      // spread_relays/

std::span<const Registration* const> registry() {
  // The order does not matter: each analysis learns only what its own
  // algorithm needs (what another algorithm builds from it, it builds when
  // first priced, after every analysis), and the choice compares prices
  // (internal/choose.h).
  static constexpr const Registration* kAll[] = {
      &kNative,   &kDirect,    &kPerPeer,          &kCombining, &kBoxAllreduce,
      &kPairwise, &kNodeAware, &kCommonNeighbours, &kMpi,       &kSpreadRelays,
  };
  return kAll;
}

std::vector<std::string_view> registered_names() {
  std::vector<std::string_view> names;
  for (const Registration* registration : registry()) {
    const std::string_view name = registration->algorithm.name;
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      names.push_back(name);
    }
  }
  return names;
}

}  // namespace ortho::algorithms
