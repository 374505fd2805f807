#include "experiments/combining_options.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "classic/exec/executor.h"

namespace experiments::combining {
namespace {

// The block sizes of --blocks=B,B,...; empty where one is no positive
// multiple of 4 up to 16 MiB.
std::vector<int> parse_blocks(std::string_view list) {
  std::vector<int> sizes;
  while (!list.empty()) {
    const std::size_t comma = list.find(',');
    const std::string item(list.substr(0, comma));
    char* end = nullptr;
    const std::int64_t bytes = std::strtoll(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || bytes <= 0 || bytes % 4 != 0 ||
        bytes > (std::int64_t{1} << 24)) {
      return {};
    }
    sizes.push_back(static_cast<int>(bytes));
    list = comma == std::string_view::npos ? std::string_view{}
                                           : list.substr(comma + 1);
  }
  return sizes;
}

}  // namespace

std::string parse_options(int& argc, char** argv, Options& options) {
  int kept = 1;
  std::string error;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const auto number = [&](std::string_view prefix, int& value) {
      if (!arg.starts_with(prefix)) return false;
      value = std::atoi(std::string(arg.substr(prefix.size())).c_str());
      if (value <= 0 && error.empty()) {
        error = std::string(prefix) + ": '" +
                std::string(arg.substr(prefix.size())) + "' must be > 0";
      }
      return true;
    };
    if (arg.starts_with("--csv=")) {
      options.csv = std::string(arg.substr(6));
    } else if (arg.starts_with("--blocks=")) {
      options.block_bytes = parse_blocks(arg.substr(9));
      if (options.block_bytes.empty() && error.empty()) {
        error = "--blocks=: '" + std::string(arg.substr(9)) +
                "' must list block sizes in bytes, each a positive multiple "
                "of 4 up to 16777216, separated by commas";
      }
    } else if (arg.starts_with("--started_bytes=")) {
      // Persistent operations start transport persistent requests for
      // messages of at least this many bytes (classic/exec/executor.h).
      const std::string value(arg.substr(16));
      char* end = nullptr;
      const std::int64_t bytes = std::strtoll(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0' || bytes < 0) {
        if (error.empty()) {
          error = "--started_bytes=: '" + value + "' must be a number >= 0";
        }
      } else {
        classic::internal::set_started_limit(bytes);
      }
    } else if (number("--iterations=", options.iterations) ||
               number("--calls=", options.calls)) {
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  argv[argc] = nullptr;
  return error;
}

}  // namespace experiments::combining
