// Blocked stencil grids, MPI-free part: how an N x N grid is split over a
// process grid, the eight Moore offsets in the order of the paper's
// Figure 1, and where each offset's edge (sent) and halo (received) lie in
// a local array with a halo of one cell.
#ifndef ORTHOCOMM_EXPERIMENTS_HALO_DECOMPOSITION_H_
#define ORTHOCOMM_EXPERIMENTS_HALO_DECOMPOSITION_H_

#include <array>
#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

namespace halo {

// A relative position in the process grid: (row, column) steps.
struct Offset {
  int row;
  int column;
};

// The 8-neighbourhood as Figure 1 lists it ("target[] = { 0,1, 0,-1, -1,0,
// 1,0, -1,1, 1,1, 1,-1, -1,-1}"): east, west, north, south, then corners.
inline constexpr std::array<Offset, 8> kMoore{{{0, 1},
                                               {0, -1},
                                               {-1, 0},
                                               {1, 0},
                                               {-1, 1},
                                               {1, 1},
                                               {1, -1},
                                               {-1, -1}}};

// kMoore[i] for an int index.
inline Offset moore(int i) { return kMoore[static_cast<std::size_t>(i)]; }

// What lies beyond the grid: nothing (fixed: the outer halo keeps the
// values it was given, dead cells or boundary values) or the other side
// (periodic, a torus).
enum class Borders { fixed, periodic };
std::string_view to_string(Borders borders);

// The part of the global grid a process holds: rows [row0, row0 + rows) and
// columns [column0, column0 + columns) of the interior.
struct Block {
  int row0 = 0;
  int column0 = 0;
  int rows = 0;
  int columns = 0;
  friend bool operator==(const Block&, const Block&) = default;
};

// The first index and the length of part `index` of `n` items split into
// `parts` near-equal parts (the first n % parts get one more).
struct Span1d {
  int first;
  int length;
};
Span1d split(int n, int parts, int index);

// The block of the process at (coords[0], coords[1]) of a dims[0] x dims[1]
// process grid over an n x n grid. Throws classic::Error (arg) unless every
// process gets at least one row and one column (n >= dims[i]).
Block block_of(int n, std::span<const int> dims, std::span<const int> coords);

// The shapes of Figure 1's datatypes: ROW (a run of `columns` cells), COL
// (`rows` cells one array row apart) and COR (one cell).
enum class Piece { row, column, corner };

// A piece at an element offset into the local array: (rows + 2) x
// (columns + 2) cells, row-major, interior at [1, rows] x [1, columns].
struct Region {
  Piece piece;
  std::ptrdiff_t offset;
  friend bool operator==(const Region&, const Region&) = default;
};

// The edge of the interior that faces `toward` (sent to the neighbour there).
Region edge(int rows, int columns, Offset toward);
// The halo on the side of `side` (received from the neighbour there).
Region halo_region(int rows, int columns, Offset side);

// The neighbourhood of one process as alltoallw lists it: destination i is
// the process at +kMoore[destination_offsets[i]] (it gets the edge facing
// that way), source i the process at -kMoore[source_offsets[i]] (what it
// sends, its edge facing kMoore[source_offsets[i]], fills the halo on the
// side -kMoore[...]). With both lists in kMoore's order, the k-th of
// several edges between two processes (a periodic dimension of extent 1
// or 2) pairs with the k-th, as MPI's neighbourhood collectives pair them.
// Off-grid neighbours (fixed borders) are left out.
struct Neighbours {
  std::vector<int> destinations;
  std::vector<int> destination_offsets;
  std::vector<int> sources;
  std::vector<int> source_offsets;
};

// plus[i] and minus[i] are the ranks of the processes at this process's
// coordinates + kMoore[i] and - kMoore[i] (8 each), negative where there is
// none (the paper's Cart_allranks_relative gives MPI_PROC_NULL there).
Neighbours moore_neighbours(std::span<const int> plus,
                            std::span<const int> minus);

}  // namespace halo

#endif  // ORTHOCOMM_EXPERIMENTS_HALO_DECOMPOSITION_H_
