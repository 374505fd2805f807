// Blocked stencil grids, the distributed part: one implementation's run of
// a model (two local arrays with halo, exchange, step, global check), the
// interleaved timing of several runs, and the check of each run's result
// against the serial reference.
#ifndef ORTHOCOMM_EXPERIMENTS_HALO_RUN_H_
#define ORTHOCOMM_EXPERIMENTS_HALO_RUN_H_

#include <mpi.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "experiments/halo/decomposition.h"
#include "experiments/halo/exchange.h"
#include "experiments/halo/grid.h"
#include "experiments/halo/spread.h"
#include "experiments/halo/traffic.h"
#include "experiments/progress.h"

namespace halo {

// What the timing loop needs of a run, whatever its element type.
class Stepper {
 public:
  virtual ~Stepper() = default;
  // Up to `count` more steps, fewer once the model says it is done.
  // Collective.
  virtual void iterate(int count) = 0;
  virtual int iterations() const = 0;
  virtual bool done() const = 0;
  // The implementation's name (progress reports).
  virtual const std::string& name() const = 0;
};

// One implementation running a model on its own two arrays. Collective
// construction (the implementation's grid and neighbourhood). Not movable:
// the exchange holds the arrays' addresses.
template <typename T>
class Run final : public Stepper {
 public:
  // ortho's graph weighs its edges with the bytes they carry.
  Run(const Implementation& implementation, const GridSpec& spec,
      const Model<T>& model, MPI_Datatype element)
      : name_(halo::name(implementation)),
        model_(model),
        exchange_(made_exchange(name_, implementation, spec, element)) {
    block_ = block_of(spec.n, spec.dims, exchange_->coordinates());
    arrays_[0] = initial_array(model, block_);
    arrays_[1] = arrays_[0];
    exchange_->bind(block_.rows, block_.columns, element,
                    {arrays_[0].data(), arrays_[1].data()});
  }
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  void iterate(int count) override {
    const MPI_Op op = model_.reduction == Reduction::sum ? MPI_SUM : MPI_MAX;
    for (int i = 0; i < count && !done_; ++i) {
      progress::at(name_, "the halo exchange", iterations_);
      const double start = MPI_Wtime();
      exchange_->exchange(current_);
      exchange_seconds_ += MPI_Wtime() - start;
      const double local = model_.step(array(current_), array(1 - current_));
      progress::at(name_, "the allreduce of the global check", iterations_);
      value_ = exchange_->allreduce(local, op);
      current_ = 1 - current_;
      ++iterations_;
      done_ = model_.done(value_);
    }
  }
  int iterations() const override { return iterations_; }
  bool done() const override { return done_; }
  const std::string& name() const override { return name_; }

  double value() const { return value_; }
  // This process's seconds in the halo exchange, over every iteration.
  double exchange_seconds() const { return exchange_seconds_; }
  const Block& block() const { return block_; }
  Exchange& exchange() { return *exchange_; }
  // The current array (with halo), and its interior.
  Grid<T>& current() { return array(current_); }
  Grid<T> interior() const {
    return arrays_[static_cast<std::size_t>(current_)].block(1, 1, block_.rows,
                                                             block_.columns);
  }

 private:
  Grid<T>& array(int which) { return arrays_[static_cast<std::size_t>(which)]; }
  static std::unique_ptr<Exchange> made_exchange(
      const std::string& variant, const Implementation& implementation,
      const GridSpec& spec, MPI_Datatype element) {
    progress::at(variant, "making its communicators", 0);
    int size = 0;
    MPI_Type_size(element, &size);
    return make_exchange(implementation, spec, size);
  }

  std::string name_;
  Model<T> model_;
  std::unique_ptr<Exchange> exchange_;
  Block block_;
  std::array<Grid<T>, 2> arrays_;
  int current_ = 0;
  int iterations_ = 0;
  double value_ = 0;
  double exchange_seconds_ = 0;
  bool done_ = false;
};

// Runs every stepper up to `max_iterations` steps (or until done) in
// batches of `batch` steps, interleaved: batch b runs the steppers in an
// order rotated by b, so machine noise hits all alike (docs/design.md,
// "Measuring speed"). Before each batch a barrier; a batch's time is the
// maximum over processes. Returns, per stepper, the seconds per step of each
// batch.
std::vector<std::vector<double>> run_interleaved(
    std::span<Stepper* const> steppers, int max_iterations, int batch);

// The maximum of each count over all processes of the world.
Traffic max_over_world(const Traffic& traffic);

// Every process's block and its interior (packed row by row), on rank 0 of
// the world; empty elsewhere. Collective over the world.
struct Gathered {
  std::vector<Block> blocks;
  std::vector<unsigned char> bytes;
  std::vector<int> displacements;
};
Gathered gather_blocks(const Block& block,
                       std::span<const unsigned char> packed);

// The rows x columns grid assembled from every process's interior on rank 0
// (an empty grid elsewhere). Collective over the world.
template <typename T>
Grid<T> gather_grid(const Block& block, const Grid<T>& interior, int rows,
                    int columns) {
  const Grid<T> packed = interior;  // row-major, contiguous
  const Gathered gathered = gather_blocks(
      block, {reinterpret_cast<const unsigned char*>(packed.data()),
              static_cast<std::size_t>(packed.size()) * sizeof(T)});
  Grid<T> grid;
  if (gathered.blocks.empty()) return grid;
  grid.resize(rows, columns);
  for (std::size_t p = 0; p < gathered.blocks.size(); ++p) {
    const Block& b = gathered.blocks[p];
    Grid<T> part(b.rows, b.columns);
    std::memcpy(part.data(), gathered.bytes.data() + gathered.displacements[p],
                static_cast<std::size_t>(part.size()) * sizeof(T));
    grid.block(b.row0, b.column0, b.rows, b.columns) = part;
  }
  return grid;
}

// One implementation's line of the report.
struct Report {
  std::string implementation;
  std::string algorithm;
  std::string note;
  int iterations = 0;
  Spread seconds;  // per iteration, over the batches
  // The halo exchange's mean seconds per iteration, the slowest process's
  // (0 where not measured).
  double exchange_seconds = 0;
  Traffic traffic;   // the maximum over processes
  double value = 0;  // the last global check
  std::uint64_t checksum = 0;
  bool correct = false;
  std::string detail;   // where the result differs from the reference
  std::string mapping;  // Exchange::mapping(): "" but for ortho's graphs
};

// Compares a gathered result with the reference on rank 0 and tells every
// process; fills report.correct, .detail and .checksum. Collective.
template <typename T>
void verify(const Grid<T>& gathered, int iterations,
            const SerialResult<T>* reference, Report& report) {
  int correct = 1;
  if (reference != nullptr) {
    report.checksum = checksum(gathered);
    const auto difference = first_difference(gathered, reference->interior);
    if (iterations != reference->iterations) {
      correct = 0;
      report.detail = "after " + std::to_string(iterations) +
                      " iterations, the serial run after " +
                      std::to_string(reference->iterations);
    } else if (difference) {
      correct = 0;
      report.detail =
          describe_difference(gathered, reference->interior, *difference);
    }
  }
  MPI_Bcast(&correct, 1, MPI_INT, 0, MPI_COMM_WORLD);
  report.correct = correct == 1;
}

struct RunOptions {
  int max_iterations = 100;
  int batch = 10;
  // Changes one cell of the last process's result before the check.
  bool inject_error = false;
};

// Runs `model` on every implementation (interleaved), measures each one's
// traffic, gathers each result and checks it against `reference` (the
// serial run, on rank 0 of the world; null elsewhere). `first` gets the
// first implementation's gathered grid on rank 0. Collective.
template <typename T>
std::vector<Report> run_and_verify(
    std::span<const Implementation> implementations, const GridSpec& spec,
    const Model<T>& model, MPI_Datatype element, const RunOptions& options,
    const SerialResult<T>* reference, Grid<T>* first) {
  std::vector<std::unique_ptr<Run<T>>> runs;
  std::vector<Stepper*> steppers;
  std::vector<Report> reports(implementations.size());
  for (std::size_t i = 0; i < implementations.size(); ++i) {
    runs.push_back(
        std::make_unique<Run<T>>(implementations[i], spec, model, element));
    steppers.push_back(runs.back().get());
    reports[i].implementation = name(implementations[i]);
    reports[i].traffic = max_over_world(runs.back()->exchange().traffic());
    reports[i].mapping = runs.back()->exchange().mapping();
  }
  const auto times =
      run_interleaved(steppers, options.max_iterations, options.batch);
  int world_rank = 0;
  int world_size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    Run<T>& run = *runs[i];
    Report& report = reports[i];
    report.algorithm = run.exchange().algorithm();
    report.note = run.exchange().note();
    report.iterations = run.iterations();
    report.seconds = spread_of(times[i]);
    const double exchange =
        run.iterations() > 0 ? run.exchange_seconds() / run.iterations() : 0.0;
    MPI_Allreduce(&exchange, &report.exchange_seconds, 1, MPI_DOUBLE, MPI_MAX,
                  MPI_COMM_WORLD);
    report.value = run.value();
    progress::at(report.implementation, "gathering the result",
                 run.iterations());
    Grid<T> interior = run.interior();
    if (options.inject_error && world_rank == world_size - 1) {
      T& cell = interior(interior.rows() - 1, interior.cols() - 1);
      cell = perturbed(cell);
    }
    const Grid<T> gathered = gather_grid(run.block(), interior, spec.n, spec.n);
    verify(gathered, run.iterations(), reference, report);
    if (i == 0 && first != nullptr) *first = gathered;
  }
  return reports;
}

}  // namespace halo

#endif  // ORTHOCOMM_EXPERIMENTS_HALO_RUN_H_
