#include "ortho/internal/call_check.h"

#include <array>
#include <cstdint>
#include <exception>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "classic/base/datatype_layout.h"
#include "classic/base/error.h"
#include "classic/collectives/collectives.h"
#include "classic/exec/executor.h"
#include "ortho/algorithms/checks.h"
#include "ortho/internal/exchange.h"

namespace ortho::internal {
namespace {

using classic::Error;
using classic::ErrorClass;
using Int = std::int64_t;

constexpr Int kUnused = -1;

// What every process must agree on, as integers (kUnused where the
// operation has no such argument).
enum Field : std::size_t { kOperation, kMode, kRoot, kOp, kBytes, kFields };
using Description = std::array<Int, kFields>;

constexpr std::array<const char*, kFields> kFieldNames = {
    "collective", "mode", "root", "reduction op", "bytes of a block"};

// Predefined ops by name (their handles differ between processes), user
// ops as one kind.
constexpr Int kUserOp = 100;
constexpr std::array<const char*, 14> kOpNames = {
    "MPI_MAX",    "MPI_MIN",    "MPI_SUM",     "MPI_PROD", "MPI_LAND",
    "MPI_BAND",   "MPI_LOR",    "MPI_BOR",     "MPI_LXOR", "MPI_BXOR",
    "MPI_MAXLOC", "MPI_MINLOC", "MPI_REPLACE", "MPI_NO_OP"};

Int op_code(MPI_Op op) {
  const std::array<MPI_Op, kOpNames.size()> predefined = {
      MPI_MAX,    MPI_MIN,    MPI_SUM,     MPI_PROD, MPI_LAND,
      MPI_BAND,   MPI_LOR,    MPI_BOR,     MPI_LXOR, MPI_BXOR,
      MPI_MAXLOC, MPI_MINLOC, MPI_REPLACE, MPI_NO_OP};
  for (std::size_t i = 0; i < predefined.size(); ++i) {
    if (op == predefined[i]) return static_cast<Int>(i);
  }
  return op == MPI_OP_NULL ? kUnused : kUserOp;
}

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

// This process's description; an argument error is kept in `error`.
Description describe(const classic::Comm& comm, const Table& table,
                     const Call& call, std::exception_ptr& error) {
  Description d{};
  d.fill(kUnused);
  d[kOperation] = static_cast<Int>(call.operation);
  d[kMode] = static_cast<Int>(call.mode);
  try {
    const algorithms::Checks check(comm, call);
    if (rooted(call.operation) && table.structure != Structure::bipartite) {
      check.root(call.root);
      d[kRoot] = call.root;
    }
    if (reduces(call.operation)) {
      check.op(call.op);
      d[kOp] = op_code(call.op);
    }
    d[kBytes] = uniform_bytes(table, call, check);
  } catch (const Error&) {
    error = std::current_exception();
  }
  return d;
}

// "rank 0 X, ranks 1-8 Y": the processes' values, runs of equal ones.
template <class Name>
std::string by_rank(const std::vector<Int>& values, Name name) {
  std::string text;
  std::size_t first = 0;
  for (std::size_t r = 1; r <= values.size(); ++r) {
    if (r < values.size() && values[r] == values[first]) continue;
    if (!text.empty()) text += ", ";
    text += r - first == 1 ? "rank " + std::to_string(first)
                           : "ranks " + std::to_string(first) + "-" +
                                 std::to_string(r - 1);
    text += " " + name(values[first]);
    first = r;
  }
  return text;
}

std::string value_text(Field field, Int value) {
  if (value == kUnused) return "(none)";
  if (field == kOp) {
    return value == kUserOp ? "a user op"
                            : kOpNames[static_cast<std::size_t>(value)];
  }
  return std::to_string(value);
}

// Step 1: the description, agreed over comm's processes (the base's).
void agree_on_description(const classic::Comm& base, const Call& call,
                          const Description& mine,
                          const std::exception_ptr& error) {
  constexpr Int kNone = std::numeric_limits<Int>::max();
  std::array<Int, 2 * kFields + 1> local{};
  for (std::size_t f = 0; f < kFields; ++f) {
    local[f] = mine[f];
    local[kFields + f] = mine[f] == kUnused ? -kNone : -mine[f];
  }
  local[2 * kFields] = error ? base.rank() + 1 : 0;
  std::array<Int, 2 * kFields + 1> agreed{};
  classic::allreduce(base, local.data(), agreed.data(),
                     static_cast<int>(local.size()), MPI_INT64_T, MPI_MAX);
  if (agreed[2 * kFields] != 0) {
    if (error) std::rethrow_exception(error);
    throw Error(ErrorClass::other, call.function(),
                "checked mode: rank " +
                    std::to_string(agreed[2 * kFields] - 1) +
                    " raised an error for its arguments; no process sent "
                    "anything");
  }
  for (std::size_t f = 0; f < kFields; ++f) {
    const Int largest = agreed[f];
    const Int smallest = -agreed[kFields + f];
    if (largest == kUnused || largest == smallest) continue;
    // Disagreement: every process learns what each called.
    std::vector<Int> all(static_cast<std::size_t>(base.size() * kFields));
    classic::allgather(base, mine.data(), kFields, MPI_INT64_T, all.data(),
                       kFields, MPI_INT64_T);
    std::vector<Int> calls;
    std::vector<Int> values;
    for (std::size_t r = 0; r < static_cast<std::size_t>(base.size()); ++r) {
      calls.push_back(all[r * kFields + kOperation] * 4 +
                      all[r * kFields + kMode]);
      values.push_back(all[r * kFields + f]);
    }
    std::string text = "checked mode: the processes ";
    if (f == kOperation || f == kMode) {
      text += "called different collectives: " + by_rank(calls, [](Int code) {
                return std::string(
                    function_name(static_cast<Operation>(code / 4),
                                  static_cast<classic::Mode>(code % 4)));
              });
    } else {
      text += "disagree on the " + std::string(kFieldNames[f]) + ": " +
              by_rank(values, [f](Int value) {
                return value_text(static_cast<Field>(f), value);
              });
    }
    throw Error(ErrorClass::other, call.function(), text);
  }
}

// Step 2, directed graphs: every edge's bytes, sender's against receiver's.
void agree_on_edges(const classic::Comm& comm, const classic::Comm& base,
                    const Table& table, const Call& call,
                    const algorithms::Exchange& exchange) {
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
  // The first edge whose sizes differ here: source, its block, both sizes.
  std::array<Int, 5> mismatch{0, 0, 0, 0, 0};
  for (std::size_t j = 0; j < expected.size(); ++j) {
    if (arrived[j] == expected[j]) continue;
    mismatch = {1, table.sources[j], static_cast<Int>(j), arrived[j],
                expected[j]};
    break;
  }
  Int any = mismatch[0];
  Int found = 0;
  classic::allreduce(base, &any, &found, 1, MPI_INT64_T, MPI_MAX);
  if (found == 0) return;
  std::vector<Int> all(static_cast<std::size_t>(base.size()) * mismatch.size());
  classic::allgather(base, mismatch.data(), static_cast<int>(mismatch.size()),
                     MPI_INT64_T, all.data(), static_cast<int>(mismatch.size()),
                     MPI_INT64_T);
  for (std::size_t r = 0; r < static_cast<std::size_t>(base.size()); ++r) {
    const Int* m = &all[r * mismatch.size()];
    if (m[0] == 0) continue;
    // More than the receive block holds is MPI's truncation.
    throw Error(m[3] > m[4] ? ErrorClass::truncate : ErrorClass::other,
                call.function(),
                "checked mode: the sizes of an edge differ: rank " +
                    std::to_string(m[1]) + " sends " + std::to_string(m[3]) +
                    " bytes to rank " + std::to_string(r) +
                    ", whose receive block " + std::to_string(m[2]) +
                    " from it holds " + std::to_string(m[4]) + " bytes");
  }
}

}  // namespace

void check_call(const classic::Comm& comm, const Table& table,
                const Call& call) {
  const classic::Comm base = table.base.is_null() ? comm : table.base;
  std::exception_ptr error;
  const Description mine = describe(comm, table, call, error);
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
  agree_on_description(base, call, mine, error);
  if (edges) agree_on_edges(comm, base, table, call, exchange);
}

}  // namespace ortho::internal
