// Shared by the collective differential tests: random draws that every
// process of a communicator agrees on, element types, block layouts, and
// pairs of classic and Open MPI communicators to run both on.
#ifndef ORTHOCOMM_TESTS_CLASSIC_TESTING_COLLECTIVES_TESTING_H_
#define ORTHOCOMM_TESTS_CLASSIC_TESTING_COLLECTIVES_TESTING_H_

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <complex>
#include <cstddef>
#include <limits>
#include <memory>
#include <numeric>
#include <random>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "classic/base/environment.h"
#include "classic/comm/comm.h"
#include "tests/classic/testing/testing.h"

namespace classic::testing {

using Random = std::mt19937;

inline int uniform(Random& random, int low, int high) {
  return std::uniform_int_distribution<int>(low, high)(random);
}

inline bool chance(Random& random, int percent) {
  return uniform(random, 1, 100) <= percent;
}

template <typename T>
struct IsComplex : std::false_type {};
template <typename T>
struct IsComplex<std::complex<T>> : std::true_type {};

// An element of T from small integers, so that sums and products are exact
// in every type and every order.
template <typename T>
T element(Random& random, int low, int high) {
  if constexpr (IsComplex<T>::value) {
    const auto real = uniform(random, low, high);
    return T(real, uniform(random, low, high));
  } else {
    if constexpr (std::is_unsigned_v<T>) {
      high -= low;  // the same spread, shifted to non-negative values
      low = 0;
    }
    return static_cast<T>(uniform(random, low, high));
  }
}

// Data that collectives move: distinct from sentinel<T>().
template <typename T>
std::vector<T> values(Random& random, std::size_t count) {
  std::vector<T> result(count);
  for (T& value : result) value = element<T>(random, -50, 50);
  return result;
}

// What receive buffers hold before a call, to see what it wrote.
template <typename T>
T sentinel() {
  if constexpr (IsComplex<T>::value) {
    return T(99, -99);
  } else {
    return static_cast<T>(99 + 100 * std::is_unsigned_v<T>);
  }
}

// Runs f.template operator()<T>() for one of the element types that
// data-moving collectives are tested with.
template <typename F>
void with_element_type(int which, F&& f) {
  switch (which % 7) {
    case 0:
      return f.template operator()<int>();
    case 1:
      return f.template operator()<double>();
    case 2:
      return f.template operator()<float>();
    case 3:
      return f.template operator()<long long>();
    case 4:
      return f.template operator()<char>();
    case 5:
      return f.template operator()<unsigned char>();
    default:
      return f.template operator()<std::complex<double>>();
  }
}
inline constexpr int kElementTypes = 7;

// Predefined ops by what MPI defines them on.
inline bool is_bitwise(MPI_Op op) {
  return op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR;
}
inline bool is_logical(MPI_Op op) {
  return op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR;
}

// An operand for `op` that keeps every reduction exact and free of
// overflow at up to 8 processes (signed char products stay in [-1, 1]).
template <typename T>
T operand(Random& random, MPI_Op op) {
  if (op == MPI_SUM) return element<T>(random, -10, 10);
  if (op == MPI_PROD) {
    return std::is_same_v<T, signed char> ? element<T>(random, -1, 1)
                                          : element<T>(random, -2, 2);
  }
  if (op == MPI_MIN || op == MPI_MAX) return element<T>(random, -50, 50);
  if (is_logical(op)) return element<T>(random, 0, 2);
  if constexpr (std::is_integral_v<T>) {  // bitwise: any bits
    return static_cast<T>(std::uniform_int_distribution<long long>(
        std::numeric_limits<T>::min(), std::numeric_limits<T>::max())(random));
  } else {
    return T{};
  }
}

// Draws an element type and an op MPI defines on it, then runs
// f.template operator()<T>(op).
template <typename F>
void with_reduction(Random& random, F&& f) {
  static const MPI_Op kIntegerOps[] = {MPI_SUM,  MPI_PROD, MPI_MIN,  MPI_MAX,
                                       MPI_BAND, MPI_BOR,  MPI_BXOR, MPI_LAND,
                                       MPI_LOR,  MPI_LXOR};
  static const MPI_Op kFloatingOps[] = {MPI_SUM, MPI_PROD, MPI_MIN, MPI_MAX};
  static const MPI_Op kComplexOps[] = {MPI_SUM, MPI_PROD};
  auto pick = [&](const auto& ops) {
    return ops[uniform(random, 0, static_cast<int>(std::size(ops)) - 1)];
  };
  switch (uniform(random, 0, 6)) {
    case 0:
      return f.template operator()<int>(pick(kIntegerOps));
    case 1:
      return f.template operator()<long long>(pick(kIntegerOps));
    case 2:
      return f.template operator()<signed char>(pick(kIntegerOps));
    case 3:
      return f.template operator()<unsigned char>(pick(kIntegerOps));
    case 4:
      return f.template operator()<float>(pick(kFloatingOps));
    case 5:
      return f.template operator()<double>(pick(kFloatingOps));
    default:
      return f.template operator()<std::complex<double>>(pick(kComplexOps));
  }
}

// One block per process in a buffer: block i has counts[i] elements at
// displs[i]; extent is the buffer size the layout needs.
struct Layout {
  std::vector<int> counts;
  std::vector<int> displs;
  int extent = 0;
};

// counts.size() blocks in a random order with random gaps between them.
inline Layout scattered(Random& random, std::vector<int> counts) {
  Layout layout{std::move(counts), {}, 0};
  layout.displs.resize(layout.counts.size());
  std::vector<int> order(layout.counts.size());
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), random);
  for (const int block : order) {
    layout.extent += uniform(random, 0, 2);
    layout.displs[static_cast<std::size_t>(block)] = layout.extent;
    layout.extent += layout.counts[static_cast<std::size_t>(block)];
  }
  layout.extent += uniform(random, 0, 2);
  return layout;
}

// `n` counts in [0, high], a quarter of them zero.
inline std::vector<int> random_counts(Random& random, int n, int high) {
  std::vector<int> counts(static_cast<std::size_t>(n));
  for (int& count : counts)
    count = chance(random, 25) ? 0 : uniform(random, 1, high);
  return counts;
}

inline constexpr unsigned kSeed = 0xc011ec7u;
inline constexpr int kIterations = 250;

enum class Form { typed, raw };

// A classic communicator and an Open MPI communicator with the same
// processes in the same rank order.
struct CommPair {
  const char* name;
  Comm classic;
  MPI_Comm oracle = MPI_COMM_NULL;

  CommPair(const char* pair_name, Comm comm, MPI_Comm mpi_comm)
      : name(pair_name), classic(std::move(comm)), oracle(mpi_comm) {}
  CommPair(const CommPair&) = delete;
  CommPair& operator=(const CommPair&) = delete;
  ~CommPair() { MPI_Comm_free(&oracle); }

  int size() const { return classic.size(); }
  int rank() const { return classic.rank(); }
};

// The world, and the evens and odds ranked in reverse (so that ranks of the
// split differ from world ranks).
inline std::vector<std::unique_ptr<CommPair>> comm_pairs() {
  const int world_rank = Environment::world_rank();
  std::vector<std::unique_ptr<CommPair>> pairs;
  MPI_Comm world = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &world);
  pairs.push_back(std::make_unique<CommPair>("world", Comm::world(), world));
  MPI_Comm split = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, -world_rank, &split);
  pairs.push_back(std::make_unique<CommPair>(
      "split", Comm::world().split(world_rank % 2, -world_rank), split));
  return pairs;
}

// ---- differential runs against the transport ---------------------------

// Runs check(pair, shared, local) kIterations times on each pair. `shared`
// gives the same draws on every process (counts, roots, types, ops, forms);
// `local` gives each process its own data.
template <typename Check>
void run_random(unsigned salt, Check&& check) {
  for (const auto& pair : comm_pairs()) {
    Random shared(kSeed + salt);
    Random local(kSeed + salt + 7919u * Environment::world_rank());
    for (int iteration = 0; iteration < kIterations; ++iteration) {
      SCOPED_TRACE(std::string(pair->name) + " communicator, iteration " +
                   std::to_string(iteration) + ", rank " +
                   std::to_string(pair->rank()) + " of " +
                   std::to_string(pair->size()));
      check(*pair, shared, local);
    }
  }
}

// Runs check.template operator()<T>(pair, shared, local) for a random
// element type T.
template <typename Check>
void run_random_typed(unsigned salt, Check&& check) {
  run_random(salt, [&](const CommPair& pair, Random& shared, Random& local) {
    with_element_type(uniform(shared, 0, kElementTypes - 1), [&]<typename T>() {
      check.template operator()<T>(pair, shared, local);
    });
  });
}

inline Form draw_form(Random& shared) {
  return chance(shared, 50) ? Form::typed : Form::raw;
}

inline std::size_t at(int index) { return static_cast<std::size_t>(index); }

// Copies `block` to position `offset` of `buffer`.
template <typename T>
void place(const std::vector<T>& block, std::vector<T>& buffer, int offset) {
  std::copy(block.begin(), block.end(), buffer.begin() + offset);
}

}  // namespace classic::testing

#endif  // ORTHOCOMM_TESTS_CLASSIC_TESTING_COLLECTIVES_TESTING_H_
