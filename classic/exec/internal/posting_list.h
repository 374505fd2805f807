// What a plan posts, flattened once per plan: the executor's view of a
// classic::Plan's messages. Internal to classic.
#ifndef ORTHOCOMM_CLASSIC_EXEC_INTERNAL_POSTING_LIST_H_
#define ORTHOCOMM_CLASSIC_EXEC_INTERNAL_POSTING_LIST_H_

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "classic/base/internal/inside_classic.h"
#include "classic/exec/plan.h"

namespace classic::internal {

// What a plan posts, flattened: for each round the messages to real peers
// (proc_null ones left out), receives then sends, each with what its
// transport call takes. Made once per plan (Plan::executor_cache), so a
// call does not walk the plan's nested vectors message by message.
struct PostingList {
  struct Posting {
    Plan::Space space = Plan::Space::send;  // single blocks: where it lies
    MPI_Aint displacement = 0;
    int count = 0;
    MPI_Datatype datatype = MPI_DATATYPE_NULL;
    int peer = 0;
    Plan::Group group = Plan::Group::peers;
    int tag = 0;
    bool single = true;         // one block; else bound as several
    std::uint32_t message = 0;  // its index in the round's list
  };
  struct Round {
    std::vector<Posting> receives;
    std::vector<Posting> sends;
    // The number of the round's first posting when the postings of all
    // rounds are numbered one after the other (receives, then sends).
    std::size_t first = 0;
  };
  std::vector<Round> rounds;
  std::size_t count = 0;        // postings in all rounds
  bool several_blocks = false;  // some message has more than one block
};

// The posting list of `plan`, made on its first use and kept with it
// (Plan::executor_cache).
const PostingList& postings_of(const Plan& plan);

}  // namespace classic::internal

#endif  // ORTHOCOMM_CLASSIC_EXEC_INTERNAL_POSTING_LIST_H_
