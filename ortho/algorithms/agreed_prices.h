// What the cost model (cost_model.h) needs to know of the job, agreed by
// every process of a communicator so that all choose alike: the transport
// (Open MPI's `btl` setting, read by classic::transport_setting, and
// whether the job spans several hosts) and the most processes per core of
// any process's machine: the processes that share its kernel (those of the
// communicator with its boot id; hosts simulated in network namespaces
// share one) or its node's (OMPI_COMM_WORLD_LOCAL_SIZE), whichever is
// more, over std::thread::hardware_concurrency.
#ifndef ORTHOCOMM_ORTHO_ALGORITHMS_AGREED_PRICES_H_
#define ORTHOCOMM_ORTHO_ALGORITHMS_AGREED_PRICES_H_

#include "classic/comm/comm.h"
#include "ortho/algorithms/cost_model.h"
#include "ortho/internal/inside_ortho.h"

namespace ortho::algorithms {

struct JobFacts {
  Transport transport = Transport::shared_memory;
  double processes_per_core = 1;
};

// Collective over `comm` (a maximum of both facts).
JobFacts agreed_job(const classic::Comm& comm);

// prices_for(agreed_job(comm)). Collective over `comm`.
Prices agreed_prices(const classic::Comm& comm);

}  // namespace ortho::algorithms

#endif  // ORTHOCOMM_ORTHO_ALGORITHMS_AGREED_PRICES_H_
