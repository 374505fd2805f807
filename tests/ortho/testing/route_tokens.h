// Running routes (ortho/algorithms/node_aware/node_aware_routes.h) in memory,
// for the tests of the algorithms that build them (node_aware,
// common_neighbours): every block is a token naming its source and send block,
// each process's receive blocks and scratch slots hold tokens, and the
// brute-force answer says which token each receive block must end with.
// White-box: include only from targets with INSIDE_ORTHO.
#ifndef ORTHOCOMM_TESTS_ORTHO_TESTING_ROUTE_TOKENS_H_
#define ORTHOCOMM_TESTS_ORTHO_TESTING_ROUTE_TOKENS_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <map>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "ortho/algorithms/node_aware/node_aware_routes.h"

namespace ortho_testing {

using ortho::algorithms::node_routes::HostGraph;
using ortho::algorithms::node_routes::Payload;
using ortho::algorithms::node_routes::Routes;
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

// The messages of one step: (from, to, tag) -> the blocks of the one
// message.
using StepMessages = std::map<std::tuple<int, int, int>, std::vector<Token>>;

// Runs every process's routes (`all`, by rank) in memory, step by step,
// into `memory`: each message must be received exactly once, by the peer
// it names with its tag, with as many blocks as were sent. Fails the test
// where not (check HasFatalFailure()). With `messages`, keeps every step's
// messages there.
inline void run_routes(const RouteGraph& g, std::span<const Routes> all,
                       Payload payload, const std::string& label,
                       std::vector<Memory>& memory,
                       std::vector<StepMessages>* messages = nullptr) {
  const std::size_t size = g.sources.size();
  ASSERT_EQ(all.size(), size) << label;
  memory.clear();
  for (std::size_t r = 0; r < size; ++r) {
    ASSERT_EQ(all[r].steps.size(), 3u) << label;
    ASSERT_EQ(all[r].lands_in.size(),
              static_cast<std::size_t>(all[r].scratch_slots))
        << label;
    memory.emplace_back(g.sources[r].size(), all[r].scratch_slots);
  }
  for (std::size_t step = 0; step < 3; ++step) {
    StepMessages sent;
    for (std::size_t r = 0; r < size; ++r) {
      for (const auto& t : all[r].steps[step].sends) {
        const auto key = std::make_tuple(static_cast<int>(r), t.peer, t.tag);
        ASSERT_FALSE(sent.contains(key))
            << label << ": two messages " << r << "->" << t.peer;
        for (const Slot& slot : t.slots) {
          sent[key].push_back(
              read(memory[r], static_cast<int>(r), slot, payload));
        }
      }
    }
    if (messages != nullptr) messages->push_back(sent);
    for (std::size_t r = 0; r < size; ++r) {
      for (const auto& t : all[r].steps[step].receives) {
        auto it =
            sent.find(std::make_tuple(t.peer, static_cast<int>(r), t.tag));
        ASSERT_NE(it, sent.end()) << label << ": " << r << " waits for "
                                  << t.peer << " in step " << step;
        ASSERT_EQ(it->second.size(), t.slots.size()) << label;
        for (std::size_t b = 0; b < t.slots.size(); ++b) {
          write(memory[r], t.slots[b], it->second[b]);
        }
        sent.erase(it);
      }
    }
    ASSERT_TRUE(sent.empty())
        << label << ": a message nobody receives in step " << step;
    for (std::size_t r = 0; r < size; ++r) {
      for (const auto& c : all[r].steps[step].copies) {
        write(memory[r], {Slot::Kind::recv, c.to},
              read(memory[r], static_cast<int>(r), c.from, payload));
      }
    }
  }
}

// Every receive block written exactly once, with the block MPI's pairing
// of its edge names.
inline void expect_delivered(const RouteGraph& g,
                             const std::vector<Memory>& memory, Payload payload,
                             const std::string& label) {
  for (std::size_t d = 0; d < g.sources.size(); ++d) {
    for (std::size_t j = 0; j < g.sources[d].size(); ++j) {
      EXPECT_EQ(memory[d].recv[j],
                expected(g, static_cast<int>(d), static_cast<int>(j), payload))
          << label << ": rank " << d << " block " << j;
      EXPECT_EQ(memory[d].writes[j], 1)
          << label << ": rank " << d << " block " << j << " written";
    }
  }
}

}  // namespace ortho_testing

#endif  // ORTHOCOMM_TESTS_ORTHO_TESTING_ROUTE_TOKENS_H_
