// The per-communicator table of ortho (docs/design.md, "Chosen once"): the
// structure, the base communicator, the neighbours, and for each operation
// the algorithm chosen when ortho first met the communicator. A call costs
// one lookup of this table. Internal to ortho; ortho/table.h is the public
// face (overrides and what is selected).
#ifndef ORTHOCOMM_ORTHO_INTERNAL_TABLE_H_
#define ORTHOCOMM_ORTHO_INTERNAL_TABLE_H_

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "classic/p2p/request.h"
#include "ortho/call.h"
#include "ortho/internal/call_shape.h"
#include "ortho/internal/choice.h"
#include "ortho/internal/graph_facts.h"
#include "ortho/internal/inside_ortho.h"
#include "ortho/internal/last_plan.h"
#include "ortho/internal/tuning.h"
#include "ortho/mapping.h"
#include "ortho/operation.h"
#include "ortho/structure.h"
#include "ortho/table.h"

namespace ortho {

struct Table;

// An operation's last size-aware selection, for the next call with the
// same arguments in the same mode (the dispatch's: ortho/collectives.cc).
// Not where the processes agree on the size, which depends on the others'
// arguments too.
struct LastSelection {
  std::uint64_t shape = 0;  // its call's number (internal/call_shape.h)
  classic::Mode mode = classic::Mode::blocking;
  Algorithm algorithm;
};

// What Reorder::yes found when a graph communicator was made
// (ortho/mapping.h).
struct MappingFacts {
  Placement placement = Placement::kept;
  KeptBecause kept_because = KeptBecause::not_asked;
  std::optional<HostTraffic> identity;
  std::optional<HostTraffic> best_blocks;
  std::optional<HostTraffic> scotch;
  // Where mapped: the rank in the communicator the graph was made from of
  // each new rank (empty: the identity).
  std::vector<int> old_rank;

  bool mapped() const { return placement != Placement::kept; }
};

// Shared (enable_shared_from_this) so that an operation that outlives its
// call keeps the table it plans from.
struct Table : std::enable_shared_from_this<Table> {
  Structure structure = Structure::fully_connected;
  // Null for a fully connected communicator (its own base: holding a
  // handle to itself in its own attribute would keep it alive forever).
  classic::Comm base;
  // Directed graphs: the in- and out-neighbours in the order that places
  // blocks (proc_null at the borders of a classic Cartesian topology).
  std::vector<int> sources;
  std::vector<int> destinations;
  // Which of a sender's blocks a receive block pairs with where two
  // neighbours are one process: on a classic Cartesian topology by
  // direction (MPI-4.1 7.6: block 2d comes from the neighbour at -1 in
  // dimension d, which sent it toward +1), on graphs by order.
  bool cartesian = false;
  // A directed graph whose repeated neighbours pair by order: what the
  // algorithms that list edges by (source, occurrence) serve.
  bool pairs_by_order() const {
    return structure == Structure::directed_graph && !cartesian;
  }
  // Directed graphs on a Cartesian grid that every process names alike (a
  // classic Cartesian topology, a graph made from ortho's Cartesian naming):
  // that grid, on which the algorithms' analyses look for a common stencil.
  std::optional<CartesianGrid> grid;
  // Directed graphs made with Reorder::yes: what the mapping found.
  MappingFacts mapping;
  // A directed graph's reverse view (ortho/reverse.h): sources and
  // destinations swapped, made from the graph's table without any
  // communication, so only the algorithms that plan from the neighbour
  // lists alone serve it (Registration::reversible).
  bool reverse = false;
  // A directed graph's table: its reverse view, made by the first reverse
  // call (the table's copies share it; an override drops it).
  mutable std::shared_ptr<const Table> reversed;
  // The spec of the last ortho::set_algorithm, which the reverse view
  // applies too.
  std::string override_spec;
  // Directed graphs: the host of each rank (internal::host_layout).
  std::vector<int> host_of_rank;
  std::array<Choice, kOperationCount> choices{};
  // Per operation, whether an override forces its algorithm (then it is
  // never tuned, even where the algorithm is the default).
  std::array<bool, kOperationCount> forced{};
  // The choices before any override, which an empty override restores.
  std::array<Choice, kOperationCount> default_choices{};
  // Per operation, the algorithms the chooser weighed, with their prices
  // (internal/choose.h), for ortho::explain.
  std::array<std::vector<Candidate>, kOperationCount> candidates{};
  // Per operation, every algorithm it has on this communicator, the
  // default first: those an override may force.
  std::array<std::vector<Algorithm>, kOperationCount> available{};
  // Per operation, its last call's key and number (internal/call_shape.h).
  mutable std::array<internal::LastShape, kOperationCount> last_shapes{};
  // Per operation, the plan of its last call, for the algorithms that
  // build plans from a call's arguments (internal/last_plan.h). Calls on
  // a communicator are not concurrent (MPI), so a const table may keep it.
  mutable std::array<internal::LastPlans, kOperationCount> last_plans{};
  // Each algorithm's own state on this communicator (its analysis, made
  // with the table by Registration::analyse, or what its first call made),
  // kept with the table (its copies share it): keyed by an address of the
  // algorithm's own. A reference from state_of is valid until the next
  // state_of of another key.
  mutable std::vector<std::pair<const void*, std::shared_ptr<void>>>
      algorithm_states;
  std::shared_ptr<void>& state_of(const void* key) const {
    for (auto& [owner, state] : algorithm_states) {
      if (owner == key) return state;
    }
    return algorithm_states.emplace_back(key, nullptr).second;
  }
  // The state of `key`, or null where it has none (adds no slot; on the
  // hot path: no reference count touched).
  void* find_state(const void* key) const {
    const std::shared_ptr<void>* slot = state_slot(key);
    return slot != nullptr ? slot->get() : nullptr;
  }
  // The same, shared: it outlives the table where the caller keeps it.
  std::shared_ptr<void> shared_state(const void* key) const {
    const std::shared_ptr<void>* slot = state_slot(key);
    return slot != nullptr ? *slot : nullptr;
  }
  const std::shared_ptr<void>* state_slot(const void* key) const {
    for (const auto& [owner, state] : algorithm_states) {
      if (owner == key) return &state;
    }
    return nullptr;
  }
  // What tuning measured and decided (internal/tuning.h).
  mutable internal::Tuning tuning;
  // Per operation, its last size-aware selection (an override clears them).
  mutable std::array<LastSelection, kOperationCount> last_selections{};

  // Makes `algorithm` one an override may force for `operation`.
  void offer(Operation operation, const Algorithm& algorithm) {
    std::vector<Algorithm>& list =
        available[static_cast<std::size_t>(operation)];
    if (std::find(list.begin(), list.end(), algorithm) == list.end()) {
      list.push_back(algorithm);
    }
  }

  // How many hosts host_of_rank names (1 where it is empty).
  int hosts() const {
    return host_of_rank.empty() ? 1
                                : 1 + *std::max_element(host_of_rank.begin(),
                                                        host_of_rank.end());
  }

  const Choice& choice(Operation operation) const {
    return choices[static_cast<std::size_t>(operation)];
  }
  Choice& choice(Operation operation) {
    return choices[static_cast<std::size_t>(operation)];
  }
};

namespace internal {

// The number of `call`'s arguments on `table` (internal/call_shape.h).
inline std::uint64_t shape_of(const Table& table, const Call& call) {
  return shape_of(table.last_shapes[static_cast<std::size_t>(call.operation)],
                  call);
}

// The table of `comm`, prepared now if it has none (collective where
// ortho::prepare says so). Valid while comm has it.
const Table& table_of(const classic::Comm& comm, const char* function);

// The in- and out-neighbours of a communicator with classic's graph,
// Cartesian or distributed graph topology, in MPI-4.1's order. Local.
void read_neighbours(const classic::Comm& comm, std::vector<int>& sources,
                     std::vector<int>& destinations);

// The table of comm's reverse view (ortho/reverse.h), made now if comm has
// none: comm's own where comm is a classic Cartesian topology. Local.
// Throws classic::Error: topology, in the name of `function`, where comm is
// no directed graph; what table_of and apply_override throw.
const Table& reverse_table_of(const classic::Comm& comm, const char* function);

// A share of `table` (attached to its communicator, or a graph's reverse
// table), for an operation that outlives its call and plans from the table
// later (a non-blocking call's second plan). classic::Error (intern) for a
// table that no shared pointer owns.
std::shared_ptr<const Table> shared_table(const Table& table,
                                          const char* function);

// A table for `comm` of `structure` (with its neighbours read from classic's
// topology, and the grid and hosts of `facts`), `base` as its base: every
// registered algorithm's analysis run (in registry order), what each offers
// priced and chosen among (internal/choose.h), the ORTHO_ALGORITHM override
// applied. Collective over `comm` where an algorithm analyses the table
// (Registration::analyse: combining's stencil detection on a grid,
// node_aware on a graph that spans several hosts); local otherwise.
Table make_table(const classic::Comm& comm, Structure structure,
                 classic::Comm base, GraphFacts facts = {});

// The block size a size-aware choice compares with its crossover: the
// bytes of the caller's send block (count times the datatype's size; for
// typed calls the span, divided by the out-degree where it holds one block
// per destination; the largest block for v and w variants, which a choice
// with agreed_size then agrees on). Local.
std::size_t block_bytes(const Call& call, const Table& table);

// The block size that `choice` selects by for `call` on `comm`: 0 where the
// selection does not depend on it, block_bytes() otherwise, its maximum over
// comm where the choice says the sizes must be agreed on (collective then).
std::size_t selection_bytes(const classic::Comm& comm, const Choice& choice,
                            const Call& call, const Table& table);

// Attaches `table` to `comm` (replacing any): ortho's constructors call
// this once they have made the communicator and its base.
void attach(const classic::Comm& comm, Table table);

// Where an override applies: to one communicator (set_algorithm: an
// operation without the named algorithm on its structure is an error), or
// to every table of the program (ORTHO_ALGORITHM: such an item is left out
// on the structures that do not offer it; an unknown operation or
// algorithm is still an error).
enum class Scope { one_communicator, every_table };

// Applies an override (the syntax of ORTHO_ALGORITHM, documented at
// ortho::set_algorithm) to `table`; `source` names where it came from in
// error messages.
void apply_override(Table& table, std::string_view spec,
                    std::string_view source, const char* function, Scope scope);

}  // namespace internal

}  // namespace ortho

#endif  // ORTHOCOMM_ORTHO_INTERNAL_TABLE_H_
