// The reverse of a directed graph's exchanges. ortho::reverse(graph) names
// the graph with every edge turned around, on the same communicator: an
// exchange on it (allgather(v, w), alltoall(v, w), every mode) sends to the
// in-neighbours and receives from the out-neighbours, exactly as MPI's
// neighbour collective would on a graph communicator made with the two
// lists swapped (the transposed graph), repeated edges paired in order.
// It is what a halo exchange's accumulate step needs (ghost values back to
// their owners: the scatter's reverse) without a second communicator.
//
//   ortho::alltoallv(graph, ...);                  // owners -> ghosts
//   ortho::alltoallv(ortho::reverse(graph), ...);  // ghosts -> owners
//
// A reverse is a local view: making one communicates nothing, and its first
// call sets up nothing collective (the algorithms that serve it plan from
// the neighbour lists, or from the graph its table's analysis gathered,
// turned around; docs/design.md, "Reverse exchanges"). Its calls are
// collective over the graph like any exchange: every process calls the
// same one, forward or reverse, in the same order; where several
// algorithms serve it, its first blocking calls and persistent starts are
// measured to choose among them, as the graph's own are.
//
// Errors (classic::Error, before anything is sent): topology where the
// communicator is no directed graph (only its exchanges have a reverse);
// a classic Cartesian topology is its own reverse (MPI pairs its blocks by
// direction, and turning every edge around gives the same pairs).
#ifndef ORTHOCOMM_ORTHO_REVERSE_H_
#define ORTHOCOMM_ORTHO_REVERSE_H_

#include <utility>

#include "classic/comm/comm.h"

namespace ortho {

// A directed graph's reverse (a handle to the graph, no communicator).
class Reverse {
 public:
  explicit Reverse(classic::Comm graph) : graph_(std::move(graph)) {}
  const classic::Comm& graph() const { return graph_; }

 private:
  classic::Comm graph_;
};

[[nodiscard]] inline Reverse reverse(const classic::Comm& graph) {
  return Reverse(graph);
}

// What the exchanges take as their communicator: a communicator, or a
// directed graph's reverse. Converts from both implicitly; holds a
// reference, valid for the call it is passed to.
class ExchangeComm {
 public:
  // NOLINTNEXTLINE(google-explicit-constructor): any communicator
  ExchangeComm(const classic::Comm& comm) : comm_(&comm) {}
  // NOLINTNEXTLINE(google-explicit-constructor): a graph's reverse
  ExchangeComm(const Reverse& reverse)
      : comm_(&reverse.graph()), reverse_(true) {}

  const classic::Comm& comm() const { return *comm_; }
  bool reverse() const { return reverse_; }

 private:
  const classic::Comm* comm_;
  bool reverse_ = false;
};

}  // namespace ortho

#endif  // ORTHOCOMM_ORTHO_REVERSE_H_
