// What the direct neighbour collective delivers (direct_result.h).
#include "stencils/direct_result.h"

#include <algorithm>
#include <climits>
#include <cstddef>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/error.h"

namespace stencils::internal {
namespace {

using classic::ErrorClass;

// For one process: (neighbour rank, slot index) for every slot whose
// neighbour exists, sorted by rank and then slot, so the slots naming one
// neighbour form a run in order of occurrence.
using Incidence = std::vector<std::pair<int, int>>;

std::vector<Incidence> incidences(const naming::Geometry& geometry,
                                  const Stencil& stencil) {
  std::vector<Incidence> result(geometry.size());
  std::vector<int> ranks(stencil.size());
  for (int p = 0; p < geometry.size(); ++p) {
    if (geometry.ndims() == 0) {
      ranks.assign(stencil.size(), p);  // Every empty offset is p itself.
    } else {
      geometry.allranks_relative(p, stencil.flat(), ranks);
    }
    for (int i = 0; i < stencil.size(); ++i) {
      if (ranks[i] != classic::proc_null) result[p].emplace_back(ranks[i], i);
    }
    std::sort(result[p].begin(), result[p].end());
  }
  return result;
}

// The run of `list` whose neighbour is `rank`.
std::span<const std::pair<int, int>> run_of(const Incidence& list, int rank) {
  const auto low =
      std::lower_bound(list.begin(), list.end(), std::make_pair(rank, INT_MIN));
  const auto high =
      std::lower_bound(low, list.end(), std::make_pair(rank + 1, INT_MIN));
  return {low, high};
}

[[noreturn]] void inconsistent(int p, int q, std::size_t sent,
                               std::size_t received) {
  throw classic::Error(
      ErrorClass::topology, "stencils::verify",
      "rank " + std::to_string(p) + " lists rank " + std::to_string(q) + " " +
          std::to_string(sent) + " time(s) as a destination, but rank " +
          std::to_string(q) + " lists rank " + std::to_string(p) + " " +
          std::to_string(received) + " time(s) as a source");
}

}  // namespace

std::vector<std::vector<Label>> direct_result(const naming::Geometry& geometry,
                                              const Stencil& targets,
                                              const Stencil& sources,
                                              bool one_send_block) {
  const auto destinations = incidences(geometry, targets);
  const auto origins = incidences(geometry, sources);
  std::vector<std::vector<Label>> expected(geometry.size(),
                                           std::vector<Label>(sources.size()));
  for (int p = 0; p < geometry.size(); ++p) {
    const Incidence& sends = destinations[p];
    for (std::size_t first = 0; first < sends.size();) {
      const int q = sends[first].first;
      const auto sent = run_of(sends, q);
      const auto received = run_of(origins[q], p);
      if (sent.size() != received.size()) {
        inconsistent(p, q, sent.size(), received.size());
      }
      // The k-th send to q lands in q's k-th receive slot from p.
      for (std::size_t k = 0; k < sent.size(); ++k) {
        expected[q][received[k].second] = {p,
                                           one_send_block ? 0 : sent[k].second};
      }
      first += sent.size();
    }
  }
  // The mirror inconsistency: q names p as a source, p never names q.
  for (int q = 0; q < geometry.size(); ++q) {
    for (const auto& [p, j] : origins[q]) {
      if (run_of(destinations[p], q).empty()) {
        inconsistent(p, q, 0, run_of(origins[q], p).size());
      }
    }
  }
  return expected;
}

}  // namespace stencils::internal
