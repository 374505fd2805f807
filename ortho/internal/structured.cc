#include "ortho/internal/structured.h"

#include <utility>

#include "ortho/internal/graph_facts.h"
#include "ortho/strict.h"

namespace ortho {
namespace internal {

classic::Comm structured(classic::Comm graph, classic::Comm base,
                         const classic::Comm* named,
                         const MappingFacts& mapping) {
  if (base.is_null()) base = graph.create(graph.group());
  GraphFacts facts = analyse_graph(graph, named);
  Table table = make_table(graph, Structure::directed_graph, std::move(base),
                           std::move(facts));
  table.mapping = mapping;
  attach(graph, std::move(table));
  apply_strict_environment(graph);
  return graph;
}

classic::Comm structured(classic::Comm graph, classic::Comm base,
                         const classic::Comm* named) {
  return structured(std::move(graph), std::move(base), named, MappingFacts{});
}
}  // namespace internal
}  // namespace ortho
