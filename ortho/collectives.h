// ortho's one set of collective interfaces (the paper, section 2): MPI's 17
// collectives (and allgatherw), whose meaning follows the structure of the
// communicator, each blocking, non-blocking and persistent, with raw and
// typed buffers.
#ifndef ORTHOCOMM_ORTHO_COLLECTIVES_H_
#define ORTHOCOMM_ORTHO_COLLECTIVES_H_

// Meaning by structure (ortho::topo_test):
//  - fully connected (an intra-communicator) and bipartite (an
//    inter-communicator): as MPI defines them; classic's collectives run
//    them (classic/collectives/collectives.h has the details of buffers,
//    in place and errors; error messages may name classic's functions).
//  - directed graph (a distributed graph, or classic's graph or Cartesian
//    topology read as the directed graph of its neighbourhoods; blocks
//    follow the order of sources and destinations):
//      allgather(v), alltoall(v, w)  MPI's neighbourhood collectives;
//      allgatherw                    as allgatherv, with a datatype and a
//                                    byte displacement per in-neighbour;
//      bcast, scatter(v)             from the root to its out-neighbours
//                                    (block i to out-neighbour i; where
//                                    the root reaches a process by several
//                                    edges, the block of the first);
//      gather(v), reduce             at the root from its in-neighbours
//                                    (block i from in-neighbour i; reduce
//                                    folds them in order:
//                                    s_0 op s_1 op ... op s_{k-1});
//      allreduce                     every process reduces over its own
//                                    in-neighbours, as reduce does;
//      barrier                       returns once every in-neighbour has
//                                    entered it.
//    Self loops and repeated edges count as edges (a self loop contributes
//    the caller's own block). A result with no in-neighbour to come from
//    (reduce, allreduce at indegree 0) leaves the receive buffer as it
//    was. Processes outside the root's neighbourhood take part but
//    complete locally. In place: gather's and reduce's send at the root,
//    scatter's recv at the root, allreduce's send anywhere.
//    reduce_scatter(_block), scan and exscan are undefined there.
//  - scan and exscan are undefined on bipartite communicators, allgatherw
//    everywhere but on directed graphs.
// An undefined combination raises classic::Error (ErrorClass::comm) naming
// the function and the structure, before anything is sent.
//
// Every process calls the same collectives on a communicator in the same
// order (blocking, non-blocking and persistent inits alike), with the same
// root and op.
//
// Modes: f blocks; if returns a pending classic::Request (complete it with
// classic::wait, test, wait_all, ...; buffers belong to the operation
// until then); f_init returns an inactive request that each
// classic::start runs again on the same buffers (MPI-4). Counts,
// displacements and datatype arrays are read during the call.
//
// Forms: raw buffers ((pointer, count, MPI_Datatype), as in MPI) and typed
// ones (contiguous ranges of T: std::vector, std::array, std::span, C
// arrays; the datatype inferred, counts from their sizes as
// classic's typed collectives take them); gather, scatter, reduce and
// allreduce also in place (classic::in_place), and allgather, alltoall,
// gather and allreduce also blocking with the received data returned by
// value. f, if and f_init are function objects, the three instances of one
// class template per operation (ortho::forms::Allgather<classic::Mode> for
// allgather, iallgather, allgather_init), whose overloads are the forms:
// forms_rooted.h (barrier, bcast, gather(v), scatter(v)), forms_exchange.h
// (allgather(v, w), alltoall(v, w)), forms_reduction.h (reduce, allreduce,
// reduce_scatter(_block), scan, exscan). Each builds an ortho::Call
// (ortho/call.h) and hands it to ortho's one entry point (internal::run,
// ortho/collectives.cc).
//
// Dispatch: ortho chose the algorithm of every operation when it first met
// the communicator (ortho/table.h); a call costs one lookup. The choice can
// be forced for experiments (ORTHO_ALGORITHM, ortho::set_algorithm).
//
// Errors (classic::Error): those of classic's collectives on fully
// connected and bipartite communicators; on directed graphs the same
// classes (root, count, datatype, op, buffer) for the same faults, naming
// ortho's function.

#include "ortho/forms_exchange.h"   // IWYU pragma: export
#include "ortho/forms_reduction.h"  // IWYU pragma: export
#include "ortho/forms_rooted.h"     // IWYU pragma: export
#include "ortho/typed_call.h"       // IWYU pragma: export

#endif  // ORTHOCOMM_ORTHO_COLLECTIVES_H_
