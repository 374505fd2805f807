// The cost model of ortho's size-aware selection between message combining
// and the direct algorithm: an algorithm's traffic, the prices of the
// job's transport, and the modelled time of one call. MPI-free; the facts
// about the job are read by combining.cc's agreed_prices().
#ifndef ORTHOCOMM_ORTHO_ALGORITHMS_COST_MODEL_H_
#define ORTHOCOMM_ORTHO_ALGORITHMS_COST_MODEL_H_

#include <cstddef>
#include <string_view>

namespace ortho::algorithms {

// Structure of an algorithm per process and call, for the cost model and
// the benchmarks' counters: messages sent, blocks sent (a block relayed
// twice counts twice) and rounds.
struct Traffic {
  int messages = 0;
  int blocks = 0;
  int rounds = 0;
  // Blocks that travel in messages of several blocks: the executor packs
  // and unpacks them (two copies; classic/exec/executor.h).
  int packed_blocks = 0;
};

// Where a job's messages travel.
enum class Transport { shared_memory, network };

// The transport from Open MPI's `btl` setting (the MCA parameter: a list of
// components, or "^" and a list of excluded ones; empty for Open MPI's
// default) and whether the job spans several hosts: shared memory where it
// does not and the setting keeps a shared-memory component ("vader", or
// "sm", its older name and alias); network otherwise (TCP over loopback
// included).
Transport transport_of(std::string_view btl, bool several_hosts);

// The prices of the model, in ns.
struct Prices {
  double message_ns = 0;    // each message sent
  double round_ns = 0;      // each round (waiting for the peers of a round)
  double byte_ns = 0;       // each byte of each block sent
  double copy_byte_ns = 0;  // each byte copied in packing or unpacking
};

// Prices measured with experiments/combining_benchmark on the development
// machine (Open MPI 4.1, 2 cores, 4 processes): shared memory about 0.4 us
// a message and a round, TCP loopback about 12 us a message and 30 us a
// round. Where processes outnumber cores (`processes_per_core` above 1) a
// round also waits for descheduled peers: 2.6 us more per extra process a
// core (3 us a round at 2 processes a core on shared memory, 8-10 us at
// 4.5).
Prices prices_for(Transport transport, double processes_per_core);

// The modelled time of one call with blocks of `block_bytes` bytes.
double model_ns(const Prices& prices, const Traffic& traffic,
                std::size_t block_bytes);

}  // namespace ortho::algorithms

#endif  // ORTHOCOMM_ORTHO_ALGORITHMS_COST_MODEL_H_
