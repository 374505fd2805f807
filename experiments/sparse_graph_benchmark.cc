// Neighbourhood allgather and alltoall on general sparse graphs (not
// stencils: experiments/sparse_graphs.h) against Open MPI, one graph over
// all processes at a time, blocks of ints. Variants, interleaved in rotated
// order:
//   openmpi             MPI_Neighbor_* on MPI_Dist_graph_create_adjacent of
//                       the same lists (no reordering);
//   openmpi_persistent  MPIX_Neighbor_*_init, each call start + wait (where
//                       Open MPI has it: mpi-ext.h's pcollreq);
//   raw                 direct's messages posted by hand (one per edge:
//                       experiments/hand_posted.h), the floor;
//   direct, node_aware, common_neighbours, spread_relays  ortho with
//                       set_algorithm forcing it;
//   <the same>_persistent  their persistent requests (ortho::<op>_init);
//   selected, selected_persistent  ortho's default choice (the label names
//                       what each runs: selected=A selected_persistent=B).
//
//   mpirun -np 16 bazel-out/k8-opt/bin/experiments/sparse_graph_benchmark
//       [--graphs=NAME,...] [--blocks=B,...] [--iterations=N] [--calls=C]
//       [benchmark flags]   (tools/sparse_graphs.sh runs it on simulated hosts)
//
// NAME as sparse_graphs.h's parse_graph_spec reads it (default: er_0.05_s1,
// er_0.1_s1, er_0.2_s1, er_0.3_s1, geo_0.3_s1, geo_0.5_s1, mesh2d_60_sfc,
// mesh3d_15_sfc); B in bytes, multiples of 4 (default 4,40,400,1000).
// Before timing, every variant runs once into a buffer of its own and must
// equal Open MPI's result bit for bit; where one differs on any process the
// program says which and aborts. (--corrupt=VARIANT spoils that variant's
// result on rank 0 so that the check can be seen to work.)
//
// Timing follows docs/design.md ("Measuring speed"): each iteration runs a
// batch of 10 calls (--calls) of every variant after a barrier, its time
// per call the maximum over ranks. In a batch, calls overlap where the
// graph lets them (a process with few neighbours goes on to its next call
// while others still wait); --calls=1 times one call after the barrier.
// Counters (rank 0): <variant>_us, the median over the iterations;
// <variant>_ratio = <variant>_us / openmpi_us (below 1: faster than Open MPI),
// with <variant>_ratio_min and _ratio_max the least and greatest ratio of the
// two in one iteration; edges (directed, the whole graph), degree_max, hosts;
// and per process and call, from ortho::traffic (exact, from the plans), the
// messages and bytes of direct, node_aware, common_neighbours and
// spread_relays, mean over processes (_msgs, _bytes), the most on one process
// (_msgs_max) and the most messages between hosts from one process
// (_between).
#include <benchmark/benchmark.h>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "classic/base/environment.h"
#include "classic/comm/comm.h"
#include "classic/comm/locality.h"
#include "experiments/model_prices.h"
#include "experiments/run_benchmarks.h"
#include "experiments/sparse_exchange.h"
#include "experiments/sparse_graphs.h"
#include "ortho/explain.h"
#include "ortho/operation.h"
#include "ortho/table.h"
#include "ortho/traffic.h"

namespace {

using experiments::sparse::kNames;
using experiments::sparse::kVariants;
using experiments::sparse::Network;
using experiments::sparse::Op;
using experiments::sparse::Point;
using experiments::sparse::Variant;

struct Options {
  std::vector<std::string> graphs = {
      "er_0.05_s1", "er_0.1_s1",  "er_0.2_s1",     "er_0.3_s1",
      "geo_0.3_s1", "geo_0.5_s1", "mesh2d_60_sfc", "mesh3d_15_sfc"};
  std::vector<int> block_bytes = {4, 40, 400, 1000};
  int iterations = 10;
  // Calls per batch: a loop's time per call where more than one (its calls
  // overlap where the graph lets them), one call's latency after a
  // barrier where 1.
  int calls = 10;
  int corrupt = -1;  // --corrupt=VARIANT: its index
};
Options options;

// Seconds per call of one batch, the maximum over ranks.
double batch(Point& point, Variant variant) {
  return experiments::slowest_seconds_per_call(
      kNames[static_cast<std::size_t>(variant)], options.calls,
      [&] { point.call(variant); });
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// ortho::traffic of `algorithm` on every process: mean and most messages,
// mean bytes, most messages between hosts (-1 where not known).
void count_traffic(benchmark::State& state, const classic::Comm& comm,
                   ortho::Operation operation, const char* algorithm,
                   std::size_t bytes) {
  const std::optional<ortho::Traffic> traffic =
      ortho::traffic(comm, operation, algorithm, bytes);
  std::array<double, 2> sums = {
      traffic ? traffic->messages : 0.0,
      traffic ? static_cast<double>(traffic->bytes) : 0.0};
  std::array<int, 2> most = {traffic ? traffic->messages : -1,
                             traffic && traffic->messages_between_hosts
                                 ? *traffic->messages_between_hosts
                                 : -1};
  MPI_Allreduce(MPI_IN_PLACE, sums.data(), 2, MPI_DOUBLE, MPI_SUM,
                MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, most.data(), 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  const double processes = classic::Environment::world_size();
  const std::string name = algorithm;
  state.counters[name + "_msgs"] = sums[0] / processes;
  state.counters[name + "_msgs_max"] = most[0];
  state.counters[name + "_bytes"] = sums[1] / processes;
  state.counters[name + "_between"] = most[1];
}

// The graph benchmarked now (benchmarks run graph by graph): its name,
// size and network, freed before MPI ends.
struct Current {
  std::string name;
  double edges = 0.0;
  int degree_max = 0;
  std::unique_ptr<Network> network;
};
Current current;

void BM_Sparse(benchmark::State& state, const std::string& graph_name,
               const experiments::GraphSpec& spec, Op op) {
  if (current.name != graph_name) {
    current.network.reset();
    const experiments::Graph graph =
        experiments::make_graph(spec, classic::Environment::world_size());
    current.edges = static_cast<double>(experiments::edge_count(graph));
    current.degree_max = 0;
    for (const std::vector<int>& out : graph) {
      current.degree_max =
          std::max(current.degree_max, static_cast<int>(out.size()));
    }
    current.network = std::make_unique<Network>(graph);
    current.name = graph_name;
  }
  const Network& network = *current.network;
  const int block_bytes = static_cast<int>(state.range(0));
  Point point(network, op, block_bytes / 4);
  if (const int wrong = point.mismatch(options.corrupt); wrong >= 0) {
    if (classic::Environment::world_rank() == 0) {
      std::fprintf(stderr,
                   "sparse_graph_benchmark: MISMATCH on %s, %s, %d B blocks: "
                   "%s's result differs from Open MPI's\n",
                   graph_name.c_str(),
                   op == Op::allgather ? "allgather" : "alltoall", block_bytes,
                   kNames[static_cast<std::size_t>(wrong)]);
      std::fflush(stderr);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  // The selection's tuning runs before the timing: blocking calls until
  // their tuning covers this size, the persistent request's first starts.
  const ortho::Operation tuned_operation = op == Op::allgather
                                               ? ortho::Operation::allgather
                                               : ortho::Operation::alltoall;
  experiments::settle([&] { point.call(Variant::selected); },
                      [&] {
                        return ortho::explain(
                                   network.selected(), tuned_operation,
                                   static_cast<std::size_t>(block_bytes))
                            .reason.starts_with("measured");
                      });
  for (int call = 0; call < experiments::kTuningCalls; ++call) {
    point.call(Variant::selected_persistent);
  }
  std::array<std::vector<double>, kNames.size()> seconds;
  int rotation = 0;
  for (auto _ : state) {
    for (int k = 0; k < kVariants; ++k) {
      const int v = (rotation + k) % kVariants;
      if (!experiments::sparse::available(static_cast<Variant>(v))) continue;
      const double time = batch(point, static_cast<Variant>(v));
      seconds[static_cast<std::size_t>(v)].push_back(time);
      if (static_cast<Variant>(v) == Variant::selected) {
        state.SetIterationTime(time);
      }
    }
    rotation = (rotation + 1) % kVariants;
  }
  const std::vector<double>& openmpi = seconds[0];
  for (int v = 0; v < kVariants; ++v) {
    const std::vector<double>& mine = seconds[static_cast<std::size_t>(v)];
    if (mine.empty()) continue;
    const std::string name = kNames[static_cast<std::size_t>(v)];
    state.counters[name + "_us"] = 1e6 * median(mine);
    if (v == 0) continue;
    state.counters[name + "_ratio"] = median(mine) / median(openmpi);
    std::vector<double> paired;
    for (std::size_t i = 0; i < mine.size(); ++i) {
      paired.push_back(mine[i] / openmpi[i]);
    }
    state.counters[name + "_ratio_min"] =
        *std::min_element(paired.begin(), paired.end());
    state.counters[name + "_ratio_max"] =
        *std::max_element(paired.begin(), paired.end());
  }
  const ortho::Operation operation = op == Op::allgather
                                         ? ortho::Operation::allgather
                                         : ortho::Operation::alltoall;
  const auto bytes = static_cast<std::size_t>(block_bytes);
  count_traffic(state, network.direct(), operation, "direct", bytes);
  count_traffic(state, network.node_aware(), operation, "node_aware", bytes);
  count_traffic(state, network.common_neighbours(), operation,
                "common_neighbours", bytes);
  count_traffic(state, network.spread_relays(), operation, "spread_relays",
                bytes);
  state.counters["edges"] = current.edges;
  state.counters["degree_max"] = current.degree_max;
  state.counters["hosts"] = classic::locality(classic::Comm::world()).hosts();
  experiments::count_model_prices(state, network.selected(), operation, bytes);
  state.SetLabel(
      "selected=" +
      std::string(
          ortho::selected_algorithm(network.selected(), operation, bytes)) +
      " selected_persistent=" +
      std::string(ortho::selected_algorithm(network.selected(), operation,
                                            bytes, classic::Mode::persistent)));
}

}  // namespace

namespace {

// Items of a comma-separated list.
std::vector<std::string> items(std::string_view list) {
  std::vector<std::string> out;
  while (!list.empty()) {
    const std::size_t comma = list.find(',');
    out.emplace_back(list.substr(0, comma));
    list = comma == std::string_view::npos ? std::string_view{}
                                           : list.substr(comma + 1);
  }
  return out;
}

// Takes this program's flags out of argv; the first malformed one's
// message, or "" where all are well formed.
std::string parse_options(int& argc, char** argv) {
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.starts_with("--graphs=")) {
      options.graphs = items(arg.substr(9));
      for (const std::string& name : options.graphs) {
        if (!experiments::parse_graph_spec(name)) {
          return "--graphs=: '" + name + "' is no graph name";
        }
      }
      if (options.graphs.empty()) return "--graphs=: no graph";
    } else if (arg.starts_with("--blocks=")) {
      options.block_bytes.clear();
      for (const std::string& item : items(arg.substr(9))) {
        char* end = nullptr;
        const std::int64_t bytes = std::strtoll(item.c_str(), &end, 10);
        if (item.empty() || *end != '\0' || bytes <= 0 || bytes % 4 != 0 ||
            bytes > (std::int64_t{1} << 24)) {
          return "--blocks=: '" + item +
                 "' is no positive multiple of 4 up to 16777216";
        }
        options.block_bytes.push_back(static_cast<int>(bytes));
      }
      if (options.block_bytes.empty()) return "--blocks=: no block size";
    } else if (arg.starts_with("--iterations=")) {
      options.iterations = std::atoi(std::string(arg.substr(13)).c_str());
      if (options.iterations <= 0) return "--iterations=: must be > 0";
    } else if (arg.starts_with("--calls=")) {
      options.calls = std::atoi(std::string(arg.substr(8)).c_str());
      if (options.calls <= 0 || options.calls > 1000) {
        return "--calls=: must be 1 to 1000";
      }
    } else if (arg.starts_with("--corrupt=")) {
      const auto* name =
          std::find(kNames.begin(), kNames.end(), arg.substr(10));
      if (name == kNames.end() || name == kNames.begin()) {
        return "--corrupt=: '" + std::string(arg.substr(10)) +
               "' is no variant other than openmpi";
      }
      options.corrupt = static_cast<int>(name - kNames.begin());
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  argv[argc] = nullptr;
  return "";
}

void register_benchmarks() {
  for (const std::string& name : options.graphs) {
    const experiments::GraphSpec spec = *experiments::parse_graph_spec(name);
    for (const Op op : {Op::allgather, Op::alltoall}) {
      const std::string title =
          std::string(op == Op::allgather ? "allgather/" : "alltoall/") + name;
      auto* benchmark = benchmark::RegisterBenchmark(
          title.c_str(), [name, spec, op](benchmark::State& state) {
            BM_Sparse(state, name, spec, op);
          });
      benchmark->UseManualTime()
          ->Iterations(options.iterations)
          ->Unit(benchmark::kMicrosecond);
      for (const int bytes : options.block_bytes) benchmark->Arg(bytes);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  classic::Environment environment(argc, argv,
                                   classic::UncaughtErrors::report_and_abort);
  const bool root = classic::Environment::world_rank() == 0;
  if (const std::string error = parse_options(argc, argv); !error.empty()) {
    if (root) {
      std::fprintf(stderr, "sparse_graph_benchmark: %s\n", error.c_str());
    }
    return 2;
  }
  for (const std::string& name : options.graphs) {
    const experiments::GraphSpec spec = *experiments::parse_graph_spec(name);
    if (spec.kind == experiments::GraphSpec::Kind::mesh) {
      std::int64_t vertices = 1;
      for (const int extent : spec.mesh.extents) vertices *= extent;
      if (vertices < classic::Environment::world_size()) {
        if (root) {
          std::fprintf(stderr,
                       "sparse_graph_benchmark: --graphs=: %s has fewer "
                       "vertices than processes\n",
                       name.c_str());
        }
        return 2;
      }
    }
  }
  if (!root) experiments::drop_output_flags(argc, argv);
  benchmark::Initialize(&argc, argv);
  register_benchmarks();
  // Collective the first time: every process asks.
  const int hosts = classic::locality(classic::Comm::world()).hosts();
  if (root) {
    std::printf(
        "sparse_graph_benchmark: %d processes on %d hosts, %d iterations of "
        "%d calls\n",
        classic::Environment::world_size(), hosts, options.iterations,
        options.calls);
  }
  experiments::run_benchmarks(root);
  benchmark::Shutdown();
  current.network.reset();
  return 0;
}
