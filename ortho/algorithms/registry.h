// The one list of ortho's algorithms. Each algorithm is one file under
// ortho/algorithms/ (a family of files: one folder, e.g. node_aware/) that
// defines its Registration (its name, its run and what it offers and what
// it costs); registry.cc lists the registrations,
// and ortho/table.cc builds every table from that list alone, knowing no
// algorithm by name: internal/choose.h takes, at each block size and mode,
// the algorithm with the lowest price. Adding one: docs/algorithms.md, "Adding
// an algorithm".
#ifndef ORTHOCOMM_ORTHO_ALGORITHMS_REGISTRY_H_
#define ORTHOCOMM_ORTHO_ALGORITHMS_REGISTRY_H_

#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "ortho/internal/inside_ortho.h"
#include "ortho/internal/table.h"
#include "ortho/operation.h"
#include "ortho/traffic.h"

namespace ortho::algorithms {

// What an algorithm's calls cost (internal/choice.h); choose()
// (internal/choose.h) compares every algorithm's.
using ortho::Pricer;

struct Registration {
  // The name ORTHO_ALGORITHM and ortho::set_algorithm use, and the run.
  Algorithm algorithm;
  // Offers the algorithm on a new table (Table::offer) for the operations
  // it implements on the table's structure: an override may force it
  // there, and where it has a price, choose() weighs it for the default.
  // It may offer algorithms of its own family under its name (combining's
  // plans for the v and w forms).
  void (*offer)(Table& table) = nullptr;
  // What the algorithm (or the one it offered for `operation`) costs on
  // `table`; an empty Pricer where it never competes for the default
  // (offered for overrides only). Null for algorithms that never do.
  Pricer (*price)(const Table& table, Operation operation) = nullptr;
  // Where the algorithm needs facts no single process has (e.g. the whole
  // graph), learns them for a new table before any offer: collective over
  // `comm`, on every process in registry order; what it learns stays in
  // the table. Null for most algorithms.
  void (*analyse)(const classic::Comm& comm, Table& table) = nullptr;
  // Where two algorithms are priced alike, the one that is the structure's
  // baseline (direct, native) is chosen.
  bool baseline = false;
  // Unpriced, but measured beside the priced candidates where the chooser
  // tunes a call (internal/tuning.h): the transport's own collectives,
  // which no model of ours prices.
  bool measured = false;
  // Serves a directed graph's reverse view (ortho/reverse.h): it plans from
  // the table's neighbour lists alone, or from what an analysis learnt for
  // the graph, turned around by that algorithm's `reverse` (its own, or
  // node_aware's graph for the algorithms that relay along it); it needs
  // no communication to set up and no communicator of its own, and is
  // offered on a reverse only where what it plans from is there.
  bool reversible = false;
  // For a reversible algorithm with state of its analysis: puts that state,
  // turned around, into a new reverse table, before any offer. Local (no
  // message). Null where the neighbour lists alone serve the reverse.
  void (*reverse)(const Table& forward, Table& reverse) = nullptr;
  // The traffic per process of one call of `operation` with blocks of
  // `block_bytes` in `mode`, exact from the algorithm's plans, for
  // ortho::traffic; nullopt where it is not known ahead of the call. Null
  // for algorithms whose traffic is never known.
  std::optional<ortho::Traffic> (*traffic)(const classic::Comm& comm,
                                           const Table& table,
                                           Operation operation,
                                           std::size_t block_bytes,
                                           classic::Mode mode) = nullptr;
};

// The registrations, in the order they analyse a table (neither what the
// analyses learn nor the choice depends on it).
std::span<const Registration* const> registry();

// The distinct names of the registered algorithms, in registry order (for
// the errors of an override).
std::vector<std::string_view> registered_names();

}  // namespace ortho::algorithms

#endif  // ORTHOCOMM_ORTHO_ALGORITHMS_REGISTRY_H_
