// A schedule verifier: runs a combining schedule on a virtual grid, without
// MPI, and compares every receive buffer with what the direct neighbour
// collective (MPI_Neighbor_allgather / _alltoall semantics) would deliver.
#ifndef ORTHOCOMM_STENCILS_VERIFIER_H_
#define ORTHOCOMM_STENCILS_VERIFIER_H_

#include <string>

#include "naming/geometry.h"
#include "stencils/schedule.h"
#include "stencils/stencil.h"

namespace stencils {

struct Verdict {
  bool ok = true;
  // The first problem found, readable by people; empty when ok.
  std::string mismatch;
  explicit operator bool() const { return ok; }
};

// Every process p of `geometry` starts with labelled send blocks (origin p,
// slot s) and empty receive and temp slots. The schedule's local copies run
// first, then its rounds; a message of process p goes to
// geometry.relative_rank(p, hop) and is skipped if that is proc_null; only
// active moves (move_active) are carried. The verdict fails at the first
//  - malformed schedule (slot counts that do not fit targets/sources, a
//    location out of range, an offset of the wrong length, a write into a
//    send slot);
//  - read of a slot that holds nothing yet;
//  - slot that a process reads and also receives into in the same round, or
//    receives into twice in one round (a race once sends and receives of a
//    round are posted together);
//  - receive slot written twice over the whole run;
//  - receive slot whose final content differs from the direct collective's:
//    p's j-th source is relative_rank(p, sources[j]) and repeated neighbours
//    pair in order of occurrence, as MPI pairs them; a slot whose source is
//    proc_null must stay empty.
// The expected result is computed from ranks alone, independently of the
// schedule's offsets and landing slots.
//
// Throws classic::Error: dims if targets, sources and geometry differ in
// ndims; topology if the rank graph itself is inconsistent (some process
// lists q as a destination k times but q lists it as a source a different
// number of times), since then no direct result exists to compare with.
Verdict verify(const AllgatherSchedule& schedule,
               const naming::Geometry& geometry, const Stencil& targets,
               const Stencil& sources);
Verdict verify(const AlltoallSchedule& schedule,
               const naming::Geometry& geometry, const Stencil& targets,
               const Stencil& sources);

}  // namespace stencils

#endif  // ORTHOCOMM_STENCILS_VERIFIER_H_
