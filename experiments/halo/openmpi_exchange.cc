// Figure 1a: the 9-point halo exchange with MPI as it is, on Open MPI.
#include <mpi.h>
// After mpi.h, which it needs: MPIX_Neighbor_alltoallw_init (pcollreq).
#include <mpi-ext.h>

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "classic/base/error.h"
#include "experiments/halo/exchange.h"
#include "experiments/halo/halo_types.h"

namespace halo {
namespace {

void check(int code, const char* function) {
  if (code != MPI_SUCCESS) {
    throw classic::Error(classic::ErrorClass::other, "halo::openmpi",
                         std::string(function) + " failed");
  }
}

class OpenMpiExchange final : public Exchange {
 public:
  OpenMpiExchange(Mode mode, const GridSpec& spec) : mode_(mode) {
    const std::array<int, 2> periods{spec.borders == Borders::periodic,
                                     spec.borders == Borders::periodic};
    check(MPI_Cart_create(MPI_COMM_WORLD, 2, spec.dims.data(), periods.data(),
                          /*reorder=*/0, &cart_),
          "MPI_Cart_create");
    int rank = 0;
    MPI_Comm_rank(cart_, &rank);
    MPI_Cart_coords(cart_, rank, 2, coordinates_.data());
    std::array<int, 8> plus{};
    std::array<int, 8> minus{};
    for (std::size_t i = 0; i < kMoore.size(); ++i) {
      plus[i] = rank_at(spec, periods, kMoore[i]);
      minus[i] = rank_at(spec, periods, {-kMoore[i].row, -kMoore[i].column});
    }
    neighbours_ = moore_neighbours(plus, minus);
    const auto& sources = neighbours_.sources;
    const auto& destinations = neighbours_.destinations;
    check(MPI_Dist_graph_create_adjacent(
              cart_, static_cast<int>(sources.size()), sources.data(),
              MPI_UNWEIGHTED, static_cast<int>(destinations.size()),
              destinations.data(), MPI_UNWEIGHTED, MPI_INFO_NULL,
              /*reorder=*/0, &graph_),
          "MPI_Dist_graph_create_adjacent");
  }

  ~OpenMpiExchange() override {
    for (MPI_Request& request : requests_) {
      if (request != MPI_REQUEST_NULL) MPI_Request_free(&request);
    }
    types_.reset();
    MPI_Comm_free(&graph_);
    MPI_Comm_free(&cart_);
  }
  OpenMpiExchange(const OpenMpiExchange&) = delete;
  OpenMpiExchange& operator=(const OpenMpiExchange&) = delete;

  std::array<int, 2> coordinates() const override { return coordinates_; }

  void bind(int rows, int columns, MPI_Datatype element,
            std::array<void*, 2> arrays) override {
    types_.emplace(rows, columns, element);
    args_ = alltoallw_args(neighbours_, *types_, rows, columns);
    arrays_ = arrays;
    if (mode_ == Mode::persistent) {
      for (int which = 0; which < 2; ++which) make_persistent(which);
    }
  }

  void exchange(int which) override {
    const auto w = static_cast<std::size_t>(which);
    if (mode_ == Mode::persistent) {
      MPI_Start(&requests_[w]);
      MPI_Wait(&requests_[w], MPI_STATUS_IGNORE);
      return;
    }
    check(MPI_Neighbor_alltoallw(
              arrays_[w], args_.send_counts.data(), args_.send_displs.data(),
              args_.send_types.data(), arrays_[w], args_.recv_counts.data(),
              args_.recv_displs.data(), args_.recv_types.data(), graph_),
          "MPI_Neighbor_alltoallw");
  }

  double allreduce(double value, MPI_Op op) override {
    double result = 0;
    MPI_Allreduce(&value, &result, 1, MPI_DOUBLE, op, graph_);
    return result;
  }

  std::string algorithm() const override { return "open-mpi"; }

  Traffic traffic() override {
    return {args_.direct_messages, args_.direct_bytes, false};
  }

 private:
  // Figure 1a's MPI_Cart_coords + MPI_Cart_rank; off the grid of a
  // non-periodic dimension there is no neighbour (-1).
  int rank_at(const GridSpec& spec, const std::array<int, 2>& periods,
              Offset offset) const {
    std::array<int, 2> vector{coordinates_[0] + offset.row,
                              coordinates_[1] + offset.column};
    for (std::size_t d = 0; d < 2; ++d) {
      if (periods[d] == 0 && (vector[d] < 0 || vector[d] >= spec.dims[d])) {
        return -1;
      }
    }
    int rank = 0;
    MPI_Cart_rank(cart_, vector.data(), &rank);
    return rank;
  }

  void make_persistent(int which) {
    const auto w = static_cast<std::size_t>(which);
    // Open MPI 4.1's MPIX_Neighbor_alltoallw_init refuses null argument
    // arrays even where the degree is 0 (one process, fixed borders), which
    // is what an empty std::vector's data() gives.
    check(MPIX_Neighbor_alltoallw_init(
              arrays_[w], nonnull(args_.send_counts),
              nonnull(args_.send_displs), nonnull(args_.send_types),
              arrays_[w], nonnull(args_.recv_counts),
              nonnull(args_.recv_displs), nonnull(args_.recv_types), graph_,
              MPI_INFO_NULL, &requests_[w]),
          "MPIX_Neighbor_alltoallw_init");
  }

  template <typename T>
  static const T* nonnull(const std::vector<T>& values) {
    static const T kNone{};
    return values.empty() ? &kNone : values.data();
  }

  Mode mode_;
  MPI_Comm cart_ = MPI_COMM_NULL;
  MPI_Comm graph_ = MPI_COMM_NULL;
  std::array<int, 2> coordinates_{0, 0};
  Neighbours neighbours_;
  std::optional<HaloTypes> types_;
  AlltoallwArgs args_;
  std::array<void*, 2> arrays_{nullptr, nullptr};
  std::array<MPI_Request, 2> requests_{MPI_REQUEST_NULL, MPI_REQUEST_NULL};
};

}  // namespace

std::unique_ptr<Exchange> make_openmpi_exchange(Mode mode,
                                                const GridSpec& spec) {
  return std::make_unique<OpenMpiExchange>(mode, spec);
}

}  // namespace halo
