// One point of combining_benchmark's comparison (an operation, a stencil and
// a block size): the communicators, buffers and persistent requests of every
// variant, one call or one timed batch of each, the check of every variant's
// result against Open MPI's, and the traffic of ortho's algorithms.
#ifndef ORTHOCOMM_EXPERIMENTS_COMBINING_POINT_H_
#define ORTHOCOMM_EXPERIMENTS_COMBINING_POINT_H_

#include <mpi.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "classic/comm/comm.h"
#include "classic/p2p/request.h"
#include "experiments/combining_variant.h"
#include "experiments/hand_combined.h"
#include "experiments/hand_posted.h"
#include "ortho/operation.h"
#include "stencils/neighborhood.h"

namespace experiments::combining {

// A periodic Cartesian stencil: cart_neighbor_ranks of `depth` in `metric`.
struct Stencil {
  const char* name;
  int ndims;
  stencils::Metric metric;
  int depth;
};

// Structure of one algorithm per process and call.
struct Structure {
  int messages = 0;
  std::int64_t bytes = 0;
  int rounds = 0;
};

class Point {
 public:
  // Collective over the world, in the same order on every process.
  Point(ortho::Operation operation, const Stencil& stencil, int block_bytes);
  ~Point();
  Point(const Point&) = delete;
  Point& operator=(const Point&) = delete;

  bool has(Variant variant) const {
    switch (variant) {
      case Variant::ortho_combining:
      case Variant::ortho_combining_persistent:
        return has_combining_;
      case Variant::raw_combining:
      case Variant::raw_combining_persistent:
        return hand_combined_ != nullptr;
      case Variant::ortho_mpi:
      case Variant::ortho_mpi_persistent:
        return has_mpi_;
      default:
        return true;
    }
  }
  const std::vector<int>& dims() const { return dims_; }
  const std::string& selected_name() const { return selected_name_; }
  const std::string& selected_persistent_name() const {
    return selected_persistent_name_;
  }
  const Structure& selected_structure() const { return selected_structure_; }
  const Structure& selected_persistent_structure() const {
    return selected_persistent_structure_;
  }
  const Structure& direct_structure() const { return direct_structure_; }
  const Structure& combining_structure() const { return combining_structure_; }

  // After the selected variants' first calls, where ortho tunes: re-reads
  // what they run now (names and structure). Local.
  void settle_selection();
  // ortho::explain's line for the selected variant in `mode`.
  std::string explanation(classic::Mode mode) const;

  // The algorithm a variant runs, for the CSV.
  std::string algorithm_of(Variant variant) const;
  // The cost model's price in µs of the algorithm an ortho variant runs,
  // in its mode (experiments/model_prices.h); none for the others and
  // where the model gives none.
  std::optional<double> modelled_us(Variant variant) const;
  // The structure of a variant's algorithm (Open MPI's neighbourhood
  // collectives send one message per edge, as direct does).
  Structure structure_of(Variant variant) const;

  // One call of `variant`.
  void call(Variant variant);

  // Seconds per call over one batch of `calls`, the maximum over ranks.
  double batch(Variant variant, int calls);

  // Runs every variant once and compares its result with Open MPI's;
  // the names of those that differ on some process (the same everywhere).
  std::string mismatches();

 private:
  void ortho_call(const classic::Comm& comm, int* recv);

  // alltoallw's per-neighbour arrays, `degree_` entries (the vectors hold
  // at least one, so that Open MPI never sees a null array).
  std::span<const int> counts() const;
  std::span<const MPI_Aint> displs() const;
  std::span<const MPI_Datatype> types() const;

  // The traffic of the selected, direct and combining algorithms
  // (ortho::traffic: exact, from the plans and schedules).
  void read_structure(int block_bytes);

  void make_buffers();

  // The floor for `variant`, receiving into its buffer (allreduce: into
  // gathered_[gathered], summed afterwards). Collective.
  std::unique_ptr<HandPosted> make_hand_posted(Variant variant,
                                               std::size_t gathered);

  // Open MPI's and ortho's persistent requests (combining_persistent.cc).
  // Collective, in the same order on every process.
  void make_persistent();
  // ortho's persistent request of this point's operation on `comm`.
  classic::Request ortho_init(const classic::Comm& comm, int* recv);
  // Combining's floor where it applies. Collective.
  void make_hand_combined(const Stencil& stencil);
  // Forces `algorithm` for this point's operation on `comm`, where the
  // table offers it on every process; whether it does. Collective.
  bool force(classic::Comm& comm, const char* algorithm) const;
  // The eager limit of this run's transport, where the combining floor
  // splits messages as ortho's plans do.
  static std::size_t eager_bytes();

  ortho::Operation operation_;
  int count_;  // ints per block
  int degree_ = 0;
  classic::Comm named_;
  std::vector<int> dims_;
  MPI_Comm openmpi_ = MPI_COMM_NULL;
  classic::Comm direct_;
  classic::Comm combining_;
  classic::Comm mpi_;
  classic::Comm selected_;
  bool has_combining_ = false;
  bool has_mpi_ = false;
  std::string selected_name_;
  std::string selected_persistent_name_;
  Structure selected_structure_;
  Structure selected_persistent_structure_;
  Structure direct_structure_;
  Structure combining_structure_;
  Structure combining_persistent_structure_;
  std::vector<int> send_;
  std::array<std::vector<int>, kVariantCount> recv_;
  // allreduce: openmpi, openmpi_persistent, raw, raw_persistent.
  std::array<std::vector<int>, 4> gathered_;
  // alltoallw: the blocks' datatype and the per-neighbour arrays.
  MPI_Datatype block_type_ = MPI_DATATYPE_NULL;
  std::vector<int> counts_;
  std::vector<MPI_Aint> displs_;
  std::vector<MPI_Datatype> types_;
  MPI_Request openmpi_persistent_ = MPI_REQUEST_NULL;
  classic::Request selected_persistent_;
  classic::Request direct_persistent_;
  classic::Request combining_persistent_;  // where combining runs
  classic::Request mpi_persistent_;        // where mpi runs
  std::vector<int> ranks_;  // the neighbours: sources and destinations
  // The floor: direct's messages by hand (for raw and raw_persistent).
  std::unique_ptr<HandPosted> hand_posted_;
  std::unique_ptr<HandPosted> hand_posted_persistent_;
  // Combining's floor (allgather and alltoall where combining runs).
  std::unique_ptr<HandCombined> hand_combined_;
  std::unique_ptr<HandCombined> hand_combined_persistent_;
};

}  // namespace experiments::combining

#endif  // ORTHOCOMM_EXPERIMENTS_COMBINING_POINT_H_
