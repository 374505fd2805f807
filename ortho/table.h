// Which algorithm runs an ortho collective on a communicator: overrides for
// experiments (set_algorithm, and the environment variable ORTHO_ALGORITHM)
// and what a call of a given size and mode would run. The tables behind it
// are made once per communicator (docs/design.md, "Chosen once";
// docs/algorithms.md).
#ifndef ORTHOCOMM_ORTHO_TABLE_H_
#define ORTHOCOMM_ORTHO_TABLE_H_

#include <cstddef>
#include <string_view>

#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "ortho/operation.h"
#include "ortho/reverse.h"

namespace ortho {

// Forces algorithms on `comm` for experiments (the per-communicator form of
// the environment variable ORTHO_ALGORITHM, which applies to every table
// made while it is set: there an `operation=name` item applies to the
// communicators whose structure offers that algorithm for the operation
// and is left out on the others, such as the fully connected base of a
// graph under alltoallw=direct). `spec` is a comma-separated list of items,
// each `name` (every operation that has an algorithm of that name uses it) or
// `operation=name` (that operation must have one). The names are those of
// the registered algorithms (docs/algorithms.md lists them with
// where each applies). An empty spec restores the default
// choice. Local; affects this communicator
// only (not its earlier duplicates; later duplicates inherit it).
// ErrorClass::arg for an unknown operation or algorithm, or an operation
// without an algorithm of that name on this structure.
void set_algorithm(const classic::Comm& comm, std::string_view spec);

// The name of the algorithm `operation` uses on `comm` (or a graph's
// reverse, ortho::reverse(graph)) for blocks of `block_bytes` bytes in
// `mode` ("" where the operation is undefined there): the winner where
// tuning measured that size band (ortho/explain.h), else the model's
// choice.
std::string_view selected_algorithm(
    ExchangeComm comm, Operation operation, std::size_t block_bytes = 0,
    classic::Mode mode = classic::Mode::blocking);

}  // namespace ortho

#endif  // ORTHOCOMM_ORTHO_TABLE_H_
