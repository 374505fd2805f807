#include "classic/collective_call.h"

#include <algorithm>
#include <climits>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "classic/comm_state.h"
#include "classic/error.h"
#include "classic/transport_error.h"

namespace classic::collective_detail {
namespace {

std::string text(std::int64_t value) { return std::to_string(value); }

std::string entry(const char* name, std::size_t index) {
  return std::string(name) + "[" + std::to_string(index) + "]";
}

// A block [begin, end) of a typed span, for the overlap check.
struct Extent {
  std::int64_t begin;
  std::int64_t end;
  std::size_t index;
};

template <typename T>
void check_entries(std::span<const T> values, int size, const char* name,
                   const char* function) {
  if (values.size() != static_cast<std::size_t>(size)) [[unlikely]] {
    throw Error(
        ErrorClass::count, function,
        std::string(name) + " has " + text(values.size()) +
            " entries; it needs one per process, size() = " + text(size));
  }
}

}  // namespace

CollectiveCall::CollectiveCall(const Comm& comm, const char* function)
    : function_(function) {
  const Comm::State& state = comm.state(function);
  if (!state.remote.is_null()) [[unlikely]] {
    throw Error(ErrorClass::comm, function,
                "comm is an inter-communicator; this needs an "
                "intra-communicator");
  }
  transport_ = state.transport;
  size_ = state.local.size();
  rank_ = state.rank;
}

void CollectiveCall::check_root(int root) const {
  if (root < 0 || root >= size_) [[unlikely]] {
    throw Error(
        ErrorClass::root, function_,
        "root = " + text(root) + " is outside [0, " + text(size_) + ")");
  }
}

void CollectiveCall::check_op(MPI_Op op) const {
  if (op == MPI_OP_NULL) [[unlikely]] {
    throw Error(ErrorClass::op, function_, "op is MPI_OP_NULL");
  }
}

void CollectiveCall::reject_in_place(const void* data, const char* name) const {
  if (is_in_place(data)) [[unlikely]] {
    throw Error(ErrorClass::buffer, function_,
                std::string(name) +
                    " is MPI_IN_PLACE, which this argument "
                    "does not allow");
  }
}

void CollectiveCall::check_in_place_at_root(const void* data, int root,
                                            const char* name) const {
  if (is_in_place(data) && !is_root(root)) [[unlikely]] {
    throw Error(ErrorClass::buffer, function_,
                std::string(name) + " is MPI_IN_PLACE on rank " + text(rank_) +
                    ", but only the root (" + text(root) + ") may pass it");
  }
}

void CollectiveCall::check_datatype(MPI_Datatype datatype,
                                    const char* name) const {
  if (datatype == MPI_DATATYPE_NULL) [[unlikely]] {
    throw Error(ErrorClass::datatype, function_,
                std::string(name) + " datatype is MPI_DATATYPE_NULL");
  }
}

void CollectiveCall::check_count(int count, const char* name) const {
  if (count < 0) [[unlikely]] {
    throw Error(ErrorClass::count, function_,
                std::string(name) + " count = " + text(count) + " is negative");
  }
}

void CollectiveCall::check_capacity(std::optional<std::size_t> capacity,
                                    std::int64_t needed,
                                    const char* name) const {
  if (capacity && static_cast<std::int64_t>(*capacity) < needed) [[unlikely]] {
    throw Error(ErrorClass::buffer, function_,
                std::string(name) + ".size() = " + text(*capacity) +
                    " is less than the " + text(needed) +
                    " elements the counts need");
  }
}

void CollectiveCall::check_length(std::span<const int> values,
                                  const char* name) const {
  check_entries(values, size_, name, function_);
}

void CollectiveCall::check_length(std::span<const MPI_Datatype> values,
                                  const char* name) const {
  check_entries(values, size_, name, function_);
}

std::int64_t CollectiveCall::check_counts(std::span<const int> counts,
                                          const char* name) const {
  check_length(counts, name);
  std::int64_t sum = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] < 0) [[unlikely]] {
      throw Error(ErrorClass::count, function_,
                  entry(name, i) + " = " + text(counts[i]) + " is negative");
    }
    sum += counts[i];
  }
  return sum;
}

void CollectiveCall::check_datatypes(std::span<const MPI_Datatype> datatypes,
                                     const char* name) const {
  check_length(datatypes, name);
  for (std::size_t i = 0; i < datatypes.size(); ++i) {
    if (datatypes[i] == MPI_DATATYPE_NULL) [[unlikely]] {
      throw Error(ErrorClass::datatype, function_,
                  entry(name, i) + " is MPI_DATATYPE_NULL");
    }
  }
}

void CollectiveCall::check_own_count(std::span<const int> counts,
                                     const char* counts_name, int count,
                                     const char* count_name) const {
  const auto own = static_cast<std::size_t>(rank_);
  if (counts[own] != count) [[unlikely]] {
    throw Error(ErrorClass::count, function_,
                entry(counts_name, own) + " = " + text(counts[own]) +
                    " differs from " + count_name + " = " + text(count) +
                    " on rank " + text(rank_));
  }
}

void CollectiveCall::check_placement(std::span<const int> counts,
                                     std::span<const int> displs,
                                     std::size_t capacity, const char* name,
                                     const char* counts_name,
                                     const char* displs_name,
                                     Access access) const {
  std::vector<Extent> extents;
  extents.reserve(counts.size());
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] == 0) continue;  // an empty block touches nothing
    const Extent extent{displs[i], std::int64_t{displs[i]} + counts[i], i};
    if (extent.begin < 0 || extent.end > static_cast<std::int64_t>(capacity))
        [[unlikely]] {
      throw Error(ErrorClass::buffer, function_,
                  "block " + text(i) + " [" + text(extent.begin) + ", " +
                      text(extent.end) + ") (" + entry(displs_name, i) + ", " +
                      entry(counts_name, i) + ") lies outside " + name +
                      ", whose size() = " + text(capacity));
    }
    extents.push_back(extent);
  }
  if (access == Access::read) return;
  std::sort(extents.begin(), extents.end(),
            [](const Extent& a, const Extent& b) { return a.begin < b.begin; });
  for (std::size_t i = 1; i < extents.size(); ++i) {
    if (extents[i].begin < extents[i - 1].end) [[unlikely]] {
      throw Error(ErrorClass::buffer, function_,
                  "blocks " + text(extents[i - 1].index) + " and " +
                      text(extents[i].index) + " of " + name +
                      " overlap; no element may be received twice");
    }
  }
}

int CollectiveCall::count_of(std::size_t elements, const char* name) const {
  if (elements > static_cast<std::size_t>(INT_MAX)) [[unlikely]] {
    throw Error(ErrorClass::count, function_,
                std::string(name) + ".size() = " + text(elements) +
                    " is more than INT_MAX elements");
  }
  return static_cast<int>(elements);
}

int CollectiveCall::per_process(std::size_t elements, const char* name) const {
  const auto processes = static_cast<std::size_t>(size_);
  if (elements % processes != 0) [[unlikely]] {
    throw Error(ErrorClass::buffer, function_,
                std::string(name) + ".size() = " + text(elements) +
                    " is not a multiple of size() = " + text(size_) +
                    ", so it holds no whole block per process");
  }
  return count_of(elements / processes, name);
}

void CollectiveCall::check_apart(const void* a, std::size_t a_bytes,
                                 const char* a_name, const void* b,
                                 std::size_t b_bytes,
                                 const char* b_name) const {
  if (a_bytes == 0 || b_bytes == 0) return;
  const auto* a_begin = static_cast<const std::byte*>(a);
  const auto* b_begin = static_cast<const std::byte*>(b);
  // std::less gives a total order even on unrelated pointers.
  const std::less<const std::byte*> before;
  if (before(a_begin, b_begin + b_bytes) && before(b_begin, a_begin + a_bytes))
      [[unlikely]] {
    throw Error(ErrorClass::buffer, function_,
                std::string(a_name) + " and " + b_name +
                    " overlap; pass classic::in_place to reuse one buffer");
  }
}

void CollectiveCall::raise(int code) const {
  int mpi_class = MPI_ERR_OTHER;
  MPI_Error_class(code, &mpi_class);
  // Classes that the point-to-point mapping does not know.
  if (mpi_class == MPI_ERR_OP || mpi_class == MPI_ERR_ROOT) {
    char message[MPI_MAX_ERROR_STRING] = {};
    int length = 0;
    MPI_Error_string(code, message, &length);
    throw Error(
        mpi_class == MPI_ERR_OP ? ErrorClass::op : ErrorClass::root, function_,
        std::string("the transport rejected ") +
            (mpi_class == MPI_ERR_OP ? "op for this datatype" : "root") + " (" +
            std::string(message, length) + ")");
  }
  transport::raise(code, function_);
}

}  // namespace classic::collective_detail
