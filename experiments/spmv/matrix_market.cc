#include "experiments/spmv/matrix_market.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace spmv {
namespace {

enum class Field { real, integer, pattern };
enum class Symmetry { general, symmetric, skew_symmetric };

struct Banner {
  Field field = Field::real;
  Symmetry symmetry = Symmetry::general;
};

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return text;
}

[[noreturn]] void fail(const std::string& path, int line,
                       const std::string& what) {
  throw std::runtime_error("spmv: " + path +
                           (line > 0 ? ":" + std::to_string(line) : "") + ": " +
                           what);
}

Banner parse_banner(const std::string& path, const std::string& line) {
  std::istringstream words(lower(line));
  std::string tag, object, format, field, symmetry;
  words >> tag >> object >> format >> field >> symmetry;
  if (tag != "%%matrixmarket" || object != "matrix" || format != "coordinate") {
    fail(path, 1,
         "no Matrix Market banner of a matrix in coordinate form: '" + line +
             "'");
  }
  Banner banner;
  if (field == "real") {
    banner.field = Field::real;
  } else if (field == "integer") {
    banner.field = Field::integer;
  } else if (field == "pattern") {
    banner.field = Field::pattern;
  } else {
    fail(path, 1, "entries of type '" + field + "' are not read");
  }
  if (symmetry == "general") {
    banner.symmetry = Symmetry::general;
  } else if (symmetry == "symmetric") {
    banner.symmetry = Symmetry::symmetric;
  } else if (symmetry == "skew-symmetric") {
    banner.symmetry = Symmetry::skew_symmetric;
  } else {
    fail(path, 1, "symmetry '" + symmetry + "' is not read");
  }
  return banner;
}

// The next line that is neither a comment nor blank; false at the end.
bool next_content(std::ifstream& in, std::string& line, int& number) {
  while (std::getline(in, line)) {
    ++number;
    const auto first = line.find_first_not_of(" \t\r");
    if (first != std::string::npos && line[first] != '%') return true;
  }
  return false;
}

}  // namespace

Matrix read_matrix(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) fail(path, 0, "cannot be read");
  const Banner banner = parse_banner(path, line);
  int number = 1;
  if (!next_content(in, line, number)) fail(path, number, "no size line");
  std::int64_t rows = 0, columns = 0, entries = 0;
  {
    std::istringstream size(line);
    std::string rest;
    if (!(size >> rows >> columns >> entries) || (size >> rest) || rows < 0 ||
        columns < 0 || entries < 0 || rows > (std::int64_t{1} << 30) ||
        columns > (std::int64_t{1} << 30)) {
      fail(path, number, "malformed size line '" + line + "'");
    }
  }
  std::vector<Eigen::Triplet<double>> triplets;
  triplets.reserve(static_cast<std::size_t>(entries) *
                   (banner.symmetry == Symmetry::general ? 1 : 2));
  for (std::int64_t k = 0; k < entries; ++k) {
    if (!next_content(in, line, number)) {
      fail(path, number,
           "holds " + std::to_string(k) + " entries, the size line declares " +
               std::to_string(entries));
    }
    std::istringstream entry(line);
    std::int64_t row = 0, column = 0;
    double value = 1;
    std::string rest;
    if (!(entry >> row >> column) ||
        (banner.field != Field::pattern && !(entry >> value)) ||
        (entry >> rest)) {
      fail(path, number, "malformed entry '" + line + "'");
    }
    if (row < 1 || row > rows || column < 1 || column > columns) {
      fail(path, number,
           "entry (" + std::to_string(row) + ", " + std::to_string(column) +
               ") lies outside " + std::to_string(rows) + " x " +
               std::to_string(columns));
    }
    const int i = static_cast<int>(row - 1);
    const int j = static_cast<int>(column - 1);
    triplets.emplace_back(i, j, value);
    if (banner.symmetry != Symmetry::general && i != j) {
      triplets.emplace_back(
          j, i, banner.symmetry == Symmetry::symmetric ? value : -value);
    }
  }
  if (next_content(in, line, number)) {
    fail(path, number,
         "holds more entries than the " + std::to_string(entries) +
             " the size line declares");
  }
  Matrix a(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(columns));
  a.setFromTriplets(triplets.begin(), triplets.end());
  a.makeCompressed();
  return a;
}

}  // namespace spmv
