// Neighbourhood alltoall on a 2-d torus: classic's neighbour collectives next
// to Open MPI's on the same processes and the same neighbourhood: the von
// Neumann stencil (a Cartesian communicator, 4 neighbours) and the Moore
// stencil (a distributed graph, 8 neighbours); blocking (neighbor_alltoall
// vs MPI_Neighbor_alltoall) and persistent (neighbor_alltoall_init vs Open
// MPI 4.1's MPIX_Neighbor_alltoall_init, each call a start and a wait).
// These are the direct algorithms that ortho's message-combining ones are
// measured against. The floor runs beside them: the same messages posted by
// hand (experiments/hand_posted.h: MPI_Irecv, MPI_Isend, MPI_Waitall, or
// persistent requests started and waited for). On the von Neumann torus the
// hand-posted blocks pair by order where a dimension of size 2 makes both
// neighbours one process: the same messages and bytes, other places.
//
//   mpirun -np 16 bazel-bin/experiments/neighbor_benchmark
//
// Timing follows docs/design.md ("Measuring speed"): each benchmark iteration
// runs one batch of calls of *both* implementations, in alternating order; a
// batch starts with a barrier and its time is the maximum over ranks. Counters:
// classic_us, openmpi_us and raw_us (per call), ratio (classic / Open MPI:
// below 1 is faster), floor_ratio (classic's time over the hand-posted one:
// 1 is no overhead over the messages themselves), and the structure of the
// direct algorithm per process and call: messages, bytes sent, rounds.
#include <benchmark/benchmark.h>
#include <mpi.h>
// After mpi.h, which it needs: MPIX_Neighbor_alltoall_init (pcollreq).
#include <mpi-ext.h>

#include <array>
#include <cstdio>
#include <cstring>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "classic/base/environment.h"
#include "classic/comm/comm.h"
#include "classic/graph/dist_graph.h"
#include "classic/groups/group.h"
#include "classic/neighbor/neighbor_collectives.h"
#include "classic/p2p/request.h"
#include "classic/topology/cartesian.h"
#include "classic/topology/dims_create.h"
#include "experiments/hand_posted.h"
#include "experiments/run_benchmarks.h"
#include "naming/cart_name.h"
#include "ortho/dist_graph.h"

namespace {

enum class Stencil { von_neumann, moore };
enum class Implementation { classic, openmpi, raw };
constexpr std::array<Implementation, 3> kImplementations = {
    Implementation::classic, Implementation::openmpi, Implementation::raw};
enum class Form { blocking, persistent };

constexpr int kCallsPerBatch = 20;

// --reorder: the communicators are made with Reorder::yes (main sets it).
bool reorder_grid = false;

// A periodic 2-d grid and one process's place on it; ranks row-major.
struct Torus {
  std::vector<int> dims;
  int x = 0;
  int y = 0;

  // The caller's place on `grid` (classic's Cartesian topology).
  static Torus of(const classic::Comm& grid) {
    const classic::CartInfo info = classic::cart_get(grid);
    return {info.dims, info.coords[0], info.coords[1]};
  }
  // The place of `rank` on a grid of `dims` ranked row-major.
  static Torus row_major(std::vector<int> dims, int rank) {
    const int columns = dims[1];
    return {std::move(dims), rank / columns, rank % columns};
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

// The periodic 2-d grid of the world, reordered where --reorder says.
classic::Comm make_grid() {
  const std::array<int, 2> any{0, 0};
  const std::vector<int> dims =
      classic::dims_create(classic::Environment::world_size(), any);
  const std::array<bool, 2> periods{true, true};
  return classic::cart_create(
      classic::Comm::world(), dims, periods,
      reorder_grid ? classic::Reorder::yes : classic::Reorder::no);
}

// Ranks of `comm` as ranks of the world (where the floor posts).
std::vector<int> world_ranks(const classic::Comm& comm,
                             std::span<const int> ranks) {
  return comm.group().translate_ranks(ranks, classic::Comm::world().group());
}

// The same neighbourhood as a classic communicator and an Open MPI one.
class Neighbourhood {
 public:
  explicit Neighbourhood(Stencil stencil) {
    const classic::Comm grid = make_grid();
    const Torus torus = Torus::of(grid);
    const int mpi_reorder = reorder_grid ? 1 : 0;
    std::vector<int> ranks;  // the neighbours, ranked in grid
    if (stencil == Stencil::von_neumann) {
      classic_ = grid;
      const std::array<int, 2> mpi_periods{1, 1};
      MPI_Cart_create(MPI_COMM_WORLD, 2, torus.dims.data(), mpi_periods.data(),
                      mpi_reorder, &openmpi_);
      degree_ = 4;
      // MPI's Cartesian order: per dimension, the neighbour at -1, then +1.
      ranks = {torus.rank_at(-1, 0), torus.rank_at(1, 0), torus.rank_at(0, -1),
               torus.rank_at(0, 1)};
    } else if (reorder_grid) {
      // ortho's mapping: the world named as the grid, the Moore graph made
      // with Reorder::yes (classic's Cartesian layout weighs the von
      // Neumann edges only); the neighbours are then read in its order.
      const classic::Comm named = classic::Comm::world().dup();
      naming::cart_name(named, torus.dims, std::array<bool, 2>{true, true},
                        naming::Order::row_major);
      const std::vector<int> world_moore =
          Torus::row_major(torus.dims, classic::Environment::world_rank())
              .moore();
      classic_ = ortho::dist_graph_create_adjacent(
          named, world_moore, classic::unweighted, world_moore,
          classic::unweighted, {}, classic::Reorder::yes);
      ranks = classic::dist_graph_neighbors(classic_).destinations;
      make_openmpi_moore(torus, mpi_reorder);
      ranks_ = world_ranks(classic_, ranks);
      return;
    } else {
      ranks = torus.moore();
      classic_ = classic::dist_graph_create_adjacent(
          grid, ranks, classic::unweighted, ranks, classic::unweighted);
      make_openmpi_moore(torus, mpi_reorder);
    }
    ranks_ = world_ranks(grid, ranks);
  }
  // Open MPI's Moore graph over the world in row-major order (its own
  // reordering, if any, is its topology component's).
  void make_openmpi_moore(const Torus& torus, int mpi_reorder) {
    const std::vector<int> world_moore =
        Torus::row_major(torus.dims, classic::Environment::world_rank())
            .moore();
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 8, world_moore.data(),
                                   MPI_UNWEIGHTED, 8, world_moore.data(),
                                   MPI_UNWEIGHTED, MPI_INFO_NULL, mpi_reorder,
                                   &openmpi_);
    degree_ = 8;
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

  // The hand-posted messages on these buffers (collective).
  void make_hand_posted(std::span<const double> send, std::span<double> recv) {
    const int block = static_cast<int>(send.size()) / degree_;
    std::vector<MPI_Aint> at(static_cast<std::size_t>(degree_));
    for (std::size_t i = 0; i < at.size(); ++i) {
      at[i] = static_cast<MPI_Aint>(i * static_cast<std::size_t>(block) *
                                    sizeof(double));
    }
    hand_posted_ = std::make_unique<experiments::HandPosted>(
        MPI_COMM_WORLD, ranks_, ranks_,
        experiments::HandBlocks<const void*>{send.data(), at, block,
                                             MPI_DOUBLE},
        experiments::HandBlocks<void*>{recv.data(), at, block, MPI_DOUBLE});
  }

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
      if (implementation == Implementation::raw) {
        if (form == Form::persistent) {
          hand_posted_->start_and_wait();
        } else {
          hand_posted_->run();
        }
      } else if (form == Form::persistent && classic) {
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
  // The neighbours (sources and destinations) as world ranks.
  std::vector<int> ranks_;
  std::unique_ptr<experiments::HandPosted> hand_posted_;
};

// Reports classic's time; the counters compare it with Open MPI's.
void BM_NeighborAlltoall(benchmark::State& state, Stencil stencil, Form form) {
  Neighbourhood neighbourhood(stencil);
  const auto block = static_cast<std::size_t>(state.range(0));
  const auto total = block * static_cast<std::size_t>(neighbourhood.degree());
  std::vector<double> send(total, 1.0);
  std::vector<double> recv(total);
  if (form == Form::persistent) neighbourhood.make_persistent(send, recv);
  neighbourhood.make_hand_posted(send, recv);
  // Per implementation, the seconds of all its batches; each iteration
  // runs the three in a rotated order.
  std::array<double, kImplementations.size()> seconds{};
  std::size_t rotation = 0;
  for (auto _ : state) {
    double classic = 0.0;
    for (std::size_t k = 0; k < kImplementations.size(); ++k) {
      const std::size_t which = (rotation + k) % kImplementations.size();
      const double batch =
          neighbourhood.batch(kImplementations[which], form, send, recv);
      seconds[which] += batch;
      if (kImplementations[which] == Implementation::classic) classic = batch;
    }
    rotation = (rotation + 1) % kImplementations.size();
    state.SetIterationTime(classic);
  }
  const auto iterations = static_cast<double>(state.iterations());
  const double classic_seconds = seconds[0];
  const double openmpi_seconds = seconds[1];
  const double raw_seconds = seconds[2];
  state.counters["classic_us"] = 1e6 * classic_seconds / iterations;
  state.counters["openmpi_us"] = 1e6 * openmpi_seconds / iterations;
  state.counters["raw_us"] = 1e6 * raw_seconds / iterations;
  state.counters["ratio"] = classic_seconds / openmpi_seconds;
  state.counters["floor_ratio"] = classic_seconds / raw_seconds;
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

}  // namespace

int main(int argc, char** argv) {
  classic::Environment environment(argc, argv,
                                   classic::UncaughtErrors::report_and_abort);
  benchmark::Initialize(&argc, argv);
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--reorder") == 0) {
      reorder_grid = true;
    } else {
      if (classic::Environment::world_rank() == 0) {
        std::fprintf(stderr,
                     "neighbor_benchmark: unknown argument '%s' (benchmark "
                     "flags, --reorder)\n",
                     argv[i]);
      }
      return 2;
    }
  }
  if (classic::Environment::world_rank() == 0) {
    std::printf("neighbor_benchmark: %d processes%s\n",
                classic::Environment::world_size(),
                reorder_grid ? ", grid made with Reorder::yes" : "");
  }
  experiments::run_benchmarks(classic::Environment::world_rank() == 0);
  benchmark::Shutdown();
  return 0;
}
