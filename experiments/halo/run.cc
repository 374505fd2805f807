#include "experiments/halo/run.h"

#include <algorithm>
#include <array>

namespace halo {
namespace {

// One batch of one stepper: seconds per step, the maximum over processes.
double timed_batch(Stepper& stepper, int steps) {
  progress::at(stepper.name(), "the barrier before a batch",
               stepper.iterations());
  MPI_Barrier(MPI_COMM_WORLD);
  const int before = stepper.iterations();
  const double start = MPI_Wtime();
  stepper.iterate(steps);
  const double mine = MPI_Wtime() - start;
  progress::at(stepper.name(), "the allreduce of a batch's time",
               stepper.iterations());
  double slowest = 0;
  MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  const int done = stepper.iterations() - before;
  return done > 0 ? slowest / done : 0.0;
}

}  // namespace

std::vector<std::vector<double>> run_interleaved(
    std::span<Stepper* const> steppers, int max_iterations, int batch) {
  std::vector<std::vector<double>> times(steppers.size());
  const std::size_t count = steppers.size();
  for (std::size_t round = 0;; ++round) {
    bool any = false;
    for (std::size_t k = 0; k < count; ++k) {
      const std::size_t i = (k + round) % count;
      Stepper& stepper = *steppers[i];
      const int left = max_iterations - stepper.iterations();
      if (stepper.done() || left <= 0) continue;
      any = true;
      times[i].push_back(timed_batch(stepper, std::min(batch, left)));
    }
    if (!any) break;
  }
  return times;
}

Traffic max_over_world(const Traffic& traffic) {
  const std::array<std::int64_t, 2> mine{traffic.messages, traffic.bytes};
  std::array<std::int64_t, 2> most{};
  MPI_Allreduce(mine.data(), most.data(), 2, MPI_INT64_T, MPI_MAX,
                MPI_COMM_WORLD);
  return {most[0], most[1], traffic.measured};
}

Gathered gather_blocks(const Block& block,
                       std::span<const unsigned char> packed) {
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const std::array<int, 4> mine{block.row0, block.column0, block.rows,
                                block.columns};
  std::vector<int> all(rank == 0 ? 4 * static_cast<std::size_t>(size) : 0);
  MPI_Gather(mine.data(), 4, MPI_INT, all.data(), 4, MPI_INT, 0,
             MPI_COMM_WORLD);
  const int bytes = static_cast<int>(packed.size());
  std::vector<int> counts(rank == 0 ? static_cast<std::size_t>(size) : 0);
  MPI_Gather(&bytes, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  Gathered gathered;
  int total = 0;
  for (std::size_t p = 0; p < counts.size(); ++p) {
    gathered.blocks.push_back(
        {all[4 * p], all[4 * p + 1], all[4 * p + 2], all[4 * p + 3]});
    gathered.displacements.push_back(total);
    total += counts[p];
  }
  gathered.bytes.resize(static_cast<std::size_t>(total));
  MPI_Gatherv(packed.data(), bytes, MPI_BYTE, gathered.bytes.data(),
              counts.data(), gathered.displacements.data(), MPI_BYTE, 0,
              MPI_COMM_WORLD);
  return gathered;
}

}  // namespace halo
