#include "classic/neighbor/transport_graph.h"

#include <mpi.h>
// After mpi.h: MPIX_Neighbor_*_init, Open MPI 4.1's pcollreq extension.
#include <mpi-ext.h>

#include <algorithm>
#include <memory>
#include <utility>

#include "classic/base/environment.h"
#include "classic/collectives/internal/collective_call.h"

namespace classic {
namespace {

using internal::KeptArrays;

// `values`, never a null pointer: Open MPI rejects a null array even where
// the degree is 0.
template <typename T>
const T* array(std::span<const T> values) {
  static constexpr T kOne[1] = {};
  return values.empty() ? kOne : values.data();
}

// A copy of `values` that a request keeps, never a null pointer.
template <typename T>
const T* kept_array(KeptArrays& kept, std::span<const T> values) {
  return kept.keep(std::span<const T>(array(values),
                                      std::max<std::size_t>(values.size(), 1)));
}

void check(int code, const char* function) {
  if (code != MPI_SUCCESS) [[unlikely]] {
    internal::raise_collective_error(code, function);
  }
}

// One collective in `mode` from its transport forms: `blocking()` returns
// the code of the blocking call, which reads its arrays while it runs (so
// nothing is kept or allocated); `posters(kept)` returns the nonblocking
// and the persistent form (each `post(request)`) over copies of the arrays
// made in `kept`. Inlined, so that a blocking call builds neither form.
template <typename Blocking, typename Posters>
[[gnu::always_inline]] inline Request run(const TransportGraph& graph,
                                          Mode mode, const char* function,
                                          Blocking blocking, Posters posters) {
  if (mode == Mode::blocking) [[likely]] {
    check(blocking(), function);
    return {};
  }
  auto kept = std::make_shared<KeptArrays>();
  auto forms = posters(*kept);
  if (mode == Mode::nonblocking) {
    return internal::collective_request(graph.comm(), mode, function,
                                        std::move(kept), forms.first);
  }
  // A persistent request outlives the communicator's free() (MPI): it
  // keeps the transport's graph communicator it was made on.
  return internal::collective_request(
      graph.comm(), mode, function, std::move(kept),
      [owner = graph.weak_from_this().lock(), persistent = forms.second](
          MPI_Request* request) { return persistent(request); });
}

}  // namespace

TransportGraph::TransportGraph(const Comm& comm, std::span<const int> sources,
                               std::span<const int> destinations,
                               const char* function)
    : comm_(comm) {
  check(MPI_Dist_graph_create_adjacent(
            comm.transport(), static_cast<int>(sources.size()), sources.data(),
            MPI_UNWEIGHTED, static_cast<int>(destinations.size()),
            destinations.data(), MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &graph_),
        function);
  MPI_Comm_set_errhandler(graph_, MPI_ERRORS_RETURN);
}

TransportGraph::~TransportGraph() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (graph_ != MPI_COMM_NULL && Environment::active() && !finalized) {
    MPI_Comm_free(&graph_);
  }
}

namespace {

// allgather and alltoall: one send and one receive block (count and
// datatype) per edge, in the transport's three forms.
template <typename Blocking, typename Nonblocking, typename Persistent>
[[gnu::always_inline]] inline Request uniform_blocks(
    const TransportGraph& graph, Mode mode, const char* function,
    Blocking blocking, Nonblocking nonblocking, Persistent persistent,
    const void* send, int send_count, MPI_Datatype send_type, void* recv,
    int recv_count, MPI_Datatype recv_type) {
  MPI_Comm c = graph.get();
  return run(
      graph, mode, function,
      [&] {
        return blocking(send, send_count, send_type, recv, recv_count,
                        recv_type, c);
      },
      [=](KeptArrays& /*no arrays*/) {
        return std::pair(
            [=](MPI_Request* request) {
              return nonblocking(send, send_count, send_type, recv, recv_count,
                                 recv_type, c, request);
            },
            [=](MPI_Request* request) {
              return persistent(send, send_count, send_type, recv, recv_count,
                                recv_type, c, MPI_INFO_NULL, request);
            });
      });
}

}  // namespace

Request transport_neighbor_allgather(const TransportGraph& graph, Mode mode,
                                     const void* send, int send_count,
                                     MPI_Datatype send_type, void* recv,
                                     int recv_count, MPI_Datatype recv_type,
                                     const char* function) {
  return uniform_blocks(graph, mode, function, &MPI_Neighbor_allgather,
                        &MPI_Ineighbor_allgather, &MPIX_Neighbor_allgather_init,
                        send, send_count, send_type, recv, recv_count,
                        recv_type);
}

Request transport_neighbor_allgatherv(const TransportGraph& graph, Mode mode,
                                      const void* send, int send_count,
                                      MPI_Datatype send_type, void* recv,
                                      std::span<const int> recv_counts,
                                      std::span<const int> recv_displs,
                                      MPI_Datatype recv_type,
                                      const char* function) {
  MPI_Comm c = graph.get();
  return run(
      graph, mode, function,
      [&] {
        return MPI_Neighbor_allgatherv(send, send_count, send_type, recv,
                                       array(recv_counts), array(recv_displs),
                                       recv_type, c);
      },
      [&](KeptArrays& kept) {
        const int* counts = kept_array(kept, recv_counts);
        const int* displs = kept_array(kept, recv_displs);
        return std::pair(
            [=](MPI_Request* request) {
              return MPI_Ineighbor_allgatherv(send, send_count, send_type, recv,
                                              counts, displs, recv_type, c,
                                              request);
            },
            [=](MPI_Request* request) {
              return MPIX_Neighbor_allgatherv_init(
                  send, send_count, send_type, recv, counts, displs, recv_type,
                  c, MPI_INFO_NULL, request);
            });
      });
}

[[gnu::hot]] Request transport_neighbor_alltoall(
    const TransportGraph& graph, Mode mode, const void* send, int send_count,
    MPI_Datatype send_type, void* recv, int recv_count, MPI_Datatype recv_type,
    const char* function) {
  return uniform_blocks(graph, mode, function, &MPI_Neighbor_alltoall,
                        &MPI_Ineighbor_alltoall, &MPIX_Neighbor_alltoall_init,
                        send, send_count, send_type, recv, recv_count,
                        recv_type);
}

[[gnu::hot]] Request transport_neighbor_alltoallv(
    const TransportGraph& graph, Mode mode, const void* send,
    std::span<const int> send_counts, std::span<const int> send_displs,
    MPI_Datatype send_type, void* recv, std::span<const int> recv_counts,
    std::span<const int> recv_displs, MPI_Datatype recv_type,
    const char* function) {
  MPI_Comm c = graph.get();
  return run(
      graph, mode, function,
      [&] {
        return MPI_Neighbor_alltoallv(
            send, array(send_counts), array(send_displs), send_type, recv,
            array(recv_counts), array(recv_displs), recv_type, c);
      },
      [&](KeptArrays& kept) {
        const int* sc = kept_array(kept, send_counts);
        const int* sd = kept_array(kept, send_displs);
        const int* rc = kept_array(kept, recv_counts);
        const int* rd = kept_array(kept, recv_displs);
        return std::pair(
            [=](MPI_Request* request) {
              return MPI_Ineighbor_alltoallv(send, sc, sd, send_type, recv, rc,
                                             rd, recv_type, c, request);
            },
            [=](MPI_Request* request) {
              return MPIX_Neighbor_alltoallv_init(send, sc, sd, send_type, recv,
                                                  rc, rd, recv_type, c,
                                                  MPI_INFO_NULL, request);
            });
      });
}

Request transport_neighbor_alltoallw(
    const TransportGraph& graph, Mode mode, const void* send,
    std::span<const int> send_counts, std::span<const MPI_Aint> send_displs,
    std::span<const MPI_Datatype> send_types, void* recv,
    std::span<const int> recv_counts, std::span<const MPI_Aint> recv_displs,
    std::span<const MPI_Datatype> recv_types, const char* function) {
  MPI_Comm c = graph.get();
  return run(
      graph, mode, function,
      [&] {
        return MPI_Neighbor_alltoallw(
            send, array(send_counts), array(send_displs), array(send_types),
            recv, array(recv_counts), array(recv_displs), array(recv_types), c);
      },
      [&](KeptArrays& kept) {
        const int* sc = kept_array(kept, send_counts);
        const MPI_Aint* sd = kept_array(kept, send_displs);
        const MPI_Datatype* st = kept_array(kept, send_types);
        const int* rc = kept_array(kept, recv_counts);
        const MPI_Aint* rd = kept_array(kept, recv_displs);
        const MPI_Datatype* rt = kept_array(kept, recv_types);
        return std::pair(
            [=](MPI_Request* request) {
              return MPI_Ineighbor_alltoallw(send, sc, sd, st, recv, rc, rd, rt,
                                             c, request);
            },
            [=](MPI_Request* request) {
              return MPIX_Neighbor_alltoallw_init(send, sc, sd, st, recv, rc,
                                                  rd, rt, c, MPI_INFO_NULL,
                                                  request);
            });
      });
}

}  // namespace classic
