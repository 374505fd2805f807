#include "experiments/spmv/traffic_report.h"

#include <mpi.h>

#include <cstdio>
#include <optional>
#include <string>

#include "classic/exec/mode.h"
#include "experiments/spmv/runs.h"
#include "ortho/operation.h"
#include "ortho/traffic.h"

namespace spmv {

void print_traffic(const Problem& problem, const std::string& matrix,
                   const std::string& placement) {
  const classic::Comm graph = ortho_graph(problem);
  for (const char* algorithm :
       {"direct", "node_aware", "common_neighbours", "spread_relays"}) {
    const std::optional<ortho::Traffic> traffic =
        ortho::traffic(graph, ortho::Operation::alltoallv, algorithm,
                       sizeof(double), classic::Mode::blocking);
    // known, messages, rounds, between (the most of any process), and the
    // between-host messages of all processes together.
    const int between =
        traffic ? traffic->messages_between_hosts.value_or(0) : 0;
    int most[4] = {traffic ? 1 : 0, traffic ? traffic->messages : 0,
                   traffic ? traffic->rounds : 0, between};
    int least_known = most[0];
    int total = between;
    MPI_Allreduce(MPI_IN_PLACE, most, 4, MPI_INT, MPI_MAX, problem.comm);
    MPI_Allreduce(MPI_IN_PLACE, &least_known, 1, MPI_INT, MPI_MIN,
                  problem.comm);
    MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_INT, MPI_SUM, problem.comm);
    int rank = 0;
    MPI_Comm_rank(problem.comm, &rank);
    if (rank != 0) continue;
    if (least_known == 0) {
      std::printf(
          "spmv traffic matrix=%s placement=%s algorithm=%s messages=- "
          "rounds=- messages_between_hosts=- messages_between_hosts_total=-\n",
          matrix.c_str(), placement.c_str(), algorithm);
      continue;
    }
    std::printf(
        "spmv traffic matrix=%s placement=%s algorithm=%s messages=%d "
        "rounds=%d messages_between_hosts=%d messages_between_hosts_total=%d\n",
        matrix.c_str(), placement.c_str(), algorithm, most[1], most[2], most[3],
        total);
  }
}

}  // namespace spmv
