// The one list of ortho's algorithms. Each algorithm is one file under
// ortho/algorithms/ that defines its Registration (its name, its run and
// how it takes part in a new table); registry.cc lists the registrations,
// and ortho/table.cc builds every table from that list alone, knowing no
// algorithm by name. Adding one: docs/algorithms.md, "Adding an algorithm".
#ifndef ORTHOCOMM_ORTHO_ALGORITHMS_REGISTRY_H_
#define ORTHOCOMM_ORTHO_ALGORITHMS_REGISTRY_H_

#include <span>
#include <string_view>
#include <vector>

#include "ortho/internal/inside_ortho.h"
#include "ortho/internal/table.h"

namespace ortho::algorithms {

struct Registration {
  // The name ORTHO_ALGORITHM and ortho::set_algorithm use, and the run.
  Algorithm algorithm;
  // Makes the algorithm part of a new table: offers it (Table::offer) for
  // the operations it implements on the table's structure, which an
  // override may then force, and sets the table's choice where it should
  // run by default, from some block size on, or in some mode. Called in
  // registry order once the table knows its structure, neighbours and
  // stencil (Table::combining): a registration sees the choices of those
  // listed before it.
  void (*adopt)(Table& table) = nullptr;
  // Where the algorithm's choice needs facts no single process has (e.g.
  // the whole graph), learns them for a new table before any adopt:
  // collective over `comm`, on every process in registry order; what it
  // learns stays in the table. Null for most algorithms.
  void (*analyse)(const classic::Comm& comm, Table& table) = nullptr;
};

// The registrations, in the order they adopt a table.
std::span<const Registration* const> registry();

// The distinct names of the registered algorithms, in registry order (for
// the errors of an override).
std::vector<std::string_view> registered_names();

}  // namespace ortho::algorithms

#endif  // ORTHOCOMM_ORTHO_ALGORITHMS_REGISTRY_H_
