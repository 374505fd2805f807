// Sparse matrix-vector products as sparse codes run them: A read from a
// Matrix Market file, its rows and columns split into contiguous blocks
// over the processes (halo_plan.h), each process's halo (the entries of x
// it needs from others) the edges of a graph communicator.
//
// Forward: y = A x, each iteration's halo exchange of x a neighbourhood
// alltoallv from owners to readers. An iteration exchanges the halo,
// computes y over the process's rows and then the next x (problem.h).
//   openmpi                    MPI_Neighbor_alltoallv on Open MPI's graph
//   raw                        the same messages posted by hand (the floor)
//   ortho-direct               ortho::alltoallv forced direct
//   ortho-selected             ortho::alltoallv as ortho selects it
//   ortho-selected-persistent  ortho::alltoallv_init, started per iteration
// Every process checks its final y and the sum of its y over the
// iterations bit for bit against a serial run of the same iterations with
// Eigen's product of the whole matrix (the same sums in the same order).
//
// Accumulate: z = A^T w, partial sums sent back from readers to owners
// along the same halo reversed (accumulate_runs.cc lists the
// implementations: Open MPI on a second, transposed communicator, the
// floor, ortho::reverse of the one graph, blocking and persistent), each
// iteration the whole product; the final z checked against Eigen's
// A^T w within 1e-12 of each column's magnitude.
//
// Implementations run interleaved in batches of 10 iterations, after
// untimed first iterations that cover ortho's tuning.
//
//   mpirun -np P spmv --matrix=PATH [--partition=blocks|metis]
//                     [--iterations=N] [--variant=LIST] [--corrupt=VARIANT]
//
// --partition: rows and columns in contiguous blocks of the file's order
// (the default), or METIS k-way parts of a square matrix's graph
// (partition.h; the matrix and the serial reference then reordered).
//
// --corrupt=VARIANT spoils one received entry of that implementation's
// first exchange (an accumulate's every exchange: each computes z afresh)
// on every process that receives any, so that the check can be seen to
// fail.
//
// Rank 0 prints one line per implementation: spmv variant=V matrix=NAME
// rows=R columns=C processes=P partition=D iterations=N
// seconds_per_iteration=S seconds_min=S seconds_max=S batches=B
// messages=M bytes=B result=correct (or result=MISMATCH; the program then
// exits 1). messages and bytes: sent per iteration by the busiest process.
// A file that cannot be read, or METIS asked to split a rectangular
// matrix, ends the program with a message and exit status 2.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "classic/base/environment.h"
#include "experiments/progress.h"
#include "experiments/run_benchmarks.h"
#include "experiments/spmv/problem.h"
#include "experiments/spmv/runs.h"

namespace spmv {
namespace {

constexpr int kBatch = 10;

struct Options {
  std::string matrix;
  int iterations = 100;
  std::vector<std::string> variants = {"openmpi",
                                       "raw",
                                       "ortho-direct",
                                       "ortho-selected",
                                       "ortho-selected-persistent",
                                       "accumulate-openmpi",
                                       "accumulate-raw",
                                       "accumulate-reverse",
                                       "accumulate-persistent"};
  std::string corrupt;
  Distribution distribution = Distribution::blocks;
};

std::string parse(int argc, char** argv, Options& options) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.starts_with("--matrix=")) {
      options.matrix = arg.substr(9);
    } else if (arg.starts_with("--iterations=")) {
      options.iterations = std::atoi(arg.c_str() + 13);
      if (options.iterations <= 0) return "--iterations: a positive number";
    } else if (arg == "--partition=blocks") {
      options.distribution = Distribution::blocks;
    } else if (arg == "--partition=metis") {
      options.distribution = Distribution::metis;
    } else if (arg.starts_with("--partition=")) {
      return "--partition: blocks or metis, not '" + arg.substr(12) + "'";
    } else if (arg.starts_with("--corrupt=")) {
      options.corrupt = arg.substr(10);
    } else if (arg.starts_with("--variant=")) {
      options.variants.clear();
      std::string list = arg.substr(10);
      for (std::size_t begin = 0; begin <= list.size();) {
        const std::size_t end = std::min(list.find(',', begin), list.size());
        options.variants.push_back(list.substr(begin, end - begin));
        begin = end + 1;
      }
    } else {
      return "unknown argument '" + arg + "'";
    }
  }
  if (options.matrix.empty()) return "--matrix=PATH is required";
  return {};
}

int run(int argc, char** argv) {
  Options options;
  const int rank = classic::Environment::world_rank();
  const int size = classic::Environment::world_size();
  if (const std::string error = parse(argc, argv, options); !error.empty()) {
    if (rank == 0) std::fprintf(stderr, "spmv: %s\n", error.c_str());
    return 2;
  }
  progress::start(rank, size);
  Problem problem;
  try {
    problem = make_problem(options.matrix, options.distribution, rank, size);
  } catch (const std::exception& error) {  // alike on every process
    if (rank == 0) std::fprintf(stderr, "%s\n", error.what());
    return 2;
  }
  std::vector<std::unique_ptr<Variant>> runs;
  for (const std::string& name : options.variants) {
    std::unique_ptr<Variant> forward = make_forward(name, problem);
    runs.push_back(forward != nullptr ? std::move(forward)
                                      : make_accumulate(name, problem));
    if (runs.back() == nullptr) {
      if (rank == 0) {
        std::fprintf(stderr, "spmv: no variant '%s'\n", name.c_str());
      }
      return 2;
    }
    if (name == options.corrupt) runs.back()->spoil();
  }
  // Untimed first steps that cover ortho's tuning (its measured candidates
  // are not what the selection runs afterwards); they count as iterations
  // of the check.
  for (const std::unique_ptr<Variant>& run : runs) {
    for (int step = 0; step < experiments::kTuningCalls; ++step) run->step();
  }
  std::vector<std::vector<double>> seconds(runs.size());
  for (int done = 0, round = 0; done < options.iterations;
       done += kBatch, ++round) {
    const int steps = std::min(kBatch, options.iterations - done);
    for (std::size_t k = 0; k < runs.size(); ++k) {
      const std::size_t i = (k + static_cast<std::size_t>(round)) % runs.size();
      Variant& run = *runs[i];
      seconds[i].push_back(experiments::slowest_seconds_per_call(
          run.name(), steps, [&] { run.step(); }));
    }
  }
  const Reference reference =
      serial(problem, experiments::kTuningCalls + options.iterations);
  // Per direction, the busiest process's messages and bytes per step.
  const auto messages = [](const std::vector<int>& counts) {
    return static_cast<int>(std::count_if(counts.begin(), counts.end(),
                                          [](int count) { return count > 0; }));
  };
  int traffic[4] = {messages(problem.sendcounts), 8 * problem.sent_entries(),
                    messages(problem.recvcounts), 8 * problem.halo_columns()};
  MPI_Allreduce(MPI_IN_PLACE, traffic, 4, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  const std::string name =
      options.matrix.substr(options.matrix.find_last_of('/') + 1);
  bool all_correct = true;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    int correct = runs[i]->correct(reference) ? 1 : 0;
    MPI_Allreduce(MPI_IN_PLACE, &correct, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    all_correct = all_correct && correct != 0;
    const int* sent = runs[i]->accumulates() ? traffic + 2 : traffic;
    std::vector<double> sorted = seconds[i];
    std::sort(sorted.begin(), sorted.end());
    if (rank == 0) {
      std::printf(
          "spmv variant=%s matrix=%s rows=%d columns=%d processes=%d "
          "partition=%s iterations=%d seconds_per_iteration=%g seconds_min=%g "
          "seconds_max=%g batches=%zu messages=%d bytes=%d result=%s\n",
          runs[i]->name().c_str(), name.c_str(),
          static_cast<int>(problem.a.rows()),
          static_cast<int>(problem.a.cols()), size,
          options.distribution == Distribution::metis ? "metis" : "blocks",
          options.iterations, sorted[sorted.size() / 2], sorted.front(),
          sorted.back(), sorted.size(), sent[0], sent[1],
          correct != 0 ? "correct" : "MISMATCH");
    }
  }
  return all_correct ? 0 : 1;
}

}  // namespace
}  // namespace spmv

int main(int argc, char** argv) {
  classic::Environment environment(argc, argv,
                                   classic::UncaughtErrors::report_and_abort);
  return spmv::run(argc, argv);
}
