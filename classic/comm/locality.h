// Which processes of a communicator share a host: the transport's shared-
// memory domains (MPI_Comm_split_type with MPI_COMM_TYPE_SHARED), found once
// per communicator and cached on it. ortho's process mapping reads it; so
// may users (e.g. to print where their ranks run).
#ifndef ORTHOCOMM_CLASSIC_COMM_LOCALITY_H_
#define ORTHOCOMM_CLASSIC_COMM_LOCALITY_H_

#include <vector>

#include "classic/comm/comm.h"

namespace classic {

struct Locality {
  // host_of_rank[r]: the host of rank r, numbered 0, 1, ... in the order
  // of each host's lowest rank (rank 0's host is host 0).
  std::vector<int> host_of_rank;
  // processes_on_host[h]: how many ranks host h holds.
  std::vector<int> processes_on_host;

  int hosts() const { return static_cast<int>(processes_on_host.size()); }
  // True when every host holds the same number of ranks.
  bool balanced() const;
};

// The locality of `comm` (an intra-communicator). Collective the first
// time on each communicator (one split and one allgather over it), local
// afterwards; the result is the same on every process. Duplicates and
// other communicators find their own. Throws classic::Error: comm for a
// null, freed or inter-communicator.
const Locality& locality(const Comm& comm);

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_COMM_LOCALITY_H_
