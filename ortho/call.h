// One collective call after normalisation: the operation, its mode and its
// arguments in one shape for all 18 operations, so that dispatch and the
// algorithms see one description instead of 18 signatures.
#ifndef ORTHOCOMM_ORTHO_CALL_H_
#define ORTHOCOMM_ORTHO_CALL_H_

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <span>

#include "classic/collectives/collectives.h"
#include "classic/exec/mode.h"
#include "ortho/operation.h"

namespace ortho {

// Typed calls came from std::span<T> (counts follow from the spans, classic
// checks every block against them); raw calls from (pointer, count,
// MPI_Datatype), as in MPI.
enum class Form { raw, typed };

// One buffer argument with what describes its blocks. Which fields an
// operation uses is the operation's (as MPI's argument lists say): `count`
// and `datatype` for one block per peer; `counts`/`displs` (in extents, in
// elements for typed calls) for the v variants; `counts`,
// `byte_displs` and `datatypes` for the w variants. `elements` is the
// length of a typed call's span.
template <class Pointer>
struct Side {
  Pointer data = nullptr;
  int count = 0;
  MPI_Datatype datatype = MPI_DATATYPE_NULL;
  std::span<const int> counts;
  std::span<const int> displs;
  std::span<const MPI_Aint> byte_displs;
  std::span<const MPI_Datatype> datatypes;
  std::size_t elements = 0;
  std::size_t element_bytes = 0;
};
using SendSide = Side<const void*>;
using RecvSide = Side<void*>;

// The number the dispatch names a call's arguments by on its communicator
// (ortho/internal/call_shape.h): found at most once per call, so that the
// layers that keep something for the next call with the same arguments
// compare numbers, not arguments. A copy starts unnamed: whoever copies a
// call may change its arguments.
class CallShape {
 public:
  CallShape() = default;
  CallShape(const CallShape& /*other*/) noexcept {}
  CallShape& operator=(const CallShape& /*other*/) noexcept {
    number_ = 0;
    return *this;
  }
  ~CallShape() = default;

  // 0 until named.
  std::uint64_t number() const noexcept { return number_; }
  void name(std::uint64_t number) const noexcept { number_ = number; }

 private:
  mutable std::uint64_t number_ = 0;
};

// bcast's buffer is `recv` (it is written everywhere but at the root);
// reduce, allreduce, scan and exscan take their count and datatype from
// `send` (`recv` for in place).
struct Call {
  Operation operation = Operation::barrier;
  classic::Mode mode = classic::Mode::blocking;
  Form form = Form::raw;
  SendSide send;
  RecvSide recv;
  MPI_Op op = MPI_OP_NULL;
  int root = 0;
  // Whether the call runs on a directed graph's reverse (ortho/reverse.h).
  bool reverse = false;
  CallShape shape;

  const char* function() const {
    return function_name(operation, mode, reverse);
  }

  // The typed spans as classic's type-erased typed forms take them.
  classic::internal::In typed_send() const {
    return {send.data, send.elements, send.datatype, send.element_bytes};
  }
  classic::internal::Out typed_recv() const {
    return {recv.data, recv.elements, recv.datatype, recv.element_bytes};
  }
};

}  // namespace ortho

#endif  // ORTHOCOMM_ORTHO_CALL_H_
