// Argument checks of the neighbourhood collectives: counts, arrays and
// typed spans against the caller's sources and destinations. Internal to
// classic.
#ifndef ORTHOCOMM_CLASSIC_NEIGHBOR_INTERNAL_NEIGHBOR_CHECKS_H_
#define ORTHOCOMM_CLASSIC_NEIGHBOR_INTERNAL_NEIGHBOR_CHECKS_H_

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "classic/base/internal/buffer_checks.h"
#include "classic/base/internal/inside_classic.h"
#include "classic/neighbor/internal/neighbor_exchange.h"

namespace classic::internal {

// Which neighbours an array describes: one entry per source (receive
// side) or per destination (send side).
enum class Side { sources, destinations };

// Each check raises classic::Error naming the exchange's function and the
// argument (the classes of classic/neighbor/neighbor_collectives.h).
class NeighborChecks {
 public:
  explicit NeighborChecks(const NeighborExchange& exchange)
      : exchange_(exchange) {}

  int degree(Side side) const {
    return side == Side::sources ? exchange_.indegree() : exchange_.outdegree();
  }

  // The checks every call makes are inline: a call that passes them costs
  // a comparison each.
  // ErrorClass::buffer for MPI_IN_PLACE.
  void reject_in_place(const void* data, const char* name) const {
    if (data == MPI_IN_PLACE) [[unlikely]] {
      raise_in_place(name);
    }
  }
  // ErrorClass::count for a negative count.
  void count(int count, const char* name) const {
    if (count < 0) [[unlikely]] {
      check_count(exchange_.function(), count, name);
    }
  }
  // ErrorClass::datatype for MPI_DATATYPE_NULL.
  void datatype(MPI_Datatype datatype, const char* name) const {
    if (datatype == MPI_DATATYPE_NULL) [[unlikely]] {
      check_datatype(exchange_.function(), datatype, name);
    }
  }
  // ErrorClass::count unless `entries` == degree(side).
  void length(std::size_t entries, Side side, const char* name) const;
  // length, and every count >= 0.
  void counts(std::span<const int> counts, Side side, const char* name) const;
  // length, and no MPI_DATATYPE_NULL.
  void datatypes(std::span<const MPI_Datatype> datatypes, Side side,
                 const char* name) const;

  // Typed spans (capacity known; raw buffers, std::nullopt, pass):
  // ErrorClass::buffer unless the span holds `needed` elements.
  void capacity(std::optional<std::size_t> capacity, std::int64_t needed,
                const char* name) const {
    if (capacity && static_cast<std::int64_t>(*capacity) < needed)
        [[unlikely]] {
      check_capacity(exchange_.function(), capacity, needed, name);
    }
  }
  // ErrorClass::buffer unless every block that is transferred (its
  // neighbour is not proc_null) lies inside the span, and, for receive
  // blocks (Side::sources), no two of them overlap.
  void placement(std::span<const int> counts, std::span<const int> displs,
                 std::optional<std::size_t> capacity, Side side,
                 const char* name) const;
  // ErrorClass::buffer when two typed spans share memory.
  void apart(const void* a, std::size_t a_bytes, const void* b,
             std::size_t b_bytes) const;
  // A span's element count as an MPI count (ErrorClass::count past
  // INT_MAX).
  int count_of(std::size_t elements, const char* name) const;
  // The count of one block of a span holding `blocks` blocks: elements /
  // blocks, which must divide evenly (ErrorClass::buffer).
  int per_block(std::size_t elements, int blocks, const char* name) const;

 private:
  [[noreturn]] void raise_in_place(const char* name) const;

  const NeighborExchange& exchange_;
};

}  // namespace classic::internal

#endif  // ORTHOCOMM_CLASSIC_NEIGHBOR_INTERNAL_NEIGHBOR_CHECKS_H_
