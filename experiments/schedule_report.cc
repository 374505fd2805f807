// Prints the structure of the message-combining schedules (Traff & Hunold,
// ICPP 2019) next to the direct algorithm for von Neumann and Moore
// neighbourhoods: messages, rounds and blocks sent per process per call.
// These counts are exact and machine-independent.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "naming/geometry.h"
#include "stencils/neighborhood.h"
#include "stencils/schedule.h"
#include "stencils/structure.h"
#include "stencils/verifier.h"

namespace {

using stencils::Counters;
using stencils::Metric;
using stencils::Stencil;

Stencil negated(const Stencil& stencil) {
  std::vector<int> flat(stencil.flat().begin(), stencil.flat().end());
  for (int& x : flat) x = -x;
  return Stencil(stencil.ndims(), flat);
}

// A torus large enough that no offset wraps onto another.
naming::Geometry torus_for(int ndims, int depth) {
  const std::vector<int> dims(ndims, 2 * depth + 2);
  // std::vector<bool> cannot hand out a span.
  const auto periods = std::make_unique<bool[]>(ndims);
  std::fill_n(periods.get(), ndims, true);
  return naming::Geometry(dims, std::span<const bool>(periods.get(), ndims),
                          naming::Order::row_major);
}

std::string name_of(Metric metric, int ndims, int depth) {
  return std::string(metric == Metric::manhattan ? "von Neumann" : "Moore") +
         " d=" + std::to_string(ndims) + " r=" + std::to_string(depth);
}

void print_row(Metric metric, int ndims, int depth) {
  const Stencil targets = stencils::cart_stencil(ndims, metric, 1, depth);
  const Stencil sources = negated(targets);
  const auto geometry = torus_for(ndims, depth);
  const auto allgather =
      stencils::allgather_schedule(geometry, targets, sources);
  const auto alltoall = stencils::alltoall_schedule(geometry, targets, sources);
  const bool verified =
      stencils::verify(allgather, geometry, targets, sources).ok &&
      stencils::verify(alltoall, geometry, targets, sources).ok;
  const Counters direct = stencils::direct_counters(geometry, targets);
  const Counters gather = stencils::schedule_counters(allgather);
  const Counters all = stencils::schedule_counters(alltoall);
  std::printf("%-20s %4d | %6d %6d | %6d %6d %6d | %6d %6d %6d | %s\n",
              name_of(metric, ndims, depth).c_str(), targets.size(),
              direct.messages, direct.blocks, gather.messages, gather.rounds,
              gather.blocks, all.messages, all.rounds, all.blocks,
              verified ? "yes" : "NO");
}

}  // namespace

int main() {
  std::printf("Per process and call; direct = one message per neighbour.\n");
  std::printf("%-20s %4s | %-13s | %-20s | %-20s | %s\n", "stencil", "t",
              "direct", "allgather combining", "alltoall combining",
              "verified");
  std::printf("%-20s %4s | %6s %6s | %6s %6s %6s | %6s %6s %6s |\n", "", "",
              "msgs", "blocks", "msgs", "rounds", "blocks", "msgs", "rounds",
              "blocks");
  for (Metric metric : {Metric::manhattan, Metric::chebyshev}) {
    for (int ndims : {2, 3}) {
      for (int depth : {1, 2}) print_row(metric, ndims, depth);
    }
  }
  return 0;
}
