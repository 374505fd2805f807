// Message combining on Cartesian stencils against Open MPI's
// neighbourhood collectives: allgather, alltoall, alltoallw and allreduce
// (MPI_SUM on a block of ints) on periodic Moore and von Neumann stencils
// (2-d depth 1 and 2, 3-d depth 1), blocks of 4 B to 40 KB. alltoallw is
// the halo exchange's form (Figure 1): every block of n ints is one element
// of a derived datatype (MPI_Type_contiguous of n MPI_INT, count 1), one
// datatype handle per neighbour, at byte displacements (MPI_Aint)
// i * n * sizeof(int), the same layout as alltoall's. The stencils are made
// the orthocomm way: naming::cart_name on a duplicate of the world with
// classic::dims_create's dims, stencils::cart_neighbor_ranks of depth r,
// ortho::dist_graph_create_adjacent. The variants of a point, interleaved
// (combining_variant.h; the hand-posted floors as there):
//   openmpi                    MPI_Neighbor_* on an Open MPI distributed
//                              graph of the same lists (allreduce: Open MPI
//                              has no neighbourhood allreduce, so
//                              MPI_Neighbor_allgather and a local sum;
//                              alltoallw: MPI_Neighbor_alltoallw);
//   openmpi_persistent         MPIX_Neighbor_*_init (Open MPI 4.1's
//                              pcollreq extension), each call start + wait;
//   ortho_direct               ortho, set_algorithm "direct";
//   ortho_combining            ortho, set_algorithm "<op>=combining" (absent
//                              where the table has no combining algorithm
//                              for the operation);
//   ortho_mpi                  ortho, set_algorithm "<op>=mpi": Open MPI's
//                              call behind ortho's dispatch (absent for
//                              allreduce, which MPI lacks);
//   ortho_<algorithm>_persistent  the same forced, ortho::<op>_init;
//   ortho_selected             ortho's default choice for the block size;
//   ortho_selected_persistent  ortho::<op>_init, classic::start + wait
//                              (its algorithm may differ from the blocking
//                              selection: alltoallw's combining pays a size
//                              exchange every blocking call but only once,
//                              at *_init, when persistent).
//
//   mpirun -np 4 bazel-out/k8-opt/bin/experiments/combining_benchmark
//       [--csv=out.csv] [--iterations=N] [--calls=N] [--blocks=B,B,...]
//       [--started_bytes=B]
//       [--benchmark_filter=REGEX]
//       [--benchmark_out=out.json --benchmark_out_format=json]
//   (mpirun --mca btl tcp,self ... for TCP loopback; benchmark names are
//   <operation>/<stencil>/<block bytes>/manual_time)
//
// Timing follows docs/design.md ("Measuring speed"): each benchmark iteration
// runs one batch of --calls calls of every variant, the order rotating
// from one iteration to the next; a batch begins with a barrier and its
// time per call is the maximum over ranks. A variant's time is the median
// of its batches. Counters (rank 0 reports):
//   <variant>_us       time per call;
//   <variant>_ratio    <variant>_us / openmpi_us for every variant but Open
//                      MPI's own (a ratio: below 1 is faster than Open MPI);
//   persistent_ratio   ortho_selected_persistent_us / openmpi_persistent_us;
//   selected_ratio_min, _max, persistent_ratio_min, _max  the range of those
//                      two ratios over the batches (every ratio of a batch
//                      of ortho's to one of Open MPI's: a range that holds 1
//                      says the difference is noise);
//   direct_floor_ratio, combining_floor_ratio, persistent_floor_ratio,
//   persistent_combining_floor_ratio (each with _min, _max)  ortho over the
//                      very messages it posts by hand (raw*), the median and
//                      range of the paired ratios of the batches of one
//                      iteration (1 = no overhead; the persistent ones where
//                      the persistent selection is direct or combining);
//   selected_*, selected_persistent_*, direct_*  messages, bytes (blocks
//                      times block bytes) and rounds per process per call of
//                      the selected algorithm (blocking, persistent) and of
//                      the direct one (ortho/algorithms/combining/combining.h's
//                      Traffic; exact, machine-independent);
//   combining_selected, persistent_combining_selected  1 where the
//                      selection (blocking, persistent) runs combining.
// alltoallw's combining (combining.cc's exchange_blocks) first runs the
// alltoall schedule over one int64 per block (the size exchange: relays
// must learn the sizes of the blocks they forward), then the blocks along
// the same schedule. combining.h's Traffic counts the schedule once; this
// program counts a blocking combining alltoallw call as the schedule twice:
// 2x its messages and rounds, and its blocks' bytes plus 8 bytes per block
// of the size exchange. A persistent call pays the size exchange once, at
// alltoallw_init, which the per-call counters leave out.
// The label names the grid and the selected algorithm (and the persistent
// one where it differs). --csv=path writes one row per (operation, stencil,
// block, variant): the median time per call with the fastest and slowest
// batch (time_min_us, time_max_us), the number of batches and
// ratio_to_openmpi (its time over Open MPI's blocking call's). Every
// variant's result is checked against Open MPI's once before the timing;
// the program exits 1 if one differed
// (tests/experiments:combining_benchmark_np*).
// Its parts: combining_point.h (every variant at one point),
// combining_variant.h, combining_options.h (the flags) and combining_csv.h.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

#include "classic/base/environment.h"
#include "experiments/combining_csv.h"
#include "experiments/combining_options.h"
#include "experiments/combining_point.h"
#include "experiments/combining_variant.h"
#include "experiments/halo/spread.h"
#include "experiments/run_benchmarks.h"
#include "ortho/operation.h"
#include "stencils/neighborhood.h"

namespace experiments::combining {
namespace {

using ortho::Operation;

constexpr Stencil kStencils[] = {
    {"moore_2d_d1", 2, stencils::Metric::chebyshev, 1},
    {"von_neumann_2d_d1", 2, stencils::Metric::manhattan, 1},
    {"moore_2d_d2", 2, stencils::Metric::chebyshev, 2},
    {"von_neumann_2d_d2", 2, stencils::Metric::manhattan, 2},
    {"moore_3d_d1", 3, stencils::Metric::chebyshev, 1},
    {"von_neumann_3d_d1", 3, stencils::Metric::manhattan, 1},
};

constexpr Operation kOperations[] = {Operation::allgather, Operation::alltoall,
                                     Operation::alltoallw,
                                     Operation::allreduce};

// This program's flags (parse_options, before benchmark::Initialize) and,
// on rank 0 with --csv, the rows written at the end.
Options options;
std::vector<Row> rows;

std::string dims_string(const std::vector<int>& dims) {
  std::string text;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (i > 0) text += 'x';
    text += std::to_string(dims[i]);
  }
  return text;
}

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// Whether some point's result differed from Open MPI's: the exit status.
bool g_mismatch = false;

void BM_Combining(benchmark::State& state, Operation operation,
                  const Stencil& stencil) {
  const int block_bytes = static_cast<int>(state.range(0));
  Point point(operation, stencil, block_bytes);
  const std::string wrong = point.mismatches();
  if (!wrong.empty()) {
    g_mismatch = true;
    state.SkipWithError(("result differs from Open MPI's: " + wrong).c_str());
    return;
  }
  std::vector<Variant> active;
  for (Variant variant : kVariants) {
    if (point.has(variant)) active.push_back(variant);
  }
  // Warm up: batches long enough for the selected variants to tune.
  for (Variant variant : active) {
    (void)point.batch(variant, std::max(options.calls, kTuningCalls));
  }
  point.settle_selection();
  std::array<std::vector<double>, kVariantCount> seconds;
  std::size_t first = 0;
  for (auto _ : state) {
    for (std::size_t k = 0; k < active.size(); ++k) {
      const Variant variant = active[(first + k) % active.size()];
      seconds[index_of(variant)].push_back(point.batch(variant, options.calls));
    }
    first = (first + 1) % active.size();
    state.SetIterationTime(seconds[index_of(Variant::ortho_selected)].back());
  }

  std::array<double, kVariantCount> us{};
  std::array<halo::Spread, kVariantCount> spread{};
  for (Variant variant : active) {
    spread[index_of(variant)] = halo::spread_of(seconds[index_of(variant)]);
    us[index_of(variant)] = 1e6 * spread[index_of(variant)].median;
  }
  const double openmpi_us = us[index_of(Variant::openmpi)];
  for (Variant variant : active) {
    const std::string stem = stem_of(variant);
    state.counters[stem + "_us"] = us[index_of(variant)];
    if (variant != Variant::openmpi && variant != Variant::openmpi_persistent) {
      state.counters[stem + "_ratio"] = us[index_of(variant)] / openmpi_us;
    }
  }
  state.counters["persistent_ratio"] =
      us[index_of(Variant::ortho_selected_persistent)] /
      us[index_of(Variant::openmpi_persistent)];
  // The ranges of the two ratios that matter most: every ratio of a batch
  // of ortho's to one of Open MPI's (a range that holds 1 is noise).
  const auto ratio_range = [&](const std::string& name, Variant ortho,
                               Variant openmpi) {
    const halo::Spread range =
        halo::ratio_of(spread[index_of(ortho)], spread[index_of(openmpi)]);
    if (range.batches == 0) return;
    state.counters[name + "_min"] = range.min;
    state.counters[name + "_max"] = range.max;
  };
  ratio_range("selected_ratio", Variant::ortho_selected, Variant::openmpi);
  ratio_range("persistent_ratio", Variant::ortho_selected_persistent,
              Variant::openmpi_persistent);
  // The floor: ortho over the very messages it posts, as paired ratios of
  // the batches of one iteration (median, min and max; 1 = no overhead).
  const auto floor_ratio = [&](const std::string& name, Variant floor,
                               Variant ortho) {
    std::vector<double> ratios;
    const std::vector<double>& mine = seconds[index_of(ortho)];
    const std::vector<double>& hand = seconds[index_of(floor)];
    for (std::size_t i = 0; i < std::min(mine.size(), hand.size()); ++i) {
      ratios.push_back(mine[i] / hand[i]);
    }
    if (ratios.empty()) return;
    state.counters[name] = median(ratios);
    state.counters[name + "_min"] =
        *std::min_element(ratios.begin(), ratios.end());
    state.counters[name + "_max"] =
        *std::max_element(ratios.begin(), ratios.end());
  };
  floor_ratio("direct_floor_ratio", Variant::raw, Variant::ortho_direct);
  if (point.has(Variant::raw_combining)) {
    floor_ratio("combining_floor_ratio", Variant::raw_combining,
                Variant::ortho_combining);
    if (point.selected_persistent_name() == "combining") {
      floor_ratio("persistent_combining_floor_ratio",
                  Variant::raw_combining_persistent,
                  Variant::ortho_selected_persistent);
    }
  }
  if (point.selected_persistent_name() == "direct") {
    const bool reposted_faster =
        us[index_of(Variant::raw)] <= us[index_of(Variant::raw_persistent)];
    floor_ratio("persistent_floor_ratio",
                reposted_faster ? Variant::raw : Variant::raw_persistent,
                Variant::ortho_selected_persistent);
  }
  const Structure& selected = point.selected_structure();
  const Structure& direct = point.direct_structure();
  state.counters["selected_messages"] = selected.messages;
  state.counters["selected_bytes"] = static_cast<double>(selected.bytes);
  state.counters["selected_rounds"] = selected.rounds;
  const Structure& persistent = point.selected_persistent_structure();
  state.counters["selected_persistent_messages"] = persistent.messages;
  state.counters["selected_persistent_bytes"] =
      static_cast<double>(persistent.bytes);
  state.counters["selected_persistent_rounds"] = persistent.rounds;
  state.counters["direct_messages"] = direct.messages;
  state.counters["direct_bytes"] = static_cast<double>(direct.bytes);
  state.counters["direct_rounds"] = direct.rounds;
  state.counters["combining_selected"] =
      point.selected_name() == "combining" ? 1 : 0;
  state.counters["persistent_combining_selected"] =
      point.selected_persistent_name() == "combining" ? 1 : 0;
  std::string label = dims_string(point.dims()) + " " + point.selected_name();
  if (point.selected_persistent_name() != point.selected_name()) {
    label += ", persistent " + point.selected_persistent_name();
  }
  // Why (ortho::explain): prices and measured times of every candidate.
  label += " | " + point.explanation(classic::Mode::blocking) + " | " +
           point.explanation(classic::Mode::persistent);
  state.SetLabel(label);

  if (options.csv.empty() || classic::Environment::world_rank() != 0) return;
  const std::string op(ortho::to_string(operation));
  int repetition = 0;
  for (const Row& row : rows) {
    if (row.operation == op && row.stencil == stencil.name &&
        row.block_bytes == block_bytes &&
        row.variant == name_of(Variant::openmpi)) {
      ++repetition;
    }
  }
  for (Variant variant : active) {
    rows.push_back({.operation = op,
                    .stencil = stencil.name,
                    .dims = dims_string(point.dims()),
                    .block_bytes = block_bytes,
                    .repetition = repetition,
                    .variant = name_of(variant),
                    .algorithm = point.algorithm_of(variant),
                    .time_us = {.median = us[index_of(variant)],
                                .min = 1e6 * spread[index_of(variant)].min,
                                .max = 1e6 * spread[index_of(variant)].max,
                                .batches = spread[index_of(variant)].batches},
                    .ratio_to_openmpi = us[index_of(variant)] / openmpi_us,
                    .structure = point.structure_of(variant),
                    .modelled_us = point.modelled_us(variant)});
  }
}

void register_benchmarks() {
  for (Operation operation : kOperations) {
    for (const Stencil& stencil : kStencils) {
      const std::string name =
          std::string(ortho::to_string(operation)) + "/" + stencil.name;
      benchmark::internal::Benchmark* benchmark = benchmark::RegisterBenchmark(
          name.c_str(), [operation, &stencil](benchmark::State& state) {
            BM_Combining(state, operation, stencil);
          });
      // Fixed iteration counts: every rank must run exactly the same loop.
      benchmark->UseManualTime()
          ->Iterations(options.iterations)
          ->Unit(benchmark::kMicrosecond);
      for (int bytes : options.block_bytes) benchmark->Arg(bytes);
    }
  }
}

}  // namespace
}  // namespace experiments::combining

int main(int argc, char** argv) {
  namespace combining = experiments::combining;
  classic::Environment environment(argc, argv,
                                   classic::UncaughtErrors::report_and_abort);
  const bool root = classic::Environment::world_rank() == 0;
  if (const std::string error =
          combining::parse_options(argc, argv, combining::options);
      !error.empty()) {
    if (root) std::fprintf(stderr, "combining_benchmark: %s\n", error.c_str());
    return 1;
  }
  if (!root) experiments::drop_output_flags(argc, argv);
  benchmark::Initialize(&argc, argv);
  combining::register_benchmarks();
  if (root) {
    std::printf(
        "combining_benchmark: %d processes, %d iterations of %d calls\n",
        classic::Environment::world_size(), combining::options.iterations,
        combining::options.calls);
  }
  experiments::run_benchmarks(root);
  if (root && !combining::options.csv.empty()) {
    combining::write_csv(combining::options.csv, combining::rows);
  }
  benchmark::Shutdown();
  // Exit 1 on every process where a result differed (mpirun then fails).
  return combining::g_mismatch ? 1 : 0;
}
