// Stencil neighbourhood generation (paper Listing 6: Cart_neighbors_count,
// Cart_neighbors): all relative offsets within a metric shell.
#ifndef ORTHOCOMM_STENCILS_NEIGHBORHOOD_H_
#define ORTHOCOMM_STENCILS_NEIGHBORHOOD_H_

#include <cstdint>
#include <span>
#include <vector>

#include "naming/geometry.h"
#include "stencils/stencil.h"

namespace stencils {

// manhattan: the L1 distance sum |o_k|; its balls are von Neumann
// neighbourhoods (depth 1 in 2-d: the 5-point stencil, D2Q5).
// chebyshev: the L-infinity distance max |o_k|; its balls are Moore
// neighbourhoods (depth 1: D2Q9, D3Q27).
enum class Metric { manhattan, chebyshev };

// The distance of `offset` from the origin. Throws arg for an invalid metric.
std::int64_t distance(Metric metric, std::span<const int> offset);

// All offsets o of `ndims` dimensions with shadow <= distance(o) <= depth.
// shadow 0 includes the zero offset (the process itself); shadow 1 leaves it
// out, as Listing 7 does; shadow s > 1 removes the whole inner ball of radius
// s - 1. shadow > depth gives the empty stencil (the shell is empty; that is
// not an error). ndims == 0 gives the one empty offset if shadow == 0.
//
// Order: lexicographic with dimension 0 most significant, each component
// ascending from -depth to +depth; e.g. Moore depth 1 in 2-d is
// (-1,-1) (-1,0) (-1,1) (0,-1) (0,1) (1,-1) (1,0) (1,1).
//
// Throws classic::Error: dims if ndims < 0; arg if shadow < 0, depth < 0 or
// metric is not a Metric value; count if the stencil has more than INT_MAX
// offsets or its flat list more than INT_MAX ints.
Stencil cart_stencil(int ndims, Metric metric, int shadow, int depth);

// cart_stencil(...).size(), in closed form: a Chebyshev ball of radius r has
// (2r+1)^d points, a Manhattan ball sum_k 2^k C(d,k) C(r,k). Throws as
// cart_stencil, except that only the number of offsets must fit in int.
int cart_neighbors_count(int ndims, Metric metric, int shadow, int depth);

// The offsets of `a` that do not occur in `b` (set difference: one
// occurrence in b removes every equal offset of a), in a's order. Throws dims
// if the two differ in ndims.
Stencil stencil_difference(const Stencil& a, const Stencil& b);

// The paper's rank-taking forms. A Cartesian naming gives neighbourhoods that
// depend on the position only through the grid's borders:
// - in a non-periodic dimension, offsets that leave the grid are DROPPED (not
//   returned as proc_null), so a border process gets fewer neighbours and
//   cart_neighbors_count depends on the rank, as Listing 6's signature
//   suggests; the result can go straight into dist_graph_create_adjacent;
// - in a periodic dimension, offsets wrap; on a small torus (extent <= 2 *
//   depth) different offsets reach the same process and the repeated ranks
//   are KEPT, one per offset, as MPI's Cartesian neighbour lists keep them.
// Order: that of cart_stencil, with the dropped offsets left out.
// Throws as cart_stencil, and rank unless 0 <= rank < geometry.size().

// The offsets themselves (not canonicalised: an offset +2 on a periodic
// dimension of extent 3 stays +2).
Stencil cart_neighbors(const naming::Geometry& geometry, int rank,
                       Metric metric, int shadow, int depth);
// The neighbours' ranks: geometry.allranks_relative(rank, offsets above).
std::vector<int> cart_neighbor_ranks(const naming::Geometry& geometry, int rank,
                                     Metric metric, int shadow, int depth);
// cart_neighbor_ranks(...).size(), counted without building the list.
int cart_neighbors_count(const naming::Geometry& geometry, int rank,
                         Metric metric, int shadow, int depth);

}  // namespace stencils

#endif  // ORTHOCOMM_STENCILS_NEIGHBORHOOD_H_
