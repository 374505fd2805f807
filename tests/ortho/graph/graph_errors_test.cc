// Errors of ortho's collectives on directed graphs (ortho/collectives.h):
// the undefined combinations (scan, exscan, reduce_scatter,
// reduce_scatter_block) raise ErrorClass::comm naming the function and the
// structure; bad roots, negative counts, MPI_DATATYPE_NULL, MPI_OP_NULL,
// arrays of the wrong length, MPI_IN_PLACE where it is not allowed and
// typed spans too small raise their classes (root, count, datatype, op,
// buffer) from ortho's function, in each mode, before anything is sent.
//
// Nothing may hang. Where every process passes the faulty argument (a root,
// an op, a datatype, its own counts) every process raises, and the
// communicator must work afterwards (nothing was sent, no operation
// number was used). Where only the root's arguments are at fault, the
// graph is one where the root (process 0) has only a self loop: the root
// raises and the others, which exchange nothing with it, complete locally;
// that communicator is then dropped (the root used one operation number
// fewer than the others). The same holds the other way round for in place
// off the root.
#include <gtest/gtest.h>
#include <mpi.h>

#include <array>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/error.h"
#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "classic/graph/dist_graph.h"
#include "classic/p2p/request.h"
#include "classic/topology/cartesian.h"
#include "ortho/collectives.h"
#include "tests/ortho/graph/graph_testing.h"
#include "tests/testing/errors.h"

namespace {

using classic::Comm;
using classic::ErrorClass;
using classic::Mode;
using classic::Request;
using ortho_graph_testing::Graph;
using ortho_graph_testing::in_mode;
using ortho_graph_testing::kModes;

constexpr unsigned kSeed = 0xe770e5u;

// "ortho::bcast", "ortho::ibcast", "ortho::bcast_init".
std::string function(const std::string& op, Mode mode) {
  return "ortho::" + std::string(mode == Mode::nonblocking ? "i" : "") + op +
         (mode == Mode::persistent ? "_init" : "");
}

// Process 0 has only a self loop; processes 1 .. p-1 form a one-way ring
// (a self loop when there is one). Every process has one in- and one
// out-neighbour, and nobody exchanges anything with process 0.
Graph error_graph(int p) {
  std::vector<ortho_graph_testing::Edge> edges = {{0, 0, 0}};
  for (int r = 1; r < p; ++r) edges.push_back({r, r % (p - 1) + 1, 0});
  return ortho_graph_testing::graph_of(p, edges);
}

// A call in some mode: what in_mode returns.
using Call = std::function<Request(Mode)>;

// Every process: each mode of `call` raises `expected` from ortho's
// function `op` in that mode, naming `fragments`.
void expect_raised_everywhere(const Call& call, ErrorClass expected,
                              const std::string& op,
                              const std::vector<std::string>& fragments) {
  for (const Mode mode : kModes) {
    const std::string name = function(op, mode);
    SCOPED_TRACE(name);
    orthocomm_test::expect_thrown(
        orthocomm_test::thrown_by([&] { (void)call(mode); }), expected,
        fragments, name + ":");
  }
}

// The communicator still works: an allgather of ranks brings each
// process its in-neighbours' ranks.
void expect_still_works(const Comm& comm) {
  const int me = comm.rank();
  const std::vector<int> got = ortho::allgather(comm, std::span(&me, 1));
  EXPECT_EQ(got, classic::dist_graph_neighbors(comm).sources)
      << "the communicator no longer works after the errors";
}

class GraphErrors : public ::testing::Test {
 protected:
  void SetUp() override {
    p_ = Comm::world().size();
    me_ = Comm::world().rank();
    comm_ = ortho_graph_testing::make_comm(error_graph(p_), Comm::world());
  }
  void TearDown() override {
    expect_still_works(comm_);
    MPI_Barrier(MPI_COMM_WORLD);
  }

  int p_ = 0;
  int me_ = 0;
  Comm comm_;
  // Buffers big enough for every call below (one neighbour each way).
  std::vector<int> send_ = {1, 2, 3, 4};
  std::vector<int> recv_ = std::vector<int>(16, -1);
  const std::vector<int> one_ = {1};
  const std::vector<int> zero_ = {0};
};

// ---- undefined combinations -------------------------------------------------

// scan, exscan, reduce_scatter and reduce_scatter_block, raw and typed, in
// each mode, on `comm`: ErrorClass::comm naming the operation and the
// directed graph, and nothing written.
void expect_undefined(const Comm& comm) {
  const std::vector<int> send(8, 5);
  std::vector<int> recv(8, -1);
  const std::vector<int> counts(static_cast<std::size_t>(comm.size()), 1);
  const std::span<const int> s(send.data(), 1);
  const std::span<int> r(recv.data(), 1);
  const std::span<const int> sp(send.data(), counts.size());
  const auto undefined = [](const std::string& op) {
    return std::vector<std::string>{op + " is undefined on a directed graph"};
  };
  for (const bool typed : {false, true}) {
    SCOPED_TRACE(typed ? "typed" : "raw");
    expect_raised_everywhere(
        [&](Mode m) {
          if (typed) {
            return in_mode(
                m, [&] { ortho::scan(comm, s, r, MPI_SUM); },
                [&] { return ortho::iscan(comm, s, r, MPI_SUM); },
                [&] { return ortho::scan_init(comm, s, r, MPI_SUM); });
          }
          return in_mode(
              m,
              [&] {
                ortho::scan(comm, s.data(), r.data(), 1, MPI_INT, MPI_SUM);
              },
              [&] {
                return ortho::iscan(comm, s.data(), r.data(), 1, MPI_INT,
                                    MPI_SUM);
              },
              [&] {
                return ortho::scan_init(comm, s.data(), r.data(), 1, MPI_INT,
                                        MPI_SUM);
              });
        },
        ErrorClass::comm, "scan", undefined("scan"));
    expect_raised_everywhere(
        [&](Mode m) {
          if (typed) {
            return in_mode(
                m, [&] { ortho::exscan(comm, s, r, MPI_SUM); },
                [&] { return ortho::iexscan(comm, s, r, MPI_SUM); },
                [&] { return ortho::exscan_init(comm, s, r, MPI_SUM); });
          }
          return in_mode(
              m,
              [&] {
                ortho::exscan(comm, s.data(), r.data(), 1, MPI_INT, MPI_SUM);
              },
              [&] {
                return ortho::iexscan(comm, s.data(), r.data(), 1, MPI_INT,
                                      MPI_SUM);
              },
              [&] {
                return ortho::exscan_init(comm, s.data(), r.data(), 1, MPI_INT,
                                          MPI_SUM);
              });
        },
        ErrorClass::comm, "exscan", undefined("exscan"));
    expect_raised_everywhere(
        [&](Mode m) {
          if (typed) {
            return in_mode(
                m, [&] { ortho::reduce_scatter(comm, sp, r, counts, MPI_SUM); },
                [&] {
                  return ortho::ireduce_scatter(comm, sp, r, counts, MPI_SUM);
                },
                [&] {
                  return ortho::reduce_scatter_init(comm, sp, r, counts,
                                                    MPI_SUM);
                });
          }
          return in_mode(
              m,
              [&] {
                ortho::reduce_scatter(comm, sp.data(), r.data(), counts,
                                      MPI_INT, MPI_SUM);
              },
              [&] {
                return ortho::ireduce_scatter(comm, sp.data(), r.data(), counts,
                                              MPI_INT, MPI_SUM);
              },
              [&] {
                return ortho::reduce_scatter_init(comm, sp.data(), r.data(),
                                                  counts, MPI_INT, MPI_SUM);
              });
        },
        ErrorClass::comm, "reduce_scatter", undefined("reduce_scatter"));
    expect_raised_everywhere(
        [&](Mode m) {
          if (typed) {
            return in_mode(
                m, [&] { ortho::reduce_scatter_block(comm, sp, r, MPI_SUM); },
                [&] {
                  return ortho::ireduce_scatter_block(comm, sp, r, MPI_SUM);
                },
                [&] {
                  return ortho::reduce_scatter_block_init(comm, sp, r, MPI_SUM);
                });
          }
          return in_mode(
              m,
              [&] {
                ortho::reduce_scatter_block(comm, sp.data(), r.data(), 1,
                                            MPI_INT, MPI_SUM);
              },
              [&] {
                return ortho::ireduce_scatter_block(comm, sp.data(), r.data(),
                                                    1, MPI_INT, MPI_SUM);
              },
              [&] {
                return ortho::reduce_scatter_block_init(
                    comm, sp.data(), r.data(), 1, MPI_INT, MPI_SUM);
              });
        },
        ErrorClass::comm, "reduce_scatter_block",
        undefined("reduce_scatter_block"));
  }
  EXPECT_EQ(recv, std::vector<int>(8, -1)) << "an undefined call wrote";
}

TEST_F(GraphErrors, UndefinedOperationsNameTheOperationAndTheStructure) {
  expect_undefined(comm_);
  // On random graphs too (empty neighbourhoods, self loops, repeats).
  ortho_graph_testing::Random shared(kSeed + static_cast<unsigned>(p_));
  for (int g = 0; g < ortho_graph_testing::kConstructions; ++g) {
    const Graph graph = ortho_graph_testing::random_graph(
        shared, p_, static_cast<ortho_graph_testing::Construction>(g));
    SCOPED_TRACE(graph.name());
    const Comm comm = ortho_graph_testing::make_comm(graph, Comm::world());
    expect_undefined(comm);
    expect_still_works(comm);
  }
  // Communicators that classic made, read as directed graphs (ortho
  // prepares them at the first call, on every process alike).
  const Comm classic_graph = classic::dist_graph_create_adjacent(
      Comm::world(), std::array{(me_ + p_ - 1) % p_}, classic::unweighted,
      std::array{(me_ + 1) % p_}, classic::unweighted);
  expect_undefined(classic_graph);
  expect_still_works(classic_graph);
  const Comm ring = classic::cart_create(
      Comm::world(), std::array{p_}, std::array{true}, classic::Reorder::no);
  expect_undefined(ring);
}

// ---- arguments every process shares: every process raises -------------------

TEST_F(GraphErrors, RootOutsideTheCommunicator) {
  const void* s = send_.data();
  void* r = recv_.data();
  for (const int root :
       {-1, p_, p_ + 3, classic::mpi_root, classic::proc_null}) {
    SCOPED_TRACE("root " + std::to_string(root));
    const std::vector<std::string> names = {
        "root = " + std::to_string(root),
        "outside [0, " + std::to_string(p_) + ")"};
    expect_raised_everywhere(
        [&](Mode m) {
          return in_mode(
              m, [&] { ortho::bcast(comm_, r, 1, MPI_INT, root); },
              [&] { return ortho::ibcast(comm_, r, 1, MPI_INT, root); },
              [&] { return ortho::bcast_init(comm_, r, 1, MPI_INT, root); });
        },
        ErrorClass::root, "bcast", names);
    expect_raised_everywhere(
        [&](Mode m) {
          return in_mode(
              m,
              [&] { ortho::gather(comm_, s, 1, MPI_INT, r, 1, MPI_INT, root); },
              [&] {
                return ortho::igather(comm_, s, 1, MPI_INT, r, 1, MPI_INT,
                                      root);
              },
              [&] {
                return ortho::gather_init(comm_, s, 1, MPI_INT, r, 1, MPI_INT,
                                          root);
              });
        },
        ErrorClass::root, "gather", names);
    expect_raised_everywhere(
        [&](Mode m) {
          return in_mode(
              m,
              [&] {
                ortho::gatherv(comm_, s, 1, MPI_INT, r, one_, zero_, MPI_INT,
                               root);
              },
              [&] {
                return ortho::igatherv(comm_, s, 1, MPI_INT, r, one_, zero_,
                                       MPI_INT, root);
              },
              [&] {
                return ortho::gatherv_init(comm_, s, 1, MPI_INT, r, one_, zero_,
                                           MPI_INT, root);
              });
        },
        ErrorClass::root, "gatherv", names);
    expect_raised_everywhere(
        [&](Mode m) {
          return in_mode(
              m,
              [&] {
                ortho::scatter(comm_, s, 1, MPI_INT, r, 1, MPI_INT, root);
              },
              [&] {
                return ortho::iscatter(comm_, s, 1, MPI_INT, r, 1, MPI_INT,
                                       root);
              },
              [&] {
                return ortho::scatter_init(comm_, s, 1, MPI_INT, r, 1, MPI_INT,
                                           root);
              });
        },
        ErrorClass::root, "scatter", names);
    expect_raised_everywhere(
        [&](Mode m) {
          return in_mode(
              m,
              [&] {
                ortho::scatterv(comm_, s, one_, zero_, MPI_INT, r, 1, MPI_INT,
                                root);
              },
              [&] {
                return ortho::iscatterv(comm_, s, one_, zero_, MPI_INT, r, 1,
                                        MPI_INT, root);
              },
              [&] {
                return ortho::scatterv_init(comm_, s, one_, zero_, MPI_INT, r,
                                            1, MPI_INT, root);
              });
        },
        ErrorClass::root, "scatterv", names);
    expect_raised_everywhere(
        [&](Mode m) {
          return in_mode(
              m, [&] { ortho::reduce(comm_, s, r, 1, MPI_INT, MPI_SUM, root); },
              [&] {
                return ortho::ireduce(comm_, s, r, 1, MPI_INT, MPI_SUM, root);
              },
              [&] {
                return ortho::reduce_init(comm_, s, r, 1, MPI_INT, MPI_SUM,
                                          root);
              });
        },
        ErrorClass::root, "reduce", names);
    // Typed forms, by value included.
    const std::span<const int> ts(send_.data(), 1);
    const std::span<int> tr(recv_.data(), 1);
    const auto typed = [&](const std::string& op, auto&& call) {
      orthocomm_test::expect_thrown(orthocomm_test::thrown_by(call),
                                    ErrorClass::root, names,
                                    "ortho::" + op + ":");
    };
    typed("bcast", [&] { ortho::bcast(comm_, tr, root); });
    typed("gather", [&] { ortho::gather(comm_, ts, tr, root); });
    typed("gather", [&] { (void)ortho::gather(comm_, ts, root); });
    typed("gatherv", [&] { ortho::gatherv(comm_, ts, tr, one_, zero_, root); });
    typed("scatter", [&] { ortho::scatter(comm_, ts, tr, root); });
    typed("scatterv",
          [&] { ortho::scatterv(comm_, ts, one_, zero_, tr, root); });
    typed("reduce", [&] { ortho::reduce(comm_, ts, tr, MPI_SUM, root); });
  }
  EXPECT_EQ(recv_, std::vector<int>(16, -1));
}

TEST_F(GraphErrors, NullOp) {
  const void* s = send_.data();
  void* r = recv_.data();
  const std::span<const int> ts(send_.data(), 1);
  const std::span<int> tr(recv_.data(), 1);
  const std::vector<std::string> names = {"op is MPI_OP_NULL"};
  expect_raised_everywhere(
      [&](Mode m) {
        return in_mode(
            m, [&] { ortho::reduce(comm_, s, r, 1, MPI_INT, MPI_OP_NULL, 0); },
            [&] {
              return ortho::ireduce(comm_, s, r, 1, MPI_INT, MPI_OP_NULL, 0);
            },
            [&] {
              return ortho::reduce_init(comm_, s, r, 1, MPI_INT, MPI_OP_NULL,
                                        0);
            });
      },
      ErrorClass::op, "reduce", names);
  expect_raised_everywhere(
      [&](Mode m) {
        return in_mode(
            m, [&] { ortho::reduce(comm_, ts, tr, MPI_OP_NULL, 0); },
            [&] { return ortho::ireduce(comm_, ts, tr, MPI_OP_NULL, 0); },
            [&] { return ortho::reduce_init(comm_, ts, tr, MPI_OP_NULL, 0); });
      },
      ErrorClass::op, "reduce", names);
  expect_raised_everywhere(
      [&](Mode m) {
        return in_mode(
            m, [&] { ortho::allreduce(comm_, s, r, 1, MPI_INT, MPI_OP_NULL); },
            [&] {
              return ortho::iallreduce(comm_, s, r, 1, MPI_INT, MPI_OP_NULL);
            },
            [&] {
              return ortho::allreduce_init(comm_, s, r, 1, MPI_INT,
                                           MPI_OP_NULL);
            });
      },
      ErrorClass::op, "allreduce", names);
  expect_raised_everywhere(
      [&](Mode m) {
        return in_mode(
            m,
            [&] {
              ortho::allreduce(comm_, classic::in_place, tr, MPI_OP_NULL);
            },
            [&] {
              return ortho::iallreduce(comm_, classic::in_place, tr,
                                       MPI_OP_NULL);
            },
            [&] {
              return ortho::allreduce_init(comm_, classic::in_place, tr,
                                           MPI_OP_NULL);
            });
      },
      ErrorClass::op, "allreduce", names);
  EXPECT_EQ(recv_, std::vector<int>(16, -1));
}

TEST_F(GraphErrors, NullDatatype) {
  const void* s = send_.data();
  void* r = recv_.data();
  const MPI_Datatype null = MPI_DATATYPE_NULL;
  const std::vector<int> ones = {1};
  const std::vector<MPI_Aint> no_bytes = {0};
  const std::vector<MPI_Datatype> ints = {MPI_INT};
  const std::vector<MPI_Datatype> nulls = {MPI_DATATYPE_NULL};
  const std::vector<std::string> names = {"MPI_DATATYPE_NULL"};
  expect_raised_everywhere(
      [&](Mode m) {
        return in_mode(
            m, [&] { ortho::bcast(comm_, r, 1, null, 0); },
            [&] { return ortho::ibcast(comm_, r, 1, null, 0); },
            [&] { return ortho::bcast_init(comm_, r, 1, null, 0); });
      },
      ErrorClass::datatype, "bcast", {"datatype is MPI_DATATYPE_NULL"});
  expect_raised_everywhere(
      [&](Mode m) {
        return in_mode(
            m, [&] { ortho::gather(comm_, s, 1, null, r, 1, MPI_INT, 0); },
            [&] { return ortho::igather(comm_, s, 1, null, r, 1, MPI_INT, 0); },
            [&] {
              return ortho::gather_init(comm_, s, 1, null, r, 1, MPI_INT, 0);
            });
      },
      ErrorClass::datatype, "gather", {"send_type is MPI_DATATYPE_NULL"});
  expect_raised_everywhere(
      [&](Mode m) {
        return in_mode(
            m, [&] { ortho::scatter(comm_, s, 1, MPI_INT, r, 1, null, 0); },
            [&] {
              return ortho::iscatter(comm_, s, 1, MPI_INT, r, 1, null, 0);
            },
            [&] {
              return ortho::scatter_init(comm_, s, 1, MPI_INT, r, 1, null, 0);
            });
      },
      ErrorClass::datatype, "scatter", {"recv_type is MPI_DATATYPE_NULL"});
  expect_raised_everywhere(
      [&](Mode m) {
        return in_mode(
            m, [&] { ortho::reduce(comm_, s, r, 1, null, MPI_SUM, 0); },
            [&] { return ortho::ireduce(comm_, s, r, 1, null, MPI_SUM, 0); },
            [&] {
              return ortho::reduce_init(comm_, s, r, 1, null, MPI_SUM, 0);
            });
      },
      ErrorClass::datatype, "reduce", names);
  expect_raised_everywhere(
      [&](Mode m) {
        return in_mode(
            m, [&] { ortho::allreduce(comm_, s, r, 1, null, MPI_SUM); },
            [&] { return ortho::iallreduce(comm_, s, r, 1, null, MPI_SUM); },
            [&] {
              return ortho::allreduce_init(comm_, s, r, 1, null, MPI_SUM);
            });
      },
      ErrorClass::datatype, "allreduce", names);
  expect_raised_everywhere(
      [&](Mode m) {
        return in_mode(
            m,
            [&] {
              ortho::allgatherw(comm_, s, 1, null, r, ones, no_bytes, ints);
            },
            [&] {
              return ortho::iallgatherw(comm_, s, 1, null, r, ones, no_bytes,
                                        ints);
            },
            [&] {
              return ortho::allgatherw_init(comm_, s, 1, null, r, ones,
                                            no_bytes, ints);
            });
      },
      ErrorClass::datatype, "allgatherw", {"send_type is MPI_DATATYPE_NULL"});
  expect_raised_everywhere(
      [&](Mode m) {
        return in_mode(
            m,
            [&] {
              ortho::allgatherw(comm_, s, 1, MPI_INT, r, ones, no_bytes, nulls);
            },
            [&] {
              return ortho::iallgatherw(comm_, s, 1, MPI_INT, r, ones, no_bytes,
                                        nulls);
            },
            [&] {
              return ortho::allgatherw_init(comm_, s, 1, MPI_INT, r, ones,
                                            no_bytes, nulls);
            });
      },
      ErrorClass::datatype, "allgatherw",
      {"recv_types[0] is MPI_DATATYPE_NULL"});
  // The neighbourhood collectives.
  expect_raised_everywhere(
      [&](Mode m) {
        return in_mode(
            m, [&] { ortho::allgather(comm_, s, 1, null, r, 1, MPI_INT); },
            [&] { return ortho::iallgather(comm_, s, 1, null, r, 1, MPI_INT); },
            [&] {
              return ortho::allgather_init(comm_, s, 1, null, r, 1, MPI_INT);
            });
      },
      ErrorClass::datatype, "allgather", names);
  expect_raised_everywhere(
      [&](Mode m) {
        return in_mode(
            m,
            [&] {
              ortho::alltoallw(comm_, s, ones, no_bytes, nulls, r, ones,
                               no_bytes, ints);
            },
            [&] {
              return ortho::ialltoallw(comm_, s, ones, no_bytes, nulls, r, ones,
                                       no_bytes, ints);
            },
            [&] {
              return ortho::alltoallw_init(comm_, s, ones, no_bytes, nulls, r,
                                           ones, no_bytes, ints);
            });
      },
      ErrorClass::datatype, "alltoallw", names);
  EXPECT_EQ(recv_, std::vector<int>(16, -1));
}

TEST_F(GraphErrors, NegativeCounts) {
  const void* s = send_.data();
  void* r = recv_.data();
  const std::vector<int> minus = {-1};
  const std::vector<int> ones = {1};
  const std::vector<int> zeros = {0};
  const std::vector<MPI_Aint> no_bytes = {0};
  const std::vector<MPI_Datatype> ints = {MPI_INT};
  expect_raised_everywhere(
      [&](Mode m) {
        return in_mode(
            m, [&] { ortho::bcast(comm_, r, -1, MPI_INT, 0); },
            [&] { return ortho::ibcast(comm_, r, -1, MPI_INT, 0); },
            [&] { return ortho::bcast_init(comm_, r, -1, MPI_INT, 0); });
      },
      ErrorClass::count, "bcast", {"count = -1"});
  expect_raised_everywhere(
      [&](Mode m) {
        return in_mode(
            m, [&] { ortho::gather(comm_, s, -1, MPI_INT, r, 1, MPI_INT, 0); },
            [&] {
              return ortho::igather(comm_, s, -1, MPI_INT, r, 1, MPI_INT, 0);
            },
            [&] {
              return ortho::gather_init(comm_, s, -1, MPI_INT, r, 1, MPI_INT,
                                        0);
            });
      },
      ErrorClass::count, "gather", {"send_count = -1"});
  expect_raised_everywhere(
      [&](Mode m) {
        return in_mode(
            m, [&] { ortho::scatter(comm_, s, 1, MPI_INT, r, -1, MPI_INT, 0); },
            [&] {
              return ortho::iscatter(comm_, s, 1, MPI_INT, r, -1, MPI_INT, 0);
            },
            [&] {
              return ortho::scatter_init(comm_, s, 1, MPI_INT, r, -1, MPI_INT,
                                         0);
            });
      },
      ErrorClass::count, "scatter", {"recv_count = -1"});
  expect_raised_everywhere(
      [&](Mode m) {
        return in_mode(
            m, [&] { ortho::reduce(comm_, s, r, -1, MPI_INT, MPI_SUM, 0); },
            [&] {
              return ortho::ireduce(comm_, s, r, -1, MPI_INT, MPI_SUM, 0);
            },
            [&] {
              return ortho::reduce_init(comm_, s, r, -1, MPI_INT, MPI_SUM, 0);
            });
      },
      ErrorClass::count, "reduce", {"count = -1"});
  expect_raised_everywhere(
      [&](Mode m) {
        return in_mode(
            m, [&] { ortho::allreduce(comm_, s, r, -1, MPI_INT, MPI_SUM); },
            [&] {
              return ortho::iallreduce(comm_, s, r, -1, MPI_INT, MPI_SUM);
            },
            [&] {
              return ortho::allreduce_init(comm_, s, r, -1, MPI_INT, MPI_SUM);
            });
      },
      ErrorClass::count, "allreduce", {"count = -1"});
  expect_raised_everywhere(
      [&](Mode m) {
        return in_mode(
            m,
            [&] {
              ortho::allgatherw(comm_, s, -1, MPI_INT, r, ones, no_bytes, ints);
            },
            [&] {
              return ortho::iallgatherw(comm_, s, -1, MPI_INT, r, ones,
                                        no_bytes, ints);
            },
            [&] {
              return ortho::allgatherw_init(comm_, s, -1, MPI_INT, r, ones,
                                            no_bytes, ints);
            });
      },
      ErrorClass::count, "allgatherw", {"send_count = -1"});
  expect_raised_everywhere(
      [&](Mode m) {
        return in_mode(
            m,
            [&] {
              ortho::allgatherw(comm_, s, 1, MPI_INT, r, minus, no_bytes, ints);
            },
            [&] {
              return ortho::iallgatherw(comm_, s, 1, MPI_INT, r, minus,
                                        no_bytes, ints);
            },
            [&] {
              return ortho::allgatherw_init(comm_, s, 1, MPI_INT, r, minus,
                                            no_bytes, ints);
            });
      },
      ErrorClass::count, "allgatherw", {"recvcounts[0] = -1"});
  // The neighbourhood collectives.
  expect_raised_everywhere(
      [&](Mode m) {
        return in_mode(
            m, [&] { ortho::allgather(comm_, s, -1, MPI_INT, r, 1, MPI_INT); },
            [&] {
              return ortho::iallgather(comm_, s, -1, MPI_INT, r, 1, MPI_INT);
            },
            [&] {
              return ortho::allgather_init(comm_, s, -1, MPI_INT, r, 1,
                                           MPI_INT);
            });
      },
      ErrorClass::count, "allgather", {"-1"});
  expect_raised_everywhere(
      [&](Mode m) {
        return in_mode(
            m,
            [&] {
              ortho::allgatherv(comm_, s, 1, MPI_INT, r, minus, zeros, MPI_INT);
            },
            [&] {
              return ortho::iallgatherv(comm_, s, 1, MPI_INT, r, minus, zeros,
                                        MPI_INT);
            },
            [&] {
              return ortho::allgatherv_init(comm_, s, 1, MPI_INT, r, minus,
                                            zeros, MPI_INT);
            });
      },
      ErrorClass::count, "allgatherv", {"-1"});
  expect_raised_everywhere(
      [&](Mode m) {
        return in_mode(
            m,
            [&] {
              ortho::alltoallv(comm_, s, minus, zeros, MPI_INT, r, ones, zeros,
                               MPI_INT);
            },
            [&] {
              return ortho::ialltoallv(comm_, s, minus, zeros, MPI_INT, r, ones,
                                       zeros, MPI_INT);
            },
            [&] {
              return ortho::alltoallv_init(comm_, s, minus, zeros, MPI_INT, r,
                                           ones, zeros, MPI_INT);
            });
      },
      ErrorClass::count, "alltoallv", {"-1"});
  EXPECT_EQ(recv_, std::vector<int>(16, -1));
}

// Arrays whose length is not the caller's degree, on the error graph and
// on random graphs (degrees 0 and up): one entry too many, and one too few
// where there is one.
void expect_wrong_lengths(const Comm& comm) {
  const classic::DistGraphNeighbors n = classic::dist_graph_neighbors(comm);
  const std::size_t in = n.sources.size();
  const std::size_t out = n.destinations.size();
  std::vector<int> send(4 * (in + out + 2), 1);
  std::vector<int> recv(4 * (in + out + 2), -1);
  const void* s = send.data();
  void* r = recv.data();
  for (const int extra : {1, -1}) {
    if (extra < 0 && in == 0) continue;
    const std::size_t wrong_in = in + static_cast<std::size_t>(extra);
    SCOPED_TRACE("indegree " + std::to_string(in) + ", arrays of " +
                 std::to_string(wrong_in));
    const std::vector<int> counts_in(in, 1), counts_bad(wrong_in, 1);
    const std::vector<int> displs_in(in, 0), displs_bad(wrong_in, 0);
    const std::vector<MPI_Aint> bytes_in(in, 0), bytes_bad(wrong_in, 0);
    const std::vector<MPI_Datatype> types_in(in, MPI_INT),
        types_bad(wrong_in, MPI_INT);
    const std::vector<int> counts_out(out, 1);
    const std::vector<int> displs_out(out, 0);
    const std::vector<MPI_Aint> bytes_out(out, 0);
    const std::vector<MPI_Datatype> types_out(out, MPI_INT);
    const std::vector<std::string> entries = {std::to_string(wrong_in) +
                                              " entries"};
    const auto allgatherw = [&](std::span<const int> c,
                                std::span<const MPI_Aint> d,
                                std::span<const MPI_Datatype> t) {
      return [&, c, d, t](Mode m) {
        return in_mode(
            m, [&] { ortho::allgatherw(comm, s, 1, MPI_INT, r, c, d, t); },
            [&] { return ortho::iallgatherw(comm, s, 1, MPI_INT, r, c, d, t); },
            [&] {
              return ortho::allgatherw_init(comm, s, 1, MPI_INT, r, c, d, t);
            });
      };
    };
    expect_raised_everywhere(allgatherw(counts_bad, bytes_in, types_in),
                             ErrorClass::count, "allgatherw",
                             {"recvcounts has " + entries[0], "indegree"});
    expect_raised_everywhere(allgatherw(counts_in, bytes_bad, types_in),
                             ErrorClass::count, "allgatherw",
                             {"rdispls has " + entries[0]});
    expect_raised_everywhere(allgatherw(counts_in, bytes_in, types_bad),
                             ErrorClass::count, "allgatherw",
                             {"recv_types has " + entries[0]});
    expect_raised_everywhere(
        [&](Mode m) {
          return in_mode(
              m,
              [&] {
                ortho::allgatherv(comm, s, 1, MPI_INT, r, counts_bad,
                                  displs_bad, MPI_INT);
              },
              [&] {
                return ortho::iallgatherv(comm, s, 1, MPI_INT, r, counts_bad,
                                          displs_bad, MPI_INT);
              },
              [&] {
                return ortho::allgatherv_init(comm, s, 1, MPI_INT, r,
                                              counts_bad, displs_bad, MPI_INT);
              });
        },
        ErrorClass::count, "allgatherv", {"recvcounts"});
    expect_raised_everywhere(
        [&](Mode m) {
          return in_mode(
              m,
              [&] {
                ortho::alltoallv(comm, s, counts_out, displs_out, MPI_INT, r,
                                 counts_bad, displs_bad, MPI_INT);
              },
              [&] {
                return ortho::ialltoallv(comm, s, counts_out, displs_out,
                                         MPI_INT, r, counts_bad, displs_bad,
                                         MPI_INT);
              },
              [&] {
                return ortho::alltoallv_init(comm, s, counts_out, displs_out,
                                             MPI_INT, r, counts_bad, displs_bad,
                                             MPI_INT);
              });
        },
        ErrorClass::count, "alltoallv", {"recvcounts"});
    expect_raised_everywhere(
        [&](Mode m) {
          return in_mode(
              m,
              [&] {
                ortho::alltoallw(comm, s, counts_out, bytes_out, types_out, r,
                                 counts_in, bytes_in, types_bad);
              },
              [&] {
                return ortho::ialltoallw(comm, s, counts_out, bytes_out,
                                         types_out, r, counts_in, bytes_in,
                                         types_bad);
              },
              [&] {
                return ortho::alltoallw_init(comm, s, counts_out, bytes_out,
                                             types_out, r, counts_in, bytes_in,
                                             types_bad);
              });
        },
        ErrorClass::count, "alltoallw", {"types"});
  }
  EXPECT_EQ(recv, std::vector<int>(recv.size(), -1));
}

TEST_F(GraphErrors, ArraysOfTheWrongLength) {
  expect_wrong_lengths(comm_);
  ortho_graph_testing::Random shared(kSeed + 10u + static_cast<unsigned>(p_));
  for (int g = 0; g < 2 * ortho_graph_testing::kConstructions; ++g) {
    const Graph graph = ortho_graph_testing::random_graph(
        shared, p_,
        static_cast<ortho_graph_testing::Construction>(
            g % ortho_graph_testing::kConstructions));
    SCOPED_TRACE(graph.name());
    const Comm comm = ortho_graph_testing::make_comm(graph, Comm::world());
    expect_wrong_lengths(comm);
    expect_still_works(comm);
  }
}

TEST_F(GraphErrors, InPlaceWhereNoProcessMayUseIt) {
  const void* s = send_.data();
  void* r = recv_.data();
  const std::vector<int> ones = {1};
  const std::vector<MPI_Aint> no_bytes = {0};
  const std::vector<MPI_Datatype> ints = {MPI_INT};
  expect_raised_everywhere(
      [&](Mode m) {
        return in_mode(
            m, [&] { ortho::bcast(comm_, MPI_IN_PLACE, 1, MPI_INT, 0); },
            [&] { return ortho::ibcast(comm_, MPI_IN_PLACE, 1, MPI_INT, 0); },
            [&] {
              return ortho::bcast_init(comm_, MPI_IN_PLACE, 1, MPI_INT, 0);
            });
      },
      ErrorClass::buffer, "bcast", {"in place"});
  expect_raised_everywhere(
      [&](Mode m) {
        return in_mode(
            m,
            [&] {
              ortho::allreduce(comm_, s, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM);
            },
            [&] {
              return ortho::iallreduce(comm_, s, MPI_IN_PLACE, 1, MPI_INT,
                                       MPI_SUM);
            },
            [&] {
              return ortho::allreduce_init(comm_, s, MPI_IN_PLACE, 1, MPI_INT,
                                           MPI_SUM);
            });
      },
      ErrorClass::buffer, "allreduce", {"recv", "in place"});
  for (const bool in_send : {true, false}) {
    const void* sp = in_send ? MPI_IN_PLACE : s;
    void* rp = in_send ? r : MPI_IN_PLACE;
    expect_raised_everywhere(
        [&](Mode m) {
          return in_mode(
              m,
              [&] {
                ortho::allgatherw(comm_, sp, 1, MPI_INT, rp, ones, no_bytes,
                                  ints);
              },
              [&] {
                return ortho::iallgatherw(comm_, sp, 1, MPI_INT, rp, ones,
                                          no_bytes, ints);
              },
              [&] {
                return ortho::allgatherw_init(comm_, sp, 1, MPI_INT, rp, ones,
                                              no_bytes, ints);
              });
        },
        ErrorClass::buffer, "allgatherw",
        {in_send ? "send" : "recv", "in place"});
    // The neighbourhood collectives have no in-place form.
    expect_raised_everywhere(
        [&](Mode m) {
          return in_mode(
              m,
              [&] { ortho::allgather(comm_, sp, 1, MPI_INT, rp, 1, MPI_INT); },
              [&] {
                return ortho::iallgather(comm_, sp, 1, MPI_INT, rp, 1, MPI_INT);
              },
              [&] {
                return ortho::allgather_init(comm_, sp, 1, MPI_INT, rp, 1,
                                             MPI_INT);
              });
        },
        ErrorClass::buffer, "allgather", {in_send ? "send" : "recv"});
    expect_raised_everywhere(
        [&](Mode m) {
          return in_mode(
              m,
              [&] { ortho::alltoall(comm_, sp, 1, MPI_INT, rp, 1, MPI_INT); },
              [&] {
                return ortho::ialltoall(comm_, sp, 1, MPI_INT, rp, 1, MPI_INT);
              },
              [&] {
                return ortho::alltoall_init(comm_, sp, 1, MPI_INT, rp, 1,
                                            MPI_INT);
              });
        },
        ErrorClass::buffer, "alltoall", {in_send ? "send" : "recv"});
  }
  EXPECT_EQ(recv_, std::vector<int>(16, -1));
}

TEST_F(GraphErrors, TypedSpansTooSmallEverywhere) {
  const std::span<const int> two(send_.data(), 2);
  const std::span<int> one(recv_.data(), 1);
  expect_raised_everywhere(
      [&](Mode m) {
        return in_mode(
            m, [&] { ortho::allreduce(comm_, two, one, MPI_SUM); },
            [&] { return ortho::iallreduce(comm_, two, one, MPI_SUM); },
            [&] { return ortho::allreduce_init(comm_, two, one, MPI_SUM); });
      },
      ErrorClass::buffer, "allreduce",
      {"recv holds 1 elements; the call needs 2"});
  // The neighbourhood collectives (indegree 1: two elements arrive).
  expect_raised_everywhere(
      [&](Mode m) {
        return in_mode(
            m, [&] { ortho::allgather(comm_, two, one); },
            [&] { return ortho::iallgather(comm_, two, one); },
            [&] { return ortho::allgather_init(comm_, two, one); });
      },
      ErrorClass::buffer, "allgather", {});
  const std::vector<int> counts = {2};
  const std::vector<int> inside = {0};
  const std::vector<int> outside = {3};
  expect_raised_everywhere(
      [&](Mode m) {
        return in_mode(
            m, [&] { ortho::allgatherv(comm_, two, one, counts, inside); },
            [&] { return ortho::iallgatherv(comm_, two, one, counts, inside); },
            [&] {
              return ortho::allgatherv_init(comm_, two, one, counts, inside);
            });
      },
      ErrorClass::buffer, "allgatherv", {});
  const std::span<int> four(recv_.data(), 4);
  expect_raised_everywhere(
      [&](Mode m) {
        return in_mode(
            m,
            [&] {
              ortho::alltoallv(comm_, two, counts, outside, four, counts,
                               inside);
            },
            [&] {
              return ortho::ialltoallv(comm_, two, counts, outside, four,
                                       counts, inside);
            },
            [&] {
              return ortho::alltoallv_init(comm_, two, counts, outside, four,
                                           counts, inside);
            });
      },
      ErrorClass::buffer, "alltoallv", {});
  EXPECT_EQ(recv_, std::vector<int>(16, -1));
}

// ---- arguments of the root alone
// ---------------------------------------------

// Runs `call` in each mode on a new communicator of the error graph: the
// processes `raises` names expect `expected` from ortho's function `op`
// naming `fragments`; the others expect no error and complete what they
// got without help (they exchange nothing with the process at fault). The
// communicator is dropped after each mode.
void expect_raised_where(const std::function<bool(int)>& raises,
                         const std::function<Request(const Comm&, Mode)>& call,
                         ErrorClass expected, const std::string& op,
                         const std::vector<std::string>& fragments) {
  const Comm world = Comm::world();
  for (const Mode mode : kModes) {
    const std::string name = function(op, mode);
    SCOPED_TRACE(name);
    const Comm comm =
        ortho_graph_testing::make_comm(error_graph(world.size()), world);
    if (raises(world.rank())) {
      orthocomm_test::expect_thrown(
          orthocomm_test::thrown_by([&] { (void)call(comm, mode); }), expected,
          fragments, name + ":");
      continue;
    }
    Request request;
    const orthocomm_test::Thrown thrown =
        orthocomm_test::thrown_by([&] { request = call(comm, mode); });
    EXPECT_FALSE(thrown.error_class.has_value())
        << "raised where the arguments are fine: " << thrown.message;
    if (mode == Mode::nonblocking) {
      EXPECT_TRUE(classic::test(request).has_value())
          << "did not complete locally";
    }
    if (mode == Mode::persistent && !request.is_null()) {
      classic::start(request);
      EXPECT_TRUE(classic::test(request).has_value())
          << "did not complete locally";
    }
  }
}

bool at_root(int rank) { return rank == 0; }
bool off_root(int rank) { return rank != 0; }

TEST_F(GraphErrors, ArgumentsOfTheRootAloneRaiseAtTheRoot) {
  std::vector<int> send(8, 1);
  std::vector<int> recv(8, -1);
  const void* s = send.data();
  void* r = recv.data();
  const std::vector<int> ones = {1};
  const std::vector<int> two_ones = {1, 1};
  const std::vector<int> minus = {-1};
  const std::vector<int> zeros = {0};
  const std::vector<int> two_zeros = {0, 0};
  using Raw = std::function<Request(const Comm&, Mode)>;
  const auto gather = [&](const void* sp, int send_count, void* rp,
                          int recv_count, MPI_Datatype recv_type) -> Raw {
    return [=](const Comm& comm, Mode m) {
      return in_mode(
          m,
          [&] {
            ortho::gather(comm, sp, send_count, MPI_INT, rp, recv_count,
                          recv_type, 0);
          },
          [&] {
            return ortho::igather(comm, sp, send_count, MPI_INT, rp, recv_count,
                                  recv_type, 0);
          },
          [&] {
            return ortho::gather_init(comm, sp, send_count, MPI_INT, rp,
                                      recv_count, recv_type, 0);
          });
    };
  };
  const auto gatherv = [&](const void* sp, std::span<const int> counts,
                           std::span<const int> displs) -> Raw {
    return [=](const Comm& comm, Mode m) {
      return in_mode(
          m,
          [&] {
            ortho::gatherv(comm, sp, 1, MPI_INT, r, counts, displs, MPI_INT, 0);
          },
          [&] {
            return ortho::igatherv(comm, sp, 1, MPI_INT, r, counts, displs,
                                   MPI_INT, 0);
          },
          [&] {
            return ortho::gatherv_init(comm, sp, 1, MPI_INT, r, counts, displs,
                                       MPI_INT, 0);
          });
    };
  };
  const auto scatter = [&](const void* sp, int send_count,
                           MPI_Datatype send_type, void* rp) -> Raw {
    return [=](const Comm& comm, Mode m) {
      return in_mode(
          m,
          [&] {
            ortho::scatter(comm, sp, send_count, send_type, rp, 1, MPI_INT, 0);
          },
          [&] {
            return ortho::iscatter(comm, sp, send_count, send_type, rp, 1,
                                   MPI_INT, 0);
          },
          [&] {
            return ortho::scatter_init(comm, sp, send_count, send_type, rp, 1,
                                       MPI_INT, 0);
          });
    };
  };
  const auto scatterv = [&](std::span<const int> counts,
                            std::span<const int> displs, void* rp) -> Raw {
    return [=](const Comm& comm, Mode m) {
      return in_mode(
          m,
          [&] {
            ortho::scatterv(comm, s, counts, displs, MPI_INT, rp, 1, MPI_INT,
                            0);
          },
          [&] {
            return ortho::iscatterv(comm, s, counts, displs, MPI_INT, rp, 1,
                                    MPI_INT, 0);
          },
          [&] {
            return ortho::scatterv_init(comm, s, counts, displs, MPI_INT, rp, 1,
                                        MPI_INT, 0);
          });
    };
  };
  const auto reduce = [&](const void* sp, void* rp) -> Raw {
    return [=](const Comm& comm, Mode m) {
      return in_mode(
          m, [&] { ortho::reduce(comm, sp, rp, 1, MPI_INT, MPI_SUM, 0); },
          [&] { return ortho::ireduce(comm, sp, rp, 1, MPI_INT, MPI_SUM, 0); },
          [&] {
            return ortho::reduce_init(comm, sp, rp, 1, MPI_INT, MPI_SUM, 0);
          });
    };
  };

  // Raw arguments significant at the root only.
  expect_raised_where(at_root, gather(s, 1, r, -1, MPI_INT), ErrorClass::count,
                      "gather", {"recv_count = -1"});
  expect_raised_where(at_root, gather(s, 1, r, 1, MPI_DATATYPE_NULL),
                      ErrorClass::datatype, "gather",
                      {"recv_type is MPI_DATATYPE_NULL"});
  expect_raised_where(at_root, gather(s, 1, MPI_IN_PLACE, 1, MPI_INT),
                      ErrorClass::buffer, "gather", {"recv", "in place"});
  expect_raised_where(at_root, gatherv(s, two_ones, two_zeros),
                      ErrorClass::count, "gatherv",
                      {"recvcounts has 2 entries", "indegree is 1"});
  expect_raised_where(at_root, gatherv(s, ones, two_zeros), ErrorClass::count,
                      "gatherv", {"displs has 2 entries"});
  expect_raised_where(at_root, gatherv(s, minus, zeros), ErrorClass::count,
                      "gatherv", {"recvcounts[0] = -1"});
  expect_raised_where(at_root, scatter(s, -1, MPI_INT, r), ErrorClass::count,
                      "scatter", {"send_count = -1"});
  expect_raised_where(at_root, scatter(s, 1, MPI_DATATYPE_NULL, r),
                      ErrorClass::datatype, "scatter",
                      {"send_type is MPI_DATATYPE_NULL"});
  expect_raised_where(at_root, scatter(MPI_IN_PLACE, 1, MPI_INT, r),
                      ErrorClass::buffer, "scatter", {"send", "in place"});
  expect_raised_where(at_root, scatterv(two_ones, two_zeros, r),
                      ErrorClass::count, "scatterv",
                      {"sendcounts has 2 entries", "outdegree is 1"});
  expect_raised_where(at_root, scatterv(minus, zeros, r), ErrorClass::count,
                      "scatterv", {"sendcounts[0] = -1"});
  expect_raised_where(at_root, reduce(s, MPI_IN_PLACE), ErrorClass::buffer,
                      "reduce", {"recv", "in place"});

  // In place off the root: the others raise, the root (whose only
  // in-neighbour is itself) completes its in-place call locally.
  expect_raised_where(off_root, gather(MPI_IN_PLACE, 1, r, 1, MPI_INT),
                      ErrorClass::buffer, "gather",
                      {"send", "in place off the root"});
  expect_raised_where(off_root, scatter(s, 1, MPI_INT, MPI_IN_PLACE),
                      ErrorClass::buffer, "scatter",
                      {"recv", "in place off the root"});
  expect_raised_where(off_root, reduce(MPI_IN_PLACE, r), ErrorClass::buffer,
                      "reduce", {"send", "in place off the root"});

  // Typed spans too small at the root: one in-neighbour and one
  // out-neighbour, blocks of two elements.
  const std::span<const int> two(send.data(), 2);
  const std::span<const int> one_in(send.data(), 1);
  const std::span<int> one_out(recv.data(), 1);
  const std::span<int> two_out(recv.data(), 2);
  const std::vector<int> counts = {2};
  const std::vector<int> beyond = {1};
  expect_raised_where(
      at_root,
      [&](const Comm& comm, Mode m) {
        return in_mode(
            m, [&] { ortho::gather(comm, two, one_out, 0); },
            [&] { return ortho::igather(comm, two, one_out, 0); },
            [&] { return ortho::gather_init(comm, two, one_out, 0); });
      },
      ErrorClass::buffer, "gather",
      {"recv holds 1 elements; the call needs 2"});
  expect_raised_where(
      at_root,
      [&](const Comm& comm, Mode m) {
        return in_mode(
            m, [&] { ortho::scatter(comm, one_in, two_out, 0); },
            [&] { return ortho::iscatter(comm, one_in, two_out, 0); },
            [&] { return ortho::scatter_init(comm, one_in, two_out, 0); });
      },
      ErrorClass::buffer, "scatter",
      {"send holds 1 elements; the call needs 2"});
  expect_raised_where(
      at_root,
      [&](const Comm& comm, Mode m) {
        return in_mode(
            m, [&] { ortho::reduce(comm, two, one_out, MPI_SUM, 0); },
            [&] { return ortho::ireduce(comm, two, one_out, MPI_SUM, 0); },
            [&] { return ortho::reduce_init(comm, two, one_out, MPI_SUM, 0); });
      },
      ErrorClass::buffer, "reduce",
      {"recv holds 1 elements; the call needs 2"});
  expect_raised_where(
      at_root,
      [&](const Comm& comm, Mode m) {
        return in_mode(
            m, [&] { ortho::gatherv(comm, two, two_out, counts, beyond, 0); },
            [&] {
              return ortho::igatherv(comm, two, two_out, counts, beyond, 0);
            },
            [&] {
              return ortho::gatherv_init(comm, two, two_out, counts, beyond, 0);
            });
      },
      ErrorClass::buffer, "gatherv", {"displs[0] = 1", "counts[0] = 2"});
  expect_raised_where(
      at_root,
      [&](const Comm& comm, Mode m) {
        return in_mode(
            m, [&] { ortho::scatterv(comm, two, counts, beyond, two_out, 0); },
            [&] {
              return ortho::iscatterv(comm, two, counts, beyond, two_out, 0);
            },
            [&] {
              return ortho::scatterv_init(comm, two, counts, beyond, two_out,
                                          0);
            });
      },
      ErrorClass::buffer, "scatterv", {"displs[0] = 1", "counts[0] = 2"});
}

}  // namespace
