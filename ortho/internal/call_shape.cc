#include "ortho/internal/call_shape.h"

#include <algorithm>
#include <atomic>
#include <span>

#include "classic/base/datatype_layout.h"

namespace ortho::internal {
namespace {

template <class T>
bool same(const std::vector<T>& kept, std::span<const T> given) noexcept {
  return std::equal(kept.begin(), kept.end(), given.begin(), given.end());
}

template <class T>
void copy(std::vector<T>& kept, std::span<const T> given) {
  kept.assign(given.begin(), given.end());
}

// Whether `datatype` is a predefined datatype (null counts as one: nothing
// is kept for it that could change).
bool predefined(MPI_Datatype datatype, const char* function) {
  return datatype == MPI_DATATYPE_NULL ||
         classic::datatype_layout(datatype, function).predefined;
}

template <class Pointer>
bool all_predefined(const Side<Pointer>& side, const char* function) {
  if (!predefined(side.datatype, function)) return false;
  return std::all_of(
      side.datatypes.begin(), side.datatypes.end(),
      [function](MPI_Datatype type) { return predefined(type, function); });
}

// Numbers no call had before, on any communicator (so that nothing kept on
// one table serves a call on another, whose copy it may be).
std::uint64_t fresh_number() {
  static std::atomic<std::uint64_t> last{kUnkept};
  return last.fetch_add(1, std::memory_order_relaxed) + 1;
}

}  // namespace

template <class Pointer>
bool CallKey::SideKey::matches(const Side<Pointer>& side) const noexcept {
  if (in_place != (side.data == MPI_IN_PLACE) || count != side.count ||
      datatype != side.datatype || elements != side.elements ||
      element_bytes != side.element_bytes) {
    return false;
  }
  // Most calls pass no arrays (allgather, alltoall, typed spans): their
  // sizes alone decide, without a comparison of each.
  const bool none = side.counts.empty() && side.displs.empty() &&
                    side.byte_displs.empty() && side.datatypes.empty();
  if (none || !has_arrays) return none && !has_arrays;
  return same(counts, side.counts) && same(displs, side.displs) &&
         same(byte_displs, side.byte_displs) && same(datatypes, side.datatypes);
}

template <class Pointer>
void CallKey::SideKey::assign(const Side<Pointer>& side) {
  in_place = side.data == MPI_IN_PLACE;
  count = side.count;
  datatype = side.datatype;
  elements = side.elements;
  element_bytes = side.element_bytes;
  copy(counts, side.counts);
  copy(displs, side.displs);
  copy(byte_displs, side.byte_displs);
  copy(datatypes, side.datatypes);
  has_arrays = !(counts.empty() && displs.empty() && byte_displs.empty() &&
                 datatypes.empty());
}

[[gnu::hot]] bool CallKey::matches(const Call& call) const noexcept {
  return valid_ && operation_ == call.operation && form_ == call.form &&
         op_ == call.op && root_ == call.root && send_.matches(call.send) &&
         recv_.matches(call.recv);
}

void CallKey::assign(const Call& call, const char* function) {
  valid_ = false;  // until every field is copied
  operation_ = call.operation;
  form_ = call.form;
  op_ = call.op;
  root_ = call.root;
  send_.assign(call.send);
  recv_.assign(call.recv);
  valid_ = all_predefined(call.send, function) &&
           all_predefined(call.recv, function);
}

[[gnu::hot]] std::uint64_t shape_of(LastShape& last, const Call& call) {
  if (call.shape.number() != 0) [[likely]] {
    return call.shape.number();
  }
  if (!last.key.matches(call)) {
    last.key.assign(call, call.function());
    last.number = last.key.valid() ? fresh_number() : kUnkept;
  }
  call.shape.name(last.number);
  return last.number;
}

}  // namespace ortho::internal
