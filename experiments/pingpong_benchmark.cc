// 8-byte ping-pong latency of classic::send / classic::recv next to raw
// MPI_Send / MPI_Recv on the same context and the same two processes: the
// cost of classic's argument checks, rank and tag mapping and Status.
//
//   mpirun -np 2 bazel-bin/experiments/pingpong_benchmark
//
// Each benchmark iteration times one batch of round trips of *both*
// variants, in alternating order, so machine noise hits both alike; a
// batch's time is the maximum over the two ranks. The reported time is the
// one-way latency (batch time / 2 / round trips) of the variant in the
// benchmark's name; the counter `ratio` is classic's time over raw MPI's,
// over the same interleaved batches, in both rows.
//
// BM_ProcNull8B does the same with send + recv to proc_null, which the
// transport completes at once: nothing but the per-call overhead of each
// variant, free of the noise of real message passing.
#include <benchmark/benchmark.h>
#include <mpi.h>

#include <cstdio>
#include <span>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/environment.h"
#include "classic/comm/comm.h"
#include "classic/p2p/point_to_point.h"
#include "experiments/run_benchmarks.h"

namespace {

constexpr int kTag = 0;

enum class Variant { classic_p2p, raw_mpi };
enum class Pattern { pingpong, proc_null };

// Round trips per timed batch: enough that a batch lasts some 100 us, long
// against the timer and short against the scheduler's time slices.
int round_trips_per_batch(Pattern pattern) {
  return pattern == Pattern::pingpong ? 100 : 2000;
}

class PingPong {
 public:
  PingPong()
      : world_(classic::Comm::world()),
        context_(world_.transport()),
        rank_(world_.rank()) {}

  // Seconds for one batch of round trips, the maximum over ranks.
  double batch(Variant variant, Pattern pattern) {
    MPI_Barrier(context_);
    const double start = MPI_Wtime();
    const int round_trips = round_trips_per_batch(pattern);
    for (int i = 0; i < round_trips; ++i) {
      const bool real = pattern == Pattern::pingpong;
      if (variant == Variant::classic_p2p) {
        round_trip_classic(real ? 1 - rank_ : classic::proc_null);
      } else {
        round_trip_raw(real ? 1 - rank_ : MPI_PROC_NULL);
      }
    }
    const double mine = MPI_Wtime() - start;
    double slowest = 0.0;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, context_);
    return slowest;
  }

 private:
  void round_trip_classic(int peer) {
    const std::span<double> message(&payload_, 1);
    if (rank_ == 0) {
      classic::send(world_, message, peer, kTag);
      benchmark::DoNotOptimize(classic::recv(world_, message, peer, kTag));
    } else {
      benchmark::DoNotOptimize(classic::recv(world_, message, peer, kTag));
      classic::send(world_, message, peer, kTag);
    }
  }

  // With a real MPI_Status, as classic::recv produces one.
  void round_trip_raw(int peer) {
    MPI_Status status;
    if (rank_ == 0) {
      MPI_Send(&payload_, 1, MPI_DOUBLE, peer, kTag, context_);
      MPI_Recv(&payload_, 1, MPI_DOUBLE, peer, kTag, context_, &status);
    } else {
      MPI_Recv(&payload_, 1, MPI_DOUBLE, peer, kTag, context_, &status);
      MPI_Send(&payload_, 1, MPI_DOUBLE, peer, kTag, context_);
    }
    benchmark::DoNotOptimize(status);
  }

  classic::Comm world_;
  MPI_Comm context_;
  int rank_;
  double payload_ = 1.0;
};

void run(benchmark::State& state, Pattern pattern, Variant reported) {
  PingPong pingpong;
  double classic_seconds = 0.0;
  double raw_seconds = 0.0;
  bool classic_first = true;
  for (auto _ : state) {
    const Variant first =
        classic_first ? Variant::classic_p2p : Variant::raw_mpi;
    const Variant second =
        classic_first ? Variant::raw_mpi : Variant::classic_p2p;
    const double first_seconds = pingpong.batch(first, pattern);
    const double second_seconds = pingpong.batch(second, pattern);
    const double classic = classic_first ? first_seconds : second_seconds;
    const double raw = classic_first ? second_seconds : first_seconds;
    classic_seconds += classic;
    raw_seconds += raw;
    classic_first = !classic_first;
    const double batch = reported == Variant::classic_p2p ? classic : raw;
    state.SetIterationTime(batch / (2.0 * round_trips_per_batch(pattern)));
  }
  const double messages = 2.0 * round_trips_per_batch(pattern) *
                          static_cast<double>(state.iterations());
  state.counters["classic_ns"] = 1e9 * classic_seconds / messages;
  state.counters["raw_ns"] = 1e9 * raw_seconds / messages;
  state.counters["ratio"] = classic_seconds / raw_seconds;
  state.counters["bytes"] = 8;
}

void BM_PingPong8B(benchmark::State& state, Variant reported) {
  run(state, Pattern::pingpong, reported);
}

void BM_ProcNull8B(benchmark::State& state, Variant reported) {
  run(state, Pattern::proc_null, reported);
}

// Fixed iteration counts: both ranks must run exactly the same loop.
void configure(benchmark::internal::Benchmark* benchmark) {
  benchmark->UseManualTime()
      ->Iterations(1000)
      ->Repetitions(9)
      ->ReportAggregatesOnly(true)
      ->Unit(benchmark::kNanosecond);
}

BENCHMARK_CAPTURE(BM_PingPong8B, classic, Variant::classic_p2p)
    ->Apply(configure);
BENCHMARK_CAPTURE(BM_PingPong8B, raw_mpi, Variant::raw_mpi)->Apply(configure);
BENCHMARK_CAPTURE(BM_ProcNull8B, classic, Variant::classic_p2p)
    ->Apply(configure);
BENCHMARK_CAPTURE(BM_ProcNull8B, raw_mpi, Variant::raw_mpi)->Apply(configure);

}  // namespace

int main(int argc, char** argv) {
  classic::Environment environment(argc, argv,
                                   classic::UncaughtErrors::report_and_abort);
  if (classic::Environment::world_size() != 2) {
    if (classic::Environment::world_rank() == 0) {
      std::fprintf(stderr, "pingpong_benchmark: run it on 2 processes\n");
    }
    return 1;
  }
  benchmark::Initialize(&argc, argv);
  experiments::run_benchmarks(classic::Environment::world_rank() == 0);
  benchmark::Shutdown();
  return 0;
}
