// Cartesianness (isomorphism) of process neighbourhoods on a Cartesian
// naming (paper section 3.2), as pure predicates without MPI.
//
// How ortho's dist_graph_create(_adjacent) uses them (the collective part is
// not here because it needs MPI):
//  1. allreduce(MAXLOC) on the number t of target neighbours picks the
//     reference process R with the largest neighbourhood (on a torus all
//     counts must be equal; on a mesh an interior process has the most).
//  2. R broadcasts its target ranks (t ints) and its source ranks (t ints).
//  3. Every process p translates R's ranks to canonical relative offsets from
//     R (geometry.relative_coordinates(R, rank)): the candidate stencil. It
//     translates its own ranks to offsets from p the same way and calls
//     is_cartesian_neighborhood(geometry, candidate, coordinates(p), own) for
//     the targets and again for the sources.
//  4. allreduce(LAND) of the two verdicts decides for everyone.
// If the answer is yes, the schedule is built from R's candidate offsets (in
// R's order) and each process maps the candidate's slots to its own with
// slot_map (its order may differ from R's; a border process has fewer
// slots).
//
// On a non-periodic grid a process's neighbourhood is compared with the
// candidate restricted to the offsets that stay on the grid from it. If no
// process sees the whole stencil (a grid narrower than the stencil), the
// reference's own neighbourhood is already clipped and others fail the
// comparison: the check then answers "not Cartesian", which is safe (the
// direct algorithms are used). It never answers "Cartesian" wrongly.
#ifndef ORTHOCOMM_STENCILS_CARTESIANNESS_H_
#define ORTHOCOMM_STENCILS_CARTESIANNESS_H_

#include <optional>
#include <span>
#include <vector>

#include "naming/geometry.h"
#include "stencils/stencil.h"

namespace stencils {

// Each offset in canonical form (geometry.canonical_offset: periodic
// components in [-floor((n-1)/2), floor(n/2)]), then the list sorted
// lexicographically (paper section 3.2, step 5). Throws classic::Error (dims)
// if stencil.ndims() != geometry.ndims().
Stencil canonical_sorted(const naming::Geometry& geometry,
                         const Stencil& stencil);

// The offsets of `candidate` that stay on the grid from `coords` (all of them
// in periodic dimensions), in candidate's order, unchanged. Throws dims on an
// ndims mismatch and rank if coords is not a point of the grid (a
// non-periodic coordinate outside [0, n), any coordinate outside [0, n)).
Stencil restrict_to_grid(const naming::Geometry& geometry,
                         const Stencil& candidate, std::span<const int> coords);

// True iff `own` (the offsets of the process at `coords`) equals, as a
// multiset of canonical offsets, restrict_to_grid(geometry, candidate,
// coords). Equal canonical offsets name the same process, so this is
// equality of the neighbour rank multisets. An own offset that leaves the
// grid matches nothing. Throws as restrict_to_grid.
bool is_cartesian_neighborhood(const naming::Geometry& geometry,
                               const Stencil& candidate,
                               std::span<const int> coords, const Stencil& own);

// For a Cartesian neighbourhood: map[i] = the index in `own` of candidate
// offset i, or -1 where candidate offset i leaves the grid from `coords`.
// Repeated (canonically equal) offsets pair in order: the k-th occurrence in
// candidate with the k-th occurrence in own, which is how MPI pairs repeated
// neighbours. std::nullopt iff !is_cartesian_neighborhood(...).
std::optional<std::vector<int>> slot_map(const naming::Geometry& geometry,
                                         const Stencil& candidate,
                                         std::span<const int> coords,
                                         const Stencil& own);

}  // namespace stencils

#endif  // ORTHOCOMM_STENCILS_CARTESIANNESS_H_
