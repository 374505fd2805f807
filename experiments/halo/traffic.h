// What a process sends, per exchange: messages and bytes. orthocomm's
// messages are counted through MPI's profiling interface (this library
// defines MPI_Isend, which counts and calls PMPI_Isend; classic's executor
// posts every message of a plan with MPI_Isend); Open MPI's own
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

// The messages and bytes this process sends with MPI_Isend while `run`
// runs (sends to MPI_PROC_NULL are not messages).
Traffic count_sends(const std::function<void()>& run);

}  // namespace halo

#endif  // ORTHOCOMM_EXPERIMENTS_HALO_TRAFFIC_H_
