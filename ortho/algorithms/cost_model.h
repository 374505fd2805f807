// The cost model of ortho's size-aware selection between message combining
// and the direct algorithm: an algorithm's traffic, the prices of the
// job's transport, and the modelled time of one call. MPI-free; the facts
// about the job are agreed by agreed_prices.h.
#ifndef ORTHOCOMM_ORTHO_ALGORITHMS_COST_MODEL_H_
#define ORTHOCOMM_ORTHO_ALGORITHMS_COST_MODEL_H_

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "ortho/internal/inside_ortho.h"
#include "ortho/internal/machine_file.h"

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
  // The most blocks in one message: where they exceed the transport's
  // eager limit, the rounds pay a rendezvous.
  int largest_message_blocks = 0;
  // Blocks combined into a result by a local reduction (allreduce).
  int reduced_blocks = 0;
  // The blocks of each message, where messages carry several (combining's
  // schedules); empty where each carries one. The plans send a message
  // above the eager limit as two where its halves fit under it
  // (stencils/message_split.h); `messages` counts it once.
  std::vector<int> message_blocks;
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
  // Messages above `eager_bytes` go by rendezvous (Open MPI's btl eager
  // limit): a round with one pays `rendezvous_ns` more (its handshakes
  // overlap).
  double eager_bytes = 0;
  double rendezvous_ns = 0;
  double reduce_block_ns = 0;  // each block reduced (the call and its walk)
};

// Prices fitted to runs of experiments/combining_benchmark and of single
// alltoall loops on the development machine (Open MPI 4.1, 2 cores). With a
// core per process (2 processes) shared memory costs about 0.15 us a
// message and 1.5 us a round (26 messages to 2 peers about 3 us, one
// combined message about 2.5 us), TCP loopback about 6 us a message and
// 24 us a round (160 us against 30 us). A message above the eager limit
// (vader 4 KiB, TCP 64 KiB) costs its round a rendezvous: measured with one
// combined message growing past the limit, 6.5 us on shared memory, 30 us
// over TCP. A block reduced locally costs 0.5 us; a byte packed or
// unpacked on shared memory 0.05 ns (one memcpy, against the transport's
// copies in and out of its queues).
// Where p processes share a core (`processes_per_core` above 1) three
// things change: a process gets a p-th of a core, so the work of messages,
// bytes and reductions costs p times as much; a message costs 0.3 us more
// per extra process a core (its completion waits for the receiver to be
// scheduled); and a round waits for descheduled peers, 5 us more per extra
// process a core. Fitted to 4- and 8-process runs on a 2-core machine and
// kept as points in tests/ortho/combining:cost_model_test: with them
// combining's 2 rounds on a 2 x 2 x 1 torus cost less than 26 direct
// messages up to 400 B (3-d Moore at 400 B: 22.7 us against 36.1 for
// allgather, 27.3 against 31.2 for alltoall, where the message of 18
// blocks goes as two), combining's 2 rounds on a 2 x 2 torus more than 8
// direct messages from 400 B, and the box allreduce on 3-d Moore less than
// the direct one, as measured.
// These figures move from day to day on a shared virtual machine by up to
// 2x; docs/performance.md gives measured runs.
Prices prices_for(Transport transport, double processes_per_core);

// The prices of a machine file (ORTHO_MACHINE; internal/machine_file.h) for
// `transport`, from its link within a node (shared memory) or between
// nodes (network): a message its message_ns and receive_message_ns (the
// models price both ends of a message at once), a round its latency_ns, a
// byte its byte_ns and receive_byte_ns, its eager limit and rendezvous; a byte
// packed or unpacked the file's copy_byte_ns; a reduced block as the built-in
// prices. Scaled for processes that share cores as the built-in prices are.
Prices prices_for(const internal::Machine& machine, Transport transport,
                  double processes_per_core);

// The messages of `traffic` that the plans send as two with blocks of
// `block_bytes` bytes under the eager limit `eager_bytes`
// (stencils::first_part_blocks).
int split_messages(const Traffic& traffic, std::size_t block_bytes,
                   double eager_bytes);

// The modelled time of one call with blocks of `block_bytes` bytes: a
// message split in two costs a message more and no rendezvous.
double model_ns(const Prices& prices, const Traffic& traffic,
                std::size_t block_bytes);

}  // namespace ortho::algorithms

#endif  // ORTHOCOMM_ORTHO_ALGORITHMS_COST_MODEL_H_
