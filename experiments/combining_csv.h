// combining_benchmark's --csv output: one row per operation, stencil, block
// size, repetition and variant, with the median time per call, its spread
// over the batches, its ratio to Open MPI's (time over Open MPI's blocking
// call's: below 1 is faster), the algorithm's traffic and, for ortho's
// variants, the cost model's price (modelled_us; empty where none).
#ifndef ORTHOCOMM_EXPERIMENTS_COMBINING_CSV_H_
#define ORTHOCOMM_EXPERIMENTS_COMBINING_CSV_H_

#include <optional>
#include <span>
#include <string>

#include "experiments/combining_point.h"
#include "experiments/halo/spread.h"

namespace experiments::combining {

// One CSV row.
struct Row {
  std::string operation;
  std::string stencil;
  std::string dims;
  int block_bytes = 0;
  int repetition = 0;
  std::string variant;
  std::string algorithm;
  halo::Spread time_us;           // per call, over the batches
  double ratio_to_openmpi = 0.0;  // time_us.median / Open MPI's
  Structure structure;
  std::optional<double> modelled_us;  // the cost model's price, where any
};

// Writes the header and `rows` to `path`, with the world's size and the btl
// list (OMPI_MCA_btl) in every row; a message on stderr where it cannot.
void write_csv(const std::string& path, std::span<const Row> rows);

}  // namespace experiments::combining

#endif  // ORTHOCOMM_EXPERIMENTS_COMBINING_CSV_H_
