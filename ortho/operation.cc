#include "ortho/operation.h"

#include <algorithm>
#include <string_view>

namespace ortho {
namespace {

constexpr std::array<std::string_view, kOperationCount> kNames = {
    "barrier",    "bcast",     "gather",         "gatherv",
    "scatter",    "scatterv",  "allgather",      "allgatherv",
    "allgatherw", "alltoall",  "alltoallv",      "alltoallw",
    "reduce",     "allreduce", "reduce_scatter", "reduce_scatter_block",
    "scan",       "exscan",
};

std::size_t index_of(Operation operation) {
  return static_cast<std::size_t>(operation);
}

// "ortho::<name>", "ortho::i<name>", "ortho::<name>_init" for every
// operation, and the same with "(ortho::reverse)" after it, composed at
// compile time: every call names its function (for errors), so the lookup
// is an index.
constexpr std::size_t kLongestName = 56;
constexpr std::string_view kOnReverse = "(ortho::reverse)";
using FunctionName = std::array<char, kLongestName>;

constexpr FunctionName composed(std::string_view prefix, std::string_view name,
                                std::string_view suffix) {
  FunctionName out{};
  std::size_t n = 0;
  for (const std::string_view part : {prefix, name, suffix}) {
    for (const char c : part) out[n++] = c;
  }
  return out;  // zero-terminated: at most 48 characters are written
}

// [reverse][operation][mode]
constexpr std::array<std::array<std::array<FunctionName, 3>, kOperationCount>,
                     2>
    kFunctionNames = [] {
      std::array<std::array<std::array<FunctionName, 3>, kOperationCount>, 2>
          names{};
      for (std::size_t r = 0; r < 2; ++r) {
        const std::string_view after = r == 0 ? "" : kOnReverse;
        for (std::size_t i = 0; i < kOperationCount; ++i) {
          const std::string_view name = kNames[i];
          names[r][i] = {
              composed("ortho::", name, after),
              composed("ortho::i", name, after),
              composed("ortho::", name,
                       r == 0 ? std::string_view("_init")
                              : std::string_view("_init(ortho::reverse)"))};
        }
      }
      return names;
    }();

}  // namespace

const std::array<Operation, kOperationCount>& all_operations() {
  static const std::array<Operation, kOperationCount> operations = [] {
    std::array<Operation, kOperationCount> all{};
    for (std::size_t i = 0; i < kOperationCount; ++i) {
      all[i] = static_cast<Operation>(i);
    }
    return all;
  }();
  return operations;
}

std::string_view to_string(Operation operation) {
  return kNames[index_of(operation)];
}

std::optional<Operation> operation_named(std::string_view name) {
  const auto* found = std::find(kNames.begin(), kNames.end(), name);
  if (found == kNames.end()) return std::nullopt;
  return static_cast<Operation>(found - kNames.begin());
}

[[gnu::hot]] const char* function_name(Operation operation, classic::Mode mode,
                                       bool reverse) {
  return kFunctionNames[reverse ? 1 : 0][index_of(operation)]
                       [static_cast<std::size_t>(mode)]
                           .data();
}

bool defined_on(Operation operation, Structure structure) {
  switch (operation) {
    case Operation::scan:
    case Operation::exscan:
      return structure == Structure::fully_connected;
    case Operation::reduce_scatter:
    case Operation::reduce_scatter_block:
      return structure != Structure::directed_graph;
    case Operation::allgatherw:
      return structure == Structure::directed_graph;
    default:
      return true;
  }
}

}  // namespace ortho
