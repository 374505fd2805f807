#include "classic/base/internal/buffer_checks.h"

#include <algorithm>
#include <climits>
#include <string>
#include <vector>

#include "classic/base/error.h"
#include "classic/base/error_text.h"

namespace classic::internal {
namespace {

using error_text::entry;
using error_text::text;

// A block [begin, end) of a typed span, for the overlap check.
struct Extent {
  std::int64_t begin;
  std::int64_t end;
  std::size_t index;
};

// How a block's arguments read in a message: " (displs[i], counts[i])",
// or nothing where the caller gave no names.
std::string block_arguments(const BlocksNames& names, std::size_t index) {
  if (names.counts == nullptr || names.displs == nullptr) return "";
  return " (" + entry(names.displs, index) + ", " + entry(names.counts, index) +
         ")";
}

}  // namespace

void check_count(const char* function, int count, const char* name) {
  if (count < 0) [[unlikely]] {
    throw Error(ErrorClass::count, function,
                std::string(name) + " count = " + text(count) + " is negative");
  }
}

void check_datatype(const char* function, MPI_Datatype datatype,
                    const char* name) {
  if (datatype == MPI_DATATYPE_NULL) [[unlikely]] {
    throw Error(ErrorClass::datatype, function,
                std::string(name) + " datatype is MPI_DATATYPE_NULL");
  }
}

std::int64_t check_count_entries(const char* function,
                                 std::span<const int> counts,
                                 const char* name) {
  std::int64_t sum = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] < 0) [[unlikely]] {
      throw Error(ErrorClass::count, function,
                  entry(name, i) + " = " + text(counts[i]) + " is negative");
    }
    sum += counts[i];
  }
  return sum;
}

void check_datatype_entries(const char* function,
                            std::span<const MPI_Datatype> datatypes,
                            const char* name) {
  for (std::size_t i = 0; i < datatypes.size(); ++i) {
    if (datatypes[i] == MPI_DATATYPE_NULL) [[unlikely]] {
      throw Error(ErrorClass::datatype, function,
                  entry(name, i) + " is MPI_DATATYPE_NULL");
    }
  }
}

void check_capacity(const char* function, std::optional<std::size_t> capacity,
                    std::int64_t needed, const char* name) {
  if (capacity && static_cast<std::int64_t>(*capacity) < needed) [[unlikely]] {
    throw Error(ErrorClass::buffer, function,
                std::string(name) +
                    ".size() = " + text(static_cast<std::int64_t>(*capacity)) +
                    " is less than the " + text(needed) +
                    " elements the counts need");
  }
}

int count_of(const char* function, std::size_t elements, const char* name) {
  if (elements > static_cast<std::size_t>(INT_MAX)) [[unlikely]] {
    throw Error(ErrorClass::count, function,
                std::string(name) +
                    ".size() = " + text(static_cast<std::int64_t>(elements)) +
                    " is more than INT_MAX elements");
  }
  return static_cast<int>(elements);
}

void check_placement(const char* function, std::span<const int> counts,
                     std::span<const int> displs, std::size_t capacity,
                     Access access, const BlocksNames& names,
                     const std::function<bool(std::size_t)>& transferred) {
  const auto size = static_cast<std::int64_t>(capacity);
  std::vector<Extent> extents;
  extents.reserve(counts.size());
  for (std::size_t i = 0; i < counts.size(); ++i) {
    // Empty blocks, and blocks the call does not transfer, touch nothing.
    if (counts[i] == 0 || (transferred && !transferred(i))) continue;
    const Extent extent{displs[i], std::int64_t{displs[i]} + counts[i], i};
    if (extent.begin < 0 || extent.end > size) [[unlikely]] {
      throw Error(ErrorClass::buffer, function,
                  "block " + std::to_string(i) + " [" + text(extent.begin) +
                      ", " + text(extent.end) + ")" +
                      block_arguments(names, i) + " lies outside " +
                      names.buffer + ", whose size() = " + text(size));
    }
    extents.push_back(extent);
  }
  if (access == Access::read) return;
  std::sort(extents.begin(), extents.end(),
            [](const Extent& a, const Extent& b) { return a.begin < b.begin; });
  for (std::size_t i = 1; i < extents.size(); ++i) {
    if (extents[i].begin < extents[i - 1].end) [[unlikely]] {
      throw Error(ErrorClass::buffer, function,
                  "blocks " + std::to_string(extents[i - 1].index) + " and " +
                      std::to_string(extents[i].index) + " of " + names.buffer +
                      " overlap; no element may be received twice");
    }
  }
}

bool share_memory(const void* a, std::size_t a_bytes, const void* b,
                  std::size_t b_bytes) {
  if (a_bytes == 0 || b_bytes == 0) return false;
  const auto* a_begin = static_cast<const std::byte*>(a);
  const auto* b_begin = static_cast<const std::byte*>(b);
  // std::less gives a total order even on unrelated pointers.
  const std::less<const std::byte*> before;
  return before(a_begin, b_begin + b_bytes) &&
         before(b_begin, a_begin + a_bytes);
}

}  // namespace classic::internal
