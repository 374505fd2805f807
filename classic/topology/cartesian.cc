#include "classic/topology/cartesian.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "classic/base/constants.h"
#include "classic/base/error.h"
#include "classic/comm/internal/comm_state.h"
#include "classic/comm/locality.h"
#include "classic/topology/internal/cart_arithmetic.h"
#include "classic/topology/internal/node_aware_order.h"
#include "classic/topology/internal/topology_cache.h"

namespace classic {
namespace {

using internal::CartTopology;

constexpr const char* kCartMap = "classic::cart_map";
constexpr const char* kCartCreate = "classic::cart_create";

// ---- validation ------------------------------------------------------------

void check_length(std::size_t length, std::size_t ndims, const char* argument,
                  const char* function) {
  if (length == ndims) return;
  throw Error(ErrorClass::dims, function,
              std::string(argument) + " has " + std::to_string(length) +
                  " entries; the grid has " + std::to_string(ndims) +
                  " dimensions");
}

std::string list(std::span<const int> values) {
  std::string text = "{";
  for (std::size_t i = 0; i < values.size(); ++i) {
    text += (i == 0 ? "" : ", ") + std::to_string(values[i]);
  }
  return text + "}";
}

// The grid `dims` x `periods`, checked to be one that a communicator of
// `comm_size` processes can hold.
CartTopology checked_grid(std::span<const int> dims,
                          std::span<const bool> periods, int comm_size,
                          const char* function) {
  check_length(periods.size(), dims.size(), "periods", function);
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 1) {
      throw Error(ErrorClass::dims, function,
                  "dims[" + std::to_string(i) +
                      "] = " + std::to_string(dims[i]) + " is not positive");
    }
  }
  // The product grows with every factor, so it is compared with comm_size
  // as it goes and cannot overflow.
  std::int64_t processes = 1;
  for (const int extent : dims) {
    processes *= extent;
    if (processes > comm_size) {
      throw Error(ErrorClass::arg, function,
                  "dims = " + list(dims) + " make a grid of at least " +
                      std::to_string(processes) + " processes; comm has " +
                      std::to_string(comm_size));
    }
  }
  return CartTopology{{dims.begin(), dims.end()},
                      {periods.begin(), periods.end()}};
}

void check_reorder(Reorder reorder) {
  if (reorder == Reorder::no || reorder == Reorder::yes) return;
  throw Error(ErrorClass::arg, kCartCreate,
              "reorder = " + std::to_string(static_cast<int>(reorder)) +
                  " is not a classic::Reorder value");
}

// The grid cached on comm: ErrorClass::comm for a null or freed comm,
// ErrorClass::topology when it is not Cartesian.
const CartTopology& grid_of(const Comm& comm, const char* function) {
  internal::CommAccess::state(comm, function);
  return internal::topology_as<CartTopology>(comm, function);
}

// The rank of this process's map (identity numbering; see cart_map).
int identity_rank(const Comm::State& state, const CartTopology& grid) {
  return state.rank < internal::grid_size(grid) ? state.rank : undefined;
}

// ---- cart_sub --------------------------------------------------------------

// How cart_sub splits: processes of one sub-grid share `color` (their
// coordinates in the dropped dimensions, row-major) and are ordered by `key`
// (their coordinates in the kept ones, row-major).
struct SubGridPlace {
  int color = 0;
  int key = 0;
  CartTopology grid;
};

SubGridPlace place_in_sub_grid(const CartTopology& grid,
                               std::span<const int> coords,
                               std::span<const bool> remain_dims) {
  SubGridPlace place;
  for (std::size_t i = 0; i < grid.dims.size(); ++i) {
    // Both encodings are below grid_size(grid) <= INT_MAX.
    if (remain_dims[i]) {
      place.key = place.key * grid.dims[i] + coords[i];
      place.grid.dims.push_back(grid.dims[i]);
      place.grid.periods.push_back(grid.periods[i]);
    } else {
      place.color = place.color * grid.dims[i] + coords[i];
    }
  }
  return place;
}

}  // namespace

// ---- constructors ----------------------------------------------------------

int cart_map(const Comm& comm, std::span<const int> dims,
             std::span<const bool> periods) {
  const Comm::State& state = internal::CommAccess::intra_state(comm, kCartMap);
  return identity_rank(
      state, checked_grid(dims, periods, state.local.size(), kCartMap));
}

Comm cart_create(const Comm& comm, std::span<const int> dims,
                 std::span<const bool> periods, Reorder reorder) {
  const Comm::State& state =
      internal::CommAccess::intra_state(comm, kCartCreate);
  check_reorder(reorder);
  CartTopology grid =
      checked_grid(dims, periods, state.local.size(), kCartCreate);
  // cart_map's numbering, the identity; with Reorder::yes on a grid of all
  // the processes, node-aware where that cuts fewer edges between hosts.
  int new_rank = identity_rank(state, grid);
  if (reorder == Reorder::yes &&
      internal::grid_size(grid) == state.local.size()) {
    const Locality& hosts = locality(comm);
    if (hosts.hosts() > 1) {
      new_rank = internal::node_aware_ranks(
          grid.dims, periods,
          hosts.host_of_rank)[static_cast<std::size_t>(state.rank)];
    }
  }
  Comm cart = comm.split(new_rank == undefined ? undefined : 0, new_rank);
  return internal::with_topology(std::move(cart), std::move(grid));
}

Comm cart_sub(const Comm& comm, std::span<const bool> remain_dims) {
  constexpr const char* kFunction = "classic::cart_sub";
  const CartTopology& grid = grid_of(comm, kFunction);
  check_length(remain_dims.size(), grid.dims.size(), "remain_dims", kFunction);
  const std::vector<int> coords =
      internal::coords_of(grid, comm.rank(), kFunction);
  SubGridPlace place = place_in_sub_grid(grid, coords, remain_dims);
  Comm sub = comm.split(place.color, place.key);
  return internal::with_topology(std::move(sub), std::move(place.grid));
}

// ---- inquiry ---------------------------------------------------------------

int cartdim_get(const Comm& comm) {
  return static_cast<int>(grid_of(comm, "classic::cartdim_get").dims.size());
}

CartInfo cart_get(const Comm& comm) {
  constexpr const char* kFunction = "classic::cart_get";
  const CartTopology& grid = grid_of(comm, kFunction);
  return CartInfo{grid.dims, grid.periods,
                  internal::coords_of(grid, comm.rank(), kFunction)};
}

int cart_rank(const Comm& comm, std::span<const int> coords) {
  constexpr const char* kFunction = "classic::cart_rank";
  return internal::rank_of(grid_of(comm, kFunction), coords, kFunction);
}

std::vector<int> cart_coords(const Comm& comm, int rank) {
  constexpr const char* kFunction = "classic::cart_coords";
  return internal::coords_of(grid_of(comm, kFunction), rank, kFunction);
}

CartShift cart_shift(const Comm& comm, int direction, int displacement) {
  constexpr const char* kFunction = "classic::cart_shift";
  const internal::ShiftRanks ranks =
      internal::shift_of(grid_of(comm, kFunction), comm.rank(), direction,
                         displacement, kFunction);
  return {ranks.source, ranks.destination};
}

namespace {

// std::vector<bool> packs its flags into bits; a span needs real bools.
std::unique_ptr<bool[]> unpacked(const std::vector<bool>& flags) {
  auto copy = std::make_unique<bool[]>(flags.size());
  std::copy(flags.begin(), flags.end(), copy.get());
  return copy;
}

}  // namespace

int cart_map(const Comm& comm, std::span<const int> dims,
             const std::vector<bool>& periods) {
  const std::unique_ptr<bool[]> flags = unpacked(periods);
  return cart_map(comm, dims,
                  std::span<const bool>(flags.get(), periods.size()));
}

Comm cart_create(const Comm& comm, std::span<const int> dims,
                 const std::vector<bool>& periods, Reorder reorder) {
  const std::unique_ptr<bool[]> flags = unpacked(periods);
  return cart_create(
      comm, dims, std::span<const bool>(flags.get(), periods.size()), reorder);
}

Comm cart_sub(const Comm& comm, const std::vector<bool>& remain_dims) {
  const std::unique_ptr<bool[]> flags = unpacked(remain_dims);
  return cart_sub(comm, std::span<const bool>(flags.get(), remain_dims.size()));
}

}  // namespace classic
