#include "ortho/internal/call_check.h"

#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include "classic/base/datatype_layout.h"
#include "classic/base/error.h"
#include "classic/collectives/checked.h"
#include "classic/exec/executor.h"
#include "ortho/algorithms/checks.h"
#include "ortho/internal/exchange.h"

namespace ortho::internal {
namespace {

using classic::Error;
using Int = std::int64_t;

constexpr Int kUnused = classic::CallFacts::kNone;

bool rooted(Operation operation) {
  switch (operation) {
    case Operation::bcast:
    case Operation::gather:
    case Operation::gatherv:
    case Operation::scatter:
    case Operation::scatterv:
    case Operation::reduce:
      return true;
    default:
      return false;
  }
}

bool reduces(Operation operation) {
  switch (operation) {
    case Operation::reduce:
    case Operation::allreduce:
    case Operation::reduce_scatter:
    case Operation::reduce_scatter_block:
    case Operation::scan:
    case Operation::exscan:
      return true;
    default:
      return false;
  }
}

// The bytes of `count` elements of `datatype`, or of a typed side's span.
// `count_name` and `type_name` name the arguments as the operation does.
template <class Pointer>
Int bytes_of(const Side<Pointer>& side, Form form, const Call& call,
             const algorithms::Checks& check, const char* count_name = "count",
             const char* type_name = "datatype") {
  if (form == Form::typed) {
    return static_cast<Int>(side.elements * side.element_bytes);
  }
  check.elements(side.count, side.datatype, count_name, type_name);
  return Int{side.count} *
         static_cast<Int>(
             classic::datatype_layout(side.datatype, call.function()).size);
}

// The bytes every process must agree on, where MPI requires one type
// signature everywhere.
Int uniform_bytes(const Table& table, const Call& call,
                  const algorithms::Checks& check) {
  switch (call.operation) {
    case Operation::barrier:
      return 0;
    case Operation::bcast:
      return bytes_of(call.recv, call.form, call, check);
    case Operation::reduce:
    case Operation::allreduce:
    case Operation::scan:
    case Operation::exscan:
      return call.send.data == MPI_IN_PLACE
                 ? bytes_of(call.recv, call.form, call, check)
                 : bytes_of(call.send, call.form, call, check);
    case Operation::allgather:
    case Operation::alltoall: {
      if (table.structure != Structure::fully_connected) return kUnused;
      if (call.form == Form::raw) {
        return bytes_of(call.send, call.form, call, check, "send_count",
                        "send_type");
      }
      return kUnused;  // typed: the spans' division is checked by the call
    }
    default:
      return kUnused;
  }
}

// This process's facts; an argument error is kept in `error`.
classic::CallFacts describe(const classic::Comm& comm, const Table& table,
                            const Call& call, std::exception_ptr& error) {
  classic::CallFacts facts;
  facts.function = call.function();
  try {
    const algorithms::Checks check(comm, call);
    if (rooted(call.operation) && table.structure != Structure::bipartite) {
      check.root(call.root);
      facts.root = call.root;
    }
    if (reduces(call.operation)) {
      check.op(call.op);
      facts.set_op(call.op);
    }
    const Int bytes = uniform_bytes(table, call, check);
    if (bytes != kUnused) facts.add_block_bytes(bytes);
  } catch (const Error&) {
    error = std::current_exception();
  }
  return facts;
}

// Step 2, directed graphs: every edge's bytes, sender's against receiver's.
void agree_on_edges(const classic::Comm& comm, const Table& table,
                    const Call& call, const algorithms::Exchange& exchange) {
  const auto bytes = [&call](const classic::Plan::Block& block) {
    return block.count == 0
               ? Int{0}
               : Int{block.count} *
                     static_cast<Int>(classic::datatype_layout(block.datatype,
                                                               call.function())
                                          .size);
  };
  std::vector<Int> sent;
  std::vector<classic::Plan::Block> send_blocks;
  for (std::size_t i = 0; i < exchange.send.size(); ++i) {
    sent.push_back(bytes(exchange.send[i]));
    send_blocks.push_back({classic::Plan::Space::send,
                           static_cast<MPI_Aint>(i * sizeof(Int)), 1,
                           MPI_INT64_T});
  }
  std::vector<Int> expected;
  std::vector<classic::Plan::Block> recv_blocks;
  for (std::size_t j = 0; j < exchange.recv.size(); ++j) {
    expected.push_back(bytes(exchange.recv[j]));
    recv_blocks.push_back({classic::Plan::Space::recv,
                           static_cast<MPI_Aint>(j * sizeof(Int)), 1,
                           MPI_INT64_T});
  }
  std::vector<Int> arrived = expected;  // proc_null edges stay equal
  (void)classic::execute(
      comm, algorithms::edge_plan(table, send_blocks, recv_blocks),
      {sent.data(), arrived.data()}, classic::Mode::blocking, call.function());
  classic::agree_on_edges(comm, table.sources, arrived, expected,
                          call.function());
}

}  // namespace

void check_call(const classic::Comm& comm, const Table& table,
                const Call& call) {
  const classic::Comm base = table.base.is_null() ? comm : table.base;
  std::exception_ptr error;
  const classic::CallFacts mine = describe(comm, table, call, error);
  const bool edges = table.structure == Structure::directed_graph &&
                     algorithms::is_exchange(call.operation);
  algorithms::Exchange exchange;
  if (edges && !error) {
    // The graph exchanges' arguments: checked now, so that an error on one
    // process is agreed on before any edge message.
    try {
      const algorithms::Checks check(comm, call);
      exchange = algorithms::normalise(table, call, check);
    } catch (const Error&) {
      error = std::current_exception();
    }
  }
  classic::agree_on_call(base, mine, error);
  if (edges) agree_on_edges(comm, table, call, exchange);
}

bool checked_along_edges(const Table& table, const Call& call) {
  return call.mode == classic::Mode::blocking &&
         table.structure == Structure::directed_graph &&
         algorithms::is_exchange(call.operation);
}

void run_checked_exchange(const classic::Comm& comm, const Table& table,
                          const Call& call) {
  algorithms::Exchange exchange;
  try {
    const algorithms::Checks check(comm, call);
    exchange = algorithms::normalise(table, call, check);
  } catch (const Error&) {
    const std::vector<classic::Plan::Block> none_sent(
        table.destinations.size());
    const std::vector<classic::Plan::Block> none_received(table.sources.size());
    classic::execute_checked_failure(
        comm, *algorithms::edge_plan(table, none_sent, none_received),
        call.function());
    throw;
  }
  classic::execute_checked(comm, *algorithms::edge_plan(table, exchange),
                           {call.send.data, call.recv.data}, call.function());
}

}  // namespace ortho::internal
