#include "experiments/combining_point.h"

#include <benchmark/benchmark.h>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "classic/base/error.h"
#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "classic/graph/dist_graph.h"
#include "classic/p2p/request.h"
#include "classic/topology/dims_create.h"
#include "experiments/combining_variant.h"
#include "experiments/hand_posted.h"
#include "experiments/model_prices.h"
#include "experiments/run_benchmarks.h"
#include "naming/cart_name.h"
#include "naming/geometry.h"
#include "ortho/collectives.h"
#include "ortho/dist_graph.h"
#include "ortho/explain.h"
#include "ortho/operation.h"
#include "ortho/table.h"
#include "ortho/traffic.h"
#include "stencils/cart_neighbors.h"

namespace experiments::combining {
namespace {

using classic::Comm;
using ortho::Operation;

// recv = the sum of the `blocks` blocks of `count` ints in `gathered` (the
// neighbourhood reduction of ortho::allreduce on a graph; with no block,
// recv stays as it was).
void sum_blocks(const std::vector<int>& gathered, int blocks, int count,
                std::vector<int>& recv) {
  if (blocks == 0) return;
  const auto n = static_cast<std::size_t>(count);
  std::copy(gathered.begin(), gathered.begin() + count, recv.begin());
  for (int b = 1; b < blocks; ++b) {
    const int* block = gathered.data() + static_cast<std::size_t>(b) * n;
    for (std::size_t i = 0; i < n; ++i) recv[i] += block[i];
  }
}

void start_and_wait(classic::Request& request) {
  classic::start(request);
  (void)classic::wait(request);
}

}  // namespace

Point::Point(Operation operation, const Stencil& stencil, int block_bytes)
    : operation_(operation), count_(block_bytes / 4) {
  const Comm world = Comm::world();
  named_ = world.dup();
  dims_ = classic::dims_create(
      named_.size(),
      std::vector<int>(static_cast<std::size_t>(stencil.ndims), 0));
  const std::array<bool, 3> periods{true, true, true};
  naming::cart_name(named_, dims_,
                    std::span<const bool>(
                        periods.data(), static_cast<std::size_t>(dims_.size())),
                    naming::Order::row_major);
  const std::vector<int> ranks = stencils::cart_neighbor_ranks(
      named_, named_.rank(), stencil.metric, 1, stencil.depth);
  degree_ = static_cast<int>(ranks.size());
  ranks_ = ranks;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, degree_, ranks.data(),
                                 MPI_UNWEIGHTED, degree_, ranks.data(),
                                 MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &openmpi_);
  const auto graph = [&] {
    return ortho::dist_graph_create_adjacent(named_, ranks, classic::unweighted,
                                             ranks, classic::unweighted);
  };
  direct_ = graph();
  combining_ = graph();
  mpi_ = graph();
  selected_ = graph();
  ortho::set_algorithm(direct_, "direct");
  has_combining_ = force(combining_, "combining");
  has_mpi_ = force(mpi_, "mpi");
  selected_name_ = std::string(ortho::selected_algorithm(
      selected_, operation, static_cast<std::size_t>(block_bytes)));
  selected_persistent_name_ = std::string(ortho::selected_algorithm(
      selected_, operation, static_cast<std::size_t>(block_bytes),
      classic::Mode::persistent));
  read_structure(block_bytes);
  make_buffers();
  make_persistent();
  hand_posted_ = make_hand_posted(Variant::raw, 2);
  hand_posted_persistent_ = make_hand_posted(Variant::raw_persistent, 3);
  make_hand_combined(stencil);
}
Point::~Point() {
  // Freed before their datatype.
  selected_persistent_ = classic::Request();
  direct_persistent_ = classic::Request();
  combining_persistent_ = classic::Request();
  mpi_persistent_ = classic::Request();
  hand_posted_.reset();
  hand_posted_persistent_.reset();
  hand_combined_.reset();
  hand_combined_persistent_.reset();
  if (openmpi_persistent_ != MPI_REQUEST_NULL) {
    MPI_Request_free(&openmpi_persistent_);
  }
  if (block_type_ != MPI_DATATYPE_NULL) MPI_Type_free(&block_type_);
  MPI_Comm_free(&openmpi_);
}

bool Point::force(classic::Comm& comm, const char* algorithm) const {
  const std::string spec =
      std::string(ortho::to_string(operation_)) + "=" + algorithm;
  int available = 1;
  try {
    ortho::set_algorithm(comm, spec);
  } catch (const classic::Error&) {
    available = 0;  // not offered for this operation here
  }
  MPI_Allreduce(MPI_IN_PLACE, &available, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  return available != 0;
}

std::string Point::algorithm_of(Variant variant) const {
  const std::string op(ortho::to_string(operation_));
  const std::string mpi_op =
      operation_ == Operation::allreduce ? "allgather" : op;
  const std::string sum = operation_ == Operation::allreduce ? "+sum" : "";
  switch (variant) {
    case Variant::openmpi:
      return "MPI_Neighbor_" + mpi_op + sum;
    case Variant::openmpi_persistent:
      return "MPIX_Neighbor_" + mpi_op + "_init" + sum;
    case Variant::raw:
      return "MPI_Irecv+MPI_Isend" + sum;
    case Variant::raw_persistent:
      return "MPI_Recv_init+MPI_Send_init" + sum;
    case Variant::ortho_direct:
    case Variant::ortho_direct_persistent:
      return "direct";
    case Variant::ortho_combining:
    case Variant::ortho_combining_persistent:
      return "combining";
    case Variant::ortho_mpi:
    case Variant::ortho_mpi_persistent:
      return "mpi";
    case Variant::raw_combining:
      return "combining by MPI_Irecv+MPI_Isend";
    case Variant::raw_combining_persistent:
      return "combining by MPI_Recv_init+MPI_Send_init";
    case Variant::ortho_selected:
      return selected_name_;
    case Variant::ortho_selected_persistent:
      return selected_persistent_name_;
  }
  return "";
}
Structure Point::structure_of(Variant variant) const {
  switch (variant) {
    case Variant::ortho_combining:
    case Variant::raw_combining:
    case Variant::raw_combining_persistent:
      return combining_structure_;
    case Variant::ortho_combining_persistent:
      return combining_persistent_structure_;
    case Variant::ortho_selected:
      return selected_structure_;
    case Variant::ortho_selected_persistent:
      return selected_persistent_structure_;
    default:
      return direct_structure_;
  }
}

void Point::call(Variant variant) {
  const std::size_t v = index_of(variant);
  int* recv = recv_[v].data();
  const int* send = send_.data();
  const int n = count_;
  switch (variant) {
    case Variant::openmpi:
      switch (operation_) {
        case Operation::allgather:
          MPI_Neighbor_allgather(send, n, MPI_INT, recv, n, MPI_INT, openmpi_);
          break;
        case Operation::alltoall:
          MPI_Neighbor_alltoall(send, n, MPI_INT, recv, n, MPI_INT, openmpi_);
          break;
        case Operation::alltoallw:
          MPI_Neighbor_alltoallw(send, counts_.data(), displs_.data(),
                                 types_.data(), recv, counts_.data(),
                                 displs_.data(), types_.data(), openmpi_);
          break;
        default:
          MPI_Neighbor_allgather(send, n, MPI_INT, gathered_[0].data(), n,
                                 MPI_INT, openmpi_);
          sum_blocks(gathered_[0], degree_, n, recv_[v]);
          break;
      }
      break;
    case Variant::openmpi_persistent:
      MPI_Start(&openmpi_persistent_);
      MPI_Wait(&openmpi_persistent_, MPI_STATUS_IGNORE);
      if (operation_ == Operation::allreduce) {
        sum_blocks(gathered_[1], degree_, n, recv_[v]);
      }
      break;
    case Variant::raw:
      hand_posted_->run();
      if (operation_ == Operation::allreduce) {
        sum_blocks(gathered_[2], degree_, n, recv_[v]);
      }
      break;
    case Variant::raw_persistent:
      hand_posted_persistent_->start_and_wait();
      if (operation_ == Operation::allreduce) {
        sum_blocks(gathered_[3], degree_, n, recv_[v]);
      }
      break;
    case Variant::ortho_direct:
      ortho_call(direct_, recv);
      break;
    case Variant::ortho_direct_persistent:
      start_and_wait(direct_persistent_);
      break;
    case Variant::ortho_combining:
      ortho_call(combining_, recv);
      break;
    case Variant::ortho_combining_persistent:
      start_and_wait(combining_persistent_);
      break;
    case Variant::ortho_mpi:
      ortho_call(mpi_, recv);
      break;
    case Variant::ortho_mpi_persistent:
      start_and_wait(mpi_persistent_);
      break;
    case Variant::raw_combining:
      hand_combined_->run();
      break;
    case Variant::raw_combining_persistent:
      hand_combined_persistent_->run();
      break;
    case Variant::ortho_selected:
      ortho_call(selected_, recv);
      break;
    case Variant::ortho_selected_persistent:
      start_and_wait(selected_persistent_);
      break;
  }
  benchmark::DoNotOptimize(recv);
  benchmark::ClobberMemory();
}

double Point::batch(Variant variant, int calls) {
  return slowest_seconds_per_call(name_of(variant), calls,
                                  [&] { call(variant); });
}

std::string Point::mismatches() {
  for (Variant variant : kVariants) {
    if (!has(variant)) continue;
    std::fill(recv_[index_of(variant)].begin(), recv_[index_of(variant)].end(),
              -1);
    call(variant);
  }
  const std::vector<int>& want = recv_[index_of(Variant::openmpi)];
  std::string names;
  for (Variant variant : kVariants) {
    int differs = has(variant) && recv_[index_of(variant)] != want ? 1 : 0;
    MPI_Allreduce(MPI_IN_PLACE, &differs, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    if (differs != 0) {
      names += std::string(names.empty() ? "" : ", ") + name_of(variant);
    }
  }
  return names;
}

void Point::ortho_call(const Comm& comm, int* recv) {
  const int* send = send_.data();
  const int n = count_;
  switch (operation_) {
    case Operation::allgather:
      ortho::allgather(comm, send, n, MPI_INT, recv, n, MPI_INT);
      break;
    case Operation::alltoall:
      ortho::alltoall(comm, send, n, MPI_INT, recv, n, MPI_INT);
      break;
    case Operation::alltoallw:
      ortho::alltoallw(comm, send, counts(), displs(), types(), recv, counts(),
                       displs(), types());
      break;
    default:
      ortho::allreduce(comm, send, recv, n, MPI_INT, MPI_SUM);
      break;
  }
}

std::span<const int> Point::counts() const {
  return {counts_.data(), static_cast<std::size_t>(degree_)};
}
std::span<const MPI_Aint> Point::displs() const {
  return {displs_.data(), static_cast<std::size_t>(degree_)};
}
std::span<const MPI_Datatype> Point::types() const {
  return {types_.data(), static_cast<std::size_t>(degree_)};
}

void Point::settle_selection() {
  const auto bytes = static_cast<std::size_t>(count_) * sizeof(int);
  selected_name_ =
      std::string(ortho::selected_algorithm(selected_, operation_, bytes));
  selected_persistent_name_ = std::string(ortho::selected_algorithm(
      selected_, operation_, bytes, classic::Mode::persistent));
  read_structure(static_cast<int>(bytes));
}

std::optional<double> Point::modelled_us(Variant variant) const {
  const bool persistent = variant == Variant::ortho_selected_persistent ||
                          variant == Variant::ortho_direct_persistent ||
                          variant == Variant::ortho_combining_persistent ||
                          variant == Variant::ortho_mpi_persistent;
  if (!persistent && variant != Variant::ortho_direct &&
      variant != Variant::ortho_combining && variant != Variant::ortho_mpi &&
      variant != Variant::ortho_selected) {
    return std::nullopt;
  }
  return experiments::modelled_us(
      selected_, operation_, static_cast<std::size_t>(count_) * sizeof(int),
      persistent ? classic::Mode::persistent : classic::Mode::blocking,
      algorithm_of(variant));
}

std::string Point::explanation(classic::Mode mode) const {
  return ortho::to_string(
      ortho::explain(selected_, operation_,
                     static_cast<std::size_t>(count_) * sizeof(int), mode));
}

void Point::read_structure(int block_bytes) {
  const auto bytes = static_cast<std::size_t>(block_bytes);
  const auto structure = [&](const char* algorithm, classic::Mode mode) {
    const std::optional<ortho::Traffic> traffic =
        ortho::traffic(selected_, operation_, algorithm, bytes, mode);
    return traffic ? Structure{.messages = traffic->messages,
                               .bytes = traffic->bytes,
                               .rounds = traffic->rounds}
                   : Structure{};
  };
  direct_structure_ = structure("direct", classic::Mode::blocking);
  combining_structure_ = structure("combining", classic::Mode::blocking);
  combining_persistent_structure_ =
      structure("combining", classic::Mode::persistent);
  selected_structure_ =
      selected_name_ == "combining" ? combining_structure_ : direct_structure_;
  selected_persistent_structure_ = selected_persistent_name_ == "combining"
                                       ? combining_persistent_structure_
                                       : direct_structure_;
}

void Point::make_buffers() {
  const auto n = static_cast<std::size_t>(count_);
  const auto degree = static_cast<std::size_t>(degree_);
  const bool exchange =
      operation_ == Operation::alltoall || operation_ == Operation::alltoallw;
  const std::size_t sent = exchange ? degree * n : n;
  const std::size_t received =
      operation_ == Operation::allreduce ? n : degree * n;
  const int rank = named_.rank();
  send_.resize(sent);
  for (std::size_t i = 0; i < sent; ++i) {
    send_[i] = rank * 7919 + static_cast<int>(i);
  }
  for (std::vector<int>& recv : recv_) recv.assign(received, -1);
  if (operation_ == Operation::allreduce) {
    for (std::vector<int>& gathered : gathered_) {
      gathered.assign(degree * n, -1);
    }
  }
  if (operation_ == Operation::alltoallw) {
    // A halo exchange's blocks: one element of a derived datatype each,
    // at byte displacements.
    MPI_Type_contiguous(count_, MPI_INT, &block_type_);
    MPI_Type_commit(&block_type_);
    const std::size_t slots = std::max<std::size_t>(degree, 1);
    counts_.assign(slots, 1);
    types_.assign(slots, block_type_);
    displs_.resize(slots);
    for (std::size_t i = 0; i < slots; ++i) {
      displs_[i] = static_cast<MPI_Aint>(i * n * sizeof(int));
    }
  }
}

}  // namespace experiments::combining
