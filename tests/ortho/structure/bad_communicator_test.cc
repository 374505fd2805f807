// Every public entry of ortho, naming and stencils given a communicator it
// cannot use: the null communicator, a handle of a freed communicator, and
// an inter-communicator where the function has no meaning there. Each must
// raise ErrorClass::comm in the name of the function the user called
// ("ortho::ialltoall: ..."), not of an internal one, before anything is
// sent.
#include <gtest/gtest.h>
#include <mpi.h>

#include <array>
#include <functional>
#include <string>
#include <vector>

#include "classic/base/error.h"
#include "classic/comm/comm.h"
#include "classic/intercomm/intercomm.h"
#include "naming/cart_maps.h"
#include "naming/cart_name.h"
#include "ortho/collectives.h"
#include "ortho/structure.h"
#include "stencils/cart_neighbors.h"
#include "stencils/neighborhood.h"

namespace {

using classic::Comm;
using classic::ErrorClass;

// Arguments that would be valid on a communicator of one process.
std::array<int, 64> send_data{};
std::array<int, 64> recv_data{};
const std::vector<int> kOnes = {1};
const std::vector<int> kZeros = {0};
const std::vector<MPI_Aint> kNoBytes = {0};
const std::vector<MPI_Datatype> kInts = {MPI_INT};
const void* const s = send_data.data();
void* const r = recv_data.data();

struct Entry {
  std::string name;  // as the user called it
  std::function<void(const Comm&)> call;
};

// The blocking, non-blocking and persistent forms of one operation.
#define ORTHO_FORMS(op, ...)                                              \
  Entry{"ortho::" #op, [](const Comm& c) { ortho::op(c, __VA_ARGS__); }}, \
      Entry{"ortho::i" #op,                                               \
            [](const Comm& c) { (void)ortho::i##op(c, __VA_ARGS__); }},   \
      Entry {                                                             \
    "ortho::" #op "_init",                                                \
        [](const Comm& c) { (void)ortho::op##_init(c, __VA_ARGS__); }     \
  }

std::vector<Entry> ortho_entries() {
  return {
      Entry{"ortho::barrier", [](const Comm& c) { ortho::barrier(c); }},
      Entry{"ortho::ibarrier", [](const Comm& c) { (void)ortho::ibarrier(c); }},
      Entry{"ortho::barrier_init",
            [](const Comm& c) { (void)ortho::barrier_init(c); }},
      ORTHO_FORMS(bcast, r, 1, MPI_INT, 0),
      ORTHO_FORMS(gather, s, 1, MPI_INT, r, 1, MPI_INT, 0),
      ORTHO_FORMS(gatherv, s, 1, MPI_INT, r, kOnes, kZeros, MPI_INT, 0),
      ORTHO_FORMS(scatter, s, 1, MPI_INT, r, 1, MPI_INT, 0),
      ORTHO_FORMS(scatterv, s, kOnes, kZeros, MPI_INT, r, 1, MPI_INT, 0),
      ORTHO_FORMS(allgather, s, 1, MPI_INT, r, 1, MPI_INT),
      ORTHO_FORMS(allgatherv, s, 1, MPI_INT, r, kOnes, kZeros, MPI_INT),
      ORTHO_FORMS(allgatherw, s, 1, MPI_INT, r, kOnes, kNoBytes, kInts),
      ORTHO_FORMS(alltoall, s, 1, MPI_INT, r, 1, MPI_INT),
      ORTHO_FORMS(alltoallv, s, kOnes, kZeros, MPI_INT, r, kOnes, kZeros,
                  MPI_INT),
      ORTHO_FORMS(alltoallw, s, kOnes, kNoBytes, kInts, r, kOnes, kNoBytes,
                  kInts),
      ORTHO_FORMS(reduce, s, r, 1, MPI_INT, MPI_SUM, 0),
      ORTHO_FORMS(allreduce, s, r, 1, MPI_INT, MPI_SUM),
      ORTHO_FORMS(reduce_scatter, s, r, kOnes, MPI_INT, MPI_SUM),
      ORTHO_FORMS(reduce_scatter_block, s, r, 1, MPI_INT, MPI_SUM),
      ORTHO_FORMS(scan, s, r, 1, MPI_INT, MPI_SUM),
      ORTHO_FORMS(exscan, s, r, 1, MPI_INT, MPI_SUM),
      Entry{"ortho::comm_base",
            [](const Comm& c) { (void)ortho::comm_base(c); }},
      Entry{"ortho::prepare", [](const Comm& c) { ortho::prepare(c); }},
  };
}

// naming and stencils: every one needs an intra-communicator.
std::vector<Entry> naming_entries() {
  static const std::vector<int> dims = {1};
  static const std::vector<int> coords = {0};
  static const std::vector<int> offsets = {0};
  return {
      Entry{"naming::cart_name",
            [](const Comm& c) {
              const bool periods[1] = {true};
              (void)naming::cart_name(c, dims,
                                      std::span<const bool>(periods, 1),
                                      naming::Order::row_major);
            }},
      Entry{"naming::cart_test",
            [](const Comm& c) { (void)naming::cart_test(c); }},
      Entry{"naming::cart_get",
            [](const Comm& c) { (void)naming::cart_get(c); }},
      Entry{"naming::cart_testall",
            [](const Comm& c) { (void)naming::cart_testall(c); }},
      Entry{"naming::cart_rank",
            [](const Comm& c) { (void)naming::cart_rank(c, coords); }},
      Entry{"naming::cart_coordinates",
            [](const Comm& c) { (void)naming::cart_coordinates(c, 0); }},
      Entry{"stencils::cart_neighbor_ranks",
            [](const Comm& c) {
              (void)stencils::cart_neighbor_ranks(
                  c, 0, stencils::Metric::chebyshev, 1, 1);
            }},
  };
}

// `also` is a second class the error may have.
void expect_comm_error(const Entry& entry, const Comm& comm,
                       const std::string& what,
                       ErrorClass also = ErrorClass::comm) {
  SCOPED_TRACE(entry.name + " on " + what);
  try {
    entry.call(comm);
    ADD_FAILURE() << "returned";
  } catch (const classic::Error& error) {
    EXPECT_TRUE(error.error_class() == ErrorClass::comm ||
                error.error_class() == also)
        << error.what();
    EXPECT_EQ(std::string(error.what()).rfind(entry.name + ": ", 0), 0U)
        << error.what();
  }
}

TEST(BadCommunicator, NullCommunicatorNamesTheUsersFunction) {
  const Comm null;
  for (const Entry& entry : ortho_entries()) {
    expect_comm_error(entry, null, "the null communicator");
  }
  for (const Entry& entry : naming_entries()) {
    expect_comm_error(entry, null, "the null communicator");
  }
}

TEST(BadCommunicator, FreedCommunicatorNamesTheUsersFunction) {
  Comm comm = Comm::world().dup();
  ortho::prepare(comm);
  const Comm copy = comm;
  comm.free();
  for (const Entry& entry : ortho_entries()) {
    expect_comm_error(entry, copy, "a freed communicator");
  }
  for (const Entry& entry : naming_entries()) {
    expect_comm_error(entry, copy, "a freed communicator");
  }
}

// Processes of even and odd world rank form the two groups.
TEST(BadCommunicator, InterCommunicatorWhereItHasNoMeaning) {
  const Comm world = Comm::world();
  if (world.size() < 2) GTEST_SKIP() << "an inter-communicator needs two";
  const Comm local = world.split(world.rank() % 2, world.rank());
  const Comm inter = classic::intercomm_create(
      local, 0, world, world.rank() % 2 == 0 ? 1 : 0, 7);
  for (const Entry& entry : ortho_entries()) {
    const bool undefined = entry.name.find("scan") != std::string::npos ||
                           entry.name.find("allgatherw") != std::string::npos;
    if (undefined) expect_comm_error(entry, inter, "an inter-communicator");
  }
  // An inter-communicator has no naming: cart_name and cart_testall refuse
  // it, the queries raise as for an unnamed communicator (cart_test, like
  // MPI_Topo_test, answers "not named").
  for (const Entry& entry : naming_entries()) {
    if (entry.name == "naming::cart_test") continue;
    expect_comm_error(entry, inter, "an inter-communicator",
                      ErrorClass::topology);
  }
}

}  // namespace
