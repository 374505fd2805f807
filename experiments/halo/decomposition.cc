#include "experiments/halo/decomposition.h"

#include <string>

#include "classic/base/error.h"

namespace halo {
namespace {

// The array index of the first cell on the side `step` (-1, 0, +1) of an
// interior of `length` cells: 1 for west/north and along (0), length for
// east/south; `halo` moves one further out.
int edge_index(int step, int length) { return step > 0 ? length : 1; }
int halo_index(int step, int length) {
  if (step > 0) return length + 1;
  return step < 0 ? 0 : 1;
}

Piece piece_of(Offset offset) {
  if (offset.row == 0) return Piece::column;
  if (offset.column == 0) return Piece::row;
  return Piece::corner;
}

Region region_at(int row, int column, int columns, Offset offset) {
  const std::ptrdiff_t stride = columns + 2;
  return {piece_of(offset), row * stride + column};
}

}  // namespace

std::string_view to_string(Borders borders) {
  return borders == Borders::fixed ? "fixed" : "periodic";
}

Span1d split(int n, int parts, int index) {
  const int base = n / parts;
  const int extra = n % parts;
  const int first = index * base + (index < extra ? index : extra);
  return {first, base + (index < extra ? 1 : 0)};
}

Block block_of(int n, std::span<const int> dims, std::span<const int> coords) {
  if (dims.size() != 2 || coords.size() != 2) {
    throw classic::Error(classic::ErrorClass::arg, "halo::block_of",
                         "the grid must be 2-dimensional");
  }
  if (n < dims[0] || n < dims[1]) {
    throw classic::Error(classic::ErrorClass::arg, "halo::block_of",
                         "n = " + std::to_string(n) + " is smaller than the " +
                             std::to_string(dims[0]) + " x " +
                             std::to_string(dims[1]) + " process grid");
  }
  const Span1d rows = split(n, dims[0], coords[0]);
  const Span1d columns = split(n, dims[1], coords[1]);
  return {rows.first, columns.first, rows.length, columns.length};
}

Region edge(int rows, int columns, Offset toward) {
  return region_at(edge_index(toward.row, rows),
                   edge_index(toward.column, columns), columns, toward);
}

Region halo_region(int rows, int columns, Offset side) {
  return region_at(halo_index(side.row, rows),
                   halo_index(side.column, columns), columns, side);
}

Neighbours moore_neighbours(std::span<const int> plus,
                            std::span<const int> minus) {
  if (plus.size() != kMoore.size() || minus.size() != kMoore.size()) {
    throw classic::Error(classic::ErrorClass::count, "halo::moore_neighbours",
                         "needs 8 ranks on each side");
  }
  Neighbours neighbours;
  for (int i = 0; i < static_cast<int>(kMoore.size()); ++i) {
    const auto k = static_cast<std::size_t>(i);
    const int destination = plus[k];
    if (destination >= 0) {
      neighbours.destinations.push_back(destination);
      neighbours.destination_offsets.push_back(i);
    }
    const int source = minus[k];
    if (source >= 0) {
      neighbours.sources.push_back(source);
      neighbours.source_offsets.push_back(i);
    }
  }
  return neighbours;
}

}  // namespace halo
