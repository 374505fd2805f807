// Seeded communication graphs that are not stencils, for measuring
// neighbourhood collectives on general sparse graphs (MPI-free): Erdős–Rényi
// directed graphs, random geometric graphs, and the graphs of a partitioned
// 2-d or 3-d mesh (what an SpMV or a finite-element code exchanges). Every
// generator is a pure function of its arguments, so all processes that call
// it with the same seed get the same graph without communicating.
#ifndef ORTHOCOMM_EXPERIMENTS_SPARSE_GRAPHS_H_
#define ORTHOCOMM_EXPERIMENTS_SPARSE_GRAPHS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace experiments {

// graph[r]: the ranks that rank r sends to (its out-neighbours), ascending,
// each at most once.
using Graph = std::vector<std::vector<int>>;

enum class SelfLoops { no, yes };

// Each ordered pair (p, q), p != q, is an edge with probability `density`
// (and each (p, p) too with SelfLoops::yes; the other edges do not depend on
// it). density in [0, 1].
Graph erdos_renyi(int processes, double density, std::uint64_t seed,
                  SelfLoops self_loops = SelfLoops::no);

// Process p is a point drawn uniformly in the unit square (p = 0, 1, ... in
// turn, x then y); p and q (p != q) are joined both ways where their
// Euclidean distance is below `radius`.
Graph random_geometric(int processes, double radius, std::uint64_t seed);

// How the vertices of a mesh are cut into parts.
enum class Partition {
  // Recursive coordinate bisection: halve the longest side of the vertex
  // set's bounding box (the lower axis on ties), giving the lower half
  // floor(parts / 2) / parts of the vertices, and recurse.
  bisection,
  // Morton (Z-order) curve: vertices in curve order, cut into `parts`
  // consecutive runs of equal size (part p: [p V / parts, (p + 1) V / parts)).
  // The parts are irregular unless the sides are powers of two that fit.
  space_filling_curve,
};

// Which mesh vertices are adjacent.
enum class Connectivity {
  faces,  // differ by 1 in one coordinate (5-point in 2-d, 7-point in 3-d)
  full,   // differ by at most 1 in each (9-point / 27-point: Q1 elements)
};

// A structured, non-periodic mesh of extents[0] x extents[1] (x ...) vertices
// (2 or 3 extents, each > 0); vertex (x, y, z) has index x + n0 (y + n1 z).
struct Mesh {
  std::vector<int> extents;
  Connectivity connectivity = Connectivity::faces;
};

// The part (0 .. parts - 1) of every vertex, by index. parts in [1, V].
std::vector<int> mesh_partition(const Mesh& mesh, int parts,
                                Partition partition);

// The parts' communication graph: p -> q where a vertex of part p is
// adjacent to one of part q (p != q). Symmetric.
Graph mesh_graph(const Mesh& mesh, int parts, Partition partition);

// The in-neighbours (sources) of every rank, ascending: the graph reversed.
Graph reversed(const Graph& graph);

// The number of directed edges.
std::int64_t edge_count(const Graph& graph);

// A graph named as the benchmarks name it:
//   er_D_sS          erdos_renyi(P, D, S)               e.g. er_0.1_s1
//   geo_R_sS         random_geometric(P, R, S)          e.g. geo_0.4_s1
//   meshKd_N_PART    an N^K mesh (K = 2, 3), faces,     e.g. mesh2d_64_sfc
//   meshKd_N_PART_full   the same with Connectivity::full
// where PART is sfc (space_filling_curve) or rcb (bisection).
struct GraphSpec {
  enum class Kind { erdos_renyi, random_geometric, mesh };
  Kind kind = Kind::erdos_renyi;
  double parameter = 0.0;  // density or radius
  std::uint64_t seed = 0;
  Mesh mesh;  // Kind::mesh
  Partition partition = Partition::space_filling_curve;
};

// nullopt where `name` is not of a form above (or a value out of range).
std::optional<GraphSpec> parse_graph_spec(std::string_view name);

// The graph `spec` names on `processes` ranks. For a mesh, at least as many
// vertices as processes.
Graph make_graph(const GraphSpec& spec, int processes);

}  // namespace experiments

#endif  // ORTHOCOMM_EXPERIMENTS_SPARSE_GRAPHS_H_
