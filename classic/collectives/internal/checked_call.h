// One collective call's part in checked mode's agreement
// (classic/collectives/checked.h), held by the call machinery of classic's
// collectives: the facts are added as the arguments are checked, agree()
// runs before anything is sent, and a call that raises before it agreed
// takes part with its error as it is destroyed, so that the other
// processes raise too instead of waiting. Internal to classic.
#ifndef ORTHOCOMM_CLASSIC_COLLECTIVES_INTERNAL_CHECKED_CALL_H_
#define ORTHOCOMM_CLASSIC_COLLECTIVES_INTERNAL_CHECKED_CALL_H_

#include <mpi.h>

#include <string_view>

#include "classic/base/internal/inside_classic.h"
#include "classic/collectives/checked.h"
#include "classic/comm/comm.h"

namespace classic::internal {

// ORTHO_CHECK_TIMEOUT: how long a checked call waits for the other
// processes, in seconds (default 60; 0: for ever). Read once.
double check_timeout_s();

// Raises checked mode's error for a call of `function` on process `rank`
// that waited `limit` seconds for `waited_for` (e.g. "its neighbours"),
// naming every process's last checked call where all of them stalled.
[[noreturn]] void raise_stalled(std::string_view function, int rank,
                                double limit, std::string_view waited_for);

class CheckedCall {
 public:
  // Active when checked mode is on (checked()) as the call begins.
  CheckedCall(const Comm& comm, const char* function);
  ~CheckedCall();
  CheckedCall(const CheckedCall&) = delete;
  CheckedCall& operator=(const CheckedCall&) = delete;

  bool active() const { return active_; }
  void root(int root) {
    if (active_) facts_.root = root;
  }
  void op(MPI_Op op) {
    if (active_) facts_.set_op(op);
  }
  // A block every process must send or receive with the same bytes.
  void uniform(int count, MPI_Datatype datatype) {
    if (active_) facts_.add_block(count, datatype);
  }
  // Step 1 of the agreement, once (active only).
  void agree();
  // The call is checked along its edges instead (checked.h: execute_checked):
  // no agreement, now or as the call unwinds.
  void checked_along_edges() { agreed_ = true; }

 private:
  const Comm* comm_;
  bool active_;
  bool agreed_ = false;
  int exceptions_;  // uncaught as the call began
  CallFacts facts_;
};

}  // namespace classic::internal

#endif  // ORTHOCOMM_CLASSIC_COLLECTIVES_INTERNAL_CHECKED_CALL_H_
