#include "classic/base/error_text.h"

namespace classic::error_text {

std::string text(std::int64_t value) { return std::to_string(value); }

std::string entry(std::string_view array, std::size_t index) {
  return std::string(array) + "[" + std::to_string(index) + "]";
}

std::string entry(std::string_view array, std::size_t index,
                  std::int64_t value) {
  return entry(array, index) + " = " + text(value);
}

std::string named(std::string_view name, std::int64_t value) {
  return std::string(name) + " = " + text(value);
}

std::string outside(std::int64_t low, std::int64_t high) {
  return " is outside [" + text(low) + ", " + text(high) + ")";
}

std::string differs(std::string_view name, std::int64_t value,
                    std::string_view expected_name, std::int64_t expected) {
  return named(name, value) + " differs from " + named(expected_name, expected);
}

}  // namespace classic::error_text
