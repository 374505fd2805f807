// What the simulator runs (MPI-free): a communication graph whose processes
// sit on nodes. A stencil on a periodic grid (the grid from dims_create,
// row-major ranks) carries message combining's schedules besides its graph;
// a general graph (experiments/sparse_graphs.h: Erdős–Rényi, random
// geometric, partitioned meshes) only the graph. Ranks go onto nodes by
// slot (node r / P for P processes a node, as mpirun fills hosts), round
// robin (node r % N), or mapped as ortho's Reorder::yes maps them: a
// stencil's grid in the cheapest block partition, a general graph by
// Scotch, each only where it sends less between nodes than by slot.
#ifndef ORTHOCOMM_EXPERIMENTS_SIMULATE_WORKLOAD_H_
#define ORTHOCOMM_EXPERIMENTS_SIMULATE_WORKLOAD_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "naming/geometry.h"
#include "ortho/algorithms/node_aware/node_aware_routes.h"
#include "stencils/neighborhood.h"
#include "stencils/schedule.h"

namespace simulate {

enum class Placement { by_slot, round_robin, mapped };

struct Shape {
  int nodes = 1;
  int processes_per_node = 1;
  Placement placement = Placement::by_slot;
  int processes() const { return nodes * processes_per_node; }
};

// The node of every rank (mapped: by slot, where the mapping starts).
// Throws std::invalid_argument for a shape with no process or more than
// INT_MAX.
std::vector<int> nodes_of_ranks(const Shape& shape);

// A stencil as named on the command line: moore2d, moore3d, vonneumann2d,
// vonneumann3d, with "_D" for depth D (moore3d_2); depth 1 otherwise.
struct StencilSpec {
  int ndims = 2;
  stencils::Metric metric = stencils::Metric::chebyshev;
  int depth = 1;
};
std::optional<StencilSpec> parse_stencil(std::string_view name);

struct Workload {
  std::string name;
  // How the ranks sit on the nodes: "by slot", "round robin", "mapped
  // (block partition)", "mapped (Scotch)", or "by slot (mapping kept it:
  // WHY)".
  std::string placed;
  // The processes' nodes (as hosts) and out-neighbours in the order a
  // program passes them.
  ortho::algorithms::node_routes::HostGraph graph;
  // On a stencil: its periodic grid and combining's schedules.
  struct Grid {
    naming::Geometry geometry;
    stencils::AllgatherSchedule allgather;
    stencils::AlltoallSchedule alltoall;
  };
  std::optional<Grid> grid;
  // On a matrix's halo (halo_workload.h): per process, per out-edge in
  // destinations' order, the entries of x it sends; a block is then that
  // many entries of the block size (the bytes of one entry). Empty
  // elsewhere: every block has the block size.
  std::vector<std::vector<int>> entries;
  // On a matrix's halo: per process, the multiply-adds of its local
  // product (its rows' nonzeros), which an SpMV iteration does after its
  // exchange. Empty elsewhere.
  std::vector<std::int64_t> multiply_adds;
};

// The stencil on the periodic grid dims_create gives for shape's
// processes, neighbours in cart_stencil's order.
Workload stencil_workload(const StencilSpec& stencil, const Shape& shape);

// Places a general graph's ranks as ortho's Reorder::yes does: Scotch's
// placement where it sends fewer blocks (a halo: entries) between nodes
// than by slot (by slot otherwise, saying why in `placed`). The data
// follow the ranks.
void map_graph(Workload& workload, const Shape& shape);

// The graph experiments::parse_graph_spec names, on shape's processes.
// Throws std::invalid_argument for a name it does not know.
Workload graph_workload(std::string_view name, const Shape& shape);

}  // namespace simulate

#endif  // ORTHOCOMM_EXPERIMENTS_SIMULATE_WORKLOAD_H_
