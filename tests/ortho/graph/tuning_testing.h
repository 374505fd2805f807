// What the tuning tests share (tuning_test, wisdom_test): injected times
// that every process can compute, the brute-force winner, and call loops
// that check every result against Open MPI's neighbour collectives.
#ifndef ORTHOCOMM_TESTS_ORTHO_GRAPH_TUNING_TESTING_H_
#define ORTHOCOMM_TESTS_ORTHO_GRAPH_TUNING_TESTING_H_

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "classic/comm/comm.h"
#include "classic/p2p/request.h"
#include "ortho/collectives.h"
#include "ortho/explain.h"
#include "ortho/internal/table.h"
#include "ortho/internal/tuning.h"
#include "ortho/internal/tuning_race.h"
#include "tests/ortho/graph/graph_testing.h"

namespace ortho_tuning_testing {

using classic::Comm;
using ortho_graph_testing::at;
using ortho_graph_testing::bits;
using ortho_graph_testing::Construction;
using ortho_graph_testing::Graph;
using ortho_graph_testing::mix;
using ortho_graph_testing::OpenMpiGraph;
using ortho_graph_testing::Random;

constexpr unsigned kSeed = 0x7a11e5u;
constexpr int kGraphs = 6;
// More calls than any tuning takes.
constexpr int kCalls = 150;
constexpr int kBlock = 3;  // ints per block

static_assert(
    ortho::internal::Race::most_runs(ortho::internal::kMostCandidates) + 2 <=
    kCalls);

// What process `rank` reports for a run of `algorithm` in the test numbered
// `salt`: 1 us to 1 ms, a function of the three alone.
inline double injected(unsigned salt, int rank, std::string_view algorithm) {
  std::uint64_t h = mix(salt) + static_cast<std::uint64_t>(rank);
  for (const char c : algorithm) h = mix(h + static_cast<unsigned char>(c));
  return 1e-6 * static_cast<double>(1 + h % 1000);
}

// What process 0 reports for the barrier that begins a blocking turn;
// process r reports r + 1 times as much (the tuning's cost takes the
// least).
constexpr double kBarrierSeconds = 2e-6;

// The tuning clock of process `me` in a test whose runs take `time`
// (rank, algorithm); the turns' barriers as kBarrierSeconds says.
inline std::function<double(std::string_view, double)> tuning_clock(
    std::function<double(int, std::string_view)> time, int me) {
  return [time = std::move(time), me](std::string_view name, double) {
    return name == ortho::internal::kBarrierClockName
               ? kBarrierSeconds * (1 + me)
               : time(me, name);
  };
}

// The brute-force winner among the measured algorithms of `explanation`,
// each checked at its slowest process's time: the fastest, unless the
// incumbent measured within 1 / kDisplacesBaseline of it: on one host the
// model's choice where it is no baseline (the lowest modelled price at the
// smallest size of the band, as tuning takes it; the baseline, direct, on
// a tie); otherwise the fastest of the baselines measured (direct, native,
// mpi), or where none was, the model's choice.
inline std::string expected_winner(
    const Comm& comm, const ortho::Explanation& explanation, int size,
    const std::function<double(int, std::string_view)>& time) {
  std::string best;
  double best_s = std::numeric_limits<double>::infinity();
  int measured = 0;
  std::map<std::string, double, std::less<>> slowest_of;
  for (const ortho::Explanation::Offered& offered : explanation.offered) {
    if (!offered.measured_ns) continue;
    ++measured;
    double slowest = 0;
    for (int r = 0; r < size; ++r) {
      slowest = std::max(slowest, time(r, offered.algorithm));
    }
    slowest_of[offered.algorithm] = slowest;
    EXPECT_DOUBLE_EQ(*offered.measured_ns, slowest * 1e9) << offered.algorithm;
    if (slowest < best_s) {
      best_s = slowest;
      best = offered.algorithm;
    }
  }
  EXPECT_GE(measured, 2) << ortho::to_string(explanation);
  const std::size_t bytes = explanation.block_bytes;
  const std::size_t smallest =
      bytes == 0 ? 0 : std::size_t{1} << (std::bit_width(bytes) - 1);
  const ortho::Explanation prices =
      ortho::explain(comm, explanation.operation, smallest, explanation.mode);
  // The model's choice: the lowest price, the baseline (direct) on a tie.
  std::string model;
  double lowest = std::numeric_limits<double>::infinity();
  for (const ortho::Explanation::Offered& offered : prices.offered) {
    if (!offered.modelled_ns) continue;
    if (*offered.modelled_ns < lowest ||
        (*offered.modelled_ns == lowest && offered.algorithm == "direct")) {
      lowest = *offered.modelled_ns;
      model = offered.algorithm;
    }
  }
  const auto is_baseline = [](const std::string& name) {
    return name == "direct" || name == "native" || name == "mpi";
  };
  // Still racing at the end: within kStaysInRace of the fastest.
  const auto racing = [&](const std::string& name) {
    const auto at = slowest_of.find(name);
    return at != slowest_of.end() &&
           at->second <= ortho::internal::kStaysInRace * best_s;
  };
  const bool hosts =
      ortho::internal::table_of(comm, "expected_winner").hosts() >= 2;
  std::string incumbent;
  if (!hosts && racing(model) && !is_baseline(model)) {
    incumbent = model;
  } else {
    for (const auto& [name, seconds] : slowest_of) {
      if (is_baseline(name) && racing(name) &&
          (incumbent.empty() || seconds < slowest_of[incumbent])) {
        incumbent = name;
      }
    }
    if (incumbent.empty() && racing(model)) incumbent = model;
  }
  if (!incumbent.empty() &&
      best_s > ortho::internal::kDisplacesBaseline * slowest_of[incumbent]) {
    return incumbent;
  }
  return best;
}

// The tuning's cost (ns) as the race's rules give it where every call of
// a candidate reports the same time (its slowest process's, measured_ns in
// `explanation`): every candidate runs a screening turn of
// kScreeningRunsPerTurn calls (the first, kWarmUpRuns more); those within
// kStaysScreening of the fastest stay (`screened`), and of them those within
// kStaysInRace stay on (`ranked`). A blocking call's agreements come right
// after their round: where one candidate alone was screened, the race ends
// there; otherwise the screened run a long turn (kRunsPerTurn calls), and where
// more than one is ranked, the ranked two more. A persistent request's
// agreements come one start late, so each round runs those racing when
// it began: after the screening, every candidate runs a long turn unless
// one alone was screened; the screened a second unless one alone was
// ranked; the ranked a third; the start that brings the last agreement is
// one more, of the first candidate still racing. Each call counts its
// time over the winner's. `order`: the candidates in the race's order.
inline double expected_tuning_cost_ns(const ortho::Explanation& explanation,
                                      const std::vector<std::string>& order,
                                      bool persistent) {
  using ortho::internal::kRunsPerTurn;
  using ortho::internal::kScreeningRunsPerTurn;
  std::map<std::string, double, std::less<>> time;
  for (const ortho::Explanation::Offered& offered : explanation.offered) {
    if (offered.measured_ns) time[offered.algorithm] = *offered.measured_ns;
  }
  double fastest = std::numeric_limits<double>::infinity();
  for (const std::string& name : order) fastest = std::min(fastest, time[name]);
  std::vector<bool> screened;
  std::vector<bool> ranked;
  for (const std::string& name : order) {
    screened.push_back(time[name] <=
                       ortho::internal::kStaysScreening * fastest);
    ranked.push_back(time[name] <= ortho::internal::kStaysInRace * fastest);
  }
  const auto count = [](const std::vector<bool>& in) {
    return std::count(in.begin(), in.end(), true);
  };
  const auto first_of = [](const std::vector<bool>& in) {
    return static_cast<std::size_t>(std::find(in.begin(), in.end(), true) -
                                    in.begin());
  };
  std::vector<std::size_t> runs(order.size(), kScreeningRunsPerTurn);
  runs[0] += ortho::internal::kWarmUpRuns;  // the race's first turn
  std::size_t last_start = 0;  // persistent: the one more start's candidate
  for (std::size_t c = 0; c < order.size(); ++c) {
    if (count(screened) <= 1) break;
    if (persistent || screened[c]) runs[c] += kRunsPerTurn;
    if (count(ranked) <= 1) continue;
    if (persistent ? screened[c] : ranked[c]) runs[c] += kRunsPerTurn;
    if (ranked[c]) runs[c] += kRunsPerTurn;
  }
  if (persistent) {
    last_start = count(screened) <= 1 ? 0
                 : count(ranked) <= 1 ? first_of(screened)
                                      : first_of(ranked);
    ++runs[last_start];
  }
  double cost = 0;
  std::size_t turns = 0;
  for (std::size_t c = 0; c < order.size(); ++c) {
    cost += static_cast<double>(runs[c]) *
            (time[order[c]] - time[explanation.selected]);
    // The warm-up runs (fewer than a turn) add none.
    turns += 1 + (runs[c] - kScreeningRunsPerTurn) / kRunsPerTurn;
  }
  // A blocking turn begins with a barrier; a persistent one cannot.
  if (!persistent) cost += static_cast<double>(turns) * kBarrierSeconds * 1e9;
  return cost;
}

inline Graph graph_with_edges(Random& shared, int size) {
  for (;;) {
    Graph graph = ortho_graph_testing::random_graph(
        shared, size, Construction::adjacent_unweighted);
    if (!graph.edges.empty()) return graph;
  }
}

// Blocking alltoall of `block` ints per block, `calls` times with new data,
// each against Open MPI.
inline void alltoall_calls(const Comm& comm, const OpenMpiGraph& reference,
                           const Graph& graph, unsigned salt,
                           int block = kBlock, int calls = kCalls) {
  const int me = comm.rank();
  const std::size_t out =
      at(graph.outdegree(me)) * static_cast<std::size_t>(block);
  const std::size_t in =
      at(graph.indegree(me)) * static_cast<std::size_t>(block);
  for (int call = 0; call < calls; ++call) {
    std::vector<int> send(out);
    for (std::size_t i = 0; i < out; ++i) {
      send[i] =
          bits(salt + static_cast<unsigned>(call), me, static_cast<int>(i));
    }
    std::vector<int> got(in, -7);
    std::vector<int> want(in, -7);
    ortho::alltoall(comm, std::span<const int>(send), std::span<int>(got));
    MPI_Neighbor_alltoall(ortho_graph_testing::array(send), block, MPI_INT,
                          want.data(), block, MPI_INT, reference.get());
    ASSERT_EQ(got, want) << "blocking call " << call << ", " << block
                         << " ints a block";
  }
}

// A persistent alltoallv of 2 ints per block, started kCalls times with new
// data, each against Open MPI.
inline void alltoallv_starts(const Comm& comm, const OpenMpiGraph& reference,
                             const Graph& graph, unsigned salt) {
  const int me = comm.rank();
  const std::vector<int> sendcounts(at(graph.outdegree(me)), 2);
  const std::vector<int> recvcounts(at(graph.indegree(me)), 2);
  std::vector<int> sdispls(sendcounts.size());
  std::vector<int> rdispls(recvcounts.size());
  for (std::size_t i = 0; i < sdispls.size(); ++i) {
    sdispls[i] = 2 * static_cast<int>(i);
  }
  for (std::size_t i = 0; i < rdispls.size(); ++i) {
    rdispls[i] = 2 * static_cast<int>(i);
  }
  std::vector<int> send(2 * sendcounts.size());
  std::vector<int> got(2 * recvcounts.size());
  classic::Request request =
      ortho::alltoallv_init(comm, send.data(), sendcounts, sdispls, MPI_INT,
                            got.data(), recvcounts, rdispls, MPI_INT);
  for (int start = 0; start < kCalls; ++start) {
    for (std::size_t i = 0; i < send.size(); ++i) {
      send[i] = bits(salt + 100 + static_cast<unsigned>(start), me,
                     static_cast<int>(i));
    }
    std::fill(got.begin(), got.end(), -7);
    classic::start(request);
    classic::wait(request);
    std::vector<int> want(got.size() + 1, -7);  // never empty (Open MPI)
    MPI_Neighbor_alltoallv(ortho_graph_testing::array(send),
                           ortho_graph_testing::array(sendcounts),
                           ortho_graph_testing::array(sdispls), MPI_INT,
                           want.data(), ortho_graph_testing::array(recvcounts),
                           ortho_graph_testing::array(rdispls), MPI_INT,
                           reference.get());
    want.pop_back();
    ASSERT_EQ(got, want) << "start " << start;
  }
}

}  // namespace ortho_tuning_testing

#endif  // ORTHOCOMM_TESTS_ORTHO_GRAPH_TUNING_TESTING_H_
