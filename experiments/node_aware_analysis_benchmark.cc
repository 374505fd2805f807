// Google Benchmark (MPI-free): the cost of analysing a gathered graph with
// the node-aware cost model, on Erdős–Rényi graphs of experiments/
// sparse_graphs.h, 4 processes a host: every process's routes counted
// (node_routes::loads) and the model evaluated at the block sizes a search
// for its crossover with direct visits (model_crossovers.h), for both
// payloads; and on 3-d Moore tori the steps that weigh node_aware against
// combining and direct. Every process computes the same. The table itself
// prices only at the sizes the chooser asks (internal/choose.h), so this is
// an upper bound of its analysis. White-box: it times ortho's internal
// model directly (INSIDE_ORTHO).
#include <benchmark/benchmark.h>

#include <array>
#include <cstddef>
#include <optional>
#include <vector>

#include "classic/topology/dims_create.h"
#include "experiments/sparse_graphs.h"
#include "naming/geometry.h"
#include "ortho/algorithms/combining/combining_loads.h"
#include "ortho/algorithms/model_crossovers.h"
#include "ortho/algorithms/node_aware_model.h"
#include "stencils/neighborhood.h"
#include "stencils/schedule.h"

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

// On a periodic 3-d Moore torus of `processes` (4 a host, round-robin):
// what the table computes besides for allgather and alltoall, where it
// weighs node_aware, combining and direct on one scale: combining's
// messages per round and host (combining_loads) and the fastest steps.
void BM_StencilSteps(benchmark::State& state) {
  const auto processes = static_cast<int>(state.range(0));
  const std::vector<int> dims =
      classic::dims_create(processes, std::vector<int>{0, 0, 0});
  const std::array<bool, 3> periods = {true, true, true};
  const naming::Geometry geometry(dims, periods, naming::Order::row_major);
  const int hosts = processes / kProcessesPerHost;
  HostGraph graph;
  for (int r = 0; r < processes; ++r) {
    graph.host_of_rank.push_back(r % hosts);
    graph.destinations.push_back(stencils::cart_neighbor_ranks(
        geometry, r, stencils::Metric::chebyshev, 1, 1));
  }
  const stencils::Stencil moore =
      stencils::cart_stencil(3, stencils::Metric::chebyshev, 1, 1);
  std::vector<int> negated(moore.flat().begin(), moore.flat().end());
  for (int& x : negated) x = -x;
  const stencils::Stencil sources(3, negated);
  const auto allgather = stencils::allgather_schedule(geometry, moore, sources);
  const auto alltoall = stencils::alltoall_schedule(geometry, moore, sources);
  const HostPrices prices = ortho::algorithms::host_prices(1);
  for (auto _ : state) {
    for (const bool per_edge : {false, true}) {
      const auto steps = ortho::algorithms::fastest_steps(
          graph, per_edge ? Payload::per_edge : Payload::per_source,
          ortho::algorithms::combining_loads::messages_of(
              per_edge ? alltoall.rounds : allgather.rounds, geometry,
              graph.host_of_rank),
          prices, 65'536, std::size_t{1} << 30, std::size_t{16} * 1024);
      benchmark::DoNotOptimize(steps);
    }
  }
}

BENCHMARK(BM_StencilSteps)
    ->ArgName("processes")
    ->Arg(64)
    ->Arg(512)
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
