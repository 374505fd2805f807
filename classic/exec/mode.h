// classic::Mode: how an operation runs (blocking, non-blocking,
// persistent), for every collective of classic.
#ifndef ORTHOCOMM_CLASSIC_EXEC_MODE_H_
#define ORTHOCOMM_CLASSIC_EXEC_MODE_H_

namespace classic {

// How an operation runs:
//  - blocking:    returns once it has completed (a null Request);
//  - nonblocking: returns a pending Request (MPI-3 i*), completed by wait,
//                 test and their _all / _any forms;
//  - persistent:  returns an inactive Request (MPI-4 *_init); each
//                 classic::start runs the operation again on the same
//                 buffers.
enum class Mode { blocking, nonblocking, persistent };

namespace internal {

// The names of an operation in its three modes (classic::bcast,
// classic::ibcast, classic::bcast_init): errors name the one called.
struct Names {
  const char* blocking;
  const char* nonblocking;
  const char* persistent;
  const char* operator()(Mode mode) const {
    switch (mode) {
      case Mode::nonblocking:
        return nonblocking;
      case Mode::persistent:
        return persistent;
      case Mode::blocking:
        break;
    }
    return blocking;
  }
};

}  // namespace internal
}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_EXEC_MODE_H_
