// Checked mode for ortho's collectives: before it selects an algorithm or
// sends anything, a call agrees over the communicator's processes (its base
// communicator's; each group of an inter-communicator) that every process
// called the same collective with matching arguments, and raises on every
// process where it did not, instead of delivering stale or partial data or
// hanging. One switch with classic's collectives
// (classic/collectives/checked.h, which says what is compared and what it
// costs): ortho checks a call once, as the user made it, and the classic
// collectives its algorithms use do not check again.
//
// What ortho adds to classic's checks: the root of a rooted collective on
// a graph (not on a bipartite communicator, whose roots differ by side);
// the bytes of one block where MPI requires one type signature everywhere
// (barrier, bcast, reduce, allreduce, scan, exscan; raw allgather and
// alltoall on a fully connected communicator); on a directed graph, each
// edge's bytes for allgather(v, w) and alltoall(v, w). Not checked: the v
// and w variants on fully connected and bipartite communicators beyond the
// collective, mode, root and op. Persistent calls check once, at *_init.
//
// A blocking allgather(v, w) or alltoall(v, w) on a directed graph is
// checked along its edges, as classic's blocking neighbourhood collectives
// are (classic::execute_checked): its messages carry the check, one per
// edge as the direct algorithm sends them, whatever algorithm is selected
// (checked mode is for finding mistakes, not for timing), and a difference
// raises on the processes that receive from a process that differs.
#ifndef ORTHOCOMM_ORTHO_CHECKED_H_
#define ORTHOCOMM_ORTHO_CHECKED_H_

namespace ortho {

// Turns checked mode on or off for this process's later ortho and classic
// calls; every process must do the same. The environment variable
// ORTHO_CHECK=1 turns it on from the start.
void set_checked(bool on);
bool checked();

}  // namespace ortho

#endif  // ORTHOCOMM_ORTHO_CHECKED_H_
