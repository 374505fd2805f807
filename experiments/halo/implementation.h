// Blocked stencil grids, MPI-free part: the implementations of the halo
// exchange that the experiments compare, by name (experiments/halo/
// exchange.h makes them), and the grid they run on.
#ifndef ORTHOCOMM_EXPERIMENTS_HALO_IMPLEMENTATION_H_
#define ORTHOCOMM_EXPERIMENTS_HALO_IMPLEMENTATION_H_

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "experiments/halo/decomposition.h"

namespace halo {

enum class Library { openmpi, ortho };
enum class Mode { blocking, persistent };
// ortho's alltoallw algorithm: as ortho selected it, or forced with
// ortho::set_algorithm. Open MPI's is always `selected`.
enum class Algorithm { selected, direct, combining };

struct Implementation {
  Library library = Library::ortho;
  Mode mode = Mode::blocking;
  Algorithm algorithm = Algorithm::selected;
  friend bool operator==(const Implementation&,
                         const Implementation&) = default;
};

// "openmpi", "openmpi-persistent", "ortho-direct",
// "ortho-combining-persistent", ...
std::string name(const Implementation& implementation);
// The inverse of name().
std::optional<Implementation> implementation_named(std::string_view name);
// Every implementation: Open MPI's first, then ortho's (direct, combining,
// selected), each blocking then persistent.
std::vector<Implementation> all_implementations();

// An n x n grid over a dims[0] x dims[1] process grid.
struct GridSpec {
  int n = 0;
  std::array<int, 2> dims{1, 1};
  Borders borders = Borders::fixed;
  // ortho's graph made with Reorder::yes (ortho/mapping.h): the processes
  // may be mapped onto the grid anew, each then holding the block of its
  // rank in the graph. Open MPI's communicators keep the world's order.
  bool reorder = false;
};

}  // namespace halo

#endif  // ORTHOCOMM_EXPERIMENTS_HALO_IMPLEMENTATION_H_
