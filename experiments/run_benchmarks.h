// Google Benchmark under MPI: every rank runs the same benchmarks (their
// batches are collective: barriers, reductions of the times), and one rank
// reports them.
#ifndef ORTHOCOMM_EXPERIMENTS_RUN_BENCHMARKS_H_
#define ORTHOCOMM_EXPERIMENTS_RUN_BENCHMARKS_H_

#include <benchmark/benchmark.h>

#include <vector>

namespace experiments {

// Runs the benchmarks benchmark::Initialize selected: with Google
// Benchmark's reporters (console, --benchmark_out) where `reports`,
// silently elsewhere.
inline void run_benchmarks(bool reports) {
  class Silent : public benchmark::BenchmarkReporter {
   public:
    bool ReportContext(const Context&) override { return true; }
    void ReportRuns(const std::vector<Run>&) override {}
  };
  if (reports) {
    benchmark::RunSpecifiedBenchmarks();
    return;
  }
  Silent silent;
  benchmark::RunSpecifiedBenchmarks(&silent);
}

}  // namespace experiments

#endif  // ORTHOCOMM_EXPERIMENTS_RUN_BENCHMARKS_H_
