// "combining": message-combining algorithms for Cartesian stencils (Träff &
// Hunold, "Cartesian Collective Communication", ICPP 2019; the paper,
// section 3.2). When every process of a Cartesian-named communicator has
// the same relative neighbourhood, stencils/schedule.h's schedules route
// the blocks of allgather and alltoall dimension by dimension: d rounds of
// a few combined messages instead of one message per neighbour.
#ifndef ORTHOCOMM_ORTHO_ALGORITHMS_COMBINING_COMBINING_H_
#define ORTHOCOMM_ORTHO_ALGORITHMS_COMBINING_COMBINING_H_

#include <mpi.h>

#include <memory>
#include <optional>
#include <utility>

#include "classic/comm/comm.h"
#include "classic/exec/plan.h"
#include "naming/geometry.h"
#include "ortho/algorithms/cost_model.h"
#include "ortho/internal/inside_ortho.h"
#include "ortho/internal/table.h"
#include "stencils/cartesian_detection.h"
#include "stencils/schedule.h"

namespace ortho::algorithms {

// What one communicator's combining algorithms need, compiled once when the
// communicator is made: the grid, the common stencil and this process's
// place in it, and one schedule per operation (no slot is shared between
// operations: alternating allgather and alltoall on one communicator runs
// each one's own schedule).
// The plan of the last call shape of one operation, so that the calls of an
// iterative code, which repeat their counts and datatypes, reuse it. Only
// predefined datatypes and ops are remembered: a freed derived datatype's
// handle may come back meaning another layout.
class PlanCache {
 public:
  struct Shape {
    int send_count = 0;
    MPI_Datatype send_type = MPI_DATATYPE_NULL;
    int recv_count = 0;
    MPI_Datatype recv_type = MPI_DATATYPE_NULL;
    MPI_Op op = MPI_OP_NULL;
    friend bool operator==(const Shape&, const Shape&) = default;
  };

  // The plan for `shape`: the remembered one, or build()'s (remembered
  // when `cacheable`).
  template <class Build>
  std::shared_ptr<const classic::Plan> get(const Shape& shape, bool cacheable,
                                           Build build) const {
    if (plan_ != nullptr && shape == shape_) return plan_;
    auto plan = std::make_shared<const classic::Plan>(build());
    if (cacheable) {
      shape_ = shape;
      plan_ = plan;
    }
    return plan;
  }

 private:
  mutable Shape shape_;
  mutable std::shared_ptr<const classic::Plan> plan_;
};

struct Combining {
  Combining(const naming::Geometry& geometry_of_grid,
            stencils::CartesianNeighborhood common_neighborhood,
            stencils::AllgatherSchedule allgather_schedule,
            stencils::AlltoallSchedule alltoall_schedule, int own_rank, int box)
      : geometry(geometry_of_grid),
        neighborhood(std::move(common_neighborhood)),
        allgather(std::move(allgather_schedule)),
        alltoall(std::move(alltoall_schedule)),
        rank(own_rank),
        box_depth(box) {}

  naming::Geometry geometry;
  stencils::CartesianNeighborhood neighborhood;
  stencils::AllgatherSchedule allgather;
  stencils::AlltoallSchedule alltoall;
  int rank = 0;
  // r where the stencil is the Moore box of depth r without the centre
  // (allreduce then separates by dimension: box_allreduce.cc); 0 otherwise.
  int box_depth = 0;
  // The cost model's prices, the same on every process: agreed_prices()
  // (agreed_prices.h) at detection.
  Prices prices;
  // box_allreduce's plan for the last call shape, and the plan of
  // alltoallv/w's size exchange, made once.
  PlanCache allreduce_plans;
  PlanCache size_plans;
};

Traffic combining_traffic(const Combining& combining,
                          stencils::Collective collective);

Traffic direct_traffic(const Combining& combining);
// allreduce on a box stencil (box_depth > 0): 2rd messages in d rounds.
Traffic box_allreduce_traffic(const Combining& combining);

// Runs the Cartesianness check (collective over `graph`) with `geometry`
// as the grid and graph's neighbour lists (proc_null entries keep their
// slots and carry nothing); the compiled schedules where every process has
// the same stencil, null (everywhere) otherwise. Sources that are one
// process pair with the sender's blocks in list order, as MPI pairs the
// repeated edges of a distributed graph; `source_order`, where given, is
// the order to pair them in instead (a classic Cartesian topology pairs
// the two neighbours of a periodic dimension of size 1 or 2 crosswise:
// MPI-4.1, 8.6).
std::shared_ptr<Combining> detect_combining(
    const classic::Comm& graph, const naming::Geometry& geometry,
    std::span<const int> destinations, std::span<const int> sources,
    std::span<const int> source_order = {});

// The table's compiled schedules: what combining's analysis (combining.cc,
// detect_combining on the table's grid, when the table was made) found;
// null where the neighbourhoods are no common stencil. Local.
const Combining* combining_of(const Table& table);

// Above this block size the direct algorithm is chosen whatever the model
// says: measured with experiments/combining_benchmark (4 processes, shared
// memory), combining's rounds serialise large messages that the direct
// algorithm has in flight at once (3-d Moore allgather, 40 KB blocks: 496
// against 284 us; 4 KB: 83 against 89 us).
inline constexpr std::size_t kMostCombinedBlockBytes = std::size_t{16} * 1024;

// combining() itself is declared in algorithms.h. Its registration
// (combining.cc) offers, on a table with a stencil, allgather and alltoall
// priced up to kMostCombinedBlockBytes; alltoallv/w priced in persistent
// mode only (which pays the size exchange and an agreement on the largest
// block once, at initialisation); allgatherv/w where no block waits in
// scratch. box_allreduce's (box_allreduce.cc) offers allreduce on box
// stencils.

// allgatherv and allgatherw along allgather's relay trees; also named
// "combining".
const Algorithm& gather_blocks();

// alltoallv and alltoallw along alltoall's schedule, after a size exchange
// over it (relays learn the sizes of the blocks they forward); also named
// "combining".
const Algorithm& exchange_blocks();

// allreduce on box stencils (box_allreduce.cc); also named "combining".
const Algorithm& box_allreduce();

}  // namespace ortho::algorithms

#endif  // ORTHOCOMM_ORTHO_ALGORITHMS_COMBINING_COMBINING_H_
