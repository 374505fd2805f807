// Game of Life experiment, MPI-free part: Conway's rule on a board in an
// Eigen array with a halo of one cell (the step that every variant and the
// serial reference share), and the deterministic initial board.
#ifndef ORTHOCOMM_EXPERIMENTS_LIFE_BOARD_H_
#define ORTHOCOMM_EXPERIMENTS_LIFE_BOARD_H_

#include <cstdint>

#include "experiments/halo/grid.h"

namespace life {

using Board = halo::Grid<std::uint8_t>;

// One generation: the interior of `next` from `current` (both (rows + 2) x
// (columns + 2), halo filled), by Listing 7's rule: with `live` alive
// neighbours out of 8, a cell dies if live < 2 or live > 3, is born if
// live == 3, and stays as it is if live == 2. Returns the population of
// `next`.
double step(const Board& current, Board& next);

// Listing 7's update of one cell from its state and live neighbours.
std::uint8_t next_state(std::uint8_t state, int live);

// Cell (row, column) of the initial rows x columns board drawn from `seed`:
// alive with probability about `percent_alive` / 100; dead outside the
// board (fixed borders: the ring around it stays dead).
std::uint8_t initial_cell(std::uint64_t seed, int percent_alive, int rows,
                          int columns, int row, int column);

// The model of the runs: initial_cell's board, step, the population as the
// global check (a sum), done when nothing is alive.
halo::Model<std::uint8_t> model(std::uint64_t seed, int rows, int columns);

inline constexpr int kPercentAlive = 35;

}  // namespace life

#endif  // ORTHOCOMM_EXPERIMENTS_LIFE_BOARD_H_
