// naming::cart_name and its queries (paper section 3, Listing 3): attach a
// Cartesian naming to a classic communicator, test for it, read it back.
#ifndef ORTHOCOMM_NAMING_CART_NAME_H_
#define ORTHOCOMM_NAMING_CART_NAME_H_

#include <cstddef>
#include <span>

#include "classic/comm/comm.h"
#include "naming/geometry.h"

namespace naming {

// What a naming is, on a communicator.
//
// - A naming is a classic attribute of the communicator (paper: "implemented
//   ... using MPI communicator attributes"), under a keyval that each process
//   creates once, on first use. It is not a topology: the communicator gets
//   no neighbourhood, no reordering, no new context.
// - Not inherited: dup, split and create of a named communicator give
//   unnamed communicators (the keyval's copy callback is comm_null_copy_fn),
//   as the paper says naming schemes are not inherited by communicator
//   creating functions. Name the new communicator again if it needs one.
// - Renaming overwrites: the earlier naming is destroyed (once, by the
//   attribute's delete callback) and the new one takes its place. A cart_name
//   call that throws leaves the earlier naming in place.
// - Freeing the communicator (free(), or its last handle going) destroys its
//   naming. There is no cart_free; delete_attr is not exposed either.
// - cart_name is local, as in the paper. It is meant to be called by every
//   process with the same arguments; cart_testall checks that collectively.
// - The grid may be smaller than the communicator: ranks from the grid size
//   up to comm.size() - 1 are unnamed (the maps of cart_maps.h return
//   proc_null for them, or throw rank where a coordinate vector is due). A
//   grid LARGER than the communicator is rejected (ErrorClass::dims), as
//   MPI_Cart_create rejects it: the paper allows either choice, and with this
//   one every rank a map returns is a process of the communicator, so
//   neighbourhoods built from it (dist_graph_create) need no holes.
// - Only intra-communicators can be named (ErrorClass::comm otherwise), like
//   MPI's Cartesian topologies.
// - The keyval is process-local and freed at exit, never at Environment end;
//   nothing about it needs to outlive or precede the Environment.

// Paper: Cart_test (flag, d, size). For an unnamed communicator, named is
// false and ndims and size are 0 (a 0-dimensional naming has size 1).
struct CartTest {
  bool named;
  int ndims;
  int size;
};

// Paper: Cart_name. Names `comm` with `geometry` and returns the grid size,
// the number of named processes. Throws classic::Error:
//   comm  null, freed or inter-communicator `comm`;
//   dims  geometry.size() > comm.size().
int cart_name(const classic::Comm& comm, const Geometry& geometry);
// The paper's dimorder as ROWMAJOR / COLMAJOR. Throws as Geometry's
// constructor (dims, arg) and as above.
int cart_name(const classic::Comm& comm, std::span<const int> dims,
              std::span<const bool> periods, Order order);
// The paper's dimorder as a permutation of the dimensions, slowest- to
// fastest-varying (row-major is 0, 1, ..., d-1). Throws as Geometry's
// constructor (dims, arg) and as above.
int cart_name(const classic::Comm& comm, std::span<const int> dims,
              std::span<const bool> periods,
              std::span<const int> dimension_order);

// Paper: Cart_test. Local. Throws comm for a null or freed `comm`.
CartTest cart_test(const classic::Comm& comm);

// Paper: Cart_get: dims, periods and dimension order, as a Geometry (a copy,
// unaffected by later renaming). Local. It is also the fast path: take it
// once and call its maps in a loop. Throws topology for an unnamed `comm`,
// comm for a null or freed one.
Geometry cart_get(const classic::Comm& comm);

// Collective over `comm`: true on every process when every process has a
// naming and all of them are the same grid (dims, periods, dimension order);
// false on every process otherwise (some process unnamed, or two differ).
// Throws comm for a null, freed or inter-communicator `comm`.
bool cart_testall(const classic::Comm& comm);

// Namings cached now, over all communicators of this process: for leak
// checks (naming a communicator adds one; renaming it adds none; freeing it
// removes one).
std::size_t live_naming_count() noexcept;

}  // namespace naming

#endif  // ORTHOCOMM_NAMING_CART_NAME_H_
