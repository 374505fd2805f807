#include "classic/collectives/internal/collective_call.h"

#include <cstdint>
#include <string>
#include <utility>

#include "classic/base/error.h"
#include "classic/base/error_text.h"
#include "classic/base/internal/transport_error.h"
#include "classic/comm/internal/comm_state.h"

namespace classic::internal {
namespace {

using error_text::entry;
using error_text::text;

template <typename T>
void check_entries(std::span<const T> values, int size, const char* name,
                   const char* function) {
  if (values.size() != static_cast<std::size_t>(size)) [[unlikely]] {
    throw Error(
        ErrorClass::count, function,
        std::string(name) + " has " +
            text(static_cast<std::int64_t>(values.size())) +
            " entries; it needs one per process, size() = " + text(size));
  }
}

}  // namespace

CollectiveCall::CollectiveCall(const Comm& comm, const char* function,
                               Mode mode)
    : comm_(&comm), mode_(mode), function_(function), checked_(comm, function) {
  const Comm::State& state = internal::CommAccess::state(comm, function);
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
  checked_.root(root);
}

void CollectiveCall::check_op(MPI_Op op) const {
  if (op == MPI_OP_NULL) [[unlikely]] {
    throw Error(ErrorClass::op, function_, "op is MPI_OP_NULL");
  }
  checked_.op(op);
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
  internal::check_datatype(function_, datatype, name);
}

void CollectiveCall::check_count(int count, const char* name) const {
  internal::check_count(function_, count, name);
}

void CollectiveCall::check_capacity(std::optional<std::size_t> capacity,
                                    std::int64_t needed,
                                    const char* name) const {
  internal::check_capacity(function_, capacity, needed, name);
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
  return internal::check_count_entries(function_, counts, name);
}

void CollectiveCall::check_datatypes(std::span<const MPI_Datatype> datatypes,
                                     const char* name) const {
  check_length(datatypes, name);
  internal::check_datatype_entries(function_, datatypes, name);
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

int CollectiveCall::count_of(std::size_t elements, const char* name) const {
  return internal::count_of(function_, elements, name);
}

int CollectiveCall::per_process(std::size_t elements, const char* name) const {
  const auto processes = static_cast<std::size_t>(size_);
  if (elements % processes != 0) [[unlikely]] {
    throw Error(ErrorClass::buffer, function_,
                std::string(name) +
                    ".size() = " + text(static_cast<std::int64_t>(elements)) +
                    " is not a multiple of size() = " + text(size_) +
                    ", so it holds no whole block per process");
  }
  return count_of(elements / processes, name);
}

void CollectiveCall::check_apart(const void* a, std::size_t a_bytes,
                                 const char* a_name, const void* b,
                                 std::size_t b_bytes,
                                 const char* b_name) const {
  if (internal::share_memory(a, a_bytes, b, b_bytes)) [[unlikely]] {
    throw Error(ErrorClass::buffer, function_,
                std::string(a_name) + " and " + b_name +
                    " overlap; pass classic::in_place to reuse one buffer");
  }
}

void raise_collective_error(int code, const char* function) {
  int mpi_class = MPI_ERR_OTHER;
  MPI_Error_class(code, &mpi_class);
  // Classes that the point-to-point mapping does not know.
  if (mpi_class == MPI_ERR_OP || mpi_class == MPI_ERR_ROOT) {
    char message[MPI_MAX_ERROR_STRING] = {};
    int length = 0;
    MPI_Error_string(code, message, &length);
    throw Error(
        mpi_class == MPI_ERR_OP ? ErrorClass::op : ErrorClass::root, function,
        std::string("the transport rejected ") +
            (mpi_class == MPI_ERR_OP ? "op for this datatype" : "root") + " (" +
            std::string(message, length) + ")");
  }
  transport::raise(code, function);
}

}  // namespace classic::internal
