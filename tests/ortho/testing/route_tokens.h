// Running routes (ortho/algorithms/node_aware_routes.h) in memory, for the
// tests of the algorithms that build them (node_aware, common_neighbours):
// every block is a token naming its source and send block, each process's
// receive blocks and scratch slots hold tokens, and the brute-force answer
// says which token each receive block must end with. White-box: include
// only from targets with INSIDE_ORTHO.
#ifndef ORTHOCOMM_TESTS_ORTHO_TESTING_ROUTE_TOKENS_H_
#define ORTHOCOMM_TESTS_ORTHO_TESTING_ROUTE_TOKENS_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "ortho/algorithms/node_aware_routes.h"

namespace ortho_testing {

using ortho::algorithms::node_routes::HostGraph;
using ortho::algorithms::node_routes::Payload;
using ortho::algorithms::node_routes::Slot;

// A block's identity: its source and its send block (per_source: -1).
using Token = std::pair<int, int>;
inline constexpr Token kEmpty{-1, -2};

// The whole graph, and every process's sources in the order it lists them.
struct RouteGraph {
  HostGraph host_graph;
  std::vector<std::vector<int>> sources;
};

// What receive block j of rank d must hold: the m-th edge from s to d,
// where j is the m-th occurrence of s among d's sources.
inline Token expected(const RouteGraph& g, int d, int j, Payload payload) {
  const std::vector<int>& in = g.sources[static_cast<std::size_t>(d)];
  const int s = in[static_cast<std::size_t>(j)];
  if (payload == Payload::per_source) return {s, -1};
  const auto m = std::count(in.begin(), in.begin() + j, s);
  const std::vector<int>& out =
      g.host_graph.destinations[static_cast<std::size_t>(s)];
  std::ptrdiff_t seen = 0;
  for (std::size_t k = 0; k < out.size(); ++k) {
    if (out[k] == d && seen++ == m) return {s, static_cast<int>(k)};
  }
  return kEmpty;
}

// One process's memory: its receive blocks (and how often each was
// written) and its scratch slots.
struct Memory {
  std::vector<Token> recv;
  std::vector<int> writes;
  std::vector<Token> scratch;

  Memory() = default;
  Memory(std::size_t receive_blocks, int scratch_slots)
      : recv(receive_blocks, kEmpty),
        writes(receive_blocks, 0),
        scratch(static_cast<std::size_t>(scratch_slots), kEmpty) {}
};

// The token in `slot` of process `rank`.
inline Token read(const Memory& m, int rank, Slot slot, Payload payload) {
  switch (slot.kind) {
    case Slot::Kind::send:
      return {rank, payload == Payload::per_source ? -1 : slot.index};
    case Slot::Kind::recv:
      return m.recv.at(static_cast<std::size_t>(slot.index));
    case Slot::Kind::scratch:
      return m.scratch.at(static_cast<std::size_t>(slot.index));
  }
  return kEmpty;
}

inline void write(Memory& m, Slot slot, Token token) {
  ASSERT_NE(slot.kind, Slot::Kind::send) << "a receive into a send block";
  if (slot.kind == Slot::Kind::recv) {
    ++m.writes.at(static_cast<std::size_t>(slot.index));
  }
  auto& space = slot.kind == Slot::Kind::recv ? m.recv : m.scratch;
  space.at(static_cast<std::size_t>(slot.index)) = token;
}

}  // namespace ortho_testing

#endif  // ORTHOCOMM_TESTS_ORTHO_TESTING_ROUTE_TOKENS_H_
