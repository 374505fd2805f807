// When one message of a combining schedule (schedule.h) is better sent as
// two: the rule that ortho's plans, its cost model and the hand-posted
// floor of experiments/ share, so that all three count the same messages.
// MPI-free and free of every other part of orthocomm.
#ifndef ORTHOCOMM_STENCILS_MESSAGE_SPLIT_H_
#define ORTHOCOMM_STENCILS_MESSAGE_SPLIT_H_

#include <cstddef>

namespace stencils {

// How many of a message's `blocks` blocks (of `block_bytes` bytes each) go
// in a first message of their own, the rest in a second: where the message
// is larger than `eager_bytes` (the transport's eager limit, above which a
// message waits for a rendezvous) and each half is not, the first
// ceil(blocks / 2); otherwise all of them (one message). On a torus with a
// dimension of size 2 the hops +1 and -1 reach one process and the
// schedules merge their messages, which can push the merged message past
// the limit where the two alone stay below it. Sender and receiver split
// alike, since both know the blocks and their size.
int first_part_blocks(int blocks, std::size_t block_bytes,
                      std::size_t eager_bytes);

}  // namespace stencils

#endif  // ORTHOCOMM_STENCILS_MESSAGE_SPLIT_H_
