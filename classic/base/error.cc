#include "classic/base/error.h"

#include <string>

namespace classic {

std::string_view to_string(ErrorClass error_class) {
  switch (error_class) {
    case ErrorClass::arg:
      return "arg";
    case ErrorClass::buffer:
      return "buffer";
    case ErrorClass::comm:
      return "comm";
    case ErrorClass::count:
      return "count";
    case ErrorClass::datatype:
      return "datatype";
    case ErrorClass::dims:
      return "dims";
    case ErrorClass::group:
      return "group";
    case ErrorClass::intern:
      return "intern";
    case ErrorClass::keyval:
      return "keyval";
    case ErrorClass::op:
      return "op";
    case ErrorClass::rank:
      return "rank";
    case ErrorClass::request:
      return "request";
    case ErrorClass::root:
      return "root";
    case ErrorClass::tag:
      return "tag";
    case ErrorClass::topology:
      return "topology";
    case ErrorClass::truncate:
      return "truncate";
    case ErrorClass::other:
      return "other";
  }
  return "unknown";
}

Error::Error(ErrorClass error_class, std::string_view function,
             std::string_view detail)
    : std::runtime_error(std::string(function) + ": " + std::string(detail)),
      error_class_(error_class),
      detail_offset_(function.size() + 2) {}

Error Error::raised_by(std::string_view function) const {
  return Error(error_class_, function,
               std::string_view(what()).substr(detail_offset_));
}

}  // namespace classic
