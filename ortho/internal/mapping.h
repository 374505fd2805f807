// The mapping step of ortho's graph constructors (ortho/mapping.h says what
// it does): run when Reorder::yes is asked, before the graph communicator
// is made.
#ifndef ORTHOCOMM_ORTHO_INTERNAL_MAPPING_H_
#define ORTHOCOMM_ORTHO_INTERNAL_MAPPING_H_

#include <optional>
#include <span>
#include <vector>

#include "classic/comm/comm.h"
#include "classic/topology/topology.h"
#include "ortho/internal/inside_ortho.h"
#include "ortho/internal/table.h"

namespace ortho::internal {

// One process's adjacency, as dist_graph_create_adjacent takes it.
struct Adjacency {
  std::vector<int> sources;
  std::vector<int> source_weights;
  std::vector<int> destinations;
  std::vector<int> destination_weights;
  bool weighted = false;
};

struct Mapping {
  // The mapped graph communicator, ready (base and table); std::nullopt on
  // every process where ortho/mapping.h says the order stays.
  std::optional<classic::Comm> graph;
  // What the placement found (for the table of the graph made without
  // mapping, where there is none).
  MappingFacts facts;
};

// The mapping of the graph made from `comm` and this process's adjacency.
// `host_of_rank` is where comm's ranks run (classic::locality; tests pass
// other placements). Collective over comm.
Mapping map_graph(const classic::Comm& comm, const Adjacency& adjacency,
                  const classic::Info& info, std::span<const int> host_of_rank);

}  // namespace ortho::internal

#endif  // ORTHOCOMM_ORTHO_INTERNAL_MAPPING_H_
