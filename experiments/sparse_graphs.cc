#include "experiments/sparse_graphs.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <numeric>
#include <random>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>

namespace experiments {
namespace {

// A uniform double in [0, 1) from 53 random bits. std::mt19937_64's output
// is fixed by the standard; the distributions of <random> are not, so this
// conversion keeps a seed's graph the same under every standard library.
class Uniform {
 public:
  explicit Uniform(std::uint64_t seed) : engine_(seed) {}
  double operator()() {
    constexpr double kScale = 1.0 / static_cast<double>(std::uint64_t{1} << 53);
    return static_cast<double>(engine_() >> 11) * kScale;
  }

 private:
  std::mt19937_64 engine_;
};

void require(bool holds, const std::string& message) {
  if (!holds) throw std::invalid_argument("experiments::" + message);
}

std::int64_t vertex_count(const Mesh& mesh) {
  std::int64_t count = 1;
  for (const int extent : mesh.extents) count *= extent;
  return count;
}

void check_mesh(const Mesh& mesh, int parts, const char* function) {
  const std::string name = function;
  require(mesh.extents.size() == 2 || mesh.extents.size() == 3,
          name + ": a mesh has 2 or 3 extents, not " +
              std::to_string(mesh.extents.size()));
  for (const int extent : mesh.extents) {
    require(extent > 0 && extent <= (1 << 20), name + ": extent " +
                                                   std::to_string(extent) +
                                                   " is outside [1, 1048576]");
  }
  require(parts >= 1 && parts <= vertex_count(mesh),
          name + ": parts " + std::to_string(parts) + " is outside [1, " +
              std::to_string(vertex_count(mesh)) + "]");
}

using Point = std::array<int, 3>;  // x, y, z (z = 0 in 2-d)

Point coordinates(const Mesh& mesh, std::int64_t vertex) {
  Point point{};
  for (std::size_t axis = 0; axis < mesh.extents.size(); ++axis) {
    point[axis] = static_cast<int>(vertex % mesh.extents[axis]);
    vertex /= mesh.extents[axis];
  }
  return point;
}

std::uint64_t morton_key(const Point& point, std::size_t dims) {
  std::uint64_t key = 0;
  for (int bit = 0; bit < 21; ++bit) {
    for (std::size_t axis = 0; axis < dims; ++axis) {
      const auto value = static_cast<std::uint64_t>(point[axis]);
      key |= ((value >> bit) & 1U) << (bit * dims + axis);
    }
  }
  return key;
}

// Assigns parts [first, first + parts) to `vertices` by bisection.
void bisect(const Mesh& mesh, std::span<std::int64_t> vertices, int first,
            int parts, std::vector<int>& owner) {
  if (parts == 1) {
    for (const std::int64_t vertex : vertices) {
      owner[static_cast<std::size_t>(vertex)] = first;
    }
    return;
  }
  std::size_t axis = 0;
  int longest = -1;
  for (std::size_t a = 0; a < mesh.extents.size(); ++a) {
    const auto [low, high] = std::minmax_element(
        vertices.begin(), vertices.end(), [&](std::int64_t u, std::int64_t v) {
          return coordinates(mesh, u)[a] < coordinates(mesh, v)[a];
        });
    const int side = coordinates(mesh, *high)[a] - coordinates(mesh, *low)[a];
    if (side > longest) {
      longest = side;
      axis = a;
    }
  }
  // Ties in the cut coordinate go by vertex index, so the cut is exact.
  std::sort(vertices.begin(), vertices.end(),
            [&](std::int64_t u, std::int64_t v) {
              const int cu = coordinates(mesh, u)[axis];
              const int cv = coordinates(mesh, v)[axis];
              return cu != cv ? cu < cv : u < v;
            });
  const int lower_parts = parts / 2;
  const std::size_t cut = vertices.size() *
                          static_cast<std::size_t>(lower_parts) /
                          static_cast<std::size_t>(parts);
  bisect(mesh, vertices.first(cut), first, lower_parts, owner);
  bisect(mesh, vertices.subspan(cut), first + lower_parts, parts - lower_parts,
         owner);
}

// The offsets to a vertex's neighbours that come after it in index order
// (the others are the same pairs seen from the other end).
std::vector<Point> forward_offsets(const Mesh& mesh) {
  const std::size_t dims = mesh.extents.size();
  std::vector<Point> offsets;
  for (int dz = dims == 3 ? -1 : 0; dz <= (dims == 3 ? 1 : 0); ++dz) {
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        const Point offset{dx, dy, dz};
        const int moved = std::abs(dx) + std::abs(dy) + std::abs(dz);
        const bool after =
            dz > 0 || (dz == 0 && (dy > 0 || (dy == 0 && dx > 0)));
        if (!after) continue;
        if (mesh.connectivity == Connectivity::faces && moved != 1) continue;
        offsets.push_back(offset);
      }
    }
  }
  return offsets;
}

// Splits `name` at '_'.
std::vector<std::string_view> fields(std::string_view name) {
  std::vector<std::string_view> parts;
  while (true) {
    const std::size_t cut = name.find('_');
    parts.push_back(name.substr(0, cut));
    if (cut == std::string_view::npos) return parts;
    name.remove_prefix(cut + 1);
  }
}

std::optional<double> number(std::string_view text) {
  const std::string copy(text);
  char* end = nullptr;
  const double value = std::strtod(copy.c_str(), &end);
  if (copy.empty() || *end != '\0' || !std::isfinite(value)) return {};
  return value;
}

std::optional<std::uint64_t> seed_of(std::string_view text) {
  if (!text.starts_with("s") || text.size() < 2) return {};
  const std::string digits(text.substr(1));
  if (digits.find_first_not_of("0123456789") != std::string::npos) return {};
  return std::strtoull(digits.c_str(), nullptr, 10);
}

}  // namespace

Graph erdos_renyi(int processes, double density, std::uint64_t seed,
                  SelfLoops self_loops) {
  require(processes >= 0, "erdos_renyi: processes " +
                              std::to_string(processes) + " is negative");
  require(
      density >= 0.0 && density <= 1.0,
      "erdos_renyi: density " + std::to_string(density) + " is outside [0, 1]");
  Uniform uniform(seed);
  Graph graph(static_cast<std::size_t>(processes));
  for (int p = 0; p < processes; ++p) {
    for (int q = 0; q < processes; ++q) {
      // Drawn for (p, p) too, so that asking for self loops adds them
      // without changing any other edge.
      const bool edge = uniform() < density;
      if (edge && (p != q || self_loops == SelfLoops::yes)) {
        graph[static_cast<std::size_t>(p)].push_back(q);
      }
    }
  }
  return graph;
}

Graph random_geometric(int processes, double radius, std::uint64_t seed) {
  require(processes >= 0, "random_geometric: processes " +
                              std::to_string(processes) + " is negative");
  require(radius >= 0.0, "random_geometric: radius " + std::to_string(radius) +
                             " is negative");
  Uniform uniform(seed);
  std::vector<std::pair<double, double>> points;
  for (int p = 0; p < processes; ++p) {
    const double x = uniform();
    points.emplace_back(x, uniform());
  }
  Graph graph(static_cast<std::size_t>(processes));
  for (std::size_t p = 0; p < points.size(); ++p) {
    for (std::size_t q = 0; q < points.size(); ++q) {
      const double dx = points[p].first - points[q].first;
      const double dy = points[p].second - points[q].second;
      if (p != q && std::hypot(dx, dy) < radius) {
        graph[p].push_back(static_cast<int>(q));
      }
    }
  }
  return graph;
}

std::vector<int> mesh_partition(const Mesh& mesh, int parts,
                                Partition partition) {
  check_mesh(mesh, parts, "mesh_partition");
  const std::int64_t count = vertex_count(mesh);
  std::vector<std::int64_t> vertices(static_cast<std::size_t>(count));
  std::iota(vertices.begin(), vertices.end(), std::int64_t{0});
  std::vector<int> owner(vertices.size(), -1);
  if (partition == Partition::bisection) {
    bisect(mesh, vertices, 0, parts, owner);
    return owner;
  }
  const std::size_t dims = mesh.extents.size();
  std::vector<std::uint64_t> keys(vertices.size());
  for (std::size_t v = 0; v < vertices.size(); ++v) {
    keys[v] = morton_key(coordinates(mesh, vertices[v]), dims);
  }
  std::sort(vertices.begin(), vertices.end(),
            [&](std::int64_t u, std::int64_t v) {
              return keys[static_cast<std::size_t>(u)] <
                     keys[static_cast<std::size_t>(v)];
            });
  for (std::size_t at = 0; at < vertices.size(); ++at) {
    // Run p holds positions [p V / parts, (p + 1) V / parts), rounded down:
    // the largest p with p V / parts <= at.
    const auto position = static_cast<std::int64_t>(at);
    owner[static_cast<std::size_t>(vertices[at])] =
        static_cast<int>(((position + 1) * parts - 1) / count);
  }
  return owner;
}

Graph mesh_graph(const Mesh& mesh, int parts, Partition partition) {
  const std::vector<int> owner = mesh_partition(mesh, parts, partition);
  std::vector<std::set<int>> adjacent(static_cast<std::size_t>(parts));
  const std::vector<Point> offsets = forward_offsets(mesh);
  const std::size_t dims = mesh.extents.size();
  for (std::int64_t v = 0; v < vertex_count(mesh); ++v) {
    const Point point = coordinates(mesh, v);
    for (const Point& offset : offsets) {
      std::int64_t u = 0;
      bool inside = true;
      for (std::size_t a = dims; a-- > 0;) {
        const int c = point[a] + offset[a];
        inside = inside && c >= 0 && c < mesh.extents[a];
        u = u * mesh.extents[a] + c;
      }
      if (!inside) continue;
      const int p = owner[static_cast<std::size_t>(v)];
      const int q = owner[static_cast<std::size_t>(u)];
      if (p == q) continue;
      adjacent[static_cast<std::size_t>(p)].insert(q);
      adjacent[static_cast<std::size_t>(q)].insert(p);
    }
  }
  Graph graph;
  for (const std::set<int>& ranks : adjacent) {
    graph.emplace_back(ranks.begin(), ranks.end());
  }
  return graph;
}

Graph reversed(const Graph& graph) {
  Graph sources(graph.size());
  for (std::size_t p = 0; p < graph.size(); ++p) {
    for (const int q : graph[p]) {
      sources[static_cast<std::size_t>(q)].push_back(static_cast<int>(p));
    }
  }
  return sources;  // ascending: p runs in order
}

std::int64_t edge_count(const Graph& graph) {
  std::int64_t edges = 0;
  for (const std::vector<int>& out : graph) {
    edges += static_cast<std::int64_t>(out.size());
  }
  return edges;
}

std::optional<GraphSpec> parse_graph_spec(std::string_view name) {
  const std::vector<std::string_view> f = fields(name);
  GraphSpec spec;
  if ((f[0] == "er" || f[0] == "geo") && f.size() == 3) {
    const std::optional<double> value = number(f[1]);
    const std::optional<std::uint64_t> seed = seed_of(f[2]);
    if (!value || !seed || *value < 0.0 || (f[0] == "er" && *value > 1.0)) {
      return {};
    }
    spec.kind = f[0] == "er" ? GraphSpec::Kind::erdos_renyi
                             : GraphSpec::Kind::random_geometric;
    spec.parameter = *value;
    spec.seed = *seed;
    return spec;
  }
  if ((f[0] == "mesh2d" || f[0] == "mesh3d") &&
      (f.size() == 3 || (f.size() == 4 && f[3] == "full"))) {
    const std::optional<double> side = number(f[1]);
    if (!side || *side < 1.0 || *side > (1 << 20) ||
        *side != std::floor(*side) || (f[2] != "sfc" && f[2] != "rcb")) {
      return {};
    }
    spec.kind = GraphSpec::Kind::mesh;
    spec.mesh.extents.assign(f[0] == "mesh2d" ? 2 : 3, static_cast<int>(*side));
    spec.mesh.connectivity =
        f.size() == 4 ? Connectivity::full : Connectivity::faces;
    spec.partition =
        f[2] == "sfc" ? Partition::space_filling_curve : Partition::bisection;
    return spec;
  }
  return {};
}

Graph make_graph(const GraphSpec& spec, int processes) {
  switch (spec.kind) {
    case GraphSpec::Kind::erdos_renyi:
      return erdos_renyi(processes, spec.parameter, spec.seed);
    case GraphSpec::Kind::random_geometric:
      return random_geometric(processes, spec.parameter, spec.seed);
    case GraphSpec::Kind::mesh:
      return mesh_graph(spec.mesh, processes, spec.partition);
  }
  return {};
}

}  // namespace experiments
