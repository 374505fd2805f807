// Google Benchmark (MPI-free): verifying message combining's schedules on a
// periodic 3-d grid of P processes (dims_create) for Moore stencils of
// depth 1 and 2, allgather and alltoall: stencils::verify simulates every
// process, stencils::verify_by_translation one (the grid's translation
// symmetry stands for the rest; translation_verifier.h).
#include <benchmark/benchmark.h>

#include <array>
#include <span>
#include <vector>

#include "classic/topology/dims_create.h"
#include "naming/geometry.h"
#include "stencils/neighborhood.h"
#include "stencils/schedule.h"
#include "stencils/translation_verifier.h"
#include "stencils/verifier.h"

namespace {

struct Case {
  naming::Geometry geometry;
  stencils::Stencil targets;
  stencils::Stencil sources;
};

Case moore_case(int processes, int depth) {
  const std::vector<int> dims =
      classic::dims_create(processes, std::vector<int>{0, 0, 0});
  const std::array<bool, 3> periods = {true, true, true};
  stencils::Stencil targets =
      stencils::cart_stencil(3, stencils::Metric::chebyshev, 1, depth);
  std::vector<int> negated(targets.flat().begin(), targets.flat().end());
  for (int& x : negated) x = -x;
  return {naming::Geometry(dims, periods, naming::Order::row_major),
          std::move(targets), stencils::Stencil(3, std::move(negated))};
}

template <bool kByTranslation>
void BM_Verify(benchmark::State& state) {
  const Case c = moore_case(static_cast<int>(state.range(0)),
                            static_cast<int>(state.range(1)));
  const auto allgather =
      stencils::allgather_schedule(c.geometry, c.targets, c.sources);
  const auto alltoall =
      stencils::alltoall_schedule(c.geometry, c.targets, c.sources);
  for (auto _ : state) {
    bool ok = false;
    if constexpr (kByTranslation) {
      ok = stencils::verify_by_translation(allgather, c.geometry, c.targets,
                                           c.sources) &&
           stencils::verify_by_translation(alltoall, c.geometry, c.targets,
                                           c.sources);
    } else {
      ok = stencils::verify(allgather, c.geometry, c.targets, c.sources) &&
           stencils::verify(alltoall, c.geometry, c.targets, c.sources);
    }
    if (!ok) state.SkipWithError("a schedule failed verification");
    benchmark::DoNotOptimize(ok);
  }
}

BENCHMARK(BM_Verify<false>)
    ->Name("BM_VerifyEveryProcess")
    ->ArgNames({"processes", "depth"})
    ->ArgsProduct({{1'000, 10'000, 100'000}, {1, 2}})
    ->Unit(benchmark::kMillisecond);

BENCHMARK(BM_Verify<true>)
    ->Name("BM_VerifyByTranslation")
    ->ArgNames({"processes", "depth"})
    ->ArgsProduct({{1'000, 1'000'000, 100'000'000}, {1, 2}})
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
