// Which processes of a communicator share a host: those whose processor
// name, kernel boot id and network namespace agree (on Linux; elsewhere
// the processor name), found once per communicator with one allgather and
// cached on it. Every process decides from the same gathered data, so all
// agree, also on hosts simulated in network namespaces on one kernel
// (tools/hosts.sh). ortho's process mapping and node-aware algorithms read
// it; so may users (e.g. to print where their ranks run).
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
// time on each communicator (one allgather of 16 bytes over it), local
// afterwards; the result is the same on every process. Duplicates and
// other communicators find their own. Throws classic::Error: comm for a
// null, freed or inter-communicator.
const Locality& locality(const Comm& comm);

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_COMM_LOCALITY_H_
