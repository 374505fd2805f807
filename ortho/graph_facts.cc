#include "ortho/graph_facts.h"

#include <vector>

#include "naming/cart_name.h"
#include "ortho/algorithms/combining.h"
#include "ortho/table.h"

namespace ortho::internal {

GraphFacts analyse_graph(const classic::Comm& graph,
                         const classic::Comm* named) {
  GraphFacts facts;
  if (named != nullptr && naming::cart_testall(*named)) {
    std::vector<int> sources;
    std::vector<int> destinations;
    read_neighbours(graph, sources, destinations);
    facts.combining = algorithms::detect_combining(
        graph, naming::cart_get(*named), destinations, sources);
  }
  return facts;
}

}  // namespace ortho::internal
