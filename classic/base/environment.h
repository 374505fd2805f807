// classic::Environment: owns the transport's lifetime (init and finalize).
#ifndef ORTHOCOMM_CLASSIC_BASE_ENVIRONMENT_H_
#define ORTHOCOMM_CLASSIC_BASE_ENVIRONMENT_H_

#include <mpi.h>

namespace classic {

// What happens to an exception that leaves main (or any thread) uncaught.
enum class UncaughtErrors {
  // C++'s default: std::terminate, so SIGABRT and the runtime's text.
  terminate,
  // One line on stderr, "orthocomm: rank R: <what()>" (a classic::Error's
  // what() names the function, the argument and the value), then
  // MPI_Abort(MPI_COMM_WORLD, kUncaughtErrorExitCode): the whole job ends
  // with that status instead of a backtrace per process.
  report_and_abort,
};

// The exit status of a job ended by UncaughtErrors::report_and_abort
// (EX_SOFTWARE of sysexits.h).
inline constexpr int kUncaughtErrorExitCode = 70;

// Exactly one Environment exists while orthocomm is in use; it initialises
// the transport (unless the application already did) and finalises it when
// it goes, if it was the one that initialised it. `uncaught` says what an
// uncaught exception does while it is active.
class Environment {
 public:
  Environment(int& argc, char**& argv,
              UncaughtErrors uncaught = UncaughtErrors::terminate);
  ~Environment();

  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;

  // True between construction and destruction of the Environment. Inline:
  // every communicator access asks it.
  static bool active() noexcept { return active_; }
  // The calling process's rank in, and the size of, the world: fixed for the
  // life of the Environment. Raise ErrorClass::other when none is active.
  static int world_rank();
  static int world_size();

  // For classic's own objects that hold transport resources (the world and
  // self communicators): `finalizer` runs when the Environment ends, before
  // the transport is finalised, in reverse order of registration.
  static void at_finalize(void (*finalizer)());

  // Private transport contexts over the world and over the calling process,
  // made when the Environment starts (collectively, so that Comm::world()
  // and Comm::self() can be local) and given back when it ends.
  static MPI_Comm world_context();
  static MPI_Comm self_context();
  // A third private context over the world, on which classic's transport
  // builds contexts for groups that share no communicator (intercomm_create).
  static MPI_Comm bridge_context();
  // A fourth, for reports that must reach the other processes when every
  // other context may be stuck (checked mode's report of a stalled call).
  static MPI_Comm report_context();

 private:
  static inline bool active_ = false;
};

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_BASE_ENVIRONMENT_H_
