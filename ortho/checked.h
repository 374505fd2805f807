// Checked mode: ortho's collectives first agree that every process called
// the same collective with matching arguments, and raise on every process
// where they do not, instead of delivering stale or partial data or
// hanging (programs MPI calls erroneous and MPI libraries do not detect).
//
// A checked call, before it selects an algorithm or sends anything:
//  1. agrees over the communicator's processes (its base communicator's;
//     each group of an inter-communicator) on the operation, the mode, the
//     root, the reduction op (predefined ops by name, user ops as one
//     kind) and, where MPI requires every process to use the same type
//     signature (barrier, bcast, reduce, allreduce, scan, exscan; raw
//     allgather and alltoall on a fully connected communicator), the
//     bytes of one block; an argument
//     error on one process is agreed on too, so every process raises;
//  2. on a directed graph, for allgather(v, w) and alltoall(v, w), sends
//     each out-neighbour the bytes of the block it sends it and compares
//     what arrives with the bytes of each receive block (type signatures
//     must match per MPI; bytes are what ortho compares), then agrees on
//     the result.
// Any disagreement raises classic::Error on every process, naming what
// each process called or the edge whose sizes differ: ErrorClass::truncate
// where a sender sends more than the receive block holds, ErrorClass::other
// otherwise; the erring process itself raises its own argument error. The
// agreement needs every process of the communicator to make a call (as MPI
// does): a process that calls alone waits for the others.
// Persistent calls check once, at *_init (their arguments do not change);
// which request each process starts is not checked. Not checked: the v and
// w variants on fully connected and bipartite communicators beyond step 1.
//
// Cost: one allreduce of a few integers per call; for the graph exchanges
// also one neighbourhood exchange of an integer per edge and a second
// allreduce: several times
// an unchecked call at small blocks (docs/design.md, "Checked mode", has
// the measurements). Off by default.
#ifndef ORTHOCOMM_ORTHO_CHECKED_H_
#define ORTHOCOMM_ORTHO_CHECKED_H_

namespace ortho {

// Turns checked mode on or off for this process's later ortho calls; every
// process must do the same. The environment variable ORTHO_CHECK=1 turns it
// on from the start (read at the first ortho call).
void set_checked(bool on);
bool checked();

}  // namespace ortho

#endif  // ORTHOCOMM_ORTHO_CHECKED_H_
