// Google Benchmark: time of classic::dims_create for node counts up to
// 2^31 - 1 (prime) and 1,396,755,360 (1536 divisors) in 2 to 8 dimensions.
#include <benchmark/benchmark.h>

#include <vector>

#include "classic/topology/dims_create.h"

namespace {

void BM_DimsCreate(benchmark::State& state) {
  const int nnodes = static_cast<int>(state.range(0));
  const std::vector<int> dims(static_cast<std::size_t>(state.range(1)), 0);
  for (auto _ : state) {
    std::vector<int> result = classic::dims_create(nnodes, dims);
    benchmark::DoNotOptimize(result.data());
    benchmark::ClobberMemory();
  }
}

BENCHMARK(BM_DimsCreate)
    ->ArgNames({"nnodes", "ndims"})
    ->ArgsProduct({{72, 10000, 1 << 20, 1396755360, 2147483647}, {2, 3, 4, 8}});

}  // namespace

BENCHMARK_MAIN();
