#include "ortho/strict.h"

#include "classic/base/environment_flag.h"
#include "classic/base/error.h"
#include "classic/p2p/peer_restriction.h"
#include "ortho/internal/table.h"
#include "ortho/structure.h"

namespace ortho {

void set_strict(const classic::Comm& graph, bool on) {
  constexpr const char* kFunction = "ortho::set_strict";
  if (ortho::topo_test(graph) != Structure::directed_graph) {
    throw classic::Error(classic::ErrorClass::topology, kFunction,
                         "graph is not a directed-graph communicator");
  }
  if (!on) {
    classic::unrestrict_peers(graph);
    return;
  }
  const Table& table = internal::table_of(graph, kFunction);
  classic::restrict_peers(graph, table.sources, table.destinations);
}

bool strict(const classic::Comm& comm) {
  return classic::peers_restricted(comm);
}

namespace internal {

void apply_strict_environment(const classic::Comm& graph) {
  if (classic::environment_flag("ORTHO_STRICT", "ortho (environment)")) {
    set_strict(graph, true);
  }
}

}  // namespace internal
}  // namespace ortho
