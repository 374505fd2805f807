#include "tests/ortho/native/native_cases.h"

#include <mpi.h>

#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "classic/base/datatype.h"
#include "classic/collectives/collectives.h"
#include "ortho/collectives.h"
#include "tests/classic/testing/collectives_testing.h"

namespace ortho_native_test {
namespace {

using classic::testing::chance;
using classic::testing::Layout;
using classic::testing::random_counts;
using classic::testing::scattered;
using classic::testing::uniform;
using ortho::Operation;

template <typename T>
std::span<const T> in(const std::vector<T>& v) {
  return v;
}
template <typename T>
std::span<T> out(std::vector<T>& v) {
  return v;
}

template <typename T>
MPI_Datatype type() {
  return classic::datatype_of<T>();
}

template <typename T>
std::string type_name() {
  char name[MPI_MAX_OBJECT_NAME] = {};
  int length = 0;
  MPI_Type_get_name(type<T>(), name, &length);
  return std::string(name, static_cast<std::size_t>(length));
}

std::string op_name(MPI_Op op) {
  const std::pair<MPI_Op, const char*> names[] = {
      {MPI_SUM, "MPI_SUM"},   {MPI_PROD, "MPI_PROD"}, {MPI_MIN, "MPI_MIN"},
      {MPI_MAX, "MPI_MAX"},   {MPI_BAND, "MPI_BAND"}, {MPI_BOR, "MPI_BOR"},
      {MPI_BXOR, "MPI_BXOR"}, {MPI_LAND, "MPI_LAND"}, {MPI_LOR, "MPI_LOR"},
      {MPI_LXOR, "MPI_LXOR"},
  };
  for (const auto& [known, name] : names) {
    if (known == op) return name;
  }
  return "a user op";
}

std::string root_name(const Root& root) {
  return std::string(" root ") + (root.in_a ? "A:" : "B:") +
         std::to_string(root.rank);
}

// Counts and displacements (in elements) of a v variant's blocks.
struct VBlocks {
  ArgArray<int> counts;
  ArgArray<int> displs;

  VBlocks() = default;
  explicit VBlocks(const Layout& layout)
      : counts(layout.counts), displs(layout.displs) {}
  void restore() {
    counts.restore();
    displs.restore();
  }
  void scramble() {
    counts.scramble(-7);
    displs.scramble(-1000003);
  }
};

// ---- data movement ---------------------------------------------------------

class Barrier : public Case {
 public:
  Barrier(const Place& place, Random&, Random&) : place_(place) {}
  std::string describe() const override { return "barrier"; }
  bool has_typed_form() const override { return false; }
  void fill(Random&) override {}
  classic::Request run(Api api, Mode mode, Form) override {
    return ORTHO_NATIVE_CALL(api, mode, barrier, place_.comm);
  }
  void compare() const override {}

 private:
  const Place& place_;
};

template <typename T>
class Bcast : public Case {
 public:
  Bcast(const Place& place, Random& shared, Random&) : place_(place) {
    count_ = uniform(shared, 0, 6);
    root_ = draw_root(place, shared);
    buffer_.resize(at(count_));
  }
  std::string describe() const override {
    return "bcast of " + std::to_string(count_) + " " + type_name<T>() +
           root_name(root_);
  }
  void fill(Random& local) override {
    if (root_.is(place_)) {
      buffer_.fresh(local);
    } else {
      buffer_.reset();
    }
  }
  classic::Request run(Api api, Mode mode, Form form) override {
    std::vector<T>& b = buffer_.on(api);
    const int root = root_.arg(place_);
    if (form == Form::typed) {
      return ORTHO_NATIVE_CALL(api, mode, bcast, place_.comm, out(b), root);
    }
    return ORTHO_NATIVE_CALL(api, mode, bcast, place_.comm, b.data(), count_,
                             type<T>(), root);
  }
  void compare() const override { buffer_.expect_same(); }

 private:
  const Place& place_;
  int count_ = 0;
  Root root_;
  Twin<T> buffer_;
};

template <typename T>
class Gather : public Case {
 public:
  Gather(const Place& place, Random& shared, Random&) : place_(place) {
    count_ = uniform(shared, 0, 5);
    root_ = draw_root(place, shared);
    send_.resize(root_.serves(place) ? at(count_) : 0);
    recv_.resize(root_.is(place) ? at(count_ * root_.served(place)) : 0);
  }
  std::string describe() const override {
    return "gather of " + std::to_string(count_) + " " + type_name<T>() +
           root_name(root_);
  }
  void fill(Random& local) override {
    send_.fresh(local);
    recv_.reset();
  }
  classic::Request run(Api api, Mode mode, Form form) override {
    std::vector<T>& s = send_.on(api);
    std::vector<T>& r = recv_.on(api);
    const int root = root_.arg(place_);
    if (form == Form::typed) {
      return ORTHO_NATIVE_CALL(api, mode, gather, place_.comm, in(s), out(r),
                               root);
    }
    return ORTHO_NATIVE_CALL(api, mode, gather, place_.comm, s.data(), count_,
                             type<T>(), r.data(), count_, type<T>(), root);
  }
  void compare() const override { recv_.expect_same(); }

 private:
  const Place& place_;
  int count_ = 0;
  Root root_;
  Twin<T> send_;
  Twin<T> recv_;
};

template <typename T>
class Gatherv : public Case {
 public:
  Gatherv(const Place& place, Random& shared, Random&) : place_(place) {
    root_ = draw_root(place, shared);
    const Layout layout =
        scattered(shared, random_counts(shared, root_.served(place), 4));
    blocks_ = VBlocks(layout);
    send_.resize(root_.serves(place) ? at(layout.counts[at(place.rank)]) : 0);
    recv_.resize(root_.is(place) ? at(layout.extent) : 0);
  }
  std::string describe() const override {
    return "gatherv of " + type_name<T>() + root_name(root_);
  }
  void fill(Random& local) override {
    send_.fresh(local);
    recv_.reset();
  }
  classic::Request run(Api api, Mode mode, Form form) override {
    const std::span<const int> counts = blocks_.counts.on(api);
    const std::span<const int> displs = blocks_.displs.on(api);
    std::vector<T>& s = send_.on(api);
    std::vector<T>& r = recv_.on(api);
    const int root = root_.arg(place_);
    if (form == Form::typed) {
      return ORTHO_NATIVE_CALL(api, mode, gatherv, place_.comm, in(s), out(r),
                               counts, displs, root);
    }
    return ORTHO_NATIVE_CALL(api, mode, gatherv, place_.comm, s.data(),
                             send_.size(), type<T>(), r.data(), counts, displs,
                             type<T>(), root);
  }
  void compare() const override { recv_.expect_same(); }
  void restore_arrays() override { blocks_.restore(); }
  void scramble_arrays() override { blocks_.scramble(); }

 private:
  const Place& place_;
  Root root_;
  VBlocks blocks_;
  Twin<T> send_;
  Twin<T> recv_;
};

template <typename T>
class Scatter : public Case {
 public:
  Scatter(const Place& place, Random& shared, Random&) : place_(place) {
    count_ = uniform(shared, 0, 5);
    root_ = draw_root(place, shared);
    send_.resize(root_.is(place) ? at(count_ * root_.served(place)) : 0);
    recv_.resize(root_.serves(place) ? at(count_) : 0);
  }
  std::string describe() const override {
    return "scatter of " + std::to_string(count_) + " " + type_name<T>() +
           root_name(root_);
  }
  void fill(Random& local) override {
    send_.fresh(local);
    recv_.reset();
  }
  classic::Request run(Api api, Mode mode, Form form) override {
    std::vector<T>& s = send_.on(api);
    std::vector<T>& r = recv_.on(api);
    const int root = root_.arg(place_);
    if (form == Form::typed) {
      return ORTHO_NATIVE_CALL(api, mode, scatter, place_.comm, in(s), out(r),
                               root);
    }
    return ORTHO_NATIVE_CALL(api, mode, scatter, place_.comm, s.data(), count_,
                             type<T>(), r.data(), count_, type<T>(), root);
  }
  void compare() const override { recv_.expect_same(); }

 private:
  const Place& place_;
  int count_ = 0;
  Root root_;
  Twin<T> send_;
  Twin<T> recv_;
};

template <typename T>
class Scatterv : public Case {
 public:
  Scatterv(const Place& place, Random& shared, Random&) : place_(place) {
    root_ = draw_root(place, shared);
    const Layout layout =
        scattered(shared, random_counts(shared, root_.served(place), 4));
    blocks_ = VBlocks(layout);
    send_.resize(root_.is(place) ? at(layout.extent) : 0);
    recv_.resize(root_.serves(place) ? at(layout.counts[at(place.rank)]) : 0);
  }
  std::string describe() const override {
    return "scatterv of " + type_name<T>() + root_name(root_);
  }
  void fill(Random& local) override {
    send_.fresh(local);
    recv_.reset();
  }
  classic::Request run(Api api, Mode mode, Form form) override {
    const std::span<const int> counts = blocks_.counts.on(api);
    const std::span<const int> displs = blocks_.displs.on(api);
    std::vector<T>& s = send_.on(api);
    std::vector<T>& r = recv_.on(api);
    const int root = root_.arg(place_);
    if (form == Form::typed) {
      return ORTHO_NATIVE_CALL(api, mode, scatterv, place_.comm, in(s), counts,
                               displs, out(r), root);
    }
    return ORTHO_NATIVE_CALL(api, mode, scatterv, place_.comm, s.data(), counts,
                             displs, type<T>(), r.data(), recv_.size(),
                             type<T>(), root);
  }
  void compare() const override { recv_.expect_same(); }
  void restore_arrays() override { blocks_.restore(); }
  void scramble_arrays() override { blocks_.scramble(); }

 private:
  const Place& place_;
  Root root_;
  VBlocks blocks_;
  Twin<T> send_;
  Twin<T> recv_;
};

// What each side sends per block (allgather, alltoall): on a bipartite
// communicator the two sides may differ; a fully connected one has side A
// only.
struct SideCounts {
  int a = 0;
  int b = 0;
  int of(const Place& place, bool side_a) const {
    return !place.bipartite || side_a ? a : b;
  }
};

SideCounts draw_side_counts(Random& shared, int high) {
  SideCounts counts;
  counts.a = uniform(shared, 0, high);
  counts.b = uniform(shared, 0, high);
  return counts;
}

template <typename T>
class Allgather : public Case {
 public:
  Allgather(const Place& place, Random& shared, Random&) : place_(place) {
    counts_ = draw_side_counts(shared, 4);
    send_.resize(at(counts_.of(place, place.in_a)));
    recv_.resize(at(place.peers() * counts_.of(place, place.peer_in_a())));
  }
  std::string describe() const override {
    return "allgather of " + std::to_string(send_.size()) + " " +
           type_name<T>() + ", receiving " + std::to_string(recv_.size());
  }
  void fill(Random& local) override {
    send_.fresh(local);
    recv_.reset();
  }
  classic::Request run(Api api, Mode mode, Form form) override {
    std::vector<T>& s = send_.on(api);
    std::vector<T>& r = recv_.on(api);
    if (form == Form::typed) {
      return ORTHO_NATIVE_CALL(api, mode, allgather, place_.comm, in(s),
                               out(r));
    }
    return ORTHO_NATIVE_CALL(api, mode, allgather, place_.comm, s.data(),
                             send_.size(), type<T>(), r.data(),
                             counts_.of(place_, place_.peer_in_a()), type<T>());
  }
  void compare() const override { recv_.expect_same(); }

 private:
  const Place& place_;
  SideCounts counts_;
  Twin<T> send_;
  Twin<T> recv_;
};

template <typename T>
class Allgatherv : public Case {
 public:
  Allgatherv(const Place& place, Random& shared, Random& local)
      : place_(place) {
    const std::vector<int> counts_a = random_counts(shared, place.size_a, 3);
    const std::vector<int> counts_b = random_counts(shared, place.size_b, 3);
    const std::vector<int>& mine = place.in_a ? counts_a : counts_b;
    const Layout layout =
        scattered(local, place.peer_in_a() ? counts_a : counts_b);
    blocks_ = VBlocks(layout);
    send_.resize(at(mine[at(place.rank)]));
    recv_.resize(at(layout.extent));
  }
  std::string describe() const override {
    return "allgatherv of " + type_name<T>();
  }
  void fill(Random& local) override {
    send_.fresh(local);
    recv_.reset();
  }
  classic::Request run(Api api, Mode mode, Form form) override {
    const std::span<const int> counts = blocks_.counts.on(api);
    const std::span<const int> displs = blocks_.displs.on(api);
    std::vector<T>& s = send_.on(api);
    std::vector<T>& r = recv_.on(api);
    if (form == Form::typed) {
      return ORTHO_NATIVE_CALL(api, mode, allgatherv, place_.comm, in(s),
                               out(r), counts, displs);
    }
    return ORTHO_NATIVE_CALL(api, mode, allgatherv, place_.comm, s.data(),
                             send_.size(), type<T>(), r.data(), counts, displs,
                             type<T>());
  }
  void compare() const override { recv_.expect_same(); }
  void restore_arrays() override { blocks_.restore(); }
  void scramble_arrays() override { blocks_.scramble(); }

 private:
  const Place& place_;
  VBlocks blocks_;
  Twin<T> send_;
  Twin<T> recv_;
};

template <typename T>
class Alltoall : public Case {
 public:
  Alltoall(const Place& place, Random& shared, Random&) : place_(place) {
    counts_ = draw_side_counts(shared, 4);
    send_.resize(at(place.peers() * counts_.of(place, place.in_a)));
    recv_.resize(at(place.peers() * counts_.of(place, place.peer_in_a())));
  }
  std::string describe() const override {
    return "alltoall of " + std::to_string(send_.size()) + " " +
           type_name<T>() + ", receiving " + std::to_string(recv_.size());
  }
  void fill(Random& local) override {
    send_.fresh(local);
    recv_.reset();
  }
  classic::Request run(Api api, Mode mode, Form form) override {
    std::vector<T>& s = send_.on(api);
    std::vector<T>& r = recv_.on(api);
    if (form == Form::typed) {
      return ORTHO_NATIVE_CALL(api, mode, alltoall, place_.comm, in(s), out(r));
    }
    return ORTHO_NATIVE_CALL(api, mode, alltoall, place_.comm, s.data(),
                             counts_.of(place_, place_.in_a), type<T>(),
                             r.data(), counts_.of(place_, place_.peer_in_a()),
                             type<T>());
  }
  void compare() const override { recv_.expect_same(); }

 private:
  const Place& place_;
  SideCounts counts_;
  Twin<T> send_;
  Twin<T> recv_;
};

// Counts of an alltoallv: what this process sends to each peer and
// receives from each, cut from count matrices (side to side) that every
// process draws alike.
struct Exchange {
  std::vector<int> send_counts;
  std::vector<int> recv_counts;
};

Exchange draw_exchange(const Place& place, Random& shared, int high) {
  // matrix[from][to][i][j]: from local rank i of side `from` (0: A, 1: B)
  // to local rank j of side `to`.
  std::vector<std::vector<int>> matrix[2][2];
  for (int from = 0; from < 2; ++from) {
    for (int to = 0; to < 2; ++to) {
      const int rows = place.size_of(from == 0);
      for (int i = 0; i < rows; ++i) {
        matrix[from][to].push_back(
            random_counts(shared, place.size_of(to == 0), high));
      }
    }
  }
  const int me = place.in_a ? 0 : 1;
  const int peer = place.peer_in_a() ? 0 : 1;
  Exchange exchange;
  exchange.send_counts = matrix[me][peer][at(place.rank)];
  for (const std::vector<int>& row : matrix[peer][me]) {
    exchange.recv_counts.push_back(row[at(place.rank)]);
  }
  return exchange;
}

template <typename T>
class Alltoallv : public Case {
 public:
  Alltoallv(const Place& place, Random& shared, Random& local) : place_(place) {
    const Exchange exchange = draw_exchange(place, shared, 3);
    const Layout send_layout = scattered(local, exchange.send_counts);
    const Layout recv_layout = scattered(local, exchange.recv_counts);
    send_blocks_ = VBlocks(send_layout);
    recv_blocks_ = VBlocks(recv_layout);
    send_.resize(at(send_layout.extent));
    recv_.resize(at(recv_layout.extent));
  }
  std::string describe() const override {
    return "alltoallv of " + type_name<T>();
  }
  void fill(Random& local) override {
    send_.fresh(local);
    recv_.reset();
  }
  classic::Request run(Api api, Mode mode, Form form) override {
    std::vector<T>& s = send_.on(api);
    std::vector<T>& r = recv_.on(api);
    const std::span<const int> sc = send_blocks_.counts.on(api);
    const std::span<const int> sd = send_blocks_.displs.on(api);
    const std::span<const int> rc = recv_blocks_.counts.on(api);
    const std::span<const int> rd = recv_blocks_.displs.on(api);
    if (form == Form::typed) {
      return ORTHO_NATIVE_CALL(api, mode, alltoallv, place_.comm, in(s), sc, sd,
                               out(r), rc, rd);
    }
    return ORTHO_NATIVE_CALL(api, mode, alltoallv, place_.comm, s.data(), sc,
                             sd, type<T>(), r.data(), rc, rd, type<T>());
  }
  void compare() const override { recv_.expect_same(); }
  void restore_arrays() override {
    send_blocks_.restore();
    recv_blocks_.restore();
  }
  void scramble_arrays() override {
    send_blocks_.scramble();
    recv_blocks_.scramble();
  }

 private:
  const Place& place_;
  VBlocks send_blocks_;
  VBlocks recv_blocks_;
  Twin<T> send_;
  Twin<T> recv_;
};

// Two ints as one element (a derived datatype), made at first use and left
// to the transport's finalize.
MPI_Datatype two_ints() {
  static const MPI_Datatype type = [] {
    MPI_Datatype made = MPI_DATATYPE_NULL;
    MPI_Type_contiguous(2, MPI_INT, &made);
    MPI_Type_commit(&made);
    return made;
  }();
  return type;
}

// alltoallw on ints in pairs: each block travels as ints or as pairs of
// them, chosen apart at its two ends; byte displacements (MPI_Aint for
// ortho, int for classic).
class Alltoallw : public Case {
 public:
  Alltoallw(const Place& place, Random& shared, Random& local) : place_(place) {
    Exchange exchange = draw_exchange(place, shared, 3);
    for (int& count : exchange.send_counts) count *= 2;
    for (int& count : exchange.recv_counts) count *= 2;
    send_ = describe_blocks(scattered(local, exchange.send_counts), local);
    recv_ = describe_blocks(scattered(local, exchange.recv_counts), local);
    send_data_.resize(at(send_.extent));
    recv_data_.resize(at(recv_.extent));
  }
  std::string describe() const override {
    return "alltoallw of ints and pairs of ints";
  }
  bool has_typed_form() const override { return false; }
  void fill(Random& local) override {
    send_data_.fresh(local);
    recv_data_.reset();
  }
  classic::Request run(Api api, Mode mode, Form) override {
    std::vector<int>& s = send_data_.on(api);
    std::vector<int>& r = recv_data_.on(api);
    if (api == Api::classic) {
      classic::alltoallw(place_.comm, s.data(), send_.counts.value,
                         send_.int_displs, send_.types.value, r.data(),
                         recv_.counts.value, recv_.int_displs,
                         recv_.types.value);
      return classic::Request();
    }
    return ORTHO_IN_MODE(mode, alltoallw, place_.comm, s.data(),
                         send_.counts.passed, send_.displs.passed,
                         send_.types.passed, r.data(), recv_.counts.passed,
                         recv_.displs.passed, recv_.types.passed);
  }
  void compare() const override { recv_data_.expect_same(); }
  void restore_arrays() override {
    send_.restore();
    recv_.restore();
  }
  void scramble_arrays() override {
    send_.scramble();
    recv_.scramble();
  }

 private:
  struct Blocks {
    ArgArray<int> counts;
    ArgArray<MPI_Aint> displs;
    std::vector<int> int_displs;  // classic's
    ArgArray<MPI_Datatype> types;
    int extent = 0;

    void restore() {
      counts.restore();
      displs.restore();
      types.restore();
    }
    void scramble() {
      counts.scramble(-7);
      displs.scramble(-1000003);
      types.scramble(MPI_DATATYPE_NULL);
    }
  };
  static Blocks describe_blocks(const Layout& layout, Random& local) {
    std::vector<int> counts;
    std::vector<MPI_Aint> displs;
    std::vector<MPI_Datatype> types;
    Blocks blocks;
    blocks.extent = layout.extent;
    for (std::size_t j = 0; j < layout.counts.size(); ++j) {
      const bool pairs = chance(local, 50);
      counts.push_back(pairs ? layout.counts[j] / 2 : layout.counts[j]);
      blocks.int_displs.push_back(layout.displs[j] *
                                  static_cast<int>(sizeof(int)));
      displs.push_back(blocks.int_displs.back());
      types.push_back(pairs ? two_ints() : MPI_INT);
    }
    blocks.counts = ArgArray<int>(std::move(counts));
    blocks.displs = ArgArray<MPI_Aint>(std::move(displs));
    blocks.types = ArgArray<MPI_Datatype>(std::move(types));
    return blocks;
  }

  const Place& place_;
  Blocks send_;
  Blocks recv_;
  Twin<int> send_data_;
  Twin<int> recv_data_;
};

// ---- reductions ------------------------------------------------------------

template <typename T>
class Reduce : public Case {
 public:
  Reduce(const Place& place, Random& shared, Random&, MPI_Op op)
      : place_(place), op_(op) {
    count_ = uniform(shared, 0, 5);
    root_ = draw_root(place, shared);
    send_.resize(root_.serves(place) ? at(count_) : 0);
    recv_.resize(root_.is(place) ? at(count_) : 0);
  }
  std::string describe() const override {
    return "reduce of " + std::to_string(count_) + " " + type_name<T>() +
           " by " + op_name(op_) + root_name(root_);
  }
  void fill(Random& local) override {
    send_.fresh(local, op_);
    recv_.reset();
  }
  classic::Request run(Api api, Mode mode, Form form) override {
    std::vector<T>& s = send_.on(api);
    std::vector<T>& r = recv_.on(api);
    const int root = root_.arg(place_);
    if (form == Form::typed) {
      return ORTHO_NATIVE_CALL(api, mode, reduce, place_.comm, in(s), out(r),
                               op_, root);
    }
    return ORTHO_NATIVE_CALL(api, mode, reduce, place_.comm, s.data(), r.data(),
                             count_, type<T>(), op_, root);
  }
  void compare() const override { recv_.expect_same(); }

 private:
  const Place& place_;
  MPI_Op op_;
  int count_ = 0;
  Root root_;
  Twin<T> send_;
  Twin<T> recv_;
};

// allreduce, scan and exscan: count operands in, count results out.
enum class Elementwise { allreduce, scan, exscan };

template <typename T, Elementwise kind>
class ElementwiseCase : public Case {
 public:
  ElementwiseCase(const Place& place, Random& shared, Random&, MPI_Op op)
      : place_(place), op_(op) {
    count_ = uniform(shared, 0, 5);
    send_.resize(at(count_));
    recv_.resize(at(count_));
  }
  std::string describe() const override {
    const char* name = kind == Elementwise::allreduce ? "allreduce"
                       : kind == Elementwise::scan    ? "scan"
                                                      : "exscan";
    return std::string(name) + " of " + std::to_string(count_) + " " +
           type_name<T>() + " by " + op_name(op_);
  }
  void fill(Random& local) override {
    send_.fresh(local, op_);
    recv_.reset();
  }
  classic::Request run(Api api, Mode mode, Form form) override {
    std::vector<T>& s = send_.on(api);
    std::vector<T>& r = recv_.on(api);
    const classic::Comm& comm = place_.comm;
    const bool typed = form == Form::typed;
    switch (kind) {
      case Elementwise::allreduce:
        return typed ? ORTHO_NATIVE_CALL(api, mode, allreduce, comm, in(s),
                                         out(r), op_)
                     : ORTHO_NATIVE_CALL(api, mode, allreduce, comm, s.data(),
                                         r.data(), count_, type<T>(), op_);
      case Elementwise::scan:
        return typed ? ORTHO_NATIVE_CALL(api, mode, scan, comm, in(s), out(r),
                                         op_)
                     : ORTHO_NATIVE_CALL(api, mode, scan, comm, s.data(),
                                         r.data(), count_, type<T>(), op_);
      case Elementwise::exscan:
        break;
    }
    return typed
               ? ORTHO_NATIVE_CALL(api, mode, exscan, comm, in(s), out(r), op_)
               : ORTHO_NATIVE_CALL(api, mode, exscan, comm, s.data(), r.data(),
                                   count_, type<T>(), op_);
  }
  void compare() const override {
    // MPI leaves exscan's result at rank 0 undefined.
    if (kind == Elementwise::exscan && place_.rank == 0) return;
    recv_.expect_same();
  }

 private:
  const Place& place_;
  MPI_Op op_;
  int count_ = 0;
  Twin<T> send_;
  Twin<T> recv_;
};

template <typename T>
using Allreduce = ElementwiseCase<T, Elementwise::allreduce>;
template <typename T>
using Scan = ElementwiseCase<T, Elementwise::scan>;
template <typename T>
using Exscan = ElementwiseCase<T, Elementwise::exscan>;

// `total` elements cut into `parts` random counts.
std::vector<int> cut(Random& shared, int total, int parts) {
  std::vector<int> counts(at(parts), 0);
  for (int k = 0; k < total; ++k) ++counts[at(uniform(shared, 0, parts - 1))];
  return counts;
}

// Both sides of a bipartite communicator reduce vectors of one length, each
// cut its own way.
template <typename T>
class ReduceScatter : public Case {
 public:
  ReduceScatter(const Place& place, Random& shared, Random&, MPI_Op op)
      : place_(place), op_(op) {
    const int total = uniform(shared, 0, 9);
    const std::vector<int> counts_a = cut(shared, total, place.size_a);
    const std::vector<int> counts_b = cut(shared, total, place.size_b);
    counts_ = ArgArray<int>(place.in_a ? counts_a : counts_b);
    send_.resize(at(total));
    recv_.resize(at(counts_.value[at(place.rank)]));
  }
  std::string describe() const override {
    return "reduce_scatter of " + std::to_string(send_.size()) + " " +
           type_name<T>() + " by " + op_name(op_);
  }
  void fill(Random& local) override {
    send_.fresh(local, op_);
    recv_.reset();
  }
  classic::Request run(Api api, Mode mode, Form form) override {
    const std::span<const int> counts = counts_.on(api);
    std::vector<T>& s = send_.on(api);
    std::vector<T>& r = recv_.on(api);
    if (form == Form::typed) {
      return ORTHO_NATIVE_CALL(api, mode, reduce_scatter, place_.comm, in(s),
                               out(r), counts, op_);
    }
    return ORTHO_NATIVE_CALL(api, mode, reduce_scatter, place_.comm, s.data(),
                             r.data(), counts, type<T>(), op_);
  }
  void compare() const override { recv_.expect_same(); }
  void restore_arrays() override { counts_.restore(); }
  void scramble_arrays() override { counts_.scramble(-7); }

 private:
  const Place& place_;
  MPI_Op op_;
  ArgArray<int> counts_;
  Twin<T> send_;
  Twin<T> recv_;
};

// Bipartite: equal totals, so side A's block is k |B| elements, B's k |A|.
template <typename T>
class ReduceScatterBlock : public Case {
 public:
  ReduceScatterBlock(const Place& place, Random& shared, Random&, MPI_Op op)
      : place_(place), op_(op) {
    const int k = uniform(shared, 0, 3);
    block_ = place.bipartite ? k * place.peers() : k;
    send_.resize(at(block_ * place.size()));
    recv_.resize(at(block_));
  }
  std::string describe() const override {
    return "reduce_scatter_block of " + std::to_string(block_) + " " +
           type_name<T>() + " by " + op_name(op_);
  }
  void fill(Random& local) override {
    send_.fresh(local, op_);
    recv_.reset();
  }
  classic::Request run(Api api, Mode mode, Form form) override {
    std::vector<T>& s = send_.on(api);
    std::vector<T>& r = recv_.on(api);
    if (form == Form::typed) {
      return ORTHO_NATIVE_CALL(api, mode, reduce_scatter_block, place_.comm,
                               in(s), out(r), op_);
    }
    return ORTHO_NATIVE_CALL(api, mode, reduce_scatter_block, place_.comm,
                             s.data(), r.data(), block_, type<T>(), op_);
  }
  void compare() const override { recv_.expect_same(); }

 private:
  const Place& place_;
  MPI_Op op_;
  int block_ = 0;
  Twin<T> send_;
  Twin<T> recv_;
};

// ---- in place (fully connected) --------------------------------------------

template <typename T>
class GatherInPlace : public Case {
 public:
  GatherInPlace(const Place& place, Random& shared, Random&) : place_(place) {
    count_ = uniform(shared, 0, 4);
    root_ = draw_root(place, shared);
    const bool at_root = root_.is(place);
    send_.resize(at_root ? 0 : at(count_));
    recv_.resize(at_root ? at(count_ * place.size()) : 0);
  }
  std::string describe() const override {
    return "gather in place of " + std::to_string(count_) + " " +
           type_name<T>() + root_name(root_);
  }
  void fill(Random& local) override {
    send_.fresh(local);
    recv_.fresh(local);  // at the root: its own block and what is replaced
  }
  classic::Request run(Api api, Mode mode, Form form) override {
    std::vector<T>& s = send_.on(api);
    std::vector<T>& r = recv_.on(api);
    const int root = root_.rank;
    const classic::Comm& comm = place_.comm;
    if (!root_.is(place_)) {
      return form == Form::typed
                 ? ORTHO_NATIVE_CALL(api, mode, gather, comm, in(s), out(r),
                                     root)
                 : ORTHO_NATIVE_CALL(api, mode, gather, comm, s.data(), count_,
                                     type<T>(), r.data(), count_, type<T>(),
                                     root);
    }
    return form == Form::typed
               ? ORTHO_NATIVE_CALL(api, mode, gather, comm, classic::in_place,
                                   out(r), root)
               : ORTHO_NATIVE_CALL(api, mode, gather, comm, MPI_IN_PLACE,
                                   count_, type<T>(), r.data(), count_,
                                   type<T>(), root);
  }
  void compare() const override { recv_.expect_same(); }

 private:
  const Place& place_;
  int count_ = 0;
  Root root_;
  Twin<T> send_;
  Twin<T> recv_;
};

template <typename T>
class ScatterInPlace : public Case {
 public:
  ScatterInPlace(const Place& place, Random& shared, Random&) : place_(place) {
    count_ = uniform(shared, 0, 4);
    root_ = draw_root(place, shared);
    const bool at_root = root_.is(place);
    send_.resize(at_root ? at(count_ * place.size()) : 0);
    recv_.resize(at_root ? 0 : at(count_));
  }
  std::string describe() const override {
    return "scatter in place of " + std::to_string(count_) + " " +
           type_name<T>() + root_name(root_);
  }
  void fill(Random& local) override {
    send_.fresh(local);
    recv_.reset();
  }
  classic::Request run(Api api, Mode mode, Form form) override {
    std::vector<T>& s = send_.on(api);
    std::vector<T>& r = recv_.on(api);
    const int root = root_.rank;
    const classic::Comm& comm = place_.comm;
    if (!root_.is(place_)) {
      return form == Form::typed
                 ? ORTHO_NATIVE_CALL(api, mode, scatter, comm, in(s), out(r),
                                     root)
                 : ORTHO_NATIVE_CALL(api, mode, scatter, comm, s.data(), count_,
                                     type<T>(), r.data(), count_, type<T>(),
                                     root);
    }
    return form == Form::typed
               ? ORTHO_NATIVE_CALL(api, mode, scatter, comm, in(s),
                                   classic::in_place, root)
               : ORTHO_NATIVE_CALL(api, mode, scatter, comm, s.data(), count_,
                                   type<T>(), MPI_IN_PLACE, count_, type<T>(),
                                   root);
  }
  void compare() const override {
    send_.expect_same();  // the root keeps its block where it was
    recv_.expect_same();
  }

 private:
  const Place& place_;
  int count_ = 0;
  Root root_;
  Twin<T> send_;
  Twin<T> recv_;
};

template <typename T>
class ReduceInPlace : public Case {
 public:
  ReduceInPlace(const Place& place, Random& shared, Random&, MPI_Op op)
      : place_(place), op_(op) {
    count_ = uniform(shared, 0, 5);
    root_ = draw_root(place, shared);
    const bool at_root = root_.is(place);
    send_.resize(at_root ? 0 : at(count_));
    recv_.resize(at_root ? at(count_) : 0);
  }
  std::string describe() const override {
    return "reduce in place of " + std::to_string(count_) + " " +
           type_name<T>() + " by " + op_name(op_) + root_name(root_);
  }
  void fill(Random& local) override {
    send_.fresh(local, op_);
    recv_.fresh(local, op_);  // the root's operand
  }
  classic::Request run(Api api, Mode mode, Form form) override {
    std::vector<T>& s = send_.on(api);
    std::vector<T>& r = recv_.on(api);
    const int root = root_.rank;
    const classic::Comm& comm = place_.comm;
    if (!root_.is(place_)) {
      return form == Form::typed
                 ? ORTHO_NATIVE_CALL(api, mode, reduce, comm, in(s), out(r),
                                     op_, root)
                 : ORTHO_NATIVE_CALL(api, mode, reduce, comm, s.data(),
                                     r.data(), count_, type<T>(), op_, root);
    }
    return form == Form::typed
               ? ORTHO_NATIVE_CALL(api, mode, reduce, comm, classic::in_place,
                                   out(r), op_, root)
               : ORTHO_NATIVE_CALL(api, mode, reduce, comm, MPI_IN_PLACE,
                                   r.data(), count_, type<T>(), op_, root);
  }
  void compare() const override { recv_.expect_same(); }

 private:
  const Place& place_;
  MPI_Op op_;
  int count_ = 0;
  Root root_;
  Twin<T> send_;
  Twin<T> recv_;
};

template <typename T>
class AllreduceInPlace : public Case {
 public:
  AllreduceInPlace(const Place& place, Random& shared, Random&, MPI_Op op)
      : place_(place), op_(op) {
    count_ = uniform(shared, 0, 5);
    buffer_.resize(at(count_));
  }
  std::string describe() const override {
    return "allreduce in place of " + std::to_string(count_) + " " +
           type_name<T>() + " by " + op_name(op_);
  }
  void fill(Random& local) override { buffer_.fresh(local, op_); }
  classic::Request run(Api api, Mode mode, Form form) override {
    std::vector<T>& b = buffer_.on(api);
    if (form == Form::typed) {
      return ORTHO_NATIVE_CALL(api, mode, allreduce, place_.comm,
                               classic::in_place, out(b), op_);
    }
    return ORTHO_NATIVE_CALL(api, mode, allreduce, place_.comm, MPI_IN_PLACE,
                             b.data(), count_, type<T>(), op_);
  }
  void compare() const override { buffer_.expect_same(); }

 private:
  const Place& place_;
  MPI_Op op_;
  int count_ = 0;
  Twin<T> buffer_;
};

// ---- factories -------------------------------------------------------------

// A case of C<T> for a random element type T.
template <template <typename> class C>
std::unique_ptr<Case> moving(const Place& place, Random& shared,
                             Random& local) {
  std::unique_ptr<Case> made;
  classic::testing::with_element_type(
      uniform(shared, 0, classic::testing::kElementTypes - 1),
      [&]<typename T>() {
        made = std::make_unique<C<T>>(place, shared, local);
      });
  return made;
}

// A case of C<T> for a random element type T and an op MPI defines on it.
template <template <typename> class C>
std::unique_ptr<Case> reducing(const Place& place, Random& shared,
                               Random& local) {
  std::unique_ptr<Case> made;
  classic::testing::with_reduction(shared, [&]<typename T>(MPI_Op op) {
    made = std::make_unique<C<T>>(place, shared, local, op);
  });
  return made;
}

}  // namespace

std::vector<Operation> fully_connected_operations() {
  std::vector<Operation> operations;
  for (Operation operation : ortho::all_operations()) {
    if (operation != Operation::allgatherw) operations.push_back(operation);
  }
  return operations;
}

std::vector<Operation> bipartite_operations() {
  std::vector<Operation> operations;
  for (Operation operation : fully_connected_operations()) {
    if (operation != Operation::scan && operation != Operation::exscan) {
      operations.push_back(operation);
    }
  }
  return operations;
}

std::unique_ptr<Case> make_case(Operation operation, const Place& place,
                                Random& shared, Random& local) {
  switch (operation) {
    case Operation::barrier:
      return std::make_unique<Barrier>(place, shared, local);
    case Operation::bcast:
      return moving<Bcast>(place, shared, local);
    case Operation::gather:
      return moving<Gather>(place, shared, local);
    case Operation::gatherv:
      return moving<Gatherv>(place, shared, local);
    case Operation::scatter:
      return moving<Scatter>(place, shared, local);
    case Operation::scatterv:
      return moving<Scatterv>(place, shared, local);
    case Operation::allgather:
      return moving<Allgather>(place, shared, local);
    case Operation::allgatherv:
      return moving<Allgatherv>(place, shared, local);
    case Operation::alltoall:
      return moving<Alltoall>(place, shared, local);
    case Operation::alltoallv:
      return moving<Alltoallv>(place, shared, local);
    case Operation::alltoallw:
      return std::make_unique<Alltoallw>(place, shared, local);
    case Operation::reduce:
      return reducing<Reduce>(place, shared, local);
    case Operation::allreduce:
      return reducing<Allreduce>(place, shared, local);
    case Operation::reduce_scatter:
      return reducing<ReduceScatter>(place, shared, local);
    case Operation::reduce_scatter_block:
      return reducing<ReduceScatterBlock>(place, shared, local);
    case Operation::scan:
      return reducing<Scan>(place, shared, local);
    case Operation::exscan:
      return reducing<Exscan>(place, shared, local);
    case Operation::allgatherw:
      break;
  }
  ADD_FAILURE() << "no case for " << ortho::to_string(operation);
  return nullptr;
}

std::vector<Operation> in_place_operations() {
  return {Operation::gather, Operation::scatter, Operation::reduce,
          Operation::allreduce};
}

std::unique_ptr<Case> make_in_place_case(Operation operation,
                                         const Place& place, Random& shared,
                                         Random& local) {
  switch (operation) {
    case Operation::gather:
      return moving<GatherInPlace>(place, shared, local);
    case Operation::scatter:
      return moving<ScatterInPlace>(place, shared, local);
    case Operation::reduce:
      return reducing<ReduceInPlace>(place, shared, local);
    case Operation::allreduce:
      return reducing<AllreduceInPlace>(place, shared, local);
    default:
      break;
  }
  ADD_FAILURE() << "no in-place case for " << ortho::to_string(operation);
  return nullptr;
}

}  // namespace ortho_native_test
