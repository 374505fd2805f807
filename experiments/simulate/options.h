// The simulator's command line (MPI-free):
//
//   simulate --machine=FILE (--stencil=NAME | --graph=NAME |
//                            --matrix=FILE [--partition=blocks|metis])
//            --nodes=N[,N...] --ppn=P
//            [--placement=slot|round_robin|mapped]
//            [--operation=allgather|alltoall|allgatherv|alltoallv]
//            [--blocks=B[,B...]]
//            [--format=table|summary] [--loop=C]
//
// --stencil: moore2d, moore3d, vonneumann2d, vonneumann3d, "_D" for depth
// D (workload.h); --graph: a graph of experiments/sparse_graphs.h
// (er_0.05_s1, geo_0.3_s1, mesh3d_40_rcb, ...); --matrix: a Matrix Market
// file's SpMV halo (halo_workload.h), partitioned by --partition (default:
// METIS where the matrix is square, blocks otherwise), whose operation is
// alltoallv (the default there; no other) and whose --blocks are the bytes
// of one entry of x (default 8, a double). --nodes lists the job
// sizes to simulate (nodes x ppn processes each); --blocks the block sizes
// in bytes (default 4,64,1024,16384); --operation defaults to alltoall
// (allgatherv, alltoallv: the blocking v form, blocks of one size sent as
// ortho sends the v forms, exchange.h),
// --placement to slot (mapped: as ortho's Reorder::yes, workload.h).
// --format=summary prints one table over every job size and block: direct's
// predicted time and each algorithm's time over it (the default, table, one
// table per job size with every count). --loop=C predicts each call as a
// call of a loop of C calls (loop.h) as well, and the ratios and the
// summary compare those times (default: one call's rounds, predict.h).
#ifndef ORTHOCOMM_EXPERIMENTS_SIMULATE_OPTIONS_H_
#define ORTHOCOMM_EXPERIMENTS_SIMULATE_OPTIONS_H_

#include <cstddef>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "experiments/simulate/exchange.h"
#include "experiments/simulate/halo_workload.h"
#include "experiments/simulate/workload.h"

namespace simulate {

struct Options {
  std::string machine;
  std::optional<StencilSpec> stencil;
  std::string stencil_name;
  std::string graph;
  std::string matrix;
  std::optional<MatrixPartition> partition;
  std::vector<int> nodes;
  int processes_per_node = 0;
  Placement placement = Placement::by_slot;
  Operation operation = Operation::alltoall;
  std::vector<std::size_t> blocks = {4, 64, 1024, 16384};
  bool summary = false;
  // Calls of the loop a call is predicted in (loop.h); 0: one call alone.
  int loop_calls = 0;
};

// Bad options: what() names the option and its value.
class OptionError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// The options of `arguments` (argv without the program's name).
Options parse_options(std::span<const std::string> arguments);

// The workload the options name on `shape`: the stencil, graph or halo.
Workload workload_of(const Options& options, const Shape& shape);

}  // namespace simulate

#endif  // ORTHOCOMM_EXPERIMENTS_SIMULATE_OPTIONS_H_
