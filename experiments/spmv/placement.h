// The placement of the parts on the hosts (spmv --placement=bytes or
// messages): the halo's graph made by ortho with Reorder::yes, each edge
// weighing the bytes of its exchange or 1, so that ortho places the
// general graph with Scotch where that lowers the weight between hosts
// (ortho/mapping.h). The process that gets rank q holds part q (data
// follows the vertex).
#ifndef ORTHOCOMM_EXPERIMENTS_SPMV_PLACEMENT_H_
#define ORTHOCOMM_EXPERIMENTS_SPMV_PLACEMENT_H_

#include <mpi.h>

#include <cstdint>

#include "classic/comm/comm.h"
#include "experiments/spmv/problem.h"
#include "ortho/mapping.h"

namespace spmv {

struct Placed {
  // The part this process holds: its rank in the placed graph.
  int part = 0;
  // The processes in part order (Problem::comm, Problem::processes); the
  // caller frees `comm`.
  MPI_Comm comm = MPI_COMM_NULL;
  classic::Comm processes;
  ortho::MappingReport report;
};

// Places the parts of `problem` (made for this process's world rank), the
// edges weighing their bytes (`by_bytes`) or 1. Collective over the world.
Placed place(const Problem& problem, bool by_bytes);

// The bytes that one forward exchange of `problem` sends between hosts,
// all processes together (ortho::mapping_report of the halo's graph on
// problem.processes, weighted by bytes). Collective.
std::int64_t bytes_between_hosts(const Problem& problem);

}  // namespace spmv

#endif  // ORTHOCOMM_EXPERIMENTS_SPMV_PLACEMENT_H_
