#include "stencils/cartesianness.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "classic/base/error.h"
#include "stencils/checks.h"

namespace stencils {
namespace {

using classic::ErrorClass;
using Offset = std::vector<int>;

void check_coords(const naming::Geometry& geometry, std::span<const int> coords,
                  const char* function) {
  if (coords.size() != static_cast<std::size_t>(geometry.ndims())) {
    throw classic::Error(
        ErrorClass::arg, function,
        "coords has " + std::to_string(coords.size()) +
            " elements but ndims = " + std::to_string(geometry.ndims()));
  }
  for (int k = 0; k < geometry.ndims(); ++k) {
    if (coords[k] >= 0 && coords[k] < geometry.dims()[k]) continue;
    throw classic::Error(
        ErrorClass::rank, function,
        "coords[" + std::to_string(k) + "] = " + std::to_string(coords[k]) +
            " is outside [0, " + std::to_string(geometry.dims()[k]) + ")");
  }
}

// Whether coords + offset is a point of the grid.
bool stays_on_grid(const naming::Geometry& geometry,
                   std::span<const int> coords, std::span<const int> offset) {
  for (int k = 0; k < geometry.ndims(); ++k) {
    if (geometry.periodic(k)) continue;
    const std::int64_t position =
        static_cast<std::int64_t>(coords[k]) + offset[k];
    if (position < 0 || position >= geometry.dims()[k]) return false;
  }
  return true;
}

std::vector<Offset> canonical_offsets(const naming::Geometry& geometry,
                                      const Stencil& stencil) {
  std::vector<Offset> offsets;
  offsets.reserve(stencil.size());
  for (int i = 0; i < stencil.size(); ++i) {
    offsets.push_back(geometry.canonical_offset(stencil.offset(i)));
  }
  return offsets;
}

// Canonical offsets of the candidate's on-grid part, with their candidate
// indices.
struct Restricted {
  std::vector<Offset> offsets;
  std::vector<int> indices;
};

Restricted restricted_canonical(const naming::Geometry& geometry,
                                const Stencil& candidate,
                                std::span<const int> coords) {
  Restricted restricted;
  for (int i = 0; i < candidate.size(); ++i) {
    if (!stays_on_grid(geometry, coords, candidate.offset(i))) continue;
    restricted.offsets.push_back(
        geometry.canonical_offset(candidate.offset(i)));
    restricted.indices.push_back(i);
  }
  return restricted;
}

void check_all(const naming::Geometry& geometry, const Stencil& candidate,
               std::span<const int> coords, const Stencil& own,
               const char* function) {
  internal::check_ndims(geometry, candidate.ndims(), "candidate", function);
  internal::check_ndims(geometry, own.ndims(), "own", function);
  check_coords(geometry, coords, function);
}

}  // namespace

Stencil canonical_sorted(const naming::Geometry& geometry,
                         const Stencil& stencil) {
  internal::check_ndims(geometry, stencil.ndims(), "stencil",
                        "stencils::canonical_sorted");
  std::vector<Offset> offsets = canonical_offsets(geometry, stencil);
  std::sort(offsets.begin(), offsets.end());
  Stencil result(stencil.ndims());
  for (const Offset& offset : offsets) result.push_back(offset);
  return result;
}

Stencil restrict_to_grid(const naming::Geometry& geometry,
                         const Stencil& candidate,
                         std::span<const int> coords) {
  constexpr const char* kFunction = "stencils::restrict_to_grid";
  internal::check_ndims(geometry, candidate.ndims(), "candidate", kFunction);
  check_coords(geometry, coords, kFunction);
  Stencil result(candidate.ndims());
  for (int i = 0; i < candidate.size(); ++i) {
    if (stays_on_grid(geometry, coords, candidate.offset(i))) {
      result.push_back(candidate.offset(i));
    }
  }
  return result;
}

bool is_cartesian_neighborhood(const naming::Geometry& geometry,
                               const Stencil& candidate,
                               std::span<const int> coords,
                               const Stencil& own) {
  check_all(geometry, candidate, coords, own,
            "stencils::is_cartesian_neighborhood");
  std::vector<Offset> expected =
      restricted_canonical(geometry, candidate, coords).offsets;
  if (static_cast<int>(expected.size()) != own.size()) return false;
  // An own offset that leaves the grid cannot equal an on-grid candidate
  // offset: canonicalisation keeps non-periodic components as they are.
  std::vector<Offset> actual = canonical_offsets(geometry, own);
  std::sort(expected.begin(), expected.end());
  std::sort(actual.begin(), actual.end());
  return expected == actual;
}

std::optional<std::vector<int>> slot_map(const naming::Geometry& geometry,
                                         const Stencil& candidate,
                                         std::span<const int> coords,
                                         const Stencil& own) {
  check_all(geometry, candidate, coords, own, "stencils::slot_map");
  if (!is_cartesian_neighborhood(geometry, candidate, coords, own)) {
    return std::nullopt;
  }
  // For each canonical offset, own's indices in ascending order; candidate
  // occurrences consume them in order.
  std::map<Offset, std::vector<int>> own_indices;
  const std::vector<Offset> actual = canonical_offsets(geometry, own);
  for (int j = own.size() - 1; j >= 0; --j) own_indices[actual[j]].push_back(j);
  std::vector<int> map(candidate.size(), -1);
  const Restricted restricted =
      restricted_canonical(geometry, candidate, coords);
  for (std::size_t r = 0; r < restricted.offsets.size(); ++r) {
    std::vector<int>& unused = own_indices[restricted.offsets[r]];
    map[restricted.indices[r]] = unused.back();  // Smallest unused index.
    unused.pop_back();
  }
  return map;
}

}  // namespace stencils
