// The floor of a one-round neighbourhood exchange: the very messages of
// ortho's direct algorithm (one per edge: a receive from sources[i] into
// receive block i, a send of send block i to destinations[i]) posted by
// hand on a communicator of Open MPI's, with nothing of orthocomm in the
// way. Benchmarks report ortho's time over this one, re-posted
// (MPI_Irecv, MPI_Isend, MPI_Waitall) and as persistent requests
// (MPI_Recv_init and MPI_Send_init once, then MPI_Startall, MPI_Waitall).
#ifndef ORTHOCOMM_EXPERIMENTS_HAND_POSTED_H_
#define ORTHOCOMM_EXPERIMENTS_HAND_POSTED_H_

#include <mpi.h>

#include <span>
#include <vector>

namespace experiments {

// Block i: `count` elements of `datatype` at displacements[i] bytes from
// `base`.
template <class Pointer>
struct HandBlocks {
  Pointer base = nullptr;
  std::vector<MPI_Aint> displacements;
  int count = 0;
  MPI_Datatype datatype = MPI_DATATYPE_NULL;
};

class HandPosted {
 public:
  // Collective over `comm` (it is duplicated: the messages use tag 0 on a
  // context of their own). Blocks pair up as the graph neighbourhood
  // collectives pair them: in the order of the lists between two peers.
  HandPosted(MPI_Comm comm, std::span<const int> sources,
             std::span<const int> destinations, HandBlocks<const void*> sends,
             HandBlocks<void*> receives);
  ~HandPosted();
  HandPosted(const HandPosted&) = delete;
  HandPosted& operator=(const HandPosted&) = delete;

  // One exchange, posted afresh: receives, then sends, then one wait.
  void run();
  // One exchange with the persistent requests made at construction.
  void start_and_wait();

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  std::vector<int> sources_;
  std::vector<int> destinations_;
  HandBlocks<const void*> sends_;
  HandBlocks<void*> receives_;
  std::vector<MPI_Request> posted_;      // run()'s, reused
  std::vector<MPI_Request> persistent_;  // receives, then sends
};

}  // namespace experiments

#endif  // ORTHOCOMM_EXPERIMENTS_HAND_POSTED_H_
