// Blocked stencil grids: the halo exchange and the global check of one
// implementation, behind one interface, so that the Game of Life and the
// 9-point Jacobi run the same code on every implementation:
//   openmpi  Figure 1a, Open MPI as it is: MPI_Cart_create,
//            MPI_Dist_graph_create_adjacent, MPI_Neighbor_alltoallw
//            (persistent: MPIX_Neighbor_alltoallw_init), MPI_Allreduce on
//            the graph communicator;
//   ortho    Figure 1b: naming::cart_name, cart_allranks_relative,
//            ortho::dist_graph_create_adjacent, ortho::alltoallw on the
//            graph (persistent: ortho::alltoallw_init + classic::start /
//            wait), classic::allreduce on ortho::comm_base(graph); with
//            the algorithm forced to direct or combining, or as selected.
#ifndef ORTHOCOMM_EXPERIMENTS_HALO_EXCHANGE_H_
#define ORTHOCOMM_EXPERIMENTS_HALO_EXCHANGE_H_

#include <mpi.h>

#include <array>
#include <memory>
#include <string>

#include "classic/comm/comm.h"
#include "experiments/halo/decomposition.h"
#include "experiments/halo/implementation.h"
#include "experiments/halo/traffic.h"

namespace halo {

// One implementation's process grid, neighbourhood and halo exchange.
class Exchange {
 public:
  virtual ~Exchange() = default;

  // This process's coordinates in the process grid.
  virtual std::array<int, 2> coordinates() const = 0;

  // Binds the two local arrays, (rows + 2) x (columns + 2) row-major cells
  // of `element`, that the stencil alternates between: builds Figure 1's
  // datatypes and displacements, and the persistent requests. Collective.
  virtual void bind(int rows, int columns, MPI_Datatype element,
                    std::array<void*, 2> arrays) = 0;

  // Fills the halo of arrays[which] from the neighbours' edges. Collective.
  virtual void exchange(int which) = 0;

  // The global check: `value` reduced with `op` over all processes.
  virtual double allreduce(double value, MPI_Op op) = 0;

  // The algorithm that runs the exchange, and a remark for the report
  // (empty, or why a forced algorithm is not the one running).
  virtual std::string algorithm() const = 0;
  virtual std::string note() const { return ""; }

  // What one exchange sends from this process. Collective.
  virtual Traffic traffic() = 0;

  // The traffic between hosts of the exchange's communicator (mapping_text
  // below); "" where there is no ortho graph. Collective.
  virtual std::string mapping() { return ""; }
};

// Collective over the world: the process grid and neighbourhood of
// `implementation`. With element_bytes > 0 (the size of a grid cell),
// ortho's graph weighs each edge with the bytes one exchange sends along
// it (the halo piece: a row, a column or a corner); 0 leaves it
// unweighted. Throws classic::Error for a spec that does not fit (dims
// whose product is not the world size).
std::unique_ptr<Exchange> make_exchange(const Implementation& implementation,
                                        const GridSpec& spec,
                                        int element_bytes = 0);

// Declared here, defined in openmpi_exchange.cc and ortho_exchange.cc.
std::unique_ptr<Exchange> make_openmpi_exchange(Mode mode,
                                                const GridSpec& spec);
std::unique_ptr<Exchange> make_ortho_exchange(Mode mode, Algorithm algorithm,
                                              const GridSpec& spec,
                                              int element_bytes);

// ortho::mapping_report(graph) on one line: "hosts=H mapped=yes|no
// edges=E weight=W max_host_weight=M" (the traffic between hosts now), then,
// where the report has them, the same three for the communicator's own
// order ("identity_edges=... identity_weight=...
// identity_max_host_weight=...") and for the best axis-aligned block
// partition ("best_edges=... best_weight=... best_max_host_weight=...").
// Collective over graph.
std::string mapping_text(const classic::Comm& graph);

}  // namespace halo

#endif  // ORTHOCOMM_EXPERIMENTS_HALO_EXCHANGE_H_
