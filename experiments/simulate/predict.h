// The simulator's time of one call (MPI-free): a LogGP-style model with
// separate prices within a node and between nodes (machine.h). A call is
// its rounds in turn; a round takes the longest of
//  - the busiest process's work: per message sent message_ns (LogGP's
//    o + g), per process sent to peer_ns, per byte byte_ns (G), per
//    message and byte received
//    receive_message_ns and receive_byte_ns, each at the price of the link
//    the message takes;
//  - the busiest node's cores: its processes' work shared over its cores
//    (over the machine's shared cores where the nodes share them);
//  - the busiest node's network interface: injection_message_ns per message
//    and injection_byte_ns per byte leaving the node;
// plus the round's latency (between nodes where a message of the round
// crosses; within otherwise, the spanning one where the job spans several
// nodes) and a rendezvous where a message of the round
// exceeds its transport's eager limit. Where k processes share a core
// (k > 1: more processes on a node than cores) each waits its turn: k
// times the latency and k - 1 switches. A process's work includes packing
// and unpacking its messages of several blocks (copy_byte_ns, twice a byte).
#ifndef ORTHOCOMM_EXPERIMENTS_SIMULATE_PREDICT_H_
#define ORTHOCOMM_EXPERIMENTS_SIMULATE_PREDICT_H_

#include <span>
#include <string_view>
#include <vector>

#include "experiments/simulate/exchange.h"
#include "experiments/simulate/machine.h"

namespace simulate {

// What bounds a round.
enum class Bound { process, cores, network_interface };
std::string_view to_string(Bound bound);

struct RoundTime {
  double ns = 0;
  Bound bound = Bound::process;
};

struct Prediction {
  double ns = 0;
  std::vector<RoundTime> rounds;  // the rounds that send anything
};

// `node_of_rank[p]`: the node of process p (as the exchange's workload
// placed it).
Prediction predict(const Exchange& exchange, std::span<const int> node_of_rank,
                   const Machine& machine);

// The prices both this model and a loop's (loop.h) charge. A process's
// work in a round: sending (its messages, their bytes, packing and
// unpacking its messages of several blocks) and receiving.
double send_ns(const RoundLoad& load, const Machine& machine);
double receive_ns(const RoundLoad& load, const Machine& machine);
// What its messages leaving the node cost the node's network interface.
double injection_ns(const RoundLoad& load, const Machine& machine);
// The nodes `node_of_rank` places processes on (its largest node + 1).
int nodes_of(std::span<const int> node_of_rank);
// The most processes that share a core (at least 1), processes placed on
// nodes by `node_of_rank`.
double sharing_a_core(std::span<const int> node_of_rank,
                      const Machine& machine);

}  // namespace simulate

#endif  // ORTHOCOMM_EXPERIMENTS_SIMULATE_PREDICT_H_
