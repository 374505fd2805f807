// Shared by the tests of ortho's "native" collectives (fully connected and
// bipartite communicators): where a process stands in the communicator
// under test, roots, the ortho and classic copies of every buffer, one
// drawn collective call (a Case) and the driver that runs it through ortho
// in a mode and through classic's blocking collective, and compares.
#ifndef ORTHOCOMM_TESTS_ORTHO_NATIVE_NATIVE_TESTING_H_
#define ORTHOCOMM_TESTS_ORTHO_NATIVE_NATIVE_TESTING_H_

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "classic/base/error.h"
#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "classic/p2p/request.h"
#include "ortho/collectives.h"  // what the macros below call
#include "tests/classic/testing/collectives_testing.h"

namespace ortho_native_test {

using classic::Mode;
using classic::testing::Form;
using classic::testing::Random;

inline std::size_t at(int index) { return static_cast<std::size_t>(index); }

// A communicator under test and where this process stands in it. A fully
// connected one has one group (side A: size_a == size_b == its size); a
// bipartite one has sides A and B (this process's side, in_a; its rank
// there).
struct Place {
  std::string name;
  classic::Comm comm;
  bool bipartite = false;
  bool in_a = true;
  int rank = 0;
  int size_a = 0;
  int size_b = 0;
  // World ranks of the members of each side, in local rank order.
  std::vector<int> world_a;
  std::vector<int> world_b;

  int size_of(bool side_a) const { return side_a ? size_a : size_b; }
  // The size of this process's group.
  int size() const { return size_of(in_a); }
  // The side whose data this process receives: the other one on a
  // bipartite communicator, its own on a fully connected one.
  bool peer_in_a() const { return bipartite ? !in_a : in_a; }
  // How many blocks allgather and alltoall exchange: size() or the remote
  // group's size.
  int peers() const { return size_of(peer_in_a()); }
  const std::vector<int>& world_of(bool side_a) const {
    return side_a ? world_a : world_b;
  }
};

// The world and the evens and odds ranked in reverse (ranks differ from
// world ranks), as ortho meets them: plain classic intra-communicators.
std::vector<Place> fully_connected_places();

// Inter-communicators (classic::intercomm_create) between two uneven
// halves of the world (the first floor(n / 2) world ranks against the
// rest) and between the evens and the odds, each in reverse order;
// ortho::prepare has run on them. Empty on one process.
std::vector<Place> bipartite_places();

// A root: its side and its local rank there.
struct Root {
  bool in_a = true;
  int rank = 0;

  bool on_side_of(const Place& place) const { return place.in_a == in_a; }
  bool is(const Place& place) const {
    return on_side_of(place) && place.rank == rank;
  }
  // Whether the process sends to the root (gather, reduce) or receives
  // from it (bcast, scatter): every process of a fully connected
  // communicator, the other side of a bipartite one.
  bool serves(const Place& place) const {
    return !place.bipartite || !on_side_of(place);
  }
  // How many processes serve the root.
  int served(const Place& place) const {
    return place.bipartite ? place.size_of(!in_a) : place.size_a;
  }
  // The root argument of this process: the root's rank, or on the root's
  // side of a bipartite communicator mpi_root (the root) and proc_null.
  int arg(const Place& place) const;
};

// A root anywhere (either side of a bipartite communicator).
Root draw_root(const Place& place, Random& shared);

// Which implementation a case's call runs: ortho's (in a mode) or classic's
// blocking collective (the reference).
enum class Api { ortho, classic };

// Runs the call of `mode`: blocking (then a null Request), non-blocking or
// persistent.
template <typename B, typename N, typename P>
classic::Request by_mode(Mode mode, B blocking, N nonblocking, P persistent) {
  switch (mode) {
    case Mode::nonblocking:
      return nonblocking();
    case Mode::persistent:
      return persistent();
    case Mode::blocking:
      break;
  }
  blocking();
  return classic::Request();
}

// ortho::function, ortho::ifunction or ortho::function_init with these
// arguments, by the mode (one argument list for the three calls keeps them
// from drifting apart).
#define ORTHO_IN_MODE(mode, function, ...)               \
  ::ortho_native_test::by_mode(                          \
      (mode), [&] { ::ortho::function(__VA_ARGS__); },   \
      [&] { return ::ortho::i##function(__VA_ARGS__); }, \
      [&] { return ::ortho::function##_init(__VA_ARGS__); })

// The collective `function` with these arguments: classic::function
// (blocking; a null Request) for Api::classic, ortho's in `mode` for
// Api::ortho.
#define ORTHO_NATIVE_CALL(api, mode, function, ...)               \
  ((api) == ::ortho_native_test::Api::classic                     \
       ? (::classic::function(__VA_ARGS__), ::classic::Request()) \
       : ORTHO_IN_MODE(mode, function, __VA_ARGS__))

// One argument buffer twice: `got`, the copy ortho's call uses, and
// `want`, the copy classic's reference call uses. `got` never moves once
// made (persistent requests hold it); fills write it in place, then copy it
// to `want`.
template <typename T>
struct Twin {
  std::vector<T> got;
  std::vector<T> want;

  explicit Twin(std::size_t size = 0) { resize(size); }
  void resize(std::size_t size) {
    // Distinct addresses even when empty: Open MPI's persistent reduce
    // refuses send == recv even for no elements.
    got.reserve(std::max<std::size_t>(size, 1));
    got.assign(size, classic::testing::sentinel<T>());
    want = got;
  }
  std::vector<T>& on(Api api) { return api == Api::ortho ? got : want; }
  int size() const { return static_cast<int>(got.size()); }
  // Fresh data: operands of `op`, or any values for MPI_OP_NULL.
  void fresh(Random& local, MPI_Op op = MPI_OP_NULL) {
    for (T& value : got) {
      value = op == MPI_OP_NULL ? classic::testing::element<T>(local, -50, 50)
                                : classic::testing::operand<T>(local, op);
    }
    want = got;
  }
  // Sentinels, to see what a call writes.
  void reset() {
    std::fill(got.begin(), got.end(), classic::testing::sentinel<T>());
    want = got;
  }
  void expect_same() const { EXPECT_EQ(got, want); }
};

// An argument array (counts, displacements, datatypes): `value`, what the
// call means, which classic's reference call reads, and `passed`, the copy
// ortho's call gets. ortho reads such arrays during the call only, so the
// driver scrambles `passed` once the call has returned (in place: were
// ortho to keep a pointer to it, it would read the junk).
template <typename T>
struct ArgArray {
  std::vector<T> value;
  std::vector<T> passed;

  explicit ArgArray(std::vector<T> values = {})
      : value(std::move(values)), passed(value) {}
  std::span<const T> on(Api api) const {
    return api == Api::ortho ? passed : value;
  }
  void restore() { std::copy(value.begin(), value.end(), passed.begin()); }
  void scramble(T junk) { std::fill(passed.begin(), passed.end(), junk); }
};

// One drawn collective call with its buffers.
class Case {
 public:
  virtual ~Case() = default;
  // The operation and the drawn parameters, for failure messages.
  virtual std::string describe() const = 0;
  // barrier and alltoallw have raw forms only.
  virtual bool has_typed_form() const { return true; }
  // Fresh inputs and sentinels in the outputs, in place, in both copies.
  virtual void fill(Random& local) = 0;
  // The call on the buffers of `api`: ortho's in `mode`, or classic's
  // blocking one (mode ignored; a null Request).
  virtual classic::Request run(Api api, Mode mode, Form form) = 0;
  // Expects ortho's outputs to equal classic's.
  virtual void compare() const = 0;
  // The argument arrays ortho's call gets (ArgArray): restored before the
  // call, scrambled once it has returned.
  virtual void restore_arrays() {}
  virtual void scramble_arrays() {}
};

// How many times a persistent call is started (with fresh contents).
inline constexpr int kStarts = 2;

// Runs `c` through ortho in `mode` and `form` and through classic's
// blocking collective on the same inputs, and compares: blocking and
// non-blocking once (a non-blocking request completed by classic::wait),
// persistent as one *_init and kStarts starts with fresh contents each.
// ortho's argument arrays are scrambled as soon as its call returns.
void check_mode(Case& c, Random& local, Mode mode, Form form);

const char* to_string(Mode mode);
const char* to_string(Form form);

// Keeps the processes in step between tests (each test makes its own
// communicators, but a test running ahead must not overtake).
class NativeTest : public ::testing::Test {
 protected:
  void TearDown() override { MPI_Barrier(MPI_COMM_WORLD); }
};

}  // namespace ortho_native_test

#endif  // ORTHOCOMM_TESTS_ORTHO_NATIVE_NATIVE_TESTING_H_
