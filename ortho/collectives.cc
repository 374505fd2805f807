// The one entry point of ortho's collectives (internal::run), to which every
// collective of ortho/forms_*.h hands its call, and the helpers of the typed
// forms that return the received data by value.
// The functions every call runs through, here and below it, are
// [[gnu::hot]]: placed together in the program's text, a call touches few
// of its pages (docs/call-path.md).
#include "ortho/collectives.h"

#include <optional>
#include <string>
#include <utility>

#include "classic/base/constants.h"
#include "classic/base/error.h"
#include "classic/collectives/checked.h"
#include "ortho/call.h"
#include "ortho/checked.h"
#include "ortho/internal/call_check.h"
#include "ortho/internal/rooted.h"
#include "ortho/internal/table.h"

namespace ortho {
namespace internal {

namespace {

// The algorithm the choice selects for this call, run.
[[gnu::hot]] classic::Request run_selected(const classic::Comm& comm,
                                           const Table& table,
                                           const Choice& choice,
                                           const Call& call) {
  if (table.tuning.allowed[static_cast<std::size_t>(call.operation)] &&
      call.mode != classic::Mode::nonblocking) {
    if (std::optional<classic::Request> tuned = run_tuned(comm, table, call)) {
      return std::move(*tuned);
    }
  }
  const Choice::Steps& steps = choice.in(call.mode);
  if (steps.size() == 1) [[likely]] {
    return steps.front().algorithm.run(comm, table, call);
  }
  if (choice.agreed_size) {
    const std::size_t bytes = selection_bytes(comm, choice, call, table);
    return choice.select(bytes, call.mode).run(comm, table, call);
  }
  LastSelection& last =
      table.last_selections[static_cast<std::size_t>(call.operation)];
  const std::uint64_t shape = shape_of(table, call);
  if (last.mode != call.mode || !same_shape(last.shape, shape)) {
    last.algorithm =
        choice.select(selection_bytes(comm, choice, call, table), call.mode);
    last.mode = call.mode;
    last.shape = shape;
  }
  return last.algorithm.run(comm, table, call);
}

// The rooted operations on a directed graph, normalised before the choice
// (internal/rooted.h); the exchanges are normalised where their algorithm
// makes a plan (internal/exchange.h), and before any agreement on their
// size. Out of line: the exchanges' path keeps no Call copy on its stack.
[[gnu::noinline]] classic::Request run_rooted(const classic::Comm& comm,
                                              const Table& table,
                                              const Choice& choice,
                                              const Call& call) {
  const algorithms::Neighbourhood n{comm.rank(), table.sources,
                                    table.destinations};
  return run_selected(
      comm, table, choice,
      algorithms::normalise_rooted(n, call, algorithms::Checks(comm, call)));
}

[[gnu::hot]] classic::Request run_normalised(const classic::Comm& comm,
                                             const Table& table,
                                             const Choice& choice,
                                             const Call& call) {
  if (table.structure == Structure::directed_graph &&
      algorithms::is_rooted(call.operation)) [[unlikely]] {
    return run_rooted(comm, table, choice, call);
  }
  return run_selected(comm, table, choice, call);
}

}  // namespace

[[gnu::hot]] classic::Request run(const classic::Comm& comm, const Call& call) {
  const Table& table = call.reverse ? reverse_table_of(comm, call.function())
                                    : table_of(comm, call.function());
  const Choice& choice = table.choice(call.operation);
  if (!choice.defined()) [[unlikely]] {
    throw classic::Error(
        classic::ErrorClass::comm, call.function(),
        std::string(to_string(call.operation)) + " is undefined on a " +
            std::string(to_string(table.structure)) + " communicator");
  }
  if (checked()) [[unlikely]] {
    if (checked_along_edges(table, call)) {
      run_checked_exchange(comm, table, call);
      return classic::Request();
    }
    check_call(comm, table, call);
    // Checked once, here: the classic collectives the algorithm uses do
    // not agree again.
    const classic::CheckedAbove checked_here;
    return run_normalised(comm, table, choice, call);
  }
  return run_normalised(comm, table, choice, call);
}

std::size_t blocks_received(const classic::Comm& comm, const char* function,
                            bool reverse) {
  const Table& table =
      reverse ? reverse_table_of(comm, function) : table_of(comm, function);
  switch (table.structure) {
    case Structure::bipartite:
      return static_cast<std::size_t>(comm.remote_size());
    case Structure::directed_graph:
      return table.sources.size();
    case Structure::fully_connected:
      break;
  }
  return static_cast<std::size_t>(comm.size());
}

std::size_t blocks_sent(const classic::Comm& comm, const char* function,
                        bool reverse) {
  const Table& table =
      reverse ? reverse_table_of(comm, function) : table_of(comm, function);
  return table.structure == Structure::directed_graph
             ? table.destinations.size()
             : blocks_received(comm, function);
}

bool receives_as_root(const classic::Comm& comm, int root,
                      const char* function) {
  return table_of(comm, function).structure == Structure::bipartite
             ? root == classic::mpi_root
             : root == comm.rank();
}

void check_block_size(std::size_t elements, std::size_t sent,
                      std::size_t received, const char* function) {
  if (sent == 0 ? received == 0 : elements % sent == 0) return;
  throw classic::Error(
      classic::ErrorClass::buffer, function,
      sent == 0 ? "no block size follows from send: the caller sends no "
                  "block but receives " +
                      std::to_string(received) + " (pass a recv span)"
                : "send of " + std::to_string(elements) +
                      " elements holds no whole number of " +
                      std::to_string(sent) + " blocks");
}

}  // namespace internal

}  // namespace ortho
