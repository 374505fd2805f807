// The rank <-> coordinate maps of a named communicator (paper Listing 4):
// each looks up the cached naming once and delegates to naming::Geometry.
#ifndef ORTHOCOMM_NAMING_CART_MAPS_H_
#define ORTHOCOMM_NAMING_CART_MAPS_H_

#include <span>
#include <vector>

#include "classic/comm/comm.h"
#include "naming/geometry.h"

namespace naming {

// Shared conventions (see naming::Geometry for the maps themselves):
// - All are local and take explicit ranks, never the caller's own (paper:
//   naming functions do not rely on the rank of the calling process).
// - A rank argument may be a rank of `comm`, or classic::proc_null.
//   Ranks below the grid size are named; ranks from the grid size up to
//   comm.size() - 1 are unnamed: rank-valued results are proc_null for them,
//   coordinate-valued results throw ErrorClass::rank. A rank >= comm.size(),
//   or negative and not proc_null, throws ErrorClass::rank.
// - Errors: comm (null or freed `comm`), topology (`comm` has no naming),
//   then Geometry's errors (arg for a vector of the wrong length, count for a
//   flat list that does not divide, rank for a coordinate outside a
//   non-periodic dimension), named after the function called.
// - Loops that call a map many times can take cart_get(comm) once and use
//   the Geometry's allocation-free forms.

// Paper: Cart_rank. Periodic dimensions wrap.
int cart_rank(const classic::Comm& comm, std::span<const int> coords);
// Paper: Cart_coordinates.
std::vector<int> cart_coordinates(const classic::Comm& comm, int rank);
// Paper: Cart_relative_rank: the rank at coordinates(source) + offset, or
// proc_null.
int cart_relative_rank(const classic::Comm& comm, int source,
                       std::span<const int> offset);
// Paper: Cart_relative_coordinates: coordinates(dest) - coordinates(source),
// canonical in periodic dimensions (Geometry::canonical_offset).
std::vector<int> cart_relative_coordinates(const classic::Comm& comm,
                                           int source, int dest);
// Paper: Cart_relative_shift: {in-rank, out-rank} = the ranks at
// coordinates(rank) - offset and + offset.
Shift cart_relative_shift(const classic::Comm& comm, int rank,
                          std::span<const int> offset);
// Paper: Cart_allranks: the rank of each of the coordinate vectors laid out
// one after the other in `flat_coords`.
std::vector<int> cart_allranks(const classic::Comm& comm,
                               std::span<const int> flat_coords);
// Paper: Cart_allranks_relative: cart_relative_rank(source, offset) for each
// offset vector in `flat_offsets`.
std::vector<int> cart_allranks_relative(const classic::Comm& comm, int source,
                                        std::span<const int> flat_offsets);

}  // namespace naming

#endif  // ORTHOCOMM_NAMING_CART_MAPS_H_
