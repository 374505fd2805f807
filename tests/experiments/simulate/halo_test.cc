// The simulator's SpMV halos: the halo a matrix gives (halo_workload.h)
// against the SpMV experiment's own halo and local product of each
// process, and the bytes of
// every message along the routes where blocks differ in size
// (sized_flows.h) against the routes run in memory with tokens, each
// token's block counted at the size of its edge.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <span>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "experiments/simulate/exchange.h"
#include "experiments/simulate/halo_workload.h"
#include "experiments/simulate/points.h"
#include "experiments/simulate/sized_flows.h"
#include "experiments/simulate/workload.h"
#include "experiments/spmv/halo_plan.h"
#include "experiments/spmv/matrix_market.h"
#include "experiments/spmv/partition.h"
#include "ortho/algorithms/common_neighbours/common_neighbours_routes.h"
#include "ortho/algorithms/node_aware/node_aware_routes.h"
#include "ortho/algorithms/spread_relays/spread_relays_routes.h"
#include "tests/ortho/testing/route_tokens.h"

namespace {

namespace node_routes = ortho::algorithms::node_routes;
namespace common_routes = ortho::algorithms::common_routes;
namespace spread_routes = ortho::algorithms::spread_routes;
using simulate::Algorithm;
using simulate::MatrixPartition;
using simulate::Operation;
using simulate::Workload;

std::string data(const std::string& name) {
  return "experiments/spmv/data/" + name + ".mtx";
}

// The experiment's halo of every process (spmv::halo_plan, computed for
// one process at a time from the whole matrix), distributed as the
// experiment distributes it.
void expect_experiments_halo(const std::string& name, MatrixPartition partition,
                             int processes) {
  spmv::Matrix a = spmv::read_matrix(data(name));
  std::vector<int> rows;
  std::vector<int> columns;
  if (partition == MatrixPartition::metis) {
    const spmv::Partition parts = spmv::metis_parts(a, processes);
    a = spmv::reordered(a, parts.order);
    rows = columns = parts.begins;
  } else {
    rows = spmv::blocks(static_cast<int>(a.rows()), processes);
    columns = spmv::blocks(static_cast<int>(a.cols()), processes);
  }
  const Workload workload = simulate::halo_workload(
      data(name), partition, {.nodes = 1, .processes_per_node = processes});
  ASSERT_EQ(workload.graph.destinations.size(),
            static_cast<std::size_t>(processes));
  for (int p = 0; p < processes; ++p) {
    const spmv::HaloPlan plan = spmv::halo_plan(a, rows, columns, p);
    std::vector<int> entries;
    for (const std::vector<int>& sent : plan.send_columns) {
      entries.push_back(static_cast<int>(sent.size()));
    }
    const auto r = static_cast<std::size_t>(p);
    EXPECT_EQ(workload.graph.destinations[r], plan.destinations)
        << name << " on " << processes << ", process " << p;
    EXPECT_EQ(workload.entries[r], entries)
        << name << " on " << processes << ", process " << p;
    // The local product's multiply-adds: one per stored entry of its rows,
    // as the experiment's product visits them.
    EXPECT_EQ(workload.multiply_adds.at(r),
              static_cast<std::int64_t>(
                  spmv::entry_slots(a, rows, columns, p, plan).size()))
        << name << " on " << processes << ", process " << p;
  }
}

TEST(SimulateHalo, IsTheExperimentsHalo) {
  for (const int processes : {1, 4, 9, 16}) {
    expect_experiments_halo("bcsstk01", MatrixPartition::metis, processes);
    expect_experiments_halo("dwt_162", MatrixPartition::blocks, processes);
    expect_experiments_halo("gams10a", MatrixPartition::blocks, processes);
  }
}

TEST(SimulateHalo, PartitionsAsTheExperimentDoes) {
  const simulate::Shape shape{.nodes = 2, .processes_per_node = 2};
  EXPECT_EQ(simulate::halo_workload(data("dwt_162"), std::nullopt, shape).name,
            "dwt_162 (METIS parts)");
  EXPECT_EQ(simulate::halo_workload(data("gams10a"), std::nullopt, shape).name,
            "gams10a (blocks)");
  EXPECT_THROW(
      simulate::halo_workload(data("gams10a"), MatrixPartition::metis, shape),
      std::invalid_argument);
  EXPECT_THROW(
      simulate::halo_workload("no/such.mtx", MatrixPartition::blocks, shape),
      std::runtime_error);
}

// A measured point on a halo names the same workload.
TEST(SimulateHalo, IsWhatAPointNames) {
  std::istringstream file(
      "nodes,ppn,placement,workload,operation,block_bytes,algorithm,"
      "measured_us,source\n"
      "2,3,slot,matrix:blocks:" +
      data("dwt_162") + ",alltoallv,8,direct,100,r\n");
  const std::vector<simulate::MeasuredPoint> points =
      simulate::read_points(file, "points.csv");
  ASSERT_EQ(points.size(), 1U);
  const Workload named = simulate::workload_of(points[0]);
  const Workload made =
      simulate::halo_workload(data("dwt_162"), MatrixPartition::blocks,
                              {.nodes = 2, .processes_per_node = 3});
  EXPECT_EQ(named.graph.destinations, made.graph.destinations);
  EXPECT_EQ(named.graph.host_of_rank, made.graph.host_of_rank);
  EXPECT_EQ(named.entries, made.entries);
}

// A random graph on `hosts` hosts with repeated edges, self loops, ranks
// without edges, and entries per edge from 0 to 6.
Workload random_halo(std::mt19937& random, int size, int hosts) {
  std::uniform_int_distribution<int> host(0, hosts - 1);
  std::uniform_int_distribution<int> entries(0, 6);
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  Workload workload;
  workload.name = "random";
  workload.graph.host_of_rank.resize(static_cast<std::size_t>(size));
  for (int& h : workload.graph.host_of_rank) h = host(random);
  workload.graph.destinations.resize(static_cast<std::size_t>(size));
  workload.entries.resize(static_cast<std::size_t>(size));
  for (std::size_t s = 0; s < workload.entries.size(); ++s) {
    if (coin(random) < 0.1) continue;
    for (int d = 0; d < size; ++d) {
      if (coin(random) >= 0.4) continue;
      for (int copy = coin(random) < 0.2 ? 2 : 1; copy > 0; --copy) {
        workload.graph.destinations[s].push_back(d);
        workload.entries[s].push_back(entries(random));
      }
    }
  }
  return workload;
}

// The routes' graph with every process's sources in the order the edges
// give them (by source, then the source's order).
ortho_testing::RouteGraph route_graph(const Workload& workload) {
  ortho_testing::RouteGraph g{.host_graph = workload.graph,
                              .sources = std::vector<std::vector<int>>(
                                  workload.graph.destinations.size())};
  for (std::size_t s = 0; s < g.sources.size(); ++s) {
    for (const int d : workload.graph.destinations[s]) {
      g.sources[static_cast<std::size_t>(d)].push_back(static_cast<int>(s));
    }
  }
  return g;
}

// sent[r][step][q] from the tokens each message carried.
using Tally = std::vector<std::array<std::map<int, simulate::Sent>, 3>>;
Tally tally_of_tokens(const Workload& workload,
                      const simulate::RoutesOf& routes_of,
                      std::size_t entry_bytes, const std::string& label) {
  const ortho_testing::RouteGraph g = route_graph(workload);
  std::vector<node_routes::Routes> all;
  for (std::size_t r = 0; r < g.sources.size(); ++r) {
    all.push_back(routes_of(static_cast<int>(r), g.sources[r]));
  }
  std::vector<ortho_testing::Memory> memory;
  std::vector<ortho_testing::StepMessages> messages;
  ortho_testing::run_routes(g, all, node_routes::Payload::per_edge, label,
                            memory, &messages);
  ortho_testing::expect_delivered(g, memory, node_routes::Payload::per_edge,
                                  label);
  Tally tally(g.sources.size());
  for (std::size_t step = 0; step < messages.size(); ++step) {
    for (const auto& [key, tokens] : messages[step]) {
      const auto [from, to, tag] = key;
      simulate::Sent& sent = tally[static_cast<std::size_t>(from)][step][to];
      for (const ortho_testing::Token& token : tokens) {
        ++sent.blocks;
        sent.bytes += static_cast<std::int64_t>(entry_bytes) *
                      workload.entries[static_cast<std::size_t>(token.first)]
                                      [static_cast<std::size_t>(token.second)];
      }
    }
  }
  return tally;
}

void expect_same(const std::vector<simulate::SizedFlow>& flows,
                 const Tally& tally, const std::string& label) {
  ASSERT_EQ(flows.size(), tally.size()) << label;
  for (std::size_t r = 0; r < flows.size(); ++r) {
    for (std::size_t step = 0; step < 3; ++step) {
      std::map<int, std::pair<int, std::int64_t>> simulated;
      std::map<int, std::pair<int, std::int64_t>> carried;
      for (const auto& [q, sent] : flows[r][step]) {
        simulated[q] = {sent.blocks, sent.bytes};
      }
      for (const auto& [q, sent] : tally[r][step]) {
        carried[q] = {sent.blocks, sent.bytes};
      }
      EXPECT_EQ(simulated, carried)
          << label << ": rank " << r << ", step " << step;
    }
  }
}

TEST(SimulateSizedFlows, BytesAreThoseOfTheBlocksTheRoutesCarry) {
  std::mt19937 random(20261129);
  for (int trial = 0; trial < 150; ++trial) {
    const int size = 2 + trial % 11;
    const int hosts = 1 + trial % 4;
    const Workload workload = random_halo(random, size, hosts);
    const std::size_t entry_bytes = 1 + trial % 9;
    const std::string label = "trial " + std::to_string(trial);
    const common_routes::Grouping grouping =
        common_routes::groups(workload.graph);
    const std::vector<std::pair<std::string, simulate::RoutesOf>> algorithms = {
        {"node_aware",
         [&](int rank, std::span<const int> sources) {
           return node_routes::routes(workload.graph, rank, sources,
                                      node_routes::Payload::per_edge);
         }},
        {"common_neighbours",
         [&](int rank, std::span<const int> sources) {
           return common_routes::routes(workload.graph, grouping, rank, sources,
                                        node_routes::Payload::per_edge);
         }},
        {"spread_relays", [&](int rank, std::span<const int> sources) {
           return spread_routes::routes(workload.graph, rank, sources,
                                        node_routes::Payload::per_edge);
         }}};
    for (const auto& [name, routes_of] : algorithms) {
      const std::string where = std::string(label).append(" ").append(name);
      const Tally tally =
          tally_of_tokens(workload, routes_of, entry_bytes, where);
      if (HasFatalFailure()) return;
      expect_same(simulate::sized_flows(workload, routes_of, entry_bytes),
                  tally, where);
    }
  }
}

void expect_same_loads(const simulate::Exchange& a, const simulate::Exchange& b,
                       const std::string& label) {
  ASSERT_EQ(a.rounds.size(), b.rounds.size()) << label;
  for (std::size_t round = 0; round < a.rounds.size(); ++round) {
    for (std::size_t p = 0; p < a.rounds[round].size(); ++p) {
      const simulate::RoundLoad& x = a.rounds[round][p];
      const simulate::RoundLoad& y = b.rounds[round][p];
      const std::string where = label + ", round " + std::to_string(round) +
                                ", rank " + std::to_string(p);
      EXPECT_EQ(std::tie(x.within_messages, x.between_messages, x.within_bytes,
                         x.between_bytes, x.largest_within, x.largest_between,
                         x.packed_bytes, x.received_within, x.received_between,
                         x.received_within_bytes, x.received_between_bytes),
                std::tie(y.within_messages, y.between_messages, y.within_bytes,
                         y.between_bytes, y.largest_within, y.largest_between,
                         y.packed_bytes, y.received_within, y.received_between,
                         y.received_within_bytes, y.received_between_bytes))
          << where;
    }
  }
}

// A halo of one entry per block is the graph with blocks of one size: the
// same exchange as the routes' flows give (traffic_test checks those
// against ortho's executed plans).
TEST(SimulateSizedFlows, OneEntryABlockIsTheUniformExchange) {
  std::mt19937 random(0x4a10);
  for (int trial = 0; trial < 60; ++trial) {
    Workload sized = random_halo(random, 2 + trial % 13, 1 + trial % 3);
    for (std::vector<int>& entries : sized.entries) {
      for (int& e : entries) e = 1;
    }
    Workload uniform = sized;
    uniform.entries.clear();
    for (const Algorithm algorithm : simulate::kAlgorithms) {
      const auto a =
          simulate::exchange(sized, algorithm, Operation::alltoallv, 24, 4096);
      const auto b = simulate::exchange(uniform, algorithm,
                                        Operation::alltoallv, 24, 4096);
      ASSERT_EQ(a.has_value(), b.has_value());
      if (!a) continue;
      expect_same_loads(*a, *b,
                        "trial " + std::to_string(trial) + " " +
                            std::string(simulate::name_of(algorithm)));
    }
  }
}

TEST(SimulateSizedFlows, AHaloRunsAlltoallvAlone) {
  std::mt19937 random(7);
  const Workload workload = random_halo(random, 6, 2);
  for (const Operation operation :
       {Operation::allgather, Operation::alltoall, Operation::allgatherv}) {
    EXPECT_THROW(
        simulate::exchange(workload, Algorithm::direct, operation, 8, 4096),
        std::invalid_argument);
  }
  Workload no_entries = workload;
  no_entries.entries.clear();
  EXPECT_THROW(simulate::sized_flows(
                   no_entries,
                   [&](int rank, std::span<const int> sources) {
                     return node_routes::routes(no_entries.graph, rank, sources,
                                                node_routes::Payload::per_edge);
                   },
                   8),
               std::invalid_argument);
}

}  // namespace
