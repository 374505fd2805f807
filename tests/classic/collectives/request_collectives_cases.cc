#include "tests/classic/collectives/request_collectives_cases.h"

#include <algorithm>
#include <numeric>
#include <string>

namespace classic::testing {
namespace {

// ---- data-moving collectives (int, or the strided vector type) ----------

template <typename Self>
class Moving : public CaseOf<int, Self> {
 public:
  Moving(const CommPair& pair, Random& shared)
      : CaseOf<int, Self>(pair, shared, Derived::get().strided, 3) {}
};

class Barrier final : public CaseOf<int, Barrier> {
 public:
  Barrier(const CommPair& pair, Random& shared)
      : CaseOf(pair, shared, MPI_DATATYPE_NULL, 1) {}
  void fill(Random&) override {}
  Request run(Mode mode) override {
    return by_mode(
        mode, [&] { barrier(comm()); }, [&] { return ibarrier(comm()); },
        [&] { return barrier_init(comm()); });
  }
  int oracle(MPI_Request* r) override { return MPI_Ibarrier(oracle_comm(), r); }
  const char* name() const override { return "barrier"; }
};

class Bcast final : public Moving<Bcast> {
 public:
  Bcast(const CommPair& pair, Random& shared) : Moving(pair, shared) {
    count_ = uniform(shared, 0, 6);
    root_ = uniform(shared, 0, size() - 1);
    recv_.resize(elements(count_));
  }
  void fill(Random& local) override {
    if (rank() == root_) {
      refresh(recv_, local);
    } else {
      reset(recv_);
    }
  }
  Request run(Mode mode) override {
    if (typed()) {
      return by_mode(
          mode, [&] { bcast(comm(), out(recv_), root_); },
          [&] { return ibcast(comm(), out(recv_), root_); },
          [&] { return bcast_init(comm(), out(recv_), root_); });
    }
    return by_mode(
        mode, [&] { bcast(comm(), recv_.data(), count_, type_, root_); },
        [&] { return ibcast(comm(), recv_.data(), count_, type_, root_); },
        [&] { return bcast_init(comm(), recv_.data(), count_, type_, root_); });
  }
  int oracle(MPI_Request* r) override {
    return MPI_Ibcast(recv_.data(), count_, type_, root_, oracle_comm(), r);
  }
  const char* name() const override { return "bcast"; }

 private:
  int count_, root_;
};

// gather: in place at the root now and then.
class Gather final : public Moving<Gather> {
 public:
  Gather(const CommPair& pair, Random& shared) : Moving(pair, shared) {
    count_ = uniform(shared, 0, 4);
    root_ = uniform(shared, 0, size() - 1);
    in_place_ = chance(shared, 25) && rank() == root_;
    send_.resize(elements(count_));
    recv_.resize(rank() == root_ ? elements(size() * count_) : 0);
  }
  void fill(Random& local) override {
    refresh(send_, local);
    reset(recv_);
    if (in_place_)
      place(send_, recv_, static_cast<int>(elements(root_ * count_)));
  }
  Request run(Mode mode) override {
    const void* send = in_place_ ? MPI_IN_PLACE : send_.data();
    if (typed() && in_place_) {
      return by_mode(
          mode, [&] { gather(comm(), in_place, out(recv_), root_); },
          [&] { return igather(comm(), in_place, out(recv_), root_); },
          [&] { return gather_init(comm(), in_place, out(recv_), root_); });
    }
    if (typed()) {
      return by_mode(
          mode, [&] { gather(comm(), in(send_), out(recv_), root_); },
          [&] { return igather(comm(), in(send_), out(recv_), root_); },
          [&] { return gather_init(comm(), in(send_), out(recv_), root_); });
    }
    return by_mode(
        mode,
        [&] {
          gather(comm(), send, count_, type_, recv_.data(), count_, type_,
                 root_);
        },
        [&] {
          return igather(comm(), send, count_, type_, recv_.data(), count_,
                         type_, root_);
        },
        [&] {
          return gather_init(comm(), send, count_, type_, recv_.data(), count_,
                             type_, root_);
        });
  }
  int oracle(MPI_Request* r) override {
    return MPI_Igather(in_place_ ? MPI_IN_PLACE : send_.data(), count_, type_,
                       recv_.data(), count_, type_, root_, oracle_comm(), r);
  }
  const char* name() const override { return "gather"; }

 private:
  int count_, root_;
  bool in_place_;
};

class Gatherv final : public CaseOf<int, Gatherv> {
 public:
  Gatherv(const CommPair& pair, Random& shared, Random& local)
      : CaseOf(pair, shared, MPI_DATATYPE_NULL, 1) {
    root_ = uniform(shared, 0, size() - 1);
    layout_ = scattered(local, random_counts(shared, size(), 4));
    send_.resize(at(layout_.counts[at(rank())]));
    recv_.resize(rank() == root_ ? at(layout_.extent) : 0);
  }
  void fill(Random& local) override {
    refresh(send_, local);
    reset(recv_);
  }
  Request run(Mode mode) override {
    const auto& [counts, displs, extent] = layout_;
    if (typed()) {
      return by_mode(
          mode,
          [&] {
            gatherv(comm(), in(send_), out(recv_), counts, displs, root_);
          },
          [&] {
            return igatherv(comm(), in(send_), out(recv_), counts, displs,
                            root_);
          },
          [&] {
            return gatherv_init(comm(), in(send_), out(recv_), counts, displs,
                                root_);
          });
    }
    const int n = static_cast<int>(send_.size());
    return by_mode(
        mode,
        [&] {
          gatherv(comm(), send_.data(), n, MPI_INT, recv_.data(), counts,
                  displs, MPI_INT, root_);
        },
        [&] {
          return igatherv(comm(), send_.data(), n, MPI_INT, recv_.data(),
                          counts, displs, MPI_INT, root_);
        },
        [&] {
          return gatherv_init(comm(), send_.data(), n, MPI_INT, recv_.data(),
                              counts, displs, MPI_INT, root_);
        });
  }
  int oracle(MPI_Request* r) override {
    return MPI_Igatherv(send_.data(), static_cast<int>(send_.size()), MPI_INT,
                        recv_.data(), layout_.counts.data(),
                        layout_.displs.data(), MPI_INT, root_, oracle_comm(),
                        r);
  }
  const char* name() const override { return "gatherv"; }

 private:
  int root_;
  Layout layout_;
};

// scatter: in place at the root now and then.
class Scatter final : public Moving<Scatter> {
 public:
  Scatter(const CommPair& pair, Random& shared) : Moving(pair, shared) {
    count_ = uniform(shared, 0, 4);
    root_ = uniform(shared, 0, size() - 1);
    in_place_ = chance(shared, 25) && rank() == root_;
    send_.resize(rank() == root_ ? elements(size() * count_) : 0);
    recv_.resize(in_place_ ? 0 : elements(count_));
  }
  void fill(Random& local) override {
    refresh(send_, local);
    reset(recv_);
  }
  Request run(Mode mode) override {
    void* recv = in_place_ ? MPI_IN_PLACE : recv_.data();
    if (typed() && in_place_) {
      return by_mode(
          mode, [&] { scatter(comm(), in(send_), in_place, root_); },
          [&] { return iscatter(comm(), in(send_), in_place, root_); },
          [&] { return scatter_init(comm(), in(send_), in_place, root_); });
    }
    if (typed()) {
      return by_mode(
          mode, [&] { scatter(comm(), in(send_), out(recv_), root_); },
          [&] { return iscatter(comm(), in(send_), out(recv_), root_); },
          [&] { return scatter_init(comm(), in(send_), out(recv_), root_); });
    }
    return by_mode(
        mode,
        [&] {
          scatter(comm(), send_.data(), count_, type_, recv, count_, type_,
                  root_);
        },
        [&] {
          return iscatter(comm(), send_.data(), count_, type_, recv, count_,
                          type_, root_);
        },
        [&] {
          return scatter_init(comm(), send_.data(), count_, type_, recv, count_,
                              type_, root_);
        });
  }
  int oracle(MPI_Request* r) override {
    return MPI_Iscatter(send_.data(), count_, type_,
                        in_place_ ? MPI_IN_PLACE : recv_.data(), count_, type_,
                        root_, oracle_comm(), r);
  }
  const char* name() const override { return "scatter"; }

 private:
  int count_, root_;
  bool in_place_;
};

class Scatterv final : public CaseOf<int, Scatterv> {
 public:
  Scatterv(const CommPair& pair, Random& shared, Random& local)
      : CaseOf(pair, shared, MPI_DATATYPE_NULL, 1) {
    root_ = uniform(shared, 0, size() - 1);
    layout_ = scattered(local, random_counts(shared, size(), 4));
    send_.resize(rank() == root_ ? at(layout_.extent) : 0);
    recv_.resize(at(layout_.counts[at(rank())]));
  }
  void fill(Random& local) override {
    refresh(send_, local);
    reset(recv_);
  }
  Request run(Mode mode) override {
    const auto& [counts, displs, extent] = layout_;
    if (typed()) {
      return by_mode(
          mode,
          [&] {
            scatterv(comm(), in(send_), counts, displs, out(recv_), root_);
          },
          [&] {
            return iscatterv(comm(), in(send_), counts, displs, out(recv_),
                             root_);
          },
          [&] {
            return scatterv_init(comm(), in(send_), counts, displs, out(recv_),
                                 root_);
          });
    }
    const int n = static_cast<int>(recv_.size());
    return by_mode(
        mode,
        [&] {
          scatterv(comm(), send_.data(), counts, displs, MPI_INT, recv_.data(),
                   n, MPI_INT, root_);
        },
        [&] {
          return iscatterv(comm(), send_.data(), counts, displs, MPI_INT,
                           recv_.data(), n, MPI_INT, root_);
        },
        [&] {
          return scatterv_init(comm(), send_.data(), counts, displs, MPI_INT,
                               recv_.data(), n, MPI_INT, root_);
        });
  }
  int oracle(MPI_Request* r) override {
    return MPI_Iscatterv(send_.data(), layout_.counts.data(),
                         layout_.displs.data(), MPI_INT, recv_.data(),
                         static_cast<int>(recv_.size()), MPI_INT, root_,
                         oracle_comm(), r);
  }
  const char* name() const override { return "scatterv"; }

 private:
  int root_;
  Layout layout_;
};

// allgather: in place on every process now and then.
class Allgather final : public Moving<Allgather> {
 public:
  Allgather(const CommPair& pair, Random& shared) : Moving(pair, shared) {
    count_ = uniform(shared, 0, 4);
    in_place_ = chance(shared, 25);
    send_.resize(elements(count_));
    recv_.resize(elements(size() * count_));
  }
  void fill(Random& local) override {
    refresh(send_, local);
    reset(recv_);
    if (in_place_)
      place(send_, recv_, static_cast<int>(elements(rank() * count_)));
  }
  Request run(Mode mode) override {
    if (typed() && in_place_) {
      return by_mode(
          mode, [&] { allgather(comm(), in_place, out(recv_)); },
          [&] { return iallgather(comm(), in_place, out(recv_)); },
          [&] { return allgather_init(comm(), in_place, out(recv_)); });
    }
    if (typed()) {
      return by_mode(
          mode, [&] { allgather(comm(), in(send_), out(recv_)); },
          [&] { return iallgather(comm(), in(send_), out(recv_)); },
          [&] { return allgather_init(comm(), in(send_), out(recv_)); });
    }
    const void* send = in_place_ ? MPI_IN_PLACE : send_.data();
    return by_mode(
        mode,
        [&] {
          allgather(comm(), send, count_, type_, recv_.data(), count_, type_);
        },
        [&] {
          return iallgather(comm(), send, count_, type_, recv_.data(), count_,
                            type_);
        },
        [&] {
          return allgather_init(comm(), send, count_, type_, recv_.data(),
                                count_, type_);
        });
  }
  int oracle(MPI_Request* r) override {
    return MPI_Iallgather(in_place_ ? MPI_IN_PLACE : send_.data(), count_,
                          type_, recv_.data(), count_, type_, oracle_comm(), r);
  }
  const char* name() const override { return "allgather"; }

 private:
  int count_;
  bool in_place_;
};

class Allgatherv final : public CaseOf<double, Allgatherv> {
 public:
  Allgatherv(const CommPair& pair, Random& shared, Random& local)
      : CaseOf(pair, shared, MPI_DATATYPE_NULL, 1) {
    layout_ = scattered(local, random_counts(shared, size(), 4));
    send_.resize(at(layout_.counts[at(rank())]));
    recv_.resize(at(layout_.extent));
  }
  void fill(Random& local) override {
    refresh(send_, local);
    reset(recv_);
  }
  Request run(Mode mode) override {
    const auto& [counts, displs, extent] = layout_;
    if (typed()) {
      return by_mode(
          mode,
          [&] { allgatherv(comm(), in(send_), out(recv_), counts, displs); },
          [&] {
            return iallgatherv(comm(), in(send_), out(recv_), counts, displs);
          },
          [&] {
            return allgatherv_init(comm(), in(send_), out(recv_), counts,
                                   displs);
          });
    }
    const int n = static_cast<int>(send_.size());
    return by_mode(
        mode,
        [&] {
          allgatherv(comm(), send_.data(), n, MPI_DOUBLE, recv_.data(), counts,
                     displs, MPI_DOUBLE);
        },
        [&] {
          return iallgatherv(comm(), send_.data(), n, MPI_DOUBLE, recv_.data(),
                             counts, displs, MPI_DOUBLE);
        },
        [&] {
          return allgatherv_init(comm(), send_.data(), n, MPI_DOUBLE,
                                 recv_.data(), counts, displs, MPI_DOUBLE);
        });
  }
  int oracle(MPI_Request* r) override {
    return MPI_Iallgatherv(send_.data(), static_cast<int>(send_.size()),
                           MPI_DOUBLE, recv_.data(), layout_.counts.data(),
                           layout_.displs.data(), MPI_DOUBLE, oracle_comm(), r);
  }
  const char* name() const override { return "allgatherv"; }

 private:
  Layout layout_;
};

class Alltoall final : public Moving<Alltoall> {
 public:
  Alltoall(const CommPair& pair, Random& shared) : Moving(pair, shared) {
    count_ = uniform(shared, 0, 3);
    send_.resize(elements(size() * count_));
    recv_.resize(elements(size() * count_));
  }
  void fill(Random& local) override {
    refresh(send_, local);
    reset(recv_);
  }
  Request run(Mode mode) override {
    if (typed()) {
      return by_mode(
          mode, [&] { alltoall(comm(), in(send_), out(recv_)); },
          [&] { return ialltoall(comm(), in(send_), out(recv_)); },
          [&] { return alltoall_init(comm(), in(send_), out(recv_)); });
    }
    return by_mode(
        mode,
        [&] {
          alltoall(comm(), send_.data(), count_, type_, recv_.data(), count_,
                   type_);
        },
        [&] {
          return ialltoall(comm(), send_.data(), count_, type_, recv_.data(),
                           count_, type_);
        },
        [&] {
          return alltoall_init(comm(), send_.data(), count_, type_,
                               recv_.data(), count_, type_);
        });
  }
  int oracle(MPI_Request* r) override {
    return MPI_Ialltoall(send_.data(), count_, type_, recv_.data(), count_,
                         type_, oracle_comm(), r);
  }
  const char* name() const override { return "alltoall"; }

 private:
  int count_;
};

// alltoallv and alltoallw: process i sends counts(i, j) to j; one random
// matrix that every process draws alike.
std::vector<int> count_matrix(Random& shared, int n) {
  return random_counts(shared, n * n, 3);
}

class Alltoallv final : public CaseOf<double, Alltoallv> {
 public:
  Alltoallv(const CommPair& pair, Random& shared, Random& local)
      : CaseOf(pair, shared, MPI_DATATYPE_NULL, 1) {
    const int n = size();
    const std::vector<int> matrix = count_matrix(shared, n);
    std::vector<int> sendcounts(at(n)), recvcounts(at(n));
    for (int j = 0; j < n; ++j) {
      sendcounts[at(j)] = matrix[at(rank() * n + j)];
      recvcounts[at(j)] = matrix[at(j * n + rank())];
    }
    send_layout_ = scattered(local, sendcounts);
    recv_layout_ = scattered(local, recvcounts);
    send_.resize(at(send_layout_.extent));
    recv_.resize(at(recv_layout_.extent));
  }
  void fill(Random& local) override {
    refresh(send_, local);
    reset(recv_);
  }
  Request run(Mode mode) override {
    const Layout& s = send_layout_;
    const Layout& r = recv_layout_;
    if (typed()) {
      return by_mode(
          mode,
          [&] {
            alltoallv(comm(), in(send_), s.counts, s.displs, out(recv_),
                      r.counts, r.displs);
          },
          [&] {
            return ialltoallv(comm(), in(send_), s.counts, s.displs, out(recv_),
                              r.counts, r.displs);
          },
          [&] {
            return alltoallv_init(comm(), in(send_), s.counts, s.displs,
                                  out(recv_), r.counts, r.displs);
          });
    }
    return by_mode(
        mode,
        [&] {
          alltoallv(comm(), send_.data(), s.counts, s.displs, MPI_DOUBLE,
                    recv_.data(), r.counts, r.displs, MPI_DOUBLE);
        },
        [&] {
          return ialltoallv(comm(), send_.data(), s.counts, s.displs,
                            MPI_DOUBLE, recv_.data(), r.counts, r.displs,
                            MPI_DOUBLE);
        },
        [&] {
          return alltoallv_init(comm(), send_.data(), s.counts, s.displs,
                                MPI_DOUBLE, recv_.data(), r.counts, r.displs,
                                MPI_DOUBLE);
        });
  }
  int oracle(MPI_Request* r) override {
    return MPI_Ialltoallv(
        send_.data(), send_layout_.counts.data(), send_layout_.displs.data(),
        MPI_DOUBLE, recv_.data(), recv_layout_.counts.data(),
        recv_layout_.displs.data(), MPI_DOUBLE, oracle_comm(), r);
  }
  const char* name() const override { return "alltoallv"; }

 private:
  Layout send_layout_, recv_layout_;
};

// alltoallw: blocks of int (MPI_INT) or of the strided type, per peer,
// displacements in bytes.
class Alltoallw final : public CaseOf<int, Alltoallw> {
  static constexpr int kZero[1] = {0};

 public:
  Alltoallw(const CommPair& pair, Random& shared, Random& local)
      : CaseOf(pair, shared, MPI_DATATYPE_NULL, 1) {
    const int n = size();
    const std::vector<int> matrix = count_matrix(shared, n);
    std::vector<int> kinds(at(n));  // of the blocks process j sends
    for (int& kind : kinds) kind = uniform(shared, 0, 1);
    std::vector<int> sendunits(at(n)), recvunits(at(n));
    for (int j = 0; j < n; ++j) {
      const int out_units = kinds[at(rank())] ? 3 : 1;
      const int in_units = kinds[at(j)] ? 3 : 1;
      sendcounts_.push_back(matrix[at(rank() * n + j)]);
      recvcounts_.push_back(matrix[at(j * n + rank())]);
      send_types_.push_back(out_units == 3 ? Derived::get().strided : MPI_INT);
      recv_types_.push_back(in_units == 3 ? Derived::get().strided : MPI_INT);
      sendunits[at(j)] = sendcounts_.back() * out_units;
      recvunits[at(j)] = recvcounts_.back() * in_units;
    }
    const Layout s = scattered(local, sendunits);
    const Layout r = scattered(local, recvunits);
    for (int j = 0; j < n; ++j) {
      sdispls_.push_back(s.displs[at(j)] * static_cast<int>(sizeof(int)));
      rdispls_.push_back(r.displs[at(j)] * static_cast<int>(sizeof(int)));
    }
    send_.resize(at(s.extent));
    recv_.resize(at(r.extent));
  }
  void fill(Random& local) override {
    refresh(send_, local);
    reset(recv_);
  }
  Request run(Mode mode) override {
    return by_mode(
        mode,
        [&] {
          alltoallw(comm(), send_.data(), sendcounts_, sdispls_, send_types_,
                    recv_.data(), recvcounts_, rdispls_, recv_types_);
        },
        [&] {
          return ialltoallw(comm(), send_.data(), sendcounts_, sdispls_,
                            send_types_, recv_.data(), recvcounts_, rdispls_,
                            recv_types_);
        },
        [&] {
          return alltoallw_init(comm(), send_.data(), sendcounts_, sdispls_,
                                send_types_, recv_.data(), recvcounts_,
                                rdispls_, recv_types_);
        });
  }
  int oracle(MPI_Request* r) override {
    if (size() == 1) {
      // Open MPI 4.1's coll/self scales alltoallw's byte displacements
      // (collectives.h): the oracle of one process's copy is alltoallv.
      return MPI_Ialltoallv(reinterpret_cast<char*>(send_.data()) + sdispls_[0],
                            sendcounts_.data(), kZero, send_types_[0],
                            reinterpret_cast<char*>(recv_.data()) + rdispls_[0],
                            recvcounts_.data(), kZero, recv_types_[0],
                            oracle_comm(), r);
    }
    return MPI_Ialltoallw(send_.data(), sendcounts_.data(), sdispls_.data(),
                          send_types_.data(), recv_.data(), recvcounts_.data(),
                          rdispls_.data(), recv_types_.data(), oracle_comm(),
                          r);
  }
  const char* name() const override { return "alltoallw"; }

 private:
  std::vector<int> sendcounts_, recvcounts_, sdispls_, rdispls_;
  std::vector<MPI_Datatype> send_types_, recv_types_;
};

// ---- reductions: int or double with a predefined op, or the affine ------
// ---- pairs with the non-commutative user op ------------------------------

enum class Reduction { reduce, allreduce, scan, exscan, block, scatter };

class Reducing final : public CaseOf<long long, Reducing> {
 public:
  Reducing(Reduction which, const CommPair& pair, Random& shared)
      : CaseOf(pair, shared, Derived::get().affine, 2), which_(which) {
    static const MPI_Op kOps[] = {MPI_SUM, MPI_MAX, MPI_MIN};
    op_ = type_ == Derived::get().affine ? Derived::get().compose
                                         : kOps[uniform(shared, 0, 2)];
    count_ = uniform(shared, 0, 4);
    root_ = uniform(shared, 0, size() - 1);
    in_place_ = chance(shared, 25) &&
                (which != Reduction::reduce || rank() == root_) &&
                which != Reduction::exscan;
    recvcounts_ = random_counts(shared, size(), 3);
    const int total =
        std::accumulate(recvcounts_.begin(), recvcounts_.end(), 0);
    switch (which) {
      case Reduction::reduce:
        send_.resize(in_place_ ? 0 : elements(count_));
        recv_.resize(rank() == root_ ? elements(count_) : 0);
        break;
      case Reduction::allreduce:
      case Reduction::scan:
      case Reduction::exscan:
        send_.resize(in_place_ ? 0 : elements(count_));
        recv_.resize(elements(count_));
        break;
      case Reduction::block:
        send_.resize(in_place_ ? 0 : elements(size() * count_));
        recv_.resize(elements(in_place_ ? size() * count_ : count_));
        break;
      case Reduction::scatter:
        send_.resize(in_place_ ? 0 : elements(total));
        recv_.resize(elements(in_place_ ? total : recvcounts_[at(rank())]));
        break;
    }
  }

  void fill(Random& local) override {
    auto operand = [&] {
      return type_ == Derived::get().affine
                 ? element<long long>(local, -3, 3)
                 : element<long long>(local, -50, 50);
    };
    for (long long& x : send_) x = operand();
    if (in_place_) {
      for (long long& x : recv_) x = operand();
    } else {
      reset(recv_);
    }
  }

  Request run(Mode mode) override {
    const void* send = in_place_ ? MPI_IN_PLACE : send_.data();
    void* recv = recv_.data();
    const bool raw = !typed();
    switch (which_) {
      case Reduction::reduce:
        if (raw) {
          return by_mode(
              mode,
              [&] { reduce(comm(), send, recv, count_, type_, op_, root_); },
              [&] {
                return ireduce(comm(), send, recv, count_, type_, op_, root_);
              },
              [&] {
                return reduce_init(comm(), send, recv, count_, type_, op_,
                                   root_);
              });
        }
        if (in_place_) {
          return by_mode(
              mode, [&] { reduce(comm(), in_place, out(recv_), op_, root_); },
              [&] { return ireduce(comm(), in_place, out(recv_), op_, root_); },
              [&] {
                return reduce_init(comm(), in_place, out(recv_), op_, root_);
              });
        }
        return by_mode(
            mode, [&] { reduce(comm(), in(send_), out(recv_), op_, root_); },
            [&] { return ireduce(comm(), in(send_), out(recv_), op_, root_); },
            [&] {
              return reduce_init(comm(), in(send_), out(recv_), op_, root_);
            });
      case Reduction::allreduce:
        if (raw) {
          return by_mode(
              mode, [&] { allreduce(comm(), send, recv, count_, type_, op_); },
              [&] {
                return iallreduce(comm(), send, recv, count_, type_, op_);
              },
              [&] {
                return allreduce_init(comm(), send, recv, count_, type_, op_);
              });
        }
        if (in_place_) {
          return by_mode(
              mode, [&] { allreduce(comm(), in_place, out(recv_), op_); },
              [&] { return iallreduce(comm(), in_place, out(recv_), op_); },
              [&] {
                return allreduce_init(comm(), in_place, out(recv_), op_);
              });
        }
        return by_mode(
            mode, [&] { allreduce(comm(), in(send_), out(recv_), op_); },
            [&] { return iallreduce(comm(), in(send_), out(recv_), op_); },
            [&] { return allreduce_init(comm(), in(send_), out(recv_), op_); });
      case Reduction::scan:
        if (raw) {
          return by_mode(
              mode, [&] { scan(comm(), send, recv, count_, type_, op_); },
              [&] { return iscan(comm(), send, recv, count_, type_, op_); },
              [&] {
                return scan_init(comm(), send, recv, count_, type_, op_);
              });
        }
        if (in_place_) {
          return by_mode(
              mode, [&] { scan(comm(), in_place, out(recv_), op_); },
              [&] { return iscan(comm(), in_place, out(recv_), op_); },
              [&] { return scan_init(comm(), in_place, out(recv_), op_); });
        }
        return by_mode(
            mode, [&] { scan(comm(), in(send_), out(recv_), op_); },
            [&] { return iscan(comm(), in(send_), out(recv_), op_); },
            [&] { return scan_init(comm(), in(send_), out(recv_), op_); });
      case Reduction::exscan:
        if (raw) {
          return by_mode(
              mode, [&] { exscan(comm(), send, recv, count_, type_, op_); },
              [&] { return iexscan(comm(), send, recv, count_, type_, op_); },
              [&] {
                return exscan_init(comm(), send, recv, count_, type_, op_);
              });
        }
        return by_mode(
            mode, [&] { exscan(comm(), in(send_), out(recv_), op_); },
            [&] { return iexscan(comm(), in(send_), out(recv_), op_); },
            [&] { return exscan_init(comm(), in(send_), out(recv_), op_); });
      case Reduction::block:
        if (raw) {
          return by_mode(
              mode,
              [&] {
                reduce_scatter_block(comm(), send, recv, count_, type_, op_);
              },
              [&] {
                return ireduce_scatter_block(comm(), send, recv, count_, type_,
                                             op_);
              },
              [&] {
                return reduce_scatter_block_init(comm(), send, recv, count_,
                                                 type_, op_);
              });
        }
        if (in_place_) {
          return by_mode(
              mode,
              [&] { reduce_scatter_block(comm(), in_place, out(recv_), op_); },
              [&] {
                return ireduce_scatter_block(comm(), in_place, out(recv_), op_);
              },
              [&] {
                return reduce_scatter_block_init(comm(), in_place, out(recv_),
                                                 op_);
              });
        }
        return by_mode(
            mode,
            [&] { reduce_scatter_block(comm(), in(send_), out(recv_), op_); },
            [&] {
              return ireduce_scatter_block(comm(), in(send_), out(recv_), op_);
            },
            [&] {
              return reduce_scatter_block_init(comm(), in(send_), out(recv_),
                                               op_);
            });
      case Reduction::scatter:
        break;
    }
    const std::vector<int>& counts = recvcounts_;
    if (raw) {
      return by_mode(
          mode, [&] { reduce_scatter(comm(), send, recv, counts, type_, op_); },
          [&] {
            return ireduce_scatter(comm(), send, recv, counts, type_, op_);
          },
          [&] {
            return reduce_scatter_init(comm(), send, recv, counts, type_, op_);
          });
    }
    if (in_place_) {
      return by_mode(
          mode,
          [&] { reduce_scatter(comm(), in_place, out(recv_), counts, op_); },
          [&] {
            return ireduce_scatter(comm(), in_place, out(recv_), counts, op_);
          },
          [&] {
            return reduce_scatter_init(comm(), in_place, out(recv_), counts,
                                       op_);
          });
    }
    return by_mode(
        mode,
        [&] { reduce_scatter(comm(), in(send_), out(recv_), counts, op_); },
        [&] {
          return ireduce_scatter(comm(), in(send_), out(recv_), counts, op_);
        },
        [&] {
          return reduce_scatter_init(comm(), in(send_), out(recv_), counts,
                                     op_);
        });
  }

  int oracle(MPI_Request* r) override {
    const void* send = in_place_ ? MPI_IN_PLACE : send_.data();
    void* recv = recv_.data();
    const MPI_Comm c = oracle_comm();
    switch (which_) {
      case Reduction::reduce:
        return MPI_Ireduce(send, recv, count_, type_, op_, root_, c, r);
      case Reduction::allreduce:
        return MPI_Iallreduce(send, recv, count_, type_, op_, c, r);
      case Reduction::scan:
        return MPI_Iscan(send, recv, count_, type_, op_, c, r);
      case Reduction::exscan:
        return MPI_Iexscan(send, recv, count_, type_, op_, c, r);
      case Reduction::block:
        return MPI_Ireduce_scatter_block(send, recv, count_, type_, op_, c, r);
      case Reduction::scatter:
        break;
    }
    return MPI_Ireduce_scatter(send, recv, recvcounts_.data(), type_, op_, c,
                               r);
  }

  // MPI leaves exscan's result on rank 0 undefined.
  bool same(const Case& other) const override {
    const auto& that = static_cast<const Reducing&>(other);
    if (which_ == Reduction::exscan && rank() == 0) {
      return send_ == that.send_;
    }
    // In place, only the process's block (at the start) is defined after
    // reduce_scatter(_block); the rest of the buffer is the transport's
    // scratch (Open MPI's blocking and non-blocking forms leave different
    // values there).
    if (in_place_ &&
        (which_ == Reduction::scatter || which_ == Reduction::block)) {
      const std::size_t block = elements(
          which_ == Reduction::block ? count_ : recvcounts_[at(rank())]);
      return std::equal(recv_.begin(), recv_.begin() + block,
                        that.recv_.begin());
    }
    return CaseOf::same(other);
  }

  std::string details() const override {
    return std::string(in_place_ ? " in place" : "") +
           (op_ == Derived::get().compose ? " affine" : "") +
           (typed() ? " typed" : " raw") + " count " + std::to_string(count_);
  }

  const char* name() const override {
    static const char* const kNames[] = {
        "reduce",        "allreduce", "scan", "exscan", "reduce_scatter_block",
        "reduce_scatter"};
    return kNames[static_cast<int>(which_)];
  }

 private:
  Reduction which_;
  MPI_Op op_;
  int count_, root_;
  bool in_place_;
  std::vector<int> recvcounts_;
};

}  // namespace

std::unique_ptr<Case> make_case(int which, const CommPair& pair, Random& shared,
                                Random& local) {
  switch (which) {
    case 0:
      return std::make_unique<Barrier>(pair, shared);
    case 1:
      return std::make_unique<Bcast>(pair, shared);
    case 2:
      return std::make_unique<Gather>(pair, shared);
    case 3:
      return std::make_unique<Gatherv>(pair, shared, local);
    case 4:
      return std::make_unique<Scatter>(pair, shared);
    case 5:
      return std::make_unique<Scatterv>(pair, shared, local);
    case 6:
      return std::make_unique<Allgather>(pair, shared);
    case 7:
      return std::make_unique<Allgatherv>(pair, shared, local);
    case 8:
      return std::make_unique<Alltoall>(pair, shared);
    case 9:
      return std::make_unique<Alltoallv>(pair, shared, local);
    case 10:
      return std::make_unique<Alltoallw>(pair, shared, local);
    case 11:
      return std::make_unique<Reducing>(Reduction::reduce, pair, shared);
    case 12:
      return std::make_unique<Reducing>(Reduction::allreduce, pair, shared);
    case 13:
      return std::make_unique<Reducing>(Reduction::block, pair, shared);
    case 14:
      return std::make_unique<Reducing>(Reduction::scatter, pair, shared);
    case 15:
      return std::make_unique<Reducing>(Reduction::scan, pair, shared);
    default:
      return std::make_unique<Reducing>(Reduction::exscan, pair, shared);
  }
}

}  // namespace classic::testing
