// Node-aware neighbourhood collectives against Open MPI on a job that spans
// several hosts: allgather and alltoall on periodic 2-d and 3-d Moore
// stencils (depth 1) over all processes, made the orthocomm way
// (naming::cart_name on a duplicate of the world, stencils'
// cart_neighbor_ranks, ortho::dist_graph_create_adjacent), blocks of 4 B to
// 40 KB of ints. Variants, interleaved in rotated order:
//   openmpi             MPI_Neighbor_* on Open MPI's graph of the same lists;
//   openmpi_persistent  MPIX_Neighbor_*_init, each call start + wait;
//   raw                 direct's messages posted by hand (the floor of
//                       one message per edge: experiments/hand_posted.h);
//   direct, combining, node_aware, mpi  ortho with set_algorithm forcing
//                       it (mpi: Open MPI's call behind ortho's dispatch);
//   direct_persistent, combining_persistent, node_aware_persistent,
//   mpi_persistent      ortho::<op>_init on the forced graphs;
//   selected, selected_persistent  ortho's default choice.
//
//   mpirun -np 16 bazel-out/k8-opt/bin/experiments/node_aware_benchmark
//       [benchmark flags]     (tools/node_aware.sh runs it on simulated hosts)
//
// Timing follows docs/design.md ("Measuring speed"): each iteration runs a
// batch of calls of every variant, a barrier before each batch, its time
// per call the maximum over ranks; a variant's time is its mean over the
// iterations. Counters (rank 0): <variant>_us per call; <variant>_ratio =
// <variant>_us / openmpi_us (below 1: faster than Open MPI); hosts; and per
// process and call, the most over processes, of the messages between hosts
// of direct and node_aware (ortho::traffic: exact, from the plans).
#include <benchmark/benchmark.h>
#include <mpi.h>

#include <array>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "classic/base/environment.h"
#include "classic/comm/comm.h"
#include "classic/comm/locality.h"
#include "classic/exec/mode.h"
#include "classic/p2p/request.h"
#include "classic/topology/dims_create.h"
#include "experiments/hand_posted.h"
#include "experiments/model_prices.h"
#include "experiments/openmpi_neighbor.h"
#include "experiments/run_benchmarks.h"
#include "naming/cart_name.h"
#include "ortho/dist_graph.h"
#include "ortho/explain.h"
#include "ortho/operation.h"
#include "ortho/raw_collectives.h"
#include "ortho/table.h"
#include "ortho/traffic.h"
#include "stencils/cart_neighbors.h"
#include "stencils/neighborhood.h"

namespace {

enum class Variant {
  openmpi,
  openmpi_persistent,
  raw,
  direct,
  direct_persistent,
  combining,
  combining_persistent,
  node_aware,
  node_aware_persistent,
  mpi,
  mpi_persistent,
  selected,
  selected_persistent,
};
constexpr std::array<const char*, 13> kNames = {"openmpi",
                                                "openmpi_persistent",
                                                "raw",
                                                "direct",
                                                "direct_persistent",
                                                "combining",
                                                "combining_persistent",
                                                "node_aware",
                                                "node_aware_persistent",
                                                "mpi",
                                                "mpi_persistent",
                                                "selected",
                                                "selected_persistent"};
constexpr int kVariants = static_cast<int>(kNames.size());
constexpr int kCallsPerBatch = 10;

using Op = experiments::NeighborOp;

// The stencil graph, its ortho communicators (one per forced algorithm)
// and Open MPI's.
class Stencil {
 public:
  explicit Stencil(int ndims) {
    const classic::Comm world = classic::Comm::world();
    const std::vector<int> dims =
        classic::dims_create(world.size(), std::vector<int>(ndims, 0));
    named_ = world.dup();
    const std::vector<char> periodic(dims.size(), 1);
    naming::cart_name(
        named_, dims,
        std::span<const bool>(reinterpret_cast<const bool*>(periodic.data()),
                              dims.size()),
        naming::Order::row_major);
    neighbours_ = stencils::cart_neighbor_ranks(
        named_, named_.rank(), stencils::Metric::chebyshev, 1, 1);
    for (const char* algorithm :
         {"", "direct", "combining", "node_aware", "mpi"}) {
      classic::Comm graph = ortho::dist_graph_create_adjacent(
          named_, neighbours_, classic::unweighted, neighbours_,
          classic::unweighted);
      if (*algorithm != '\0') ortho::set_algorithm(graph, algorithm);
      graphs_.push_back(graph);
    }
    const int degree = static_cast<int>(neighbours_.size());
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, degree, neighbours_.data(),
                                   MPI_UNWEIGHTED, degree, neighbours_.data(),
                                   MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &openmpi_);
  }
  ~Stencil() { MPI_Comm_free(&openmpi_); }
  Stencil(const Stencil&) = delete;
  Stencil& operator=(const Stencil&) = delete;

  int degree() const { return static_cast<int>(neighbours_.size()); }
  const std::vector<int>& neighbours() const { return neighbours_; }
  MPI_Comm openmpi() const { return openmpi_; }
  const classic::Comm& selected() const { return graphs_[0]; }
  const classic::Comm& direct() const { return graphs_[1]; }
  const classic::Comm& combining() const { return graphs_[2]; }
  const classic::Comm& node_aware() const { return graphs_[3]; }
  const classic::Comm& mpi() const { return graphs_[4]; }

 private:
  classic::Comm named_;
  std::vector<int> neighbours_;
  std::vector<classic::Comm> graphs_;
  MPI_Comm openmpi_ = MPI_COMM_NULL;
};

// One operation at one block size on one stencil: buffers, persistent
// requests, the hand-posted floor.
class Point {
 public:
  Point(const Stencil& stencil, Op op, int ints)
      : stencil_(stencil), op_(op), ints_(ints) {
    const auto degree = static_cast<std::size_t>(stencil.degree());
    send_.assign(op == Op::alltoall ? degree * ints : ints, 1);
    recv_.assign(degree * ints, 0);
    selected_persistent_ = init(stencil.selected());
    direct_persistent_ = init(stencil.direct());
    combining_persistent_ = init(stencil.combining());
    node_aware_persistent_ = init(stencil.node_aware());
    mpi_persistent_ = init(stencil.mpi());
    openmpi_persistent_ = experiments::openmpi_neighbor_init(
        op, send_.data(), recv_.data(), ints, stencil.openmpi());
    std::vector<MPI_Aint> send_at(degree);
    std::vector<MPI_Aint> recv_at(degree);
    for (std::size_t i = 0; i < degree; ++i) {
      recv_at[i] = static_cast<MPI_Aint>(i * ints * sizeof(int));
      send_at[i] = op == Op::alltoall ? recv_at[i] : 0;
    }
    raw_ = std::make_unique<experiments::HandPosted>(
        MPI_COMM_WORLD, stencil.neighbours(), stencil.neighbours(),
        experiments::HandBlocks<const void*>{send_.data(), send_at, ints,
                                             MPI_INT},
        experiments::HandBlocks<void*>{recv_.data(), recv_at, ints, MPI_INT});
  }
  ~Point() { MPI_Request_free(&openmpi_persistent_); }
  Point(const Point&) = delete;
  Point& operator=(const Point&) = delete;

  void call(Variant variant) {
    switch (variant) {
      case Variant::openmpi:
        experiments::openmpi_neighbor(op_, send_.data(), recv_.data(), ints_,
                                      stencil_.openmpi());
        return;
      case Variant::openmpi_persistent:
        MPI_Start(&openmpi_persistent_);
        MPI_Wait(&openmpi_persistent_, MPI_STATUS_IGNORE);
        return;
      case Variant::raw:
        raw_->run();
        return;
      case Variant::direct:
        return blocking(stencil_.direct());
      case Variant::direct_persistent:
        return start_and_wait(direct_persistent_);
      case Variant::combining:
        return blocking(stencil_.combining());
      case Variant::combining_persistent:
        return start_and_wait(combining_persistent_);
      case Variant::node_aware:
        return blocking(stencil_.node_aware());
      case Variant::node_aware_persistent:
        return start_and_wait(node_aware_persistent_);
      case Variant::mpi:
        return blocking(stencil_.mpi());
      case Variant::mpi_persistent:
        return start_and_wait(mpi_persistent_);
      case Variant::selected:
        return blocking(stencil_.selected());
      case Variant::selected_persistent:
        return start_and_wait(selected_persistent_);
    }
  }

 private:
  void blocking(const classic::Comm& comm) {
    if (op_ == Op::allgather) {
      ortho::allgather(comm, send_.data(), ints_, MPI_INT, recv_.data(), ints_,
                       MPI_INT);
    } else {
      ortho::alltoall(comm, send_.data(), ints_, MPI_INT, recv_.data(), ints_,
                      MPI_INT);
    }
  }
  static void start_and_wait(classic::Request& request) {
    classic::start(request);
    classic::wait(request);
  }
  classic::Request init(const classic::Comm& comm) {
    return op_ == Op::allgather
               ? ortho::allgather_init(comm, send_.data(), ints_, MPI_INT,
                                       recv_.data(), ints_, MPI_INT)
               : ortho::alltoall_init(comm, send_.data(), ints_, MPI_INT,
                                      recv_.data(), ints_, MPI_INT);
  }

  const Stencil& stencil_;
  Op op_;
  int ints_;
  std::vector<int> send_;
  std::vector<int> recv_;
  classic::Request selected_persistent_;
  classic::Request direct_persistent_;
  classic::Request combining_persistent_;
  classic::Request node_aware_persistent_;
  classic::Request mpi_persistent_;
  MPI_Request openmpi_persistent_ = MPI_REQUEST_NULL;
  std::unique_ptr<experiments::HandPosted> raw_;
};

// Seconds per call of one batch, the maximum over ranks.
double batch(Point& point, Variant variant) {
  return experiments::slowest_seconds_per_call(
      kNames[static_cast<std::size_t>(variant)], kCallsPerBatch,
      [&] { point.call(variant); });
}

// The most messages between hosts any process sends per call.
int most_between_hosts(const classic::Comm& comm, ortho::Operation operation,
                       const char* algorithm, std::size_t bytes) {
  const std::optional<ortho::Traffic> traffic =
      ortho::traffic(comm, operation, algorithm, bytes);
  int mine = traffic && traffic->messages_between_hosts
                 ? *traffic->messages_between_hosts
                 : -1;
  int most = 0;
  MPI_Allreduce(&mine, &most, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return most;
}

// The stencils, made once per dimension count and freed before MPI ends.
std::array<std::unique_ptr<Stencil>, 4> made_stencils;

void BM_NodeAware(benchmark::State& state, int ndims, Op op) {
  std::unique_ptr<Stencil>& stencil =
      made_stencils[static_cast<std::size_t>(ndims)];
  if (!stencil) stencil = std::make_unique<Stencil>(ndims);
  const int ints = static_cast<int>(state.range(0));
  Point point(*stencil, op, ints);
  for (int v = 0; v < kVariants; ++v) point.call(static_cast<Variant>(v));
  // The selection's tuning runs before the timing: blocking calls until
  // their tuning covers this size, the persistent request's first starts.
  const ortho::Operation tuned_operation = op == Op::allgather
                                               ? ortho::Operation::allgather
                                               : ortho::Operation::alltoall;
  experiments::settle([&] { point.call(Variant::selected); },
                      [&] {
                        return ortho::explain(
                                   stencil->selected(), tuned_operation,
                                   static_cast<std::size_t>(ints) * sizeof(int))
                            .reason.starts_with("measured");
                      });
  for (int call = 0; call < experiments::kTuningCalls; ++call) {
    point.call(Variant::selected_persistent);
  }
  std::array<double, kNames.size()> seconds{};
  int rotation = 0;
  for (auto _ : state) {
    for (int k = 0; k < kVariants; ++k) {
      const int v = (rotation + k) % kVariants;
      const double time = batch(point, static_cast<Variant>(v));
      seconds[static_cast<std::size_t>(v)] += time;
      if (static_cast<Variant>(v) == Variant::selected) {
        state.SetIterationTime(time);
      }
    }
    rotation = (rotation + 1) % kVariants;
  }
  const auto iterations = static_cast<double>(state.iterations());
  const double openmpi = seconds[0];
  for (int v = 0; v < kVariants; ++v) {
    const std::string name = kNames[static_cast<std::size_t>(v)];
    state.counters[name + "_us"] =
        1e6 * seconds[static_cast<std::size_t>(v)] / iterations;
    if (v != 0) {
      state.counters[name + "_ratio"] =
          seconds[static_cast<std::size_t>(v)] / openmpi;
    }
  }
  const ortho::Operation operation = op == Op::allgather
                                         ? ortho::Operation::allgather
                                         : ortho::Operation::alltoall;
  const auto bytes = static_cast<std::size_t>(ints) * sizeof(int);
  state.counters["direct_between"] =
      most_between_hosts(stencil->direct(), operation, "direct", bytes);
  state.counters["node_aware_between"] =
      most_between_hosts(stencil->node_aware(), operation, "node_aware", bytes);
  state.counters["hosts"] = classic::locality(classic::Comm::world()).hosts();
  experiments::count_model_prices(state, stencil->selected(), operation, bytes);
  // What each selection runs, and why (ortho::explain: prices and measured
  // times of every candidate).
  const auto why = [&](classic::Mode mode) {
    return ortho::to_string(
        ortho::explain(stencil->selected(), operation, bytes, mode));
  };
  state.SetLabel(
      "selected=" +
      std::string(
          ortho::selected_algorithm(stencil->selected(), operation, bytes)) +
      " selected_persistent=" +
      std::string(ortho::selected_algorithm(stencil->selected(), operation,
                                            bytes, classic::Mode::persistent)) +
      " | " + why(classic::Mode::blocking) + " | " +
      why(classic::Mode::persistent));
}

void configure(benchmark::internal::Benchmark* benchmark) {
  benchmark->UseManualTime()
      ->Iterations(30)
      ->Unit(benchmark::kMicrosecond)
      ->Arg(1)
      ->Arg(10)
      ->Arg(100)
      ->Arg(250)
      ->Arg(1000)
      ->Arg(10000);
}

BENCHMARK_CAPTURE(BM_NodeAware, allgather_2d, 2, Op::allgather)
    ->Apply(configure);
BENCHMARK_CAPTURE(BM_NodeAware, alltoall_2d, 2, Op::alltoall)->Apply(configure);
BENCHMARK_CAPTURE(BM_NodeAware, allgather_3d, 3, Op::allgather)
    ->Apply(configure);
BENCHMARK_CAPTURE(BM_NodeAware, alltoall_3d, 3, Op::alltoall)->Apply(configure);

}  // namespace

int main(int argc, char** argv) {
  classic::Environment environment(argc, argv,
                                   classic::UncaughtErrors::report_and_abort);
  benchmark::Initialize(&argc, argv);
  // Collective the first time: every process asks.
  const int hosts = classic::locality(classic::Comm::world()).hosts();
  if (classic::Environment::world_rank() == 0) {
    std::printf("node_aware_benchmark: %d processes on %d hosts\n",
                classic::Environment::world_size(), hosts);
  }
  experiments::run_benchmarks(classic::Environment::world_rank() == 0);
  benchmark::Shutdown();
  for (auto& stencil : made_stencils) stencil.reset();
  return 0;
}
