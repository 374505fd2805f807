// naming::cart_create_sub (paper Listing 5): split a named communicator into
// lower-dimensional slices of its grid, keeping the relative order.
#ifndef ORTHOCOMM_NAMING_CART_SUB_H_
#define ORTHOCOMM_NAMING_CART_SUB_H_

#include <span>

#include "classic/comm/comm.h"
#include "naming/geometry.h"

namespace naming {

// Paper: Cart_create_sub. Collective over `comm`. remain_dims[i] is true for
// the dimensions that vary within a sub-communicator, as in MPI_Cart_sub
// (the paper's text describes the complementary "excluded" vector; we keep
// MPI's polarity, which the lecture's Cart_sub example and MPI users know).
//
// The named processes that share their coordinates in the dropped
// dimensions form one sub-communicator, ranked in the naming's order over
// the remaining dimensions. So after naming the sub-communicator with
// sub_geometry(cart_get(comm), remain_dims), each process's coordinates
// there are its coordinates in the remaining dimensions of `comm` (paper:
// "the same coordinates for the remaining d' dimensions"). The result is
// unnamed: naming schemes are not inherited.
//
// Unnamed processes (rank >= the grid size) take part and get the null
// communicator. With no dimension remaining, each named process gets a
// communicator of its own.
//
// Every process must call with the same naming and remain_dims (the paper's
// precondition). This is checked collectively before the split, so a
// mismatch raises an error on every process instead of a hang; the check
// costs two small allreduces. Errors (classic::Error), on every process:
//   comm      null, freed or inter-communicator `comm` (local);
//   topology  `comm` is unnamed here, or the processes differ in naming or
//             remain_dims;
//   arg       remain_dims.size() != the naming's ndims.
[[nodiscard]] classic::Comm cart_create_sub(const classic::Comm& comm,
                                            std::span<const bool> remain_dims);

// The naming of a sub-communicator that cart_create_sub made from a
// communicator named `naming`: the remaining dimensions with their extents
// and periods, in the same relative dimension order. MPI-free. Throws arg if
// remain_dims.size() != naming.ndims().
Geometry sub_geometry(const Geometry& naming,
                      std::span<const bool> remain_dims);

}  // namespace naming

#endif  // ORTHOCOMM_NAMING_CART_SUB_H_
