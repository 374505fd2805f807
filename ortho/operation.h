// The collective operations of ortho's one set of interfaces (the paper,
// section 2: MPI's 17, plus allgatherw) and the structures each is defined
// on.
#ifndef ORTHOCOMM_ORTHO_OPERATION_H_
#define ORTHOCOMM_ORTHO_OPERATION_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "classic/exec/mode.h"
#include "ortho/structure.h"

namespace ortho {

enum class Operation : std::uint8_t {
  barrier,
  bcast,
  gather,
  gatherv,
  scatter,
  scatterv,
  allgather,
  allgatherv,
  allgatherw,
  alltoall,
  alltoallv,
  alltoallw,
  reduce,
  allreduce,
  reduce_scatter,
  reduce_scatter_block,
  scan,
  exscan,
};

inline constexpr std::size_t kOperationCount = 18;

// Every operation, in declaration order.
const std::array<Operation, kOperationCount>& all_operations();

// "allgather"; the inverse, for the ORTHO_ALGORITHM override.
std::string_view to_string(Operation operation);
std::optional<Operation> operation_named(std::string_view name);

// "ortho::allgather", "ortho::iallgather", "ortho::allgather_init": the
// function a caller used, for error messages; on a graph's reverse
// (ortho/reverse.h) "ortho::allgather(ortho::reverse)" and so on.
const char* function_name(Operation operation, classic::Mode mode,
                          bool reverse = false);

// Whether `operation` has a meaning on `structure` (docs/design.md, "What a
// collective means"): scan and exscan are undefined on bipartite and directed
// graphs, reduce_scatter(_block) on directed graphs, allgatherw everywhere
// but on directed graphs.
bool defined_on(Operation operation, Structure structure);

}  // namespace ortho

#endif  // ORTHOCOMM_ORTHO_OPERATION_H_
