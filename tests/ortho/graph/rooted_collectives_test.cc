// Brute-force test of ortho's rooted collectives on directed graphs: bcast,
// gather, gatherv, scatter, scatterv and reduce on random directed
// multigraphs (self loops, repeated edges, empty neighbourhoods), checked
// against references that each process computes from the global edge list
// (every process generates the same graph from a shared seed, and what any
// process sends is a function of the call, its rank and the position).
//
// The semantics (ortho/collectives.h, ortho/algorithms/graph_plans.h):
//   bcast      the root's buffer reaches its out-neighbours; others keep
//              theirs;
//   gather(v)  block i at the root from its in-neighbour i (self loops:
//              the root's own block; in place: the root's own slots keep
//              what they held);
//   scatter(v) the root's block i to out-neighbour i; a process the root
//              reaches by several edges gets the block of the first; in
//              place, the root receives nothing;
//   reduce     at the root, s_0 op s_1 op ... op s_{k-1} over its
//              in-neighbours in order (a non-commutative user op sees that
//              order); with no in-neighbour the receive buffer is left as
//              it was; in place, the root's operand is its receive buffer.
// Buffers not written by the semantics must keep their contents (receive
// buffers start with a sentinel), and processes with nothing to exchange
// complete a non-blocking call at its first test. Every call runs in one of
// the three modes (persistent: started twice, new contents before each
// start), raw (also with a derived vector datatype, and a 2x2 matrix type
// with a matrix-product op) or typed, with new buffers every time; blocks
// of a few elements, one call in ten of kilobytes.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "classic/collectives/collectives.h"
#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "classic/p2p/request.h"
#include "ortho/collectives.h"
#include "tests/ortho/graph/graph_testing.h"

namespace {

using classic::Comm;
using classic::Mode;
using ortho_graph_testing::at;
using ortho_graph_testing::chance;
using ortho_graph_testing::Construction;
using ortho_graph_testing::expect_same_bits;
using ortho_graph_testing::fold;
using ortho_graph_testing::fold_reversed;
using ortho_graph_testing::Graph;
using ortho_graph_testing::in_mode;
using ortho_graph_testing::is_user;
using ortho_graph_testing::Kind;
using ortho_graph_testing::Layout;
using ortho_graph_testing::operands;
using ortho_graph_testing::Random;
using ortho_graph_testing::Reduction;
using ortho_graph_testing::sentinel;
using ortho_graph_testing::touched;
using ortho_graph_testing::uniform;
using ortho_graph_testing::unit;
using ortho_graph_testing::value;

constexpr unsigned kSeed = 0x7007edu;
constexpr int kGraphs = 30;  // per process count
constexpr int kCallsPerGraph = 16;
constexpr int kStarts = 2;

enum class Op { bcast, gather, gatherv, scatter, scatterv, reduce };
constexpr int kOps = 6;

const char* to_string(Op op) {
  static const char* const kNames[] = {"bcast",   "gather",   "gatherv",
                                       "scatter", "scatterv", "reduce"};
  return kNames[static_cast<int>(op)];
}

bool contains(const std::vector<int>& ranks, int rank) {
  return std::find(ranks.begin(), ranks.end(), rank) != ranks.end();
}

// What one call is, as every process draws it, and where it runs.
struct Call {
  const Graph& graph;
  const Comm& comm;
  int me;
  Op op;
  int root;
  Mode mode;
  bool typed;
  Kind kind;  // raw: the datatype's layout (typed: basic)
  MPI_Datatype type;
  bool in_place;  // at the root, where the operation has an in-place form
  int scale;      // blocks of a few elements (1) or of kilobytes
  unsigned salt;  // the data of start s: salt + s
  std::string name;

  const std::vector<int>& root_sources() const { return graph.in(root); }
  const std::vector<int>& root_destinations() const { return graph.out(root); }
  bool at_root() const { return me == root; }
  std::size_t u() const { return at(unit(kind)); }
  std::string when(int start) const {
    return name + ", start " + std::to_string(start + 1);
  }
};

// Fills `buffer` with what process `rank` holds in the call of `salt`.
template <typename T>
void fill(std::vector<T>& buffer, unsigned salt, int rank) {
  for (std::size_t j = 0; j < buffer.size(); ++j) {
    buffer[j] = value<T>(salt, rank, static_cast<int>(j));
  }
}

// A receive buffer of n elements holding the sentinel (a new allocation).
template <typename T>
std::vector<T> receive_buffer(std::size_t n) {
  return std::vector<T>(n, sentinel<T>());
}

// Copies the `count` elements of `kind` that process `rank` holds at
// `from` (in the call of `salt`) to `to` in `want`.
template <typename T>
void place(std::vector<T>& want, std::size_t to, Kind kind, int count,
           unsigned salt, int rank, std::size_t from) {
  for (const std::size_t offset : touched(kind, count)) {
    want[to + offset] = value<T>(salt, rank, static_cast<int>(from + offset));
  }
}

// For a process that exchanges nothing in this call: a non-blocking call
// completes at its first test (locally).
// Also: the call returned what its mode says.
void expect_local(const Call& c, classic::Request& request, bool idle) {
  ortho_graph_testing::expect_returned(c.mode, request);
  if (c.mode != Mode::nonblocking || !idle) return;
  EXPECT_TRUE(classic::test(request).has_value())
      << c.name << ": a process with nothing to exchange did not complete "
      << "locally";
}

// ---- bcast ------------------------------------------------------------------

template <typename T>
void check_bcast(const Call& c, Random& shared) {
  const int count = c.scale * uniform(shared, 0, 4);
  std::vector<T> buffer(at(count) * c.u());
  const bool reached = !c.at_root() && contains(c.graph.in(c.me), c.root);
  const auto prepare = [&](int start) { fill(buffer, c.salt + start, c.me); };
  prepare(0);
  classic::Request request =
      c.typed
          ? in_mode(
                c.mode,
                [&] { ortho::bcast(c.comm, std::span(buffer), c.root); },
                [&] {
                  return ortho::ibcast(c.comm, std::span(buffer), c.root);
                },
                [&] {
                  return ortho::bcast_init(c.comm, std::span(buffer), c.root);
                })
          : in_mode(
                c.mode,
                [&] {
                  ortho::bcast(c.comm, buffer.data(), count, c.type, c.root);
                },
                [&] {
                  return ortho::ibcast(c.comm, buffer.data(), count, c.type,
                                       c.root);
                },
                [&] {
                  return ortho::bcast_init(c.comm, buffer.data(), count, c.type,
                                           c.root);
                });
  const bool sends =
      c.at_root() &&
      std::any_of(c.root_destinations().begin(), c.root_destinations().end(),
                  [&](int d) { return d != c.me; });
  expect_local(c, request, !reached && !sends);
  ortho_graph_testing::complete(
      c.mode, request, kStarts, prepare, [&](int start) {
        std::vector<T> want(buffer.size());
        fill(want, c.salt + start, c.me);
        if (reached) place(want, 0, c.kind, count, c.salt + start, c.root, 0);
        expect_same_bits(buffer, want, c.when(start));
      });
}

// ---- gather, gatherv --------------------------------------------------------

// What the root's own slots hold before an in-place gather: anything, as
// long as it stays.
template <typename T>
T own_slot_marker(unsigned salt, int index) {
  return value<T>(salt + 99991u, -1, index);
}

template <typename T>
void check_gather(const Call& c, Random& shared, Random& local) {
  const int count = c.scale * uniform(shared, 0, 3);
  const bool by_value =
      c.typed && c.mode == Mode::blocking && !c.in_place && chance(local, 40);
  const std::vector<int>& in = c.root_sources();
  const std::size_t block = at(count) * c.u();
  std::vector<T> send(block);
  std::size_t recv_length = at(uniform(local, 0, 3));  // ignored off the root
  if (c.at_root()) {
    recv_length = in.size() * block +
                  (c.typed && c.in_place ? 0 : at(uniform(local, 0, 2)));
  }
  if (by_value) {  // the root's blocks, exactly; nothing elsewhere
    recv_length = c.at_root() ? in.size() * block : 0;
  }
  std::vector<T> recv = receive_buffer<T>(recv_length);
  const bool in_place = c.in_place && c.at_root();
  // The slots of the root's self loops, which in place keep their contents.
  const auto own = [&](std::size_t i) { return in_place && in[i] == c.me; };
  const auto prepare = [&](int start) {
    fill(send, c.salt + start, c.me);
    std::fill(recv.begin(), recv.end(), sentinel<T>());
    for (std::size_t i = 0; c.at_root() && i < in.size(); ++i) {
      if (!own(i)) continue;
      for (std::size_t k = 0; k < block; ++k) {
        recv[i * block + k] =
            own_slot_marker<T>(c.salt + start, static_cast<int>(i * block + k));
      }
    }
  };
  prepare(0);
  const std::span<const T> s(send);
  const std::span<T> r(recv);
  const void* sp = in_place ? MPI_IN_PLACE : send.data();
  classic::Request request;
  if (by_value) {
    recv = ortho::gather(c.comm, s, c.root);
  } else if (c.typed && in_place) {
    request = in_mode(
        c.mode, [&] { ortho::gather(c.comm, classic::in_place, r, c.root); },
        [&] { return ortho::igather(c.comm, classic::in_place, r, c.root); },
        [&] {
          return ortho::gather_init(c.comm, classic::in_place, r, c.root);
        });
  } else if (c.typed) {
    request = in_mode(
        c.mode, [&] { ortho::gather(c.comm, s, r, c.root); },
        [&] { return ortho::igather(c.comm, s, r, c.root); },
        [&] { return ortho::gather_init(c.comm, s, r, c.root); });
  } else {
    void* rp = recv.data();
    request = in_mode(
        c.mode,
        [&] {
          ortho::gather(c.comm, sp, count, c.type, rp, count, c.type, c.root);
        },
        [&] {
          return ortho::igather(c.comm, sp, count, c.type, rp, count, c.type,
                                c.root);
        },
        [&] {
          return ortho::gather_init(c.comm, sp, count, c.type, rp, count,
                                    c.type, c.root);
        });
  }
  const bool sends = !c.at_root() && contains(c.graph.out(c.me), c.root);
  expect_local(c, request, !c.at_root() && !sends);
  ortho_graph_testing::complete(
      c.mode, request, kStarts, prepare, [&](int start) {
        const unsigned salt = c.salt + start;
        std::vector<T> want = receive_buffer<T>(recv_length);
        for (std::size_t i = 0; c.at_root() && i < in.size(); ++i) {
          if (own(i)) {
            for (std::size_t k = 0; k < block; ++k) {
              want[i * block + k] =
                  own_slot_marker<T>(salt, static_cast<int>(i * block + k));
            }
          } else {
            place(want, i * block, c.kind, count, salt, in[i], 0);
          }
        }
        expect_same_bits(recv, want, c.when(start) + ": recv");
        std::vector<T> sent(send.size());
        fill(sent, salt, c.me);
        expect_same_bits(send, sent, c.when(start) + ": send");
      });
}

template <typename T>
void check_gatherv(const Call& c, Random& shared, Random& local) {
  std::vector<int> counts_of(at(c.graph.size));  // each process's send count
  for (int& n : counts_of) n = c.scale * uniform(shared, 0, 4);
  const std::vector<int>& in = c.root_sources();
  const bool in_place = c.in_place && c.at_root();  // raw only
  std::vector<int> recvcounts, displs;
  std::size_t recv_length = at(uniform(local, 0, 3));  // ignored off the root
  if (c.at_root()) {
    for (const int source : in) recvcounts.push_back(counts_of[at(source)]);
    const Layout layout = ortho_graph_testing::scattered(local, recvcounts);
    displs = layout.displs;
    recv_length = at(layout.extent) * c.u();
  }
  const int send_count = counts_of[at(c.me)];
  std::vector<T> send(at(send_count) * c.u());
  std::vector<T> recv = receive_buffer<T>(recv_length);
  const auto own = [&](std::size_t i) { return in_place && in[i] == c.me; };
  const auto own_slot = [&](std::vector<T>& buffer, std::size_t i,
                            unsigned salt) {
    const std::size_t begin = at(displs[i]) * c.u();
    for (std::size_t k = 0; k < at(recvcounts[i]) * c.u(); ++k) {
      buffer[begin + k] = own_slot_marker<T>(salt, static_cast<int>(begin + k));
    }
  };
  const auto prepare = [&](int start) {
    fill(send, c.salt + start, c.me);
    std::fill(recv.begin(), recv.end(), sentinel<T>());
    for (std::size_t i = 0; c.at_root() && i < in.size(); ++i) {
      if (own(i)) own_slot(recv, i, c.salt + start);
    }
  };
  prepare(0);
  classic::Request request;
  if (c.typed) {
    const std::span<const T> s(send);
    const std::span<T> r(recv);
    request = in_mode(
        c.mode,
        [&] { ortho::gatherv(c.comm, s, r, recvcounts, displs, c.root); },
        [&] {
          return ortho::igatherv(c.comm, s, r, recvcounts, displs, c.root);
        },
        [&] {
          return ortho::gatherv_init(c.comm, s, r, recvcounts, displs, c.root);
        });
  } else {
    const void* sp = in_place ? MPI_IN_PLACE : send.data();
    void* rp = recv.data();
    request = in_mode(
        c.mode,
        [&] {
          ortho::gatherv(c.comm, sp, send_count, c.type, rp, recvcounts, displs,
                         c.type, c.root);
        },
        [&] {
          return ortho::igatherv(c.comm, sp, send_count, c.type, rp, recvcounts,
                                 displs, c.type, c.root);
        },
        [&] {
          return ortho::gatherv_init(c.comm, sp, send_count, c.type, rp,
                                     recvcounts, displs, c.type, c.root);
        });
  }
  const bool sends = !c.at_root() && contains(c.graph.out(c.me), c.root);
  expect_local(c, request, !c.at_root() && !sends);
  ortho_graph_testing::complete(
      c.mode, request, kStarts, prepare, [&](int start) {
        const unsigned salt = c.salt + start;
        std::vector<T> want = receive_buffer<T>(recv_length);
        for (std::size_t i = 0; c.at_root() && i < in.size(); ++i) {
          if (own(i)) {
            own_slot(want, i, salt);
          } else {
            place(want, at(displs[i]) * c.u(), c.kind, recvcounts[i], salt,
                  in[i], 0);
          }
        }
        expect_same_bits(recv, want, c.when(start) + ": recv");
      });
}

// ---- scatter, scatterv ------------------------------------------------------

// The root's first edge to `rank`; -1 if it has none.
int first_edge(const std::vector<int>& destinations, int rank) {
  const auto found = std::find(destinations.begin(), destinations.end(), rank);
  return found == destinations.end()
             ? -1
             : static_cast<int>(found - destinations.begin());
}

template <typename T>
void check_scatter(const Call& c, Random& shared, Random& local) {
  const int count = c.scale * uniform(shared, 0, 3);
  const std::vector<int>& out = c.root_destinations();
  const std::size_t block = at(count) * c.u();
  const bool in_place = c.in_place && c.at_root();
  std::size_t send_length = at(uniform(local, 0, 3));  // ignored off the root
  if (c.at_root()) {
    send_length = out.size() * block +
                  (c.typed && in_place ? 0 : at(uniform(local, 0, 2)));
  }
  std::vector<T> send(send_length);
  std::vector<T> recv = receive_buffer<T>(in_place ? 0 : block);
  const int first = first_edge(out, c.me);
  const bool reached = first >= 0 && !in_place;
  const auto prepare = [&](int start) {
    fill(send, c.salt + start, c.me);
    std::fill(recv.begin(), recv.end(), sentinel<T>());
  };
  prepare(0);
  const std::span<const T> s(send);
  const std::span<T> r(recv);
  classic::Request request;
  if (c.typed && in_place) {
    request = in_mode(
        c.mode, [&] { ortho::scatter(c.comm, s, classic::in_place, c.root); },
        [&] { return ortho::iscatter(c.comm, s, classic::in_place, c.root); },
        [&] {
          return ortho::scatter_init(c.comm, s, classic::in_place, c.root);
        });
  } else if (c.typed) {
    request = in_mode(
        c.mode, [&] { ortho::scatter(c.comm, s, r, c.root); },
        [&] { return ortho::iscatter(c.comm, s, r, c.root); },
        [&] { return ortho::scatter_init(c.comm, s, r, c.root); });
  } else {
    const void* sp = send.data();
    void* rp = in_place ? MPI_IN_PLACE : recv.data();
    request = in_mode(
        c.mode,
        [&] {
          ortho::scatter(c.comm, sp, count, c.type, rp, count, c.type, c.root);
        },
        [&] {
          return ortho::iscatter(c.comm, sp, count, c.type, rp, count, c.type,
                                 c.root);
        },
        [&] {
          return ortho::scatter_init(c.comm, sp, count, c.type, rp, count,
                                     c.type, c.root);
        });
  }
  expect_local(c, request, !c.at_root() && !reached);
  ortho_graph_testing::complete(
      c.mode, request, kStarts, prepare, [&](int start) {
        const unsigned salt = c.salt + start;
        std::vector<T> want = receive_buffer<T>(recv.size());
        if (reached) {
          place(want, 0, c.kind, count, salt, c.root, at(first) * block);
        }
        expect_same_bits(recv, want, c.when(start) + ": recv");
        std::vector<T> sent(send.size());
        fill(sent, salt, c.me);
        expect_same_bits(send, sent, c.when(start) + ": send");
      });
}

template <typename T>
void check_scatterv(const Call& c, Random& shared, Random& local) {
  const std::vector<int>& out = c.root_destinations();
  std::vector<int> counts;  // the root's, per out-edge
  for (std::size_t b = 0; b < out.size(); ++b) {
    counts.push_back(c.scale * uniform(shared, 0, 4));
  }
  // Shared: a process the root reaches finds its block there.
  const Layout layout = ortho_graph_testing::scattered(shared, counts);
  const bool in_place = c.in_place && c.at_root();  // raw only
  std::vector<int> sendcounts, displs;  // significant at the root only
  std::size_t send_length = at(uniform(local, 0, 3));
  if (c.at_root()) {
    sendcounts = counts;
    displs = layout.displs;
    send_length = at(layout.extent) * c.u();
  }
  const int first = first_edge(out, c.me);
  const bool reached = first >= 0 && !in_place;
  const int recv_count = reached ? counts[at(first)] : uniform(local, 0, 3);
  std::vector<T> send(send_length);
  std::vector<T> recv = receive_buffer<T>(at(recv_count) * c.u());
  const auto prepare = [&](int start) {
    fill(send, c.salt + start, c.me);
    std::fill(recv.begin(), recv.end(), sentinel<T>());
  };
  prepare(0);
  classic::Request request;
  if (c.typed) {
    const std::span<const T> s(send);
    const std::span<T> r(recv);
    request = in_mode(
        c.mode,
        [&] { ortho::scatterv(c.comm, s, sendcounts, displs, r, c.root); },
        [&] {
          return ortho::iscatterv(c.comm, s, sendcounts, displs, r, c.root);
        },
        [&] {
          return ortho::scatterv_init(c.comm, s, sendcounts, displs, r, c.root);
        });
  } else {
    const void* sp = send.data();
    void* rp = in_place ? MPI_IN_PLACE : recv.data();
    request = in_mode(
        c.mode,
        [&] {
          ortho::scatterv(c.comm, sp, sendcounts, displs, c.type, rp,
                          recv_count, c.type, c.root);
        },
        [&] {
          return ortho::iscatterv(c.comm, sp, sendcounts, displs, c.type, rp,
                                  recv_count, c.type, c.root);
        },
        [&] {
          return ortho::scatterv_init(c.comm, sp, sendcounts, displs, c.type,
                                      rp, recv_count, c.type, c.root);
        });
  }
  expect_local(c, request, !c.at_root() && !reached);
  ortho_graph_testing::complete(
      c.mode, request, kStarts, prepare, [&](int start) {
        const unsigned salt = c.salt + start;
        std::vector<T> want = receive_buffer<T>(recv.size());
        if (reached) {
          place(want, 0, c.kind, recv_count, salt, c.root,
                at(layout.displs[at(first)]) * c.u());
        }
        expect_same_bits(recv, want, c.when(start) + ": recv");
        std::vector<T> sent(send.size());
        fill(sent, salt, c.me);
        expect_same_bits(send, sent, c.when(start) + ": send");
      });
}

// ---- reduce -----------------------------------------------------------------

template <typename T>
void check_reduce(const Call& c, Reduction reduction, MPI_Op op, Random& shared,
                  int& distinguishing) {
  const int count = c.scale * uniform(shared, 0, 3);
  const std::size_t length = at(count) * c.u();
  const bool in_place = c.in_place && c.at_root();
  const std::vector<int>& in = c.root_sources();
  std::vector<T> send(length);
  std::vector<T> recv = receive_buffer<T>(length);
  // The receive buffer before the call: the root's operand in place.
  const auto before = [&](unsigned salt) {
    return in_place ? operands<T>(reduction, length, salt, c.me)
                    : receive_buffer<T>(length);
  };
  // New contents go into the same buffers: a persistent request is bound
  // to them.
  const auto refill = [&](int start) {
    const std::vector<T> s =
        operands<T>(reduction, length, c.salt + start, c.me);
    const std::vector<T> r = before(c.salt + start);
    std::copy(s.begin(), s.end(), send.begin());
    std::copy(r.begin(), r.end(), recv.begin());
  };
  refill(0);
  classic::Request request;
  if (c.typed && in_place) {
    const std::span<T> r(recv);
    request = in_mode(
        c.mode,
        [&] { ortho::reduce(c.comm, classic::in_place, r, op, c.root); },
        [&] {
          return ortho::ireduce(c.comm, classic::in_place, r, op, c.root);
        },
        [&] {
          return ortho::reduce_init(c.comm, classic::in_place, r, op, c.root);
        });
  } else if (c.typed) {
    const std::span<const T> s(send);
    const std::span<T> r(recv);
    request = in_mode(
        c.mode, [&] { ortho::reduce(c.comm, s, r, op, c.root); },
        [&] { return ortho::ireduce(c.comm, s, r, op, c.root); },
        [&] { return ortho::reduce_init(c.comm, s, r, op, c.root); });
  } else {
    const void* sp = in_place ? MPI_IN_PLACE : send.data();
    void* rp = recv.data();
    request = in_mode(
        c.mode,
        [&] { ortho::reduce(c.comm, sp, rp, count, c.type, op, c.root); },
        [&] {
          return ortho::ireduce(c.comm, sp, rp, count, c.type, op, c.root);
        },
        [&] {
          return ortho::reduce_init(c.comm, sp, rp, count, c.type, op, c.root);
        });
  }
  const bool sends = !c.at_root() && contains(c.graph.out(c.me), c.root);
  expect_local(c, request, !c.at_root() && !sends);
  ortho_graph_testing::complete(
      c.mode, request, kStarts, refill, [&](int start) {
        const unsigned salt = c.salt + start;
        std::vector<T> want =
            c.at_root() ? before(salt) : receive_buffer<T>(length);
        if (c.at_root() && !in.empty()) {
          std::vector<std::vector<T>> s;
          for (const int source : in) {
            s.push_back(operands<T>(reduction, length, salt, source));
          }
          want = fold(reduction, s);
          if (is_user(reduction) && want != fold_reversed(reduction, s)) {
            ++distinguishing;
          }
        }
        expect_same_bits(recv, want, c.when(start) + ": recv");
      });
}

bool has_in_place(Op op, bool typed) {
  switch (op) {
    case Op::gather:
    case Op::scatter:
    case Op::reduce:
      return true;
    case Op::gatherv:
    case Op::scatterv:
      return !typed;  // the typed v forms have no in-place overload
    case Op::bcast:
      break;
  }
  return false;
}

class RootedGraphCollectives : public ::testing::Test {
 protected:
  void TearDown() override { MPI_Barrier(MPI_COMM_WORLD); }
};

template <typename T>
void check(const Call& c, Reduction reduction, MPI_Op op, Random& shared,
           Random& local, int& distinguishing) {
  switch (c.op) {
    case Op::bcast:
      return check_bcast<T>(c, shared);
    case Op::gather:
      return check_gather<T>(c, shared, local);
    case Op::gatherv:
      return check_gatherv<T>(c, shared, local);
    case Op::scatter:
      return check_scatter<T>(c, shared, local);
    case Op::scatterv:
      return check_scatterv<T>(c, shared, local);
    case Op::reduce:
      break;
  }
  check_reduce<T>(c, reduction, op, shared, distinguishing);
}

TEST_F(RootedGraphCollectives, MatchBruteForceReferencesInEveryMode) {
  const Comm world = Comm::world();
  const int p = world.size();
  const unsigned seed = kSeed + 1000u * static_cast<unsigned>(p);
  Random shared(seed);
  Random local(seed + 7919u * static_cast<unsigned>(world.rank() + 1));
  const ortho_graph_testing::VectorType vector;
  const ortho_graph_testing::MatrixType matrix;
  const ortho_graph_testing::Ops ops;
  unsigned salt = seed;
  int distinguishing = 0;  // non-commutative reductions whose order mattered
  for (int g = 0; g < kGraphs; ++g) {
    const Graph graph = ortho_graph_testing::random_graph(
        shared, p,
        static_cast<Construction>(g % ortho_graph_testing::kConstructions));
    SCOPED_TRACE("graph " + std::to_string(g) + " on " + std::to_string(p) +
                 " processes, rank " + std::to_string(world.rank()) + ": " +
                 graph.name());
    const Comm comm = ortho_graph_testing::make_comm(graph, world);
    ortho_graph_testing::expect_lists(comm, graph);
    for (int k = 0; k < kCallsPerGraph; ++k) {
      const auto op = static_cast<Op>(uniform(shared, 0, kOps - 1));
      const int root = uniform(shared, 0, p - 1);
      const Mode mode = ortho_graph_testing::kModes[uniform(shared, 0, 2)];
      const bool typed = chance(shared, 50);
      const bool in_place = has_in_place(op, typed) && chance(shared, 35);
      const bool use_double = chance(shared, 30);
      Kind kind = Kind::basic;
      Reduction reduction = Reduction::sum;
      if (op == Op::reduce) {
        const int last = use_double ? 2 : typed ? 3 : 4;
        reduction = static_cast<Reduction>(uniform(shared, 0, last));
        if (reduction == Reduction::matrix) kind = Kind::matrix;
      } else if (!typed && !use_double && chance(shared, 35)) {
        kind = Kind::vector;
      }
      const int scale = chance(shared, 10) ? 500 : 1;
      salt += kStarts + 1;
      MPI_Datatype type = use_double ? MPI_DOUBLE : MPI_INT;
      if (kind == Kind::vector) type = vector.get();
      if (kind == Kind::matrix) type = matrix.get();
      const std::string name =
          std::string(to_string(op)) + ", root " + std::to_string(root) +
          (typed ? ", typed" : ", raw") +
          (kind == Kind::vector ? " (vector datatype)" : "") +
          (use_double ? ", double, " : ", int, ") +
          ortho_graph_testing::to_string(mode) +
          (in_place ? ", in place" : "") +
          (op == Op::reduce
               ? std::string(", ") + ortho_graph_testing::to_string(reduction)
               : std::string());
      const Call c{graph, comm, world.rank(), op,    root, mode, typed,
                   kind,  type, in_place,     scale, salt, name};
      if (use_double) {
        check<double>(c, reduction, ops.get(reduction), shared, local,
                      distinguishing);
      } else {
        check<int>(c, reduction, ops.get(reduction), shared, local,
                   distinguishing);
      }
    }
  }
  // The user ops' operand order was visible in some results.
  int total = 0;
  MPI_Allreduce(&distinguishing, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (p >= 3) {
    EXPECT_GT(total, 0);
  }
}

}  // namespace
