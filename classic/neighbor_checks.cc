#include "classic/neighbor_checks.h"

#include <algorithm>
#include <climits>
#include <functional>
#include <string>
#include <vector>

#include "classic/constants.h"
#include "classic/error.h"

namespace classic::internal {
namespace {

std::string text(std::int64_t value) { return std::to_string(value); }

std::string entry(const char* name, std::size_t index) {
  return std::string(name) + "[" + text(static_cast<std::int64_t>(index)) + "]";
}

const char* neighbors_name(Side side) {
  return side == Side::sources ? "source, indegree" : "destination, outdegree";
}

// A block [begin, end) of a typed span, for the overlap check.
struct Extent {
  std::int64_t begin;
  std::int64_t end;
  std::size_t index;
};

}  // namespace

void NeighborChecks::reject_in_place(const void* data, const char* name) const {
  if (data == MPI_IN_PLACE) [[unlikely]] {
    throw Error(ErrorClass::buffer, exchange_.function(),
                std::string(name) +
                    " is MPI_IN_PLACE, which neighbourhood collectives do "
                    "not allow");
  }
}

void NeighborChecks::count(int count, const char* name) const {
  if (count < 0) [[unlikely]] {
    throw Error(ErrorClass::count, exchange_.function(),
                std::string(name) + " count = " + text(count) + " is negative");
  }
}

void NeighborChecks::datatype(MPI_Datatype datatype, const char* name) const {
  if (datatype == MPI_DATATYPE_NULL) [[unlikely]] {
    throw Error(ErrorClass::datatype, exchange_.function(),
                std::string(name) + " datatype is MPI_DATATYPE_NULL");
  }
}

void NeighborChecks::length(std::size_t entries, Side side,
                            const char* name) const {
  const int needed = degree(side);
  if (entries != static_cast<std::size_t>(needed)) [[unlikely]] {
    throw Error(ErrorClass::count, exchange_.function(),
                std::string(name) + " has " +
                    text(static_cast<std::int64_t>(entries)) +
                    " entries; it needs one per " + neighbors_name(side) +
                    " = " + text(needed));
  }
}

void NeighborChecks::counts(std::span<const int> counts, Side side,
                            const char* name) const {
  length(counts.size(), side, name);
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] < 0) [[unlikely]] {
      throw Error(ErrorClass::count, exchange_.function(),
                  entry(name, i) + " = " + text(counts[i]) + " is negative");
    }
  }
}

void NeighborChecks::datatypes(std::span<const MPI_Datatype> datatypes,
                               Side side, const char* name) const {
  length(datatypes.size(), side, name);
  for (std::size_t i = 0; i < datatypes.size(); ++i) {
    if (datatypes[i] == MPI_DATATYPE_NULL) [[unlikely]] {
      throw Error(ErrorClass::datatype, exchange_.function(),
                  entry(name, i) + " is MPI_DATATYPE_NULL");
    }
  }
}

void NeighborChecks::capacity(std::optional<std::size_t> capacity,
                              std::int64_t needed, const char* name) const {
  if (capacity && static_cast<std::int64_t>(*capacity) < needed) [[unlikely]] {
    throw Error(ErrorClass::buffer, exchange_.function(),
                std::string(name) +
                    ".size() = " + text(static_cast<std::int64_t>(*capacity)) +
                    " is less than the " + text(needed) +
                    " elements the counts need");
  }
}

void NeighborChecks::placement(std::span<const int> counts,
                               std::span<const int> displs,
                               std::optional<std::size_t> capacity, Side side,
                               const char* name) const {
  if (!capacity) return;
  const std::vector<int>& neighbors = side == Side::sources
                                          ? exchange_.lists().sources
                                          : exchange_.lists().destinations;
  std::vector<Extent> extents;
  extents.reserve(counts.size());
  for (std::size_t i = 0; i < counts.size(); ++i) {
    // Blocks of proc_null neighbours and empty blocks touch nothing.
    if (neighbors[i] == proc_null || counts[i] == 0) continue;
    const Extent extent{displs[i], std::int64_t{displs[i]} + counts[i], i};
    if (extent.begin < 0 || extent.end > static_cast<std::int64_t>(*capacity))
        [[unlikely]] {
      throw Error(ErrorClass::buffer, exchange_.function(),
                  "block " + text(static_cast<std::int64_t>(i)) + " [" +
                      text(extent.begin) + ", " + text(extent.end) +
                      ") lies outside " + name + ", whose size() = " +
                      text(static_cast<std::int64_t>(*capacity)));
    }
    extents.push_back(extent);
  }
  if (side == Side::destinations) return;  // reading twice is harmless
  std::sort(extents.begin(), extents.end(),
            [](const Extent& a, const Extent& b) { return a.begin < b.begin; });
  for (std::size_t i = 1; i < extents.size(); ++i) {
    if (extents[i].begin < extents[i - 1].end) [[unlikely]] {
      throw Error(
          ErrorClass::buffer, exchange_.function(),
          "blocks " + text(static_cast<std::int64_t>(extents[i - 1].index)) +
              " and " + text(static_cast<std::int64_t>(extents[i].index)) +
              " of " + name + " overlap; no element may be received twice");
    }
  }
}

void NeighborChecks::apart(const void* a, std::size_t a_bytes, const void* b,
                           std::size_t b_bytes) const {
  if (a_bytes == 0 || b_bytes == 0) return;
  const auto* a_begin = static_cast<const std::byte*>(a);
  const auto* b_begin = static_cast<const std::byte*>(b);
  const std::less<const std::byte*> before;  // a total order on pointers
  if (before(a_begin, b_begin + b_bytes) && before(b_begin, a_begin + a_bytes))
      [[unlikely]] {
    throw Error(ErrorClass::buffer, exchange_.function(),
                "send and recv overlap; a neighbourhood collective needs "
                "separate buffers");
  }
}

int NeighborChecks::count_of(std::size_t elements, const char* name) const {
  if (elements > static_cast<std::size_t>(INT_MAX)) [[unlikely]] {
    throw Error(ErrorClass::count, exchange_.function(),
                std::string(name) +
                    ".size() = " + text(static_cast<std::int64_t>(elements)) +
                    " is more than INT_MAX elements");
  }
  return static_cast<int>(elements);
}

int NeighborChecks::per_block(std::size_t elements, int blocks,
                              const char* name) const {
  const auto n = static_cast<std::size_t>(blocks);
  if (elements % n != 0) [[unlikely]] {
    throw Error(ErrorClass::buffer, exchange_.function(),
                std::string(name) +
                    ".size() = " + text(static_cast<std::int64_t>(elements)) +
                    " is not a multiple of " + text(blocks) +
                    " neighbours, so it holds no whole block per neighbour");
  }
  return count_of(elements / n, name);
}

}  // namespace classic::internal
