// Figure 1b: the 9-point halo exchange on orthocomm's single interface set:
// a Cartesian name on a duplicate of the world, the neighbours from
// cart_allranks_relative, a distributed graph made by ortho (which detects
// the stencil and may select message combining; with GridSpec::reorder, it
// may also map the processes onto the grid anew), the unified alltoallw on
// it and the global check on its base communicator.
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "classic/base/error.h"
#include "classic/collectives/collectives.h"
#include "classic/comm/comm.h"
#include "classic/graph/dist_graph.h"
#include "classic/p2p/request.h"
#include "experiments/halo/exchange.h"
#include "experiments/halo/halo_types.h"
#include "naming/cart_maps.h"
#include "naming/cart_name.h"
#include "ortho/collectives.h"
#include "ortho/dist_graph.h"
#include "ortho/explain.h"
#include "ortho/operation.h"
#include "ortho/structure.h"
#include "ortho/table.h"

namespace halo {
namespace {

// kMoore (sign +1) or its mirror image (-1), flat, as
// cart_allranks_relative takes offsets.
std::vector<int> flat_offsets(int sign) {
  std::vector<int> flat;
  for (const Offset offset : kMoore) {
    flat.push_back(sign * offset.row);
    flat.push_back(sign * offset.column);
  }
  return flat;
}

// The Moore neighbourhood of the process at grid rank `rank` of `named`.
Neighbours neighbours_of(const classic::Comm& named, int rank) {
  return moore_neighbours(
      naming::cart_allranks_relative(named, rank, flat_offsets(1)),
      naming::cart_allranks_relative(named, rank, flat_offsets(-1)));
}

// The bytes one exchange moves along each edge of `offsets` (indices into
// kMoore) for a block of rows x columns cells of element_bytes: a column
// east and west, a row north and south, one cell at a corner. An edge
// received from the process at -kMoore[i] carries that process's edge
// facing kMoore[i], which has the same length as this block's side.
std::vector<int> edge_bytes(const std::vector<int>& offsets, const Block& block,
                            int element_bytes) {
  std::vector<int> bytes;
  for (const int i : offsets) {
    const Offset offset = moore(i);
    const int cells = offset.row == 0      ? block.rows
                      : offset.column == 0 ? block.columns
                                           : 1;
    bytes.push_back(cells * element_bytes);
  }
  return bytes;
}

class OrthoExchange final : public Exchange {
 public:
  OrthoExchange(Mode mode, Algorithm algorithm, const GridSpec& spec,
                int element_bytes)
      : mode_(mode), forced_(algorithm) {
    const std::array<bool, 2> periods{spec.borders == Borders::periodic,
                                      spec.borders == Borders::periodic};
    comm_ = classic::Comm::world().dup();
    naming::cart_name(comm_, spec.dims, periods, naming::Order::row_major);
    // Each process passes the neighbourhood of the grid cell of its rank;
    // with Reorder::yes, the graph's rank q takes over cell q's lists.
    const int cell = comm_.rank();
    neighbours_ = neighbours_of(comm_, cell);
    const classic::Reorder reorder =
        spec.reorder ? classic::Reorder::yes : classic::Reorder::no;
    if (element_bytes > 0) {
      const std::vector<int> coords = naming::cart_coordinates(comm_, cell);
      const Block block = block_of(spec.n, spec.dims, coords);
      graph_ = ortho::dist_graph_create_adjacent(
          comm_, neighbours_.sources,
          edge_bytes(neighbours_.source_offsets, block, element_bytes),
          neighbours_.destinations,
          edge_bytes(neighbours_.destination_offsets, block, element_bytes), {},
          reorder);
    } else {
      graph_ = ortho::dist_graph_create_adjacent(
          comm_, neighbours_.sources, classic::unweighted,
          neighbours_.destinations, classic::unweighted, {}, reorder);
    }
    base_ = ortho::comm_base(graph_);
    // Everything that depends on the position follows the rank in the
    // graph: it is the grid cell this process holds (comm_'s naming maps
    // cells and coordinates alike, whatever the order of the processes).
    const int mine = graph_.rank();
    if (mine != cell) neighbours_ = neighbours_of(comm_, mine);
    const std::vector<int> coords = naming::cart_coordinates(comm_, mine);
    coordinates_ = {coords[0], coords[1]};
    force_algorithm();
  }

  ~OrthoExchange() override {
    // The requests go before the datatypes they use.
    requests_ = {};
  }
  OrthoExchange(const OrthoExchange&) = delete;
  OrthoExchange& operator=(const OrthoExchange&) = delete;

  std::array<int, 2> coordinates() const override { return coordinates_; }

  void bind(int rows, int columns, MPI_Datatype element,
            std::array<void*, 2> arrays) override {
    requests_ = {};
    types_.emplace(rows, columns, element);
    args_ = alltoallw_args(neighbours_, *types_, rows, columns);
    arrays_ = arrays;
    if (mode_ == Mode::persistent) {
      for (std::size_t w = 0; w < 2; ++w) {
        requests_[w] = ortho::alltoallw_init(
            graph_, arrays_[w], args_.send_counts, args_.send_displs,
            args_.send_types, arrays_[w], args_.recv_counts, args_.recv_displs,
            args_.recv_types);
      }
    }
  }

  void exchange(int which) override {
    const auto w = static_cast<std::size_t>(which);
    if (mode_ == Mode::persistent) {
      classic::start(requests_[w]);
      classic::wait(requests_[w]);
      return;
    }
    ortho::alltoallw(graph_, arrays_[w], args_.send_counts, args_.send_displs,
                     args_.send_types, arrays_[w], args_.recv_counts,
                     args_.recv_displs, args_.recv_types);
  }

  double allreduce(double value, MPI_Op op) override {
    double result = 0;
    classic::allreduce(base_, std::span<const double>(&value, 1),
                       std::span<double>(&result, 1), op);
    return result;
  }

  std::string algorithm() const override {
    return std::string(
        ortho::selected_algorithm(graph_, ortho::Operation::alltoallw,
                                  largest_block_bytes(), classic_mode()));
  }

  // A forced algorithm that does not run, or why the selection runs what it
  // does and what its tuning cost (ortho::explain: the reason, and its
  // measured calls' time over the winner's).
  std::string note() const override {
    if (!note_.empty()) return note_;
    if (forced_ == Algorithm::combining && algorithm() != "combining") {
      return "(combining not available for alltoallw: " + algorithm() + ")";
    }
    if (forced_ == Algorithm::selected) {
      const ortho::Explanation why =
          ortho::explain(graph_, ortho::Operation::alltoallw,
                         largest_block_bytes(), classic_mode());
      if (why.tuning_cost_ns) {
        return why.reason + ", tuning cost " +
               std::to_string(std::lround(*why.tuning_cost_ns / 1000.0)) +
               " us";
      }
      return why.reason;
    }
    return "";
  }

  Traffic traffic() override {
    return count_sends([&] { exchange(0); });
  }

  std::string mapping() override { return mapping_text(graph_); }

 private:
  classic::Mode classic_mode() const {
    return mode_ == Mode::persistent ? classic::Mode::persistent
                                     : classic::Mode::blocking;
  }
  // ortho::set_algorithm on this graph only: "direct", or "combining" for
  // every operation that has a combining algorithm here (where none has,
  // set_algorithm refuses and the default stays, with a note).
  void force_algorithm() {
    if (forced_ == Algorithm::selected) return;
    const char* spec = forced_ == Algorithm::direct ? "direct" : "combining";
    try {
      ortho::set_algorithm(graph_, spec);
    } catch (const classic::Error& error) {
      note_ = std::string("(") + spec + " not available: " + error.what() + ")";
    }
  }

  // This process's largest block: what the selection compares with its
  // crossover (it agrees on the largest over the communicator; the blocks
  // of a halo are alike on every process but at the edges of a mesh).
  std::size_t largest_block_bytes() const {
    std::size_t largest = 0;
    for (std::size_t i = 0; i < args_.send_types.size(); ++i) {
      int size = 0;
      MPI_Type_size(args_.send_types[i], &size);
      largest =
          std::max(largest, static_cast<std::size_t>(size) *
                                static_cast<std::size_t>(args_.send_counts[i]));
    }
    return largest;
  }

  Mode mode_;
  Algorithm forced_;
  classic::Comm comm_;
  classic::Comm graph_;
  classic::Comm base_;
  std::array<int, 2> coordinates_{0, 0};
  Neighbours neighbours_;
  std::optional<HaloTypes> types_;
  AlltoallwArgs args_;
  std::array<void*, 2> arrays_{nullptr, nullptr};
  std::array<classic::Request, 2> requests_;
  std::string note_;
};

}  // namespace

std::unique_ptr<Exchange> make_ortho_exchange(Mode mode, Algorithm algorithm,
                                              const GridSpec& spec,
                                              int element_bytes) {
  return std::make_unique<OrthoExchange>(mode, algorithm, spec, element_bytes);
}

}  // namespace halo
