#include "ortho/algorithms/agreed_prices.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "classic/base/error.h"
#include "classic/base/transport_settings.h"
#include "classic/collectives/collectives.h"

namespace ortho::algorithms {
namespace {

// An integer environment variable of Open MPI's launcher; 0 where unset.
double launcher_count(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? 0 : std::atof(value);
}

// The kernel this process runs on, as a number (0 where unknown):
// processes on one kernel share its cores, whatever hosts the transport
// sees (hosts simulated in network namespaces share one).
std::uint64_t kernel_id() {
  std::ifstream boot_id("/proc/sys/kernel/random/boot_id");
  std::string id;
  if (!(boot_id >> id)) return 0;
  return std::hash<std::string>{}(id) | 1;  // never 0
}

// How many of comm's processes run on this process's kernel (collective).
double processes_on_this_kernel(const classic::Comm& comm) {
  const std::uint64_t mine = kernel_id();
  std::vector<std::uint64_t> all(static_cast<std::size_t>(comm.size()));
  classic::allgather(comm, std::span<const std::uint64_t>(&mine, 1),
                     std::span<std::uint64_t>(all));
  if (mine == 0) return 1;
  return static_cast<double>(std::count(all.begin(), all.end(), mine));
}

// ORTHO_MACHINE, read once per process: its path, and the machine or what
// was wrong with it.
struct MachineSetting {
  std::string path;
  std::shared_ptr<const internal::Machine> machine;
  std::string error;
};

const MachineSetting& machine_setting() {
  static const MachineSetting setting = [] {
    MachineSetting read;
    const char* path = std::getenv("ORTHO_MACHINE");
    if (path == nullptr || *path == '\0') return read;
    read.path = path;
    try {
      read.machine = std::make_shared<const internal::Machine>(
          internal::load_machine(path));
    } catch (const internal::MachineFileError& error) {
      read.error = error.what();
    }
    return read;
  }();
  return setting;
}

}  // namespace

JobFacts agreed_job(const classic::Comm& comm) {
  const double local = launcher_count("OMPI_COMM_WORLD_LOCAL_SIZE");
  const double world = launcher_count("OMPI_COMM_WORLD_SIZE");
  const double cores = std::max(1u, std::thread::hardware_concurrency());
  const bool several_hosts = local > 0 && local < world;
  const double sharing = std::max({1.0, local, processes_on_this_kernel(comm)});
  const MachineSetting& machine = machine_setting();
  const std::array<double, 3> mine{
      sharing / cores,
      transport_of(classic::transport_setting("btl"), several_hosts) ==
              Transport::network
          ? 1.0
          : 0.0,
      machine.error.empty() ? 0.0 : 1.0};
  std::array<double, 3> most{};
  classic::allreduce(comm, std::span<const double>(mine),
                     std::span<double>(most), MPI_MAX);
  if (most[2] > 0) {
    throw classic::Error(
        classic::ErrorClass::arg, "ortho (ORTHO_MACHINE)",
        machine.error.empty()
            ? "another process cannot use its machine file (this one's: " +
                  (machine.path.empty() ? std::string("none") : machine.path) +
                  ")"
            : machine.error);
  }
  return {
      .transport = most[1] > 0 ? Transport::network : Transport::shared_memory,
      .processes_per_core = most[0],
      .machine = machine.machine};
}

Prices agreed_prices(const classic::Comm& comm) {
  const JobFacts job = agreed_job(comm);
  return job.machine
             ? prices_for(*job.machine, job.transport, job.processes_per_core)
             : prices_for(job.transport, job.processes_per_core);
}

bool prices_from_machine_file() { return machine_setting().machine != nullptr; }

std::string prices_source() {
  const MachineSetting& machine = machine_setting();
  if (!machine.machine) return "built-in prices";
  return "machine file " + machine.path + " (" + machine.machine->name + ")";
}

}  // namespace ortho::algorithms
