#include "experiments/simulate/options.h"

#include <charconv>
#include <climits>
#include <string>
#include <string_view>

namespace simulate {
namespace {

[[noreturn]] void reject(std::string_view option, std::string_view value,
                         std::string_view why) {
  throw OptionError("simulate: --" + std::string(option) + "=" +
                    std::string(value) + ": " + std::string(why));
}

template <typename Number>
std::vector<Number> positive_list(std::string_view option,
                                  std::string_view value, Number most) {
  std::vector<Number> numbers;
  std::string_view rest = value;
  while (true) {
    const auto comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    Number number{};
    const auto [end, error] =
        std::from_chars(item.data(), item.data() + item.size(), number);
    if (item.empty() || error != std::errc{} ||
        end != item.data() + item.size() || number < 1 || number > most) {
      reject(option, value,
             "'" + std::string(item) + "' is not a whole number in [1, " +
                 std::to_string(most) + "]");
    }
    numbers.push_back(number);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return numbers;
}

// Which options were given (so that a halo's defaults differ).
struct Given {
  bool operation = false;
  bool blocks = false;
};

void take(Options& options, std::string_view option, std::string_view value,
          Given& given) {
  if (option == "machine") {
    options.machine = std::string(value);
  } else if (option == "stencil") {
    options.stencil = parse_stencil(value);
    if (!options.stencil) {
      reject(option, value,
             "not moore2d, moore3d, vonneumann2d or vonneumann3d (\"_D\" for "
             "depth D)");
    }
    options.stencil_name = std::string(value);
  } else if (option == "graph") {
    options.graph = std::string(value);
  } else if (option == "matrix") {
    options.matrix = std::string(value);
  } else if (option == "partition") {
    options.partition = parse_matrix_partition(value);
    if (!options.partition) reject(option, value, "not blocks or metis");
  } else if (option == "nodes") {
    options.nodes = positive_list<int>(option, value, 1 << 20);
  } else if (option == "ppn") {
    const std::vector<int> ppn = positive_list<int>(option, value, 1 << 16);
    if (ppn.size() != 1) reject(option, value, "one number of processes");
    options.processes_per_node = ppn.front();
  } else if (option == "placement") {
    if (value == "slot") {
      options.placement = Placement::by_slot;
    } else if (value == "round_robin") {
      options.placement = Placement::round_robin;
    } else if (value == "mapped") {
      options.placement = Placement::mapped;
    } else {
      reject(option, value, "not slot, round_robin or mapped");
    }
  } else if (option == "operation") {
    given.operation = true;
    bool known = false;
    for (const Operation operation :
         {Operation::allgather, Operation::alltoall, Operation::allgatherv,
          Operation::alltoallv}) {
      if (value == name_of(operation)) {
        options.operation = operation;
        known = true;
      }
    }
    if (!known) {
      reject(option, value, "not allgather, alltoall, allgatherv or alltoallv");
    }
  } else if (option == "format") {
    if (value != "table" && value != "summary") {
      reject(option, value, "not table or summary");
    }
    options.summary = value == "summary";
  } else if (option == "loop") {
    const std::vector<int> calls = positive_list<int>(option, value, 1 << 20);
    if (calls.size() != 1) reject(option, value, "one number of calls");
    options.loop_calls = calls.front();
  } else if (option == "blocks") {
    given.blocks = true;
    options.blocks =
        positive_list<std::size_t>(option, value, std::size_t{1} << 30);
  } else {
    reject(option, value, "unknown option");
  }
}

}  // namespace

Options parse_options(std::span<const std::string> arguments) {
  Options options;
  Given given;
  for (const std::string& argument : arguments) {
    const std::string_view text = argument;
    const auto equals = text.find('=');
    if (!text.starts_with("--") || equals == std::string_view::npos) {
      throw OptionError("simulate: '" + argument +
                        "' is not of the form --option=value");
    }
    take(options, text.substr(2, equals - 2), text.substr(equals + 1), given);
  }
  if (options.machine.empty()) {
    throw OptionError("simulate: --machine is missing");
  }
  const int workloads = (options.stencil ? 1 : 0) +
                        (options.graph.empty() ? 0 : 1) +
                        (options.matrix.empty() ? 0 : 1);
  if (workloads != 1) {
    throw OptionError("simulate: give one of --stencil, --graph and --matrix");
  }
  if (options.partition && options.matrix.empty()) {
    throw OptionError("simulate: --partition partitions a --matrix");
  }
  if (!options.matrix.empty()) {
    if (given.operation && options.operation != Operation::alltoallv) {
      throw OptionError(
          "simulate: --operation=" + std::string(name_of(options.operation)) +
          ": a --matrix's halo is an alltoallv");
    }
    options.operation = Operation::alltoallv;
    if (!given.blocks) options.blocks = {sizeof(double)};
  }
  if (options.nodes.empty()) throw OptionError("simulate: --nodes is missing");
  if (options.processes_per_node == 0) {
    throw OptionError("simulate: --ppn is missing");
  }
  for (const int nodes : options.nodes) {
    if (nodes > INT_MAX / options.processes_per_node) {
      throw OptionError(
          "simulate: --nodes=" + std::to_string(nodes) +
          " x --ppn=" + std::to_string(options.processes_per_node) +
          " processes is more than an int holds");
    }
  }
  return options;
}

Workload workload_of(const Options& options, const Shape& shape) {
  if (options.stencil) return stencil_workload(*options.stencil, shape);
  if (!options.matrix.empty()) {
    return halo_workload(options.matrix, options.partition, shape);
  }
  return graph_workload(options.graph, shape);
}

}  // namespace simulate
