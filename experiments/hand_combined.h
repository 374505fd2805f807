// The floor of ortho's message combining: the messages of a combining
// schedule (stencils/schedule.h) posted by hand, zero copy, on a
// communicator of Open MPI's, with nothing of orthocomm in the way. Each
// message of each round is one MPI struct datatype over the absolute
// addresses of its blocks (in the send and receive buffers, or in scratch
// for the blocks relays hold between hops), made once for one call shape
// and its buffers; a call runs round after round, posting every receive
// and send of the round and waiting for them, then copies the blocks a
// process sends itself. Re-posted (MPI_Irecv, MPI_Isend, MPI_Waitall) or
// as persistent requests (MPI_Recv_init and MPI_Send_init once, then
// MPI_Startall and MPI_Waitall per round). A message above the transport's
// eager limit whose halves are not goes as two, as ortho's plans send it
// (stencils/message_split.h). For periodic grids, where every move of a
// schedule is active, and blocks of ints in the stencil's order.
#ifndef ORTHOCOMM_EXPERIMENTS_HAND_COMBINED_H_
#define ORTHOCOMM_EXPERIMENTS_HAND_COMBINED_H_

#include <mpi.h>

#include <cstddef>
#include <span>
#include <vector>

#include "naming/geometry.h"
#include "stencils/schedule.h"
#include "stencils/stencil.h"

namespace experiments {

class HandCombined {
 public:
  enum class Posting { afresh, persistent };

  // The schedule of `collective` for `stencil` (targets and sources alike)
  // on `geometry`, for process `rank` of `comm` (duplicated: the messages
  // use their index in the round as tag, on a context of their own), with
  // blocks of `ints` ints: allgather's one send block at `send`, alltoall's
  // one per target; one receive block per source at `recv`; messages split
  // at `eager_bytes`. Collective.
  HandCombined(MPI_Comm comm, const naming::Geometry& geometry, int rank,
               const stencils::Stencil& stencil,
               stencils::Collective collective, const int* send, int* recv,
               int ints, std::size_t eager_bytes, Posting posting);
  ~HandCombined();
  HandCombined(const HandCombined&) = delete;
  HandCombined& operator=(const HandCombined&) = delete;

  // One call.
  void run();

  // Messages and rounds of one call, for the counters.
  int messages() const { return messages_; }
  int rounds() const { return static_cast<int>(rounds_.size()); }

 private:
  struct Transfer {
    int peer = MPI_PROC_NULL;
    int tag = 0;
    MPI_Datatype datatype = MPI_DATATYPE_NULL;
  };
  struct Round {
    std::vector<Transfer> receives;
    std::vector<Transfer> sends;
    std::vector<MPI_Request> requests;  // persistent: made once
  };
  struct Copy {
    const int* from = nullptr;
    int* to = nullptr;
  };

  template <stencils::Collective kind>
  void build(const naming::Geometry& geometry, int rank,
             const stencils::Schedule<kind>& schedule);
  // The address of a slot of the schedule.
  int* address(const stencils::Location& location);
  MPI_Datatype datatype_of(std::span<int* const> blocks) const;

  MPI_Comm comm_ = MPI_COMM_NULL;
  const int* send_ = nullptr;
  int* recv_ = nullptr;
  int ints_ = 0;
  std::size_t eager_bytes_ = 0;
  bool gather_ = true;  // allgather: one send block
  Posting posting_ = Posting::afresh;
  std::vector<int> temp_;
  std::vector<Round> rounds_;
  std::vector<Copy> copies_;
  int messages_ = 0;
};

}  // namespace experiments

#endif  // ORTHOCOMM_EXPERIMENTS_HAND_COMBINED_H_
