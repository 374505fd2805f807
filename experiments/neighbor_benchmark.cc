// Neighbourhood alltoall on a 2-d torus: classic's neighbour collectives next
// to Open MPI's on the same processes and the same neighbourhood: the von
// Neumann stencil (a Cartesian communicator, 4 neighbours) and the Moore
// stencil (a distributed graph, 8 neighbours); blocking (neighbor_alltoall
// vs MPI_Neighbor_alltoall) and persistent (neighbor_alltoall_init vs Open
// MPI 4.1's MPIX_Neighbor_alltoall_init, each call a start and a wait).
// These are the direct algorithms that ortho's message-combining ones are
// measured against.
//
//   mpirun -np 16 bazel-bin/experiments/neighbor_benchmark
//
// Timing follows docs/design.md ("Measuring speed"): each benchmark iteration
// runs one batch of calls of *both* implementations, in alternating order; a
// batch starts with a barrier and its time is the maximum over ranks. Counters:
// classic_us and openmpi_us (per call), ratio (classic / Open MPI), and the
// structure of the direct algorithm per process and call: messages, bytes
// sent, rounds.
#include <benchmark/benchmark.h>
#include <mpi.h>
// After mpi.h, which it needs: MPIX_Neighbor_alltoall_init (pcollreq).
#include <mpi-ext.h>

#include <array>
#include <cstdio>
#include <span>
#include <vector>

#include "classic/base/environment.h"
#include "classic/comm/comm.h"
#include "classic/graph/dist_graph.h"
#include "classic/neighbor/neighbor_collectives.h"
#include "classic/p2p/request.h"
#include "classic/topology/cartesian.h"
#include "classic/topology/dims_create.h"

namespace {

enum class Stencil { von_neumann, moore };
enum class Implementation { classic, openmpi };
enum class Form { blocking, persistent };

constexpr int kCallsPerBatch = 20;

// The torus: dims_create's balanced 2-d grid over the world, both periodic.
struct Torus {
  std::vector<int> dims;
  int x = 0;
  int y = 0;

  Torus() {
    const std::array<int, 2> any{0, 0};
    dims = classic::dims_create(classic::Environment::world_size(), any);
    x = classic::Environment::world_rank() / dims[1];
    y = classic::Environment::world_rank() % dims[1];
  }
  int rank_at(int dx, int dy) const {
    const int nx = ((x + dx) % dims[0] + dims[0]) % dims[0];
    const int ny = ((y + dy) % dims[1] + dims[1]) % dims[1];
    return nx * dims[1] + ny;
  }
  // The 8 Moore neighbours, row by row (the same list as sources and
  // destinations: the stencil is symmetric).
  std::vector<int> moore() const {
    std::vector<int> ranks;
    for (int dx = -1; dx <= 1; ++dx) {
      for (int dy = -1; dy <= 1; ++dy) {
        if (dx != 0 || dy != 0) ranks.push_back(rank_at(dx, dy));
      }
    }
    return ranks;
  }
};

// The same neighbourhood as a classic communicator and an Open MPI one.
class Neighbourhood {
 public:
  explicit Neighbourhood(Stencil stencil) {
    const Torus torus;
    const std::array<bool, 2> periods{true, true};
    const std::array<int, 2> mpi_periods{1, 1};
    if (stencil == Stencil::von_neumann) {
      classic_ = classic::cart_create(classic::Comm::world(), torus.dims,
                                      periods, classic::Reorder::no);
      MPI_Cart_create(MPI_COMM_WORLD, 2, torus.dims.data(), mpi_periods.data(),
                      0, &openmpi_);
      degree_ = 4;
    } else {
      const std::vector<int> ranks = torus.moore();
      classic_ = classic::dist_graph_create_adjacent(
          classic::Comm::world(), ranks, classic::unweighted, ranks,
          classic::unweighted);
      MPI_Dist_graph_create_adjacent(
          MPI_COMM_WORLD, 8, ranks.data(), MPI_UNWEIGHTED, 8, ranks.data(),
          MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &openmpi_);
      degree_ = 8;
    }
  }
  ~Neighbourhood() {
    if (openmpi_persistent_ != MPI_REQUEST_NULL) {
      MPI_Request_free(&openmpi_persistent_);
    }
    MPI_Comm_free(&openmpi_);
  }
  Neighbourhood(const Neighbourhood&) = delete;
  Neighbourhood& operator=(const Neighbourhood&) = delete;

  int degree() const { return degree_; }

  // Makes the persistent requests of both implementations on these buffers.
  void make_persistent(std::span<const double> send, std::span<double> recv) {
    const int block = static_cast<int>(send.size()) / degree_;
    classic_persistent_ = classic::neighbor_alltoall_init(classic_, send, recv);
    MPIX_Neighbor_alltoall_init(send.data(), block, MPI_DOUBLE, recv.data(),
                                block, MPI_DOUBLE, openmpi_, MPI_INFO_NULL,
                                &openmpi_persistent_);
  }

  // Seconds per call over one batch, the maximum over ranks.
  double batch(Implementation implementation, Form form,
               std::span<const double> send, std::span<double> recv) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    const int block = static_cast<int>(send.size()) / degree_;
    const bool classic = implementation == Implementation::classic;
    for (int call = 0; call < kCallsPerBatch; ++call) {
      if (form == Form::persistent && classic) {
        classic::start(classic_persistent_);
        classic::wait(classic_persistent_);
      } else if (form == Form::persistent) {
        MPI_Start(&openmpi_persistent_);
        MPI_Wait(&openmpi_persistent_, MPI_STATUS_IGNORE);
      } else if (classic) {
        classic::neighbor_alltoall(classic_, send, recv);
      } else {
        MPI_Neighbor_alltoall(send.data(), block, MPI_DOUBLE, recv.data(),
                              block, MPI_DOUBLE, openmpi_);
      }
      benchmark::DoNotOptimize(recv.data());
    }
    const double mine = (MPI_Wtime() - start) / kCallsPerBatch;
    double slowest = 0.0;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return slowest;
  }

 private:
  classic::Comm classic_;
  MPI_Comm openmpi_ = MPI_COMM_NULL;
  int degree_ = 0;
  classic::Request classic_persistent_;
  MPI_Request openmpi_persistent_ = MPI_REQUEST_NULL;
};

// Reports classic's time; the counters compare it with Open MPI's.
void BM_NeighborAlltoall(benchmark::State& state, Stencil stencil, Form form) {
  Neighbourhood neighbourhood(stencil);
  const auto block = static_cast<std::size_t>(state.range(0));
  const auto total = block * static_cast<std::size_t>(neighbourhood.degree());
  std::vector<double> send(total, 1.0);
  std::vector<double> recv(total);
  if (form == Form::persistent) neighbourhood.make_persistent(send, recv);
  double classic_seconds = 0.0;
  double openmpi_seconds = 0.0;
  bool classic_first = true;
  for (auto _ : state) {
    const Implementation first =
        classic_first ? Implementation::classic : Implementation::openmpi;
    const Implementation second =
        classic_first ? Implementation::openmpi : Implementation::classic;
    const double first_seconds = neighbourhood.batch(first, form, send, recv);
    const double second_seconds = neighbourhood.batch(second, form, send, recv);
    const double classic = classic_first ? first_seconds : second_seconds;
    const double openmpi = classic_first ? second_seconds : first_seconds;
    classic_seconds += classic;
    openmpi_seconds += openmpi;
    classic_first = !classic_first;
    state.SetIterationTime(classic);
  }
  const auto iterations = static_cast<double>(state.iterations());
  state.counters["classic_us"] = 1e6 * classic_seconds / iterations;
  state.counters["openmpi_us"] = 1e6 * openmpi_seconds / iterations;
  state.counters["ratio"] = classic_seconds / openmpi_seconds;
  // The direct algorithm: one message per neighbour, all in one round.
  state.counters["messages"] = neighbourhood.degree();
  state.counters["bytes"] = static_cast<double>(total * sizeof(double));
  state.counters["rounds"] = 1;
}

// Fixed iteration counts: every rank must run exactly the same loop.
void configure(benchmark::internal::Benchmark* benchmark) {
  benchmark->UseManualTime()
      ->Iterations(50)
      ->Repetitions(5)
      ->ReportAggregatesOnly(true)
      ->Unit(benchmark::kMicrosecond)
      ->Arg(1)
      ->Arg(64)
      ->Arg(4096);
}

BENCHMARK_CAPTURE(BM_NeighborAlltoall, von_neumann, Stencil::von_neumann,
                  Form::blocking)
    ->Apply(configure);
BENCHMARK_CAPTURE(BM_NeighborAlltoall, moore, Stencil::moore, Form::blocking)
    ->Apply(configure);
BENCHMARK_CAPTURE(BM_NeighborAlltoall, von_neumann_persistent,
                  Stencil::von_neumann, Form::persistent)
    ->Apply(configure);
BENCHMARK_CAPTURE(BM_NeighborAlltoall, moore_persistent, Stencil::moore,
                  Form::persistent)
    ->Apply(configure);

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
    std::printf("neighbor_benchmark: %d processes\n",
                classic::Environment::world_size());
    benchmark::RunSpecifiedBenchmarks();
  } else {
    SilentReporter silent;
    benchmark::RunSpecifiedBenchmarks(&silent);
  }
  benchmark::Shutdown();
  return 0;
}
