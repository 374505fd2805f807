#include "ortho/internal/table.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "classic/base/constants.h"
#include "classic/base/datatype_layout.h"
#include "classic/base/error.h"
#include "classic/collectives/collectives.h"
#include "classic/comm/typed_keyval.h"
#include "classic/graph/dist_graph.h"
#include "classic/graph/graph.h"
#include "classic/intercomm/intercomm.h"
#include "classic/topology/cartesian.h"
#include "classic/topology/topology.h"
#include "ortho/algorithms/checks.h"
#include "ortho/algorithms/registry.h"
#include "ortho/internal/choose.h"
#include "ortho/internal/exchange.h"

namespace ortho {
namespace internal {
namespace {

using classic::Error;
using classic::ErrorClass;

// Shared by a communicator and its duplicates; set_algorithm replaces the
// pointer of one communicator with a changed copy.
using TablePointer = std::shared_ptr<const Table>;

[[gnu::hot]] const classic::Keyval<TablePointer>& table_keyval() {
  static const classic::Keyval<TablePointer> keyval(classic::OnDup::copy);
  return keyval;
}

[[gnu::hot]] const Table* find_table(const classic::Comm& comm) {
  const TablePointer* found = table_keyval().get(comm);
  return found == nullptr ? nullptr : found->get();
}

// The local group's communicator of an inter-communicator: the merged
// communicator split by side (the side named by its rank 0's place in the
// merged order). Collective over both groups.
classic::Comm local_group_comm(const classic::Comm& intercomm) {
  classic::Comm merged =
      classic::intercomm_merge(intercomm, classic::Merge::low);
  const int local_root = 0;
  const int color = intercomm.group().translate_ranks(std::span(&local_root, 1),
                                                      merged.group())[0];
  classic::Comm local = merged.split(color, intercomm.rank());
  merged.free();
  return local;
}

bool known_algorithm(std::string_view name) {
  const auto names = algorithms::registered_names();
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::string known_list() {
  std::string list;
  for (std::string_view name : algorithms::registered_names()) {
    if (!list.empty()) list += ", ";
    list += name;
  }
  return list;
}

// Forces `name` for `operation`; false when the operation has no
// algorithm of that name here.
bool force(Table& table, Operation operation, std::string_view name) {
  const std::vector<Algorithm>& available =
      table.available[static_cast<std::size_t>(operation)];
  const auto found =
      std::find_if(available.begin(), available.end(),
                   [name](const Algorithm& a) { return a.name == name; });
  if (found == available.end()) return false;
  table.choice(operation) = Choice::only(*found);
  table.forced[static_cast<std::size_t>(operation)] = true;
  return true;
}

void apply_item(Table& table, std::string_view item, std::string_view source,
                const char* function, Scope scope) {
  const std::size_t equals = item.find('=');
  const std::string_view name =
      equals == std::string_view::npos ? item : item.substr(equals + 1);
  if (!known_algorithm(name)) {
    throw Error(ErrorClass::arg, function,
                std::string(source) + ": '" + std::string(name) +
                    "' is no algorithm (known: " + known_list() + ")");
  }
  if (equals == std::string_view::npos) {
    for (Operation operation : all_operations()) {
      (void)force(table, operation, name);
    }
    return;
  }
  const std::string_view operation_name = item.substr(0, equals);
  const std::optional<Operation> operation = operation_named(operation_name);
  if (!operation) {
    throw Error(ErrorClass::arg, function,
                std::string(source) + ": '" + std::string(operation_name) +
                    "' is no operation");
  }
  if (!force(table, *operation, name)) {
    // The environment's override meets every table of the program: it
    // forces an algorithm where the structure offers it, and leaves the
    // others (a fully connected comm_base under alltoallw=direct) alone.
    if (scope == Scope::every_table) return;
    throw Error(ErrorClass::arg, function,
                std::string(source) + ": " + std::string(operation_name) +
                    " has no algorithm '" + std::string(name) + "' on a " +
                    std::string(to_string(table.structure)) + " communicator");
  }
}

}  // namespace

void read_neighbours(const classic::Comm& comm, std::vector<int>& sources,
                     std::vector<int>& destinations) {
  switch (classic::topo_test(comm)) {
    case classic::TopologyKind::dist_graph: {
      classic::DistGraphNeighbors neighbours =
          classic::dist_graph_neighbors(comm);
      sources = std::move(neighbours.sources);
      destinations = std::move(neighbours.destinations);
      return;
    }
    case classic::TopologyKind::graph:
      sources = classic::graph_neighbors(comm, comm.rank());
      destinations = sources;
      return;
    case classic::TopologyKind::cartesian:
      sources.clear();
      for (int d = 0; d < classic::cartdim_get(comm); ++d) {
        const classic::CartShift shift = classic::cart_shift(comm, d, 1);
        sources.insert(sources.end(), {shift.source, shift.destination});
      }
      destinations = sources;
      return;
    case classic::TopologyKind::undefined:
      return;
  }
}

void apply_override(Table& table, std::string_view spec,
                    std::string_view source, const char* function,
                    Scope scope) {
  table.choices = table.default_choices;
  table.forced = {};
  table.last_selections = {};
  while (!spec.empty()) {
    const std::size_t comma = spec.find(',');
    const std::string_view item = spec.substr(0, comma);
    if (!item.empty()) apply_item(table, item, source, function, scope);
    spec = comma == std::string_view::npos ? std::string_view{}
                                           : spec.substr(comma + 1);
  }
  allow_tuning(table);
}

Table make_table(const classic::Comm& comm, Structure structure,
                 classic::Comm base, GraphFacts facts) {
  Table table;
  table.structure = structure;
  table.base = std::move(base);
  if (structure == Structure::directed_graph) {
    read_neighbours(comm, table.sources, table.destinations);
    table.cartesian =
        classic::topo_test(comm) == classic::TopologyKind::cartesian;
  }
  table.grid = std::move(facts.grid);
  table.host_of_rank = std::move(facts.host_of_rank);
  for (const algorithms::Registration* registration : algorithms::registry()) {
    if (registration->analyse != nullptr) registration->analyse(comm, table);
  }
  choose(table);
  if (const char* spec = std::getenv("ORTHO_ALGORITHM")) {
    apply_override(table, spec, std::string("ORTHO_ALGORITHM = '") + spec + "'",
                   "ortho (environment)", Scope::every_table);
  }
  return table;
}

namespace {

// comm's reverse view from its table: the lists swapped, the algorithms
// that serve a reverse offered and chosen among (no analysis: nothing is
// exchanged; what the graph's analyses learnt, turned around), the graph's
// override or the environment's applied.
Table make_reverse_table(const Table& forward, const char* function) {
  Table table;
  table.structure = forward.structure;
  table.base = forward.base;
  table.reverse = true;
  table.sources = forward.destinations;
  table.destinations = forward.sources;
  table.host_of_rank = forward.host_of_rank;
  for (const algorithms::Registration* registration : algorithms::registry()) {
    if (registration->reversible && registration->reverse != nullptr) {
      registration->reverse(forward, table);
    }
  }
  choose(table);
  if (!forward.override_spec.empty()) {
    apply_override(table, forward.override_spec,
                   "spec = '" + forward.override_spec +
                       "' (set on the graph, applied to its reverse)",
                   function, Scope::one_communicator);
  } else if (const char* spec = std::getenv("ORTHO_ALGORITHM")) {
    apply_override(table, spec, std::string("ORTHO_ALGORITHM = '") + spec + "'",
                   "ortho (environment)", Scope::every_table);
  }
  return table;
}

}  // namespace

const Table& reverse_table_of(const classic::Comm& comm, const char* function) {
  const Table& forward = table_of(comm, function);
  if (forward.structure != Structure::directed_graph) [[unlikely]] {
    throw Error(ErrorClass::topology, function,
                "ortho::reverse(comm): comm is a " +
                    std::string(to_string(forward.structure)) +
                    " communicator; only a directed graph's exchanges run in "
                    "reverse");
  }
  // MPI pairs a Cartesian topology's blocks by direction: with every edge
  // turned around, each block goes where it went.
  if (forward.cartesian) return forward;
  if (forward.reversed == nullptr) [[unlikely]] {
    forward.reversed =
        std::make_shared<const Table>(make_reverse_table(forward, function));
  }
  return *forward.reversed;
}

std::size_t block_bytes(const Call& call, const Table& table) {
  const SendSide& send = call.send;
  const auto bytes_of = [&call](int count, MPI_Datatype datatype) {
    if (count <= 0 || datatype == MPI_DATATYPE_NULL) return std::size_t{0};
    return static_cast<std::size_t>(count) *
           static_cast<std::size_t>(
               classic::datatype_layout(datatype, call.function()).size);
  };
  if (!send.counts.empty()) {  // v and w variants: the largest block
    std::size_t largest = 0;
    for (std::size_t i = 0; i < send.counts.size(); ++i) {
      MPI_Datatype datatype =
          i < send.datatypes.size() ? send.datatypes[i] : send.datatype;
      largest = std::max(largest, bytes_of(send.counts[i], datatype));
    }
    return largest;
  }
  const bool graph = table.structure == Structure::directed_graph;
  const bool per_destination = graph && call.operation == Operation::alltoall;
  if ((per_destination || (graph && call.operation == Operation::allgather)) &&
      table.destinations.empty()) {
    // No destinations: MPI binds this process's send arguments to nothing,
    // so the block size (the same along every edge) comes from the receive
    // side, and this process chooses as its neighbours do; 0 without any
    // edge, where every algorithm has nothing to send.
    const RecvSide& recv = call.recv;
    if (table.sources.empty()) return 0;
    if (call.form == Form::raw) return bytes_of(recv.count, recv.datatype);
    return recv.elements * recv.element_bytes / table.sources.size();
  }
  if (call.form == Form::raw) return bytes_of(send.count, send.datatype);
  if (send.data == MPI_IN_PLACE) {  // the block is the receive buffer's
    return call.recv.elements * call.recv.element_bytes;
  }
  const std::size_t bytes = send.elements * send.element_bytes;
  return per_destination ? bytes / table.destinations.size() : bytes;
}

std::size_t selection_bytes(const classic::Comm& comm, const Choice& choice,
                            const Call& call, const Table& table) {
  if (!choice.sized(call.mode)) return 0;
  if (!choice.agreed_size) return block_bytes(call, table);
  // The processes agree on the largest block below. A process whose
  // arguments are wrong raises here, before it joins the agreement: the
  // normalisation checks them all.
  const algorithms::Checks check(comm, call);
  const auto local = static_cast<std::uint64_t>(
      algorithms::normalise(table, call, check).largest_send_bytes);
  std::uint64_t largest = 0;
  classic::allreduce(comm, std::span<const std::uint64_t>(&local, 1),
                     std::span<std::uint64_t>(&largest, 1), MPI_MAX);
  return static_cast<std::size_t>(largest);
}

std::shared_ptr<const Table> shared_table(const Table& table,
                                          const char* function) {
  std::shared_ptr<const Table> shared = table.weak_from_this().lock();
  if (shared == nullptr) {
    throw Error(ErrorClass::intern, function,
                "a table outside the communicator's attribute");
  }
  return shared;
}

void attach(const classic::Comm& comm, Table table) {
  classic::Comm handle = comm;  // the same communicator
  table_keyval().set(handle, std::make_shared<const Table>(std::move(table)));
}

namespace {

// Makes comm's table and attaches it (collective where comm_base says).
void make_and_attach_table(const classic::Comm& comm) {
  const Structure structure = ortho::topo_test(comm);
  classic::Comm base;
  GraphFacts facts;
  if (structure == Structure::bipartite) {
    base = internal::local_group_comm(comm);
  } else if (structure == Structure::directed_graph) {
    base = comm.create(comm.group());
    if (classic::topo_test(comm) == classic::TopologyKind::cartesian) {
      facts = internal::analyse_cartesian(comm);
    }
    facts.host_of_rank = internal::host_layout(comm);
  }
  internal::attach(comm, internal::make_table(comm, structure, std::move(base),
                                              std::move(facts)));
}

}  // namespace

[[gnu::hot]] const Table& table_of(const classic::Comm& comm,
                                   const char* function) {
  if (comm.is_null()) [[unlikely]] {
    throw Error(ErrorClass::comm, function, "comm is the null communicator");
  }
  const Table* table = nullptr;
  try {
    table = find_table(comm);
  } catch (const Error& error) {
    // A freed communicator: classic names its attribute lookup; the user
    // called `function`.
    throw error.raised_by(function);
  }
  if (table != nullptr) [[likely]] {
    return *table;
  }
  make_and_attach_table(comm);
  return *find_table(comm);
}

}  // namespace internal

void prepare(const classic::Comm& comm) {
  // table_of prepares a table where there is none, and raises for a null
  // or freed comm in the name of the caller.
  (void)internal::table_of(comm, "ortho::prepare");
}

classic::Comm comm_base(const classic::Comm& comm) {
  const Table& table = internal::table_of(comm, "ortho::comm_base");
  return table.base.is_null() ? comm : table.base;
}

void set_algorithm(const classic::Comm& comm, std::string_view spec) {
  Table changed = internal::table_of(comm, "ortho::set_algorithm");
  internal::apply_override(changed, spec, "spec = '" + std::string(spec) + "'",
                           "ortho::set_algorithm",
                           internal::Scope::one_communicator);
  changed.override_spec = std::string(spec);
  changed.reversed = nullptr;
  internal::attach(comm, std::move(changed));
}

std::string_view selected_algorithm(ExchangeComm comm, Operation operation,
                                    std::size_t block_bytes,
                                    classic::Mode mode) {
  constexpr const char* kFunction = "ortho::selected_algorithm";
  const Table& table = comm.reverse()
                           ? internal::reverse_table_of(comm.comm(), kFunction)
                           : internal::table_of(comm.comm(), kFunction);
  const Choice& choice = table.choice(operation);
  if (!choice.defined()) return {};
  if (const internal::Tuned* tuned =
          internal::tuned_for(table, operation, mode, block_bytes)) {
    return tuned->winner.name;
  }
  return choice.select(block_bytes, mode).name;
}

}  // namespace ortho
