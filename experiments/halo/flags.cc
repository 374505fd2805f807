#include "experiments/halo/flags.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <system_error>

namespace halo {

std::optional<int> parse_int(std::string_view text, int minimum) {
  int value = 0;
  const char* end = text.data() + text.size();
  const auto [rest, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || rest != end || value < minimum) {
    return std::nullopt;
  }
  return value;
}

std::optional<std::uint64_t> parse_uint64(std::string_view text) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [rest, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || rest != end) return std::nullopt;
  return value;
}

std::optional<double> parse_double(std::string_view text, double minimum) {
  const std::string copy(text);
  char* end = nullptr;
  const double value = std::strtod(copy.c_str(), &end);
  if (copy.empty() || end != copy.c_str() + copy.size() ||
      !std::isfinite(value) || value < minimum) {
    return std::nullopt;
  }
  return value;
}

std::vector<std::string_view> split_list(std::string_view text) {
  std::vector<std::string_view> items;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    items.push_back(text.substr(start, comma - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return items;
}

std::string parse_flags(std::span<const std::string_view> args, bool& help,
                        const ApplySwitch& on_switch,
                        const ApplyValue& on_value) {
  for (const std::string_view arg : args) {
    std::string error;
    if (arg == "--help" || arg == "-h") {
      help = true;
    } else if (!arg.starts_with("--") || arg.size() == 2) {
      error = "unexpected argument '" + std::string(arg) +
              "' (flags are --name or --name=value)";
    } else if (const std::size_t equals = arg.find('=');
               equals == std::string_view::npos) {
      error = on_switch(arg.substr(2));
    } else {
      error = on_value(arg.substr(2, equals - 2), arg.substr(equals + 1));
    }
    if (!error.empty()) return error;
  }
  return "";
}

}  // namespace halo
