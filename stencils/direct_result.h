// What the direct neighbour collective (MPI_Neighbor_allgather / _alltoall
// semantics) delivers into every receive slot, computed from ranks alone:
// the reference that verifier.cc compares a simulated schedule with.
// Internal to stencils.
#ifndef ORTHOCOMM_STENCILS_DIRECT_RESULT_H_
#define ORTHOCOMM_STENCILS_DIRECT_RESULT_H_

#include <vector>

#include "naming/geometry.h"
#include "stencils/stencil.h"

namespace stencils::internal {

// A block's identity: the process it came from and its send slot there.
struct Label {
  int origin = -1;
  int slot = -1;
  bool filled() const { return origin >= 0; }
  friend bool operator==(const Label&, const Label&) = default;
};

// expected[q][j]: what q's receive slot j holds after the direct collective
// of `targets` and `sources` on `geometry`; with one_send_block (allgather)
// every block comes from send slot 0. Throws classic::Error (topology) when
// the rank graph itself is inconsistent.
std::vector<std::vector<Label>> direct_result(const naming::Geometry& geometry,
                                              const Stencil& targets,
                                              const Stencil& sources,
                                              bool one_send_block);

}  // namespace stencils::internal

#endif  // ORTHOCOMM_STENCILS_DIRECT_RESULT_H_
