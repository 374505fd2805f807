// The one buffer descriptor of classic's collectives (intra, inter and
// neighbourhood): a buffer of one block, or of one block per peer, with the
// element count of a typed span when there is one. Internal to classic.
#ifndef ORTHOCOMM_CLASSIC_BASE_INTERNAL_BUFFERS_H_
#define ORTHOCOMM_CLASSIC_BASE_INTERNAL_BUFFERS_H_

#include <mpi.h>

#include <cstddef>
#include <optional>
#include <span>

#include "classic/base/internal/inside_classic.h"

namespace classic::internal {

// One buffer of a collective: `count` elements of `datatype` at `data`
// (or MPI_IN_PLACE). `capacity` is the element count of a typed span, so
// that classic can refuse counts that would overrun it; raw buffers have
// none and are the caller's responsibility.
template <typename Data>
struct Block {
  Data data;
  int count;
  MPI_Datatype datatype;
  std::optional<std::size_t> capacity;
};
using SendBlock = Block<const void*>;
using RecvBlock = Block<void*>;

// One buffer holding one block per process (the v variants): block i has
// counts[i] elements at displs[i] (in elements of `datatype`).
template <typename Data>
struct Blocks {
  Data data;
  std::span<const int> counts;
  std::span<const int> displs;
  MPI_Datatype datatype;
  std::optional<std::size_t> capacity;
};
using SendBlocks = Blocks<const void*>;
using RecvBlocks = Blocks<void*>;

// The capacity of a raw (untyped) buffer: unknown.
inline constexpr std::optional<std::size_t> kRaw = std::nullopt;

}  // namespace classic::internal

#endif  // ORTHOCOMM_CLASSIC_BASE_INTERNAL_BUFFERS_H_
