// What abandoned operations leave behind: messages their peers still send,
// received into classic's own memory and thrown away, and sends finishing in
// the background. Internal to classic.
#ifndef ORTHOCOMM_CLASSIC_EXEC_INTERNAL_LEFTOVERS_H_
#define ORTHOCOMM_CLASSIC_EXEC_INTERNAL_LEFTOVERS_H_

#include <mpi.h>

#include <memory>

#include "classic/base/internal/inside_classic.h"

namespace classic::internal {

// One message from `source` with `tag` on `context` that nobody will
// receive, expected to be `bytes` long (MPI_Pack_size of what the withdrawn
// receive expected): a receive of that many MPI_PACKED bytes is posted into
// classic's memory now, so the transport's own progress takes the message
// whenever it arrives, even while this process waits in a call that is not
// classic's. A longer (erroneous) message is truncated there and its error
// ignored (the sink has room beyond `bytes`: Open MPI 4.1.4 writes a
// too-long rendezvous message past the end of a receive buffer). The context is
// retained (transport::retain_context) until the message has come, so freeing
// its communicator meanwhile is safe.
void discard_message(MPI_Comm context, int source, int tag, int bytes);

// What becomes of a request's handle once it has completed: a persistent
// request stays (inactive) and is freed then; another is gone by itself.
enum class Handle { keep, free };

// A posted send that nobody will wait for: it completes in the background;
// `keep` (its scratch buffer, say) lives until then.
void finish_in_background(MPI_Request request, std::shared_ptr<void> keep,
                          Handle handle = Handle::keep);

// Lets go of discarded messages that have come and of completed sends;
// cheap when there is nothing. Called when operations begin.
void collect_leftovers();

}  // namespace classic::internal

#endif  // ORTHOCOMM_CLASSIC_EXEC_INTERNAL_LEFTOVERS_H_
