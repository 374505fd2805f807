// The cost of ortho's dispatch: an ortho collective next to a direct call of
// the implementation its table selected, for zero-byte exchanges (where
// the dispatch is all there is to measure besides the messages):
//  - graph_alltoall: ortho::alltoall on a Moore torus (a directed graph of
//    8 neighbours) vs classic::neighbor_alltoall on the same communicator;
//  - empty_graph_alltoall: the same on a graph without edges (no messages:
//    the dispatch against classic's own per-call work);
//  - intra_allgather: ortho::allgather on a fully connected communicator vs
//    classic::allgather;
//  - layers_over_open_mpi: Open MPI's MPI_Neighbor_alltoall of 4 B blocks
//    on the Moore torus against the same call on a second graph, through
//    classic's transport wrapper, through ortho with mpi forced and by
//    ortho's direct, and persistent: Open MPI's MPIX_Neighbor_alltoall_init,
//    classic's wrapper's request, ortho::alltoall_init with mpi forced
//    (each layer's cost where processes share cores);
// and the cost of checked mode (classic/collectives/checked.h), the same
// call checked against unchecked:
//  - checked_allreduce: classic::allreduce of one int on the world;
//  - checked_neighbor_alltoall: classic::neighbor_alltoall of 8 bytes a
//    block on the Moore torus.
//
//   mpirun -np 4 bazel-bin/experiments/dispatch_benchmark
//
// Timing as in neighbor_benchmark: each iteration runs one batch of each
// variant in alternating order, a batch begins with a barrier and its time
// is the maximum over ranks. Counters, medians over a repetition's
// iterations: ortho_us and direct_us (per call; checked_us and unchecked_us
// for checked mode), ratio (of the two batches of one iteration, ortho /
// direct; the goal is at most 1.02) and overhead_ns (the difference of the
// two medians).
#include <benchmark/benchmark.h>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "classic/base/environment.h"
#include "classic/collectives/checked.h"
#include "classic/collectives/collectives.h"
#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "classic/graph/dist_graph.h"
#include "classic/neighbor/neighbor_collectives.h"
#include "classic/neighbor/transport_graph.h"
#include "classic/p2p/request.h"
#include "classic/topology/dims_create.h"
#include "experiments/openmpi_neighbor.h"
#include "experiments/run_benchmarks.h"
#include "ortho/collectives.h"
#include "ortho/dist_graph.h"
#include "ortho/table.h"

namespace {

constexpr int kCallsPerBatch = 200;

// The Moore neighbourhood of a periodic 2-d grid over the world: the
// ranks of this process's neighbours.
std::vector<int> moore_ranks() {
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
  return ranks;
}

// The same as an ortho graph communicator.
classic::Comm moore_torus() {
  const std::vector<int> ranks = moore_ranks();
  return ortho::dist_graph_create_adjacent(classic::Comm::world(), ranks,
                                           classic::unweighted, ranks,
                                           classic::unweighted);
}

// Seconds per call of `call` over one batch, the maximum over ranks.
double batch(const std::function<void()>& call) {
  return experiments::slowest_seconds_per_call("dispatch", kCallsPerBatch,
                                               call);
}

double median(std::vector<double> values) {
  const auto middle =
      values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

// Each iteration runs one batch of each, the order alternating; the
// counters are medians over the iterations (a batch that met a scheduling
// hiccup of the oversubscribed machine moves a mean, not a median), the
// ratio the median of the paired ratios of one iteration's two batches.
void compare(benchmark::State& state, const std::function<void()>& ortho,
             const std::function<void()>& direct,
             const char* ortho_name = "ortho_us",
             const char* direct_name = "direct_us") {
  std::vector<double> ortho_times;
  std::vector<double> direct_times;
  std::vector<double> ratios;
  bool ortho_first = true;
  for (auto _ : state) {
    const double first = batch(ortho_first ? ortho : direct);
    const double second = batch(ortho_first ? direct : ortho);
    const double mine = ortho_first ? first : second;
    const double theirs = ortho_first ? second : first;
    ortho_times.push_back(mine);
    direct_times.push_back(theirs);
    ratios.push_back(mine / theirs);
    ortho_first = !ortho_first;
    state.SetIterationTime(mine);
  }
  const double ortho_seconds = median(ortho_times);
  const double direct_seconds = median(direct_times);
  state.counters[ortho_name] = 1e6 * ortho_seconds;
  state.counters[direct_name] = 1e6 * direct_seconds;
  state.counters["ratio"] = median(ratios);
  state.counters["overhead_ns"] = 1e9 * (ortho_seconds - direct_seconds);
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

// Open MPI's MPI_Neighbor_alltoall of one int per neighbour on the Moore
// torus, and the same call through each layer above it, each on a graph
// of its own: Open MPI's on a second graph of the same lists (the control:
// what two graphs differ by), classic's transport wrapper
// (classic::transport_neighbor_alltoall on a TransportGraph), ortho with
// mpi forced (the dispatch in front of that wrapper) and ortho with direct
// forced (ortho's own messages); then the persistent forms of Open MPI's
// call, of classic's wrapper and of ortho's mpi, each start + wait (over
// Open MPI's blocking call, as the others). Each iteration runs a batch of
// every variant, the order rotating; a variant's counter <name>_ratio is the
// median over the iterations of its batch's time over Open MPI's batch of
// the same iteration, <name>_us its median time per call.
void BM_LayersOverOpenMpi(benchmark::State& state) {
  const std::vector<int> ranks = moore_ranks();
  const int degree = static_cast<int>(ranks.size());
  std::array<MPI_Comm, 2> openmpi{};
  for (MPI_Comm& graph : openmpi) {
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, degree, ranks.data(),
                                   MPI_UNWEIGHTED, degree, ranks.data(),
                                   MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &graph);
  }
  const classic::Comm world = classic::Comm::world();
  const classic::TransportGraph transport(world, ranks, ranks,
                                          "BM_LayersOverOpenMpi");
  classic::Comm mpi = moore_torus();
  ortho::set_algorithm(mpi, "mpi");
  classic::Comm direct = moore_torus();
  ortho::set_algorithm(direct, "direct");
  std::vector<int> send(ranks.size(), world.rank());
  std::vector<int> recv(ranks.size(), 0);
  // The same call as persistent requests, each start + wait.
  MPI_Request openmpi_persistent = experiments::openmpi_neighbor_init(
      experiments::NeighborOp::alltoall, send.data(), recv.data(), 1,
      openmpi[1]);
  classic::Request transport_persistent = classic::transport_neighbor_alltoall(
      transport, classic::Mode::persistent, send.data(), 1, MPI_INT,
      recv.data(), 1, MPI_INT, "BM_LayersOverOpenMpi");
  classic::Request mpi_persistent = ortho::alltoall_init(
      mpi, send.data(), 1, MPI_INT, recv.data(), 1, MPI_INT);
  const auto start_and_wait = [](classic::Request& request) {
    classic::start(request);
    (void)classic::wait(request);
  };
  const std::array<std::pair<const char*, std::function<void()>>, 8> variants{{
      {"openmpi",
       [&] {
         MPI_Neighbor_alltoall(send.data(), 1, MPI_INT, recv.data(), 1, MPI_INT,
                               openmpi[0]);
       }},
      {"openmpi_again",
       [&] {
         MPI_Neighbor_alltoall(send.data(), 1, MPI_INT, recv.data(), 1, MPI_INT,
                               openmpi[1]);
       }},
      {"classic_transport",
       [&] {
         classic::transport_neighbor_alltoall(
             transport, classic::Mode::blocking, send.data(), 1, MPI_INT,
             recv.data(), 1, MPI_INT, "BM_LayersOverOpenMpi");
       }},
      {"ortho_mpi",
       [&] {
         ortho::alltoall(mpi, send.data(), 1, MPI_INT, recv.data(), 1, MPI_INT);
       }},
      {"ortho_direct",
       [&] {
         ortho::alltoall(direct, send.data(), 1, MPI_INT, recv.data(), 1,
                         MPI_INT);
       }},
      {"openmpi_persistent",
       [&] {
         MPI_Start(&openmpi_persistent);
         MPI_Wait(&openmpi_persistent, MPI_STATUS_IGNORE);
       }},
      {"classic_transport_persistent",
       [&] { start_and_wait(transport_persistent); }},
      {"ortho_mpi_persistent", [&] { start_and_wait(mpi_persistent); }},
  }};
  std::array<std::vector<double>, variants.size()> times;
  std::array<std::vector<double>, variants.size()> ratios;
  std::size_t first = 0;
  for (auto _ : state) {
    std::array<double, variants.size()> seconds{};
    for (std::size_t k = 0; k < variants.size(); ++k) {
      const std::size_t v = (first + k) % variants.size();
      seconds[v] = batch(variants[v].second);
    }
    for (std::size_t v = 0; v < variants.size(); ++v) {
      times[v].push_back(seconds[v]);
      ratios[v].push_back(seconds[v] / seconds[0]);
    }
    first = (first + 1) % variants.size();
    state.SetIterationTime(seconds[3]);
  }
  for (std::size_t v = 0; v < variants.size(); ++v) {
    const std::string name = variants[v].first;
    state.counters[name + "_us"] = 1e6 * median(times[v]);
    if (v > 0) state.counters[name + "_ratio"] = median(ratios[v]);
  }
  MPI_Request_free(&openmpi_persistent);
  transport_persistent = classic::Request();
  mpi_persistent = classic::Request();
  for (MPI_Comm& graph : openmpi) MPI_Comm_free(&graph);
}

// `call` with checked mode on (every process alike), then off again.
std::function<void()> checked(const std::function<void()>& call) {
  return [call] {
    classic::set_checked(true);
    call();
    classic::set_checked(false);
  };
}

void BM_CheckedAllreduce(benchmark::State& state) {
  const classic::Comm comm = classic::Comm::world().dup();
  const int in = 1;
  int out = 0;
  const auto call = [&] {
    classic::allreduce(comm, &in, &out, 1, MPI_INT, MPI_SUM);
  };
  compare(state, checked(call), call, "checked_us", "unchecked_us");
}

void BM_CheckedNeighborAlltoall(benchmark::State& state) {
  const classic::Comm graph = moore_torus();
  std::vector<double> send(8, 1.0);
  std::vector<double> recv(8, 0.0);
  const auto call = [&] {
    classic::neighbor_alltoall(graph, send.data(), 1, MPI_DOUBLE, recv.data(),
                               1, MPI_DOUBLE);
  };
  compare(state, checked(call), call, "checked_us", "unchecked_us");
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
// Every repetition reported (tools/dispatch_layers.sh takes their spread).
BENCHMARK(BM_LayersOverOpenMpi)
    ->UseManualTime()
    ->Iterations(40)
    ->Repetitions(5)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_IntraAllgather)->Apply(configure);
BENCHMARK(BM_CheckedAllreduce)->Apply(configure);
BENCHMARK(BM_CheckedNeighborAlltoall)->Apply(configure);

}  // namespace

int main(int argc, char** argv) {
  classic::Environment environment(argc, argv,
                                   classic::UncaughtErrors::report_and_abort);
  benchmark::Initialize(&argc, argv);
  if (classic::Environment::world_rank() == 0) {
    std::printf("dispatch_benchmark: %d processes\n",
                classic::Environment::world_size());
  }
  experiments::run_benchmarks(classic::Environment::world_rank() == 0);
  benchmark::Shutdown();
  return 0;
}
