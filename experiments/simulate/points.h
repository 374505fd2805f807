// Measured points the simulator is checked against (MPI-free): per point
// the job's shape, its workload, the operation, the block size, the forced
// algorithm and its measured time per call, as tools/simulation_points.py
// writes them from the benchmarks' results:
//
//   nodes,ppn,placement,workload,operation,block_bytes,algorithm,measured_us,source
//   4,4,slot,graph:er_0.05_s1,allgather,4,direct,128.8,2026-11-29-sparse-...
//
// workload: stencil:NAME (workload.h's stencil names), graph:NAME, or
// matrix:PARTITION:FILE (an SpMV's halo, halo_workload.h: PARTITION blocks
// or metis, FILE a Matrix Market file, relative to where the program
// runs; its block_bytes are the bytes of an entry); operation allgather,
// alltoall, or their v forms; placement slot or round_robin; algorithm one
// of exchange.h's.
#ifndef ORTHOCOMM_EXPERIMENTS_SIMULATE_POINTS_H_
#define ORTHOCOMM_EXPERIMENTS_SIMULATE_POINTS_H_

#include <cstddef>
#include <istream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "experiments/simulate/exchange.h"
#include "experiments/simulate/workload.h"

namespace simulate {

struct MeasuredPoint {
  Shape shape;
  std::string workload;  // as in the file: stencil:, graph: or matrix:
  Operation operation = Operation::alltoall;
  std::size_t block_bytes = 0;
  Algorithm algorithm = Algorithm::direct;
  double measured_us = 0;
  std::string source;
  // "4 x 4, slot": the job as the tables group it.
  std::string setting() const;
};

// A malformed points file: what() names the origin, the line and the field.
class PointsFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

std::vector<MeasuredPoint> read_points(std::istream& in,
                                       std::string_view origin);

// The workload a point names on its shape (stencil, graph or halo).
Workload workload_of(const MeasuredPoint& point);

}  // namespace simulate

#endif  // ORTHOCOMM_EXPERIMENTS_SIMULATE_POINTS_H_
