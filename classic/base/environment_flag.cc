#include "classic/base/environment_flag.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <string>

#include "classic/base/error.h"

namespace classic {

std::optional<bool> parse_flag(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  });
  constexpr std::array<std::string_view, 4> kOn = {"1", "true", "yes", "on"};
  constexpr std::array<std::string_view, 5> kOff = {"", "0", "false", "no",
                                                    "off"};
  if (std::find(kOn.begin(), kOn.end(), lower) != kOn.end()) return true;
  if (std::find(kOff.begin(), kOff.end(), lower) != kOff.end()) return false;
  return std::nullopt;
}

bool environment_flag(const char* name, const char* function) {
  const char* value = std::getenv(name);
  if (value == nullptr) return false;
  const std::optional<bool> flag = parse_flag(value);
  if (!flag) {
    throw Error(ErrorClass::arg, function,
                std::string(name) + " = '" + value +
                    "' is no flag: use 1, true, yes, on or 0, false, no, off");
  }
  return *flag;
}

}  // namespace classic
