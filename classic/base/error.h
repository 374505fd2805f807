// classic::Error: the one exception type of orthocomm, with an MPI-like class.
#ifndef ORTHOCOMM_CLASSIC_BASE_ERROR_H_
#define ORTHOCOMM_CLASSIC_BASE_ERROR_H_

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace classic {

// Mirrors MPI's error classes; tests check the class, people read the text.
enum class ErrorClass {
  arg,
  buffer,
  comm,
  count,
  datatype,
  dims,
  group,
  intern,
  keyval,
  op,
  rank,
  request,
  root,
  tag,
  topology,
  truncate,
  other,
};

std::string_view to_string(ErrorClass error_class);

// Message shape: "<function>: <what is wrong with which argument and value>",
// e.g. "classic::Group::incl: ranks[2] = 7 is outside [0, 4)".
class Error : public std::runtime_error {
 public:
  Error(ErrorClass error_class, std::string_view function,
        std::string_view detail);

  ErrorClass error_class() const noexcept { return error_class_; }

  // The same error (class and detail) raised in the name of `function`: a
  // layer above the one that raised it names the call its user made.
  Error raised_by(std::string_view function) const;

 private:
  ErrorClass error_class_;
  std::size_t detail_offset_;  // where the detail begins in what()
};

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_BASE_ERROR_H_
