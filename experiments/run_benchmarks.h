// Google Benchmark under MPI: every rank runs the same benchmarks (their
// batches are collective: barriers, reductions of the times), and one rank
// reports them; the batch timing and argument handling they share.
#ifndef ORTHOCOMM_EXPERIMENTS_RUN_BENCHMARKS_H_
#define ORTHOCOMM_EXPERIMENTS_RUN_BENCHMARKS_H_

#include <benchmark/benchmark.h>
#include <mpi.h>

#include <string_view>
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

// Calls that cover any tuning of ortho's selection (ortho/internal/tuning.h:
// at most 4 candidates, 4 calls a turn, 3 rounds, and the agreement): a
// benchmark makes them before it times the selection, so that it times what
// the selection settled on, not the candidates it measured.
inline constexpr int kTuningCalls = 4 * 4 * 3 + 2;

// Seconds per call of `calls` calls of `call` after a barrier, the most
// of any rank of MPI_COMM_WORLD (collective).
template <class Call>
double slowest_seconds_per_call(int calls, Call&& call) {
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (int c = 0; c < calls; ++c) call();
  const double mine = (MPI_Wtime() - start) / calls;
  double slowest = 0.0;
  MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return slowest;
}

// Removes the --benchmark_out flags from a rank's arguments: only the
// reporting rank writes that file; the others must not even open it.
inline void drop_output_flags(int& argc, char** argv) {
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    if (!std::string_view(argv[i]).starts_with("--benchmark_out")) {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  argv[argc] = nullptr;
}

}  // namespace experiments

#endif  // ORTHOCOMM_EXPERIMENTS_RUN_BENCHMARKS_H_
