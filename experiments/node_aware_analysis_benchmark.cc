// Google Benchmark (MPI-free): what ortho computes when it makes the table
// of a graph that spans several hosts, after gathering the graph: the
// node-aware cost model's crossover for both payloads (every process's
// routes counted, node_routes::loads, and the model evaluated at the block
// sizes its search visits), on Erdős–Rényi graphs of experiments/
// sparse_graphs.h, 4 processes a host. Every process computes the same, so
// this is the analysis's time on each. White-box: it times ortho's internal
// model directly (INSIDE_ORTHO).
#include <benchmark/benchmark.h>

#include <cstddef>
#include <optional>

#include "experiments/sparse_graphs.h"
#include "ortho/algorithms/node_aware_model.h"

namespace {

using ortho::algorithms::HostPrices;
using ortho::algorithms::node_routes::HostGraph;
using ortho::algorithms::node_routes::Payload;

constexpr int kProcessesPerHost = 4;

void BM_NodeAwareAnalysis(benchmark::State& state) {
  const auto processes = static_cast<int>(state.range(0));
  const double density = static_cast<double>(state.range(1)) / 1000;
  HostGraph graph;
  graph.destinations = experiments::erdos_renyi(processes, density, 1);
  for (int r = 0; r < processes; ++r) {
    graph.host_of_rank.push_back(r / kProcessesPerHost);
  }
  const HostPrices prices = ortho::algorithms::host_prices(1);
  for (auto _ : state) {
    for (const Payload payload : {Payload::per_edge, Payload::per_source}) {
      std::optional<std::size_t> up_to = ortho::algorithms::node_aware_up_to(
          graph, payload, prices, std::size_t{1} << 30);
      benchmark::DoNotOptimize(up_to);
    }
  }
  state.counters["edges"] =
      static_cast<double>(experiments::edge_count(graph.destinations));
}

BENCHMARK(BM_NodeAwareAnalysis)
    ->ArgNames({"processes", "density_permille"})
    ->ArgsProduct({{16, 64, 256, 1024}, {50, 100, 300}})
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
