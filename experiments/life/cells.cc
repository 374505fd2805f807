#include "experiments/life/cells.h"

#include <mpi.h>

#include <numeric>
#include <span>
#include <vector>

#include "classic/base/constants.h"
#include "classic/collectives/collectives.h"
#include "classic/comm/comm.h"
#include "classic/graph/dist_graph.h"
#include "experiments/halo/exchange.h"
#include "experiments/life/board.h"
#include "experiments/progress.h"
#include "naming/cart_maps.h"
#include "naming/cart_name.h"
#include "ortho/collectives.h"
#include "ortho/dist_graph.h"
#include "ortho/operation.h"
#include "ortho/structure.h"
#include "ortho/table.h"
#include "stencils/cart_neighbors.h"

namespace life {

void Cells::iterate(int count) {
  for (int i = 0; i < count && !done_; ++i) {
    progress::at(name_, "the neighbour count", iterations_);
    const short live = live_neighbours();
    state_ = next_state(static_cast<std::uint8_t>(state_), live);
    progress::at(name_, "the population sum", iterations_);
    population_ = population_sum(state_);
    ++iterations_;
    done_ = population_ == 0;
  }
}

void Cells::place(int row, int column, std::uint64_t seed,
                  const std::array<int, 2>& dims) {
  row_ = row;
  column_ = column;
  state_ = initial_cell(seed, kPercentAlive, dims[0], dims[1], row, column);
}

namespace {

// Listing 7 on orthocomm.
class OrthoCells final : public Cells {
 public:
  OrthoCells(const std::array<int, 2>& dims, halo::Borders borders,
             std::uint64_t seed, bool reorder)
      : Cells(cells_name(halo::Library::ortho)) {
    progress::at(name(), "making its communicators", 0);
    const bool periodic = borders == halo::Borders::periodic;
    const std::array<bool, 2> period{periodic, periodic};
    comm_ = classic::Comm::world().dup();
    naming::cart_name(comm_, dims, period, naming::Order::row_major);
    const int r = comm_.rank();
    const std::vector<int> ranks = stencils::cart_neighbor_ranks(
        comm_, r, stencils::Metric::chebyshev, 1, 1);
    // Each edge weighs the bytes one count sends along it (a short), so
    // that the mapping report counts bytes.
    const std::vector<int> bytes(ranks.size(), sizeof(state_));
    cartcomm_ = ortho::dist_graph_create_adjacent(
        comm_, ranks, bytes, ranks, bytes, {},
        reorder ? classic::Reorder::yes : classic::Reorder::no);
    base_ = ortho::comm_base(cartcomm_);
    // The cell of this process's rank in the graph (comm_'s naming maps
    // cells and coordinates alike, whatever the order of the processes).
    const std::vector<int> me =
        naming::cart_coordinates(comm_, cartcomm_.rank());
    place(me[0], me[1], seed, dims);
  }

  halo::Traffic traffic() override {
    return halo::count_sends([&] { live_neighbours(); });
  }
  std::string algorithm() const override {
    return std::string(ortho::selected_algorithm(
        cartcomm_, ortho::Operation::allreduce, sizeof(short)));
  }
  std::string mapping() override { return halo::mapping_text(cartcomm_); }

 private:
  short live_neighbours() override {
    short live = 0;
    ortho::allreduce(cartcomm_, std::span<const short>(&state_, 1),
                     std::span<short>(&live, 1), MPI_SUM);
    return live;
  }
  double population_sum(short state) override {
    int mine = state;
    int all = 0;
    classic::allreduce(base_, std::span<const int>(&mine, 1),
                       std::span<int>(&all, 1), MPI_SUM);
    return all;
  }

  classic::Comm comm_;
  classic::Comm cartcomm_;
  classic::Comm base_;
};

// The same with MPI as it is: no sparse allreduce, so the neighbours'
// states come with a neighbourhood allgather and are summed here.
class OpenMpiCells final : public Cells {
 public:
  OpenMpiCells(const std::array<int, 2>& dims, halo::Borders borders,
               std::uint64_t seed)
      : Cells(cells_name(halo::Library::openmpi)) {
    progress::at(name(), "making its communicators", 0);
    const int periodic = borders == halo::Borders::periodic ? 1 : 0;
    const std::array<int, 2> period{periodic, periodic};
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims.data(), period.data(), 0, &cart_);
    int rank = 0;
    MPI_Comm_rank(cart_, &rank);
    std::array<int, 2> me{};
    MPI_Cart_coords(cart_, rank, 2, me.data());
    const std::vector<int> ranks = moore_ranks(me, dims, period);
    MPI_Dist_graph_create_adjacent(cart_, static_cast<int>(ranks.size()),
                                   ranks.data(), MPI_UNWEIGHTED,
                                   static_cast<int>(ranks.size()), ranks.data(),
                                   MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &graph_);
    states_.resize(ranks.size());
    place(me[0], me[1], seed, dims);
  }
  ~OpenMpiCells() override {
    MPI_Comm_free(&graph_);
    MPI_Comm_free(&cart_);
  }
  OpenMpiCells(const OpenMpiCells&) = delete;
  OpenMpiCells& operator=(const OpenMpiCells&) = delete;

  // MPI_Neighbor_allgather: one message per neighbour.
  halo::Traffic traffic() override {
    const auto messages = static_cast<std::int64_t>(states_.size());
    return {messages, messages * static_cast<std::int64_t>(sizeof(short)),
            false};
  }
  std::string algorithm() const override { return "open-mpi"; }

 private:
  // The Moore neighbours in row-major order of offsets, off-grid ones
  // left out (as Cart_neighbors drops them).
  std::vector<int> moore_ranks(const std::array<int, 2>& me,
                               const std::array<int, 2>& dims,
                               const std::array<int, 2>& period) const {
    std::vector<int> ranks;
    for (int dr = -1; dr <= 1; ++dr) {
      for (int dc = -1; dc <= 1; ++dc) {
        std::array<int, 2> at{me[0] + dr, me[1] + dc};
        bool on_grid = !(dr == 0 && dc == 0);
        for (std::size_t d = 0; d < 2; ++d) {
          if (period[d] == 0 && (at[d] < 0 || at[d] >= dims[d])) {
            on_grid = false;
          }
        }
        if (!on_grid) continue;
        int rank = 0;
        MPI_Cart_rank(cart_, at.data(), &rank);
        ranks.push_back(rank);
      }
    }
    return ranks;
  }

  short live_neighbours() override {
    MPI_Neighbor_allgather(&state_, 1, MPI_SHORT, states_.data(), 1, MPI_SHORT,
                           graph_);
    return static_cast<short>(
        std::accumulate(states_.begin(), states_.end(), 0));
  }
  double population_sum(short state) override {
    int mine = state;
    int all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_SUM, graph_);
    return all;
  }

  MPI_Comm cart_ = MPI_COMM_NULL;
  MPI_Comm graph_ = MPI_COMM_NULL;
  std::vector<short> states_;
};

}  // namespace

std::unique_ptr<Cells> make_cells(halo::Library library,
                                  const std::array<int, 2>& dims,
                                  halo::Borders borders, std::uint64_t seed,
                                  bool reorder) {
  if (library == halo::Library::openmpi) {
    return std::make_unique<OpenMpiCells>(dims, borders, seed);
  }
  return std::make_unique<OrthoCells>(dims, borders, seed, reorder);
}

std::string cells_name(halo::Library library) {
  return library == halo::Library::openmpi ? "cells-openmpi" : "cells";
}

}  // namespace life
