// Google Benchmark: the creation cost of process mapping, i.e. what
// ortho's Reorder::yes computes on every process (stencils/placement.h):
// choose_placement from a round-robin placement (each host's processes
// spread over the grid) for 2-d and 3-d Moore tori of 16 to 512 processes,
// 4 to 64 hosts. MPI-free; the collective steps around it (a stencil
// detection and two allreduces) are not included.
//
//   bazel run -c opt //experiments:placement_benchmark
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "naming/geometry.h"
#include "stencils/neighborhood.h"
#include "stencils/placement.h"

namespace {

// dims[0] x dims[1] (x dims[2] when given) torus, Moore depth 1, `hosts`
// hosts of equal size, ranks round-robin over them.
void BM_ChoosePlacement(benchmark::State& state) {
  std::vector<int> dims = {static_cast<int>(state.range(0)),
                           static_cast<int>(state.range(1))};
  if (state.range(2) > 0) dims.push_back(static_cast<int>(state.range(2)));
  const int hosts = static_cast<int>(state.range(3));
  const std::vector<char> periodic(dims.size(), 1);
  const naming::Geometry geometry(
      dims,
      std::span<const bool>(reinterpret_cast<const bool*>(periodic.data()),
                            dims.size()),
      naming::Order::row_major);
  const stencils::Stencil stencil = stencils::cart_stencil(
      static_cast<int>(dims.size()), stencils::Metric::chebyshev, 1, 1);
  const std::vector<std::int64_t> weights(stencil.size(), 1);
  const int processes = geometry.size();
  const std::vector<int> slots(static_cast<std::size_t>(hosts),
                               processes / hosts);
  std::vector<int> current(static_cast<std::size_t>(processes));
  for (int r = 0; r < processes; ++r) {
    current[static_cast<std::size_t>(r)] = r % hosts;
  }
  for (auto _ : state) {
    stencils::PlacementChoice choice =
        stencils::choose_placement(geometry, stencil, weights, slots, current);
    benchmark::DoNotOptimize(choice.host_of_cell.data());
  }
  state.counters["processes"] = processes;
}

BENCHMARK(BM_ChoosePlacement)
    ->ArgNames({"d0", "d1", "d2", "hosts"})
    ->Args({4, 4, 0, 4})
    ->Args({8, 8, 0, 4})
    ->Args({8, 8, 0, 16})
    ->Args({4, 4, 4, 8})
    ->Args({16, 16, 0, 16})
    ->Args({8, 8, 8, 64})
    ->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
