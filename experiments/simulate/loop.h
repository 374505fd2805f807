// The simulator's time of a call in a loop of calls (MPI-free), as the
// benchmarks measure it: `calls` calls that every process starts together
// (after a barrier), the time per call the last process's end over the
// calls.
//
// predict.h prices one call as its rounds in turn, every round waiting for
// the slowest process. In a loop nobody waits for a process it receives
// nothing from: a process goes on to its next round, and its next call,
// as soon as its own messages are out and those it receives are in, so
// that on a sparse graph calls overlap. Here each process keeps its own
// clock through every round of every call:
//  - it sends its round's messages (send_ns of predict.h), each arriving
//    after the latency of its link (between nodes, within one, or the
//    spanning latency within a node of a job across nodes), where k
//    processes share a core k times that and k - 1 switches, plus a
//    rendezvous past the link's eager limit;
//  - a message past the link's inline limit is out only once its receiver
//    has taken it (arrived, and the receiver in that round) and the
//    sender has heard so: one more latency;
//  - its round ends when its last message is out and its last one in,
//    plus its receiving work (receive_ns);
//  - a node's cores (the machine's, where the nodes share them) share
//    themselves out among its processes that work in a round: where more
//    work than it has cores, a process's sending (and then receiving)
//    work takes as long as it would with each of the others' work, up to
//    its own, spread over the cores (processor sharing, all starting
//    together).
//  - after each call's rounds, a process's local work (an SpMV halo's
//    product: Exchange::multiply_adds at the machine's multiply_add_ns),
//    the cores shared out as in a round.
// The loop cannot go faster than what the processes share can carry per
// call either: a node's work over its cores (the machine's shared cores
// where the nodes share them) and its network interface's; the time per
// call is the larger of the two.
#ifndef ORTHOCOMM_EXPERIMENTS_SIMULATE_LOOP_H_
#define ORTHOCOMM_EXPERIMENTS_SIMULATE_LOOP_H_

#include <span>

#include "experiments/simulate/exchange.h"
#include "experiments/simulate/machine.h"

namespace simulate {

// ns per call of a loop of `calls` calls of `exchange`; `node_of_rank[p]`
// the node of process p. Throws std::invalid_argument where calls < 1 or
// node_of_rank does not cover the exchange's processes.
double loop_ns(const Exchange& exchange, std::span<const int> node_of_rank,
               const Machine& machine, int calls);

}  // namespace simulate

#endif  // ORTHOCOMM_EXPERIMENTS_SIMULATE_LOOP_H_
