// The cost of ortho's dispatch: an ortho collective next to a direct call of
// the implementation its table selected, for zero-byte exchanges (where
// the dispatch is all there is to measure besides the messages):
//  - graph_alltoall: ortho::alltoall on a Moore torus (a directed graph of
//    8 neighbours) vs classic::neighbor_alltoall on the same communicator;
//  - empty_graph_alltoall: the same on a graph without edges (no messages:
//    the dispatch against classic's own per-call work);
//  - intra_allgather: ortho::allgather on a fully connected communicator vs
//    classic::allgather.
//
//   mpirun -np 4 bazel-bin/experiments/dispatch_benchmark
//
// Timing as in neighbor_benchmark: each iteration runs one batch of each
// variant in alternating order, a batch begins with a barrier and its time
// is the maximum over ranks. Counters: ortho_us and direct_us (per call),
// ratio (ortho / direct; the goal is at most 1.02) and overhead_ns (the
// difference per call).
#include <benchmark/benchmark.h>
#include <mpi.h>

#include <array>
#include <cstdio>
#include <functional>
#include <vector>

#include "classic/base/environment.h"
#include "classic/collectives/collectives.h"
#include "classic/comm/comm.h"
#include "classic/graph/dist_graph.h"
#include "classic/neighbor/neighbor_collectives.h"
#include "classic/topology/dims_create.h"
#include "ortho/collectives.h"
#include "ortho/dist_graph.h"

namespace {

constexpr int kCallsPerBatch = 200;

// The Moore neighbourhood of a periodic 2-d grid over the world.
classic::Comm moore_torus() {
  const classic::Comm world = classic::Comm::world();
  const std::vector<int> dims =
      classic::dims_create(world.size(), std::array{0, 0});
  const int x = world.rank() / dims[1];
  const int y = world.rank() % dims[1];
  std::vector<int> ranks;
  for (int dx = -1; dx <= 1; ++dx) {
    for (int dy = -1; dy <= 1; ++dy) {
      if (dx == 0 && dy == 0) continue;
      const int nx = (x + dx + dims[0]) % dims[0];
      const int ny = (y + dy + dims[1]) % dims[1];
      ranks.push_back(nx * dims[1] + ny);
    }
  }
  return ortho::dist_graph_create_adjacent(world, ranks, classic::unweighted,
                                           ranks, classic::unweighted);
}

// Seconds per call of `call` over one batch, the maximum over ranks.
double batch(const std::function<void()>& call) {
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (int i = 0; i < kCallsPerBatch; ++i) call();
  const double mine = (MPI_Wtime() - start) / kCallsPerBatch;
  double slowest = 0.0;
  MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return slowest;
}

void compare(benchmark::State& state, const std::function<void()>& ortho,
             const std::function<void()>& direct) {
  double ortho_seconds = 0.0;
  double direct_seconds = 0.0;
  bool ortho_first = true;
  for (auto _ : state) {
    const double first = batch(ortho_first ? ortho : direct);
    const double second = batch(ortho_first ? direct : ortho);
    const double mine = ortho_first ? first : second;
    ortho_seconds += mine;
    direct_seconds += ortho_first ? second : first;
    ortho_first = !ortho_first;
    state.SetIterationTime(mine);
  }
  const auto iterations = static_cast<double>(state.iterations());
  state.counters["ortho_us"] = 1e6 * ortho_seconds / iterations;
  state.counters["direct_us"] = 1e6 * direct_seconds / iterations;
  state.counters["ratio"] = ortho_seconds / direct_seconds;
  state.counters["overhead_ns"] =
      1e9 * (ortho_seconds - direct_seconds) / iterations;
}

void BM_GraphAlltoall(benchmark::State& state) {
  const classic::Comm graph = moore_torus();
  compare(
      state,
      [&] {
        ortho::alltoall(graph, nullptr, 0, MPI_BYTE, nullptr, 0, MPI_BYTE);
      },
      [&] {
        classic::neighbor_alltoall(graph, nullptr, 0, MPI_BYTE, nullptr, 0,
                                   MPI_BYTE);
      });
}

// No edges: nothing but the call itself on both sides, so the ratio shows
// the dispatch against classic's own per-call work.
void BM_EmptyGraphAlltoall(benchmark::State& state) {
  const classic::Comm graph = ortho::dist_graph_create_adjacent(
      classic::Comm::world(), std::vector<int>{}, classic::unweighted,
      std::vector<int>{}, classic::unweighted);
  compare(
      state,
      [&] {
        ortho::alltoall(graph, nullptr, 0, MPI_BYTE, nullptr, 0, MPI_BYTE);
      },
      [&] {
        classic::neighbor_alltoall(graph, nullptr, 0, MPI_BYTE, nullptr, 0,
                                   MPI_BYTE);
      });
}

void BM_IntraAllgather(benchmark::State& state) {
  const classic::Comm comm = classic::Comm::world().dup();
  compare(
      state,
      [&] {
        ortho::allgather(comm, nullptr, 0, MPI_BYTE, nullptr, 0, MPI_BYTE);
      },
      [&] {
        classic::allgather(comm, nullptr, 0, MPI_BYTE, nullptr, 0, MPI_BYTE);
      });
}

// Fixed iteration counts: every rank must run exactly the same loop.
void configure(benchmark::internal::Benchmark* benchmark) {
  benchmark->UseManualTime()
      ->Iterations(40)
      ->Repetitions(5)
      ->ReportAggregatesOnly(true)
      ->Unit(benchmark::kMicrosecond);
}

BENCHMARK(BM_GraphAlltoall)->Apply(configure);
BENCHMARK(BM_EmptyGraphAlltoall)->Apply(configure);
BENCHMARK(BM_IntraAllgather)->Apply(configure);

// Ranks other than 0 run the same benchmarks silently.
class SilentReporter : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>&) override {}
};

}  // namespace

int main(int argc, char** argv) {
  classic::Environment environment(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (classic::Environment::world_rank() == 0) {
    std::printf("dispatch_benchmark: %d processes\n",
                classic::Environment::world_size());
    benchmark::RunSpecifiedBenchmarks();
  } else {
    SilentReporter silent;
    benchmark::RunSpecifiedBenchmarks(&silent);
  }
  benchmark::Shutdown();
  return 0;
}
