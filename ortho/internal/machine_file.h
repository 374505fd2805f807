// A machine's prices, read from a machine file (MPI-free): what a message, a
// byte and a round cost between two processes of one node and between
// nodes, what a node's network interface and the cores its processes share
// can carry, and the transports' eager limits. ORTHO_MACHINE=PATH gives
// ortho's cost models these prices instead of the built-in ones
// (algorithms/agreed_prices.h); the simulator (experiments/simulate)
// predicts with all of them. One file per machine
// (experiments/simulate/machines/):
//
//   # comment
//   name = a typical InfiniBand cluster (HDR, 2 x 64-core CPUs)
//   cores_per_node = 128
//   shared_cores = 0      # cores all nodes share (simulated hosts); 0: none
//   copy_byte_ns = 0.05   # a byte packed or unpacked (relayed blocks)
//   switch_ns = 0         # a round's cost per extra process on a core
//
//   [within]                  # two processes of one node (shared memory)
//   latency_ns = 400          # a round's wait for its messages (LogGP L)
//   message_ns = 150          # the sender's work per message (o + g)
//   peer_ns = 0               # and per process it sends to in a round
//                             # (optional, 0 where left out)
//   byte_ns = 0.08            # the sender's work per byte (G)
//   receive_message_ns = 100  # the receiver's work per message (o)
//   receive_byte_ns = 0.08    # and per byte (a copy out)
//   eager_bytes = 4096        # larger messages wait for a rendezvous
//   rendezvous_ns = 1000      # which costs their round this much more
//   inline_bytes = 256        # larger ones complete at their sender only
//                             # once their receiver has taken them
//   spanning_latency_ns = 400 # latency_ns in a job that spans nodes
//
//   [between]                 # two processes of different nodes
//   (the keys above but spanning_latency_ns)
//
//   [node]                    # what the processes of a node share
//   injection_message_ns = 5  # its network interface, per message out
//   injection_byte_ns = 0.04  # and per byte out
//   multiply_add_ns = 1.5     # a core's work per multiply-add of a sparse
//                             # product (optional, 0 where left out)
//
// Every key but peer_ns and multiply_add_ns is required, once; values are
// finite numbers >= 0 (the core counts whole, cores_per_node at least 1).
// Anything else is rejected with the file, line, key and value named.
#ifndef ORTHOCOMM_ORTHO_INTERNAL_MACHINE_FILE_H_
#define ORTHOCOMM_ORTHO_INTERNAL_MACHINE_FILE_H_

#include <stdexcept>
#include <string>
#include <string_view>

#include "ortho/internal/inside_ortho.h"

namespace ortho::internal {

// The prices of one kind of message (within a node or between nodes).
struct LinkPrices {
  double latency_ns = 0;
  double message_ns = 0;
  // The sender's work per process it sends to in a round, beyond
  // message_ns per message: a round's further messages to a process cost
  // less than its first (over TCP, one socket read and wake-up serve
  // several). Only the simulator reads it; ortho's cost models do not.
  double peer_ns = 0;
  double byte_ns = 0;
  double receive_message_ns = 0;
  double receive_byte_ns = 0;
  double eager_bytes = 0;
  double rendezvous_ns = 0;
  // A message up to this size is out once its sender has posted it (the
  // transport copies it into the receiver's queue); a larger one only once
  // its receiver has taken it (Open MPI's shared memory returns the
  // fragment). The simulator's loop model (experiments/simulate/loop.h)
  // waits for it; ortho's cost models do not read it.
  double inline_bytes = 0;
};

struct Machine {
  std::string name;
  int cores_per_node = 1;
  // Cores that every process of the job shares (several simulated hosts on
  // one machine); 0 where each node has its own.
  int shared_cores = 0;
  // Each byte of a message of several blocks is copied twice (packed by
  // the sender, unpacked by the receiver), at the sender's expense.
  double copy_byte_ns = 0;
  // Where k processes share a core, a round waits for each to be
  // scheduled: (k - 1) x switch_ns more.
  double switch_ns = 0;
  LinkPrices within;
  // A round within nodes waits this long (in place of within.latency_ns)
  // in a job that spans several nodes: where the transport's progress
  // polls the network at every wait (TCP: a system call per poll), a
  // shared-memory message waits for those polls too; where it polls in
  // user space (InfiniBand verbs), as long as within.latency_ns.
  double within_spanning_latency_ns = 0;
  LinkPrices between;
  double injection_message_ns = 0;
  double injection_byte_ns = 0;
  // A core's work per multiply-add of a local sparse product (y += a x,
  // with its index and its entry of x): what an SpMV iteration does
  // besides its halo exchange. Only the simulator reads it (an SpMV
  // halo's iteration, experiments/simulate/loop.h).
  double multiply_add_ns = 0;
};

// A malformed machine file: what() names the origin, the line, the key and
// the value ("machines/x.machine:7: [within] byte_ns = 'fast' is not a
// number").
class MachineFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Parses a machine file's text; `origin` names it in errors.
Machine parse_machine(std::string_view text, std::string_view origin);

// The text of a machine file that parse_machine reads back as `machine`:
// `comment`, each of its lines as a comment, then every key once in the
// order above; numbers to 6 significant digits (a value under 1e-9 as 0).
std::string machine_file_text(const Machine& machine, std::string_view comment);

// Reads and parses the file at `path` (MachineFileError where it cannot be
// read).
Machine load_machine(const std::string& path);

}  // namespace ortho::internal

#endif  // ORTHOCOMM_ORTHO_INTERNAL_MACHINE_FILE_H_
