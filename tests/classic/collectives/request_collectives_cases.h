// The 17 intra-communicator collectives as random cases that run in every
// mode on buffers they own: blocking, non-blocking (ibcast, ...),
// persistent (bcast_init, ...) and Open MPI's MPI_I* on the oracle
// communicator. Used by the non-blocking and persistent collective tests.
#ifndef ORTHOCOMM_TESTS_CLASSIC_COLLECTIVES_REQUEST_COLLECTIVES_CASES_H_
#define ORTHOCOMM_TESTS_CLASSIC_COLLECTIVES_REQUEST_COLLECTIVES_CASES_H_

#include <gtest/gtest.h>
#include <mpi.h>

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "classic/collectives/collectives.h"
#include "classic/collectives/nonblocking_collectives.h"
#include "classic/collectives/persistent_collectives.h"
#include "classic/exec/executor.h"
#include "classic/p2p/request.h"
#include "tests/classic/testing/collectives_testing.h"

namespace classic::testing {

// A non-commutative user op on (m, c) pairs of long long: x -> m x + c,
// "a, then b" (MPI combines in rank order).
inline void compose(void* in, void* inout, int* count, MPI_Datatype*) {
  auto* a = static_cast<long long*>(in);
  auto* b = static_cast<long long*>(inout);
  for (int k = 0; k < *count; ++k) {
    const long long m = a[2 * k] * b[2 * k];
    const long long c = b[2 * k] * a[2 * k + 1] + b[2 * k + 1];
    b[2 * k] = m;
    b[2 * k + 1] = c;
  }
}

// The derived datatypes and the user op of the cases, made at first use
// and left to the transport's finalize.
struct Derived {
  MPI_Datatype strided = MPI_DATATYPE_NULL;  // ints 0 and 2 of 3 (vector)
  MPI_Datatype affine = MPI_DATATYPE_NULL;   // 2 long long
  MPI_Op compose = MPI_OP_NULL;              // on affine, not commutative

  static const Derived& get() {
    static const Derived* derived = make();
    return *derived;
  }

 private:
  static Derived* make() {
    auto* d = new Derived;
    MPI_Datatype vector = MPI_DATATYPE_NULL;
    MPI_Type_vector(2, 1, 2, MPI_INT, &vector);
    MPI_Type_create_resized(vector, 0, 3 * sizeof(int), &d->strided);
    MPI_Type_free(&vector);
    MPI_Type_commit(&d->strided);
    MPI_Type_contiguous(2, MPI_LONG_LONG, &d->affine);
    MPI_Type_commit(&d->affine);
    MPI_Op_create(&testing::compose, /*commute=*/0, &d->compose);
    return d;
  }
};

// One drawn collective call with its own buffers.
class Case {
 public:
  virtual ~Case() = default;
  // Fresh inputs (send data, in-place data) and sentinels in the outputs,
  // in place (the buffers never move: persistent requests hold them).
  virtual void fill(Random& local) = 0;
  // The classic collective on the buffers: blocking (a null Request),
  // non-blocking or persistent.
  virtual Request run(Mode mode) = 0;
  // Open MPI's non-blocking collective on the buffers.
  virtual int oracle(MPI_Request* request) = 0;
  // The same call on a copy of the buffers.
  virtual std::unique_ptr<Case> clone() const = 0;
  // What a correct call leaves in the buffers is the same in both.
  virtual bool same(const Case& other) const = 0;
  virtual const char* name() const = 0;
  // The drawn parameters, for failure messages.
  virtual std::string details() const { return ""; }
};

// Picks the call of `mode`: blocking (returns a null Request), non-blocking
// or persistent.
template <typename B, typename N, typename P>
Request by_mode(Mode mode, B blocking, N nonblocking, P persistent) {
  switch (mode) {
    case Mode::nonblocking:
      return nonblocking();
    case Mode::persistent:
      return persistent();
    case Mode::blocking:
      break;
  }
  blocking();
  return Request();
}

// Buffers of T and the element kind that the raw forms pass: T itself
// (typed or raw), or a derived datatype of `unit` T's.
template <typename T, typename Self>
class CaseOf : public Case {
 public:
  CaseOf(const CommPair& pair, Random& shared, MPI_Datatype derived, int unit)
      : pair_(&pair), form_(draw_form(shared)) {
    // Empty buffers at distinct addresses: the transport's MPIX_Reduce_init
    // refuses send == recv even for no elements.
    send_.reserve(1);
    recv_.reserve(1);
    if (derived != MPI_DATATYPE_NULL && chance(shared, 40)) {
      type_ = derived;
      unit_ = unit;
      form_ = Form::raw;
    }
  }
  std::unique_ptr<Case> clone() const override {
    return std::make_unique<Self>(static_cast<const Self&>(*this));
  }
  bool same(const Case& other) const override {
    const auto& that = static_cast<const CaseOf&>(other);
    return send_ == that.send_ && recv_ == that.recv_;
  }

 protected:
  bool typed() const { return form_ == Form::typed; }
  MPI_Comm oracle_comm() const { return pair_->oracle; }
  const Comm& comm() const { return pair_->classic; }
  int size() const { return pair_->size(); }
  int rank() const { return pair_->rank(); }
  // Elements of T in `count` elements of the datatype.
  std::size_t elements(int count) const { return at(count * unit_); }
  void refresh(std::vector<T>& v, Random& local) {
    for (T& x : v) x = element<T>(local, -50, 50);
  }
  void reset(std::vector<T>& v) {
    for (T& x : v) x = sentinel<T>();
  }

  const CommPair* pair_;
  Form form_;
  MPI_Datatype type_ = datatype_of<T>();
  int unit_ = 1;
  std::vector<T> send_;
  std::vector<T> recv_;
};

// Draws one of the 17 collectives (index in [0, 17)) on pair.
std::unique_ptr<Case> make_case(int which, const CommPair& pair, Random& shared,
                                Random& local);
inline constexpr int kCollectives = 17;

}  // namespace classic::testing

#endif  // ORTHOCOMM_TESTS_CLASSIC_COLLECTIVES_REQUEST_COLLECTIVES_CASES_H_
