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
// operation, composed at compile time: every call names its function (for
// errors), so the lookup is an index.
constexpr std::size_t kLongestName = 40;
using FunctionName = std::array<char, kLongestName>;

constexpr FunctionName composed(std::string_view prefix, std::string_view name,
                                std::string_view suffix) {
  FunctionName out{};
  std::size_t n = 0;
  for (const std::string_view part : {prefix, name, suffix}) {
    for (const char c : part) out[n++] = c;
  }
  return out;  // zero-terminated: at most 35 characters are written
}

constexpr std::array<std::array<FunctionName, 3>, kOperationCount>
    kFunctionNames = [] {
      std::array<std::array<FunctionName, 3>, kOperationCount> names{};
      for (std::size_t i = 0; i < kOperationCount; ++i) {
        names[i] = {composed("ortho::", kNames[i], ""),
                    composed("ortho::i", kNames[i], ""),
                    composed("ortho::", kNames[i], "_init")};
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

const char* function_name(Operation operation, classic::Mode mode) {
  return kFunctionNames[index_of(operation)][static_cast<std::size_t>(mode)]
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
