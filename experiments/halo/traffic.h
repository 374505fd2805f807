// What a process sends, per exchange: messages and bytes. orthocomm's
// messages are counted through MPI's profiling interface (this library
// defines MPI_Isend, and MPI_Send_init with MPI_Start and MPI_Startall,
// which count and call their PMPI_ forms: classic's executor posts a plan's
// messages with MPI_Isend, or starts persistent sends); Open MPI's own
// neighbourhood collectives send inside the library, where no profiling
// wrapper sees them, so theirs is the model: one message per neighbour.
#ifndef ORTHOCOMM_EXPERIMENTS_HALO_TRAFFIC_H_
#define ORTHOCOMM_EXPERIMENTS_HALO_TRAFFIC_H_

#include <cstdint>
#include <functional>

namespace halo {

struct Traffic {
  std::int64_t messages = 0;
  std::int64_t bytes = 0;
  // Counted (true) or modelled (false).
  bool measured = false;
};

// The messages and bytes this process sends with MPI_Isend or by starting
// a persistent send while `run` runs (sends to MPI_PROC_NULL are not
// messages).
Traffic count_sends(const std::function<void()>& run);

}  // namespace halo

#endif  // ORTHOCOMM_EXPERIMENTS_HALO_TRAFFIC_H_
