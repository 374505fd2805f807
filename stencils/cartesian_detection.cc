#include "stencils/cartesian_detection.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include "classic/base/error.h"
#include "classic/collectives/agreement.h"
#include "classic/collectives/collectives.h"
#include "stencils/cartesianness.h"

namespace stencils {
namespace {

constexpr const char* kFunction = "stencils::detect_cartesian";

void check_ranks(std::span<const int> ranks, const char* name, int size) {
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    if (ranks[i] < 0 || ranks[i] >= size) {
      throw classic::Error(classic::ErrorClass::rank, kFunction,
                           std::string(name) + "[" + std::to_string(i) +
                               "] = " + std::to_string(ranks[i]) +
                               " is outside [0, " + std::to_string(size) + ")");
    }
  }
}

bool all_named(const naming::Geometry& geometry, std::span<const int> ranks) {
  return std::all_of(ranks.begin(), ranks.end(),
                     [&](int rank) { return rank < geometry.size(); });
}

// The canonical offsets of `ranks` as seen from `from`.
Stencil offsets_from(const naming::Geometry& geometry, int from,
                     std::span<const int> ranks) {
  Stencil stencil(geometry.ndims());
  for (int rank : ranks) {
    stencil.push_back(geometry.relative_coordinates(from, rank));
  }
  return stencil;
}

// The process whose neighbourhood serves as the stencil: the most targets,
// ties to the lowest rank (MPI_MAXLOC's rule).
int choose_reference(const classic::Comm& comm, int rank, int target_count) {
  const std::array<int, 2> mine{target_count, rank};
  std::array<int, 2> best{};
  classic::allreduce(comm, mine.data(), best.data(), 1, MPI_2INT, MPI_MAXLOC);
  return best[1];
}

// This process's part in the check, once its lists are known to be usable.
struct Local {
  bool usable = false;  // named with named neighbours, or unnamed and alone
  bool named = false;
  Stencil targets{0};  // canonical offsets, own order
  Stencil sources{0};
};

// The global facts every method needs, from one allreduce(MAX): the largest
// list lengths, the bounding box of all offsets, and whether anyone is
// unusable.
struct Extent {
  int max_targets = 0;
  int max_sources = 0;
  bool all_usable = true;
  std::vector<int> low;  // per dimension; low > high when nobody has offsets
  std::vector<int> high;
  std::int64_t box_size() const {
    std::int64_t size = 1;
    for (std::size_t k = 0; k < low.size(); ++k) {
      if (low[k] > high[k]) return 0;
      size *= static_cast<std::int64_t>(high[k]) - low[k] + 1;
      // Large enough to mean "too big".
      if (size > (std::int64_t{1} << 40)) return size;
    }
    return size;
  }
};

Extent global_extent(const classic::Comm& comm, const Local& local, int ndims) {
  // Layout: targets, sources, unusable, -low[d], high[d]; MAX over all.
  const std::size_t d = static_cast<std::size_t>(ndims);
  std::vector<int> mine(3 + 2 * d, std::numeric_limits<int>::min());
  mine[0] = local.targets.size();
  mine[1] = local.sources.size();
  mine[2] = local.usable ? 0 : 1;
  for (const Stencil* stencil : {&local.targets, &local.sources}) {
    for (int i = 0; i < stencil->size(); ++i) {
      for (std::size_t k = 0; k < d; ++k) {
        const int component = stencil->offset(i)[k];
        mine[3 + k] = std::max(mine[3 + k], -component);
        mine[3 + d + k] = std::max(mine[3 + d + k], component);
      }
    }
  }
  std::vector<int> all(mine.size());
  classic::allreduce(comm, std::span<const int>(mine), std::span(all), MPI_MAX);
  Extent extent;
  extent.max_targets = all[0];
  extent.max_sources = all[1];
  extent.all_usable = all[2] == 0;
  for (std::size_t k = 0; k < d; ++k) {
    extent.low.push_back(
        all[3 + k] == std::numeric_limits<int>::min() ? 1 : -all[3 + k]);
    extent.high.push_back(
        all[3 + d + k] == std::numeric_limits<int>::min() ? 0 : all[3 + d + k]);
  }
  return extent;
}

// Index of `offset` in the box, row-major.
std::size_t box_index(const Extent& extent, std::span<const int> offset) {
  std::size_t index = 0;
  for (std::size_t k = 0; k < extent.low.size(); ++k) {
    index =
        index * static_cast<std::size_t>(extent.high[k] - extent.low[k] + 1) +
        static_cast<std::size_t>(offset[k] - extent.low[k]);
  }
  return index;
}

// The multiset union (largest multiplicity of each offset over all
// processes) of every process's targets and of its sources, by one
// allreduce(MAX) of multiplicity histograms over the bounding box. Exact on
// meshes too: an offset some process cannot see is still seen by another.
std::pair<Stencil, Stencil> union_stencils(const classic::Comm& comm,
                                           const Local& local,
                                           const Extent& extent) {
  const std::size_t box = static_cast<std::size_t>(extent.box_size());
  std::vector<int> mine(2 * box, 0);
  for (int i = 0; i < local.targets.size(); ++i) {
    ++mine[box_index(extent, local.targets.offset(i))];
  }
  for (int i = 0; i < local.sources.size(); ++i) {
    ++mine[box + box_index(extent, local.sources.offset(i))];
  }
  std::vector<int> all(mine.size());
  classic::allreduce(comm, std::span<const int>(mine), std::span(all), MPI_MAX);
  const int ndims = static_cast<int>(extent.low.size());
  Stencil targets(ndims);
  Stencil sources(ndims);
  std::vector<int> offset(extent.low);
  for (std::size_t index = 0; index < box; ++index) {
    for (int copy = 0; copy < all[index]; ++copy) targets.push_back(offset);
    for (int copy = 0; copy < all[box + index]; ++copy) {
      sources.push_back(offset);
    }
    // Next offset in row-major order.
    for (int k = ndims - 1; k >= 0; --k) {
      const auto kk = static_cast<std::size_t>(k);
      if (++offset[kk] <= extent.high[kk]) break;
      offset[kk] = extent.low[kk];
    }
  }
  return {std::move(targets), std::move(sources)};
}

// Section 3.2 as the paper states it: the process with the most targets
// (ties to the lowest rank) broadcasts its lists. Exact on tori, where every
// process sees its whole stencil; used when the bounding box is too large
// for histograms.
std::pair<Stencil, Stencil> reference_stencils(const classic::Comm& comm,
                                               const naming::Geometry& geometry,
                                               int rank,
                                               std::span<const int> targets,
                                               std::span<const int> sources) {
  const int reference =
      choose_reference(comm, rank, static_cast<int>(targets.size()));
  std::array<int, 2> lengths{static_cast<int>(targets.size()),
                             static_cast<int>(sources.size())};
  classic::bcast(comm, std::span(lengths), reference);
  std::vector<int> ranks(static_cast<std::size_t>(lengths[0] + lengths[1]));
  if (rank == reference) {
    std::copy(targets.begin(), targets.end(), ranks.begin());
    std::copy(sources.begin(), sources.end(), ranks.begin() + lengths[0]);
  }
  classic::bcast(comm, std::span(ranks), reference);
  const std::span<const int> all(ranks);
  const auto split = static_cast<std::size_t>(lengths[0]);
  return {offsets_from(geometry, reference, all.first(split)),
          offsets_from(geometry, reference, all.subspan(split))};
}

// Histograms cost at most this many ints per list beyond the lists' own
// length; beyond it the reference method is used.
std::int64_t histogram_limit(const Extent& extent) {
  return std::max<std::int64_t>(
      64, std::int64_t{4} *
              (std::int64_t{extent.max_targets} + extent.max_sources));
}

}  // namespace

std::optional<CartesianNeighborhood> detect_cartesian(
    const classic::Comm& comm, const naming::Geometry& geometry,
    std::span<const int> targets, std::span<const int> sources) {
  if (comm.is_inter()) {
    throw classic::Error(classic::ErrorClass::comm, kFunction,
                         "comm is an inter-communicator");
  }
  const int size = comm.size();
  const int rank = comm.rank();
  if (geometry.size() > size) {
    throw classic::Error(classic::ErrorClass::dims, kFunction,
                         "the grid has " + std::to_string(geometry.size()) +
                             " points but comm only " + std::to_string(size) +
                             " processes");
  }
  check_ranks(targets, "targets", size);
  check_ranks(sources, "sources", size);

  Local local;
  local.named = rank < geometry.size();
  local.usable =
      local.named ? all_named(geometry, targets) && all_named(geometry, sources)
                  : targets.empty() && sources.empty();
  local.targets = Stencil(geometry.ndims());
  local.sources = Stencil(geometry.ndims());
  if (local.usable && local.named) {
    local.targets = offsets_from(geometry, rank, targets);
    local.sources = offsets_from(geometry, rank, sources);
  }

  const Extent extent = global_extent(comm, local, geometry.ndims());
  if (!extent.all_usable) return std::nullopt;

  CartesianNeighborhood result;
  auto stencils =
      extent.box_size() <= histogram_limit(extent)
          ? union_stencils(comm, local, extent)
          : reference_stencils(comm, geometry, rank, targets, sources);
  result.targets = std::move(stencils.first);
  result.sources = std::move(stencils.second);

  bool cartesian = true;
  if (local.named) {
    const std::vector<int> coords = geometry.coordinates(rank);
    auto target_slots =
        slot_map(geometry, result.targets, coords, local.targets);
    auto source_slots =
        slot_map(geometry, result.sources, coords, local.sources);
    cartesian = target_slots.has_value() && source_slots.has_value();
    if (cartesian) {
      result.target_slots = std::move(*target_slots);
      result.source_slots = std::move(*source_slots);
    }
  }

  if (!classic::all_true(comm, cartesian)) return std::nullopt;
  return result;
}

}  // namespace stencils
