#include "experiments/halo/traffic.h"

#include <mpi.h>

#include <unordered_map>

namespace {

bool counting = false;
std::int64_t messages = 0;
std::int64_t bytes = 0;

// The bytes of each persistent send made (MPI_Send_init), counted as a
// message whenever it is started.
std::unordered_map<MPI_Request, std::int64_t>& persistent_sends() {
  static std::unordered_map<MPI_Request, std::int64_t> sends;
  return sends;
}

std::int64_t bytes_of(int count, MPI_Datatype datatype) {
  int size = 0;
  PMPI_Type_size(datatype, &size);
  return static_cast<std::int64_t>(count) * size;
}

void count_start(MPI_Request request) {
  if (!counting) return;
  const auto found = persistent_sends().find(request);
  if (found == persistent_sends().end()) return;  // a receive, or not ours
  messages += 1;
  bytes += found->second;
}

}  // namespace

// The profiling interface: this definition takes the place of Open MPI's
// MPI_Isend in the program that links this library (alwayslink).
extern "C" int MPI_Isend(const void* buffer, int count, MPI_Datatype datatype,
                         int dest, int tag, MPI_Comm comm,
                         MPI_Request* request) {
  if (counting && dest != MPI_PROC_NULL) {
    messages += 1;
    bytes += bytes_of(count, datatype);
  }
  return PMPI_Isend(buffer, count, datatype, dest, tag, comm, request);
}

// Persistent sends (classic's executor keeps them for the larger messages
// of persistent operations): counted at every start.
extern "C" int MPI_Send_init(const void* buffer, int count,
                             MPI_Datatype datatype, int dest, int tag,
                             MPI_Comm comm, MPI_Request* request) {
  const int code =
      PMPI_Send_init(buffer, count, datatype, dest, tag, comm, request);
  if (code == MPI_SUCCESS && dest != MPI_PROC_NULL) {
    persistent_sends()[*request] = bytes_of(count, datatype);
  }
  return code;
}

extern "C" int MPI_Start(MPI_Request* request) {
  count_start(*request);
  return PMPI_Start(request);
}

extern "C" int MPI_Startall(int count, MPI_Request requests[]) {
  for (int i = 0; i < count; ++i) count_start(requests[i]);
  return PMPI_Startall(count, requests);
}

extern "C" int MPI_Request_free(MPI_Request* request) {
  persistent_sends().erase(*request);
  return PMPI_Request_free(request);
}

namespace halo {

Traffic count_sends(const std::function<void()>& run) {
  messages = 0;
  bytes = 0;
  struct Counting {
    Counting() { counting = true; }
    ~Counting() { counting = false; }
    Counting(const Counting&) = delete;
    Counting& operator=(const Counting&) = delete;
  };
  {
    const Counting scope;
    run();
  }
  return {messages, bytes, true};
}

}  // namespace halo
