#include "ortho/structure.h"

#include "classic/base/error.h"
#include "classic/topology/topology.h"

namespace ortho {

std::string_view to_string(Structure structure) {
  switch (structure) {
    case Structure::bipartite:
      return "bipartite";
    case Structure::directed_graph:
      return "directed graph";
    case Structure::fully_connected:
      break;
  }
  return "fully connected";
}

Structure topo_test(const classic::Comm& comm) {
  if (comm.is_null()) {
    throw classic::Error(classic::ErrorClass::comm, "ortho::topo_test",
                         "comm is the null communicator");
  }
  if (comm.is_inter()) return Structure::bipartite;
  return classic::topo_test(comm) == classic::TopologyKind::undefined
             ? Structure::fully_connected
             : Structure::directed_graph;
}

}  // namespace ortho
