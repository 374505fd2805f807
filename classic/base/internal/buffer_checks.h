// Argument checks shared by the collective executors (intra-communicator,
// inter-communicator and neighbourhood): counts, datatypes and typed spans.
// Internal to classic.
#ifndef ORTHOCOMM_CLASSIC_BASE_INTERNAL_BUFFER_CHECKS_H_
#define ORTHOCOMM_CLASSIC_BASE_INTERNAL_BUFFER_CHECKS_H_

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>

#include "classic/base/internal/inside_classic.h"

namespace classic::internal {

// Reads of a buffer may overlap; writes may not (MPI: "no location is
// written more than once").
enum class Access { read, write };

// Each check raises classic::Error naming `function` and the argument.

// ErrorClass::count for a negative count.
void check_count(const char* function, int count, const char* name);
// ErrorClass::datatype for MPI_DATATYPE_NULL.
void check_datatype(const char* function, MPI_Datatype datatype,
                    const char* name);
// ErrorClass::count for a negative entry; the sum of the counts.
std::int64_t check_count_entries(const char* function,
                                 std::span<const int> counts, const char* name);
// ErrorClass::datatype for an MPI_DATATYPE_NULL entry.
void check_datatype_entries(const char* function,
                            std::span<const MPI_Datatype> datatypes,
                            const char* name);
// A typed span (capacity known; raw buffers, std::nullopt, pass) holds at
// least `needed` elements (ErrorClass::buffer).
void check_capacity(const char* function, std::optional<std::size_t> capacity,
                    std::int64_t needed, const char* name);
// A typed span's element count as an MPI count (ErrorClass::count past
// INT_MAX).
int count_of(const char* function, std::size_t elements, const char* name);

// What the messages of check_placement call the arguments; with null
// counts and displs names they name the blocks by index alone.
struct BlocksNames {
  const char* buffer;
  const char* counts = nullptr;
  const char* displs = nullptr;
};
// Block i of a typed span of `capacity` elements has counts[i] elements
// at displs[i]. ErrorClass::buffer unless every non-empty block that
// `transferred` accepts (all, without it) lies inside the span, and, for
// Access::write, no two of them overlap.
void check_placement(const char* function, std::span<const int> counts,
                     std::span<const int> displs, std::size_t capacity,
                     Access access, const BlocksNames& names,
                     const std::function<bool(std::size_t)>& transferred = {});

// Whether the byte ranges [a, a + a_bytes) and [b, b + b_bytes) share a
// byte (for the aliasing checks of typed spans).
bool share_memory(const void* a, std::size_t a_bytes, const void* b,
                  std::size_t b_bytes);

}  // namespace classic::internal

#endif  // ORTHOCOMM_CLASSIC_BASE_INTERNAL_BUFFER_CHECKS_H_
