// Argument checks of ortho's own algorithms (the operations and forms that
// classic does not check for them), each raising classic::Error naming the
// caller's function, the argument and its value.
#ifndef ORTHOCOMM_ORTHO_ALGORITHMS_CHECKS_H_
#define ORTHOCOMM_ORTHO_ALGORITHMS_CHECKS_H_

#include <mpi.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "classic/base/error.h"
#include "classic/base/error_text.h"
#include "classic/comm/comm.h"
#include "ortho/call.h"
#include "ortho/internal/inside_ortho.h"

namespace ortho::algorithms {

namespace text = classic::error_text;

// Sizes as the error phrases take them.
inline std::int64_t number(std::size_t size) {
  return static_cast<std::int64_t>(size);
}

// ---- checks -----------------------------------------------------------------

class Checks {
  using Error = classic::Error;
  using ErrorClass = classic::ErrorClass;

 public:
  Checks(const classic::Comm& comm, const Call& call)
      : comm_(comm), function_(call.function()) {}

  void root(int root) const {
    if (root < 0 || root >= comm_.size()) {
      throw Error(ErrorClass::root, function_,
                  text::named("root", root) + text::outside(0, comm_.size()));
    }
  }
  void count(int count, const char* name) const {
    if (count < 0) {
      throw Error(ErrorClass::count, function_,
                  text::named(name, count) + " is negative");
    }
  }
  void datatype(MPI_Datatype datatype, const char* name) const {
    if (datatype == MPI_DATATYPE_NULL) {
      throw Error(ErrorClass::datatype, function_,
                  std::string(name) + " is MPI_DATATYPE_NULL");
    }
  }
  void elements(int count, MPI_Datatype datatype, const char* count_name,
                const char* type_name) const {
    this->count(count, count_name);
    this->datatype(datatype, type_name);
  }
  void op(MPI_Op op) const {
    if (op == MPI_OP_NULL) {
      throw Error(ErrorClass::op, function_, "op is MPI_OP_NULL");
    }
  }
  void length(std::size_t length, std::size_t degree, const char* name,
              const char* degree_name) const {
    if (length != degree) {
      throw Error(ErrorClass::count, function_,
                  std::string(name) + " has " + text::text(number(length)) +
                      " entries; the caller's " + degree_name + " is " +
                      text::text(number(degree)));
    }
  }
  void counts(std::span<const int> counts, const char* name) const {
    for (std::size_t i = 0; i < counts.size(); ++i) {
      if (counts[i] < 0) {
        throw Error(ErrorClass::count, function_,
                    text::entry(name, i, counts[i]) + " is negative");
      }
    }
  }
  void datatypes(std::span<const MPI_Datatype> types, const char* name) const {
    for (std::size_t i = 0; i < types.size(); ++i) {
      if (types[i] == MPI_DATATYPE_NULL) {
        throw Error(ErrorClass::datatype, function_,
                    text::entry(name, i) + " is MPI_DATATYPE_NULL");
      }
    }
  }
  void not_in_place(const void* data, const char* name,
                    const char* where) const {
    if (data == MPI_IN_PLACE) {
      throw Error(ErrorClass::buffer, function_,
                  std::string(name) + " is in place " + where);
    }
  }
  // A typed span of `have` elements must hold `need`.
  void holds(std::size_t have, std::size_t need, const char* name) const {
    if (have < need) {
      throw Error(ErrorClass::buffer, function_,
                  std::string(name) + " holds " + text::text(number(have)) +
                      " elements; the call needs " + text::text(number(need)));
    }
  }
  // A block [displ, displ + count) inside a typed span of `size` elements.
  void inside(std::span<const int> counts, std::span<const int> displs,
              std::size_t size, const char* name) const {
    for (std::size_t i = 0; i < counts.size(); ++i) {
      if (displs[i] < 0 || static_cast<std::size_t>(displs[i]) +
                                   static_cast<std::size_t>(counts[i]) >
                               size) {
        throw Error(ErrorClass::buffer, function_,
                    text::entry("displs", i, displs[i]) + " with " +
                        text::entry("counts", i, counts[i]) + " leaves " +
                        name + " of " + text::text(number(size)) + " elements");
      }
    }
  }
  // `size` elements split into `blocks` equal blocks.
  int per_block(std::size_t size, std::size_t blocks, const char* name) const {
    if (blocks == 0) return 0;
    if (size % blocks != 0) {
      throw Error(ErrorClass::buffer, function_,
                  std::string(name) + " of " + text::text(number(size)) +
                      " elements holds no whole number of " +
                      text::text(number(blocks)) + " blocks");
    }
    return static_cast<int>(size / blocks);
  }
  int size_of(std::size_t elements) const {
    if (elements > static_cast<std::size_t>(INT_MAX)) {
      throw Error(ErrorClass::count, function_,
                  "a span of " + text::text(number(elements)) +
                      " elements is more than INT_MAX");
    }
    return static_cast<int>(elements);
  }

 private:
  const classic::Comm& comm_;
  const char* function_;
};

}  // namespace ortho::algorithms

#endif  // ORTHOCOMM_ORTHO_ALGORITHMS_CHECKS_H_
