// Game of Life experiment, variant (a): the paper's Listing 7, one cell per
// process on the process grid. ortho: Cart_name, Cart_neighbors (Moore,
// shadow 1, depth 1), ortho::dist_graph_create_adjacent, the sparse
// ortho::allreduce (sum over the in-neighbours) for the live neighbours,
// and classic::allreduce on the base communicator for the global check.
// openmpi, the same with MPI as it is: MPI_Cart_create,
// MPI_Dist_graph_create_adjacent, MPI_Neighbor_allgather and a local sum
// (MPI has no sparse allreduce), MPI_Allreduce.
#ifndef ORTHOCOMM_EXPERIMENTS_LIFE_CELLS_H_
#define ORTHOCOMM_EXPERIMENTS_LIFE_CELLS_H_

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "experiments/halo/decomposition.h"
#include "experiments/halo/implementation.h"
#include "experiments/halo/run.h"
#include "experiments/halo/traffic.h"

namespace life {

// One process's cell; the board is the dims[0] x dims[1] process grid.
class Cells : public halo::Stepper {
 public:
  explicit Cells(std::string name) : name_(std::move(name)) {}
  void iterate(int count) override;
  int iterations() const override { return iterations_; }
  bool done() const override { return done_; }
  const std::string& name() const override { return name_; }

  double population() const { return population_; }
  // The cell as a 1 x 1 block of the board, and its state.
  halo::Block block() const { return {row_, column_, 1, 1}; }
  std::uint8_t state() const { return static_cast<std::uint8_t>(state_); }
  // Flips the cell (for --inject-error).
  void flip() { state_ = static_cast<short>(1 - state_); }

  // What one neighbour count sends from this process. Collective.
  virtual halo::Traffic traffic() = 0;
  virtual std::string algorithm() const = 0;
  // halo::mapping_text of ortho's graph; "" on Open MPI. Collective.
  virtual std::string mapping() { return ""; }

 protected:
  // Sets the cell from its position on the board.
  void place(int row, int column, std::uint64_t seed,
             const std::array<int, 2>& dims);
  // The sum of the neighbours' states (the cell itself not included).
  virtual short live_neighbours() = 0;
  // The sum of all cells (the global check).
  virtual double population_sum(short state) = 0;

  short state_ = 0;

 private:
  std::string name_;
  int row_ = 0;
  int column_ = 0;
  int iterations_ = 0;
  double population_ = 0;
  bool done_ = false;
};

// Collective over the world, whose size must be dims[0] * dims[1]. ortho's
// graph weighs each edge with the bytes it carries (one short); with
// `reorder` it is made with Reorder::yes and each process holds the cell of
// its rank in the graph. Open MPI's keeps the world's order.
std::unique_ptr<Cells> make_cells(halo::Library library,
                                  const std::array<int, 2>& dims,
                                  halo::Borders borders, std::uint64_t seed,
                                  bool reorder = false);

// "cells" (ortho) or "cells-openmpi".
std::string cells_name(halo::Library library);

}  // namespace life

#endif  // ORTHOCOMM_EXPERIMENTS_LIFE_CELLS_H_
