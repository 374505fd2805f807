// The phrases classic::Error messages are built from, so that every layer
// names arguments and ranges the same way: "ranks[2] = 7 is outside [0, 4)".
#ifndef ORTHOCOMM_CLASSIC_BASE_ERROR_TEXT_H_
#define ORTHOCOMM_CLASSIC_BASE_ERROR_TEXT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace classic::error_text {

// "7"
std::string text(std::int64_t value);
// "ranks[2]"
std::string entry(std::string_view array, std::size_t index);
// "ranks[2] = 7"
std::string entry(std::string_view array, std::size_t index,
                  std::int64_t value);
// "root = 7"
std::string named(std::string_view name, std::int64_t value);
// " is outside [0, 4)": the half-open range a value must lie in.
std::string outside(std::int64_t low, std::int64_t high);
// "ndims = 3 differs from geometry.ndims() = 2"
std::string differs(std::string_view name, std::int64_t value,
                    std::string_view expected_name, std::int64_t expected);

}  // namespace classic::error_text

#endif  // ORTHOCOMM_CLASSIC_BASE_ERROR_TEXT_H_
