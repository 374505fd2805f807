// The collective Cartesianness check of paper section 3.2, extended to
// non-periodic grids: do all processes of a Cartesian-named communicator
// have the same relative neighbourhood (up to the grid's borders)?
#ifndef ORTHOCOMM_STENCILS_CARTESIAN_DETECTION_H_
#define ORTHOCOMM_STENCILS_CARTESIAN_DETECTION_H_

#include <optional>
#include <span>
#include <vector>

#include "classic/comm/comm.h"
#include "naming/geometry.h"
#include "stencils/stencil.h"

namespace stencils {

// The common neighbourhood found by detect_cartesian, and how this process's
// own neighbour lists map onto it.
struct CartesianNeighborhood {
  // The stencil: canonical target and source offsets (the multiset union of
  // all processes' neighbourhoods, in lexicographic order), from which
  // schedules are built (stencils/schedule.h).
  Stencil targets{0};
  Stencil sources{0};
  // target_slots[i]: the index in this process's target list of offset
  // targets[i], or -1 where that offset leaves the grid here; likewise for
  // sources (stencils::slot_map).
  std::vector<int> target_slots;
  std::vector<int> source_slots;
};

// Collective over `comm` (an intra-communicator; every process passes the
// same geometry, the naming of comm). `targets` and `sources` are this
// process's neighbour ranks in comm, as passed to
// dist_graph_create_adjacent. Returns the common neighbourhood on every
// process if there is a stencil (a multiset of offsets) such that every
// process's lists are that stencil restricted to the grid around it;
// std::nullopt on every process otherwise.
//
// Method. The paper's check (section 3.2) takes the neighbourhood of one
// reference process as the stencil; on a mesh where no process sees the
// whole stencil (e.g. a Moore stencil on a 3 x 2 mesh) that wrongly answers
// "no". Here the stencil is the union of all neighbourhoods, found by one
// allreduce(MAX) of offset multiplicities over the offsets' bounding box,
// which for stencils of depth r is (2r + 1)^d ints, about the size of the
// stencil itself. When that box is large compared with the lists (sparse,
// far-reaching stencils), the paper's reference method (the process with the
// most targets broadcasts its lists) is used instead; it is exact on tori.
//
// Processes beyond the grid (rank >= geometry.size()) take part only if
// their lists are empty; a named process with a neighbour beyond the grid
// makes the answer "no".
//
// Communication: an allreduce of 2d + 3 ints, then either an allreduce of
// twice the box size or (reference method) an allreduce of 2 ints and
// broadcasts of 2 and t + s ints, then an allreduce of 1 int.
// Throws classic::Error: comm for a null, freed or inter-communicator; dims
// when geometry.size() exceeds comm.size(); rank for a list entry outside
// [0, comm.size()).
std::optional<CartesianNeighborhood> detect_cartesian(
    const classic::Comm& comm, const naming::Geometry& geometry,
    std::span<const int> targets, std::span<const int> sources);

}  // namespace stencils

#endif  // ORTHOCOMM_STENCILS_CARTESIAN_DETECTION_H_
