// What the cost model (cost_model.h) needs to know of the job, agreed by
// every process of a communicator so that all choose alike: the transport
// (Open MPI's `btl` setting, read by classic::transport_setting, and
// whether the job spans several hosts) and the most processes per core of
// any process's machine: the processes that share its kernel (those of the
// communicator with its boot id; hosts simulated in network namespaces
// share one) or its node's (OMPI_COMM_WORLD_LOCAL_SIZE), whichever is
// more, over std::thread::hardware_concurrency. Where ORTHO_MACHINE names
// a machine file (internal/machine_file.h), its prices replace the
// built-in ones (cost_model.h, node_aware_model.h).
#ifndef ORTHOCOMM_ORTHO_ALGORITHMS_AGREED_PRICES_H_
#define ORTHOCOMM_ORTHO_ALGORITHMS_AGREED_PRICES_H_

#include <memory>
#include <string>

#include "classic/comm/comm.h"
#include "ortho/algorithms/cost_model.h"
#include "ortho/internal/inside_ortho.h"
#include "ortho/internal/machine_file.h"

namespace ortho::algorithms {

struct JobFacts {
  Transport transport = Transport::shared_memory;
  double processes_per_core = 1;
  // ORTHO_MACHINE's machine; null for the built-in prices.
  std::shared_ptr<const internal::Machine> machine;
};

// Collective over `comm` (a maximum of both facts). ORTHO_MACHINE is read
// once per process; where any process cannot read or parse its file, every
// process throws classic::Error (arg) naming ORTHO_MACHINE, the file and
// what is wrong, before any other message.
JobFacts agreed_job(const classic::Comm& comm);

// prices_for(agreed_job(comm)), from the machine file where one is given.
// Collective over `comm`.
Prices agreed_prices(const classic::Comm& comm);

// Where this process's prices come from: "built-in prices" or "machine
// file PATH (NAME)" (ORTHO_MACHINE).
std::string prices_source();

// Whether ORTHO_MACHINE gives this process's prices (set alike on every
// process, as the prices themselves must be).
bool prices_from_machine_file();

}  // namespace ortho::algorithms

#endif  // ORTHOCOMM_ORTHO_ALGORITHMS_AGREED_PRICES_H_
