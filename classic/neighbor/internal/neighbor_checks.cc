#include "classic/neighbor/internal/neighbor_checks.h"

#include <string>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/error.h"
#include "classic/base/error_text.h"
#include "classic/base/internal/buffer_checks.h"

namespace classic::internal {
namespace {

using error_text::text;

const char* neighbors_name(Side side) {
  return side == Side::sources ? "source, indegree" : "destination, outdegree";
}

}  // namespace

void NeighborChecks::raise_in_place(const char* name) const {
  throw Error(ErrorClass::buffer, exchange_.function(),
              std::string(name) +
                  " is MPI_IN_PLACE, which neighbourhood collectives do "
                  "not allow");
}

void NeighborChecks::length(std::size_t entries, Side side,
                            const char* name) const {
  const int needed = degree(side);
  if (entries != static_cast<std::size_t>(needed)) [[unlikely]] {
    throw Error(ErrorClass::count, exchange_.function(),
                std::string(name) + " has " +
                    text(static_cast<std::int64_t>(entries)) +
                    " entries; it needs one per " + neighbors_name(side) +
                    " = " + text(needed));
  }
}

void NeighborChecks::counts(std::span<const int> counts, Side side,
                            const char* name) const {
  length(counts.size(), side, name);
  check_count_entries(exchange_.function(), counts, name);
}

void NeighborChecks::datatypes(std::span<const MPI_Datatype> datatypes,
                               Side side, const char* name) const {
  length(datatypes.size(), side, name);
  check_datatype_entries(exchange_.function(), datatypes, name);
}

void NeighborChecks::placement(std::span<const int> counts,
                               std::span<const int> displs,
                               std::optional<std::size_t> capacity, Side side,
                               const char* name) const {
  if (!capacity) return;
  const std::vector<int>& neighbors = side == Side::sources
                                          ? exchange_.lists().sources
                                          : exchange_.lists().destinations;
  // Reading twice is harmless; only receive blocks must not overlap.
  const Access access = side == Side::sources ? Access::write : Access::read;
  check_placement(
      exchange_.function(), counts, displs, *capacity, access, {name},
      [&neighbors](std::size_t i) { return neighbors[i] != proc_null; });
}

void NeighborChecks::apart(const void* a, std::size_t a_bytes, const void* b,
                           std::size_t b_bytes) const {
  if (share_memory(a, a_bytes, b, b_bytes)) [[unlikely]] {
    throw Error(ErrorClass::buffer, exchange_.function(),
                "send and recv overlap; a neighbourhood collective needs "
                "separate buffers");
  }
}

int NeighborChecks::count_of(std::size_t elements, const char* name) const {
  return internal::count_of(exchange_.function(), elements, name);
}

int NeighborChecks::per_block(std::size_t elements, int blocks,
                              const char* name) const {
  const auto n = static_cast<std::size_t>(blocks);
  if (elements % n != 0) [[unlikely]] {
    throw Error(ErrorClass::buffer, exchange_.function(),
                std::string(name) +
                    ".size() = " + text(static_cast<std::int64_t>(elements)) +
                    " is not a multiple of " + text(blocks) +
                    " neighbours, so it holds no whole block per neighbour");
  }
  return count_of(elements / n, name);
}

}  // namespace classic::internal
