// Google Benchmark under MPI: every rank runs the same benchmarks (their
// batches are collective: barriers, reductions of the times), and one rank
// reports them; the batch timing and argument handling they share, and the
// no-progress watchdog (experiments/progress.h) that names the variant and
// batch a hung run waits in.
#ifndef ORTHOCOMM_EXPERIMENTS_RUN_BENCHMARKS_H_
#define ORTHOCOMM_EXPERIMENTS_RUN_BENCHMARKS_H_

#include <benchmark/benchmark.h>
#include <mpi.h>

#include <string_view>
#include <vector>

#include "experiments/progress.h"

namespace experiments {

// Runs the benchmarks benchmark::Initialize selected: with Google
// Benchmark's reporters (console, --benchmark_out) where `reports`,
// silently elsewhere; under the watchdog (ORTHOCOMM_WATCHDOG_S).
inline void run_benchmarks(bool reports) {
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  progress::start(rank, size);
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

// Calls that cover any tuning of ortho's selection (ortho/internal/
// tuning_race.h: 6 warm-up calls, then at most 4 candidates, 4 calls a
// turn in the screening round and 10 in each of 3 more, and the
// agreement): a benchmark makes them before it times the selection, so
// that it times what the selection settled on, not the candidates it
// measured.
inline constexpr int kTuningCalls = 6 + 4 * (4 + 10 * 3) + 2;

// Blocking calls of the selection until `settled()` (the same on every
// process: ortho's tuning decides at the same call everywhere), at most
// `most`: a size band met after the first is tuned only after the
// processes next compare bands (ortho/internal/tuning.h: up to 4,096 calls
// after a decision). Collective where `call` is.
template <class Call, class Settled>
void settle(Call&& call, Settled&& settled,
            int most = 4096 + 4 * kTuningCalls) {
  for (int calls = 0; calls < most && !settled(); ++calls) call();
}

// Seconds per call of `calls` calls of `call` (of `variant`) after a
// barrier, the most of any rank of MPI_COMM_WORLD (collective). Each step
// tells the watchdog where this process is, by the program's batch count.
template <class Call>
double slowest_seconds_per_call(std::string_view variant, int calls,
                                Call&& call) {
  static int batches = 0;
  const int batch = batches++;
  progress::at(variant, "the barrier before a batch", batch);
  MPI_Barrier(MPI_COMM_WORLD);
  progress::at(variant, "a batch of calls", batch);
  const double start = MPI_Wtime();
  for (int c = 0; c < calls; ++c) call();
  const double mine = (MPI_Wtime() - start) / calls;
  progress::at(variant, "the allreduce of a batch's time", batch);
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
