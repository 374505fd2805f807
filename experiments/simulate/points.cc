#include "experiments/simulate/points.h"

#include <charconv>
#include <cmath>
#include <optional>
#include <sstream>

#include "experiments/simulate/halo_workload.h"

namespace simulate {
namespace {

constexpr std::string_view kHeader =
    "nodes,ppn,placement,workload,operation,block_bytes,algorithm,"
    "measured_us,source";

std::vector<std::string_view> fields_of(std::string_view line) {
  std::vector<std::string_view> fields;
  while (true) {
    const auto comma = line.find(',');
    fields.push_back(line.substr(0, comma));
    if (comma == std::string_view::npos) return fields;
    line.remove_prefix(comma + 1);
  }
}

class LineReader {
 public:
  LineReader(std::string_view origin, int line)
      : origin_(origin), line_(line) {}

  [[noreturn]] void fail(std::string_view field, std::string_view value,
                         std::string_view why) const {
    std::ostringstream message;
    message << origin_ << ":" << line_ << ": " << field << " = '" << value
            << "' " << why;
    throw PointsFileError(message.str());
  }

  template <typename Number>
  Number number(std::string_view field, std::string_view value) const {
    Number number{};
    const auto [end, error] =
        std::from_chars(value.data(), value.data() + value.size(), number);
    if (value.empty() || error != std::errc{} ||
        end != value.data() + value.size() || !(number > 0) ||
        !std::isfinite(static_cast<double>(number))) {
      fail(field, value, "is not a positive number");
    }
    return number;
  }

 private:
  std::string_view origin_;
  int line_;
};

Algorithm algorithm_of(const LineReader& reader, std::string_view value) {
  for (const Algorithm algorithm : kAlgorithms) {
    if (name_of(algorithm) == value) return algorithm;
  }
  reader.fail("algorithm", value,
              "is not direct, combining, node_aware, common_neighbours or "
              "spread_relays");
}

// A halo's partition and file: matrix:PARTITION:FILE.
struct MatrixOf {
  MatrixPartition partition;
  std::string path;
};
std::optional<MatrixOf> matrix_of(std::string_view workload) {
  if (!workload.starts_with("matrix:")) return std::nullopt;
  workload.remove_prefix(7);
  const auto colon = workload.find(':');
  if (colon == std::string_view::npos || colon + 1 == workload.size()) {
    return std::nullopt;
  }
  const std::optional<MatrixPartition> partition =
      parse_matrix_partition(workload.substr(0, colon));
  if (!partition) return std::nullopt;
  return MatrixOf{*partition, std::string(workload.substr(colon + 1))};
}

MeasuredPoint point_of(const LineReader& reader,
                       const std::vector<std::string_view>& fields) {
  MeasuredPoint point;
  point.shape.nodes = reader.number<int>("nodes", fields[0]);
  point.shape.processes_per_node = reader.number<int>("ppn", fields[1]);
  if (fields[2] == "round_robin") {
    point.shape.placement = Placement::round_robin;
  } else if (fields[2] != "slot") {
    reader.fail("placement", fields[2], "is not slot or round_robin");
  }
  point.workload = std::string(fields[3]);
  if (!point.workload.starts_with("graph:") &&
      !(point.workload.starts_with("stencil:") &&
        parse_stencil(point.workload.substr(8))) &&
      !matrix_of(point.workload)) {
    reader.fail("workload", fields[3],
                "is not stencil:NAME (a stencil the simulator knows), "
                "graph:NAME or matrix:blocks|metis:FILE");
  }
  bool known = false;
  for (const Operation operation :
       {Operation::allgather, Operation::alltoall, Operation::allgatherv,
        Operation::alltoallv}) {
    if (fields[4] == name_of(operation)) {
      point.operation = operation;
      known = true;
    }
  }
  if (!known) {
    reader.fail("operation", fields[4],
                "is not allgather, alltoall, allgatherv or alltoallv");
  }
  point.block_bytes = reader.number<std::size_t>("block_bytes", fields[5]);
  point.algorithm = algorithm_of(reader, fields[6]);
  point.measured_us = reader.number<double>("measured_us", fields[7]);
  point.source = std::string(fields[8]);
  return point;
}

}  // namespace

std::string MeasuredPoint::setting() const {
  return std::to_string(shape.nodes) + " x " +
         std::to_string(shape.processes_per_node) + ", " +
         (shape.placement == Placement::round_robin ? "round robin" : "slot");
}

std::vector<MeasuredPoint> read_points(std::istream& in,
                                       std::string_view origin) {
  std::vector<MeasuredPoint> points;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();  // CSV's CRLF
    if (number == 1) {
      if (line != kHeader) {
        throw PointsFileError(std::string(origin) + ":1: the header is not '" +
                              std::string(kHeader) + "'");
      }
      continue;
    }
    if (line.empty()) continue;
    const std::vector<std::string_view> fields = fields_of(line);
    if (fields.size() != 9) {
      throw PointsFileError(std::string(origin) + ":" + std::to_string(number) +
                            ": " + std::to_string(fields.size()) +
                            " fields, not 9");
    }
    points.push_back(point_of(LineReader(origin, number), fields));
  }
  if (number == 0) {
    throw PointsFileError(std::string(origin) + ": empty (no header)");
  }
  return points;
}

Workload workload_of(const MeasuredPoint& point) {
  if (const std::optional<MatrixOf> matrix = matrix_of(point.workload)) {
    return halo_workload(matrix->path, matrix->partition, point.shape);
  }
  if (point.workload.starts_with("stencil:")) {
    return stencil_workload(*parse_stencil(point.workload.substr(8)),
                            point.shape);
  }
  return graph_workload(point.workload.substr(6), point.shape);
}

}  // namespace simulate
