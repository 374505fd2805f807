#include "ortho/algorithms/agreed_prices.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <span>
#include <thread>

#include "classic/base/transport_settings.h"
#include "classic/collectives/collectives.h"

namespace ortho::algorithms {
namespace {

// An integer environment variable of Open MPI's launcher; 0 where unset.
double launcher_count(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? 0 : std::atof(value);
}

}  // namespace

JobFacts agreed_job(const classic::Comm& comm) {
  const double local = launcher_count("OMPI_COMM_WORLD_LOCAL_SIZE");
  const double world = launcher_count("OMPI_COMM_WORLD_SIZE");
  const double cores = std::max(1u, std::thread::hardware_concurrency());
  const bool several_hosts = local > 0 && local < world;
  const std::array<double, 2> mine{
      std::max(1.0, local) / cores,
      transport_of(classic::transport_setting("btl"), several_hosts) ==
              Transport::network
          ? 1.0
          : 0.0};
  std::array<double, 2> most{};
  classic::allreduce(comm, std::span<const double>(mine),
                     std::span<double>(most), MPI_MAX);
  return {
      .transport = most[1] > 0 ? Transport::network : Transport::shared_memory,
      .processes_per_core = most[0]};
}

Prices agreed_prices(const classic::Comm& comm) {
  const JobFacts job = agreed_job(comm);
  return prices_for(job.transport, job.processes_per_core);
}

}  // namespace ortho::algorithms
