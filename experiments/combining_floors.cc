// combining_benchmark's floors: the messages of ortho's direct algorithm
// and of its message combining, posted by hand (hand_posted.h,
// hand_combined.h), made for one point.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "experiments/combining_point.h"
#include "naming/cart_name.h"
#include "naming/geometry.h"
#include "stencils/cart_neighbors.h"
#include "stencils/schedule.h"
#include "stencils/stencil.h"

namespace experiments::combining {

using ortho::Operation;

std::unique_ptr<HandPosted> Point::make_hand_posted(Variant variant,
                                                    std::size_t gathered) {
  const auto n = static_cast<MPI_Aint>(count_);
  const auto degree = static_cast<std::size_t>(degree_);
  const bool exchange =
      operation_ == Operation::alltoall || operation_ == Operation::alltoallw;
  std::vector<MPI_Aint> at(degree);
  for (std::size_t i = 0; i < degree; ++i) {
    at[i] = static_cast<MPI_Aint>(i) * n * MPI_Aint{sizeof(int)};
  }
  const bool whole_blocks = operation_ == Operation::alltoallw;
  const int count = whole_blocks ? 1 : count_;
  MPI_Datatype datatype = whole_blocks ? block_type_ : MPI_INT;
  HandBlocks<const void*> sends{
      send_.data(), exchange ? at : std::vector<MPI_Aint>(degree, 0), count,
      datatype};
  void* recv = operation_ == Operation::allreduce
                   ? gathered_[gathered].data()
                   : recv_[index_of(variant)].data();
  HandBlocks<void*> receives{recv, at, count, datatype};
  return std::make_unique<HandPosted>(MPI_COMM_WORLD, ranks_, ranks_,
                                      std::move(sends), std::move(receives));
}

void Point::make_hand_combined(const Stencil& stencil) {
  if (!has_combining_ || (operation_ != Operation::allgather &&
                          operation_ != Operation::alltoall)) {
    return;
  }
  const naming::Geometry geometry = naming::cart_get(named_);
  const stencils::Stencil offsets = stencils::cart_neighbors(
      named_, named_.rank(), stencil.metric, 1, stencil.depth);
  const stencils::Collective collective = operation_ == Operation::allgather
                                              ? stencils::Collective::allgather
                                              : stencils::Collective::alltoall;
  const std::size_t eager = eager_bytes();
  const auto made = [&](Variant variant, HandCombined::Posting posting) {
    return std::make_unique<HandCombined>(
        MPI_COMM_WORLD, geometry, named_.rank(), offsets, collective,
        send_.data(), recv_[index_of(variant)].data(), count_, eager, posting);
  };
  hand_combined_ = made(Variant::raw_combining, HandCombined::Posting::afresh);
  hand_combined_persistent_ = made(Variant::raw_combining_persistent,
                                   HandCombined::Posting::persistent);
  // The floor must post ortho's messages: the same split as its plans.
  if (hand_combined_->messages() != combining_structure_.messages) {
    std::fprintf(stderr,
                 "combining_benchmark: the hand-combined floor posts %d "
                 "messages where ortho's combining posts %d (eager limit "
                 "%zu B)\n",
                 hand_combined_->messages(), combining_structure_.messages,
                 eager);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

std::size_t Point::eager_bytes() {
  // Open MPI's default eager limits, as ortho's cost model prices them:
  // shared memory (vader) where the btl list names it, TCP otherwise.
  const char* btl = std::getenv("OMPI_MCA_btl");
  const std::string list = btl != nullptr ? btl : "";
  const bool shared_memory =
      list.empty() ||
      (list.front() != '^' && (list.find("vader") != std::string::npos ||
                               list.find("sm") != std::string::npos));
  return shared_memory ? 4096 : 65536;
}

}  // namespace experiments::combining
