#include "classic/base/environment.h"

#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "classic/base/error.h"
#include "classic/base/internal/error_handler.h"

namespace classic {
namespace {

struct State {
  bool owns_transport = false;
  int world_rank = 0;
  int world_size = 0;
  std::vector<void (*)()> finalizers;
  MPI_Comm world_context = MPI_COMM_NULL;
  MPI_Comm self_context = MPI_COMM_NULL;
  MPI_Comm bridge_context = MPI_COMM_NULL;
  MPI_Comm report_context = MPI_COMM_NULL;
};

State& state() {
  static State instance;
  return instance;
}

void require_active(const char* function) {
  if (!Environment::active()) {
    throw Error(ErrorClass::other, function,
                "no classic::Environment is active");
  }
}

}  // namespace

namespace {

std::terminate_handler previous_terminate = nullptr;

// UncaughtErrors::report_and_abort: one line, then the whole job ends.
[[noreturn]] void report_and_abort() {
  const int rank = state().world_rank;
  std::string what = "an unknown exception";
  if (const std::exception_ptr thrown = std::current_exception()) {
    try {
      std::rethrow_exception(thrown);
    } catch (const std::exception& error) {
      what = error.what();
    } catch (...) {
    }
  } else {
    what = "std::terminate without an exception";
  }
  std::fprintf(stderr, "orthocomm: rank %d: %s\n", rank, what.c_str());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, kUncaughtErrorExitCode);
  std::_Exit(kUncaughtErrorExitCode);
}

}  // namespace

Environment::Environment(int& argc, char**& argv, UncaughtErrors uncaught) {
  State& s = state();
  if (Environment::active()) {
    throw Error(ErrorClass::other, "classic::Environment",
                "an Environment is already active");
  }
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &provided);
    s.owns_transport = true;
  }
  // Errors are reported by orthocomm as exceptions, never by aborting.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_rank(MPI_COMM_WORLD, &s.world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &s.world_size);
  MPI_Comm_dup(MPI_COMM_WORLD, &s.world_context);
  MPI_Comm_dup(MPI_COMM_SELF, &s.self_context);
  MPI_Comm_dup(MPI_COMM_WORLD, &s.bridge_context);
  MPI_Comm_dup(MPI_COMM_WORLD, &s.report_context);
  for (MPI_Comm context :
       {s.world_context, s.self_context, s.bridge_context, s.report_context}) {
    MPI_Comm_set_errhandler(context, transport::recording_errhandler());
  }
  if (uncaught == UncaughtErrors::report_and_abort) {
    previous_terminate = std::set_terminate(&report_and_abort);
  }
  active_ = true;
}

Environment::~Environment() {
  State& s = state();
  while (!s.finalizers.empty()) {
    void (*finalizer)() = s.finalizers.back();
    s.finalizers.pop_back();
    finalizer();
  }
  MPI_Comm_free(&s.report_context);
  MPI_Comm_free(&s.bridge_context);
  MPI_Comm_free(&s.self_context);
  MPI_Comm_free(&s.world_context);
  if (previous_terminate != nullptr) {
    std::set_terminate(previous_terminate);
    previous_terminate = nullptr;
  }
  active_ = false;
  if (s.owns_transport) {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Finalize();
  }
  s.owns_transport = false;
}

int Environment::world_rank() {
  require_active("classic::Environment::world_rank");
  return state().world_rank;
}

int Environment::world_size() {
  require_active("classic::Environment::world_size");
  return state().world_size;
}

MPI_Comm Environment::world_context() {
  require_active("classic::Environment::world_context");
  return state().world_context;
}

MPI_Comm Environment::self_context() {
  require_active("classic::Environment::self_context");
  return state().self_context;
}

MPI_Comm Environment::bridge_context() {
  require_active("classic::Environment::bridge_context");
  return state().bridge_context;
}

MPI_Comm Environment::report_context() {
  require_active("classic::Environment::report_context");
  return state().report_context;
}

void Environment::at_finalize(void (*finalizer)()) {
  require_active("classic::Environment::at_finalize");
  state().finalizers.push_back(finalizer);
}

}  // namespace classic
